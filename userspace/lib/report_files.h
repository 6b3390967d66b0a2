/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* A probe report as files people can look at (`calvin probe -o DIR`): the
 * per-probe samples as CSV, the report as Markdown, and the gnuplot script
 * that draws its pictures. Pure code: streams in, streams out; the caller
 * opens the files and runs gnuplot.
 *
 * samples.csv has one row per probe that came back, in arrival order:
 *
 *   seq,tx_ns,rx_ns,rtt_ns,hops,res_0,...,res_{N-1},link_0,...,link_N
 *
 * where N is the number of positions on the chain's path (each VNF once
 * each way), res_i the residence time at position i and link_i the time
 * from the previous position's t_out (the probe's send for i = 0) to
 * position i's t_in (link_N: to the probe's receive). A cell is empty
 * where a probe took another path or a link cannot be measured (clock
 * domains differ). tx_ns and rx_ns are on the hops' clock (CLOCK_MONOTONIC
 * of the host). The second line of the file is a comment naming the
 * positions and links. */
#ifndef CALVIN_LIB_REPORT_FILES_H
#define CALVIN_LIB_REPORT_FILES_H

#include <stdio.h>

#include "chainspec.h"
#include "probe_stats.h"

/* Convert the probe's raw records (probe.h: seq tx rx nhops [vnf dir t_in
 * t_out]...) to samples.csv. Returns the number of rows written, or
 * -EINVAL at the first line that does not parse. */
long calvin_raw_to_csv(FILE *raw, FILE *csv, const struct calvin_chain_spec *spec,
		       const struct calvin_probe_result *r);

/* What the Markdown report says about where and how it was measured;
 * strings may be NULL (then left out). */
struct calvin_report_meta {
	const char *date; /* UTC, ISO 8601 */
	const char *host; /* e.g. "2 CPUs, AMD EPYC 7B13, Linux 6.18" */
	const char *placement; /* what the plan did, one line */
	const char *command; /* the command line that made it */
	const char *accel_warning; /* e.g. timings emulated under TCG */
	int pictures; /* 1 when gnuplot drew them, 0: say it did not */
};

/* The report: summary, verdict, tables of RTT, hops and links, counts,
 * the pictures (rtt-cdf.svg, residence.svg, links.svg) and what each file
 * of the directory holds. */
void calvin_report_markdown(FILE *f, const struct calvin_chain_spec *spec,
			    const struct calvin_probe_result *r,
			    const struct calvin_report_meta *meta);

/* A gnuplot script reading samples.csv (in the current directory) that
 * draws rtt-cdf, residence and links as PNG and SVG: the RTT CDF with the
 * budget as a vertical line, residence and link times per hop as box
 * plots side by side. */
void calvin_report_gnuplot(FILE *f, const struct calvin_chain_spec *spec,
			   const struct calvin_probe_result *r);

#endif /* CALVIN_LIB_REPORT_FILES_H */
