// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Probe report: the result of a run as text or JSON (its building blocks
 * and the verdict are report_verdict.c). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report_priv.h"
#include "util/util.h"

static const char *mode_name(enum calvin_probe_mode m)
{
	return m == CALVIN_PROBE_PINGPONG ? "ping-pong" : "paced";
}

/* ---- text ---- */

/* p50 p90 p99 max in fixed columns, or why there is nothing to show */
static void text_cols(FILE *f, const struct calvin_hist *h, const char *why)
{
	static const double pct[] = {50, 90, 99, 100};
	char d[CALVIN_DUR_LEN];
	unsigned int i;

	if (why) {
		fprintf(f, "  n/a (%s)\n", why);
		return;
	}
	if (!h->count) {
		fprintf(f, "  -\n");
		return;
	}
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		fprintf(f, " %9s", calvin_fmt_ns(d, calvin_hist_percentile(h, pct[i])));
	fputc('\n', f);
}

/* Did any hop stamp a clock other than the host's? */
static bool vm_clocks(const struct calvin_probe_result *r)
{
	unsigned int i;

	for (i = 0; i < r->nr_pos; i++)
		if (r->pos[i].clock != CALVIN_CLOCK_HOST_MONO)
			return true;
	return false;
}

static void text_header(FILE *f, const struct calvin_chain_spec *spec,
			const struct calvin_probe_result *r)
{
	char d1[CALVIN_DUR_LEN], d2[CALVIN_DUR_LEN];

	fprintf(f, "chain %s: %u probes, ", spec->name, r->count);
	if (r->mode == CALVIN_PROBE_PACED)
		fprintf(f, "paced at %u/s", r->rate);
	else
		fprintf(f, "ping-pong");
	fprintf(f, ", %u-byte payload, %u hop records, took %s%s\n", r->size, r->max_hops,
		calvin_fmt_ns(d1, r->elapsed_ns), r->interrupted ? " (interrupted)" : "");
	fprintf(f, "timestamps: %s", r->ts_source ? r->ts_source : "none");
	if ((r->tx_fallback || r->rx_fallback) &&
	    !(r->ts_source && !strcmp(r->ts_source, CALVIN_TS_USER)))
		fprintf(f, ", user-space fallback for %" PRIu64 " send / %" PRIu64 " receive times",
			r->tx_fallback, r->rx_fallback);
	if (vm_clocks(r))
		fprintf(f, "; hops: each VM's own clock, a clock domain per VM (residence always, "
			   "links only within one domain)");
	fprintf(f, "; %s host CLOCK_MONOTONIC (offset to probe clock known to ±%s",
		vm_clocks(r) ? "probe:" : "hops:", calvin_fmt_ns(d1, r->offset_unc_ns));
	if (!r->end_links_valid)
		fprintf(f, ", but it moved by %s: clock step",
			calvin_fmt_ns(d2, (uint64_t)llabs(r->offset_step_ns)));
	fprintf(f, ")\n");
	if (r->platform)
		fprintf(f, "nodes: %s\n", r->platform);
}

static void text_rtt(FILE *f, const struct calvin_probe_result *r)
{
	const struct calvin_hist *h = &r->rtt;
	char d[6][CALVIN_DUR_LEN];

	if (!h->count) {
		fprintf(f, "rtt      no replies\n");
		return;
	}
	fprintf(f, "rtt      p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  (min %s)\n",
		calvin_fmt_ns(d[0], calvin_hist_percentile(h, 50)),
		calvin_fmt_ns(d[1], calvin_hist_percentile(h, 90)),
		calvin_fmt_ns(d[2], calvin_hist_percentile(h, 99)),
		calvin_fmt_ns(d[3], calvin_hist_percentile(h, 99.9)), calvin_fmt_ns(d[4], h->max),
		calvin_fmt_ns(d[5], h->min));
}

