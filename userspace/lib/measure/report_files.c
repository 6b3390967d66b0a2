// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A probe report as files: samples.csv, report.md, plot.gp (see
 * measure.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "measure/measure.h"

/* One raw record (probe.h's --raw format). */
struct raw_rec {
	uint64_t seq, tx, rx;
	unsigned int nhops;
	struct {
		unsigned int vnf, dir;
		uint64_t t_in, t_out;
	} hop[CALVIN_TLM_MAX_HOPS];
};

/* n numbers from *p into v; 0 or -EINVAL */
static int raw_numbers(char **p, unsigned long long *v, unsigned int n)
{
	unsigned int k;
	char *end;

	for (k = 0; k < n; k++) {
		errno = 0;
		v[k] = strtoull(*p, &end, 10);
		if (end == *p || errno)
			return -EINVAL;
		*p = end;
	}
	return 0;
}

static int raw_parse(char *line, struct raw_rec *rec)
{
	unsigned long long v[4];
	char *p = line;
	unsigned int i;

	if (raw_numbers(&p, v, 4) || v[3] > CALVIN_TLM_MAX_HOPS)
		return -EINVAL;
	rec->seq = v[0];
	rec->tx = v[1];
	rec->rx = v[2];
	rec->nhops = (unsigned int)v[3];
	for (i = 0; i < rec->nhops; i++) {
		if (raw_numbers(&p, v, 4))
			return -EINVAL;
		rec->hop[i].vnf = (unsigned int)v[0];
		rec->hop[i].dir = (unsigned int)v[1];
		rec->hop[i].t_in = v[2];
		rec->hop[i].t_out = v[3];
	}
	while (*p == ' ' || *p == '\n' || *p == '\r')
		p++;
	return *p ? -EINVAL : 0;
}

/* Did this probe take the path the report describes? */
static bool on_path(const struct raw_rec *rec, const struct calvin_probe_result *r)
{
	unsigned int i;

	if (!r->path_known || rec->nhops != r->nr_pos)
		return false;
	for (i = 0; i < rec->nhops; i++)
		if (rec->hop[i].vnf != r->pos[i].vnf_id || rec->hop[i].dir != r->pos[i].dir)
			return false;
	return true;
}

static void csv_header(FILE *csv, const struct calvin_probe_result *r)
{
	unsigned int i;

	fputs("seq,tx_ns,rx_ns,rtt_ns,hops", csv);
	for (i = 0; i < r->nr_pos; i++)
		fprintf(csv, ",res_%u", i);
	for (i = 0; r->nr_pos && i <= r->nr_pos; i++)
		fprintf(csv, ",link_%u", i);
	fputc('\n', csv);
}

/* A time difference as a cell: empty when it cannot be right (the clocks
 * of the two ends went backwards against each other). */
static void cell(FILE *csv, uint64_t from, uint64_t to)
{
	if (to >= from)
		fprintf(csv, ",%" PRIu64, to - from);
	else
		fputc(',', csv);
}

static void csv_row(FILE *csv, const struct raw_rec *rec, const struct calvin_probe_result *r)
{
	bool path = on_path(rec, r);
	unsigned int i;

	fprintf(csv, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u", rec->seq, rec->tx,
		rec->rx, rec->rx >= rec->tx ? rec->rx - rec->tx : 0, rec->nhops);
	for (i = 0; i < r->nr_pos; i++) {
		if (path)
			cell(csv, rec->hop[i].t_in, rec->hop[i].t_out);
		else
			fputc(',', csv);
	}
	for (i = 0; r->nr_pos && i <= r->nr_pos; i++) {
		if (!path || calvin_link_invalid(r, i))
			fputc(',', csv);
		else if (i == 0)
			cell(csv, rec->tx, rec->hop[0].t_in);
		else if (i == r->nr_pos)
			cell(csv, rec->hop[i - 1].t_out, rec->rx);
		else
			cell(csv, rec->hop[i - 1].t_out, rec->hop[i].t_in);
	}
	fputc('\n', csv);
}

long calvin_raw_to_csv(FILE *raw, FILE *csv, const struct calvin_chain_spec *spec,
		       const struct calvin_probe_result *r)
{
	char line[64 + CALVIN_TLM_MAX_HOPS * 96];
	struct raw_rec rec;
	long rows = 0;

	csv_header(csv, r);
	while (fgets(line, sizeof(line), raw)) {
		if (raw_parse(line, &rec))
			return -EINVAL;
		csv_row(csv, &rec, r);
		rows++;
	}
	return rows;
}

