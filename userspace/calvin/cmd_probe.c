// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin probe CHAIN: its options (which run and up --admit take too),
 * and the command, which probes a deployed chain (chain/probe.c). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "chain/chain.h"
#include "commands.h"
#include "jout.h"
#include "outdir.h"
#include "util.h"
#include "util/util.h"

static int parse_uint(const char *opt, const char *s, unsigned int lo, unsigned int hi,
		      unsigned int *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || v < lo || v > hi) {
		calvin_err("option %s: '%s' is not a number from %u to %u", opt, s, lo, hi);
		return CALVIN_EXIT_USAGE;
	}
	*out = (unsigned int)v;
	return 0;
}

const struct option probe_options[] = {
	{ "count", required_argument, NULL, 'c' },
	{ "rate", required_argument, NULL, 'r' },
	{ "ping-pong", no_argument, NULL, 'p' },
	{ "size", required_argument, NULL, 's' },
	{ "raw", required_argument, NULL, 'R' },
	{ "check", no_argument, NULL, 'C' },
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

int probe_args_option(struct probe_args *a, int c, const char *arg)
{
	switch (c) {
	case 'c':
		return parse_uint("-c", arg, 1, 10000000, &a->p.count);
	case 'r':
		return parse_uint("-r", arg, 1, 1000000, &a->p.rate);
	case 'p':
		a->p.mode = CALVIN_PROBE_PINGPONG;
		return 0;
	case 's':
		return parse_uint("-s", arg, CALVIN_TLM_LEN(1), CALVIN_MTU_MAX - 28,
				  &a->p.size);
	case 'R':
		a->raw = arg;
		return 0;
	case 'C':
		a->check = true;
		return 0;
	case 'o':
		a->outdir = arg;
		return 0;
	}
	return CALVIN_EXIT_USAGE;
}

/* probe's own */
static struct probe_args given;

int probe_option(int c, const char *arg)
{
	return probe_args_option(&given, c, arg);
}

static int probe_spec(const struct cmd_args *a, struct calvin_chain_spec *spec)
{
	struct outdir dir = { .fd = -1 };
	struct probe_args merged;
	int rc;

	rc = check_name("chain", a->arg[0]);
	if (!rc)
		jw_str(jout(), "chain", a->arg[0]);
	if (!rc)
		rc = need_root("calvin probe");
	if (!rc)
		rc = deployed_spec(a->arg[0], spec);
	/* the report folder is taken before a probe is sent */
	if (!rc && given.outdir)
		rc = outdir_open(&dir, given.outdir);
	if (rc)
		return rc;
	probe_args_apply(spec, &given, &merged);
	merged.dir = given.outdir ? &dir : NULL;
	/* Ctrl-C ends the probes early; the report shows what they measured */
	catch_quit_signals();
	rc = chain_probe(spec, &merged);
	outdir_close(&dir);
	return calvin_quit ? quit_status() : rc;
}

int cmd_probe(const struct cmd_args *a)
{
	return with_spec(probe_spec, a);
}
