// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Links between hosts: an OVN logical switch with two ports per link,
 * journalled before each is made, waited for until both ports are bound,
 * and removed by `down` only where they carry the chain's tag. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "ovn.h"
#include "util.h"

#define NBCTL_TIMEOUT_S 5
#define TAG "external_ids:calvin-chain="

/* A random (version 4) UUID: a port's name, never reused. */
static int new_uuid(char out[OVN_UUID_LEN + 1])
{
	unsigned char b[16];

	if (getrandom(b, sizeof(b), 0) != sizeof(b))
		return -EIO;
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	snprintf(out, OVN_UUID_LEN + 1,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
		 b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
		 b[15]);
	return 0;
}

static int nbctl_said(const struct ovn_nb *nb, const char *const args[], const char *what)
{
	char out[256], err[512];
	int rc = ovn_nbctl(nb, NBCTL_TIMEOUT_S, args, out, sizeof(out), err, sizeof(err));

	if (rc)
		calvin_err("OVN northbound %s: cannot %s: %s", nb->remote, what, err);
	return rc;
}

/* Journalled, then made in one transaction with its tag, so a switch or
 * port of that name without the tag was never the chain's. */
static int journal_then_add(struct chain_state *s, const struct ovn_nb *nb, enum state_kind kind,
			    const char *name, const char *const args[], const char *what)
{
	int err = state_add(s, kind, name, nb->remote, 0, 0);

	if (err) {
		calvin_err("cannot journal %s: %s", what + 4, strerror(-err));
		return err;
	}
	return nbctl_said(nb, args, what);
}

static int switch_add(struct chain_state *s, const struct ovn_nb *nb, const char *chain,
		      const char *ls)
{
	char tag[96], what[128];
	const char *const args[] = { "ls-add", ls, "--", "set", "Logical_Switch", ls, tag, NULL };

	snprintf(tag, sizeof(tag), TAG "%s", chain);
	snprintf(what, sizeof(what), "add logical switch %s", ls);
	return journal_then_add(s, nb, ST_OVN_LS, ls, args, what);
}

static int port_add(struct chain_state *s, const struct ovn_nb *nb, const char *chain,
		    const char *ls, const char *port)
{
	char tag[96], what[128];
	const char *const args[] = { "lsp-add", ls,	   port, "--",	"lsp-set-addresses",
				     port,	"unknown", "--", "set", "Logical_Switch_Port",
				     port,	tag,	   NULL };

	snprintf(tag, sizeof(tag), TAG "%s", chain);
	snprintf(what, sizeof(what), "add port %s to logical switch %s", port, ls);
	return journal_then_add(s, nb, ST_OVN_LSP, port, args, what);
}

int ovn_link_create(struct chain_state *s, const struct ovn_nb *nb, const char *chain,
		    const char *link, char ports[2][OVN_UUID_LEN + 1])
{
	char ls[CALVIN_NAME_MAX * 2 + 16];
	int err, i;

	snprintf(ls, sizeof(ls), "calvin-%s-%s", chain, link);
	for (i = 0; i < 2; i++)
		if (new_uuid(ports[i]))
			return -EIO;
	err = switch_add(s, nb, chain, ls);
	for (i = 0; !err && i < 2; i++)
		err = port_add(s, nb, chain, ls, ports[i]);
	return err;
}

static unsigned long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long long)t.tv_sec * 1000 + (unsigned long long)t.tv_nsec / 1000000;
}

int ovn_ports_wait_up(const struct ovn_nb *nb, char ports[][OVN_UUID_LEN + 1], unsigned int nr,
		      unsigned int deadline_ms)
{
	unsigned long long end = now_ms() + deadline_ms;
	char out[64], err[512];
	unsigned int i = 0;
	int rc;

	while (i < nr) {
		const char *const args[] = { "get", "Logical_Switch_Port", ports[i], "up", NULL };

		rc = ovn_nbctl(nb, NBCTL_TIMEOUT_S, args, out, sizeof(out), err, sizeof(err));
		if (!rc && !strcmp(out, "true")) {
			i++;
			continue;
		}
		if (now_ms() >= end || calvin_quit) {
			calvin_err("OVN logical switch port %s is not bound to its chassis after "
				   "%u ms (%s); is ovn-controller running on its host?",
				   ports[i], deadline_ms, rc ? err : "up is not true");
			return -ETIMEDOUT;
		}
		usleep(50 * 1000);
	}
	return 0;
}
