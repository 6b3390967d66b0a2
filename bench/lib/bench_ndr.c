// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* `calvin bench throughput` reports (see bench_lib.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench/lib/bench_lib.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, unsigned int n)
{
	double s[CALVIN_BENCH_MAX_ROUNDS];

	if (!n)
		return 0;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return calvin_quantile(s, n, 0.5);
}

double calvin_bench_ndr_median(const struct calvin_bench_ndr *r)
{
	return median(r->ndr, r->nr);
}

void calvin_bench_trials_csv(FILE *f, const struct calvin_bench_ndr *rows,
			     const struct calvin_bench_trial *t, size_t nt)
{
	size_t i;

	fputs("config,frame_size,round,rate_pps,offered_pps,sent,received,loss\n", f);
	for (i = 0; i < nt; i++)
		fprintf(f, "%s,%u,%u,%.0f,%.0f,%" PRIu64 ",%" PRIu64 ",%.8f\n",
			rows[t[i].row].config, rows[t[i].row].frame_size, t[i].round, t[i].rate,
			t[i].offered, t[i].sent, t[i].received,
			t[i].sent ? 1 - (double)t[i].received / (double)t[i].sent : 1);
}

/* The conventional stack's row at the same frame size, or -1. */
static int linux_row(const struct calvin_bench_ndr *rows, size_t n, unsigned int frame_size)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(rows[i].stack, "linux") && rows[i].frame_size == frame_size)
			return (int)i;
	return -1;
}

static void rounds_cell(FILE *f, const struct calvin_bench_ndr *r)
{
	unsigned int k;

	for (k = 0; k < r->nr; k++)
		fprintf(f, "%s%.0f%s", k ? ", " : " ", r->ndr[k], r->limited[k] ? "+" : "");
	fputs(" |", f);
}

void calvin_bench_ndr_table(FILE *f, const struct calvin_bench_ndr *rows, size_t n)
{
	double m, lm;
	size_t i;
	int l;

	fputs("| configuration | frame bytes | NDR frames/s (median) | Mbit/s | each round | "
	      "generator ceiling frames/s (median) | vs conventional stack |\n"
	      "|---|---:|---:|---:|---|---:|---:|\n",
	      f);
	for (i = 0; i < n; i++) {
		if (!rows[i].nr) {
			fprintf(f, "| %s | %u | not measured: %s | - | - | - | - |\n",
				rows[i].label, rows[i].frame_size,
				rows[i].why[0] ? rows[i].why : "no round");
			continue;
		}
		m = calvin_bench_ndr_median(&rows[i]);
		fprintf(f, "| %s | %u | %.0f | %.1f |", rows[i].label, rows[i].frame_size, m,
			calvin_gen_bps(m, rows[i].frame_size) / 1e6);
		rounds_cell(f, &rows[i]);
		fprintf(f, " %.0f |", median(rows[i].ceiling, rows[i].nr));
		l = linux_row(rows, n, rows[i].frame_size);
		lm = l >= 0 && rows[l].nr ? calvin_bench_ndr_median(&rows[l]) : 0;
		if (l < 0 || (size_t)l == i || lm <= 0)
			fputs(" - |\n", f);
		else
			fprintf(f, " %.2fx |\n", m / lm);
	}
	fputs("\n`+`: the search's first trial, at the generator's own ceiling, lost nothing: "
	      "that round's NDR is the generator's, and the chain's is at least that.\n",
	      f);
}

void calvin_bench_ndr_verdict(FILE *f, const struct calvin_bench_ndr *rows, size_t n)
{
	unsigned int best = 0;
	double c, lm;
	size_t i, j;
	int l;

	for (i = 0; i < n; i++)
		if (rows[i].burst > best)
			best = rows[i].burst;
	for (i = 0; i < n; i++) {
		if (!rows[i].burst || rows[i].burst != best)
			continue;
		l = linux_row(rows, n, rows[i].frame_size);
		if (l < 0)
			continue;
		if (!rows[i].nr || !rows[l].nr) {
			fprintf(f, "- %u-byte frames: not measured: %s\n", rows[i].frame_size,
				!rows[i].nr ? rows[i].why : rows[l].why);
			continue;
		}
		c = calvin_bench_ndr_median(&rows[i]);
		lm = calvin_bench_ndr_median(&rows[l]);
		for (j = 0; j < rows[i].nr && rows[i].limited[j]; j++)
			;
		fprintf(f,
			"- %u-byte frames: calvin in throughput mode (burst %u) carries %.0f "
			"frames/s, the conventional stack %.0f: **%s**%s\n",
			rows[i].frame_size, best, c, lm,
			c >= lm ? "yes, at least as much" : "no, less",
			rows[i].nr && j == rows[i].nr && c < lm
			    ? " (calvin's figure is the generator's ceiling, a lower bound)"
			    : "");
	}
}

