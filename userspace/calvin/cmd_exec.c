// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin exec CHAIN NODE -- CMD [ARG...]: run a command inside a node, e.g.
 * a user's own MEC server in place of the echo. The command runs on the
 * chain's housekeeping CPUs, as the probe does: an application left on the
 * core of a VNF polling at real-time priority waits for that VNF to sleep
 * (tens of ms under load), and the chain's latency would be its own. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "chain/chain.h"
#include "commands.h"
#include "util.h"

static bool is_node(const struct calvin_chain_spec *spec, const char *node)
{
	struct calvin_node nodes[CALVIN_MAX_NODES];
	unsigned int n = calvin_chain_nodes(spec, nodes);

	return node_index(nodes, n, node) >= 0;
}

static int exec_spec(const struct cmd_args *a, struct calvin_chain_spec *spec)
{
	const char *chain = a->arg[0], *node = a->arg[1];
	int rc;

	rc = check_name("chain", chain);
	if (!rc)
		rc = check_name("node", node);
	if (!rc)
		rc = need_root("calvin exec");
	if (!rc)
		rc = deployed_spec(chain, spec);
	if (rc)
		return rc;
	if (!is_node(spec, node)) {
		calvin_err("chain '%s' has no node '%s'; its nodes are probe, its VNFs and %s",
			   chain, node, spec->server.name);
		return CALVIN_EXIT_USAGE;
	}
	/* the command's output is its own: what calvin printed goes first */
	fflush(stdout);
	chain_pin_housekeeping(spec);
	return backend_of(spec)->node_exec(spec, node, a->tail);
}

int cmd_exec(const struct cmd_args *a)
{
	return with_spec(exec_spec, a);
}
