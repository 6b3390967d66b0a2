// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the log-linear histogram against exact, sorted percentiles. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "measure/measure.h"

#define N 100000

static const double percentiles[] = {0,	 0.001, 0.1, 1,	 5,    10,    25,     50,
				     75, 90,	95,  99, 99.9, 99.99, 99.999, 100};

/* splitmix64: a fixed seed makes every run test the same values */
static uint64_t rng_state;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* uniform in (0, 1] */
static double rng_unit(void)
{
	return ((rng() >> 11) + 1) * (1.0 / 9007199254740992.0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* nearest rank, the definition histogram.c documents */
static uint64_t exact_percentile(const uint64_t *sorted, size_t n, double p)
{
	long double r = (long double)p / 100 * n;
	uint64_t rank = (uint64_t)r;

	if ((long double)rank < r)
		rank++;
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

/* Checks every percentile of values against the sorted truth, within
 * 2^-SUB_BITS relative error (or exactly, when exact is set). */
static void check_values(const uint64_t *values, size_t n, int exact)
{
	struct calvin_hist *h = malloc(sizeof(*h));
	uint64_t *sorted = malloc(n * sizeof(*sorted));
	long double sum = 0;
	unsigned int i;
	uint64_t want, got, diff;

	assert_non_null(h);
	assert_non_null(sorted);
	calvin_hist_init(h);
	for (i = 0; i < n; i++) {
		calvin_hist_add(h, values[i]);
		sum += values[i];
	}
	memcpy(sorted, values, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	assert_int_equal(h->count, n);
	assert_int_equal(h->min, sorted[0]);
	assert_int_equal(h->max, sorted[n - 1]);
	assert_true(fabs(calvin_hist_mean(h) - (double)(sum / n)) <= 1e-9 * (double)(sum / n));
	assert_int_equal(calvin_hist_percentile(h, 0), sorted[0]);
	assert_int_equal(calvin_hist_percentile(h, 100), sorted[n - 1]);
	for (i = 0; i < sizeof(percentiles) / sizeof(percentiles[0]); i++) {
		want = exact_percentile(sorted, n, percentiles[i]);
		got = calvin_hist_percentile(h, percentiles[i]);
		diff = got > want ? got - want : want - got;
		if (exact)
			assert_int_equal(got, want);
		else if (diff > want >> CALVIN_HIST_SUB_BITS)
			fail_msg("p%g: got %llu, exact %llu, error above 2^-%d", percentiles[i],
				 (unsigned long long)got, (unsigned long long)want,
				 CALVIN_HIST_SUB_BITS);
	}
	free(sorted);
	free(h);
}

static uint64_t *values_alloc(void)
{
	uint64_t *v = malloc(N * sizeof(*v));

	assert_non_null(v);
	rng_state = 42;
	return v;
}

static void test_uniform(void **state)
{
	uint64_t *v = values_alloc();
	int i;

	for (i = 0; i < N; i++)
		v[i] = 1000 + rng() % 999001;
	check_values(v, N, 0);
	free(v);
}

static void test_exponential(void **state)
{
	uint64_t *v = values_alloc();
	int i;

	for (i = 0; i < N; i++)
		v[i] = 1 + (uint64_t)(-50000.0 * log(rng_unit()));
	check_values(v, N, 0);
	free(v);
}

static void test_constant(void **state)
{
	uint64_t *v = values_alloc();
	int i;

	for (i = 0; i < N; i++)
		v[i] = 123457;
	/* min/max clamping makes a constant exact, not just within the bound */
	check_values(v, N, 1);
	free(v);
}

static void test_bimodal(void **state)
{
	uint64_t *v = values_alloc();
	int i;

	for (i = 0; i < N; i++)
		v[i] = (rng() & 1) ? 9000 + rng() % 2001 : 950000 + rng() % 100001;
	check_values(v, N, 0);
	free(v);
}

static void test_span_1ns_to_1s(void **state)
{
	uint64_t *v = values_alloc();
	int i;

	for (i = 0; i < N; i++)
		v[i] = (uint64_t)exp(rng_unit() * log(1e9));
	v[0] = 1;
	v[1] = 1000000000;
	check_values(v, N, 0);
	free(v);
}

static void test_small_values_exact(void **state)
{
	uint64_t *v = values_alloc();
	int i;

	for (i = 0; i < N; i++)
		v[i] = rng() % CALVIN_HIST_SUB_COUNT;
	check_values(v, N, 1);
	free(v);
}

static void test_huge_values(void **state)
{
	uint64_t *v = values_alloc();
	int i;

	for (i = 0; i < N; i++)
		v[i] = rng() >> (rng() % 64);
	v[0] = UINT64_MAX;
	v[1] = 0;
	check_values(v, N, 0);
	free(v);
}

static void test_empty(void **state)
{
	struct calvin_hist *h = malloc(sizeof(*h));
	unsigned int i;

	assert_non_null(h);
	calvin_hist_init(h);
	assert_int_equal(h->count, 0);
	for (i = 0; i < sizeof(percentiles) / sizeof(percentiles[0]); i++)
		assert_int_equal(calvin_hist_percentile(h, percentiles[i]), 0);
	assert_true(calvin_hist_mean(h) == 0);
	free(h);
}

static void test_single_and_out_of_range_p(void **state)
{
	struct calvin_hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	calvin_hist_init(h);
	calvin_hist_add(h, 777777);
	assert_int_equal(h->min, 777777);
	assert_int_equal(h->max, 777777);
	assert_int_equal(calvin_hist_percentile(h, 50), 777777);
	assert_int_equal(calvin_hist_percentile(h, -5), 777777);
	assert_int_equal(calvin_hist_percentile(h, 250), 777777);
	assert_int_equal(calvin_hist_percentile(h, NAN), 777777);
	assert_true(calvin_hist_mean(h) == 777777.0);
	free(h);
}

static void test_merge(void **state)
{
	struct calvin_hist *all = malloc(sizeof(*all)), *a = malloc(sizeof(*a)),
			   *b = malloc(sizeof(*b)), *e = malloc(sizeof(*e));
	uint64_t v;
	int i;

	assert_true(all && a && b && e);
	calvin_hist_init(all);
	calvin_hist_init(a);
	calvin_hist_init(b);
	calvin_hist_init(e);
	rng_state = 7;
	for (i = 0; i < N; i++) {
		v = rng() % 10000000;
		calvin_hist_add(all, v);
		calvin_hist_add(i < N / 3 ? a : b, v);
	}
	calvin_hist_merge(a, b);
	assert_int_equal(a->count, all->count);
	assert_int_equal(a->min, all->min);
	assert_int_equal(a->max, all->max);
	assert_true(a->sum == all->sum);
	assert_memory_equal(a->buckets, all->buckets, sizeof(a->buckets));
	/* empty into full changes nothing; full into empty copies it */
	calvin_hist_merge(a, e);
	assert_memory_equal(a, all, sizeof(*a));
	calvin_hist_merge(e, all);
	assert_int_equal(e->min, all->min);
	assert_int_equal(e->max, all->max);
	assert_int_equal(calvin_hist_percentile(e, 99), calvin_hist_percentile(all, 99));
	free(all);
	free(a);
	free(b);
	free(e);
}

static void test_bucket_ranges(void **state)
{
	uint64_t lo, hi, prev_hi = 0;
	unsigned int b;

	for (b = 0; b < CALVIN_HIST_BUCKETS; b++) {
		calvin_hist_bucket_range(b, &lo, &hi);
		assert_true(lo <= hi);
		if (b == 0)
			assert_int_equal(lo, 0);
		else
			assert_int_equal(lo, prev_hi + 1);
		assert_int_equal(calvin_hist_bucket(lo), b);
		assert_int_equal(calvin_hist_bucket(hi), b);
		/* the documented width bound: at most 2^-(SUB_BITS-1) of lo */
		if (lo >= CALVIN_HIST_SUB_COUNT)
			assert_true((hi - lo + 1) <= lo >> (CALVIN_HIST_SUB_BITS - 1));
		else
			assert_int_equal(lo, hi);
		prev_hi = hi;
	}
	assert_int_equal(prev_hi, UINT64_MAX);
	assert_int_equal(calvin_hist_bucket(UINT64_MAX), CALVIN_HIST_BUCKETS - 1);
	assert_int_equal(calvin_hist_bucket(CALVIN_HIST_SUB_COUNT - 1), CALVIN_HIST_SUB_COUNT - 1);
	assert_int_equal(calvin_hist_bucket(CALVIN_HIST_SUB_COUNT), CALVIN_HIST_SUB_COUNT);
}

static void test_bucket_holds_value(void **state)
{
	uint64_t v, lo, hi;
	int i;

	rng_state = 1;
	for (i = 0; i < 1000000; i++) {
		v = rng() >> (rng() % 64);
		calvin_hist_bucket_range(calvin_hist_bucket(v), &lo, &hi);
		assert_true(lo <= v && v <= hi);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_uniform),
	    cmocka_unit_test(test_exponential),
	    cmocka_unit_test(test_constant),
	    cmocka_unit_test(test_bimodal),
	    cmocka_unit_test(test_span_1ns_to_1s),
	    cmocka_unit_test(test_small_values_exact),
	    cmocka_unit_test(test_huge_values),
	    cmocka_unit_test(test_empty),
	    cmocka_unit_test(test_single_and_out_of_range_p),
	    cmocka_unit_test(test_merge),
	    cmocka_unit_test(test_bucket_ranges),
	    cmocka_unit_test(test_bucket_holds_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
