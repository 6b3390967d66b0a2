// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the clock offsets between domains (clock.c) and the links
 * they make measurable, on synthetic runs of the reference chain in VMs
 * whose clocks have known offsets and whose links known, asymmetric
 * delays: the estimate lies within its bound, the bound shrinks as faster
 * probes come, and where nothing can be estimated the report says why. */
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

/* The true offsets of the clock domains against the host's: fwd-k's VM
 * booted 5 s after the host, fwd-u's 3 s before it (a monotonic clock
 * counts from its boot). A domain's reading of true time T is T - boot. */
static const int64_t boot[3] = { 0, 5000000123LL, -3000000077LL };

/* True delays of each link of the path probe -> fwd-k -> fwd-u -> server
 * -> fwd-u -> fwd-k -> probe: links 0..4. Toward the server is faster
 * than back (asymmetric), and `extra` is added to every link (queueing). */
struct delays {
	uint64_t link[5];
};

static const struct delays base_delays = { { 1000, 1500, 2000, 700, 3000 } };

/* where vm_reply() writes the probe's raw records, when set */
static FILE *raw_out;

static uint64_t on(unsigned int clock, uint64_t t)
{
	return (uint64_t)((int64_t)t - boot[clock]);
}

/* One reply through VMs: fwd-k reads clock 1, fwd-u clock 2, the probe
 * the host's. skew_ppm makes fwd-k's clock run fast against the host. */
static void vm_reply(struct fixture *fx, uint32_t seq, uint64_t tx, const struct delays *d,
		     uint64_t extra, double skew_ppm)
{
	static const uint16_t id[4] = { 0, 1, 1, 0 };
	static const uint8_t dir[4] = { CALVIN_DIR_FWD, CALVIN_DIR_FWD, CALVIN_DIR_REV,
					CALVIN_DIR_REV };
	struct calvin_tlm t;
	uint64_t now = tx;
	int64_t drift;
	int i;

	memset(&t, 0, sizeof(t));
	t.version = CALVIN_TLM_VERSION;
	t.max_hops = t.nr_hops = 4;
	t.seq = seq;
	for (i = 0; i < 4; i++) {
		unsigned int c = id[i] ? 2 : 1;

		drift = c == 1 ? (int64_t)((double)now * skew_ppm / 1e6) : 0;
		now += d->link[i] + extra;
		t.hops[i].vnf_id = id[i];
		t.hops[i].space = id[i] ? CALVIN_SPACE_USER : CALVIN_SPACE_KERNEL;
		t.hops[i].dir = dir[i];
		t.hops[i].clock = (uint8_t)c;
		t.hops[i].t_in = on(c, now) + (uint64_t)drift;
		now += 100;
		t.hops[i].t_out = on(c, now) + (uint64_t)drift;
	}
	now += d->link[4] + extra;
	assert_int_equal(calvin_probe_account(&fx->a, tx + OFF, now + OFF, &t, 0), 0);
	if (!raw_out)
		return;
	fprintf(raw_out, "%u %llu %llu 4", seq, (unsigned long long)tx, (unsigned long long)now);
	for (i = 0; i < 4; i++)
		fprintf(raw_out, " %u %u %llu %llu", id[i], dir[i],
			(unsigned long long)t.hops[i].t_in, (unsigned long long)t.hops[i].t_out);
	fputc('\n', raw_out);
}

static void finish(struct fixture *fx, uint64_t sent)
{
	fx->r->sent = sent;
	calvin_probe_finish(&fx->a, OFF, 20);
}

static char *report(struct fixture *fx, int kind)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	if (kind == 1)
		assert_int_equal(calvin_report_json(f, &fx->spec, fx->r), 0);
	else if (kind == 2)
		calvin_report_clocks_csv(f, &fx->spec, fx->r);
	else
		calvin_report_text(f, &fx->spec, fx->r);
	fclose(f);
	return text;
}

static uint64_t absdiff(int64_t a, int64_t b)
{
	return a > b ? (uint64_t)(a - b) : (uint64_t)(b - a);
}

/* Known offsets, asymmetric links: each pair's offset is within its
 * bound of the truth, the bound is half the smallest round trip, and each
 * link's estimated time within the bound of its true delay. */
