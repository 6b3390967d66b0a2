// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin up CHAIN.yaml [--admit] [--monitor] [--no-supervise]: deploy a
 * chain (chain/up.c), or change a deployed one in place (chain/update.c);
 * with --admit, keep it only if it meets its budget (chain/admit.c). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "chain/chain.h"
#include "commands.h"
#include "jout.h"
#include "monitor/monitor.h"
#include "state.h"
#include "supervise/supervise.h"
#include "util.h"
#include "util/util.h"

const struct option up_options[] = {
	{ "admit", no_argument, NULL, 'A' },
	{ "monitor", no_argument, NULL, 'M' },
	{ "no-supervise", no_argument, NULL, 'S' },
	{ "count", required_argument, NULL, 'c' },
	{ "rate", required_argument, NULL, 'r' },
	{ "ping-pong", no_argument, NULL, 'p' },
	{ "size", required_argument, NULL, 's' },
	{ NULL, 0, NULL, 0 },
};

/* up's own: --admit, and the admission probe's options */
static struct {
	bool admit;
	bool monitor; /* --monitor: the supervisor runs `calvin monitor` */
	struct probe_args probe;
} up;

int up_option(int c, const char *arg)
{
	if (c == 'A') {
		up.admit = true;
		return 0;
	}
	if (c == 'M') {
		up.monitor = true;
		return 0;
	}
	if (c == 'S') {
		supervise_off = true;
		return 0;
	}
	return probe_args_option(&up.probe, c, arg);
}

/* Are the command line's options right for spec (probe options only with
 * --admit, a size that holds the hop records, not a chain deployed
 * already)? 0 or an exit code, after one line. */
static int admit_check(const struct calvin_chain_spec *spec)
{
	const struct calvin_probe_spec *p = &up.probe.p;
	char path[4096];

	if (up.monitor && supervise_off) {
		/* the supervisor starts the monitor: without one it would
		 * never run, and up would have said nothing */
		calvin_err("--monitor asks the chain's supervisor to run 'calvin monitor', and "
			   "--no-supervise runs none: run 'calvin monitor %s' yourself, or leave "
			   "one of them out",
			   spec->name);
		return CALVIN_EXIT_USAGE;
	}
	if (spec->monitor.on && supervise_off && !calvin_json)
		printf("chain %s: its monitor: section is not run: the supervisor runs it, and "
		       "--no-supervise starts none ('calvin monitor %s' runs one by hand)\n",
		       spec->name, spec->name);
	if (!up.admit) {
		if (!p->count && !p->rate && !p->mode && !p->size)
			return 0;
		calvin_err("-c, -r, -p and -s of 'calvin up' set the admission probe; add --admit "
			   "or leave them out");
		return CALVIN_EXIT_USAGE;
	}
	if (p->size && check_probe_size(spec, p->size))
		return CALVIN_EXIT_USAGE;
	/* admitting a chain that runs already would tear it down on a miss */
	if (!state_file(path, sizeof(path), spec->name, ".state") && !access(path, F_OK)) {
		calvin_err("chain '%s' is deployed already; --admit admits a new deployment: "
			   "'calvin down %s' first, or leave --admit out",
			   spec->name, spec->name);
		return CALVIN_EXIT_USAGE;
	}
	return 0;
}

static int up_spec(const struct cmd_args *a, struct calvin_chain_spec *spec)
{
	struct calvin_spec_text text;
	int rc;

	rc = load_spec_text(a->arg[0], spec, &text);
	if (rc)
		return rc;
	rc = admit_check(spec);
	if (rc)
		goto out;
	catch_quit_signals();
	jw_str(jout(), "chain", spec->name);
	rc = chain_up(spec, &text);
	if (!rc && up.admit)
		rc = chain_admit(spec, &up.probe);
	if (!rc && up.monitor)
		rc = monitor_request(spec->name);
out:
	calvin_spec_text_free(&text);
	return rc;
}

int cmd_up(const struct cmd_args *a)
{
	return with_spec(up_spec, a);
}