/* ---- Markdown ---- */

static unsigned int valid_links(const struct calvin_probe_result *r)
{
	unsigned int i, n = 0;

	for (i = 0; r->nr_pos && i <= r->nr_pos; i++)
		n += !calvin_link_invalid(r, i);
	return n;
}

static void md_row(FILE *f, const char *label, const struct calvin_hist *h, const char *why)
{
	static const double pct[] = { 50, 90, 99, 99.9, 100 };
	char d[CALVIN_DUR_LEN];
	unsigned int i;

	fprintf(f, "| %s |", label);
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		if (why || !h->count)
			fprintf(f, " %s |", i ? "" : why ? why : "-");
		else
			fprintf(f, " %s |", calvin_fmt_ns(d, calvin_hist_percentile(h, pct[i])));
	}
	fputc('\n', f);
}

static void md_table_head(FILE *f, const char *what)
{
	fprintf(f, "| %s | p50 | p90 | p99 | p99.9 | max |\n|---|---:|---:|---:|---:|---:|\n",
		what);
}

/* The text report pads hop labels into columns; tables and plots do not
 * need it. */
static void unpad(char *label)
{
	char *p;

	while ((p = strstr(label, "  ")))
		memmove(p, p + 1, strlen(p));
}

static void md_hops(FILE *f, const struct calvin_chain_spec *spec,
		    const struct calvin_probe_result *r, int pictures)
{
	char label[CALVIN_LABEL_LEN];
	unsigned int i;

	if (!r->nr_pos)
		return;
	fprintf(f, "\n## Residence in each VNF\n\nFrom the first instruction that saw the "
		   "packet to the last moment before it was handed on (-> toward the server, "
		   "<- back).\n\n");
	md_table_head(f, "hop");
	for (i = 0; i < r->nr_pos; i++) {
		calvin_report_hop_label(spec, r, i, label);
		unpad(label);
		md_row(f, label, &r->pos[i].residence, NULL);
	}
	if (pictures)
		fprintf(f, "\n![residence per hop](residence.svg)\n");
	fprintf(f, "\n## Links\n\nFrom one hop's t_out to the next hop's t_in; only between "
		   "hops on the same clock.\n\n");
	md_table_head(f, "link");
	for (i = 0; i <= r->nr_pos; i++) {
		calvin_report_link_label(spec, r, i, label);
		md_row(f, label, i == r->nr_pos ? &r->link_out : &r->pos[i].link_in,
		       calvin_link_invalid(r, i));
	}
	if (pictures && valid_links(r))
		fprintf(f, "\n![link times](links.svg)\n");
}

static void md_meta(FILE *f, const struct calvin_report_meta *m)
{
	if (m->date)
		fprintf(f, "- date: %s\n", m->date);
	if (m->host)
		fprintf(f, "- host: %s\n", m->host);
	if (m->placement)
		fprintf(f, "- placement: %s\n", m->placement);
	if (m->command)
		fprintf(f, "- command: `%s`\n", m->command);
	if (m->accel_warning)
		fprintf(f, "\n**%s**\n\n", m->accel_warning);
}

static void md_files(FILE *f, int pictures)
{
	fprintf(f, "\n## Files\n\n- `report.md`: this page; `report.txt` and `report.json`: the "
		   "same report as `calvin probe` prints it\n- `samples.csv`: one row per probe "
		   "that came back: seq, send and receive times (ns, host CLOCK_MONOTONIC), RTT, "
		   "hop records, then `res_i` (residence at hop i of the tables above, in order) "
		   "and `link_i` (link i); empty where a probe took another path or a link "
		   "cannot be measured\n- `plot.gp`: the gnuplot script that draws the "
		   "pictures (`gnuplot plot.gp`)\n");
	if (!pictures)
		fprintf(f, "\nNo pictures: gnuplot was not available or failed; run `gnuplot "
			   "plot.gp` in this directory.\n");
}

