// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of `calvin bench throughput`'s pure parts: the generator's
 * frames and pacing (bench/lib/bench_lib.h) and the report of no-drop rates, trials
 * and TCP goodput (bench/lib/bench_lib.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <cmocka.h>

#include "bench/lib/bench_lib.h"

static void test_frame(void **state)
{
	struct calvin_gen_flow fl = { .dst_mac = { 2, 0, 0, 0, 0, 1 },
				      .src_mac = { 2, 0, 0, 0, 0, 2 },
				      .sport = 4000,
				      .dport = 9 };
	uint8_t f[CALVIN_GEN_MAX_FRAME];
	uint32_t sum = 0;
	int i;

	inet_pton(AF_INET, "10.70.0.1", &fl.src);
	inet_pton(AF_INET, "10.70.0.2", &fl.dst);
	assert_int_equal(calvin_gen_frame(f, sizeof(f), &fl, 64), 60);
	assert_memory_equal(f, fl.dst_mac, 6);
	assert_int_equal(f[12] << 8 | f[13], 0x0800);
	assert_int_equal(f[14], 0x45);
	assert_int_equal(f[16] << 8 | f[17], 46);   /* IP total length */
	assert_int_equal(f[23], 17);		    /* UDP */
	assert_int_equal(f[34] << 8 | f[35], 4000); /* source port */
	assert_int_equal(f[36] << 8 | f[37], 9);    /* destination port */
	assert_int_equal(f[38] << 8 | f[39], 26);   /* UDP length */
	assert_int_equal(f[40] << 8 | f[41], 0);    /* no UDP checksum */
	/* the IP header sums to 0xffff with its checksum */
	for (i = 14; i < 34; i += 2)
		sum += (uint32_t)(f[i] << 8 | f[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	assert_int_equal(sum, 0xffff);
	assert_int_equal(calvin_gen_frame(f, sizeof(f), &fl, 1400), 1396);
	assert_int_equal(f[16] << 8 | f[17], 1382);
	assert_int_equal(calvin_gen_frame(f, sizeof(f), &fl, 63), -EINVAL);
	assert_int_equal(calvin_gen_frame(f, sizeof(f), &fl, 1519), -EINVAL);
	assert_int_equal(calvin_gen_frame(f, 59, &fl, 64), -EINVAL);
}

static void test_pacing(void **state)
{
	unsigned int batch;
	double gap;

	/* 1 Mpps: batches of 50 us, 50 frames */
	calvin_gen_pacing(1e6, 64, &batch, &gap);
	assert_int_equal(batch, 50);
	assert_true(gap > 49999 && gap < 50001);
	/* slow: one frame at a time */
	calvin_gen_pacing(1000, 64, &batch, &gap);
	assert_int_equal(batch, 1);
	assert_true(gap > 999999 && gap < 1000001);
	/* fast: no bigger than allowed, the gap keeps the rate */
	calvin_gen_pacing(1e7, 64, &batch, &gap);
	assert_int_equal(batch, 64);
	assert_true(gap > 6399 && gap < 6401);
	calvin_gen_pacing(0, 32, &batch, &gap);
	assert_int_equal(batch, 32);
	assert_true(gap == 0);
	assert_true(calvin_gen_bps(1000, 64) == 512000);
}

static char *text(void (*fn)(FILE *, void *), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, arg);
	fclose(f);
	return buf;
}

static struct calvin_bench_ndr rows[3];

static void setup_rows(void)
{
	memset(rows, 0, sizeof(rows));
	strcpy(rows[0].config, "calvin-b1-64");
	strcpy(rows[0].label, "calvin, burst 1");
	strcpy(rows[0].stack, "calvin");
	rows[0].burst = 1;
	strcpy(rows[1].config, "calvin-b32-64");
	strcpy(rows[1].label, "calvin, burst 32");
	strcpy(rows[1].stack, "calvin");
	rows[1].burst = 32;
	strcpy(rows[2].config, "linux-64");
	strcpy(rows[2].label, "conventional stack");
	strcpy(rows[2].stack, "linux");
	for (int i = 0; i < 3; i++) {
		rows[i].frame_size = 64;
		rows[i].nr = 3;
		for (int r = 0; r < 3; r++)
			rows[i].ceiling[r] = 300000;
	}
	rows[0].ndr[0] = 50000, rows[0].ndr[1] = 40000, rows[0].ndr[2] = 60000;
	rows[1].ndr[0] = 300000, rows[1].ndr[1] = 300000, rows[1].ndr[2] = 100000;
	rows[1].limited[0] = rows[1].limited[1] = true;
	rows[2].ndr[0] = 200000, rows[2].ndr[1] = 150000, rows[2].ndr[2] = 250000;
}

static void table(FILE *f, void *arg)
{
	calvin_bench_ndr_table(f, rows, 3);
	calvin_bench_ndr_verdict(f, rows, 3);
}

static void test_ndr_report(void **state)
{
	char *t;

	setup_rows();
	assert_true(calvin_bench_ndr_median(&rows[0]) == 50000);
	t = text(table, NULL);
	/* median, Mbit/s of 64-byte frames, each round (+: the generator's), ratio */
	assert_non_null(strstr(t, "| calvin, burst 1 | 64 | 50000 | 25.6 | 50000, 40000, 60000 | "
				  "300000 | 0.25x |"));
	assert_non_null(strstr(t, "| calvin, burst 32 | 64 | 300000 | 153.6 | 300000+, 300000+, "
				  "100000 | 300000 | 1.50x |"));
	assert_non_null(strstr(t, "| conventional stack | 64 | 200000 | 102.4 |"));
	assert_non_null(strstr(t, "- 64-byte frames: calvin in throughput mode (burst 32) carries "
				  "300000 frames/s, the conventional stack 200000: **yes, at least "
				  "as much**\n"));
	free(t);
	rows[1].ndr[0] = rows[1].ndr[1] = 100000;
	t = text(table, NULL);
	assert_non_null(strstr(t, "**no, less**\n"));
	free(t);
	/* the conventional stack measured in no round: no 0, no ratio, no verdict */
	rows[2].nr = 0;
	snprintf(rows[2].why, sizeof(rows[2].why), "calvin up failed");
	t = text(table, NULL);
	assert_non_null(
	    strstr(t, "| conventional stack | 64 | not measured: calvin up failed | - |"));
	assert_non_null(strstr(t, "| 300000 | - |\n"));
	assert_non_null(strstr(t, "- 64-byte frames: not measured: calvin up failed\n"));
	free(t);
}

static void csvs(FILE *f, void *arg)
{
	struct calvin_bench_trial tr[2] = {
		{ .row = 2,
		  .round = 1,
		  .rate = 0,
		  .offered = 218877,
		  .sent = 1000,
		  .received = 990 },
		{ .row = 0,
		  .round = 2,
		  .rate = 5000,
		  .offered = 4999,
		  .sent = 5000,
		  .received = 5000 },
	};
	struct calvin_bench_tcp tcp[3] = {
		{ .label = "calvin", .nr = 2, .bps = { 1e9, 2e9 } },
		{ .label = "half", .nr = 1, .bps = { 3e9 }, .failed = 1, .why = "iperf3 failed" },
		{ .label = "none", .why = "iperf3 is not installed" },
	};

	calvin_bench_trials_csv(f, rows, tr, 2);
	calvin_bench_tcp_csv(f, tcp, 1);
	calvin_bench_tcp_table(f, tcp, 3);
	calvin_bench_ndr_gnuplot(f, rows, 3, tr, 2);
}

static void test_csvs(void **state)
{
	char *t;

	setup_rows();
	t = text(csvs, NULL);
	assert_non_null(strstr(t,
			       "config,frame_size,round,rate_pps,offered_pps,sent,received,loss\n"
			       "linux-64,64,1,0,218877,1000,990,0.01000000\n"
			       "calvin-b1-64,64,2,5000,4999,5000,5000,0.00000000\n"));
	assert_non_null(strstr(t, "config,round,bits_per_second\ncalvin,1,1000000000\n"
				  "calvin,2,2000000000\n"));
	assert_non_null(strstr(t, "| calvin | 1.50 | 1.00, 2.00 |\n"));
	/* a round that failed is no 0.00; a row without any says why */
	assert_non_null(strstr(t, "| half | 3.00 | 3.00; 1 not measured: iperf3 failed |\n"));
	assert_non_null(strstr(t, "| none | not measured: iperf3 is not installed | - |\n"));
	assert_non_null(strstr(t, "$ndr << EOD\n1 25.600\n"));
	assert_non_null(strstr(t, "$trials2 << EOD\n218877 0.01000010\n"));
	assert_non_null(strstr(t, "set output 'throughput-loss'.ext"));
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame),
		cmocka_unit_test(test_pacing),
		cmocka_unit_test(test_ndr_report),
		cmocka_unit_test(test_csvs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
