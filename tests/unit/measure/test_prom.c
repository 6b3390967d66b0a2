// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the Prometheus exposition (prom.c): bucket layouts, the
 * fold of a log-linear histogram into buckets, the text itself (cumulative
 * buckets, +Inf, _sum, _count, escaped labels), and histogram_quantile()'s
 * interpolation against calvin's own percentile. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "measure/measure.h"

static void test_rtt_bounds(void **unused)
{
	static struct calvin_prom_hist p;
	unsigned int i;

	/* 350us: 5us steps to the budget, then doubling to 10 s at least */
	calvin_prom_hist_init_rtt(&p, 350000);
	assert_int_equal(p.bound_ns[0], 5000);
	assert_int_equal(p.bound_ns[69], 350000);
	assert_int_equal(p.bound_ns[70], 700000);
	assert_true(p.bound_ns[p.nr_bounds - 1] >= 10000000000ULL);
	for (i = 1; i < p.nr_bounds; i++)
		assert_true(p.bound_ns[i] > p.bound_ns[i - 1]);
	assert_int_equal(calvin_prom_bucket_width(&p, 349999), 5000);
	/* a budget that is not a multiple of its step still gets a bound at
	 * or just above it */
	calvin_prom_hist_init_rtt(&p, 1000001);
	assert_int_equal(p.bound_ns[0], 10000);
	assert_true(p.bound_ns[100] >= 1000001 && p.bound_ns[99] < 1000001);
	/* tiny and huge budgets fit */
	calvin_prom_hist_init_rtt(&p, 1);
	assert_true(p.nr_bounds > 10 && p.nr_bounds <= CALVIN_PROM_MAX_BOUNDS);
	calvin_prom_hist_init_rtt(&p, 5000000000ULL);
	assert_true(p.nr_bounds <= CALVIN_PROM_MAX_BOUNDS);
	assert_true(p.bound_ns[p.nr_bounds - 1] >= 5000000000ULL);
}

static void test_hop_bounds(void **unused)
{
	static struct calvin_prom_hist p;

	calvin_prom_hist_init_hop(&p);
	assert_int_equal(p.bound_ns[0], 100);
	assert_int_equal(p.bound_ns[1], 150);
	assert_int_equal(p.bound_ns[6], 1000);
	assert_int_equal(p.bound_ns[p.nr_bounds - 1], 10000000000ULL);
}

/* Values go to the bucket that holds them; the counts add up. */
static void test_fold(void **unused)
{
	static struct calvin_hist h;
	static struct calvin_prom_hist p;

	calvin_hist_init(&h);
	calvin_prom_hist_init_rtt(&p, 350000);
	calvin_hist_add(&h, 100);	     /* <= 5us */
	calvin_hist_add(&h, 7000);	     /* (5, 10]us */
	calvin_hist_add(&h, 7000);	     /* (5, 10]us */
	calvin_hist_add(&h, 349000);	     /* (345, 350]us */
	calvin_hist_add(&h, 20000000000ULL); /* +Inf */
	calvin_prom_hist_add(&p, &h);
	assert_int_equal(p.counts[0], 1);
	assert_int_equal(p.counts[1], 2);
	assert_int_equal(p.counts[69], 1);
	assert_int_equal(p.counts[p.nr_bounds], 1);
	assert_int_equal(p.count, 5);
	/* a second window adds */
	calvin_prom_hist_add(&p, &h);
	assert_int_equal(p.counts[1], 4);
	assert_int_equal(p.count, 10);
	assert_true(fabsl(p.sum_ns - 2 * (100 + 14000 + 349000 + 20000000000.0L)) < 1e6);
}

static char *text_of(const struct calvin_prom_hist *p, const char *labels)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	calvin_prom_family(f, "calvin_rtt_seconds", "histogram", "RTT.");
	calvin_prom_hist_write(f, "calvin_rtt_seconds", labels, p);
	calvin_prom_sample(f, "calvin_up", "", 1);
	fclose(f);
	return buf;
}

