// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of what `calvin bench` reads from the tools it runs:
 * cyclictest's histogram (bench/lib/bench_lib.h), sockperf's full log and iperf3's
 * JSON (bench/lib/bench_lib.h), on output as the tools print it. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench/lib/bench_lib.h"

/* cyclictest -q -h 20 -t 2, shortened: two threads, 1 overflow on the second */
static const char ct_out[] = "# /dev/cpu_dma_latency set to 0us\n"
			     "# Histogram\n"
			     "000000 000000\t000000\n"
			     "000003 000002\t000000\n"
			     "000004 000001\t000003\n"
			     "000017 000000\t000001\n"
			     "# Total: 000000003 000000004\n"
			     "# Min Latencies: 00003 00004\n"
			     "# Avg Latencies: 00003 00007\n"
			     "# Max Latencies: 00004 00031\n"
			     "# Histogram Overflows: 00000 00001\n"
			     "# Histogram Overflow at cycle number:\n"
			     "# Thread 0:\n"
			     "# Thread 1: 00012\n";

static void test_cyclictest(void **state)
{
	struct calvin_cyclictest ct;
	struct calvin_bench_series s;

	assert_int_equal(calvin_cyclictest_parse(ct_out, strlen(ct_out), &ct), 0);
	assert_int_equal(ct.nr_threads, 2);
	assert_int_equal(ct.total, 7);
	assert_true(ct.nr_buckets >= 18);
	assert_int_equal(ct.count[3 * 2 + 0], 2);
	assert_int_equal(ct.count[4 * 2 + 1], 3);
	assert_int_equal(ct.max_us[1], 31);
	assert_int_equal(ct.overflows[1], 1);
	calvin_bench_series_init(&s, "c", "c", "wakeup");
	assert_int_equal(calvin_cyclictest_samples(&ct, &s, 2), 0);
	/* 3 + 4 cycles counted, and the overflow at its thread's maximum */
	assert_int_equal(s.n, 8);
	assert_false(s.ordered);
	assert_true(s.v[0] == 3000 && s.v[2] == 4000);
	assert_true(s.v[7] == 31000);
	assert_int_equal(s.round[7], 2);
	calvin_bench_series_free(&s);
	calvin_cyclictest_free(&ct);
}

static void test_cyclictest_bad(void **state)
{
	struct calvin_cyclictest ct;
	static const char ragged[] = "000001 000001 000002\n000002 000001\n";

	/* no histogram at all (cyclictest failed) */
	assert_int_equal(calvin_cyclictest_parse("# Histogram\n", 12, &ct), -EINVAL);
	/* a line with another number of threads */
	assert_int_equal(calvin_cyclictest_parse(ragged, strlen(ragged), &ct), -EINVAL);
	assert_null(ct.count);
}

static const char sp_log[] = "sockperf: ---> <MIN> observation =   10.215\n"
			     "------------------------------\n"
			     "packet, txTime(sec), rxTime(sec), rtt(usec)\n"
			     "0, 2.411147867, 2.414137255, 2989.388\n"
			     "1, 2.414137746, 2.414149654, 11.908\n"
			     "------------------------------\n";

static void test_sockperf(void **state)
{
	struct calvin_bench_series s;
	char bad[sizeof(sp_log)];

	calvin_bench_series_init(&s, "c", "c", "sockperf-rtt");
	assert_int_equal(calvin_sockperf_log(sp_log, strlen(sp_log), &s, 1), 2);
	assert_int_equal(s.n, 2);
	assert_true(s.v[0] > 2989387 && s.v[0] < 2989389);
	assert_true(s.v[1] > 11907 && s.v[1] < 11909);
	/* no header: not a full log */
	assert_int_equal(calvin_sockperf_log("0, 1, 2, 3\n", 11, &s, 1), -EINVAL);
	memcpy(bad, sp_log, sizeof(sp_log));
	*strstr(bad, "11.908") = 'x';
	assert_int_equal(calvin_sockperf_log(bad, strlen(bad), &s, 1), -EINVAL);
	calvin_bench_series_free(&s);
}

static void test_iperf3(void **state)
{
	static const char ok[] = "{\"end\": {\"sum_sent\": {\"bits_per_second\": 2.0e9},\n"
				 "  \"sum_received\": {\"seconds\": 2.0, \"bits_per_second\": "
				 "1223456789.5}}}";
	static const char err[] = "{\"start\": {}, \"error\": \"unable to connect to server: "
				  "Connection refused\"}";
	static const char esc[] = "{\"error\": \"refused\\u001b[2J\"}";
	static const char two[] = "{\"error\": \"x\"} {\"end\": {\"sum_received\": "
				  "{\"bits_per_second\": 1}}}";
	char why[64];
	double bps = 0;

	assert_int_equal(calvin_iperf3_goodput(ok, strlen(ok), &bps, why, sizeof(why)), 0);
	assert_true(bps > 1223456789 && bps < 1223456790);
	assert_int_equal(calvin_iperf3_goodput(err, strlen(err), &bps, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "unable to connect to server: Connection refused");
	/* its words reach a terminal: escaped */
	assert_int_equal(calvin_iperf3_goodput(esc, strlen(esc), &bps, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "refused\\x1b[2J");
	/* not JSON, or two documents: refused, not scanned */
	assert_int_equal(calvin_iperf3_goodput(two, strlen(two), &bps, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "iperf3's output: not JSON"));
	assert_int_equal(calvin_iperf3_goodput("\"sum_received\" \"bits_per_second\": 5", 36, &bps,
					       why, sizeof(why)),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cyclictest),
		cmocka_unit_test(test_cyclictest_bad),
		cmocka_unit_test(test_sockperf),
		cmocka_unit_test(test_iperf3),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
