// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the benchmark statistics against known answers: quantiles
 * as R and numpy compute them, closed-form moments, the coverage of
 * bootstrap intervals over many simulated samples (normal and skewed),
 * estimates inside their own intervals, and the no-drop-rate
 * search against simulated devices of known capacity. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "bench/lib/bench_lib.h"

static uint64_t rng_state;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double unit(void)
{
	return ((rng() >> 11) + 1) * (1.0 / 9007199254740992.0);
}

/* standard normal, Box-Muller */
static double normal(void)
{
	return sqrt(-2 * log(unit())) * cos(2 * M_PI * unit());
}

static void test_quantile_type7(void **state)
{
	const double x[] = { 1, 2, 3, 4 };
	const double one[] = { 42 };

	/* numpy.percentile([1, 2, 3, 4], [0, 25, 50, 90, 100]) */
	assert_float_equal(calvin_quantile(x, 4, 0), 1, 1e-12);
	assert_float_equal(calvin_quantile(x, 4, 0.25), 1.75, 1e-12);
	assert_float_equal(calvin_quantile(x, 4, 0.5), 2.5, 1e-12);
	assert_float_equal(calvin_quantile(x, 4, 0.9), 3.7, 1e-12);
	assert_float_equal(calvin_quantile(x, 4, 1), 4, 1e-12);
	assert_float_equal(calvin_quantile(one, 1, 0.99), 42, 1e-12);
	assert_float_equal(calvin_quantile(x, 0, 0.5), 0, 0);
}

static void test_summary_closed_form(void **state)
{
	double x[100], scratch[100];
	struct calvin_summary s;
	int i;

	/* 1..100 in reverse: the summary must not depend on order */
	for (i = 0; i < 100; i++)
		x[i] = 100 - i;
	calvin_summarize(x, 100, scratch, &s);
	assert_int_equal(s.n, 100);
	assert_float_equal(s.min, 1, 1e-12);
	assert_float_equal(s.max, 100, 1e-12);
	assert_float_equal(s.p50, 50.5, 1e-9);
	assert_float_equal(s.p90, 90.1, 1e-9);
	assert_float_equal(s.p99, 99.01, 1e-9);
	assert_float_equal(s.jitter, 99.01 - 50.5, 1e-9);
	assert_float_equal(s.mean, 50.5, 1e-9);
	/* sample stddev of 1..n: sqrt(n (n + 1) / 12) */
	assert_float_equal(s.stddev, sqrt(100.0 * 101 / 12), 1e-9);
	assert_float_equal(x[0], 100, 0); /* input untouched */
}

/* Of many samples from N(10, 1), about 95% of the 95% intervals of the
 * mean and of the median contain the true value. */
static void coverage(enum calvin_stat st, size_t block)
{
	struct calvin_bootstrap b = { .reps = 400, .level = 0.95, .block = block, .seed = 7 };
	enum { TRIALS = 200, N = 400 };
	double x[N];
	struct calvin_ci ci;
	int t, hit = 0;
	size_t i;

	rng_state = 12345;
	for (t = 0; t < TRIALS; t++) {
		for (i = 0; i < N; i++)
			x[i] = 10 + normal();
		assert_int_equal(calvin_bootstrap_ci(&b, st, x, N, &ci), 0);
		assert_true(ci.lo <= ci.estimate && ci.estimate <= ci.hi);
		hit += ci.lo <= 10 && 10 <= ci.hi;
		b.seed++;
	}
	/* binomial(200, 0.95): 190 +- 3 sd is 181..199 */
	assert_in_range(hit, 181, 200);
}

static void test_bootstrap_coverage_mean(void **state)
{
	coverage(CALVIN_STAT_MEAN, 1);
}

static void test_bootstrap_coverage_median(void **state)
{
	coverage(CALVIN_STAT_P50, 1);
}

/* calvin_stat() selects where calvin_quantile() sorts: the same values,
 * ties and sorted input included. */
