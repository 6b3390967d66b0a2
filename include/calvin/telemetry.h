/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Probe telemetry wire format, shared by the XDP VNFs, the DPDK VNFs and the probe.
 *
 * A probe packet is a UDP datagram to the chain's probe port whose payload
 * starts with this block. The probe pre-sizes the block for max_hops hop
 * records so no VNF ever grows or shrinks the packet to stamp it; each VNF
 * that forwards the probe fills the next free record. All fields are
 * big-endian. A reader must reject a block whose magic, version, flags or
 * record values it does not know (see calvin_tlm_decode() in
 * userspace/lib/telemetry.h).
 *
 *   0               1               2               3
 *   +-------+-------+-------+-------+-------+-------+-------+-------+
 *   | magic "CLVN"                  | ver 2 | max   | nr    | flags |
 *   | seq                           | session                       |
 *   +---------------------------------------------------------------+
 *   | hop record 0 (16 bytes) ... hop record max-1                  |
 *   +---------------------------------------------------------------+
 *   | application bytes (left alone by VNFs that do not transform)  |
 *
 * A hop record (version 2):
 *
 *   +-------+-------+-------+-------+-------------------------------+
 *   | vnf   | space | dir   | clock | residence (ns)                |
 *   | t_in (ns)                                                     |
 *   +---------------------------------------------------------------+
 *
 * Why version 2: a chain of CALVIN_MAX_VNFS (32) VNFs stamps 64 records,
 * and version 1's 24-byte records made that 1552 bytes, more than the
 * 1472 bytes of UDP payload a 1500-byte MTU carries. Version 2 records are
 * 16 bytes: 64 of them and the header take 1040 bytes. Each field and why
 * it has its size:
 *   vnf       the VNF's index in the chain spec; a chain has at most 32.
 *   space     CALVIN_SPACE_*: which tier stamped it (a byte: no bit
 *             packing for the XDP side to get wrong, and the record has
 *             the room).
 *   dir       CALVIN_DIR_*: which way the probe was going.
 *   clock     CALVIN_CLOCK_*: the clock domain of t_in; a VM's domain is
 *             its node's index, at most CALVIN_MAX_VNFS + 1.
 *   residence t_out - t_in, the time the VNF held the probe. 32 bits of
 *             ns hold 4.29 s; a longer stay is written as 0xffffffff
 *             (CALVIN_TLM_RESIDENCE_MAX), "at least that long". Stored as
 *             a duration, not a second timestamp: only t_in is needed to
 *             place the hop on its clock, and that saves 4 bytes.
 *   t_in      64 bits of ns of the clock domain (CLOCK_MONOTONIC since
 *             boot on the host): links between hops and to the probe are
 *             differences of these, so they must not wrap (32 bits would
 *             every 4.3 s).
 * Records lie at even offsets from the UDP header, so a kernel VNF
 * updates the UDP checksum word by word (kernel/telemetry.bpf.h).
 *
 * Version 1 (24-byte records: a 16-bit vnf id, 3 reserved bytes, t_in and
 * t_out as 64-bit timestamps) is refused by readers of version 2: the two
 * are not mixed in one chain.
 */
#ifndef CALVIN_TELEMETRY_H
#define CALVIN_TELEMETRY_H

#include <linux/types.h>

#define CALVIN_TLM_MAGIC 0x434c564eU /* "CLVN" */
#define CALVIN_TLM_VERSION 2
/* Upper bound on hop records: two per VNF for a chain of 32. A power of
 * two, so BPF can mask the index. */
#define CALVIN_TLM_MAX_HOPS 64

/* flags; a reader refuses a block with any other bit set */
#define CALVIN_TLM_F_OVERFLOW 0x01 /* a VNF found no free record */
#define CALVIN_TLM_F_KNOWN CALVIN_TLM_F_OVERFLOW

/* hop.space */
#define CALVIN_SPACE_KERNEL 0
#define CALVIN_SPACE_USER 1

/* hop.dir: which way the packet was going when the VNF saw it */
#define CALVIN_DIR_FWD 0 /* probe -> server */
#define CALVIN_DIR_REV 1 /* server -> probe */

/* hop.clock: clock domain of t_in. Timestamps in the same domain can
 * be subtracted across hops; in different domains, only within one hop.
 * Every netns node reads the host's CLOCK_MONOTONIC (bpf_ktime_get_ns() in
 * XDP, clock_gettime() in user space), so they share domain 0. Under the
 * libvirt backend each VM reads its own CLOCK_MONOTONIC: domain N is the VM
 * of the chain's node N (1..), never comparable with another. */
#define CALVIN_CLOCK_HOST_MONO 0

/* hop.residence of a VNF that held the probe 4.29 s or longer */
#define CALVIN_TLM_RESIDENCE_MAX 0xffffffffU

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
	__u8 vnf_id; /* index of the VNF in the chain spec */
	__u8 space;
	__u8 dir;
	__u8 clock;
	__be32 residence; /* ns from t_in to the last moment before handing it on */
	__be64 t_in;	  /* ns, first instruction that saw the packet */
} __attribute__((packed));

#define CALVIN_TLM_HDR_LEN ((unsigned int)sizeof(struct calvin_tlm_hdr))
#define CALVIN_TLM_HOP_LEN ((unsigned int)sizeof(struct calvin_tlm_hop))
#define CALVIN_TLM_LEN(max_hops) (CALVIN_TLM_HDR_LEN + (max_hops) * CALVIN_TLM_HOP_LEN)

_Static_assert(sizeof(struct calvin_tlm_hdr) == 16, "telemetry header is 16 bytes on the wire");
_Static_assert(sizeof(struct calvin_tlm_hop) == 16, "hop record is 16 bytes on the wire");
_Static_assert(CALVIN_TLM_LEN(CALVIN_TLM_MAX_HOPS) <= 1472,
	       "a full block fits the UDP payload of a 1500-byte MTU");

#endif /* CALVIN_TELEMETRY_H */
