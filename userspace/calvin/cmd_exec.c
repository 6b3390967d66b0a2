// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin exec CHAIN NODE -- CMD [ARG...]: run a command inside a node, e.g.
 * a user's own MEC server in place of the echo. Like `nsenter --net`: only
 * the network namespace changes, so bpffs and /sys stay the host's. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "commands.h"
#include "util.h"

static bool is_node(const struct calvin_chain_spec *spec, const char *node)
{
	struct calvin_node nodes[CALVIN_MAX_NODES];
	unsigned int n = calvin_chain_nodes(spec, nodes), i;

	for (i = 0; i < n; i++)
		if (!strcmp(nodes[i].name, node))
			return true;
	return false;
}

int cmd_exec(int argc, char **argv)
{
	struct calvin_chain_spec spec;
	char ns[128];
	int rc, err, saved;

	if (argc < 5 || strcmp(argv[3], "--")) {
		calvin_err("usage: calvin exec CHAIN NODE -- CMD [ARG...]");
		return CALVIN_EXIT_USAGE;
	}
	rc = need_root("calvin exec");
	if (!rc)
		rc = deployed_spec(argv[1], &spec);
	if (rc)
		return rc;
	if (!is_node(&spec, argv[2])) {
		calvin_err("chain '%s' has no node '%s'; its nodes are probe, its VNFs and %s",
			   argv[1], argv[2], spec.server.name);
		return CALVIN_EXIT_USAGE;
	}
	node_netns(ns, sizeof(ns), spec.name, argv[2]);
	err = netns_enter(ns, &saved);
	if (err) {
		calvin_err("cannot enter node '%s' (%s): %s", argv[2], ns, strerror(-err));
		return CALVIN_EXIT_FAIL;
	}
	close(saved);
	execvp(argv[4], argv + 4);
	calvin_err("cannot run '%s' in node '%s': %s", argv[4], argv[2], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
