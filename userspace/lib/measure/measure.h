/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* What a probe measures and what is made of it: the telemetry block the
 * probe carries and every VNF stamps (telemetry.c), the latency histogram
 * (histogram.c), the accounting of each reply (probe_stats.c), and the
 * report: text and JSON (report.c), its verdict and building blocks
 * (report_verdict.c), its notes (report_notes.c) and its files
 * (report_files.c). Pure code. */
#ifndef CALVIN_LIB_MEASURE_H
#define CALVIN_LIB_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <calvin/telemetry.h>

#include "plan/plan.h"
#include "spec/spec.h"

/* ==== telemetry.c ==== */

/* Encoder and decoder of the probe telemetry block (include/calvin/telemetry.h),
 * for the probe and the DPDK VNFs. Pure code: no I/O, no allocation. */

/* One hop record in host byte order. On the wire the record holds t_in
 * and the residence t_out - t_in; t_out is t_in + residence, so a
 * residence of CALVIN_TLM_RESIDENCE_MAX reads "at least 4.29 s". */
struct calvin_hop {
	uint8_t vnf_id;
	uint8_t space;
	uint8_t clock;
	uint8_t dir;
	uint64_t t_in;
	uint64_t t_out;
};

/* A decoded telemetry block in host byte order. */
struct calvin_tlm {
	uint8_t version;
	uint8_t max_hops;
	uint8_t nr_hops;
	uint8_t flags;
	uint32_t seq;
	uint32_t session;
	struct calvin_hop hops[CALVIN_TLM_MAX_HOPS];
};

/* Write an empty block with room for max_hops records at buf.
 * Returns the block length, or -EMSGSIZE if len is too short, -EINVAL if
 * max_hops is 0 or above CALVIN_TLM_MAX_HOPS. */
int calvin_tlm_init(void *buf, size_t len, uint8_t max_hops, uint32_t seq, uint32_t session);

/* Decode the block at buf. Returns 0, or -EMSGSIZE (buffer shorter than the
 * block claims), -EBADMSG (not a telemetry block: bad magic), -EPROTONOSUPPORT
 * (another version: version 1 included), -EINVAL (inconsistent counts,
 * unknown flags, a filled record with a space or direction this version
 * does not have, or whose t_in + residence does not fit 64 bits). */
int calvin_tlm_decode(const void *buf, size_t len, struct calvin_tlm *out);

/* Append a hop record to the block at buf, in place. Returns the slot index,
 * or -ENOSPC when every pre-sized record is taken (the overflow flag is then
 * set in the block), or the error calvin_tlm_decode() gives the header (the
 * records there are not read: a VNF needs only the next free one); -EINVAL
 * too for a hop this version cannot carry (space or direction unknown,
 * t_out before t_in). On an error other than -ENOSPC the block is left as
 * it was. A residence above 32 bits of ns is written as
 * CALVIN_TLM_RESIDENCE_MAX. */
int calvin_tlm_push_hop(void *buf, size_t len, const struct calvin_hop *hop);

/* Close the record that this hop's hand-over program opened (see
 * kernel/handover.bpf.c): the last record filled, with hop's vnf_id, space,
 * clock and dir, and residence 0. Sets its residence to hop->t_out minus
 * the t_in the program read (at least 1 ns) and returns its slot. -ENOENT if there is no such
 * record (the caller then pushes one of its own), or a decode error as
 * above; the block is unchanged then. */
int calvin_tlm_close_hop(void *buf, size_t len, const struct calvin_hop *hop);

/* The length of the block at buf (header and every pre-sized record) if
 * its header is one this version reads and the block fits in len; 0 if
 * not. For VNFs that must leave the block alone while they transform what
 * follows it. */
size_t calvin_tlm_block_len(const void *buf, size_t len);

/* Why calvin_tlm_decode(buf, len) returned err, in words, into why:
 * "telemetry version 1 (24-byte hop records) ...". */
void calvin_tlm_why(const void *buf, size_t len, int err, char *why, size_t size);

/* ==== histogram.c ==== */

