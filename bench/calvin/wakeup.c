// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin bench wakeup CHAIN.yaml: cyclictest (rt-tests) on the cores the
 * chain's VNFs get, under the configurations of `calvin bench pinning`
 * (placement shared, pinned, isolated; idle and under interference), with
 * the chain deployed as calvin deploys it: how late a thread that sleeps
 * there wakes up (what a VNF in wakeup mode waits on, what any timer on
 * that core sees). cyclictest runs at SCHED_FIFO 95, one thread per VNF
 * core (one unpinned thread where nothing is pinned), a wake-up every
 * millisecond, its histogram in 1 us buckets; on an isolated core it runs in
 * the isolated cpuset. In VMs, the agent runs it in the guest, on the
 * VNF's vCPU. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "bench.h"
#include "bench/lib/bench_lib.h"
#include "isolate/isolate.h"
#include "policy.h"
#include "util.h"

#define CT_INTERVAL_US "1000"
#define CT_PRIORITY "95"
#define CT_BUCKETS "10000" /* 10 ms of 1 us buckets; later wake-ups overflow */

/* The distinct CPUs the plan pins user VNFs to; the first such VNF in *vnf. */
static unsigned int vnf_cpus(const struct bench_config *c, struct calvin_cpumask *cpus, int *vnf)
{
	unsigned int i, n = 0;

	memset(cpus, 0, sizeof(*cpus));
	*vnf = -1;
	for (i = 0; i < c->spec->nr_vnfs; i++) {
		if (c->spec->vnfs[i].space != CALVIN_USER || c->placed.vnf[i].cpu < 0)
			continue;
		if (*vnf < 0)
			*vnf = (int)i;
		if (!calvin_cpumask_isset(cpus, c->placed.vnf[i].cpu))
			n++;
		calvin_cpumask_set(cpus, c->placed.vnf[i].cpu);
	}
	return n;
}

struct into_cpuset {
	const struct bench_config *c;
	int vnf;
};

/* An isolated core takes only tasks of the isolated cpuset: start there. */
static int join_isolated(pid_t pid, void *arg)
{
	const struct into_cpuset *x = arg;
	struct deploy d = { .spec = x->c->spec, .plan = &x->c->placed };

	if (x->vnf < 0 || x->c->o.placement != CALVIN_PLACE_ISOLATED)
		return 0;
	return isolation_vnf_start(&d, (unsigned int)x->vnf, pid);
}

/* cyclictest on the host, its output into a temporary file, parsed. */
static int host_cyclictest(struct bench *b, const struct bench_config *c,
			   struct calvin_cyclictest *ct)
{
	char secs[16], threads[16], list[256], *text = NULL;
	char *argv[] = { "cyclictest", "-m",	    "-q", "--policy=fifo",
			 "-p",	       CT_PRIORITY, "-i", CT_INTERVAL_US,
			 "-h",	       CT_BUCKETS,  "-D", secs,
			 "-t",	       threads,	    "-a", list,
			 NULL };
	struct into_cpuset x = { .c = c };
	struct calvin_cpumask cpus;
	struct bench_proc p;
	int err, status = -1;
	long len;
	FILE *out;

	snprintf(threads, sizeof(threads), "%u", vnf_cpus(c, &cpus, &x.vnf) ?: 1);
	calvin_cpumask_list(&cpus, list, sizeof(list));
	snprintf(secs, sizeof(secs), "%u", b->tool_seconds);
	if (x.vnf < 0)
		argv[14] = NULL; /* nothing pinned: one thread, wherever it runs */
	out = tmpfile();
	if (!out)
		return -errno;
	err = bench_spawn(&b->journal, argv, NULL, fileno(out), join_isolated, &x, &p);
	if (!err) {
		err = bench_wait(&p, (int)(b->tool_seconds + 30) * 1000, &status);
		bench_reap(&b->journal, &p, NULL);
	}
	if (!err && status) {
		calvin_err("cyclictest exited with status %d (run with -v to see why)", status);
		err = -EIO;
	}
	len = err ? -1 : ftell(out);
	if (len > 0 && (text = malloc((size_t)len)) && !fseek(out, 0, SEEK_SET) &&
	    fread(text, 1, (size_t)len, out) == (size_t)len)
		err = calvin_cyclictest_parse(text, (size_t)len, ct);
	else if (!err)
		err = -EIO;
	free(text);
	fclose(out);
	return err;
}

