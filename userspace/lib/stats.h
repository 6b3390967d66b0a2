/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Statistics of the benchmarks: exact quantiles of samples, summaries,
 * bootstrap confidence intervals, variability reduction between two
 * configurations, and the no-drop-rate search. Pure code: samples in,
 * numbers out, no I/O; every random choice comes from a seeded generator,
 * so a report can be recomputed from its CSV.
 *
 * Why a bootstrap by blocks: latency samples taken one after another are
 * not independent (a slow period makes several slow probes in a row), so
 * resampling single samples understates the uncertainty. Resampling runs
 * of consecutive samples keeps that dependence; a block of 1 is the
 * ordinary bootstrap. Blocks wrap around from the last sample to the
 * first (the circular block bootstrap), so a resample weighs every sample
 * alike, as the estimate does: the percentile interval is then one of the
 * statistic as the estimate defines it, and holds its estimate. A block
 * is at most n / 8 samples long, so a resample has blocks to vary.
 */
#ifndef CALVIN_LIB_STATS_H
#define CALVIN_LIB_STATS_H

#include <stddef.h>
#include <stdint.h>

/* The q-quantile (q in [0, 1]) of n sorted values, interpolated linearly
 * between the two nearest ranks (Hyndman and Fan's type 7, the default of
 * R and numpy). 0 for n == 0. */
double calvin_quantile(const double *sorted, size_t n, double q);

struct calvin_summary {
	size_t n;
	double min, max, mean, stddev; /* stddev: sample (n - 1) */
	double p50, p90, p99, p999;
	double jitter; /* p99 - p50 */
};

/* Summary of n values (any order); uses scratch (n doubles) to sort. */
void calvin_summarize(const double *x, size_t n, double *scratch, struct calvin_summary *s);

/* A statistic of a sample: values in any order, scratch of n doubles. */
enum calvin_stat {
	CALVIN_STAT_P50,
	CALVIN_STAT_P99,
	CALVIN_STAT_P999,
	CALVIN_STAT_MEAN,
	CALVIN_STAT_STDDEV,
	CALVIN_STAT_JITTER, /* p99 - p50 */
};
double calvin_stat(enum calvin_stat st, const double *x, size_t n, double *scratch);
const char *calvin_stat_name(enum calvin_stat st);

struct calvin_ci {
	double estimate; /* the statistic of the samples as they are */
	double lo, hi;	 /* percentile-bootstrap interval */
};

struct calvin_bootstrap {
	unsigned int reps; /* resamples, e.g. 1000 */
	double level;	   /* e.g. 0.95 */
	size_t block;	   /* circular-block length; 0 or 1: single samples */
	uint64_t seed;
};

/* Confidence interval of a statistic of one sample. Returns 0, or -EINVAL
 * (no samples, bad level or reps), -ENOMEM. */
int calvin_bootstrap_ci(const struct calvin_bootstrap *b, enum calvin_stat st, const double *x,
			size_t n, struct calvin_ci *ci);

/* Confidence interval of stat(x) / stat(y), each sample resampled on its
 * own: how many times y's statistic x's is. A resample whose denominator
 * is 0 is skipped; -EDOM if all were. */
int calvin_bootstrap_ratio(const struct calvin_bootstrap *b, enum calvin_stat st, const double *x,
			   size_t nx, const double *y, size_t ny, struct calvin_ci *ci);

/* Reduction of variability of a configuration against a baseline:
 * 1 - stat(config) / stat(baseline), e.g. 0.4 = "40% less jitter", with
 * its interval (from the ratio's). */
int calvin_variability_reduction(const struct calvin_bootstrap *b, enum calvin_stat st,
				 const double *config, size_t nc, const double *baseline, size_t nb,
				 struct calvin_ci *ci);

/* The no-drop rate (NFVbench's NDR): the highest offered rate whose loss
 * is at most a threshold, found by bisection between a rate known (or
 * assumed) to pass and one known to fail. Driven from outside:
 *
 *   calvin_ndr_init(&s, lo, hi, resolution, threshold);
 *   while (calvin_ndr_next(&s, &rate))
 *           calvin_ndr_result(&s, rate, measured_loss_ratio(rate));
 *   s.ndr is the answer (0 if even lo failed).
 *
 * The search first tries hi (a DUT that carries it has no lower NDR), then
 * lo, then bisects; it stops when hi - lo <= resolution (absolute, in the
 * rate's unit) or after CALVIN_NDR_MAX_TRIALS trials. */
#define CALVIN_NDR_MAX_TRIALS 32

struct calvin_ndr {
	double lo, hi; /* lo passes (or untried), hi fails (or untried) */
	double resolution, threshold;
	double ndr; /* best passing rate so far; 0: none */
	unsigned int trials;
	int state; /* internal: 0 try hi, 1 try lo, 2 bisect, 3 done */
};

int calvin_ndr_init(struct calvin_ndr *s, double lo, double hi, double resolution,
		    double threshold);
/* 1 with the next rate to try in *rate, 0 when the search is over. */
int calvin_ndr_next(struct calvin_ndr *s, double *rate);
void calvin_ndr_result(struct calvin_ndr *s, double rate, double loss_ratio);

#endif /* CALVIN_LIB_STATS_H */
