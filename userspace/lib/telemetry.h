/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Encoder and decoder of the probe telemetry block (include/calvin/telemetry.h),
 * for the probe and the DPDK VNFs. Pure code: no I/O, no allocation. */
#ifndef CALVIN_LIB_TELEMETRY_H
#define CALVIN_LIB_TELEMETRY_H

#include <stddef.h>
#include <stdint.h>
#include <calvin/telemetry.h>

/* One hop record in host byte order. */
struct calvin_hop {
	uint16_t vnf_id;
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
 * (unknown version), -EINVAL (inconsistent counts). */
int calvin_tlm_decode(const void *buf, size_t len, struct calvin_tlm *out);

/* Append a hop record to the block at buf, in place. Returns the slot index,
 * or -ENOSPC when every pre-sized record is taken (the overflow flag is then
 * set in the block), or a decode error as above. */
int calvin_tlm_push_hop(void *buf, size_t len, const struct calvin_hop *hop);

/* Close the record that this hop's hand-over program opened (see
 * kernel/handover.bpf.c): the last record filled, with hop's vnf_id, space,
 * clock and dir, and t_out 0. Sets its t_out to hop->t_out and returns its
 * slot; t_in stays what the program read. -ENOENT if there is no such
 * record (the caller then pushes one of its own), or a decode error as
 * above; the block is unchanged then. */
int calvin_tlm_close_hop(void *buf, size_t len, const struct calvin_hop *hop);

#endif /* CALVIN_LIB_TELEMETRY_H */
