/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Probe telemetry wire format, shared by the XDP VNFs, the DPDK VNFs and the probe.
 *
 * A probe packet is a UDP datagram to the chain's probe port whose payload
 * starts with this block. The probe pre-sizes the block for max_hops hop
 * records so no VNF ever grows or shrinks the packet to stamp it; each VNF
 * that forwards the probe fills the next free record. All fields are
 * big-endian. A reader must reject a block whose magic or version it does
 * not know (see calvin_tlm_decode() in userspace/lib/telemetry.h).
 *
 *   0               1               2               3
 *   +-------+-------+-------+-------+-------+-------+-------+-------+
 *   | magic "CLVN"                  | ver   | max   | nr    | flags |
 *   | seq                           | session                       |
 *   +---------------------------------------------------------------+
 *   | hop record 0 (24 bytes) ... hop record max-1                  |
 *   +---------------------------------------------------------------+
 *   | application bytes (left alone by VNFs that do not transform)  |
 */
#ifndef CALVIN_TELEMETRY_H
#define CALVIN_TELEMETRY_H

#include <linux/types.h>

#define CALVIN_TLM_MAGIC 0x434c564eU /* "CLVN" */
#define CALVIN_TLM_VERSION 1
/* Upper bound on hop records; a power of two so BPF can mask the index. */
#define CALVIN_TLM_MAX_HOPS 16

/* flags */
#define CALVIN_TLM_F_OVERFLOW 0x01 /* a VNF found no free record */

/* hop.space */
#define CALVIN_SPACE_KERNEL 0
#define CALVIN_SPACE_USER 1

/* hop.dir: which way the packet was going when the VNF saw it */
#define CALVIN_DIR_FWD 0 /* probe -> server */
#define CALVIN_DIR_REV 1 /* server -> probe */

/* hop.clock: clock domain of t_in/t_out. Timestamps in the same domain can
 * be subtracted across hops; in different domains, only within one hop.
 * Every netns node reads the host's CLOCK_MONOTONIC (bpf_ktime_get_ns() in
 * XDP, clock_gettime() in user space), so they share domain 0. Under the
 * libvirt backend each VM reads its own CLOCK_MONOTONIC: domain N is the VM
 * of the chain's node N (1..), never comparable with another. */
#define CALVIN_CLOCK_HOST_MONO 0

struct calvin_tlm_hdr {
	__be32 magic;
	__u8 version;
	__u8 max_hops; /* records pre-sized by the probe */
	__u8 nr_hops; /* records filled so far */
	__u8 flags;
	__be32 seq; /* probe sequence number */
	__be32 session; /* identifies one probe run */
} __attribute__((packed));

struct calvin_tlm_hop {
	__be16 vnf_id; /* index of the VNF in the chain spec */
	__u8 space;
	__u8 clock;
	__u8 dir;
	__u8 reserved[3];
	__be64 t_in; /* ns, first instruction that saw the packet */
	__be64 t_out; /* ns, last moment before handing it on */
} __attribute__((packed));

#define CALVIN_TLM_HDR_LEN ((unsigned int)sizeof(struct calvin_tlm_hdr))
#define CALVIN_TLM_HOP_LEN ((unsigned int)sizeof(struct calvin_tlm_hop))
#define CALVIN_TLM_LEN(max_hops) (CALVIN_TLM_HDR_LEN + (max_hops) * CALVIN_TLM_HOP_LEN)

_Static_assert(sizeof(struct calvin_tlm_hdr) == 16, "telemetry header is 16 bytes on the wire");
_Static_assert(sizeof(struct calvin_tlm_hop) == 24, "hop record is 24 bytes on the wire");

#endif /* CALVIN_TELEMETRY_H */
