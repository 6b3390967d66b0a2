/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The throughput generator's frames and pacing (`calvin bench throughput`).
 * Pure code: bytes and numbers out; the controller sends them.
 *
 * Frame sizes are Ethernet frame sizes with the FCS, as RFC 2544 and
 * NFVbench count them: a "64-byte" frame is 60 bytes handed to the
 * interface (the FCS is the NIC's, and a veth has none). */
#ifndef CALVIN_LIB_GEN_FRAME_H
#define CALVIN_LIB_GEN_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

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

#endif /* CALVIN_LIB_GEN_FRAME_H */
