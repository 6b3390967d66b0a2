/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Network-coding header wire format, shared by the NC codec and the VNFs that carry it.
 *
 * Systematic random linear network coding over GF(2^8). Sources are cut into
 * generations of k packets; each source packet goes out at once, behind this
 * header, and after the k-th (or when a partial generation is flushed) r
 * repair packets follow. The header sits in front of the coded application
 * bytes; a probe's telemetry block stays in clear before it. All fields are
 * big-endian. A reader must reject a header whose version, type or reserved
 * fields it does not know (see nc_hdr_decode() in userspace/lib/nc.h).
 *
 *   0               1               2               3
 *   +-------+-------+-------+-------+-------+-------+-------+-------+
 *   | ver   | type  | k     | r     | generation id                 |
 *   | index | flags | len           | seed                          |
 *   +---------------------------------------------------------------+
 *   | len bytes: source payload, or coded symbol (repair)           |
 *
 * ver     CALVIN_NC_VERSION.
 * type    CALVIN_NC_SOURCE or CALVIN_NC_REPAIR.
 * k       generation size, 1..64. In a source packet, the configured size
 *         (the generation may be closed early by a flush); in a repair
 *         packet, the real size k' <= k of the generation it protects.
 * r       repair packets per generation, 0..64 (>= 1 in a repair packet).
 * gen     generation id, a 32-bit sequence number compared with wraparound.
 * index   source index (< k) or repair index (< r).
 * flags   none defined: must be 0.
 * len     bytes after the header: a source's payload length (<= 3584), or
 *         the coded symbol length L of a repair (2..3586, see below). The
 *         packet must be exactly 16 + len bytes.
 * seed    0 in a source packet. In a repair packet, the seed of its
 *         coefficient row (below).
 *
 * Coding. Source i of a generation is coded as the symbol
 *   s_i = len_i (2 bytes, big-endian) | payload_i | zeros up to L
 * where L = 2 + the longest payload of the generation, so a decoder can trim
 * a recovered packet to its true length. Repair j carries
 *   p_j = sum_{i < k'} c_i * s_i  over GF(2^8) (polynomial 0x11d, as ISA-L),
 * with c_i = 1 + (fmix32(seed + i * 0x9e3779b9) mod 255), fmix32 being
 * MurmurHash3's 32-bit finaliser. Coefficients are never 0, so any single
 * loss is always recoverable. The sender derives the seed from (gen, j) but
 * the receiver only reads it: carrying the 4-byte seed instead of a k-byte
 * coefficient vector keeps the header fixed at 16 bytes for every k, and a
 * future sender may choose seeds differently (e.g. to avoid singular sets)
 * without a format change.
 *
 * In calvin's VNFs (userspace/vnf/nc.c) the payload the codec sees is not
 * the bytes on the wire but a symbol rebuilt from them:
 *   layout (1) | UDP source port (2) | UDP destination port (2) |
 *   the probe's telemetry block in canonical form (nr_hops, flags and hop
 *   records zeroed), if layout & 1 | application bytes
 * so that a recovered packet gets its own ports and, for a probe, a
 * telemetry block again. A source packet on the wire is
 *   [telemetry block in clear, stamped on the way][this header][app bytes]
 * and its len is the symbol's length; the decoder rebuilds the symbol from
 * what it received (the block made canonical again) before decoding.
 */
#ifndef CALVIN_NC_H
#define CALVIN_NC_H

#include <linux/types.h>

#define CALVIN_NC_VERSION 1

/* type */
#define CALVIN_NC_SOURCE 1
#define CALVIN_NC_REPAIR 2

#define CALVIN_NC_MAX_K 64
#define CALVIN_NC_MAX_R 64
/* Longest application payload a source packet may carry: what the links
 * between VNFs carry at the largest chain mtu (3506 bytes of IP packet,
 * 3478 of UDP payload; see CALVIN_MTU_MAX in spec.h), rounded up. Symbols
 * are coded at their generation's longest, so the ceiling costs memory
 * (the encoder's k + r buffers, the decoder's window), not time. */
#define CALVIN_NC_MAX_PAYLOAD 3584
/* Coded symbol: 2-byte true length, then the payload padded. */
#define CALVIN_NC_LEN_BYTES 2
#define CALVIN_NC_MAX_SYMBOL (CALVIN_NC_LEN_BYTES + CALVIN_NC_MAX_PAYLOAD)

struct calvin_nc_hdr {
	__u8 version;
	__u8 type;
	__u8 k;
	__u8 r;
	__be32 gen;
	__u8 index;
	__u8 flags;
	__be16 len;
	__be32 seed;
} __attribute__((packed));

#define CALVIN_NC_HDR_LEN ((unsigned int)sizeof(struct calvin_nc_hdr))

_Static_assert(sizeof(struct calvin_nc_hdr) == 16, "NC header is 16 bytes on the wire");

#endif /* CALVIN_NC_H */
