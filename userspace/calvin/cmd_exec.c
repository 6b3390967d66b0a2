// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin exec CHAIN NODE -- CMD [ARG...]: run a command inside a node, e.g.
 * a user's own MEC server in place of the echo. */
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
	unsigned int n = calvin_chain_nodes(spec, nodes);

	return node_index(nodes, n, node) >= 0;
}

int cmd_exec(int argc, char **argv)
{
	struct calvin_chain_spec spec;
	int rc;

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
	return backend_of(&spec)->node_exec(&spec, argv[2], argv + 4);
}
