/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* `calvin bench throughput` reports: the no-drop rate (NDR) of each
 * configuration and frame size, round by round, the trials of its
 * searches, TCP goodput, and the verdict on throughput mode. Pure code:
 * numbers in, CSV, Markdown and gnuplot out. */
#ifndef CALVIN_LIB_BENCH_NDR_H
#define CALVIN_LIB_BENCH_NDR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench_report.h"

#define CALVIN_BENCH_MAX_ROUNDS 32
/* NFVbench's no-drop rate: loss at most 0.001% */
#define CALVIN_BENCH_NDR_LOSS 1e-5

/* One configuration at one frame size: its NDR in each round. */
struct calvin_bench_ndr {
	char config[CALVIN_BENCH_KEY_MAX];   /* "calvin-b32-64" */
	char label[CALVIN_BENCH_LABEL_MAX];  /* "calvin, burst 32" */
	char stack[16];			     /* "calvin", "linux": the verdict's sides */
	unsigned int burst;		     /* 0: not a calvin chain */
	unsigned int frame_size;	     /* bytes, FCS included */
	unsigned int nr;		     /* rounds measured */
	double ndr[CALVIN_BENCH_MAX_ROUNDS]; /* frames per second; 0: even the lowest rate lost */
	double ceiling[CALVIN_BENCH_MAX_ROUNDS]; /* the generator's own rate into it */
	/* the search's first trial, at the generator's ceiling, passed: the
	 * NDR is the generator's, a lower bound of the chain's */
	bool limited[CALVIN_BENCH_MAX_ROUNDS];
	char why[CALVIN_BENCH_WHY_MAX]; /* a round it was not measured in: why */
};

/* One trial of a search. */
struct calvin_bench_trial {
	unsigned int row;   /* index of its calvin_bench_ndr */
	unsigned int round; /* from 1 */
	double rate;	    /* asked for; 0: the generator's ceiling */
	double offered;	    /* what it sent, per second */
	uint64_t sent, received;
};

/* The median of the rounds' NDRs (0 when none). */
double calvin_bench_ndr_median(const struct calvin_bench_ndr *r);

/* trials.csv: config,frame_size,round,rate_pps,offered_pps,sent,received,loss */
void calvin_bench_trials_csv(FILE *f, const struct calvin_bench_ndr *rows,
			     const struct calvin_bench_trial *t, size_t nt);

/* The NDR table: per configuration and size, the median NDR in frames
 * and Mbit/s (wire bits of the frames), each round's, the generator's
 * ceiling, and the ratio to the conventional stack at the same size; "not
 * measured: WHY" for a row without rounds. */
void calvin_bench_ndr_table(FILE *f, const struct calvin_bench_ndr *rows, size_t n);

/* For each frame size: does calvin in throughput mode (the largest burst)
 * carry at least what the conventional stack carries (medians)? One list
 * item per size. */
void calvin_bench_ndr_verdict(FILE *f, const struct calvin_bench_ndr *rows, size_t n);

/* TCP goodput (iperf3), bits per second per round, per configuration. */
struct calvin_bench_tcp {
	char label[CALVIN_BENCH_LABEL_MAX];
	unsigned int nr;		     /* rounds measured */
	double bps[CALVIN_BENCH_MAX_ROUNDS]; /* theirs */
	unsigned int failed;		     /* rounds not measured, */
	char why[CALVIN_BENCH_WHY_MAX];	     /* and why (the first reason) */
};
void calvin_bench_tcp_csv(FILE *f, const struct calvin_bench_tcp *t, size_t n);
void calvin_bench_tcp_table(FILE *f, const struct calvin_bench_tcp *t, size_t n);

/* Pictures: throughput-ndr (median NDR per configuration and size, in
 * Mbit/s, with each round's as points) and throughput-loss (loss against
 * offered rate, every trial), as PNG and SVG. */
void calvin_bench_ndr_gnuplot(FILE *f, const struct calvin_bench_ndr *rows, size_t n,
			      const struct calvin_bench_trial *t, size_t nt);

#endif /* CALVIN_LIB_BENCH_NDR_H */
