/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* What third-party measurement tools print, read for `calvin bench`:
 * sockperf's full log (one line per message: its RTT) and iperf3's JSON
 * result (the goodput). Pure code. */
#ifndef CALVIN_LIB_BENCH_TOOLS_H
#define CALVIN_LIB_BENCH_TOOLS_H

#include <stddef.h>

#include "bench_report.h"

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

#endif /* CALVIN_LIB_BENCH_TOOLS_H */