static void test_clock_known_offset(void **state)
{
	struct fixture *fx = *state;
	struct calvin_probe_result *r = fx->r;
	const struct calvin_link_clock *c;
	uint32_t s;
	unsigned int k;

	for (s = 0; s < 10; s++)
		vm_reply(fx, s, 1000000 * (s + 1), &base_delays, 50 * (s % 5), 0);
	/* before the end, a link across domains holds raw values: not shown */
	assert_null(calvin_link_estimated(r, 0));
	assert_string_equal(calvin_link_invalid(r, 0), "different clock domains, not estimated "
						       "yet: the run has not finished");
	finish(fx, 10);

	/* probe -> fwd-k and back: host and fwd-k's VM */
	c = calvin_link_estimated(r, 0);
	assert_non_null(c);
	assert_int_equal(c->from, 0);
	assert_int_equal(c->to, 1);
	assert_int_equal(c->back, 4);
	assert_int_equal(c->samples, 10);
	assert_int_equal(c->rtt_min, 1000 + 3000);
	assert_int_equal(c->bound, 2000);
	assert_string_equal(c->source, CALVIN_CLOCK_SRC_INBAND);
	/* the truth is clock 1 - host = -boot[1]; asymmetry (1000 vs 3000)
	 * makes the estimate 1000 ns off, within the bound */
	assert_int_equal(absdiff(c->offset, -boot[1]), 1000);
	assert_true(absdiff(c->offset, -boot[1]) <= c->bound);
	/* fwd-k -> fwd-u and back: two VMs */
	c = calvin_link_estimated(r, 1);
	assert_non_null(c);
	assert_int_equal(c->back, 3);
	assert_int_equal(c->rtt_min, 1500 + 700);
	assert_true(absdiff(c->offset, boot[1] - boot[2]) <= c->bound);
	assert_int_equal(calvin_link_estimated(r, 3)->offset, -c->offset);
	/* the server's turn-around is within fwd-u's VM: exact */
	assert_null(calvin_link_estimated(r, 2));
	assert_null(calvin_link_invalid(r, 2));
	assert_int_equal(r->pos[2].link_in.min, 2000);
	/* each estimated link's times: within the bound of the true delay */
	for (k = 0; k <= 4; k++) {
		const struct calvin_hist *h = k == 4 ? &r->link_out : &r->pos[k].link_in;

		assert_null(calvin_link_invalid(r, k));
		assert_int_equal(h->count, 10);
		if (k == 2)
			continue;
		c = calvin_link_estimated(r, k);
		assert_true(absdiff((int64_t)h->min, (int64_t)base_delays.link[k]) <= c->bound);
		assert_true(absdiff((int64_t)h->max, (int64_t)base_delays.link[k] + 200) <=
			    c->bound);
	}
}

/* A run of slow probes, then the same with faster ones among them: the
 * minimum-delay filter takes the fastest, and the bound shrinks to half
 * its round trip, the truth still inside. */
static void test_clock_bound_shrinks(void **state)
{
	struct fixture *fx = *state;
	struct calvin_probe_result *slow;
	const struct calvin_link_clock *c;
	struct calvin_probe_acct a;
	uint64_t bound_slow;
	uint32_t s;

	slow = calvin_probe_result_new();
	assert_non_null(slow);
	assert_int_equal(calvin_probe_acct_init(&a, slow, 10, OFF), 0);
	fx->a.r = slow;
	for (s = 0; s < 5; s++)
		vm_reply(fx, s, 1000000 * (s + 1), &base_delays, 40000 + 1000 * s, 0);
	slow->sent = 5;
	calvin_probe_finish(&fx->a, OFF, 20);
	c = calvin_link_estimated(slow, 1);
	assert_non_null(c);
	bound_slow = c->bound;
	assert_int_equal(bound_slow, (1500 + 700 + 2 * 40000) / 2);
	assert_true(absdiff(c->offset, boot[1] - boot[2]) <= bound_slow);
	calvin_probe_acct_free(&a);
	calvin_probe_result_free(slow);

	/* the fixture's own result: the same slow probes, then fast ones */
	assert_int_equal(calvin_probe_acct_init(&a, fx->r, 10, OFF), 0);
	calvin_probe_acct_free(&fx->a);
	fx->a = a;
	for (s = 0; s < 5; s++)
		vm_reply(fx, s, 1000000 * (s + 1), &base_delays, 40000 + 1000 * s, 0);
	for (s = 5; s < 10; s++)
		vm_reply(fx, s, 1000000 * (s + 1), &base_delays, 100 * (s - 5), 0);
	finish(fx, 10);
	c = calvin_link_estimated(fx->r, 1);
	assert_int_equal(c->bound, (1500 + 700) / 2);
	assert_true(c->bound < bound_slow);
	assert_true(absdiff(c->offset, boot[1] - boot[2]) <= c->bound);
	assert_int_equal(c->moved, 0);
	assert_int_equal(c->inconsistent, 0);
}

