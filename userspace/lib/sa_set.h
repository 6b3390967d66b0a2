/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The keys of one user VNF's security associations, as the controller
 * hands them over: to calvin-vnf through an inherited descriptor
 * (--keys-fd), to a VM's agent in its KEYS message. A VNF never holds the
 * long-term key or the deployment random, only the derived traffic keys of
 * its own SAs, in one epoch. Pure code but for the derivation (aead.c).
 *
 * The bytes, big-endian:
 *
 *     u8 version   CALVIN_SA_SET_VERSION
 *     u8 nr        SAs that follow, 0 to CALVIN_SA_SET_MAX_SAS
 *     u16 zero
 *     u32 epoch    not 0 (pair.h)
 *     nr times:
 *       u8 dir     CALVIN_DIR_FWD or CALVIN_DIR_REV, each at most once
 *       u8 zero[3]
 *       u32 spi    not 0
 *       32 bytes   traffic key
 *       4 bytes    nonce salt
 */
#ifndef CALVIN_LIB_SA_SET_H
#define CALVIN_LIB_SA_SET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "aead.h"
#include "chainspec.h"

#define CALVIN_SA_SET_VERSION 1
#define CALVIN_SA_SET_HDR_LEN 8
#define CALVIN_SA_SET_MAX_SAS 2 /* one per direction */
#define CALVIN_SA_LEN (8 + 32 + CALVIN_CRYPT_SALT_LEN)
#define CALVIN_SA_SET_MAX (CALVIN_SA_SET_HDR_LEN + CALVIN_SA_SET_MAX_SAS * CALVIN_SA_LEN)

struct calvin_sa {
	uint8_t dir;
	uint32_t spi;
	struct calvin_sa_keys k;
};

struct calvin_sa_set {
	uint32_t epoch;
	unsigned int nr;
	struct calvin_sa sa[CALVIN_SA_SET_MAX_SAS];
};

/* The SAs VNF vnf of spec takes part in (those of the directions its pair
 * transforms), keyed for epoch from the long-term key and the deployment
 * random. 0, -EINVAL (not an encrypt or decrypt VNF, epoch 0) or -EIO;
 * out is wiped on failure. */
int calvin_sa_set_derive(const struct calvin_chain_spec *spec, unsigned int vnf,
			 const uint8_t ltk[32], const uint8_t deploy_random[32], uint32_t epoch,
			 struct calvin_sa_set *out);

/* The bytes of s into buf: their length, or -ENOSPC, -EINVAL. */
ssize_t calvin_sa_set_encode(const struct calvin_sa_set *s, uint8_t *buf, size_t len);

/* Exactly len bytes into out: 0, or -EPROTO (another version), -EBADMSG
 * (anything else out of order). out is wiped on failure. */
int calvin_sa_set_decode(const uint8_t *buf, size_t len, struct calvin_sa_set *out);

/* The SA of direction dir in s, or NULL. */
const struct calvin_sa *calvin_sa_set_find(const struct calvin_sa_set *s, unsigned int dir);

void calvin_sa_set_wipe(struct calvin_sa_set *s);

#endif /* CALVIN_LIB_SA_SET_H */
