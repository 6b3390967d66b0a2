// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of `calvin bench`'s report pieces (bench/lib/bench_lib.h): series,
 * samples.csv, the latency table with intervals and comparisons, the
 * number formats, the gnuplot script and the Markdown header. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench/lib/bench_lib.h"

static const struct calvin_bootstrap boot = { .reps = 200, .level = 0.95, .block = 4, .seed = 7 };

static char *text_of(void (*fn)(FILE *f, void *arg), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, arg);
	fclose(f);
	return buf;
}

/* Two series: "a" at 10..19 us, "b" at twice that, b compared with a. */
static void two(struct calvin_bench_series s[2])
{
	int i;

	calvin_bench_series_init(&s[0], "a", "config a", "rtt");
	calvin_bench_series_init(&s[1], "b", "config b", "rtt");
	for (i = 0; i < 100; i++) {
		assert_int_equal(calvin_bench_series_add(&s[0], 10000 + 100 * (i % 10), 1 + i / 50),
				 0);
		assert_int_equal(calvin_bench_series_add(&s[1], 20000 + 200 * (i % 10), 1 + i / 50),
				 0);
	}
	s[1].ref = 0;
	s[0].sent = 101;
	s[0].lost = 1;
}

static void test_series_grow(void **state)
{
	struct calvin_bench_series s;
	int i;

	calvin_bench_series_init(&s, "a-very-long-configuration-name-that-is-cut-somewhere-here",
				 "label", "rtt");
	assert_true(strlen(s.config) < CALVIN_BENCH_KEY_MAX);
	assert_int_equal(s.ref, -1);
	assert_true(s.ordered);
	for (i = 0; i < 5000; i++)
		assert_int_equal(calvin_bench_series_add(&s, i, 3), 0);
	assert_int_equal(s.n, 5000);
	assert_true(s.v[4999] == 4999);
	assert_int_equal(s.round[17], 3);
	calvin_bench_series_free(&s);
	assert_int_equal(s.n, 0);
	assert_null(s.v);
}

static void csv(FILE *f, void *arg)
{
	calvin_bench_csv(f, arg, 1);
}

static void test_csv_runs(void **state)
{
	struct calvin_bench_series s;
	char *t;

	calvin_bench_series_init(&s, "pinned-idle", "pinned, idle", "wakeup");
	/* a histogram made samples: equal values in a row are one row */
	calvin_bench_series_add(&s, 3000, 1);
	calvin_bench_series_add(&s, 3000, 1);
	calvin_bench_series_add(&s, 3000, 2);
	calvin_bench_series_add(&s, 4000, 2);
	t = text_of(csv, &s);
	assert_string_equal(t, "config,round,metric,value_ns,count\n"
			       "pinned-idle,1,wakeup,3000,2\n"
			       "pinned-idle,2,wakeup,3000,1\n"
			       "pinned-idle,2,wakeup,4000,1\n");
	free(t);
	calvin_bench_series_free(&s);
}

static void test_formats(void **state)
{
	struct calvin_ci ci = { .estimate = 12345, .lo = 11900, .hi = 12800 };
	char buf[96];

	calvin_bench_fmt_ci_ns(buf, sizeof(buf), &ci);
	assert_string_equal(buf, "12.3us [11.9us, 12.8us]");
	ci = (struct calvin_ci){ .estimate = 0.42, .lo = 0.31, .hi = 0.5 };
	calvin_bench_fmt_ci_ratio(buf, sizeof(buf), &ci, false);
	assert_string_equal(buf, "0.42 [0.31, 0.50]");
	calvin_bench_fmt_ci_ratio(buf, sizeof(buf), &ci, true);
	assert_string_equal(buf, "42% [31%, 50%]");
	/* a reduction far below zero reads as a multiple */
	ci = (struct calvin_ci){ .estimate = -11, .lo = -19, .hi = -7 };
	calvin_bench_fmt_ci_ratio(buf, sizeof(buf), &ci, true);
	assert_string_equal(buf, "12x as much [8x, 20x]");
	ci.estimate = NAN;
	calvin_bench_fmt_ci_ratio(buf, sizeof(buf), &ci, true);
	assert_string_equal(buf, "-");
}

static void ratio_table(FILE *f, void *arg)
{
	assert_int_equal(calvin_bench_latency_table(f, arg, 2, CALVIN_BENCH_RATIO, &boot), 0);
}

static void reduction_table(FILE *f, void *arg)
{
	assert_int_equal(calvin_bench_latency_table(f, arg, 2, CALVIN_BENCH_REDUCTION, &boot), 0);
}

static void test_table_ratio(void **state)
{
	struct calvin_bench_series s[2];
	char *t;

	two(s);
	t = text_of(ratio_table, s);
	assert_non_null(strstr(t, "| configuration | samples | lost | p50 [95% CI]"));
	assert_non_null(strstr(t, "| p50 ratio | p99 ratio |"));
	/* a: median of 10.0..10.9 us is 10.45 us; lost 1 of 101 */
	assert_non_null(strstr(t, "| config a | 100 | 1/101 | 10.4us ["));
	/* b against a: twice, and the interval around it */
	assert_non_null(strstr(t, "| config a | 2.00 ["));
	assert_non_null(strstr(t, "] | 2.00 ["));
	free(t);
	calvin_bench_series_free(&s[0]);
	calvin_bench_series_free(&s[1]);
}