/* The first probe waited 10 ms on its way back: later probes move the
 * link's values close to the link again, so its percentiles stay as fine
 * as any link's (within 16 ns here, not 32 us). */
static void test_clock_slow_first(void **state)
{
	struct fixture *fx = *state;
	struct delays slow = base_delays;
	const struct calvin_hist *h = &fx->r->pos[0].link_in;
	uint32_t s;

	slow.link[4] = 10000000;
	vm_reply(fx, 0, 1000000, &slow, 0, 0);
	for (s = 1; s < 10; s++)
		vm_reply(fx, s, 20000000 + 1000000 * s, &base_delays, 37 * s, 0);
	finish(fx, 10);
	/* the fastest probe is the second: round trip 4074 */
	assert_int_equal(calvin_link_estimated(fx->r, 0)->bound, 2037);
	assert_int_equal(h->count, 10);
	/* probe -> fwd-k: 1000 + 37 s, estimated 1000 more: 2000 .. 2333 */
	assert_int_equal(h->min, 2000);
	assert_int_equal(h->max, 2333);
	assert_true(absdiff((int64_t)calvin_hist_percentile(h, 50), 2148) <= 16);
	assert_true(absdiff((int64_t)calvin_hist_percentile(h, 90), 2296) <= 16);
}

/* fwd-k's clock runs 1000 ppm fast: probes disagree on the offset, the
 * estimate says by how much the clocks moved and its bound takes it in;
 * the offset in the middle of the run is within it. */
static void test_clock_moved(void **state)
{
	struct fixture *fx = *state;
	const struct calvin_link_clock *c;
	int64_t mid;
	uint32_t s;
	char *text;

	for (s = 0; s < 10; s++)
		vm_reply(fx, s, 1000000 * (s + 1), &base_delays, 0, 1000);
	finish(fx, 10);
	c = calvin_link_estimated(fx->r, 0);
	assert_non_null(c);
	/* 1000 ppm over the 9 ms between the first and the last probe: 9 us,
	 * less what the links' own delays cover */
	assert_true(c->moved > 4000 && c->moved < 9000);
	assert_int_equal(c->bound, (c->rtt_min + 1) / 2 + c->moved);
	assert_true(c->rtt_min > 3990 && c->rtt_min < 4010);
	mid = -boot[1] + 5500;
	assert_true(absdiff(c->offset, mid) <= c->bound);
	text = report(fx, 0);
	assert_non_null(strstr(text, "apart during the run"));
	free(text);
}

/* Probes that went toward the server only (no hop on the way back): no
 * link back, so nothing to estimate, and the report says so per link. */
static void test_clock_one_direction(void **state)
{
	struct fixture *fx = *state;
	struct calvin_tlm t;
	uint32_t s;
	char *text;
	int i;

	for (s = 0; s < 5; s++) {
		memset(&t, 0, sizeof(t));
		t.version = CALVIN_TLM_VERSION;
		t.max_hops = t.nr_hops = 2;
		t.seq = s;
		for (i = 0; i < 2; i++) {
			t.hops[i].vnf_id = (uint8_t)i;
			t.hops[i].space = (uint8_t)i;
			t.hops[i].clock = (uint8_t)(i + 1);
			t.hops[i].t_in =
			    on((unsigned int)i + 1, 1000000 * (s + 1) + 1000 * (i + 1));
			t.hops[i].t_out = t.hops[i].t_in + 100;
		}
		calvin_probe_account(&fx->a, 1000000 * (s + 1) + OFF,
				     1000000 * (s + 1) + 9000 + OFF, &t, 0);
	}
	finish(fx, 5);
	for (i = 0; i <= 2; i++) {
		assert_null(calvin_link_estimated(fx->r, (unsigned int)i));
		assert_string_equal(calvin_link_invalid(fx->r, (unsigned int)i),
				    "different clock domains, not estimated: no link back between "
				    "them (one direction only)");
	}
	text = report(fx, 0);
	assert_non_null(strstr(text, "probe -> fwd-k              n/a (different clock domains, "
				     "not estimated: no link back"));
	assert_null(strstr(text, "clock offsets"));
	free(text);
	text = report(fx, 2);
	assert_non_null(strstr(text, "\n0,,host,VM fwd-k,0,,,,,0,,0,\"different clock domains, "
				     "not estimated: no link back"));
	free(text);
}