static void text_hops(FILE *f, const struct calvin_chain_spec *spec,
		      const struct calvin_probe_result *r)
{
	char label[CALVIN_LABEL_LEN];
	unsigned int i;

	if (!r->path_known && r->overflow) {
		fprintf(f,
			"hops     not shown: every reply overflowed its %u hop records "
			"(pre-size more)\n",
			r->max_hops);
		return;
	}
	if (!r->nr_pos) {
		fprintf(f, "hops     none recorded\n");
		return;
	}
	fprintf(f, "%-28s %9s %9s %9s %9s\n", "hop residence", "p50", "p90", "p99", "max");
	for (i = 0; i < r->nr_pos; i++) {
		calvin_report_hop_label(spec, r, i, label);
		fprintf(f, "  %-25s", label);
		text_cols(f, &r->pos[i].residence, NULL);
	}
	fprintf(f, "%-28s %9s %9s %9s %9s\n", "link", "p50", "p90", "p99", "max");
	for (i = 0; i <= r->nr_pos; i++) {
		calvin_report_link_label(spec, r, i, label);
		fprintf(f, "  %-26s", label);
		text_cols(f, calvin_report_link_hist(r, i), calvin_link_invalid(r, i));
	}
}

void calvin_report_text(FILE *f, const struct calvin_chain_spec *spec,
			const struct calvin_probe_result *r)
{
	char verdict[CALVIN_VERDICT_LEN];
	double pct = r->sent ? 100.0 * (double)r->lost / (double)r->sent : 0;

	text_header(f, spec, r);
	text_rtt(f, r);
	text_hops(f, spec, r);
	fprintf(f,
		"loss %" PRIu64 "/%" PRIu64 " (%.2f%%)  reordered %" PRIu64 "  duplicates %" PRIu64
		"\n",
		r->lost, r->sent, pct, r->reordered, r->duplicates);
	fprintf(f,
		"hop records %u..%u  overflow %" PRIu64 "  misordered %" PRIu64
		"  path mismatch %" PRIu64 "  bad replies %" PRIu64,
		r->hops_min, r->hops_max, r->overflow, r->misordered, r->path_mismatch,
		r->bad_replies);
	if (r->corrupt)
		fprintf(f, "  corrupt %" PRIu64, r->corrupt);
	if (r->foreign)
		fprintf(f, "  other sessions %" PRIu64, r->foreign);
	if (r->send_errors)
		fprintf(f, "  send errors %" PRIu64, r->send_errors);
	fputc('\n', f);
	if (r->bad_replies && r->bad_why[0])
		fprintf(f, "bad replies: the first was %s\n", r->bad_why);
	calvin_verdict_text(spec, r, verdict, sizeof(verdict));
	fprintf(f, "verdict: %s\n", verdict);
	calvin_report_notes_text(f, spec, r);
}

/* ---- JSON ---- */

static struct json_object *json_hist(const struct calvin_hist *h)
{
	struct json_object *o = jw_obj();

	jw_u64(o, "count", h->count);
	if (!h->count)
		return o;
	jw_u64(o, "min", h->min);
	jw_num(o, "mean", "%.0f", calvin_hist_mean(h));
	jw_u64(o, "p50", calvin_hist_percentile(h, 50));
	jw_u64(o, "p90", calvin_hist_percentile(h, 90));
	jw_u64(o, "p99", calvin_hist_percentile(h, 99));
	jw_u64(o, "p99_9", calvin_hist_percentile(h, 99.9));
	jw_u64(o, "max", h->max);
	return o;
}

static struct json_object *json_probe(const struct calvin_probe_result *r)
{
	struct json_object *o = jw_obj();

	jw_u64(o, "count", r->count);
	jw_str(o, "mode", mode_name(r->mode));
	jw_u64(o, "rate", r->rate);
	jw_u64(o, "size", r->size);
	jw_u64(o, "max_hops", r->max_hops);
	jw_u64(o, "session", r->session);
	jw_u64(o, "elapsed_ns", r->elapsed_ns);
	jw_bool(o, "interrupted", r->interrupted);
	return o;
}

static struct json_object *json_timestamps(const struct calvin_probe_result *r)
{
	struct json_object *o = jw_obj();

	jw_str(o, "source", r->ts_source ? r->ts_source : "none");
	jw_u64(o, "tx_fallback", r->tx_fallback);
	jw_u64(o, "rx_fallback", r->rx_fallback);
	jw_str(o, "hop_clock", "host CLOCK_MONOTONIC");
	jw_i64(o, "offset_ns", r->offset_ns);
	jw_u64(o, "offset_uncertainty_ns", r->offset_unc_ns);
	jw_i64(o, "offset_step_ns", r->offset_step_ns);
	jw_bool(o, "end_links_valid", r->end_links_valid);
	return o;
}