static void test_stat_selection_is_quantile(void **state)
{
	static const enum calvin_stat st[] = { CALVIN_STAT_P50, CALVIN_STAT_P99, CALVIN_STAT_P999 };
	static const double q[] = { 0.5, 0.99, 0.999 };
	double x[64], sorted[64], scratch[64];
	size_t n, i, k;
	int t;

	rng_state = 5;
	for (t = 0; t < 3000; t++) {
		n = 1 + rng() % 64;
		for (i = 0; i < n; i++) /* few distinct values, or sorted, or random */
			x[i] = t % 3 == 0 ? (double)(rng() % 4) : t % 3 == 1 ? (double)i : unit();
		for (i = 0; i < n; i++)
			sorted[i] = x[i];
		for (i = 1; i < n; i++) /* insertion sort: a reference of its own */
			for (k = i; k > 0 && sorted[k - 1] > sorted[k]; k--) {
				double v = sorted[k];

				sorted[k] = sorted[k - 1];
				sorted[k - 1] = v;
			}
		/* doubles, compared as doubles (assert_float_equal casts to float) */
		for (k = 0; k < 3; k++)
			assert_true(calvin_stat(st[k], x, n, scratch) ==
				    calvin_quantile(sorted, n, q[k]));
		assert_true(fabs(calvin_stat(CALVIN_STAT_JITTER, x, n, scratch) -
				 (calvin_quantile(sorted, n, 0.99) -
				  calvin_quantile(sorted, n, 0.5))) < 1e-12);
	}
}

/* Skewed samples, a heavy tail, and slow samples at the start (a round's
 * first probes after a deploy): every statistic's estimate lies in its
 * own interval, with single samples and with blocks. Blocks that stopped
 * at the end of the series left those first samples out of most
 * resamples, and put the estimate above its interval. */
static void test_estimate_in_interval_skewed(void **state)
{
	static const enum calvin_stat st[] = { CALVIN_STAT_P50,	   CALVIN_STAT_P99,
					       CALVIN_STAT_P999,   CALVIN_STAT_MEAN,
					       CALVIN_STAT_STDDEV, CALVIN_STAT_JITTER };
	static const size_t sizes[] = { 50, 300 }, blocks[] = { 1, 32 };
	struct calvin_bootstrap b = { .reps = 400, .level = 0.95 };
	static double x[300];
	struct calvin_ci ci;
	size_t i, n, s, k, bl;
	int dist, t;

	rng_state = 2024;
	for (dist = 0; dist < 3; dist++)
		for (s = 0; s < 2; s++)
			for (bl = 0; bl < 2; bl++)
				for (t = 0; t < 10; t++) {
					n = sizes[s];
					for (i = 0; i < n; i++)
						x[i] =
						    dist == 0 ? exp(1.5 * normal()) /* lognormal */
						    : dist == 1 ? pow(unit(), -1 / 1.2) /* Pareto */
								: -log(unit()) * (i < 3 ? 100 : 1);
					b.block = blocks[bl];
					b.seed = (uint64_t)t + 1;
					for (k = 0; k < sizeof(st) / sizeof(st[0]); k++) {
						assert_int_equal(
						    calvin_bootstrap_ci(&b, st[k], x, n, &ci), 0);
						assert_true(ci.lo <= ci.estimate &&
							    ci.estimate <= ci.hi);
					}
				}
}

/* Of many samples from a skewed distribution of known quantiles
 * (exponential, mean 1: median ln 2, p99 ln 100, standard deviation 1),
 * about 95% of the 95% intervals (blocks of 32, as the bench's) contain
 * the true value. */
