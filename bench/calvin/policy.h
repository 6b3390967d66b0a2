/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The configurations `calvin bench pinning` and `wakeup` compare (policy.c). */
#ifndef CALVIN_BENCH_POLICY_H
#define CALVIN_BENCH_POLICY_H

#include "bench.h"
#include "plan/plan.h"

/* 3 placements x idle/stress, and for VMs the other kernel (x2) and links */
#define BENCH_MAX_CONFIGS 9

struct bench_config {
	char key[CALVIN_BENCH_KEY_MAX];	    /* "pinned-stress", "pinned-idle-rt" */
	char label[CALVIN_BENCH_LABEL_MAX]; /* "pinned, stress" */
	struct calvin_spec_override o;
	bool stress;			/* under interference */
	bool extra;			/* a VM comparison beside the placements (kernel, links) */
	int ref;			/* the configuration it is compared with; -1: none */
	struct calvin_chain_spec *spec; /* its variant; NULL: it cannot run */
	struct calvin_plan placed;	/* its plan on this host */
	char plan[256];			/* the plan, one line */
	char why[256];			/* why it cannot run; "" if it can */
};

/* What a mode measures in configuration i while it is up (and loaded):
 * 0, or an exit code (CALVIN_EXIT_FAIL: leave this configuration out). */
typedef int (*bench_measure_fn)(struct bench *b, struct bench_config *c, unsigned int i,
				unsigned int round, void *arg);

/* A mode's configurations (b->priv while the mode runs). */
struct bench_policy {
	struct bench_config c[BENCH_MAX_CONFIGS];
	unsigned int n;
};

/* A whole run of pinning or wakeup: the configurations, a series of
 * metric for each (compared with its ref), the rounds, the report
 * (write_md, the pictures titled title). 0 or an exit code. */
int bench_policy_run(struct bench *b, const char *metric, const char *title, unsigned int timeout_s,
		     bench_measure_fn measure,
		     void (*write_md)(struct bench *b, FILE *f, bool pictures));

/* The configurations for b's chain, their variants written and planned.
 * Returns 0 or an exit code (one line). */
int bench_policy_configs(struct bench *b, struct bench_config *c, unsigned int *n);
void bench_policy_free(struct bench_config *c, unsigned int n);
/* b->rounds rounds of every configuration that can run, in an order that
 * rotates from round to round; stops on Ctrl-C. timeout_s: how long the
 * interference of one measurement may run at most. 0 or an exit code. */
int bench_policy_rounds(struct bench *b, struct bench_config *c, unsigned int n,
			unsigned int timeout_s, bench_measure_fn measure, void *arg);
/* What each configuration ran as (or why it did not), as Markdown. */
void bench_policy_md(FILE *f, const struct bench_config *c, unsigned int n);

#endif /* CALVIN_BENCH_POLICY_H */
