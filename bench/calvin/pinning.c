// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin bench pinning CHAIN.yaml: the chain under placement shared,
 * pinned and isolated, each idle and under interference (stress-ng's cpu,
 * vm and cache stressors: on the housekeeping cores when the VNFs are
 * pinned, on every core when nothing is), rounds in alternation. The
 * report gives RTT p50/p99/p99.9/max, jitter (p99 - p50 and the standard
 * deviation), and each policy's reduction of variability against shared
 * under the same load, with bootstrap intervals. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "bench.h"
#include "policy.h"
#include "util.h"

static int measure(struct bench *b, struct bench_config *c, unsigned int i, unsigned int round,
		   void *arg)
{
	struct in_addr dst;

	inet_pton(AF_INET, SERVER_ADDR, &dst);
	return bench_probe(b, c->spec, dst, &b->series[i], round) ? CALVIN_EXIT_FAIL : 0;
}

static void write_md(struct bench *b, FILE *f, bool pictures)
{
	struct bench_policy *p = b->priv;
	char settings[512];

	snprintf(settings, sizeof(settings),
		 "%u probes per configuration and round, paced at %u/s, %u-byte UDP payload; "
		 "interference: stress-ng's cpu, vm (64 MiB) and cache stressors, one of each per "
		 "CPU, on the housekeeping CPUs when the VNFs are pinned or isolated, on every CPU "
		 "for shared, from 1 s before the probes until they end",
		 b->count, b->spec.probe.rate, b->spec.probe.size);
	bench_md_header(b, f, settings);
	bench_policy_md(f, p->c, p->n);
	fputs("## RTT by configuration\n\n"
	      "Every probe of every round, pooled. Jitter is p99 - p50. The comparison columns "
	      "give each configuration's reduction in variability against placement shared "
	      "under the same load (1 - jitter / shared's jitter, 1 - stddev / shared's "
	      "stddev: 40% = 40% less; negative = more variable than shared); VM comparisons "
	      "beside the placements are against pinned. Intervals: percentile bootstrap, "
	      "1000 resamples of circular blocks of 32 consecutive probes (an eighth of a "
	      "series at most; bench/lib/stats.c).\n\n",
	      f);
	bench_md_results(b, f, pictures, CALVIN_BENCH_REDUCTION, "RTT");
}

int bench_pinning(struct bench *b)
{
	/* interference may run for one probe run, and a deploy, at most */
	unsigned int rate = b->spec.probe.rate ? b->spec.probe.rate : 1;

	return bench_policy_run(b, "rtt", "RTT", 4 * (b->count / rate + 1) + 120, measure,
				write_md);
}
