// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* `calvin bench` reports: series, samples.csv and the latency table (see
 * bench_lib.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bench/lib/bench_lib.h"
#include "measure/measure.h"

void calvin_bench_series_init(struct calvin_bench_series *s, const char *config, const char *label,
			      const char *metric)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->config, sizeof(s->config), "%s", config);
	snprintf(s->label, sizeof(s->label), "%s", label);
	snprintf(s->metric, sizeof(s->metric), "%s", metric);
	s->ref = -1;
	s->ordered = true;
}

int calvin_bench_series_add(struct calvin_bench_series *s, double v_ns, unsigned int r)
{
	size_t cap = s->cap ? 2 * s->cap : 1024;
	uint16_t *round;
	double *v;

	if (s->n == s->cap) {
		v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->v = v;
		round = realloc(s->round, cap * sizeof(*round));
		if (!round)
			return -ENOMEM;
		s->round = round;
		s->cap = cap;
	}
	s->v[s->n] = v_ns;
	s->round[s->n++] = (uint16_t)r;
	return 0;
}

void calvin_bench_series_why(struct calvin_bench_series *s, const char *fmt, ...)
{
	va_list ap;

	if (s->why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
}

void calvin_bench_series_free(struct calvin_bench_series *s)
{
	free(s->v);
	free(s->round);
	s->v = NULL;
	s->round = NULL;
	s->n = s->cap = 0;
}

/* Runs of equal consecutive samples of one round become one row, so a
 * histogram's bucket is one row and a probe's sample is one row. */
void calvin_bench_csv(FILE *f, const struct calvin_bench_series *s, size_t n)
{
	size_t i, j, k;

	fputs("config,round,metric,value_ns,count\n", f);
	for (i = 0; i < n; i++) {
		for (j = 0; j < s[i].n; j = k) {
			for (k = j + 1; k < s[i].n; k++)
				if (s[i].v[k] != s[i].v[j] || s[i].round[k] != s[i].round[j])
					break;
			fprintf(f, "%s,%u,%s,%.0f,%zu\n", s[i].config, s[i].round[j], s[i].metric,
				s[i].v[j], k - j);
		}
	}
}

static void fmt_ns(char *buf, double ns)
{
	if (!(ns >= 0) || isinf(ns))
		snprintf(buf, CALVIN_DUR_LEN, "-");
	else
		calvin_fmt_ns(buf, (uint64_t)llround(ns));
}

void calvin_bench_fmt_ci_ns(char *buf, size_t len, const struct calvin_ci *ci)
{
	char e[CALVIN_DUR_LEN], lo[CALVIN_DUR_LEN], hi[CALVIN_DUR_LEN];

	fmt_ns(e, ci->estimate);
	fmt_ns(lo, ci->lo);
	fmt_ns(hi, ci->hi);
	snprintf(buf, len, "%s [%s, %s]", e, lo, hi);
}

void calvin_bench_fmt_ci_ratio(char *buf, size_t len, const struct calvin_ci *ci, bool as_percent)
{
	double k = as_percent ? 100 : 1;
	const char *u = as_percent ? "%" : "";

	if (isnan(ci->estimate))
		snprintf(buf, len, "-");
	else if (as_percent && ci->estimate < -9)
		/* "-184295%" reads badly: 1843 times the reference's */
		snprintf(buf, len, "%.0fx as much [%.0fx, %.0fx]", 1 - ci->estimate, 1 - ci->hi,
			 1 - ci->lo);
	else if (as_percent)
		snprintf(buf, len, "%.0f%s [%.0f%s, %.0f%s]", k * ci->estimate, u, k * ci->lo, u,
			 k * ci->hi, u);
	else
		snprintf(buf, len, "%.2f [%.2f, %.2f]", ci->estimate, ci->lo, ci->hi);
}

/* The bootstrap of one series: blocks for samples in time order. */
static struct calvin_bootstrap boot_of(const struct calvin_bootstrap *b,
				       const struct calvin_bench_series *s)
{
	struct calvin_bootstrap r = *b;

	if (!s->ordered)
		r.block = 1;
	return r;
}

static void cell_ci(FILE *f, const struct calvin_bootstrap *b, const struct calvin_bench_series *s,
		    enum calvin_stat st)
{
	struct calvin_bootstrap bb = boot_of(b, s);
	struct calvin_ci ci;
	char buf[96];

	if (calvin_bootstrap_ci(&bb, st, s->v, s->n, &ci))
		snprintf(buf, sizeof(buf), "-");
	else
		calvin_bench_fmt_ci_ns(buf, sizeof(buf), &ci);
	fprintf(f, " %s |", buf);
}

/* One comparison cell: ratio of st to the ref's, or 1 - that. */
static void cell_cmp(FILE *f, const struct calvin_bootstrap *b, const struct calvin_bench_series *s,
		     const struct calvin_bench_series *ref, enum calvin_stat st,
		     enum calvin_bench_compare cmp)
{
	struct calvin_bootstrap bb = boot_of(b, s);
	struct calvin_ci ci;
	char buf[96];
	int err;

	if (cmp == CALVIN_BENCH_RATIO)
		err = calvin_bootstrap_ratio(&bb, st, s->v, s->n, ref->v, ref->n, &ci);
	else
		err = calvin_variability_reduction(&bb, st, s->v, s->n, ref->v, ref->n, &ci);
	if (err)
		snprintf(buf, sizeof(buf), "-");
	else
		calvin_bench_fmt_ci_ratio(buf, sizeof(buf), &ci, cmp == CALVIN_BENCH_REDUCTION);
	fprintf(f, " %s |", buf);
}

static void table_head(FILE *f, enum calvin_bench_compare cmp, const struct calvin_bootstrap *b)
{
	int pct = (int)lround(b->level * 100);

	fprintf(f,
		"| configuration | samples | lost | p50 [%d%% CI] | p99 [%d%% CI] | p99.9 | max "
		"| jitter p99-p50 [%d%% CI] | stddev [%d%% CI] | compared with | %s | %s |\n"
		"|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|\n",
		pct, pct, pct, pct, cmp == CALVIN_BENCH_RATIO ? "p50 ratio" : "jitter reduction",
		cmp == CALVIN_BENCH_RATIO ? "p99 ratio" : "stddev reduction");
}

static int table_row(FILE *f, const struct calvin_bench_series *all, size_t i,
		     enum calvin_bench_compare cmp, const struct calvin_bootstrap *b)
{
	const struct calvin_bench_series *s = &all[i], *ref = NULL;
	char p999[CALVIN_DUR_LEN], max[CALVIN_DUR_LEN], lost[48];
	struct calvin_summary sum;
	double *scratch;

	scratch = malloc(s->n * sizeof(*scratch));
	if (!scratch)
		return -ENOMEM;
	calvin_summarize(s->v, s->n, scratch, &sum);
	free(scratch);
	if (s->ref >= 0 && (size_t)s->ref != i && all[s->ref].n)
		ref = &all[s->ref];
	fmt_ns(p999, sum.p999);
	fmt_ns(max, sum.max);
	if (s->sent)
		snprintf(lost, sizeof(lost), "%" PRIu64 "/%" PRIu64, s->lost, s->sent);
	else
		snprintf(lost, sizeof(lost), "-");
	fprintf(f, "| %s | %zu | %s |", s->label, s->n, lost);
	cell_ci(f, b, s, CALVIN_STAT_P50);
	cell_ci(f, b, s, CALVIN_STAT_P99);
	fprintf(f, " %s | %s |", p999, max);
	cell_ci(f, b, s, CALVIN_STAT_JITTER);
	cell_ci(f, b, s, CALVIN_STAT_STDDEV);
	if (!ref) {
		fputs(" - | - | - |\n", f);
		return 0;
	}
	fprintf(f, " %s |", ref->label);
	cell_cmp(f, b, s, ref, cmp == CALVIN_BENCH_RATIO ? CALVIN_STAT_P50 : CALVIN_STAT_JITTER,
		 cmp);
	cell_cmp(f, b, s, ref, cmp == CALVIN_BENCH_RATIO ? CALVIN_STAT_P99 : CALVIN_STAT_STDDEV,
		 cmp);
	fputc('\n', f);
	return 0;
}

int calvin_bench_latency_table(FILE *f, const struct calvin_bench_series *s, size_t n,
			       enum calvin_bench_compare cmp, const struct calvin_bootstrap *b)
{
	size_t i;
	int err;

	table_head(f, cmp, b);
	for (i = 0; i < n; i++) {
		if (!s[i].n) {
			fprintf(
			    f,
			    "| %s | 0 | %s | not measured: %s | - | - | - | - | - | - | - | - |\n",
			    s[i].label, s[i].sent ? "all" : "-",
			    s[i].why[0] ? s[i].why : "no samples");
			continue;
		}
		err = table_row(f, s, i, cmp, b);
		if (err)
			return err;
	}
	return 0;
}
