/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Probe report: the result of a run as text or JSON, and the verdict. */
#ifndef CALVIN_REPORT_H
#define CALVIN_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "chainspec.h"
#include "probe_stats.h"

/* Human-readable report: RTT percentiles, a table of hops (residence) and
 * of links, counts, and the verdict line. */
void calvin_report_text(FILE *f, const struct calvin_chain_spec *spec,
			const struct calvin_probe_result *r);
/* The same content as one JSON object; times are integer nanoseconds.
 * The caller puts it (json_object_put); NULL when out of memory. */
struct json_object;
struct json_object *calvin_report_jobj(const struct calvin_chain_spec *spec,
				       const struct calvin_probe_result *r);
/* That object written to f as one indented document (report.json).
 * 0 or -errno. */
int calvin_report_json(FILE *f, const struct calvin_chain_spec *spec,
		       const struct calvin_probe_result *r);
/* 0 when the chain is within budget: p99 RTT <= spec->budget_ns (no
 * budget: not checked), no loss, and at least one reply; 1 otherwise. */
int calvin_verdict(const struct calvin_chain_spec *spec, const struct calvin_probe_result *r);

/* Building blocks, exposed for tests. */
#define CALVIN_DUR_LEN 24
#define CALVIN_VERDICT_LEN 160
#define CALVIN_LABEL_LEN 96
/* "fwd-k (kernel)         ->": position i of the path, padded to line up */
void calvin_report_hop_label(const struct calvin_chain_spec *spec,
			     const struct calvin_probe_result *r, unsigned int i, char *buf);
/* "fwd-u -> server -> fwd-u": link i, into position i (nr_pos: to the probe) */
void calvin_report_link_label(const struct calvin_chain_spec *spec,
			      const struct calvin_probe_result *r, unsigned int i, char *buf);
/* ns as "12.3us"-style text in buf (CALVIN_DUR_LEN bytes); returns buf. */
const char *calvin_fmt_ns(char *buf, uint64_t ns);
/* NULL when link i (0: probe to first hop, nr_pos: last hop to probe) can be
 * measured, else why not. */
const char *calvin_link_invalid(const struct calvin_probe_result *r, unsigned int i);
/* The verdict line into buf; returns what calvin_verdict() returns. */
int calvin_verdict_text(const struct calvin_chain_spec *spec, const struct calvin_probe_result *r,
			char *buf, size_t len);

/* ---- notes after the verdict (report_notes.c) ---- */

/* The hop or link whose p99 is the largest part of the p99 RTT: where a
 * chain that misses its budget spends it. */
struct calvin_share {
	bool link;		      /* a link; else a hop's residence */
	char label[CALVIN_LABEL_LEN]; /* "fwd-u (user) ->", "fwd-u -> server -> fwd-u" */
	uint64_t p99_ns;	      /* its p99 */
	uint64_t rtt_p99_ns;	      /* the p99 RTT */
};
/* 0 and *out, or -ENOENT when no reply or no hop or link was measured. */
int calvin_report_largest_share(const struct calvin_chain_spec *spec,
				const struct calvin_probe_result *r, struct calvin_share *out);
/* "link fwd-u -> server -> fwd-u: p99 8.35us, 39% of the p99 RTT 21.2us" */
void calvin_share_text(const struct calvin_share *s, char *buf, size_t len);
/* The lines after the verdict: the largest share when the chain is not
 * within budget, and one "placement: ..." line per VNF the plan
 * degraded. */
void calvin_report_notes_text(FILE *f, const struct calvin_chain_spec *spec,
			      const struct calvin_probe_result *r);
/* The same as members of the report's JSON object o: "largest_share"
 * ({"kind", "label", "p99_ns", "rtt_p99_ns"}) and "placement". */
void calvin_report_notes_jadd(struct json_object *o, const struct calvin_chain_spec *spec,
			      const struct calvin_probe_result *r);
/* The degraded VNFs as a JSON array: [{"vnf", "asked", "granted", "why"}]. */
struct json_object *calvin_degraded_jarr(const struct calvin_degraded *d, unsigned int n);

#endif /* CALVIN_REPORT_H */
