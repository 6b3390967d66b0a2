// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* lvimage: userspace/calvin/libvirt/storage.c from the command line, for
 * tests/multihost/test_lv_image.sh, until `calvin up` places VMs on
 * remote hosts itself:
 *
 *   lvimage put CHAIN URI FILE...  journal (CALVIN_RUN_DIR/CHAIN.state, as
 *                                  up starts one) and put each FILE into the
 *                                  pool at URI: prints "uploaded PATH" or
 *                                  "reused PATH", one a line
 *   lvimage vm CHAIN URI IMAGE_DIR NAME PORT PORT
 *                                  journal (backend libvirt) and start domain
 *                                  NAME at URI from IMAGE_DIR's guest, its two
 *                                  NICs on OVN ports PORT (UUIDs) via br-int
 *   lvimage agent URI DOMAIN       greet domain's calvin-agent through its
 *                                  channel over libvirt at URI (chan.c) and
 *                                  ask its status: prints "agent WHO state
 *                                  STATE"
 *
 * `calvin down [--images] CHAIN` removes what it made, as for a deployed
 * chain. CALVIN_CRASH_AFTER=N kills it after the N-th journal entry. */
#include <stdio.h>
#include <string.h>

#include "client.h"
#include "guest/guest.h"
#include "libvirt/remote.h"
#include "libvirt/storage.h"
#include "journal_start.h"
#include "state.h"
#include "util.h"

static int put(const char *chain, const char *uri, char **files, int nr)
{
	static struct chain_state s;
	char path[4096];
	bool reused;
	int err, i;

	err = tool_journal_start(&s, chain, "netns");
	if (err)
		return err;
	for (i = 0; !err && i < nr; i++) {
		err = lv_image_put(&s, uri, files[i], path, sizeof(path), &reused);
		if (!err)
			printf("%s %s\n", reused ? "reused" : "uploaded", path);
	}
	state_close(&s, false);
	return err ? 1 : 0;
}

static int vm(char **a)
{
	static struct chain_state s;
	struct lv_remote_vm r = {
		.uri = a[1], .image_dir = a[2], .name = a[3], .bridge = "br-int", .memory_mib = 512
	};
	int err = tool_journal_start(&s, a[0], "libvirt");

	if (err)
		return err;
	for (int i = 0; i < 2; i++) {
		r.ovn_port[i] = a[4 + i];
		calvin_vm_mac(r.mac[i], a[0], 1, (enum calvin_side)i);
	}
	err = lv_remote_vm_create(&s, &r);
	state_close(&s, false);
	return err ? 1 : 0;
}

static int agent(const char *uri, const char *domain)
{
	struct calvin_agent_msg req = { .type = CALVIN_AGENT_STATUS }, reply;
	char who[CALVIN_AGENT_LINE_MAX + 1], err[CALVIN_AGENT_LINE_MAX + 128];
	struct lv_agent a;
	int e;

	if (lv_remote_agent_open(uri, domain, 180000, &a, who, sizeof(who)))
		return 1;
	e = calvin_agent_call(&a.ch, &req, &reply, 10000, err, sizeof(err));
	if (e)
		fprintf(stderr, "lvimage: status: %s\n", err);
	else
		printf("agent %s state %s\n", who, calvin_agent_state_name(reply.counters.state));
	lv_remote_agent_close(&a);
	return e ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 8 && !strcmp(argv[1], "vm"))
		return vm(argv + 2);
	if (argc == 4 && !strcmp(argv[1], "agent"))
		return agent(argv[2], argv[3]);
	if (argc >= 5 && !strcmp(argv[1], "put"))
		return put(argv[2], argv[3], argv + 4, argc - 4);
	fprintf(stderr,
		"usage: lvimage put CHAIN URI FILE... | vm CHAIN URI IMAGE_DIR NAME PORT PORT | "
		"agent URI DOMAIN\n");
	return 2;
}
