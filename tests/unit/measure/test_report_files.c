// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the report as files: the CSV made from the probe's raw
 * records, the Markdown report and the gnuplot script, on synthetic runs
 * of the reference chain (probe_fixture.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "measure/measure.h"
#include "probe_fixture.h"

/* The raw record probe.c writes for a reply (times on the hops' clock). */
static void raw_line(FILE *f, const struct calvin_tlm *t, uint64_t tx, uint64_t rx)
{
	unsigned int i;

	fprintf(f, "%u %llu %llu %u", t->seq, (unsigned long long)tx, (unsigned long long)rx,
		t->nr_hops);
	for (i = 0; i < t->nr_hops; i++)
		fprintf(f, " %u %u %llu %llu", t->hops[i].vnf_id, t->hops[i].dir,
			(unsigned long long)t->hops[i].t_in, (unsigned long long)t->hops[i].t_out);
	fputc('\n', f);
}

/* Three replies of the full path, then one that took a shorter one. */
static FILE *run(struct fixture *fx)
{
	FILE *raw = tmpfile();
	struct calvin_tlm t;
	uint32_t s;

	assert_non_null(raw);
	for (s = 0; s < 3; s++) {
		assert_int_equal(feed(fx, s, 1000000 * (s + 1), 0), 0);
		make_reply(&t, s, 1000000 * (s + 1));
		raw_line(raw, &t, 1000000 * (s + 1), t.hops[3].t_out + 1000);
	}
	make_reply(&t, 3, 9000000);
	t.nr_hops = 2;
	assert_int_equal(calvin_probe_account(&fx->a, 9000000 + OFF, 9100000 + OFF, &t, 0), 0);
	raw_line(raw, &t, 9000000, 9100000);
	fx->r->sent = 4;
	calvin_probe_finish(&fx->a, OFF, 20);
	rewind(raw);
	return raw;
}

static char *csv_of(struct fixture *fx, FILE *raw, long *rows)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *csv = open_memstream(&buf, &len);

	assert_non_null(csv);
	*rows = calvin_raw_to_csv(raw, csv, &fx->spec, fx->r);
	fclose(csv);
	return buf;
}

static void test_csv(void **state)
{
	struct fixture *fx = *state;
	FILE *raw = run(fx);
	long rows;
	char *csv = csv_of(fx, raw, &rows);

	assert_int_equal(rows, 4);
	/* header, then: residences 100 ns; links 1000, 1000, 2000 (via the
	 * server), 1000, 1000; RTT 6400 */
	assert_non_null(strstr(csv, "seq,tx_ns,rx_ns,rtt_ns,hops,res_0,res_1,res_2,res_3,"
				    "link_0,link_1,link_2,link_3,link_4\n"));
	assert_non_null(strstr(csv, "\n0,1000000,1006400,6400,4,100,100,100,100,1000,1000,2000,"
				    "1000,1000\n"));
	/* the shorter path: no residence or link cells */
	assert_non_null(strstr(csv, "\n3,9000000,9100000,100000,2,,,,,,,,,\n"));
	free(csv);
	fclose(raw);
}

static void test_csv_link_of_other_clock(void **state)
{
	struct fixture *fx = *state;
	FILE *raw = run(fx);
	long rows;
	char *csv;

	/* as if fwd-u's records were on another clock: its links are empty */
	fx->r->pos[1].link_in_valid = false;
	csv = csv_of(fx, raw, &rows);
	assert_non_null(strstr(csv, "\n1,2000000,2006400,6400,4,100,100,100,100,1000,,2000,"));
	free(csv);
	fclose(raw);
}

static void test_csv_refuses_garbage(void **state)
{
	struct fixture *fx = *state;
	FILE *raw = tmpfile();
	long rows;
	char *csv;

	fputs("0 1 2 4 0 0 5\n", raw); /* four hops announced, one half given */
	rewind(raw);
	csv = csv_of(fx, raw, &rows);
	assert_int_equal(rows, -EINVAL);
	free(csv);
	fclose(raw);
}

