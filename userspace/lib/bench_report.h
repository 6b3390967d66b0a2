/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* `calvin bench` reports: the samples of each configuration, the CSV they
 * are kept in, the Markdown tables with bootstrap intervals (stats.h), and
 * the gnuplot script that draws them. Pure code: numbers and streams in,
 * text out; the controller measures, opens the files and runs gnuplot.
 *
 * samples.csv, one row per sample (or per run of equal samples, in order),
 *
 *   config,round,metric,value_ns,count
 *
 * e.g. "pinned-stress,2,rtt,10875,1": configuration, the round it was
 * measured in (from 1), what was measured, the value and how many samples
 * had it (a histogram bucket of cyclictest's, 1 for a probe). */
#ifndef CALVIN_LIB_BENCH_REPORT_H
#define CALVIN_LIB_BENCH_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"

#define CALVIN_BENCH_KEY_MAX 48
#define CALVIN_BENCH_LABEL_MAX 96
#define CALVIN_BENCH_WHY_MAX 192

/* The samples of one metric of one configuration, pooled over rounds, in
 * the order they were taken. */
struct calvin_bench_series {
	char config[CALVIN_BENCH_KEY_MAX];  /* [a-z0-9-]+: CSV and gnuplot key */
	char label[CALVIN_BENCH_LABEL_MAX]; /* for people */
	char metric[24];		    /* "rtt", "sockperf-rtt", "wakeup" */
	double *v;			    /* ns */
	uint16_t *round;
	size_t n, cap;
	uint64_t sent, lost; /* what a probe sent and did not get back; 0: n/a */
	/* -1, or the series the comparison columns of the tables measure
	 * this one against (baseline: the conventional stack; pinning: shared
	 * placement under the same load) */
	int ref;
	/* samples are in time order (probes): bootstrap by blocks; false for
	 * samples made from a histogram, whose order says nothing */
	bool ordered;
	/* why it has no samples, for "not measured: WHY" where its figures
	 * would be ("": no samples, no reason known) */
	char why[CALVIN_BENCH_WHY_MAX];
};

/* Set up an empty series; the strings are copied (cut to fit). */
void calvin_bench_series_init(struct calvin_bench_series *s, const char *config, const char *label,
			      const char *metric);
/* Append one sample of round r; 0 or -ENOMEM. */
int calvin_bench_series_add(struct calvin_bench_series *s, double v_ns, unsigned int r);
void calvin_bench_series_free(struct calvin_bench_series *s);
/* Why s could not be measured (printf-style; the first reason stays). */
void calvin_bench_series_why(struct calvin_bench_series *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* samples.csv of n series: the header, then the rows. */
void calvin_bench_csv(FILE *f, const struct calvin_bench_series *s, size_t n);

/* How the comparison columns read. */
enum calvin_bench_compare {
	CALVIN_BENCH_RATIO,	/* p50 and p99 of the series / of its ref */
	CALVIN_BENCH_REDUCTION, /* 1 - jitter / ref's, 1 - stddev / ref's */
};

/* The latency table: one row per series: n, lost, p50 and p99 with their
 * intervals, p99.9, max, jitter (p99 - p50) and standard deviation with
 * intervals, and the comparison against each row's ref. The bootstrap's
 * block is used for ordered series, 1 for the others. A series without
 * samples says "not measured: WHY" where its p50 would be, and no figure.
 * Returns 0 or -ENOMEM. */
int calvin_bench_latency_table(FILE *f, const struct calvin_bench_series *s, size_t n,
			       enum calvin_bench_compare cmp, const struct calvin_bootstrap *b);

/* "12.3us [11.9, 12.8]": an estimate and its interval, durations in ns. */
void calvin_bench_fmt_ci_ns(char *buf, size_t len, const struct calvin_ci *ci);
/* "0.42 [0.31, 0.50]": a ratio; as_percent (a reduction): "42% [31%, 50%]",
 * or "12x as much [8x, 20x]" below -900%. */
void calvin_bench_fmt_ci_ratio(char *buf, size_t len, const struct calvin_ci *ci, bool as_percent);

/* Pictures: a gnuplot script (reading samples.csv in its directory) that
 * draws NAME-cdf (the CDF of each series, overlaid, log x) and NAME-box
 * (a box per series, side by side: p25-p75, p50, whiskers p1-p99, max),
 * each as PNG and SVG. Series without samples are left out. */
void calvin_bench_gnuplot(FILE *f, const char *name, const char *title,
			  const struct calvin_bench_series *s, size_t n);

/* What a report says about where and how it was measured. NULL strings
 * are left out. */
struct calvin_bench_meta {
	const char *mode;      /* "pinning" */
	const char *chain;     /* the chain's name */
	const char *date;      /* UTC, ISO 8601 */
	const char *command;   /* the command line */
	const char *host;      /* CPU model, cores, kernel */
	const char *isolation; /* isolated CPUs now, and by what */
	const char *accel;     /* the nodes: namespaces, or VMs under KVM/TCG */
	bool emulated;	       /* VMs under TCG: every figure carries the warning */
	unsigned int rounds;
	const char *settings; /* what each round did, one line */
	const char *load;     /* the load average at start and end */
};

/* Title, the machine, the settings; under TCG the warning first. */
void calvin_bench_md_header(FILE *f, const struct calvin_bench_meta *m);
/* The warning line a figure from VMs under TCG carries. */
extern const char calvin_bench_tcg_warning[];
/* A picture of the report: ![caption](NAME.svg), and a link to the PNG. */
void calvin_bench_md_picture(FILE *f, const char *name, const char *caption);

/* Published figures that belong beside a mode's results, as a Markdown
 * section ("" for a mode without). */
const char *calvin_bench_context(const char *mode);

#endif /* CALVIN_LIB_BENCH_REPORT_H */
