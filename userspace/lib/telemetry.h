/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Encoder and decoder of the probe telemetry block (include/calvin/telemetry.h),
 * for the probe and the DPDK VNFs. Pure code: no I/O, no allocation. */
#ifndef CALVIN_LIB_TELEMETRY_H
#define CALVIN_LIB_TELEMETRY_H

#include <stddef.h>
#include <stdint.h>
#include <calvin/telemetry.h>

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

#endif /* CALVIN_LIB_TELEMETRY_H */
