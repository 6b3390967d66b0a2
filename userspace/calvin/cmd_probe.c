// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin probe CHAIN: send probes through a deployed chain from its probe
 * node and report RTT and per-hop latency against the budget. */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "commands.h"
#include "probe.h"
#include "report.h"
#include "util.h"

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

int probe_parse_args(int argc, char **argv, struct probe_args *a)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'c' }, { "rate", required_argument, NULL, 'r' },
		{ "ping-pong", no_argument, NULL, 'p' },   { "size", required_argument, NULL, 's' },
		{ "raw", required_argument, NULL, 'R' },   { "check", no_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc = 0;

	optind = 1;
	opterr = 0;
	while (!rc && (c = getopt_long(argc, argv, "+c:r:ps:", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			rc = parse_uint("-c", optarg, 1, 10000000, &a->p.count);
			break;
		case 'r':
			rc = parse_uint("-r", optarg, 1, 1000000, &a->p.rate);
			break;
		case 'p':
			a->p.mode = CALVIN_PROBE_PINGPONG;
			break;
		case 's':
			rc = parse_uint("-s", optarg, CALVIN_TLM_LEN(1), 1472, &a->p.size);
			break;
		case 'R':
			a->raw = optarg;
			break;
		case 'C':
			a->check = true;
			break;
		default:
			calvin_err("unknown or incomplete probe option '%s'; see 'calvin --help'",
				   argv[optind - 1]);
			rc = CALVIN_EXIT_USAGE;
		}
	}
	if (!rc && optind != argc - 1) {
		calvin_err("expected one chain after the options");
		rc = CALVIN_EXIT_USAGE;
	}
	return rc;
}

void probe_args_apply(const struct calvin_chain_spec *spec, const struct probe_args *a,
		      struct probe_args *out)
{
	out->p = spec->probe;
	out->raw = a->raw;
	out->check = a->check;
	if (a->p.count)
		out->p.count = a->p.count;
	if (a->p.rate)
		out->p.rate = a->p.rate;
	if (a->p.mode)
		out->p.mode = a->p.mode;
	if (a->p.size)
		out->p.size = a->p.size;
}

/* The probe is housekeeping: keep it off the cores of busy-polling VNFs,
 * where it would wait for the scheduler, not the network. */
static void pin_to_housekeeping(const struct calvin_chain_spec *spec)
{
	struct calvin_plan plan;
	cpu_set_t set;

	if (spec->placement == CALVIN_PLACE_SHARED || make_plan(spec, &plan) ||
	    plan.housekeeping < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(plan.housekeeping, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		calvin_err("cannot pin the probe to CPU %d: %s", plan.housekeeping,
			   strerror(errno));
}

int chain_probe(const struct calvin_chain_spec *spec, const struct probe_args *a)
{
	struct calvin_probe_opts o = { 0 };
	struct calvin_probe_result *r;
	char platform[512];
	FILE *raw = NULL;
	int err, saved, rc = 0;

	if (check_probe_size(spec, a->p.size))
		return CALVIN_EXIT_USAGE;
	inet_pton(AF_INET, SERVER_ADDR, &o.dst);
	o.port = (uint16_t)spec->probe.port;
	o.count = a->p.count;
	o.rate = a->p.rate;
	o.mode = a->p.mode;
	o.size = a->p.size;
	o.max_hops = (uint8_t)(2 * spec->nr_vnfs);
	o.timeout_ns = 1000ULL * 1000 * 1000;
	if (a->raw) {
		raw = fopen(a->raw, "we");
		if (!raw) {
			calvin_err("cannot write %s: %s", a->raw, strerror(errno));
			return CALVIN_EXIT_USAGE;
		}
		o.raw = raw;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		rc = CALVIN_EXIT_FAIL;
		goto close_raw;
	}
	pin_to_housekeeping(spec);
	err = backend_of(spec)->node_enter(spec, PROBE_NODE, &saved);
	if (err) {
		rc = CALVIN_EXIT_FAIL;
		goto free_result;
	}
	err = calvin_probe_run(&o, r);
	node_leave(saved);
	r->platform = backend_describe(spec, platform, sizeof(platform));
	if (err) {
		calvin_err("probe of chain '%s' failed: %s", spec->name, strerror(-err));
		rc = CALVIN_EXIT_FAIL;
	} else {
		if (calvin_json)
			calvin_report_json(stdout, spec, r);
		else
			calvin_report_text(stdout, spec, r);
		if (a->check && calvin_verdict(spec, r))
			rc = CALVIN_EXIT_OVER_BUDGET;
	}
free_result:
	free(r);
close_raw:
	if (raw)
		fclose(raw);
	return rc;
}

int cmd_probe(int argc, char **argv)
{
	struct calvin_chain_spec spec;
	struct probe_args a = { 0 }, merged;
	int rc;

	rc = need_root("calvin probe");
	if (rc)
		return rc;
	rc = probe_parse_args(argc, argv, &a);
	if (rc)
		return rc;
	rc = deployed_spec(argv[argc - 1], &spec);
	if (rc)
		return rc;
	probe_args_apply(&spec, &a, &merged);
	return chain_probe(&spec, &merged);
}
