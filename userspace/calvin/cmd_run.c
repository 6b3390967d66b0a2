// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin run CHAIN.yaml: up, probe, report, down: the main job. The chain is
 * torn down whatever happens after it came up, Ctrl-C included: a signal
 * during `up` rolls the deployment back, one during the probes ends them
 * and the report shows what they measured. */
#include <stdio.h>

#include "commands.h"
#include "util.h"

int cmd_run(const struct cmd_args *a)
{
	struct calvin_chain_spec spec;
	struct probe_args merged;
	int rc, down;

	rc = load_spec(a->arg[0], &spec);
	if (rc)
		return rc;
	catch_quit_signals();
	rc = chain_up(&spec);
	if (rc)
		return rc;
	probe_args_apply(&spec, &a->probe, &merged);
	/* a signal between up and the first probe: nothing to measure */
	rc = calvin_quit ? 0 : chain_probe(&spec, &merged);
	fflush(stdout);
	down = chain_down(spec.name);
	if (calvin_quit) {
		calvin_err("interrupted; chain %s is %s", spec.name,
			   down ? "not fully down: run 'calvin down' again" : "down");
		return quit_status();
	}
	return rc ? rc : down;
}
