// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* `calvin bench` reports: the pictures' gnuplot script, the Markdown
 * header and pictures, and the published figures each mode is read
 * against (see bench_lib.h). */
#include <stdlib.h>
#include <string.h>

#include "bench/lib/bench_lib.h"

/* Points of a CDF at most; the tail (the last TAIL_POINTS samples) is
 * always drawn whole, since the tail is what these pictures are for. */
#define CDF_POINTS 1500
#define TAIL_POINTS 300

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double *sorted_copy(const struct calvin_bench_series *s)
{
	double *v = malloc((s->n ? s->n : 1) * sizeof(*v));

	if (!v)
		return NULL;
	memcpy(v, s->v, s->n * sizeof(*v));
	qsort(v, s->n, sizeof(*v), cmp_double);
	return v;
}

/* A label inside a gnuplot single-quoted string: no quote may end it. */
static void gp_label(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\'' ? '"' : *s, f);
}

/* The CDF of series i as an inline data block: "us fraction" rows. The
 * data sits in the script rather than read from samples.csv: a filter
 * on the CSV leaves gaps that gnuplot's cumulative smoothing restarts at. */
static void gp_cdf_data(FILE *f, const struct calvin_bench_series *s, size_t i, const double *v)
{
	size_t k, step = s->n > CDF_POINTS ? s->n / (CDF_POINTS - TAIL_POINTS) : 1;

	fprintf(f, "$cdf%zu << EOD\n", i);
	for (k = 0; k < s->n; k++)
		if (k % step == 0 || k + TAIL_POINTS >= s->n)
			fprintf(f, "%.4f %.6f\n", v[k] / 1e3, (double)(k + 1) / (double)s->n);
	fputs("EOD\n", f);
}

static void gp_box_data(FILE *f, const struct calvin_bench_series *s, size_t n, double **sorted)
{
	static const double q[] = { 0.01, 0.25, 0.5, 0.75, 0.99, 1 };
	unsigned int x = 0, j;
	size_t i;

	fputs("$box << EOD\n", f);
	for (i = 0; i < n; i++) {
		if (!s[i].n)
			continue;
		fprintf(f, "%u", ++x);
		for (j = 0; j < sizeof(q) / sizeof(q[0]); j++)
			fprintf(f, " %.4f", calvin_quantile(sorted[i], s[i].n, q[j]) / 1e3);
		fputc('\n', f);
	}
	fputs("EOD\n", f);
}

static void gp_cdf_plot(FILE *f, const char *name, const char *title,
			const struct calvin_bench_series *s, size_t n)
{
	bool first = true;
	size_t i;

	fprintf(f, "  set output '%s-cdf'.ext\n  reset\n  set title '", name);
	gp_label(f, title);
	fputs(": CDF'\n  set xlabel 'us (log scale)'; set ylabel 'fraction of samples'\n"
	      "  set logscale x; set grid; set key bottom right; set yrange [0:1]\n  plot ",
	      f);
	for (i = 0; i < n; i++) {
		if (!s[i].n)
			continue;
		fprintf(f, "%s$cdf%zu using 1:2 with lines lw 2 title '", first ? "" : ", \\\n    ",
			i);
		gp_label(f, s[i].label);
		fputc('\'', f);
		first = false;
	}
	fputc('\n', f);
}

static void gp_box_plot(FILE *f, const char *name, const char *title,
			const struct calvin_bench_series *s, size_t n)
{
	unsigned int x = 0;
	size_t i;

	fprintf(f, "  set output '%s-box'.ext\n  reset\n  set title \"", name);
	gp_label(f, title);
	fputs(" (us, log scale)\\nbox p25-p75, line p50, whiskers p1-p99, dot max\"\n"
	      "  set logscale y; set grid y; set boxwidth 0.5; set style fill solid 0.3\n"
	      "  set offsets 0, 0, graph 0.08, 0\n"
	      "  set xtics rotate by -25 nomirror; unset key\n  set xtics (",
	      f);
	for (i = 0; i < n; i++) {
		if (!s[i].n)
			continue;
		fprintf(f, "%s'", x ? ", " : "");
		gp_label(f, s[i].label);
		fprintf(f, "' %u", ++x);
	}
	fprintf(f,
		")\n  set xrange [0.5:%u.5]\n"
		"  plot $box using 1:3:2:6:5 with candlesticks whiskerbars lw 1.5, \\\n"
		"    $box using 1:4:4:4:4 with candlesticks lt -1 lw 2, \\\n"
		"    $box using 1:7 with points pt 7 ps 0.6\n",
		x);
}

