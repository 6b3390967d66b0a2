// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the probe accounting (probe_stats) and the report (text,
 * JSON, verdict), on synthetic replies: no network. */
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
#include "util/util.h"

static void test_account_reference_chain(void **state)
{
	struct fixture *fx = *state;
	struct calvin_probe_result *r = fx->r;
	uint32_t s;

	for (s = 0; s < 10; s++)
		assert_int_equal(feed(fx, s, 5000000 + s * 1000000, 0), 0);
	r->sent = 10;
	calvin_probe_finish(&fx->a, OFF + 30, 20);

	assert_int_equal(r->received, 10);
	assert_int_equal(r->lost, 0);
	assert_int_equal(r->misordered, 0);
	assert_int_equal(r->hops_min, 4);
	assert_int_equal(r->hops_max, 4);
	assert_true(r->end_links_valid);
	assert_int_equal(r->rtt.count, 10);
	assert_int_equal(r->rtt.min, 6400);
	assert_int_equal(r->rtt.max, 6400);
	assert_int_equal(r->nr_pos, 4);
	assert_int_equal(r->pos[0].residence.min, 100);
	assert_int_equal(r->pos[0].link_in.min, 1000); /* probe -> fwd-k */
	assert_true(r->pos[2].via_server);
	assert_false(r->pos[1].via_server);
	assert_int_equal(r->pos[2].link_in.max, 2000);
	assert_int_equal(r->link_out.count, 10);
	assert_int_equal(r->link_out.min, 1000);
}

static void test_account_anomalies(void **state)
{
	struct fixture *fx = *state;
	struct calvin_probe_result *r = fx->r;
	struct calvin_tlm t;

	assert_int_equal(feed(fx, 5, 1000000, CALVIN_ACCT_TX_USER), 0);
	assert_int_equal(feed(fx, 3, 2000000, CALVIN_ACCT_RX_USER), 0); /* reordered */
	assert_int_equal(feed(fx, 3, 2000000, CALVIN_ACCT_RX_USER), 1); /* duplicate */
	assert_int_equal(feed(fx, 10, 3000000, 0), -EINVAL);		/* never sent */
	/* a hop stamped before the probe was sent */
	make_reply(&t, 6, 4000000);
	t.hops[0].t_in = 3000000;
	assert_int_equal(calvin_probe_account(&fx->a, 4000000 + OFF, 4100000 + OFF, &t, 0), 0);
	/* a shorter path */
	make_reply(&t, 7, 5000000);
	t.nr_hops = 2;
	assert_int_equal(calvin_probe_account(&fx->a, 5000000 + OFF, 5100000 + OFF, &t, 0), 0);
	/* fwd-u in another clock domain: its links are not computed */
	make_reply(&t, 8, 6000000);
	t.hops[1].clock = 1;
	assert_int_equal(
	    calvin_probe_account(&fx->a, 6000000 + OFF, t.hops[3].t_out + 1000 + OFF, &t, 0), 0);
	r->sent = 10;
	calvin_probe_finish(&fx->a, OFF, 20);

	assert_int_equal(r->received, 5);
	assert_int_equal(r->lost, 5);
	assert_int_equal(r->reordered, 1);
	assert_int_equal(r->duplicates, 1);
	assert_int_equal(r->bad_replies, 1);
	assert_int_equal(r->misordered, 1);
	assert_int_equal(r->path_mismatch, 1);
	assert_int_equal(r->tx_fallback, 1);
	assert_int_equal(r->rx_fallback, 1); /* the duplicate is not counted again */
	assert_int_equal(r->hops_min, 2);
	assert_int_equal(r->rtt.count, 5);
	/* 4 on the reference path; the misordered one lacks probe -> fwd-k,
	 * the other-clock one both links of fwd-u */
	assert_int_equal(r->pos[0].link_in.count, 3);
	assert_int_equal(r->pos[1].link_in.count, 3);
	assert_int_equal(r->pos[2].link_in.count, 3);
	assert_int_equal(r->pos[3].link_in.count, 4);
	assert_int_equal(r->pos[1].residence.count, 4);
}

static void test_account_overflow_then_path(void **state)
{
	struct fixture *fx = *state;
	struct calvin_tlm t;

	make_reply(&t, 0, 1000000);
	t.flags = CALVIN_TLM_F_OVERFLOW;
	t.nr_hops = 3;
	assert_int_equal(calvin_probe_account(&fx->a, 1000000 + OFF, 1100000 + OFF, &t, 0), 0);
	assert_false(fx->r->path_known);
	assert_int_equal(feed(fx, 1, 2000000, 0), 0);
	assert_true(fx->r->path_known);
	assert_int_equal(fx->r->nr_pos, 4);
	assert_int_equal(fx->r->overflow, 1);
	assert_int_equal(fx->r->path_mismatch, 0);
}