/* Log-linear latency histogram with bounded relative error.
 *
 * Values are unsigned 64-bit (nanoseconds, in calvin). Values below
 * 2^CALVIN_HIST_SUB_BITS are counted exactly; above that, each power-of-two
 * range [2^k, 2^(k+1)) is split into 2^(CALVIN_HIST_SUB_BITS-1) equal
 * buckets, so a bucket's width is at most 2^-(CALVIN_HIST_SUB_BITS-1) of its
 * lower bound. A percentile is reported as the midpoint of its bucket
 * (clamped to the observed min and max), so its relative error is at most
 * half a bucket: 2^-CALVIN_HIST_SUB_BITS (0.39% with 8 sub-bits).
 *
 * Adding a value is O(1) with no allocation: safe in a hot loop. Pure code.
 */

#define CALVIN_HIST_SUB_BITS 8
#define CALVIN_HIST_SUB_COUNT (1u << CALVIN_HIST_SUB_BITS)
#define CALVIN_HIST_HALF_COUNT (CALVIN_HIST_SUB_COUNT / 2)
/* exact range, then one group of HALF_COUNT buckets per remaining power of two */
#define CALVIN_HIST_BUCKETS                                                                        \
	(CALVIN_HIST_SUB_COUNT + (64 - CALVIN_HIST_SUB_BITS) * CALVIN_HIST_HALF_COUNT)

struct calvin_hist {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	long double sum; /* for the mean; long double keeps ns sums exact enough */
	uint64_t buckets[CALVIN_HIST_BUCKETS];
};

void calvin_hist_init(struct calvin_hist *h);
void calvin_hist_add(struct calvin_hist *h, uint64_t v);
/* Add every value of src to dst. */
void calvin_hist_merge(struct calvin_hist *dst, const struct calvin_hist *src);
/* The value below which p percent of the values lie (p in [0, 100]);
 * 0 for an empty histogram. p = 100 gives the exact max, p = 0 the exact min. */
uint64_t calvin_hist_percentile(const struct calvin_hist *h, double p);
double calvin_hist_mean(const struct calvin_hist *h);

/* Bucket index of v, and the [lo, hi] range of values that bucket holds
 * (exposed for tests and for exporting the raw histogram). */
unsigned int calvin_hist_bucket(uint64_t v);
void calvin_hist_bucket_range(unsigned int b, uint64_t *lo, uint64_t *hi);

/* ==== probe_stats.c ==== */

/* Probe results and the per-reply accounting that fills them. Pure code.
 *
 * Times: the probe's own send/receive times are kernel software timestamps,
 * which are CLOCK_REALTIME; hop records carry host CLOCK_MONOTONIC. The
 * accounting subtracts a measured offset (REALTIME - MONOTONIC) to compare
 * the two; the run checks afterwards that the offset did not move (a clock
 * step) and throws the probe<->first/last hop links away if it did. */

/* How far the REALTIME - MONOTONIC offset may move between the start and
 * the end of a run (beyond its measurement uncertainty) before we call it a
 * clock step and refuse the probe<->hop links. */
#define CALVIN_PROBE_STEP_MAX_NS 5000

/* calvin_probe_result.ts_source */
#define CALVIN_TS_KERNEL "kernel software timestamps (SO_TIMESTAMPING)"
#define CALVIN_TS_USER "user-space clock_gettime (no kernel timestamps)"

/* One position along the path: the i-th hop record of a reply. */
struct calvin_probe_pos {
	uint16_t vnf_id;
	uint8_t dir;   /* CALVIN_DIR_* */
	uint8_t space; /* CALVIN_SPACE_* */
	uint8_t clock; /* CALVIN_CLOCK_* */
	/* the link into this position crosses the server (first REV after a FWD) */
	bool via_server;
	/* the link into this position is measurable: same clock domain as the
	 * previous position (or, for position 0, the host clock) */
	bool link_in_valid;
	struct calvin_hist residence; /* t_out - t_in */
	/* previous position's t_out (probe send time for position 0) -> t_in */
	struct calvin_hist link_in;
};

struct calvin_probe_result {
	/* what was asked */
	unsigned int count, rate, size;
	enum calvin_probe_mode mode;
	uint8_t max_hops;
	uint32_t session;
	uint64_t elapsed_ns; /* wall time of the run */
	bool interrupted;    /* a signal ended the run early; counts are partial */