void calvin_bench_tcp_csv(FILE *f, const struct calvin_bench_tcp *t, size_t n)
{
	unsigned int k;
	size_t i;

	fputs("config,round,bits_per_second\n", f);
	for (i = 0; i < n; i++)
		for (k = 0; k < t[i].nr; k++)
			fprintf(f, "%s,%u,%.0f\n", t[i].label, k + 1, t[i].bps[k]);
}

void calvin_bench_tcp_table(FILE *f, const struct calvin_bench_tcp *t, size_t n)
{
	unsigned int k;
	size_t i;

	fputs("| configuration | TCP goodput Gbit/s (median) | each round |\n|---|---:|---|\n", f);
	for (i = 0; i < n; i++) {
		if (!t[i].nr) {
			fprintf(f, "| %s | not measured: %s | - |\n", t[i].label,
				t[i].why[0] ? t[i].why : "no round");
			continue;
		}
		fprintf(f, "| %s | %.2f |", t[i].label, median(t[i].bps, t[i].nr) / 1e9);
		for (k = 0; k < t[i].nr; k++)
			fprintf(f, "%s%.2f", k ? ", " : " ", t[i].bps[k] / 1e9);
		if (t[i].failed)
			fprintf(f, "; %u not measured: %s", t[i].failed, t[i].why);
		fputs(" |\n", f);
	}
}

static void gp_label(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\'' ? '"' : *s, f);
}

void calvin_bench_ndr_gnuplot(FILE *f, const struct calvin_bench_ndr *rows, size_t n,
			      const struct calvin_bench_trial *t, size_t nt)
{
	unsigned int k;
	size_t i, j;

	fputs("$ndr << EOD\n", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%zu %.3f\n", i + 1,
			calvin_gen_bps(calvin_bench_ndr_median(&rows[i]), rows[i].frame_size) /
			    1e6);
	fputs("EOD\n$ndr_rounds << EOD\n", f);
	for (i = 0; i < n; i++)
		for (k = 0; k < rows[i].nr; k++)
			fprintf(f, "%zu %.3f\n", i + 1,
				calvin_gen_bps(rows[i].ndr[k], rows[i].frame_size) / 1e6);
	fputs("EOD\n", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "$trials%zu << EOD\n", i);
		for (j = 0; j < nt; j++)
			if (t[j].row == i && t[j].sent)
				fprintf(f, "%.0f %.8f\n", t[j].offered,
					1 - (double)t[j].received / (double)t[j].sent + 1e-7);
		fputs("EOD\n", f);
	}
	fputs("do for [t = 1:2] {\n"
	      "  if (t == 1) { set terminal pngcairo size 960,600 noenhanced; ext = '.png' }"
	      " else { set terminal svg size 960,600 noenhanced dynamic; ext = '.svg' }\n"
	      "  set output 'throughput-ndr'.ext\n  reset\n"
	      "  set title 'No-drop rate (loss <= 0.001%), Mbit/s of frames (log scale)'\n"
	      "  set logscale y; set grid y; set boxwidth 0.6; set style fill solid 0.4\n"
	      "  set xtics rotate by -25 nomirror; unset key\n  set xtics (",
	      f);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s'", i ? ", " : "");
		gp_label(f, rows[i].label);
		fprintf(f, ", %u B' %zu", rows[i].frame_size, i + 1);
	}
	fprintf(f,
		")\n  set xrange [0.5:%zu.5]\n"
		"  plot $ndr using 1:($2 > 0 ? $2 : 1/0) with boxes, $ndr_rounds using 1:($2 > 0 "
		"? $2 : 1/0) with points pt 7 ps 0.8\n"
		"  set output 'throughput-loss'.ext\n  reset\n"
		"  set title 'Loss against offered rate, every trial (loss + 1e-7, log scales)'\n"
		"  set logscale xy; set grid; set key outside right\n"
		"  set xlabel 'offered frames/s'; set ylabel 'loss ratio'\n  plot ",
		n);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s$trials%zu using 1:2 with points pt 7 ps 0.7 title '",
			i ? ", \\\n    " : "", i);
		gp_label(f, rows[i].label);
		fprintf(f, ", %u B'", rows[i].frame_size);
	}
	fputs("\n}\n", f);
}
