// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin plan CHAIN.yaml: the CPU placement a deployment would use, and
 * what it was made from. */
#include <stdio.h>

#include "backend.h"
#include "commands.h"
#include "hosts.h"
#include "jout.h"
#include "util.h"

static int plan_spec(const struct cmd_args *a, struct calvin_chain_spec *spec)
{
	const struct calvin_topology *host;
	struct calvin_plan plan;
	char line[512];
	int rc;

	rc = load_spec(a->arg[0], spec);
	if (!rc)
		hosts_show(spec);
	/* each host's CPUs through its libvirt; planning on them is not built */
	if (!rc && !calvin_json)
		rc = hosts_plan_show(spec);
	if (!rc)
		rc = hosts_check(spec);
	if (!rc)
		rc = make_plan(spec, &plan, &host);
	if (rc)
		return rc;
	if (calvin_json) {
		jout_set(calvin_plan_jobj(spec, host, &plan));
		return 0;
	}
	calvin_plan_print_text(stdout, spec, host, &plan);
	/* what the nodes are (VMs, and on which accelerator) */
	if (backend_describe(spec, line, sizeof(line)))
		printf("nodes: %s\n", line);
	return 0;
}

int cmd_plan(const struct cmd_args *a)
{
	return with_spec(plan_spec, a);
}
