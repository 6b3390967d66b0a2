/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The pure code of the benchmarks (`calvin bench`, calvin-relay): their
 * statistics (stats.c), reports (bench_report.c, bench_plot.c,
 * bench_ndr.c), what third-party tools print (bench_tools.c,
 * cyclictest.c), the throughput generator's frames (gen_frame.c), the
 * conventional stack calvin is measured against (stack_plan.c,
 * relay_flows.c) and variants of a chain spec (spec_variant.c). No I/O;
 * tested in tests/unit/bench/. */
#ifndef CALVIN_BENCH_LIB_H
#define CALVIN_BENCH_LIB_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spec/spec.h"

/* ==== stats.c ==== */

/* Statistics of the benchmarks: exact quantiles of samples, summaries,
 * bootstrap confidence intervals, variability reduction between two
 * configurations, and the no-drop-rate search. Pure code: samples in,
 * numbers out, no I/O; every random choice comes from a seeded generator,
 * so a report can be recomputed from its CSV.
 *
 * Why a bootstrap by blocks: latency samples taken one after another are
 * not independent (a slow period makes several slow probes in a row), so
 * resampling single samples understates the uncertainty. Resampling runs
 * of consecutive samples keeps that dependence; a block of 1 is the
 * ordinary bootstrap. Blocks wrap around from the last sample to the
 * first (the circular block bootstrap), so a resample weighs every sample
 * alike, as the estimate does: the percentile interval is then one of the
 * statistic as the estimate defines it, and holds its estimate. A block
 * is at most n / 8 samples long, so a resample has blocks to vary.
 */

/* The q-quantile (q in [0, 1]) of n sorted values, interpolated linearly
 * between the two nearest ranks (Hyndman and Fan's type 7, the default of
 * R and numpy). 0 for n == 0. */
double calvin_quantile(const double *sorted, size_t n, double q);

struct calvin_summary {
	size_t n;
	double min, max, mean, stddev; /* stddev: sample (n - 1) */
	double p50, p90, p99, p999;
	double jitter; /* p99 - p50 */
};

/* Summary of n values (any order); uses scratch (n doubles) to sort. */
void calvin_summarize(const double *x, size_t n, double *scratch, struct calvin_summary *s);

/* A statistic of a sample: values in any order, scratch of n doubles. */
enum calvin_stat {
	CALVIN_STAT_P50,
	CALVIN_STAT_P99,
	CALVIN_STAT_P999,
	CALVIN_STAT_MEAN,
	CALVIN_STAT_STDDEV,
	CALVIN_STAT_JITTER, /* p99 - p50 */
};
double calvin_stat(enum calvin_stat st, const double *x, size_t n, double *scratch);
const char *calvin_stat_name(enum calvin_stat st);

struct calvin_ci {
	double estimate; /* the statistic of the samples as they are */
	double lo, hi;	 /* percentile-bootstrap interval */
};

struct calvin_bootstrap {
	unsigned int reps; /* resamples, e.g. 1000 */
	double level;	   /* e.g. 0.95 */
	size_t block;	   /* circular-block length; 0 or 1: single samples */
	uint64_t seed;
};

/* Confidence interval of a statistic of one sample. Returns 0, or -EINVAL
 * (no samples, bad level or reps), -ENOMEM. */
int calvin_bootstrap_ci(const struct calvin_bootstrap *b, enum calvin_stat st, const double *x,
			size_t n, struct calvin_ci *ci);

/* Confidence interval of stat(x) / stat(y), each sample resampled on its
 * own: how many times y's statistic x's is. A resample whose denominator
 * is 0 is skipped; -EDOM if all were. */
int calvin_bootstrap_ratio(const struct calvin_bootstrap *b, enum calvin_stat st, const double *x,
			   size_t nx, const double *y, size_t ny, struct calvin_ci *ci);

/* Reduction of variability of a configuration against a baseline:
 * 1 - stat(config) / stat(baseline), e.g. 0.4 = "40% less jitter", with
 * its interval (from the ratio's). */
int calvin_variability_reduction(const struct calvin_bootstrap *b, enum calvin_stat st,
				 const double *config, size_t nc, const double *baseline, size_t nb,
				 struct calvin_ci *ci);