/* The report's notes after the verdict (report_notes.c), as a list. */
static void md_notes(FILE *f, const struct calvin_chain_spec *spec,
		     const struct calvin_probe_result *r)
{
	char line[CALVIN_LABEL_LEN + CALVIN_WHY_MAX + 64];
	struct calvin_share s;
	unsigned int i;
	bool any = false;

	if (calvin_verdict(spec, r) && !calvin_report_largest_share(spec, r, &s)) {
		calvin_share_text(&s, line, sizeof(line));
		fprintf(f, "\n- largest share: %s\n", line);
		any = true;
	}
	for (i = 0; i < r->nr_degraded; i++) {
		calvin_degraded_text(&r->degraded[i], line, sizeof(line));
		fprintf(f, "%s- placement: %s\n", any ? "" : "\n", line);
		any = true;
	}
}

void calvin_report_markdown(FILE *f, const struct calvin_chain_spec *spec,
			    const struct calvin_probe_result *r,
			    const struct calvin_report_meta *meta)
{
	char verdict[CALVIN_VERDICT_LEN], d[CALVIN_DUR_LEN];
	double pct = r->sent ? 100.0 * (double)r->lost / (double)r->sent : 0;

	calvin_verdict_text(spec, r, verdict, sizeof(verdict));
	fprintf(f, "# Chain %s\n\n", spec->name);
	md_meta(f, meta);
	fprintf(f, "- probes: %u %s, %u-byte payload; timestamps: %s\n", r->count,
		r->mode == CALVIN_PROBE_PINGPONG ? "ping-pong" : "paced", r->size,
		r->ts_source ? r->ts_source : "none");
	if (r->mode == CALVIN_PROBE_PACED)
		fprintf(f, "- rate: %u probes/s\n", r->rate);
	fprintf(f, "- budget: %s\n\n**Verdict: %s**\n", calvin_fmt_ns(d, spec->budget_ns),
		verdict);
	md_notes(f, spec, r);
	fprintf(f, "\n## Round-trip time\n\n");
	md_table_head(f, "");
	md_row(f, "RTT", &r->rtt, NULL);
	if (meta->pictures)
		fprintf(f, "\n![RTT CDF with the budget](rtt-cdf.svg)\n");
	md_hops(f, spec, r, meta->pictures);
	fprintf(f,
		"\n## Counts\n\n| sent | received | lost | reordered | duplicates | path mismatch "
		"| corrupt |\n|---:|---:|---:|---:|---:|---:|---:|\n| %" PRIu64 " | %" PRIu64
		" | %" PRIu64 " (%.2f%%) | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %" PRIu64
		" |\n",
		r->sent, r->received, r->lost, pct, r->reordered, r->duplicates, r->path_mismatch,
		r->corrupt);
	md_files(f, meta->pictures);
}

/* ---- gnuplot ---- */

static void gp_terminals_begin(FILE *f)
{
	fprintf(f, "do for [t = 1:2] {\n"
		   "  if (t == 1) { set terminal pngcairo size 960,600 noenhanced; ext = '.png' }"
		   " else { set terminal svg size 960,600 noenhanced dynamic; ext = '.svg' }\n");
}

/* The RTT CDF from every sample, the budget as a vertical line. */
static void gp_cdf(FILE *f, const struct calvin_chain_spec *spec,
		   const struct calvin_probe_result *r)
{
	double lo = (double)r->rtt.min, hi = (double)r->rtt.max, b = (double)spec->budget_ns;

	if (b && b < lo)
		lo = b;
	if (b > hi)
		hi = b;
	fprintf(f, "  set output 'rtt-cdf'.ext\n  reset; set datafile separator ','\n"
		   "  set title 'chain %s: RTT CDF, %" PRIu64 " probes'\n"
		   "  set xlabel 'RTT (us, log scale)'; set ylabel 'fraction of probes'\n"
		   "  set logscale x; set grid; set key bottom right; set yrange [0:1]\n"
		   "  set xrange [%g:%g]\n",
		spec->name, r->rtt.count, lo / 1e3 / 1.2, hi / 1e3 * 1.2);
	if (b)
		fprintf(f, "  set arrow 1 from %g, graph 0 to %g, graph 1 nohead dt 2 lw 2 lc "
			   "rgb 'red'\n  set label 1 'budget %g us' at %g, graph 0.5 right "
			   "offset -0.5,0 tc rgb 'red'\n",
			b / 1e3, b / 1e3, b / 1e3, b / 1e3);
	fprintf(f, "  plot 'samples.csv' skip 1 using ($4/1000.):(1) smooth cnorm lw 2 "
		   "title 'RTT'\n");
}