static void test_text(void **unused)
{
	static struct calvin_hist h;
	static struct calvin_prom_hist p;
	char *t;

	calvin_hist_init(&h);
	calvin_prom_hist_init_rtt(&p, 350000);
	calvin_hist_add(&h, 7000);
	calvin_hist_add(&h, 8000);
	calvin_hist_add(&h, 400000);
	calvin_prom_hist_add(&p, &h);
	t = text_of(&p, "chain=\"c\"");
	assert_non_null(strstr(t, "# HELP calvin_rtt_seconds RTT.\n# TYPE calvin_rtt_seconds "
				  "histogram\n"));
	/* cumulative, in seconds, labels first and le last */
	assert_non_null(strstr(t, "calvin_rtt_seconds_bucket{chain=\"c\",le=\"5e-06\"} 0\n"));
	assert_non_null(strstr(t, "calvin_rtt_seconds_bucket{chain=\"c\",le=\"1e-05\"} 2\n"));
	assert_non_null(strstr(t, "calvin_rtt_seconds_bucket{chain=\"c\",le=\"0.00035\"} 2\n"));
	assert_non_null(strstr(t, "calvin_rtt_seconds_bucket{chain=\"c\",le=\"0.0007\"} 3\n"));
	assert_non_null(strstr(t, "calvin_rtt_seconds_bucket{chain=\"c\",le=\"+Inf\"} 3\n"));
	assert_non_null(strstr(t, "calvin_rtt_seconds_count{chain=\"c\"} 3\n"));
	assert_non_null(strstr(t, "calvin_rtt_seconds_sum{chain=\"c\"} 0.000415"));
	assert_non_null(strstr(t, "\ncalvin_up 1\n"));
	free(t);
	/* no labels: le alone */
	t = text_of(&p, "");
	assert_non_null(strstr(t, "calvin_rtt_seconds_bucket{le=\"+Inf\"} 3\n"));
	assert_non_null(strstr(t, "calvin_rtt_seconds_count{} 3\n"));
	free(t);
}

/* A label value cannot end the value or the line early. */
static void test_label_escape(void **unused)
{
	char l[64] = "";

	calvin_prom_label(l, sizeof(l), "chain", "c");
	calvin_prom_label(l, sizeof(l), "hop", "a\"b\\c\nd");
	assert_string_equal(l, "chain=\"c\",hop=\"a\\\"b\\\\c\\nd\"");
	/* truncated, never unterminated */
	l[0] = 0;
	calvin_prom_label(l, 12, "k", "0123456789abcdef");
	assert_true(strlen(l) < 12);
}

/* Prometheus' interpolation lands within one bucket's width of calvin's
 * own p99, which is within 0.4% of the value. */
static void test_quantile(void **unused)
{
	static struct calvin_hist h;
	static struct calvin_prom_hist p;
	uint64_t own, width;
	double prom;
	unsigned int i;

	calvin_hist_init(&h);
	calvin_prom_hist_init_rtt(&p, 350000);
	assert_true(isnan(calvin_prom_quantile(&p, 0.99)));
	srand(7);
	for (i = 0; i < 10000; i++)
		calvin_hist_add(&h, 8000 + (uint64_t)(rand() % 300000));
	calvin_prom_hist_add(&p, &h);
	own = calvin_hist_percentile(&h, 99);
	prom = calvin_prom_quantile(&p, 0.99) * 1e9;
	width = calvin_prom_bucket_width(&p, own);
	print_message("own p99 %llu ns, prometheus %.0f ns, bucket %llu ns\n",
		      (unsigned long long)own, prom, (unsigned long long)width);
	assert_true(fabs(prom - (double)own) <= (double)width);
	/* all in +Inf: the last finite bound, as Prometheus answers */
	calvin_hist_init(&h);
	calvin_prom_hist_init_rtt(&p, 350000);
	calvin_hist_add(&h, 50000000000ULL);
	calvin_prom_hist_add(&p, &h);
	assert_true(calvin_prom_quantile(&p, 0.5) * 1e9 == (double)p.bound_ns[p.nr_bounds - 1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rtt_bounds),   cmocka_unit_test(test_hop_bounds),
		cmocka_unit_test(test_fold),	     cmocka_unit_test(test_text),
		cmocka_unit_test(test_label_escape), cmocka_unit_test(test_quantile),
	};

	return cmocka_run_group_tests_name("prom", tests, NULL, NULL);
}