static void test_table_reduction(void **state)
{
	struct calvin_bench_series s[2];
	char *t;

	two(s);
	t = text_of(reduction_table, s);
	assert_non_null(strstr(t, "| jitter reduction | stddev reduction |"));
	/* twice the spread: 100% more variable, a reduction of -100% */
	assert_non_null(strstr(t, "| config a | -100% ["));
	assert_non_null(strstr(t, "] | -100% ["));
	free(t);
	calvin_bench_series_free(&s[0]);
	calvin_bench_series_free(&s[1]);
}

static void test_table_empty(void **state)
{
	struct calvin_bench_series s[2];
	char *t;

	two(s);
	calvin_bench_series_free(&s[0]);
	t = text_of(ratio_table, s);
	/* no samples: a row that says so, no figure (0 is not one); no
	 * comparison against it */
	assert_non_null(strstr(t, "| config a | 0 | all | not measured: no samples | - |"));
	assert_null(strstr(t, "| config a | 0 | all | 0"));
	assert_non_null(strstr(t, "| config b | 100 | - |"));
	assert_non_null(strstr(t, "| - | - | - |\n"));
	free(t);
	/* and why, when the bench knows; the first reason stays */
	calvin_bench_series_why(&s[0], "cyclictest is not installed (%s)", "rt-tests");
	calvin_bench_series_why(&s[0], "a later reason");
	t = text_of(ratio_table, s);
	assert_non_null(strstr(t, "| config a | 0 | all | not measured: cyclictest is not "
				  "installed (rt-tests) | - |"));
	free(t);
	calvin_bench_series_free(&s[1]);
}

static void plot(FILE *f, void *arg)
{
	calvin_bench_gnuplot(f, "pinning", "RTT's", arg, 2);
}

static void test_gnuplot(void **state)
{
	struct calvin_bench_series s[2];
	char *t;

	two(s);
	t = text_of(plot, s);
	assert_non_null(strstr(t, "$cdf0 << EOD\n10.0000 0.010000\n"));
	assert_non_null(strstr(t, "$cdf1 << EOD\n"));
	/* the last point of a CDF is 1 */
	assert_non_null(strstr(t, "21.8000 1.000000\nEOD\n"));
	/* box rows: x, p1, p25, p50, p75, p99, max */
	assert_non_null(
	    strstr(t, "$box << EOD\n1 10.0000 10.2000 10.4500 10.7000 10.9000 10.9000\n"));
	assert_non_null(strstr(t, "set output 'pinning-cdf'.ext"));
	assert_non_null(strstr(t, "set output 'pinning-box'.ext"));
	assert_non_null(strstr(t, "title 'config a'"));
	/* a quote in a title cannot end gnuplot's string */
	assert_non_null(strstr(t, "set title 'RTT\"s: CDF'"));
	assert_non_null(strstr(t, "set xtics ('config a' 1, 'config b' 2)"));
	free(t);
	calvin_bench_series_free(&s[0]);
	calvin_bench_series_free(&s[1]);
}

static void header(FILE *f, void *arg)
{
	calvin_bench_md_header(f, arg);
}

static void test_header(void **state)
{
	struct calvin_bench_meta m = { .mode = "wakeup",
				       .chain = "t-vm",
				       .date = "2026-12-01",
				       .host = "2 CPUs",
				       .accel = "VMs under TCG",
				       .emulated = true,
				       .rounds = 2,
				       .settings = "5 s" };
	char *t = text_of(header, &m);

	assert_non_null(strstr(t, "# calvin bench wakeup: chain t-vm\n\n**Timings are emulated**"));
	assert_non_null(strstr(t, "- Machine: 2 CPUs\n"));
	assert_non_null(strstr(t, "- Nodes: VMs under TCG\n"));
	assert_non_null(strstr(t, "- Rounds: 2, the configurations alternating within each "
				  "round; 5 s\n"));
	assert_null(strstr(t, "Isolation"));
	free(t);
	m.emulated = false;
	t = text_of(header, &m);
	assert_null(strstr(t, "emulated"));
	free(t);
	assert_non_null(strstr(calvin_bench_context("pinning"), "Ocampo"));
	assert_non_null(strstr(calvin_bench_context("wakeup"), "104 us"));
	assert_string_equal(calvin_bench_context("nothing"), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_series_grow),	cmocka_unit_test(test_csv_runs),
		cmocka_unit_test(test_formats),		cmocka_unit_test(test_table_ratio),
		cmocka_unit_test(test_table_reduction), cmocka_unit_test(test_table_empty),
		cmocka_unit_test(test_gnuplot),		cmocka_unit_test(test_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