/* A recovered probe carries fewer records than were pre-sized: when it
 * comes first, the full path that follows is still the reference. */
static void test_account_short_first(void **state)
{
	struct fixture *fx = *state;
	struct calvin_tlm t;

	make_reply(&t, 0, 1000000);
	t.nr_hops = 2;
	assert_int_equal(calvin_probe_account(&fx->a, 1000000 + OFF, 1100000 + OFF, &t, 0), 0);
	assert_false(fx->r->path_known);
	assert_int_equal(fx->r->path_mismatch, 1);
	assert_int_equal(feed(fx, 1, 2000000, 0), 0);
	assert_true(fx->r->path_known);
	assert_int_equal(fx->r->nr_pos, 4);
	assert_int_equal(fx->r->path_mismatch, 1);
}

static void test_clock_step_drops_end_links(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(feed(fx, 0, 1000000, 0), 0);
	fx->r->sent = 1;
	calvin_probe_finish(&fx->a, OFF + 1000000, 20);
	assert_false(fx->r->end_links_valid);
	assert_int_equal(fx->r->offset_step_ns, 1000000);
	assert_int_equal(fx->r->pos[0].link_in.count, 0);
	assert_int_equal(fx->r->link_out.count, 0);
	assert_int_equal(fx->r->pos[1].link_in.count, 1);
	assert_string_equal(calvin_link_invalid(fx->r, 0), "clock step during the run");
	assert_null(calvin_link_invalid(fx->r, 1));
}

static void test_fmt_ns(void **state)
{
	char b[CALVIN_DUR_LEN];

	assert_string_equal(calvin_fmt_ns(b, 812), "812ns");
	assert_string_equal(calvin_fmt_ns(b, 1234), "1.23us");
	assert_string_equal(calvin_fmt_ns(b, 41200), "41.2us");
	assert_string_equal(calvin_fmt_ns(b, 350000), "350us");
	assert_string_equal(calvin_fmt_ns(b, 1500000), "1.50ms");
	assert_string_equal(calvin_fmt_ns(b, 2000000000), "2.00s");
}

/* n replies with RTTs 10us, 20us, ... */
static void fill_rtt(struct calvin_probe_result *r, unsigned int n, unsigned int lost)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		calvin_hist_add(&r->rtt, (i + 1) * 10000ULL);
	r->sent = n + lost;
	r->received = n;
	r->lost = lost;
}

static void test_verdict(void **state)
{
	struct fixture *fx = *state;
	char buf[CALVIN_VERDICT_LEN];

	assert_int_equal(calvin_verdict(&fx->spec, fx->r), 1); /* nothing came back */
	calvin_verdict_text(&fx->spec, fx->r, buf, sizeof(buf));
	assert_string_equal(buf, "failed: no replies (0/0)");

	fill_rtt(fx->r, 10, 0);
	assert_int_equal(calvin_verdict(&fx->spec, fx->r), 0);
	calvin_verdict_text(&fx->spec, fx->r, buf, sizeof(buf));
	assert_string_equal(buf, "within budget (p99 RTT 100us <= 350us)");

	fx->r->lost = 3;
	fx->r->sent = 13;
	assert_int_equal(calvin_verdict(&fx->spec, fx->r), 1);
	calvin_verdict_text(&fx->spec, fx->r, buf, sizeof(buf));
	assert_string_equal(buf, "failed: loss 3/13");

	fx->spec.budget_ns = 50000;
	calvin_verdict_text(&fx->spec, fx->r, buf, sizeof(buf));
	assert_string_equal(buf, "over budget: p99 RTT 100us > 50.0us; loss 3/13");

	fx->r->lost = 0;
	fx->spec.budget_ns = 0;
	assert_int_equal(calvin_verdict(&fx->spec, fx->r), 0);
}

/* The report.json text, which must be one JSON document, on one line
 * ("key":value) for the checks below. */
static char *compact(char *text)
{
	struct json_object *o;
	char why[128], *out;

	assert_int_equal(jw_parse(text, strlen(text), 16, &o, why, sizeof(why)), 0);
	out = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_NOSLASHESCAPE));
	assert_non_null(out);
	json_object_put(o);
	free(text);
	return out;
}

