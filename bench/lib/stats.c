// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Statistics of the benchmarks (see bench_lib.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/lib/bench_lib.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void sort_copy(const double *x, size_t n, double *out)
{
	memcpy(out, x, n * sizeof(*x));
	qsort(out, n, sizeof(*out), cmp_double);
}

double calvin_quantile(const double *sorted, size_t n, double q)
{
	double h, lo;
	size_t i;

	if (!n)
		return 0;
	if (q <= 0)
		return sorted[0];
	if (q >= 1)
		return sorted[n - 1];
	h = (double)(n - 1) * q;
	lo = floor(h);
	i = (size_t)lo;
	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (h - lo) * (sorted[i + 1] - sorted[i]);
}

static void moments(const double *x, size_t n, double *mean, double *sd)
{
	long double sum = 0, m, ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += x[i];
	m = n ? sum / n : 0;
	for (i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = (double)m;
	*sd = n > 1 ? sqrt((double)(ss / (n - 1))) : 0;
}

void calvin_summarize(const double *x, size_t n, double *scratch, struct calvin_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return;
	sort_copy(x, n, scratch);
	s->min = scratch[0];
	s->max = scratch[n - 1];
	s->p50 = calvin_quantile(scratch, n, 0.5);
	s->p90 = calvin_quantile(scratch, n, 0.9);
	s->p99 = calvin_quantile(scratch, n, 0.99);
	s->p999 = calvin_quantile(scratch, n, 0.999);
	s->jitter = s->p99 - s->p50;
	moments(x, n, &s->mean, &s->stddev);
}

static const char *const stat_names[] = {
	[CALVIN_STAT_P50] = "p50",	 [CALVIN_STAT_P99] = "p99",
	[CALVIN_STAT_P999] = "p99.9",	 [CALVIN_STAT_MEAN] = "mean",
	[CALVIN_STAT_STDDEV] = "stddev", [CALVIN_STAT_JITTER] = "jitter (p99-p50)",
};

const char *calvin_stat_name(enum calvin_stat st)
{
	return (size_t)st < sizeof(stat_names) / sizeof(stat_names[0]) ? stat_names[st] : "?";
}

/* Rearrange a[0..n) so that a[k] holds what a sort would put there, with
 * nothing greater before it and nothing smaller after it (Hoare's
 * selection): a quantile in O(n) time on average, where each of the
 * bootstrap's thousand resamples would otherwise be sorted. */
static void select_kth(double *a, long n, long k)
{
	long lo = 0, hi = n - 1, i, j;
	double p, t;

	while (lo < hi) {
		/* median of three: no quadratic time on sorted input */
		p = a[lo + (hi - lo) / 2];
		if ((a[lo] <= p) == (p <= a[hi]))
			;
		else if ((p <= a[lo]) == (a[lo] <= a[hi]))
			p = a[lo];
		else
			p = a[hi];
		for (i = lo, j = hi; i <= j;) {
			while (a[i] < p)
				i++;
			while (a[j] > p)
				j--;
			if (i <= j) {
				t = a[i];
				a[i++] = a[j];
				a[j--] = t;
			}
		}
		/* a[lo..j] <= p, a[i..hi] >= p, and p between them */
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

/* calvin_quantile() of x (rearranged; any order in) by selection. */
static double quantile_select(double *x, size_t n, double q)
{
	double h = (double)(n - 1) * q, next;
	size_t i = (size_t)floor(h), k;

	select_kth(x, (long)n, (long)i);
	if (i + 1 >= n)
		return x[i];
	for (next = x[i + 1], k = i + 2; k < n; k++)
		if (x[k] < next)
			next = x[k];
	return x[i] + (h - floor(h)) * (next - x[i]);
}

double calvin_stat(enum calvin_stat st, const double *x, size_t n, double *scratch)
{
	double mean, sd;

	if (st == CALVIN_STAT_MEAN || st == CALVIN_STAT_STDDEV) {
		moments(x, n, &mean, &sd);
		return st == CALVIN_STAT_MEAN ? mean : sd;
	}
	if (!n)
		return 0;
	memcpy(scratch, x, n * sizeof(*x));
	switch (st) {
	case CALVIN_STAT_P50:
		return quantile_select(scratch, n, 0.5);
	case CALVIN_STAT_P99:
		return quantile_select(scratch, n, 0.99);
	case CALVIN_STAT_P999:
		return quantile_select(scratch, n, 0.999);
	case CALVIN_STAT_JITTER:
		return quantile_select(scratch, n, 0.99) - quantile_select(scratch, n, 0.5);
	default:
		return 0;
	}
}

/* splitmix64: small, seedable, good enough to pick resample positions */
static uint64_t next_u64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* uniform in [0, n), without modulo bias worth speaking of for n << 2^64 */
static size_t below(uint64_t *state, size_t n)
{
	return (size_t)((next_u64(state) >> 11) * (1.0 / 9007199254740992.0) * (double)n);
}

/* The block length for n samples: at most n / MIN_BLOCKS, so that a
 * resample is made of enough blocks to vary at all (50 probes in blocks
 * of 32 are one block and a piece). */
#define MIN_BLOCKS 8
static size_t block_len(size_t b, size_t n)
{
	if (b > n / MIN_BLOCKS)
		b = n / MIN_BLOCKS;
	return b < 1 ? 1 : b;
}

/* One circular-block resample of x into out (n values): blocks of b
 * consecutive samples starting anywhere, wrapping from the last sample to
 * the first (Politis and Romano's circular bootstrap), the last block cut
 * to fit. Every sample is drawn equally often on average, as the
 * estimate weighs them: blocks that stop at the end draw the first and
 * last b - 1 samples less often, and when those are the slow ones (the
 * first probes after a deploy) the resampled statistics fell below the
 * estimate, which then lay outside its own interval. */
static void resample(const double *x, size_t n, size_t b, uint64_t *rng, double *out)
{
	size_t filled = 0, start, k;

	b = block_len(b, n);
	while (filled < n) {
		start = below(rng, n);
		for (k = 0; k < b && filled < n; k++)
			out[filled++] = x[(start + k) % n];
	}
}

static int check_args(const struct calvin_bootstrap *b, size_t n)
{
	if (!n || b->reps < 2 || !(b->level > 0 && b->level < 1))
		return -EINVAL;
	return 0;
}

/* The interval from the sorted statistics of the resamples. */
static void interval(double *stats, size_t n, double level, struct calvin_ci *ci)
{
	qsort(stats, n, sizeof(*stats), cmp_double);
	ci->lo = calvin_quantile(stats, n, (1 - level) / 2);
	ci->hi = calvin_quantile(stats, n, 1 - (1 - level) / 2);
}

int calvin_bootstrap_ci(const struct calvin_bootstrap *b, enum calvin_stat st, const double *x,
			size_t n, struct calvin_ci *ci)
{
	double *rs, *scratch, *stats;
	uint64_t rng = b->seed;
	unsigned int r;
	int err;

	err = check_args(b, n);
	if (err)
		return err;
	rs = malloc(n * sizeof(*rs));
	scratch = malloc(n * sizeof(*scratch));
	stats = malloc(b->reps * sizeof(*stats));
	if (!rs || !scratch || !stats) {
		err = -ENOMEM;
		goto out;
	}
	ci->estimate = calvin_stat(st, x, n, scratch);
	for (r = 0; r < b->reps; r++) {
		resample(x, n, b->block, &rng, rs);
		stats[r] = calvin_stat(st, rs, n, scratch);
	}
	interval(stats, b->reps, b->level, ci);
out:
	free(rs);
	free(scratch);
	free(stats);
	return err;
}

int calvin_bootstrap_ratio(const struct calvin_bootstrap *b, enum calvin_stat st, const double *x,
			   size_t nx, const double *y, size_t ny, struct calvin_ci *ci)
{
	size_t n = nx > ny ? nx : ny, kept = 0;
	double *rs, *scratch, *stats, sx, sy;
	uint64_t rng = b->seed;
	unsigned int r;
	int err;

	err = check_args(b, nx);
	if (!err)
		err = check_args(b, ny);
	if (err)
		return err;
	rs = malloc(n * sizeof(*rs));
	scratch = malloc(n * sizeof(*scratch));
	stats = malloc(b->reps * sizeof(*stats));
	if (!rs || !scratch || !stats) {
		err = -ENOMEM;
		goto out;
	}
	sy = calvin_stat(st, y, ny, scratch);
	ci->estimate = sy != 0 ? calvin_stat(st, x, nx, scratch) / sy : NAN;
	for (r = 0; r < b->reps; r++) {
		resample(x, nx, b->block, &rng, rs);
		sx = calvin_stat(st, rs, nx, scratch);
		resample(y, ny, b->block, &rng, rs);
		sy = calvin_stat(st, rs, ny, scratch);
		if (sy != 0)
			stats[kept++] = sx / sy;
	}
	if (!kept) {
		err = -EDOM;
		goto out;
	}
	interval(stats, kept, b->level, ci);
out:
	free(rs);
	free(scratch);
	free(stats);
	return err;
}

int calvin_variability_reduction(const struct calvin_bootstrap *b, enum calvin_stat st,
				 const double *config, size_t nc, const double *baseline, size_t nb,
				 struct calvin_ci *ci)
{
	struct calvin_ci ratio;
	int err;

	err = calvin_bootstrap_ratio(b, st, config, nc, baseline, nb, &ratio);
	if (err)
		return err;
	/* 1 - r is decreasing in r: the ends swap */
	ci->estimate = 1 - ratio.estimate;
	ci->lo = 1 - ratio.hi;
	ci->hi = 1 - ratio.lo;
	return 0;
}

enum { NDR_TRY_HI, NDR_TRY_LO, NDR_BISECT, NDR_DONE };

int calvin_ndr_init(struct calvin_ndr *s, double lo, double hi, double resolution, double threshold)
{
	memset(s, 0, sizeof(*s));
	if (!(lo > 0 && hi > lo && resolution > 0 && threshold >= 0))
		return -EINVAL;
	s->lo = lo;
	s->hi = hi;
	s->resolution = resolution;
	s->threshold = threshold;
	s->state = NDR_TRY_HI;
	return 0;
}

int calvin_ndr_next(struct calvin_ndr *s, double *rate)
{
	if (s->trials >= CALVIN_NDR_MAX_TRIALS)
		s->state = NDR_DONE;
	switch (s->state) {
	case NDR_TRY_HI:
		*rate = s->hi;
		return 1;
	case NDR_TRY_LO:
		*rate = s->lo;
		return 1;
	case NDR_BISECT:
		if (s->hi - s->lo <= s->resolution) {
			s->state = NDR_DONE;
			return 0;
		}
		*rate = (s->lo + s->hi) / 2;
		return 1;
	default:
		return 0;
	}
}

void calvin_ndr_result(struct calvin_ndr *s, double rate, double loss_ratio)
{
	int pass = loss_ratio <= s->threshold;

	s->trials++;
	switch (s->state) {
	case NDR_TRY_HI:
		if (pass) {
			s->ndr = rate;
			s->state = NDR_DONE;
		} else {
			s->state = NDR_TRY_LO;
		}
		break;
	case NDR_TRY_LO:
		if (pass) {
			s->ndr = rate;
			s->state = NDR_BISECT;
		} else {
			s->state = NDR_DONE;
		}
		break;
	case NDR_BISECT:
		if (pass) {
			s->lo = rate;
			s->ndr = rate;
		} else {
			s->hi = rate;
		}
		break;
	default:
		break;
	}
}
