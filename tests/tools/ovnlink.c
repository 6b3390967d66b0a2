// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* ovnlink: userspace/calvin/ovn/'s operations from the command line, for
 * tests/multihost/test_ovn_link.sh, until `calvin up` makes links between
 * hosts itself:
 *
 *   ovnlink up CHAIN LINK NB       journal (CALVIN_RUN_DIR/CHAIN.state, as
 *                                  up starts one) and make a link: prints
 *                                  its two port UUIDs, one a line
 *   ovnlink up CHAIN LINK NB NS    the same, and namespace NS (of this
 *                                  host) joins its first port: interface
 *                                  "east" there, a veth to this host's Open
 *                                  vSwitch (CALVIN_OVS_DB, CALVIN_OVS_NETNS)
 *                                  with iface-id = the port (ovn/local.c)
 *   ovnlink wait NB MS PORT...     wait until every port is bound
 *
 * `calvin down CHAIN` removes what `up` made, as for a deployed chain.
 * CALVIN_CRASH_AFTER=N kills it after the N-th journal entry. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovn/ovn.h"
#include "journal_start.h"
#include "state.h"
#include "util.h"

/* ns joins port: as `up` joins a namespace node to a link between hosts */
static int join(struct chain_state *s, const char *chain, const char *ns, const char *port)
{
	static const uint8_t mac[6] = { 0x02, 0xca, 0x1f, 0x00, 0x00, 0x01 };
	struct ovs_join j = { .chain = chain,
			      .node_ns = ns,
			      .ifname = "east",
			      .mac = mac,
			      .port = "cvt-join0",
			      .lsp = port,
			      .mtu = 1442 };
	struct ovs_local o;

	return ovs_local(&o) ? -EINVAL : ovs_port_join(s, &o, &j);
}

static int up(const char *chain, const char *link, const char *remote, const char *ns)
{
	static struct chain_state s;
	char ports[2][OVN_UUID_LEN + 1];
	struct ovn_nb nb = { 0 };
	int err;

	snprintf(nb.remote, sizeof(nb.remote), "%s", remote);
	err = tool_journal_start(&s, chain, "netns");
	if (err)
		return err;
	err = ovn_link_create(&s, &nb, chain, link, ports);
	if (!err && ns)
		err = join(&s, chain, ns, ports[0]);
	state_close(&s, false);
	if (err)
		return 1;
	printf("%s\n%s\n", ports[0], ports[1]);
	return 0;
}

int main(int argc, char **argv)
{
	char ports[8][OVN_UUID_LEN + 1];
	struct ovn_nb nb = { 0 };
	int i;

	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "up"))
		return up(argv[2], argv[3], argv[4], argc == 6 ? argv[5] : NULL);
	if (argc >= 5 && argc <= 12 && !strcmp(argv[1], "wait")) {
		snprintf(nb.remote, sizeof(nb.remote), "%s", argv[2]);
		for (i = 4; i < argc; i++)
			snprintf(ports[i - 4], sizeof(ports[0]), "%s", argv[i]);
		return ovn_ports_wait_up(&nb, ports, (unsigned int)(argc - 4),
					 (unsigned int)atoi(argv[3]))
			   ? 1
			   : 0;
	}
	fprintf(stderr, "usage: ovnlink up CHAIN LINK NB [NS] | wait NB MS PORT...\n");
	return 2;
}