/* The no-drop rate (NFVbench's NDR): the highest offered rate whose loss
 * is at most a threshold, found by bisection between a rate known (or
 * assumed) to pass and one known to fail. Driven from outside:
 *
 *   calvin_ndr_init(&s, lo, hi, resolution, threshold);
 *   while (calvin_ndr_next(&s, &rate))
 *           calvin_ndr_result(&s, rate, measured_loss_ratio(rate));
 *   s.ndr is the answer (0 if even lo failed).
 *
 * The search first tries hi (a DUT that carries it has no lower NDR), then
 * lo, then bisects; it stops when hi - lo <= resolution (absolute, in the
 * rate's unit) or after CALVIN_NDR_MAX_TRIALS trials. */
#define CALVIN_NDR_MAX_TRIALS 32

struct calvin_ndr {
	double lo, hi; /* lo passes (or untried), hi fails (or untried) */
	double resolution, threshold;
	double ndr; /* best passing rate so far; 0: none */
	unsigned int trials;
	int state; /* internal: 0 try hi, 1 try lo, 2 bisect, 3 done */
};

int calvin_ndr_init(struct calvin_ndr *s, double lo, double hi, double resolution,
		    double threshold);
/* 1 with the next rate to try in *rate, 0 when the search is over. */
int calvin_ndr_next(struct calvin_ndr *s, double *rate);
void calvin_ndr_result(struct calvin_ndr *s, double rate, double loss_ratio);

/* ==== bench_report.c, bench_plot.c ==== */

/* `calvin bench` reports: the samples of each configuration, the CSV they
 * are kept in, the Markdown tables with bootstrap intervals (stats.c), and
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

/* ==== bench_ndr.c ==== */

/* `calvin bench throughput` reports: the no-drop rate (NDR) of each
 * configuration and frame size, round by round, the trials of its
 * searches, TCP goodput, and the verdict on throughput mode. Pure code:
 * numbers in, CSV, Markdown and gnuplot out. */

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
	int ref; /* the row its median is divided by in the table; -1: none */
};
void calvin_bench_tcp_csv(FILE *f, const struct calvin_bench_tcp *t, size_t n);
void calvin_bench_tcp_table(FILE *f, const struct calvin_bench_tcp *t, size_t n);
/* One line: the median of row calvin against those of rows same (the
 * conventional stack with the same offloads: the verdict) and dflt (its
 * default offloads), as ratios. */
void calvin_bench_tcp_verdict(FILE *f, const struct calvin_bench_tcp *t, size_t calvin, size_t same,
			      size_t dflt);

/* Pictures: throughput-ndr (median NDR per configuration and size, in
 * Mbit/s, with each round's as points) and throughput-loss (loss against
 * offered rate, every trial), as PNG and SVG. */
void calvin_bench_ndr_gnuplot(FILE *f, const struct calvin_bench_ndr *rows, size_t n,
			      const struct calvin_bench_trial *t, size_t nt);

/* ==== bench_tools.c ==== */

/* What third-party measurement tools print, read for `calvin bench`:
 * sockperf's full log (one line per message: its RTT) and iperf3's JSON
 * result (the goodput). Pure code. */

/* sockperf ping-pong --full-rtt --full-log FILE: after the line
 * "packet, txTime(sec), rxTime(sec), rtt(usec)", rows "N, tx, rx, rtt"
 * until a line of dashes. Each RTT (in ns) into s, round r. Returns how
 * many rows, -EINVAL without the header or for a row that does not
 * parse, -ENOMEM. */
long calvin_sockperf_log(const char *text, size_t len, struct calvin_bench_series *s,
			 unsigned int r);

/* iperf3 -J, parsed by json-c: the receiver's bits per second of the
 * whole run (end.sum_received.bits_per_second), into *bps. 0, or -EINVAL
 * when there is none: why says what iperf3 said in "error" (escaped,
 * cut to fit), or that its output was not one JSON document. */
int calvin_iperf3_goodput(const char *json, size_t len, double *bps, char *why, size_t whylen);

/* ==== cyclictest.c ==== */

/* cyclictest's (rt-tests) histogram output, read: `cyclictest -q -h N`
 * prints one line per microsecond bucket ("000013 001380 000002": the
 * bucket, then each thread's count) and then "# Max Latencies: 00173
 * 00021", "# Histogram Overflows: 00000 00001" and the like. Pure code,
 * for `calvin bench wakeup` and the in-guest agent alike. */

#define CALVIN_CT_MAX_THREADS 64

struct calvin_cyclictest {
	unsigned int nr_threads;
	size_t nr_buckets; /* buckets 0 .. nr_buckets - 1 us */
	uint64_t *count;   /* nr_buckets x nr_threads, bucket-major */
	uint64_t max_us[CALVIN_CT_MAX_THREADS];
	uint64_t overflows[CALVIN_CT_MAX_THREADS]; /* cycles beyond the last bucket */
	uint64_t total;				   /* cycles counted, all threads */
};