static char *report(struct fixture *fx, bool json)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	if (json)
		assert_int_equal(calvin_report_json(f, &fx->spec, fx->r), 0);
	else
		calvin_report_text(f, &fx->spec, fx->r);
	fclose(f);
	return json ? compact(text) : text;
}

static void test_report_text(void **state)
{
	struct fixture *fx = *state;
	char *text;
	uint32_t s;

	for (s = 0; s < 10; s++)
		feed(fx, s, 1000000 * (s + 1), 0);
	fx->r->sent = 10;
	calvin_probe_finish(&fx->a, OFF, 20);
	text = report(fx, false);
	assert_non_null(strstr(text, "chain tactile-fwd: 10 probes, paced at 1000/s, 256-byte"));
	assert_non_null(strstr(text, "rtt      p50 6.40us"));
	assert_non_null(strstr(text, "fwd-u (user)           <-"));
	assert_non_null(strstr(text, "fwd-u -> server -> fwd-u"));
	assert_non_null(strstr(text, "fwd-k -> probe"));
	assert_non_null(strstr(text, "loss 0/10 (0.00%)"));
	assert_non_null(strstr(text, "verdict: within budget (p99 RTT 6.40us <= 350us)\n"));
	free(text);
}

static void test_report_json(void **state)
{
	struct fixture *fx = *state;
	char *text;
	uint32_t s;

	for (s = 0; s < 4; s++)
		feed(fx, s, 1000000 * (s + 1), 0);
	fx->r->sent = 5;
	strcpy(fx->spec.vnfs[1].name, "fw\"d\\u"); /* names are restricted; escaping is not */
	calvin_probe_finish(&fx->a, OFF, 20);
	text = report(fx, true);
	assert_non_null(strstr(text, "{\"chain\":\"tactile-fwd\",\"probe\":{\"count\":"));
	assert_non_null(strstr(text, "\"rtt_ns\":{\"count\":4,\"min\":6400,\"mean\":6400,"
				     "\"p50\":6400,\"p90\":6400,\"p99\":6400,\"p99_9\":6400,"
				     "\"max\":6400}"));
	assert_non_null(strstr(text, "\"lost\":1,"));
	assert_non_null(strstr(text, "\"name\":\"fw\\\"d\\\\u\""));
	assert_non_null(strstr(text, "\"label\":\"fw\\\"d\\\\u -> server -> fw\\\"d\\\\u\""));
	assert_non_null(strstr(text, "\"within_budget\":false"));
	assert_non_null(strstr(text, "\"text\":\"failed: loss 1/5\""));
	free(text);
}

/* Each VNF in a VM of its own (libvirt): residence always; a link only
 * where both ends read one VM's clock (fwd-u's turn-around at the server),
 * and the report says why each other link is missing. */
static void test_report_vm_clocks(void **state)
{
	struct fixture *fx = *state;
	struct calvin_tlm t;
	char *text;
	uint32_t s;
	int i;

	for (s = 0; s < 10; s++) {
		make_reply(&t, s, 1000000 * (s + 1));
		for (i = 0; i < 4; i++)
			t.hops[i].clock = t.hops[i].vnf_id ? 2 : 1;
		calvin_probe_account(&fx->a, t.hops[0].t_in - 1000 + OFF, t.hops[3].t_out + 1000 + OFF,
				     &t, 0);
	}
	fx->r->sent = 10;
	fx->r->platform = "VMs under TCG: timings are emulated";
	calvin_probe_finish(&fx->a, OFF, 20);
	assert_string_equal(calvin_link_invalid(fx->r, 0), "different clock domains: host and a VM");
	assert_string_equal(calvin_link_invalid(fx->r, 1), "different clock domains: two VMs");
	assert_null(calvin_link_invalid(fx->r, 2));
	assert_string_equal(calvin_link_invalid(fx->r, 4), "different clock domains: host and a VM");
	text = report(fx, false);
	assert_non_null(strstr(text, "hops: each VM's own clock, a clock domain per VM"));
	assert_non_null(strstr(text, "nodes: VMs under TCG: timings are emulated\n"));
	assert_non_null(strstr(text, "probe -> fwd-k              n/a (different clock domains: "
				     "host and a VM)"));
	assert_non_null(strstr(text, "fwd-k -> fwd-u              n/a (different clock domains: "
				     "two VMs)"));
	assert_non_null(strstr(text, "fwd-u -> server -> fwd-u      2.00us"));
	free(text);
	text = report(fx, true);
	assert_non_null(strstr(text, "\"platform\":\"VMs under TCG: timings are emulated\""));
	assert_non_null(strstr(text, "\"reason\":\"different clock domains: two VMs\""));
	free(text);
}

