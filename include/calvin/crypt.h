/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Encryption header: the ESP-like framing of the encrypt/decrypt VNFs.
 *
 * The encrypt VNF leaves the probe's telemetry block in clear (VNFs further
 * down the chain stamp it) and replaces the application bytes after it by
 * this header, the ciphertext and the tag. All fields are big-endian. The
 * whole header is the AEAD's additional authenticated data; nothing else is.
 * A reader must reject a header whose version it does not know or whose
 * reserved bytes are not zero (see calvin_aead_open() in userspace/lib/aead.h).
 *
 *   0               1               2               3
 *   +-------+-------+-------+-------+-------+-------+-------+-------+
 *   | ver   | reserved (0)          | spi                           |
 *   | seq (64 bit)                                                  |
 *   +---------------------------------------------------------------+
 *   | ciphertext (as long as the plaintext)                         |
 *   +---------------------------------------------------------------+
 *   | tag (16 bytes)                                                |
 *   +---------------------------------------------------------------+
 *
 * The 12-byte nonce is salt (4 bytes) || seq (8 bytes, big-endian). It is
 * never sent: the receiver rebuilds it from its own salt and the header's
 * seq. seq starts at 1 and only grows; 0 and 2^64-1 are never sent. The seq
 * is sent in full (64 bits, unlike ESP's low 32), so the receiver needs no
 * ESN guessing.
 *
 * Uniqueness of (key, nonce) rests on the keys, not on seq alone: seq
 * starts at 1 again whenever a VNF starts. So the key and the salt are not
 * the key file's: each security association (one SPI, one direction) of
 * each deployment, in each epoch (each start of its two VNFs), has its own,
 * derived by calvin from the key file's long-term key with HKDF-SHA256,
 * salted with a random value made at `calvin up`, over the chain, the SPI,
 * the direction and the epoch (calvin_sa_derive() in userspace/lib/aead.h).
 * VNFs get only their own SAs' keys. Within an SA and epoch, seq never
 * repeats; two SAs, deployments or epochs never share a key. A packet from
 * an earlier deployment or epoch fails the tag, whatever its seq.
 */
#ifndef CALVIN_CRYPT_H
#define CALVIN_CRYPT_H

#include <linux/types.h>

#define CALVIN_CRYPT_VERSION 1
#define CALVIN_CRYPT_TAG_LEN 16
#define CALVIN_CRYPT_SALT_LEN 4
#define CALVIN_CRYPT_NONCE_LEN 12

struct calvin_crypt_hdr {
	__u8 version;
	__u8 reserved[3]; /* sent as 0, refused otherwise: room for flags later */
	__be32 spi;	  /* security association: which key; never 0 */
	__be64 seq;	  /* per-SPI packet counter, 1 .. 2^64-2 */
} __attribute__((packed));

#define CALVIN_CRYPT_HDR_LEN ((unsigned int)sizeof(struct calvin_crypt_hdr))
/* bytes a sealed packet has beyond its plaintext */
#define CALVIN_CRYPT_OVERHEAD (CALVIN_CRYPT_HDR_LEN + CALVIN_CRYPT_TAG_LEN)

_Static_assert(sizeof(struct calvin_crypt_hdr) == 16, "encryption header is 16 bytes on the wire");

#endif /* CALVIN_CRYPT_H */