/* Parse len bytes of output. Returns 0; -EINVAL when it holds no
 * histogram (or a line does not parse); -ENOMEM. Free with
 * calvin_cyclictest_free(). */
int calvin_cyclictest_parse(const char *text, size_t len, struct calvin_cyclictest *ct);
void calvin_cyclictest_free(struct calvin_cyclictest *ct);

/* Every cycle of every thread as a sample (ns) of s, in round r: each
 * bucket's count times its value, overflows at the thread's max (so a
 * quantile above the histogram's range is a lower bound). The samples are
 * not in time order (s->ordered is cleared). 0 or -ENOMEM. */
int calvin_cyclictest_samples(const struct calvin_cyclictest *ct, struct calvin_bench_series *s,
			      unsigned int r);

/* ==== gen_frame.c ==== */

/* The throughput generator's frames and pacing (`calvin bench throughput`).
 * Pure code: bytes and numbers out; the controller sends them.
 *
 * Frame sizes are Ethernet frame sizes with the FCS, as RFC 2544 and
 * NFVbench count them: a "64-byte" frame is 60 bytes handed to the
 * interface (the FCS is the NIC's, and a veth has none). */

#define CALVIN_GEN_FCS 4
/* Ethernet + IPv4 + UDP headers: the smallest frame, FCS included */
#define CALVIN_GEN_MIN_FRAME 64
#define CALVIN_GEN_MAX_FRAME 1518

struct calvin_gen_flow {
	uint8_t dst_mac[6], src_mac[6];
	struct in_addr src, dst;
	uint16_t sport, dport; /* host byte order */
};

/* An IPv4 UDP frame of frame_size bytes on the wire (FCS included) into
 * buf: headers of flow, IP checksum set, UDP checksum 0 (none, as IPv4
 * allows), zero payload. Returns the bytes to hand to the interface
 * (frame_size - 4), or -EINVAL for a size outside 64..1518 or a buf of
 * fewer bytes. */
int calvin_gen_frame(uint8_t *buf, size_t len, const struct calvin_gen_flow *flow,
		     unsigned int frame_size);

/* How to pace rate frames per second: batches of *batch frames, one every
 * *gap_ns, so that batches stay small (about 50 us of frames, at most
 * max_batch) and the rate exact on average. rate 0: as fast as possible
 * (max_batch, gap 0). */
void calvin_gen_pacing(double rate, unsigned int max_batch, unsigned int *batch, double *gap_ns);

/* Bits per second on the wire of pps frames of frame_size bytes (FCS
 * included, preamble and gap not). */
double calvin_gen_bps(double pps, unsigned int frame_size);

/* ==== relay_flows.c ==== */

/* calvin-relay's flow table and its command line's port list. Pure.
 *
 * The relay of the conventional stack (bench/relay/) ends UDP: each
 * client (address and port, on one of the ports it listens on) gets an
 * upstream socket of its own, connected to the next hop, so the replies
 * that come back on it find their client. The table holds a fixed number
 * of flows; a new client takes the least recently used slot. */

#define CALVIN_RELAY_MAX_FLOWS 64
#define CALVIN_RELAY_MAX_PORTS 8

struct calvin_relay_flow {
	bool used;
	struct sockaddr_in client; /* address and port */
	unsigned int port;	   /* index of the listening port it came to */
	int fd;			   /* its upstream socket; -1: none yet */
	uint64_t last;		   /* the table's clock when last used */
};

struct calvin_relay_flows {
	uint64_t clock;
	struct calvin_relay_flow f[CALVIN_RELAY_MAX_FLOWS];
};

void calvin_relay_flows_init(struct calvin_relay_flows *t);
/* The flow of client on listening port index port. A new one takes a free
 * slot or the least recently used: then *fresh is true, and the slot's fd
 * is the evicted flow's (the caller closes it, or -1). */
struct calvin_relay_flow *calvin_relay_flow_get(struct calvin_relay_flows *t,
						const struct sockaddr_in *client, unsigned int port,
						bool *fresh);
/* The flow whose upstream socket is fd, or NULL. */
struct calvin_relay_flow *calvin_relay_flow_by_fd(struct calvin_relay_flows *t, int fd);

/* "7357,11111,9": 1 to CALVIN_RELAY_MAX_PORTS ports, 1..65535, no repeats.
 * Returns how many, or -EINVAL. */
int calvin_relay_parse_ports(const char *s, uint16_t *ports);

