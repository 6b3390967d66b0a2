// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Probing a deployed chain (`calvin probe`, `run`, `up --admit`): send
 * probes from its probe node and report RTT and per-hop latency against
 * the budget. */
#include <arpa/inet.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "chain/chain.h"
#include "commands.h"
#include "host_clock.h"
#include "isolate/isolate.h"
#include "jout.h"
#include "measure/measure.h"
#include "outdir.h"
#include "probe.h"
#include "util.h"
#include "util/util.h"

void probe_args_apply(const struct calvin_chain_spec *spec, const struct probe_args *a,
		      struct probe_args *out)
{
	out->p = spec->probe;
	out->raw = a->raw;
	out->outdir = a->outdir;
	out->dir = a->dir;
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

/* The probe, the monitor and what `calvin exec` runs are housekeeping:
 * keep them off the cores of polling VNFs, where they would wait for the
 * scheduler, not the network. */
void chain_pin_housekeeping(const struct calvin_chain_spec *spec)
{
	struct calvin_cpumask hk;
	cpu_set_t set;
	int c;

	isolation_join_housekeeping();
	if (spec->placement == CALVIN_PLACE_SHARED || chain_housekeeping(spec, &hk))
		return;
	CPU_ZERO(&set);
	for (c = 0; c < CALVIN_MAX_CPUS && c < CPU_SETSIZE; c++)
		if (calvin_cpumask_isset(&hk, c))
			CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		calvin_err("cannot pin to the chain's housekeeping CPUs: %s", strerror(errno));
}

/* The report's members join the command's document (run's and up
 * --admit's have more), indented as a report reads. */
static void report_jout(const struct calvin_chain_spec *spec, const struct calvin_probe_result *r)
{
	struct json_object *o = calvin_report_jobj(spec, r);

	jw_merge(jout(), o);
	json_object_put(o);
	jout_pretty();
}

int chain_probe(const struct calvin_chain_spec *spec, const struct probe_args *a)
{
	struct calvin_probe_opts o = { 0 };
	struct calvin_probe_result *r;
	char platform[512], host_clock[256];
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
	/* the report directory is made from the raw records, read back */
	if (a->raw) {
		raw = fopen(a->raw, "w+e");
		if (!raw) {
			calvin_err("cannot write %s: %s", a->raw, strerror(errno));
			return CALVIN_EXIT_USAGE;
		}
	} else if (a->dir) {
		raw = tmpfile();
		if (!raw) {
			calvin_err("cannot make a temporary file: %s", strerror(errno));
			return CALVIN_EXIT_FAIL;
		}
	}
	o.raw = raw;
	o.progress = isatty(STDERR_FILENO);
	r = calloc(1, sizeof(*r));
	if (!r) {
		rc = CALVIN_EXIT_FAIL;
		goto close_raw;
	}
	chain_pin_housekeeping(spec);
	err = backend_of(spec)->node_enter(spec, PROBE_NODE, &saved);
	if (err) {
		rc = CALVIN_EXIT_FAIL;
		goto free_result;
	}
	err = calvin_probe_run(&o, r);
	node_leave(saved);
	r->platform = backend_describe(spec, platform, sizeof(platform));
	r->host_clock = host_clock_describe(host_clock, sizeof(host_clock));
	r->nr_degraded = chain_degraded(spec->name, r->degraded);
	if (err) {
		calvin_err("probe of chain '%s' failed: %s", spec->name, strerror(-err));
		rc = CALVIN_EXIT_FAIL;
	} else {
		if (calvin_json)
			report_jout(spec, r);
		else
			calvin_report_text(stdout, spec, r);
		fflush(raw ? raw : stdout);
		if (a->dir && report_dir_write(a->dir, spec, r, raw, NULL, NULL))
			rc = CALVIN_EXIT_FAIL;
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