static void test_bootstrap_coverage_skewed(void **state)
{
	static const enum calvin_stat st[] = { CALVIN_STAT_P50, CALVIN_STAT_P99,
					       CALVIN_STAT_STDDEV };
	const double truth[] = { log(2), log(100), 1 };
	struct calvin_bootstrap b = { .reps = 400, .level = 0.95, .block = 32 };
	enum { TRIALS = 200, N = 2000 };
	static double x[N];
	int t, hit[3] = { 0 };
	struct calvin_ci ci;
	size_t i, k;

	rng_state = 42;
	for (t = 0; t < TRIALS; t++) {
		for (i = 0; i < N; i++)
			x[i] = -log(unit());
		b.seed = (uint64_t)t + 1;
		for (k = 0; k < 3; k++) {
			assert_int_equal(calvin_bootstrap_ci(&b, st[k], x, N, &ci), 0);
			hit[k] += ci.lo <= truth[k] && truth[k] <= ci.hi;
		}
	}
	/* binomial(200, 0.95): 190 +- 3 sd is 181..199; the percentile
	 * bootstrap runs a little short of its level on skewed samples */
	for (k = 0; k < 3; k++)
		assert_in_range(hit[k], 180, 199);
}

/* The interval of the mean of N(0, 1) samples is about 2 * 1.96 / sqrt(n)
 * wide; the same seed gives the same interval. */
static void test_bootstrap_width_and_repeatable(void **state)
{
	struct calvin_bootstrap b = { .reps = 1000, .level = 0.95, .seed = 99 };
	enum { N = 4000 };
	static double x[N];
	struct calvin_ci a, c;
	size_t i;

	rng_state = 1;
	for (i = 0; i < N; i++)
		x[i] = normal();
	assert_int_equal(calvin_bootstrap_ci(&b, CALVIN_STAT_MEAN, x, N, &a), 0);
	assert_float_equal(a.hi - a.lo, 2 * 1.96 / sqrt(N), 0.2 * 2 * 1.96 / sqrt(N));
	assert_int_equal(calvin_bootstrap_ci(&b, CALVIN_STAT_MEAN, x, N, &c), 0);
	assert_float_equal(a.lo, c.lo, 0);
	assert_float_equal(a.hi, c.hi, 0);
}

/* For a strongly autocorrelated series (AR(1), phi = 0.9) the mean is far
 * less certain than independent samples suggest; blocks show it. */
static void test_block_bootstrap_wider(void **state)
{
	struct calvin_bootstrap iid = { .reps = 500, .level = 0.95, .block = 1, .seed = 3 };
	struct calvin_bootstrap blk = { .reps = 500, .level = 0.95, .block = 50, .seed = 3 };
	enum { N = 5000 };
	static double x[N];
	struct calvin_ci a, c;
	size_t i;

	rng_state = 77;
	x[0] = 0;
	for (i = 1; i < N; i++)
		x[i] = 0.9 * x[i - 1] + normal();
	assert_int_equal(calvin_bootstrap_ci(&iid, CALVIN_STAT_MEAN, x, N, &a), 0);
	assert_int_equal(calvin_bootstrap_ci(&blk, CALVIN_STAT_MEAN, x, N, &c), 0);
	/* the true factor is sqrt((1 + phi) / (1 - phi)) = 4.4 */
	assert_true(c.hi - c.lo > 2.5 * (a.hi - a.lo));
}

static void test_ratio_and_reduction(void **state)
{
	struct calvin_bootstrap b = { .reps = 500, .level = 0.95, .seed = 5 };
	enum { N = 2000 };
	static double base[N], twice[N], calm[N];
	struct calvin_ci ci;
	size_t i;

	rng_state = 9;
	for (i = 0; i < N; i++) {
		base[i] = 100 + 10 * normal();
		twice[i] = 2 * base[i];
		/* the same centre, 60% of the spread */
		calm[i] = 100 + 0.6 * (base[i] - 100);
	}
	assert_int_equal(calvin_bootstrap_ratio(&b, CALVIN_STAT_P50, twice, N, base, N, &ci), 0);
	assert_float_equal(ci.estimate, 2, 1e-9);
	assert_true(ci.lo < 2 && 2 < ci.hi && ci.hi - ci.lo < 0.1);
	assert_int_equal(
	    calvin_variability_reduction(&b, CALVIN_STAT_STDDEV, calm, N, base, N, &ci), 0);
	assert_float_equal(ci.estimate, 0.4, 1e-9);
	assert_true(ci.lo < 0.4 && 0.4 < ci.hi && ci.lo > 0.3 && ci.hi < 0.5);
}