void calvin_bench_gnuplot(FILE *f, const char *name, const char *title,
			  const struct calvin_bench_series *s, size_t n)
{
	double **sorted = calloc(n ? n : 1, sizeof(*sorted));
	size_t i, shown = 0;

	fprintf(f, "# %s: run 'gnuplot %s.gp' in this directory\n", name, name);
	for (i = 0; sorted && i < n; i++) {
		if (!s[i].n)
			continue;
		sorted[i] = sorted_copy(&s[i]);
		if (!sorted[i])
			goto out;
		gp_cdf_data(f, &s[i], i, sorted[i]);
		shown++;
	}
	if (!sorted || !shown)
		goto out;
	gp_box_data(f, s, n, sorted);
	fputs("do for [t = 1:2] {\n"
	      "  if (t == 1) { set terminal pngcairo size 960,600 noenhanced; ext = '.png' }"
	      " else { set terminal svg size 960,600 noenhanced dynamic; ext = '.svg' }\n",
	      f);
	gp_cdf_plot(f, name, title, s, n);
	gp_box_plot(f, name, title, s, n);
	fputs("}\n", f);
out:
	for (i = 0; sorted && i < n; i++)
		free(sorted[i]);
	free(sorted);
}

const char calvin_bench_tcg_warning[] =
    "**Timings are emulated**: the VMs ran under TCG (qemu's emulator, no KVM), so every "
    "VM figure is the emulator's, several times slower than hardware and noisier; they "
    "show how the configurations compare here, not what a VM costs on a KVM host.";

void calvin_bench_md_header(FILE *f, const struct calvin_bench_meta *m)
{
	fprintf(f, "# calvin bench %s: chain %s\n\n", m->mode, m->chain);
	if (m->emulated)
		fprintf(f, "%s\n\n", calvin_bench_tcg_warning);
	if (m->date)
		fprintf(f, "- Date: %s\n", m->date);
	if (m->command)
		fprintf(f, "- Command: `%s`\n", m->command);
	if (m->host)
		fprintf(f, "- Machine: %s\n", m->host);
	if (m->isolation)
		fprintf(f, "- Isolation: %s\n", m->isolation);
	if (m->accel)
		fprintf(f, "- Nodes: %s\n", m->accel);
	if (m->load)
		fprintf(f, "- Load average: %s\n", m->load);
	fprintf(f, "- Rounds: %u, the configurations alternating within each round%s%s\n\n",
		m->rounds, m->settings ? "; " : "", m->settings ? m->settings : "");
}

void calvin_bench_md_picture(FILE *f, const char *name, const char *caption)
{
	fprintf(f, "![%s](%s.svg)\n\n(%s: [PNG](%s.png), [SVG](%s.svg))\n\n", caption, name,
		caption, name, name);
}

static const struct {
	const char *mode, *text;
} contexts[] = {
	{ "pinning",
	  "## Context: published figures\n\n"
	  "- CPU affinity cut the throughput variability of virtual base-band units by up to "
	  "40% (Ocampo et al., Sensors 2024).\n"
	  "- cyclictest's worst-case wake-up latency under interference: 104 us on a vanilla "
	  "kernel, 48 us with PREEMPT_RT, 12 us with isolation fixes (arXiv 2412.18104).\n"
	  "- OPNFV's tuned KVM guests reached a 15 us maximum timer latency.\n\n"
	  "Those are other machines and other workloads: read them as the size of effect to "
	  "expect, not as targets this machine must meet.\n\n" },
	{ "wakeup",
	  "## Context: published figures\n\n"
	  "- cyclictest's worst-case wake-up latency under interference: 104 us on a vanilla "
	  "kernel, 48 us with PREEMPT_RT, 12 us with isolation fixes (arXiv 2412.18104).\n"
	  "- OPNFV's tuned KVM guests reached a 15 us maximum timer latency.\n"
	  "- CPU affinity cut the throughput variability of virtual base-band units by up to "
	  "40% (Ocampo et al., Sensors 2024).\n\n" },
	{ "baseline",
	  "## Context: published figures\n\n"
	  "- CALVIN (Xiang et al., IEEE JSAC 2019) measured a 0.32 ms median RTT through two "
	  "forwarding VNFs and a server, VMs on a physical network: not directly comparable "
	  "with veths on one host.\n\n" },
	{ "throughput",
	  "## Context: published and earlier figures\n\n"
	  "- CALVIN measured 1.5 Mbit/s in latency mode (burst 1).\n"
	  "- Tried on this machine before, iperf3 through chains/tactile-fwd.yaml: TCP 0.98 "
	  "Gbit/s, against 3.54 Gbit/s through a Linux-forwarding chain of the same shape with "
	  "offloads off (16.6 Gbit/s with GSO); 1400-byte UDP datagrams at 500 Mbit/s lost "
	  "1.3% through calvin and 0.26% through Linux.\n\n" },
};

const char *calvin_bench_context(const char *mode)
{
	size_t i;

	for (i = 0; i < sizeof(contexts) / sizeof(contexts[0]); i++)
		if (!strcmp(contexts[i].mode, mode))
			return contexts[i].text;
	return "";
}