/* In VMs: the agent of each VNF's VM runs cyclictest on the VNF's vCPU,
 * one VM after the other (both at once would share the host's cores). */
static int guest_cyclictest(struct bench *b, const struct bench_config *c,
			    struct calvin_bench_series *s, unsigned int round)
{
	const struct node_backend *be = backend_of(c->spec);
	struct calvin_cyclictest ct;
	size_t len = 512 * 1024;
	char *text = malloc(len);
	unsigned int v;
	int err = text ? 0 : -ENOMEM;

	for (v = 0; !err && v < c->spec->nr_vnfs && !bench_stopped(); v++) {
		err = be->guest_cyclictest(c->spec, v, b->tool_seconds, text, len);
		if (!err)
			err = calvin_cyclictest_parse(text, strlen(text), &ct);
		if (!err) {
			err = calvin_cyclictest_samples(&ct, s, round);
			calvin_cyclictest_free(&ct);
		}
	}
	free(text);
	return err;
}

static int measure(struct bench *b, struct bench_config *c, unsigned int i, unsigned int round,
		   void *arg)
{
	struct calvin_cyclictest ct;
	int err;

	if (backend_of(c->spec)->guest_cyclictest)
		return guest_cyclictest(b, c, &b->series[i], round) ? CALVIN_EXIT_FAIL : 0;
	err = host_cyclictest(b, c, &ct);
	if (err)
		return CALVIN_EXIT_FAIL;
	err = calvin_cyclictest_samples(&ct, &b->series[i], round);
	calvin_cyclictest_free(&ct);
	return err ? CALVIN_EXIT_FAIL : 0;
}

static void write_md(struct bench *b, FILE *f, bool pictures)
{
	struct bench_policy *w = b->priv;
	char settings[512];

	snprintf(settings, sizeof(settings),
		 "cyclictest -m --policy=fifo -p " CT_PRIORITY " -i " CT_INTERVAL_US
		 " -h " CT_BUCKETS " for %u s per configuration and round, one thread per "
		 "VNF core (%s); interference as in `calvin bench pinning`",
		 b->tool_seconds,
		 b->spec.backend == CALVIN_BACKEND_LIBVIRT
		     ? "in each VM, on the VNF's vCPU, by calvin-agent"
		     : "on the host; one unpinned thread when nothing is pinned");
	bench_md_header(b, f, settings);
	bench_policy_md(f, w->c, w->n);
	fputs("## Wake-up latency by configuration\n\n"
	      "Every wake-up of every round, pooled (cyclictest's histograms, 1 us buckets: "
	      "values are whole microseconds; a wake-up beyond 10 ms counts at the run's "
	      "maximum). p99 and max are the figures to read; the comparison columns give the "
	      "reduction in variability against placement shared under the same load. "
	      "Intervals: percentile bootstrap, 1000 resamples of single wake-ups.\n\n",
	      f);
	bench_md_results(b, f, pictures, CALVIN_BENCH_REDUCTION, "wake-up latency");
}

int bench_wakeup(struct bench *b)
{
	/* on the host; in VMs the agent runs the guest's own */
	if (!backend_of(&b->spec)->guest_cyclictest && !tool_path("cyclictest"))
		tool_missing("cyclictest", b->cannot, sizeof(b->cannot));
	return bench_policy_run(b, "wakeup", "wake-up latency", 4 * b->tool_seconds + 120, measure,
				write_md);
}