/* ==== stack_plan.c ==== */

/* The conventional stack that `calvin bench` measures calvin against: the
 * chain's topology (the same nodes and links) with Linux IP forwarding in
 * kernel-VNF nodes, a UDP socket relay (calvin-relay) in user-VNF nodes
 * and a UDP echo server at the server. Pure: which addresses, routes and
 * relays each node gets.
 *
 * Link k (node k's east to node k+1's west) is the subnet 10.71.k.0/24,
 * .1 at its west end, .2 at its east end. A relay ends UDP: it receives on
 * its west address and sends on, from its east side, to the next relay or
 * the server, replies the same way back; so the probe sends to the first
 * relay (or, with none, the server): the entry. Other traffic (TCP) is
 * forwarded by the kernel in every middle node, relays' included. */

#define CALVIN_STACK_ADDR_MAX 16 /* "10.71.255.2" and its NUL */
#define CALVIN_STACK_PREFIXLEN 24

enum calvin_stack_role {
	CALVIN_STACK_PROBE,
	CALVIN_STACK_ROUTER, /* a kernel-VNF node: IP forwarding */
	CALVIN_STACK_RELAY,  /* a user-VNF node: calvin-relay (and IP forwarding) */
	CALVIN_STACK_SERVER, /* the UDP echo server */
};

struct calvin_stack_route {
	char prefix[CALVIN_STACK_ADDR_MAX + 3]; /* "10.71.3.0/24", or "default" */
	bool east;				/* out of east (else west) */
	char via[CALVIN_STACK_ADDR_MAX];	/* the neighbour on that side */
};

struct calvin_stack_node {
	enum calvin_stack_role role;
	char west[CALVIN_STACK_ADDR_MAX], east[CALVIN_STACK_ADDR_MAX]; /* "": no such side */
	char west_peer[CALVIN_STACK_ADDR_MAX], east_peer[CALVIN_STACK_ADDR_MAX];
	char relay_to[CALVIN_STACK_ADDR_MAX]; /* a relay: the next relay or the server */
	unsigned int nr_routes;
	struct calvin_stack_route routes[CALVIN_MAX_NODES];
};

struct calvin_stack_plan {
	unsigned int nr_nodes;
	struct calvin_stack_node node[CALVIN_MAX_NODES];
	char entry[CALVIN_STACK_ADDR_MAX];  /* where the probe sends */
	char server[CALVIN_STACK_ADDR_MAX]; /* the server's address */
};

/* The plan for nodes[0..nr) (probe first, server last; calvin_chain_nodes()).
 * Returns 0, or -EINVAL for fewer than 3 nodes or more than 255 links. */
int calvin_stack_plan(const struct calvin_node *nodes, unsigned int nr,
		      struct calvin_stack_plan *p);

/* ==== spec_variant.c ==== */

/* Variants of a chain spec for `calvin bench`: the same chain with another
 * placement, user VNFs' burst, VM links or guest image, as YAML text that
 * `calvin up` deploys like any chain file (and keeps a copy of, so the
 * deployed copy says what really runs). Pure: text in, text out.
 *
 * The text is re-emitted by libyaml event by event: values are replaced
 * where they are written, and added where the file leaves them to their
 * defaults; comments and layout are not kept. Key-file values become the
 * absolute paths the spec resolved them to, so the variant may be written
 * anywhere. */

struct calvin_spec_override {
	int placement;	    /* enum calvin_placement; -1: as the file says */
	unsigned int burst; /* every user VNF's burst; 0: as the file says */
	int links;	    /* enum calvin_vm_links; -1: as the file says */
	const char *image;  /* libvirt image directory; NULL: as the file says */
	int mode;	    /* enum calvin_chain_mode; -1: as the file says */
	unsigned int mtu;   /* the chain's mtu; 0: as the file says */
};

/* An override that changes nothing. */
#define CALVIN_SPEC_OVERRIDE_NONE                                                                  \
	{                                                                                          \
		.placement = -1, .burst = 0, .links = -1, .image = NULL, .mode = -1, .mtu = 0      \
	}

/* The text (len bytes) spec was parsed from, with o applied: *out is
 * malloc'd and NUL-terminated. Returns 0, -ENOMEM, or -EINVAL when the text
 * is not spec's or libyaml cannot re-emit it. */
int calvin_spec_variant(const char *text, size_t len, const struct calvin_chain_spec *spec,
			const struct calvin_spec_override *o, char **out, size_t *out_len);

#endif /* CALVIN_BENCH_LIB_H */
