/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* What the traffic keys of a security association are derived from: the
 * deployment's random value and the HKDF info of the SA. Pure: no I/O.
 *
 * Each direction of an encrypt/decrypt pair is a security association of
 * its own, as in IPsec: an SPI of its own (spi forward, spi-rev backward)
 * and a traffic key and nonce salt derived for it (calvin_sa_derive() in
 * aead.h) by HKDF-SHA256 from the key file's long-term key, with the
 * deployment's random value as salt and calvin_sa_info() as info. Which
 * way each VNF of a pair transforms is chainspec.h's (calvin_pair_role()). */
#ifndef CALVIN_LIB_SA_INFO_H
#define CALVIN_LIB_SA_INFO_H

#include <stddef.h>
#include <stdint.h>

#include <calvin/telemetry.h> /* CALVIN_DIR_FWD, CALVIN_DIR_REV */

/* What `calvin up` makes for each deployment (getrandom): the HKDF salt of
 * its traffic keys. It stays on the host (the chain's state directory, as
 * hex, for restarts); VNFs get derived keys only (sa_set.h). */
#define CALVIN_DEPLOY_RANDOM_LEN 32
#define CALVIN_DEPLOY_RANDOM_FILE "deploy-random"

/* HKDF info of one security association:
 *   "calvin-crypt-sa-v2" | 0x00 | len(chain) (1 byte) | chain
 *   | spi (4 bytes, big-endian) | dir (1 byte, CALVIN_DIR_*)
 *   | epoch (4 bytes, big-endian)
 * The epoch counts the starts of the SA's two VNFs within one deployment
 * (1 at `up`, one more at each restart of the pair), so a restarted pair
 * never uses a (key, nonce) pair again although its sequence numbers start
 * at 1 again. The label's version changes whenever the derivation does;
 * every field has a fixed length or a length prefix, so two different
 * contexts never give the same info. */
#define CALVIN_SA_LABEL "calvin-crypt-sa-v2"
#define CALVIN_SA_INFO_MAX (sizeof(CALVIN_SA_LABEL) + 1 + 255 + 4 + 1 + 4)

/* The deployment random in the state directory: 64 lower-case hex digits. parse() takes either
 * case; 0 or -EINVAL. */
int calvin_deploy_random_parse(const char *hex, uint8_t out[CALVIN_DEPLOY_RANDOM_LEN]);
void calvin_deploy_random_format(const uint8_t in[CALVIN_DEPLOY_RANDOM_LEN],
				 char out[2 * CALVIN_DEPLOY_RANDOM_LEN + 1]);

/* Write the info of (chain, spi, dir, epoch) to buf; returns its length,
 * or -EINVAL (empty chain or longer than 255, spi 0, unknown dir, epoch 0)
 * or -ENOSPC. */
int calvin_sa_info(uint8_t *buf, size_t cap, const char *chain, uint32_t spi, unsigned int dir,
		   uint32_t epoch);

#endif /* CALVIN_LIB_SA_INFO_H */