static void test_bad_arguments(void **state)
{
	struct calvin_bootstrap b = { .reps = 100, .level = 0.95, .seed = 1 };
	const double x[] = { 1, 2, 3 }, zero[] = { 0, 0, 0 };
	struct calvin_ci ci;

	assert_int_equal(calvin_bootstrap_ci(&b, CALVIN_STAT_P50, x, 0, &ci), -EINVAL);
	b.level = 1;
	assert_int_equal(calvin_bootstrap_ci(&b, CALVIN_STAT_P50, x, 3, &ci), -EINVAL);
	b.level = 0.95;
	b.reps = 1;
	assert_int_equal(calvin_bootstrap_ci(&b, CALVIN_STAT_P50, x, 3, &ci), -EINVAL);
	b.reps = 100;
	assert_int_equal(calvin_bootstrap_ratio(&b, CALVIN_STAT_P50, x, 3, zero, 3, &ci), -EDOM);
}

/* A device that carries up to cap and loses the excess. */
static double ndr_search(double cap, double lo, double hi, double res, unsigned int *trials)
{
	struct calvin_ndr s;
	double rate;

	assert_int_equal(calvin_ndr_init(&s, lo, hi, res, 1e-5), 0);
	while (calvin_ndr_next(&s, &rate))
		calvin_ndr_result(&s, rate, rate > cap ? (rate - cap) / rate : 0);
	*trials = s.trials;
	return s.ndr;
}

static void test_ndr_known_capacity(void **state)
{
	unsigned int trials;
	double ndr;

	ndr = ndr_search(123456, 1000, 1e6, 100, &trials);
	assert_true(ndr <= 123456 && ndr > 123456 - 100);
	/* hi, lo, then about log2(999000 / 100) bisections */
	assert_in_range(trials, 14, 17);
	/* a device faster than hi: one trial */
	assert_float_equal(ndr_search(2e6, 1000, 1e6, 100, &trials), 1e6, 0);
	assert_int_equal(trials, 1);
	/* one slower than lo: none */
	assert_float_equal(ndr_search(500, 1000, 1e6, 100, &trials), 0, 0);
	assert_int_equal(trials, 2);
}

static void test_ndr_threshold_and_init(void **state)
{
	struct calvin_ndr s;
	double rate;

	/* loss at the threshold passes, above it fails */
	assert_int_equal(calvin_ndr_init(&s, 10, 20, 1, 0.01), 0);
	assert_int_equal(calvin_ndr_next(&s, &rate), 1);
	calvin_ndr_result(&s, rate, 0.01);
	assert_float_equal(s.ndr, 20, 0);
	assert_int_equal(calvin_ndr_next(&s, &rate), 0);
	assert_int_equal(calvin_ndr_init(&s, 20, 10, 1, 0), -EINVAL);
	assert_int_equal(calvin_ndr_init(&s, 0, 10, 1, 0), -EINVAL);
	assert_int_equal(calvin_ndr_init(&s, 1, 10, 0, 0), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantile_type7),
		cmocka_unit_test(test_summary_closed_form),
		cmocka_unit_test(test_bootstrap_coverage_mean),
		cmocka_unit_test(test_bootstrap_coverage_median),
		cmocka_unit_test(test_stat_selection_is_quantile),
		cmocka_unit_test(test_estimate_in_interval_skewed),
		cmocka_unit_test(test_bootstrap_coverage_skewed),
		cmocka_unit_test(test_bootstrap_width_and_repeatable),
		cmocka_unit_test(test_block_bootstrap_wider),
		cmocka_unit_test(test_ratio_and_reduction),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_ndr_known_capacity),
		cmocka_unit_test(test_ndr_threshold_and_init),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
