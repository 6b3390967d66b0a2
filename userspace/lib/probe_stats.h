/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Probe results and the per-reply accounting that fills them. Pure code.
 *
 * Times: the probe's own send/receive times are kernel software timestamps,
 * which are CLOCK_REALTIME; hop records carry host CLOCK_MONOTONIC. The
 * accounting subtracts a measured offset (REALTIME - MONOTONIC) to compare
 * the two; the run checks afterwards that the offset did not move (a clock
 * step) and throws the probe<->first/last hop links away if it did. */
#ifndef CALVIN_LIB_PROBE_STATS_H
#define CALVIN_LIB_PROBE_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "chainspec.h"
#include "histogram.h"
#include "plan.h"
#include "telemetry.h"

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

#endif /* CALVIN_LIB_PROBE_STATS_H */