/* No reply at all: no path, no link, no offset, and no line claims one. */
static void test_clock_no_samples(void **state)
{
	struct fixture *fx = *state;
	char *text;

	finish(fx, 10);
	assert_null(calvin_link_estimated(fx->r, 0));
	text = report(fx, 0);
	assert_null(strstr(text, "clock offsets"));
	assert_non_null(strstr(text, "hops     none recorded"));
	free(text);
	text = report(fx, 1);
	assert_non_null(strstr(text, "\"clocks\": [\n  ],"));
	free(text);
}

/* fwd-k's clock runs at twice the host's rate while the probe is there
 * (a clock stepped forward): its t3 - t2 outlasts the host's t4 - t1, no probe gives a round trip
 * of 0 or more, so no estimate, and the report says why. */
static void test_clock_no_round_trip(void **state)
{
	struct fixture *fx = *state;
	uint32_t s;

	for (s = 0; s < 3; s++)
		vm_reply(fx, s, 1000000 * (s + 1), &base_delays, 0, 1000000);
	finish(fx, 3);
	assert_null(calvin_link_estimated(fx->r, 0));
	assert_string_equal(calvin_link_invalid(fx->r, 0),
			    "different clock domains, not estimated: no probe came back with both "
			    "ways of this link");
	assert_int_equal(fx->r->clk[0].samples, 0);
	assert_int_equal(fx->r->clk[0].inconsistent, 3);
	assert_int_equal(fx->r->pos[0].link_in.count, 0);
}

/* A better source (ptp_kvm's, say) replaces the in-band offset where its
 * bound is smaller, and only there. */
static void test_clock_better_source(void **state)
{
	struct fixture *fx = *state;
	struct calvin_clock_ref good = { 0, 1, -boot[1] + 30, 40, "ptp_kvm" };
	struct calvin_clock_ref poor = { 2, 1, boot[2] - boot[1], 1000000, "chrony" };
	const struct calvin_link_clock *c;
	uint32_t s;
	char *text;

	/* fwd-k's VM to the host, and the host to fwd-u's VM, end to end */
	struct calvin_clock_ref k_h = { 1, 0, boot[1], 30, "ptp_kvm" },
				h_u = { 0, 2, -boot[2], 50, "ptp_kvm" }, k_u;

	assert_int_equal(calvin_clock_ref_chain(&k_h, &h_u, "ptp_kvm via host", &k_u), 0);
	assert_int_equal(k_u.from, 1);
	assert_int_equal(k_u.to, 2);
	assert_int_equal(k_u.offset_ns, boot[1] - boot[2]);
	assert_int_equal(k_u.bound_ns, 80);
	assert_int_equal(calvin_clock_ref_chain(&h_u, &k_h, "x", &k_u), -EINVAL);
	assert_int_equal(calvin_clock_ref_add(fx->r, &good), 0);
	assert_int_equal(calvin_clock_ref_add(fx->r, &poor), 0);
	assert_int_equal(calvin_clock_ref_add(fx->r, &good), -EEXIST);
	good.to = 0;
	assert_int_equal(calvin_clock_ref_add(fx->r, &good), -EINVAL);
	for (s = 0; s < 10; s++)
		vm_reply(fx, s, 1000000 * (s + 1), &base_delays, 0, 0);
	finish(fx, 10);
	c = calvin_link_estimated(fx->r, 0);
	assert_string_equal(c->source, "ptp_kvm");
	assert_int_equal(c->bound, 40);
	assert_int_equal(calvin_link_estimated(fx->r, 4)->offset, boot[1] - 30);
	assert_int_equal(fx->r->pos[0].link_in.min, 1000 - 30);
	assert_int_equal(fx->r->link_out.min, 3000 + 30);
	c = calvin_link_estimated(fx->r, 1);
	assert_string_equal(c->source, CALVIN_CLOCK_SRC_INBAND);
	text = report(fx, 0);
	assert_non_null(strstr(text, "VM fwd-k - host -5.000000093s ±40ns (ptp_kvm)"));
	free(text);
}

/* The report: estimated links with their bound in text, JSON and the
 * clocks CSV. */
