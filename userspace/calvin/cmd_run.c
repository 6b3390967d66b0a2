// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin run CHAIN.yaml: up, probe, report, down: the main job. The chain is
 * torn down whatever happens after it came up, Ctrl-C included: a signal
 * during `up` rolls the deployment back, one during the probes ends them
 * and the report shows what they measured. */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "chain/chain.h"
#include "commands.h"
#include "jout.h"
#include "outdir.h"
#include "state.h"
#include "util.h"
#include "util/util.h"

/* `run` deploys a chain of its own and removes it at the end: one that is
 * up already is someone's, and must not be taken down by it. */
/* run's own: the probe options */
static struct probe_args given;

int run_option(int c, const char *arg)
{
	return probe_args_option(&given, c, arg);
}

static int refuse_deployed(const struct calvin_chain_spec *spec)
{
	char path[PATH_MAX];

	if (state_file(path, sizeof(path), spec->name, ".state") || access(path, F_OK))
		return 0;
	calvin_err("chain '%s' is up already, and 'calvin run' would take it down at the end; "
		   "probe it with 'calvin probe %s', or 'calvin down %s' first",
		   spec->name, spec->name, spec->name);
	return CALVIN_EXIT_USAGE;
}

static int run_spec(const struct cmd_args *a, struct calvin_chain_spec *spec)
{
	struct outdir dir = { .fd = -1 };
	struct calvin_spec_text text;
	struct probe_args merged;
	int rc, down;

	rc = load_spec_text(a->arg[0], spec, &text);
	if (rc)
		return rc;
	rc = refuse_deployed(spec);
	if (!rc)
		rc = need_root("calvin run");
	/* a report folder calvin may not write is refused before the chain
	 * is deployed, not after it was measured */
	if (!rc && given.outdir)
		rc = outdir_open(&dir, given.outdir);
	if (!rc) {
		catch_quit_signals();
		rc = chain_up(spec, &text);
	}
	calvin_spec_text_free(&text);
	if (rc) {
		outdir_close(&dir);
		jw_str(jout(), "chain", spec->name);
		jw_bool(jout(), "up", false);
		return rc;
	}
	probe_args_apply(spec, &given, &merged);
	merged.dir = given.outdir ? &dir : NULL;
	/* a signal between up and the first probe: nothing to measure */
	rc = calvin_quit ? 0 : chain_probe(spec, &merged);
	fflush(stdout);
	outdir_close(&dir);
	down = chain_down(spec->name);
	jw_bool(jout(), "down", !down);
	if (calvin_quit) {
		calvin_err("interrupted; chain %s is %s", spec->name,
			   down ? "not fully down: run 'calvin down' again" : "down");
		return quit_status();
	}
	return rc ? rc : down;
}

int cmd_run(const struct cmd_args *a)
{
	return with_spec(run_spec, a);
}
