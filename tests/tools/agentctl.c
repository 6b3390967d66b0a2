// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* agentctl: talk to a VM's calvin-agent from the host, through the UNIX
 * socket its virtio-serial channel comes out of; the vm tests' client.
 *
 *   agentctl SOCKET hello
 *   agentctl SOCKET configure SPEC.yaml VNF CPU WEST-PEER EAST-PEER
 *   agentctl SOCKET configure-server SPEC.yaml SERVER CPU WEST-PEER EAST-PEER
 *   agentctl SOCKET keys SPEC.yaml VNF KEYFILE RANDOM-HEX EPOCH
 *   agentctl SOCKET start | status | stop | shutdown
 *
 * keys derives the traffic keys of VNF's SAs as calvin up does (the long-
 * term key of KEYFILE, the deployment random RANDOM-HEX, 64 digits, and
 * EPOCH) and sends only those.
 *
 * status prints "state S", then "NAME VALUE" per counter and the
 * telemetry JSON of a user VNF. An agent's error is one line on stderr
 * and exit 1. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "codec/codec.h"

#define TIMEOUT_MS 120000

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;

	if (!f)
		return NULL;
	buf = malloc(CALVIN_AGENT_MAX_PAYLOAD);
	*len = buf ? fread(buf, 1, CALVIN_AGENT_MAX_PAYLOAD, f) : 0;
	fclose(f);
	return buf;
}

static int parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6], i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}

static int load_spec_arg(const char *path, struct calvin_chain_spec *spec)
{
	char err[256];

	if (!calvin_spec_load(path, spec, err, sizeof(err)))
		return 0;
	fprintf(stderr, "agentctl: %s\n", err);
	return -EINVAL;
}

static int build_configure(int argc, char **argv, struct calvin_agent_msg *m)
{
	struct calvin_agent_configure *c = &m->configure;
	size_t len = 0;
	char *text;

	if (argc != 8)
		return -EINVAL;
	m->type = CALVIN_AGENT_CONFIGURE;
	if (!strcmp(argv[2], "configure-server"))
		c->role = CALVIN_AGENT_ROLE_SERVER;
	text = slurp(argv[3], &len);
	if (!text) {
		fprintf(stderr, "agentctl: %s: cannot read: %s\n", argv[3], strerror(errno));
		return -EIO;
	}
	c->spec = (struct calvin_agent_str){text, (uint32_t)len};
	c->vnf = calvin_agent_str(argv[4]);
	c->cpu = atoi(argv[5]);
	return parse_mac(argv[6], c->west_peer) || parse_mac(argv[7], c->east_peer) ? -EINVAL : 0;
}

/* keys SPEC VNF KEYFILE RANDOM EPOCH: what calvin up sends that VNF's VM. */
static int build_keys(int argc, char **argv, struct calvin_agent_msg *m, uint8_t *buf)
{
	static struct calvin_chain_spec spec;
	uint8_t rnd[CALVIN_DEPLOY_RANDOM_LEN];
	struct calvin_key *ltk = calvin_key_new();
	struct calvin_sa_set set;
	char err[512];
	unsigned int i;
	ssize_t len = -EINVAL;

	if (argc != 8 || !ltk || load_spec_arg(argv[3], &spec) ||
	    calvin_deploy_random_parse(argv[6], rnd))
		goto out;
	for (i = 0; i < spec.nr_vnfs && strcmp(spec.vnfs[i].name, argv[4]); i++)
		;
	if (calvin_keyfile_load(argv[5], ltk, err, sizeof(err))) {
		fprintf(stderr, "agentctl: %s\n", err);
		goto out;
	}
	if (calvin_sa_set_derive(&spec, i, ltk->key, rnd, (uint32_t)strtoul(argv[7], NULL, 0),
				 &set))
		goto out;
	len = calvin_sa_set_encode(&set, buf, CALVIN_SA_SET_MAX);
	calvin_sa_set_wipe(&set);
	m->type = CALVIN_AGENT_KEYS;
	m->keys.ptr = (const char *)buf;
	m->keys.len = len > 0 ? (uint32_t)len : 0;
out:
	calvin_key_free(ltk);
	return len > 0 ? 0 : -EINVAL;
}

static void print_counters(const struct calvin_agent_counters *c)
{
	unsigned int i;

	printf("state %s\n", calvin_agent_state_name(c->state));
	for (i = 0; i < c->nr_counters; i++)
		printf("%.*s %" PRIu64 "\n", (int)c->counters[i].name.len, c->counters[i].name.ptr,
		       c->counters[i].value);
	if (c->telemetry.len)
		printf("telemetry %.*s\n", (int)c->telemetry.len, c->telemetry.ptr);
}

/* The one-word requests. */
static const struct {
	const char *word;
	enum calvin_agent_type type;
} simple[] = {
    {"start", CALVIN_AGENT_START},
    {"status", CALVIN_AGENT_STATUS},
    {"stop", CALVIN_AGENT_STOP},
    {"shutdown", CALVIN_AGENT_SHUTDOWN},
};

int main(int argc, char **argv)
{
	static struct calvin_agent_msg req, reply;
	static uint8_t keys[CALVIN_SA_SET_MAX];
	char err[CALVIN_AGENT_LINE_MAX + 64], who[CALVIN_AGENT_LINE_MAX + 1];
	struct calvin_channel ch;
	unsigned int i;
	int e;

	if (argc < 3) {
		fprintf(stderr,
			"usage: agentctl SOCKET hello|configure|keys|start|status|stop|shutdown"
			" (see tests/tools/agentctl.c)\n");
		return 2;
	}
	for (i = 0; i < sizeof(simple) / sizeof(simple[0]); i++)
		if (!strcmp(argv[2], simple[i].word))
			req.type = simple[i].type;
	if ((!strcmp(argv[2], "configure") || !strcmp(argv[2], "configure-server")) &&
	    build_configure(argc, argv, &req)) {
		fprintf(stderr, "agentctl: configure SPEC VNF CPU WEST-PEER EAST-PEER\n");
		return 2;
	}
	if (!strcmp(argv[2], "keys") && build_keys(argc, argv, &req, keys)) {
		fprintf(stderr, "agentctl: keys SPEC VNF KEYFILE RANDOM-HEX EPOCH\n");
		return 2;
	}
	if (!req.type && strcmp(argv[2], "hello")) {
		fprintf(stderr, "agentctl: unknown request '%s'\n", argv[2]);
		return 2;
	}
	e = calvin_agent_open(&ch, argv[1], TIMEOUT_MS, who, sizeof(who), err, sizeof(err));
	if (e) {
		fprintf(stderr, "agentctl: %s\n", err);
		return 1;
	}
	if (!req.type) {
		printf("%s\n", who);
		goto out;
	}
	e = calvin_agent_call(&ch, &req, &reply, TIMEOUT_MS, err, sizeof(err));
	if (e)
		fprintf(stderr, "agentctl: %s\n", err);
	else if (reply.type == CALVIN_AGENT_COUNTERS)
		print_counters(&reply.counters);
	else
		printf("ok\n");
out:
	calvin_agent_close(&ch);
	return e ? 1 : 0;
}