static struct json_object *json_counts(const struct calvin_probe_result *r)
{
	const struct {
		const char *key;
		uint64_t v;
	} c[] = {
		{ "sent", r->sent },
		{ "received", r->received },
		{ "lost", r->lost },
		{ "duplicates", r->duplicates },
		{ "reordered", r->reordered },
		{ "bad_replies", r->bad_replies },
		{ "corrupt", r->corrupt },
		{ "foreign", r->foreign },
		{ "send_errors", r->send_errors },
		{ "overflow", r->overflow },
		{ "misordered", r->misordered },
		{ "path_mismatch", r->path_mismatch },
		{ "hop_records_min", r->hops_min },
		{ "hop_records_max", r->hops_max },
	};
	struct json_object *o = jw_obj();
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		jw_u64(o, c[i].key, c[i].v);
	return o;
}

static struct json_object *json_hops(const struct calvin_chain_spec *spec,
				     const struct calvin_probe_result *r)
{
	char name[CALVIN_NAME_MAX + 1];
	struct json_object *a = jw_arr(), *o;
	unsigned int i;

	for (i = 0; i < r->nr_pos; i++) {
		const struct calvin_probe_pos *p = &r->pos[i];

		o = jw_obj();
		jw_u64(o, "position", i);
		jw_u64(o, "vnf_id", p->vnf_id);
		jw_str(o, "name", calvin_report_vnf_name(spec, p->vnf_id, name));
		jw_str(o, "space", calvin_report_space_name(p->space));
		jw_str(o, "dir", p->dir == CALVIN_DIR_FWD ? "fwd" : "rev");
		jw_u64(o, "clock", p->clock);
		jw_add(o, "residence_ns", json_hist(&p->residence));
		jw_push(a, o);
	}
	return a;
}

static struct json_object *json_links(const struct calvin_chain_spec *spec,
				      const struct calvin_probe_result *r)
{
	struct json_object *a = jw_arr(), *o;
	char label[CALVIN_LABEL_LEN];
	unsigned int i;
	const char *why;

	for (i = 0; r->nr_pos && i <= r->nr_pos; i++) {
		why = calvin_link_invalid(r, i);
		calvin_report_link_label(spec, r, i, label);
		o = jw_obj();
		jw_str(o, "label", label);
		jw_bool(o, "via_server", i < r->nr_pos && r->pos[i].via_server);
		jw_bool(o, "valid", !why);
		if (why)
			jw_str(o, "reason", why);
		else
			jw_add(o, "ns", json_hist(calvin_report_link_hist(r, i)));
		jw_push(a, o);
	}
	return a;
}

struct json_object *calvin_report_jobj(const struct calvin_chain_spec *spec,
				       const struct calvin_probe_result *r)
{
	char verdict[CALVIN_VERDICT_LEN];
	int v = calvin_verdict_text(spec, r, verdict, sizeof(verdict));
	struct json_object *o = jw_obj(), *vo = jw_obj();

	jw_str(o, "chain", spec->name);
	jw_add(o, "probe", json_probe(r));
	jw_add(o, "timestamps", json_timestamps(r));
	jw_add(o, "counts", json_counts(r));
	if (r->bad_why[0])
		jw_str(o, "bad_replies_first", r->bad_why);
	if (r->platform)
		jw_str(o, "platform", r->platform);
	jw_add(o, "rtt_ns", json_hist(&r->rtt));
	jw_add(o, "hops", json_hops(spec, r));
	jw_add(o, "links", json_links(spec, r));
	jw_u64(o, "budget_ns", spec->budget_ns);
	jw_bool(vo, "within_budget", !v);
	jw_u64(vo, "p99_rtt_ns", calvin_hist_percentile(&r->rtt, 99));
	jw_str(vo, "text", verdict);
	jw_add(o, "verdict", vo);
	calvin_report_notes_jadd(o, spec, r);
	return o;
}

int calvin_report_json(FILE *f, const struct calvin_chain_spec *spec,
		       const struct calvin_probe_result *r)
{
	struct json_object *o = calvin_report_jobj(spec, r);
	int err = o ? jw_write(f, o, true) : -ENOMEM;

	json_object_put(o);
	return err;
}