static void test_clock_report(void **state)
{
	struct fixture *fx = *state;
	uint32_t s;
	char *text;

	for (s = 0; s < 10; s++)
		vm_reply(fx, s, 1000000 * (s + 1), &base_delays, 0, 0);
	finish(fx, 10);
	text = report(fx, 0);
	/* the midpoint of the round trip: 2 us where the truth is 1 us,
	 * which the bound of 2 us covers */
	assert_non_null(strstr(text,
			       "  probe -> fwd-k                2.00us    2.00us    2.00us    "
			       "2.00us  ±2.00us estimated\n"));
	assert_non_null(strstr(text,
			       "  fwd-u -> server -> fwd-u      2.00us    2.00us    2.00us    "
			       "2.00us\n"));
	assert_non_null(strstr(text, "clock offsets (links across them are estimated, within the "
				     "bound)\n  VM fwd-k - host -5.000001123s ±2.00us (in band: "
				     "smallest round trip 4.00us of 10 probes)\n"));
	assert_non_null(strstr(text, "  VM fwd-u - VM fwd-k +8.000000600s ±1.10us (in band"));
	free(text);
	/* over budget: the largest share, a link across domains, says so */
	fx->spec.budget_ns = 1000;
	text = report(fx, 0);
	assert_non_null(strstr(text, "largest share: link probe -> fwd-k: p99 2.00us (estimated "
				     "±2.00us), 23% of the p99 RTT 8.60us\n"));
	free(text);
	fx->spec.budget_ns = 350000;
	text = report(fx, 1);
	assert_non_null(strstr(text, "\"estimated\": true,"));
	assert_non_null(strstr(text, "\"bound_ns\": 2000"));
	assert_non_null(strstr(text, "\"offset_ns\": -5000001123,"));
	assert_non_null(strstr(text, "\"from\": \"host\""));
	free(text);
	text = report(fx, 2);
	assert_non_null(strstr(text,
			       "link,link_back,from,to,estimated,source,offset_ns,bound_ns,"
			       "rtt_min_ns,samples,moved_ns,inconsistent,reason\n"
			       "0,4,host,VM fwd-k,1,in band,-5000001123,2000,4000,10,0,0,\"\"\n"
			       "1,3,VM fwd-k,VM fwd-u,1,in band,8000000600"));
	assert_non_null(strstr(text, "\n4,0,VM fwd-k,host,1,in band,5000001123,2000,4000,10,0,0,"));
	free(text);
}

/* The report as files: samples.csv has each estimated link's time (raw
 * less the offset, here 2 us where the truth is 1 us: within the bound);
 * the Markdown tables and the pictures mark them estimated with the
 * bound, and list the offsets. */
static void test_clock_files(void **state)
{
	struct calvin_report_meta meta = { .pictures = 1 };
	struct fixture *fx = *state;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	uint32_t s;

	raw_out = tmpfile();
	assert_non_null(raw_out);
	for (s = 0; s < 3; s++)
		vm_reply(fx, s, 1000000 * (s + 1), &base_delays, 0, 0);
	finish(fx, 3);
	rewind(raw_out);
	f = open_memstream(&text, &len);
	assert_int_equal(calvin_raw_to_csv(raw_out, f, &fx->spec, fx->r), 3);
	fclose(f);
	/* res_0..3, then link_0..4: 2000, 1100, 2000 (exact), 1100, 2000 */
	assert_non_null(strstr(text, "\n0,1000000,1008600,8600,4,100,100,100,100,2000,1100,2000,"
				     "1100,2000\n"));
	free(text);
	fclose(raw_out);
	raw_out = NULL;

	text = NULL;
	f = open_memstream(&text, &len);
	calvin_report_markdown(f, &fx->spec, fx->r, &meta);
	fclose(f);
	assert_non_null(strstr(text, "| probe -> fwd-k (estimated ±2.00us) | 2.00us |"));
	assert_non_null(strstr(text, "| fwd-u -> server -> fwd-u | 2.00us |"));
	assert_non_null(strstr(text, "- VM fwd-k - host -5.000001123s ±2.00us (in band"));
	assert_non_null(strstr(text, "`clocks.csv`"));
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	calvin_report_gnuplot(f, &fx->spec, fx->r);
	fclose(f);
	assert_non_null(strstr(text, "'probe -> fwd-k (estimated ±2.00us)' 1"));
	assert_non_null(strstr(text, "$links << EOD\n1 2 2 2 2 2 2\n2 1.1 1.1 1.1 1.1 1.1 1.1\n"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_clock_known_offset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clock_bound_shrinks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clock_slow_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clock_moved, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clock_one_direction, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clock_no_samples, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clock_no_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clock_better_source, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clock_report, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clock_files, setup, teardown),
	};

	(void)feed; /* the fixture's; these runs go through VMs */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