/* One box of a box plot, from a histogram: box p25-p75, line at the
 * median, whiskers p1-p99, a point at the max. Percentiles from the
 * histogram (at most 0.39% off) rather than a box plot of every sample:
 * the tails are what matter here, and thousands of outlier points hide
 * them. */
static void gp_box_row(FILE *f, unsigned int x, const struct calvin_hist *h)
{
	static const double pct[] = { 1, 25, 50, 75, 99 };
	unsigned int i;

	fprintf(f, "%u", x);
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		fprintf(f, " %g", (double)calvin_hist_percentile(h, pct[i]) / 1e3);
	fprintf(f, " %g\n", (double)h->max / 1e3);
}

static bool box_shown(const struct calvin_probe_result *r, unsigned int i, bool links)
{
	return !links || !calvin_link_invalid(r, i);
}

static const struct calvin_hist *box_hist(const struct calvin_probe_result *r, unsigned int i,
					  bool links)
{
	if (!links)
		return &r->pos[i].residence;
	return i == r->nr_pos ? &r->link_out : &r->pos[i].link_in;
}

/* The boxes as a data block (defined once, before the loop over formats). */
static void gp_boxes_data(FILE *f, const struct calvin_probe_result *r, const char *name,
			  bool links)
{
	unsigned int i, n = links ? r->nr_pos + 1 : r->nr_pos, shown = 0;

	fprintf(f, "$%s << EOD\n", name);
	for (i = 0; i < n; i++)
		if (box_shown(r, i, links))
			gp_box_row(f, ++shown, box_hist(r, i, links));
	fprintf(f, "EOD\n");
}

/* Residence per hop, or link times, side by side; links that cannot be
 * measured are left out. */
static void gp_boxes(FILE *f, const struct calvin_chain_spec *spec,
		     const struct calvin_probe_result *r, const char *name, bool links)
{
	unsigned int i, n = links ? r->nr_pos + 1 : r->nr_pos, shown = 0;
	char label[CALVIN_LABEL_LEN];

	fprintf(f, "  set output '%s'.ext\n  reset\n"
		   "  set title \"chain %s: %s (us, log scale)\\nbox p25-p75, line p50, "
		   "whiskers p1-p99, dot max\"\n"
		   "  set logscale y; set grid y; set boxwidth 0.5; set style fill solid 0.3\n"
		   "  set offsets 0, 0, graph 0.08, 0\n"
		   "  set xtics rotate by -25 nomirror; unset key\n  set xtics (",
		name, spec->name, links ? "link times" : "residence per hop");
	for (i = 0; i < n; i++) {
		if (!box_shown(r, i, links))
			continue;
		if (links)
			calvin_report_link_label(spec, r, i, label);
		else
			calvin_report_hop_label(spec, r, i, label);
		unpad(label);
		shown++;
		fprintf(f, "%s'%s' %u", shown > 1 ? ", " : "", label, shown);
	}
	fprintf(f, ")\n  set xrange [0.5:%u.5]\n"
		   "  plot $%s using 1:3:2:6:5 with candlesticks whiskerbars lw 1.5, \\\n"
		   "    $%s using 1:4:4:4:4 with candlesticks lt -1 lw 2, \\\n"
		   "    $%s using 1:7 with points pt 7 ps 0.6\n",
		shown, name, name, name);
}

void calvin_report_gnuplot(FILE *f, const struct calvin_chain_spec *spec,
			   const struct calvin_probe_result *r)
{
	bool hops = r->nr_pos && r->path_known;

	fprintf(f, "# Pictures of chain %s from samples.csv and the percentiles below; run: "
		   "gnuplot plot.gp\n",
		spec->name);
	if (hops)
		gp_boxes_data(f, r, "residence", false);
	if (hops && valid_links(r))
		gp_boxes_data(f, r, "links", true);
	gp_terminals_begin(f);
	if (r->rtt.count)
		gp_cdf(f, spec, r);
	if (hops)
		gp_boxes(f, spec, r, "residence", false);
	if (hops && valid_links(r))
		gp_boxes(f, spec, r, "links", true);
	fprintf(f, "}\n");
}