	/* where the probe's times came from */
	const char *ts_source;
	/* what the nodes are, when the report must say it (VMs under an
	 * emulator: timings are emulated); NULL: nothing to say */
	const char *platform;
	uint64_t tx_fallback; /* unique replies whose send time is user space */
	uint64_t rx_fallback; /* unique replies whose receive time is user space */

	/* REALTIME - MONOTONIC at start, its uncertainty (worst of start and end
	 * readings) and how far it moved by the end */
	int64_t offset_ns;
	uint64_t offset_unc_ns;
	int64_t offset_step_ns;
	bool end_links_valid; /* false after a clock step: probe<->hop links dropped */

	/* counts */
	uint64_t sent;
	uint64_t send_errors; /* sends the kernel refused (not counted as sent) */
	uint64_t received;    /* unique sequence numbers that came back */
	uint64_t lost;	      /* sent - received */
	uint64_t duplicates;
	uint64_t reordered;		 /* seq lower than the highest seen so far */
	uint64_t bad_replies;		 /* did not decode, or a seq never sent */
	char bad_why[160];		 /* why the first bad reply was; "" if none */
	uint64_t corrupt;		 /* application bytes or length not as sent */
	uint64_t foreign;		 /* another session's replies (ignored) */
	uint64_t overflow;		 /* overflow flag set by a VNF */
	uint64_t misordered;		 /* timestamps not non-decreasing along the path */
	uint64_t path_mismatch;		 /* path differs from the first good reply's */
	unsigned int hops_min, hops_max; /* hop records per unique reply */

	/* statistics, all in ns */
	struct calvin_hist rtt;
	bool path_known;
	unsigned int nr_pos;
	struct calvin_probe_pos pos[CALVIN_TLM_MAX_HOPS];
	struct calvin_hist link_out; /* last position's t_out -> probe receive */
	bool link_out_valid;

	/* what the chain's plan gave less than it asked for (its record),
	 * for the report to say beside the verdict */
	unsigned int nr_degraded;
	struct calvin_degraded degraded[CALVIN_MAX_VNFS];
};

/* The result is about 8 MB (histograms): allocate it, do not put it on the
 * stack. new() returns an initialised result or NULL. */
struct calvin_probe_result *calvin_probe_result_new(void);
void calvin_probe_result_free(struct calvin_probe_result *r);
void calvin_probe_result_init(struct calvin_probe_result *r);

/* Accounting state of one run: which sequence numbers came back. */
struct calvin_probe_acct {
	struct calvin_probe_result *r;
	unsigned int count; /* sequence numbers 0..count-1 are valid */
	uint8_t *seen;	    /* bitmap of count bits */
	bool any;	    /* a reply was counted; highest is meaningful */
	uint32_t highest;
	int64_t offset_ns; /* REALTIME - MONOTONIC used to convert probe times */
};

/* Flags for calvin_probe_account(): which probe times are user space. */
#define CALVIN_ACCT_TX_USER 0x1
#define CALVIN_ACCT_RX_USER 0x2

/* Returns 0 or -ENOMEM. */
int calvin_probe_acct_init(struct calvin_probe_acct *a, struct calvin_probe_result *r,
			   unsigned int count, int64_t offset_ns);
void calvin_probe_acct_free(struct calvin_probe_acct *a);

/* Account one decoded reply of this session. tx_real and rx_real are the
 * probe's send and receive times (CLOCK_REALTIME ns); flags say which came
 * from user space. Returns 0 for a new probe, 1 for a duplicate, -EINVAL
 * for a sequence number out of range (counted as a bad reply). */
int calvin_probe_account(struct calvin_probe_acct *a, uint64_t tx_real, uint64_t rx_real,
			 const struct calvin_tlm *t, unsigned int flags);

/* Close the books: lost count, and the clock-step check given the offset
 * read at the end (and the uncertainty of both readings). */
void calvin_probe_finish(struct calvin_probe_acct *a, int64_t offset_end_ns, uint64_t unc_ns);

/* ==== report.c, report_verdict.c, report_notes.c ==== */

/* Probe report: the result of a run as text or JSON, and the verdict. */

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

/* ==== report_files.c ==== */

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

#endif /* CALVIN_LIB_MEASURE_H */