static char *markdown(struct fixture *fx, int pictures)
{
	struct calvin_report_meta m = { .date = "2026-12-01T00:00:00Z",
					.host = "2 CPUs",
					.pictures = pictures };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	calvin_report_markdown(f, &fx->spec, fx->r, &m);
	fclose(f);
	return buf;
}

static void test_markdown(void **state)
{
	struct fixture *fx = *state;
	FILE *raw = run(fx);
	char *md = markdown(fx, 1);

	assert_non_null(strstr(md, "# Chain tactile-fwd\n"));
	assert_non_null(strstr(md, "- host: 2 CPUs\n"));
	assert_non_null(strstr(md, "**Verdict: within budget (p99 RTT 100us <= 350us)**"));
	assert_non_null(strstr(md, "| RTT | 6.4"));
	assert_non_null(strstr(md, "| fwd-u (user) -> | 100ns |"));
	assert_non_null(strstr(md, "| fwd-u -> server -> fwd-u | 2.00us |"));
	assert_non_null(strstr(md, "![RTT CDF with the budget](rtt-cdf.svg)"));
	assert_non_null(strstr(md, "![link times](links.svg)"));
	assert_null(strstr(md, "No pictures"));
	free(md);
	md = markdown(fx, 0);
	assert_null(strstr(md, "rtt-cdf.svg"));
	assert_non_null(strstr(md, "No pictures"));
	assert_null(strstr(md, "- placement"));
	free(md);
	/* over budget, and a VNF the plan degraded: said under the verdict */
	fx->spec.budget_ns = 1000;
	strcpy(fx->r->degraded[0].vnf, "fwd-u");
	fx->r->degraded[0].asked = CALVIN_GRANT_ISOLATED;
	fx->r->degraded[0].granted = CALVIN_GRANT_SHARED_CORE;
	fx->r->nr_degraded = 1;
	md = markdown(fx, 0);
	assert_non_null(strstr(md, "**\n\n- largest share: link fwd-u -> server -> fwd-u: p99 "
				   "2.00us, "));
	assert_non_null(strstr(md, "\n- placement: fwd-u asked isolated, got shared-core\n"));
	free(md);
	fclose(raw);
}

static void test_gnuplot(void **state)
{
	struct fixture *fx = *state;
	FILE *raw = run(fx), *f;
	char *gp = NULL;
	size_t len = 0;

	f = open_memstream(&gp, &len);
	calvin_report_gnuplot(f, &fx->spec, fx->r);
	fclose(f);
	/* the budget line at 350 us, the CDF from samples.csv */
	assert_non_null(strstr(gp, "set arrow 1 from 350, graph 0 to 350, graph 1"));
	assert_non_null(strstr(gp, "plot 'samples.csv' skip 1 using ($4/1000.):(1) smooth cnorm"));
	/* one box per hop (4) and per link (5): x p1 p25 p50 p75 p99 max, in us */
	assert_non_null(strstr(gp, "$residence << EOD\n1 0.1 0.1 0.1 0.1 0.1 0.1\n2 "));
	assert_non_null(strstr(gp, "\n4 0.1 0.1 0.1 0.1 0.1 0.1\nEOD\n"));
	assert_non_null(strstr(gp, "$links << EOD\n1 1 1 1 1 1 1\n2 1 1 1 1 1 1\n3 2 2 2 2 2 2\n"));
	assert_non_null(strstr(gp, "'fwd-u -> server -> fwd-u' 3"));
	assert_non_null(strstr(gp, "set output 'links'.ext"));
	free(gp);

	/* no link can be measured: no links picture */
	for (unsigned int i = 0; i < fx->r->nr_pos; i++)
		fx->r->pos[i].link_in_valid = false;
	fx->r->link_out_valid = false;
	f = open_memstream(&gp, &len);
	calvin_report_gnuplot(f, &fx->spec, fx->r);
	fclose(f);
	assert_null(strstr(gp, "links"));
	assert_non_null(strstr(gp, "set output 'residence'.ext"));
	free(gp);
	fclose(raw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_csv, setup, teardown),
		cmocka_unit_test_setup_teardown(test_csv_link_of_other_clock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_csv_refuses_garbage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_markdown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gnuplot, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
