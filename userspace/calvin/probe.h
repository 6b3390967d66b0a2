/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Probe engine: sends telemetry probes through a chain and measures them.
 *
 * Call it from inside the probe node's network namespace. Probes are UDP
 * datagrams whose payload starts with a telemetry block pre-sized for
 * max_hops records; send and receive times are kernel software timestamps
 * (SO_TIMESTAMPING), with a counted user-space fallback per probe. */
#ifndef CALVIN_PROBE_H
#define CALVIN_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <netinet/in.h>

#include "measure/measure.h"
#include "spec/spec.h"

struct calvin_probe_opts {
	struct in_addr dst; /* the server */
	uint16_t port;	    /* probe port, host byte order */
	unsigned int count; /* probes to send */
	unsigned int rate;  /* probes per second, paced mode */
	enum calvin_probe_mode mode;
	unsigned int size; /* UDP payload bytes, at least the telemetry block */
	uint8_t max_hops;  /* records to pre-size: 2 * nr_vnfs, at least 1 */
	/* wait for stragglers after the last send (paced), per probe (ping-pong) */
	uint64_t timeout_ns;
	/* if set, one line per unique reply:
	 *   seq tx_ns rx_ns nhops [vnf_id dir t_in t_out]...
	 * tx/rx converted to CLOCK_MONOTONIC ns, dir 0 = fwd, 1 = rev */
	FILE *raw;
	/* show how far the run is on stderr (a terminal) after its first second */
	bool progress;
};

/* Run the probes and fill r (initialised here; see calvin_probe_result_new()).
 * The run lasts at most count/rate + timeout (paced) or count * timeout
 * (ping-pong), plus scheduling noise. Returns 0, -EINVAL for bad options
 * (one line on stderr), or -errno if the socket cannot be set up. */
int calvin_probe_run(const struct calvin_probe_opts *o, struct calvin_probe_result *r);

#endif /* CALVIN_PROBE_H */
