// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin run CHAIN.yaml: up, probe, report, down: the main job. The chain is
 * torn down whatever happens after it came up, Ctrl-C included. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "util.h"

static void on_signal(int sig)
{
	/* interrupts the probe's waits; teardown follows */
}

int cmd_run(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct calvin_chain_spec spec;
	struct probe_args a = { 0 }, merged;
	int rc, down;

	rc = probe_parse_args(argc, argv, &a);
	if (!rc)
		rc = load_spec(argv[argc - 1], &spec);
	if (rc)
		return rc;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = chain_up(&spec);
	if (rc)
		return rc;
	probe_args_apply(&spec, &a, &merged);
	rc = chain_probe(&spec, &merged);
	down = chain_down(spec.name);
	return rc ? rc : down;
}