/* Over budget: the line naming the hop or link with the largest p99; what
 * placement could not give, whatever the verdict; why a reply was bad. */
static void test_report_notes(void **state)
{
	static const struct calvin_degraded deg = {
	    "fwd-u", CALVIN_GRANT_DEDICATED, CALVIN_GRANT_SHARED, "no core left to dedicate"};
	struct fixture *fx = *state;
	struct calvin_share sh;
	char *text, line[256];
	uint32_t s;

	for (s = 0; s < 10; s++)
		feed(fx, s, 1000000 * (s + 1), 0);
	fx->r->sent = 10;
	calvin_probe_finish(&fx->a, OFF, 20);
	fx->r->degraded[0] = deg;
	fx->r->nr_degraded = 1;
	text = report(fx, false);
	assert_null(strstr(text, "largest share"));
	assert_non_null(strstr(text, "verdict: within budget (p99 RTT 6.40us <= 350us)\n"
				     "placement: fwd-u asked dedicated, got shared: no core left to "
				     "dedicate\n"));
	free(text);

	fx->spec.budget_ns = 1000;
	assert_int_equal(calvin_report_largest_share(&fx->spec, fx->r, &sh), 0);
	assert_true(sh.link);
	assert_string_equal(sh.label, "fwd-u -> server -> fwd-u");
	assert_int_equal(sh.p99_ns, 2000);
	assert_int_equal(sh.rtt_p99_ns, 6400);
	calvin_share_text(&sh, line, sizeof(line));
	assert_string_equal(line, "link fwd-u -> server -> fwd-u: p99 2.00us, 31% of the p99 RTT "
				  "6.40us");
	fx->r->bad_replies = 2;
	strcpy(fx->r->bad_why, "telemetry version 1 (24-byte hop records)");
	text = report(fx, false);
	assert_non_null(strstr(text, "bad replies: the first was telemetry version 1 (24-byte hop "
				     "records)\nverdict: over budget: p99 RTT 6.40us > 1.00us\n"
				     "largest share: link fwd-u -> server -> fwd-u: p99 2.00us, 31% "
				     "of the p99 RTT 6.40us\nplacement: fwd-u asked dedicated"));
	free(text);
	text = report(fx, true);
	assert_non_null(strstr(text, "\"largest_share\":{\"kind\":\"link\",\"label\":\"fwd-u "
				     "-> server -> fwd-u\",\"p99_ns\":2000,\"rtt_p99_ns\":6400}"));
	assert_non_null(strstr(text, "\"placement\":[{\"vnf\":\"fwd-u\",\"asked\":"
				     "\"dedicated\",\"granted\":\"shared\",\"why\":\"no core "
				     "left to dedicate\"}]"));
	assert_non_null(strstr(text, "\"bad_replies_first\":\"telemetry version 1"));
	free(text);
}

/* A hop that holds the probe longest is named as a hop. */
static void test_share_hop(void **state)
{
	struct fixture *fx = *state;
	struct calvin_share sh;
	struct calvin_tlm t;
	char line[256];
	uint32_t s;

	for (s = 0; s < 10; s++) {
		make_reply(&t, s, 1000000 * (s + 1));
		t.hops[2].t_out += 9900; /* fwd-u on the way back: 10us */
		t.hops[3].t_in += 9900;
		t.hops[3].t_out += 9900;
		calvin_probe_account(&fx->a, 1000000 * (s + 1) + OFF, t.hops[3].t_out + 1000 + OFF,
				     &t, 0);
	}
	fx->r->sent = 10;
	calvin_probe_finish(&fx->a, OFF, 20);
	assert_int_equal(calvin_report_largest_share(&fx->spec, fx->r, &sh), 0);
	calvin_share_text(&sh, line, sizeof(line));
	assert_string_equal(line, "hop fwd-u (user) <-: p99 10.0us, 61% of the p99 RTT 16.3us");
	/* nothing measured: nothing to name */
	calvin_probe_result_init(fx->r);
	assert_int_equal(calvin_report_largest_share(&fx->spec, fx->r, &sh), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_report_notes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_share_hop, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_account_reference_chain, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_account_anomalies, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_account_overflow_then_path, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_account_short_first, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_clock_step_drops_end_links, setup, teardown),
	    cmocka_unit_test(test_fmt_ns),
	    cmocka_unit_test_setup_teardown(test_verdict, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_report_text, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_report_json, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_report_vm_clocks, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
