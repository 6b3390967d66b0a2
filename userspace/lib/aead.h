/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Per-packet AEAD framing of the encrypt/decrypt VNFs (wire format in
 * include/calvin/crypt.h). The only file that includes OpenSSL is aead.c.
 *
 * Built for a busy-polling VNF: a context is created and keyed once
 * (calvin_aead_init()); each packet then costs one IV set, one AAD pass and
 * one cipher pass, with no allocation and no logging. A context is used by
 * one thread at a time.
 *
 * In place: seal may write over its own input when the plaintext sits right
 * after room for the header (in == out + CALVIN_CRYPT_HDR_LEN), and open
 * when the plaintext is to land where the ciphertext was (out == in +
 * CALVIN_CRYPT_HDR_LEN): the packet keeps its shape [hdr][data][tag].
 * Buffers that overlap any other way are refused (-EINVAL). */
#ifndef CALVIN_LIB_AEAD_H
#define CALVIN_LIB_AEAD_H

#include <stddef.h>
#include <stdint.h>

#include <calvin/crypt.h>
#include "chainspec.h" /* enum calvin_cipher */
#include "replay.h"

struct evp_cipher_ctx_st; /* OpenSSL's EVP_CIPHER_CTX, kept opaque here */

struct calvin_aead {
	struct evp_cipher_ctx_st *ctx; /* keyed once, at init */
	uint64_t seq;		       /* seal: the last sequence number used; 0: none yet */
	uint32_t spi;
	uint8_t salt[CALVIN_CRYPT_SALT_LEN];
	int encrypt; /* 1: seal only, 0: open only */
	enum calvin_cipher cipher;
};

/* Key a context for sealing (encrypt = 1) or opening (encrypt = 0) with
 * cipher c, a 32-byte key and a 4-byte salt, for security association spi
 * (not 0). Returns 0, -EINVAL (bad argument), -ENOMEM, or -EIO (OpenSSL
 * refused). The context keeps its own key schedule: the caller may wipe
 * key and salt right after. */
int calvin_aead_init(struct calvin_aead *a, enum calvin_cipher c, const uint8_t *key, size_t keylen,
		     const uint8_t salt[CALVIN_CRYPT_SALT_LEN], uint32_t spi, int encrypt);

/* Seal len bytes of in into out: header with the next sequence number,
 * ciphertext, tag. Returns the bytes written (len + CALVIN_CRYPT_OVERHEAD),
 * or -ENOSPC (out_cap too small), -EMSGSIZE (len too big for an int),
 * -EOVERFLOW (sequence numbers used up: key a new SA), -EINVAL (not a
 * sealing context, or buffers overlap badly), -EIO (OpenSSL failed). A
 * failed seal consumes no sequence number unless OpenSSL failed. */
int calvin_aead_seal(struct calvin_aead *a, uint8_t *out, size_t out_cap, const uint8_t *in,
		     size_t len);

/* Open a sealed packet of len bytes: check the header, the replay window
 * w, the tag, then record its seq in w. Returns the plaintext length
 * written to out, or:
 *   -EPROTO    shorter than header + tag, unknown version, reserved not 0
 *   -ENOKEY    the header's SPI is not this context's
 *   -EALREADY  replayed, sequence 0, or too old for the window
 *   -EBADMSG   the tag did not verify (tampered, or the wrong key); out is
 *              wiped so no unauthenticated plaintext escapes
 *   -ENOSPC    out_cap too small; -EMSGSIZE, -EINVAL, -EIO as for seal.
 * The window moves only for packets that authenticate. */
int calvin_aead_open(struct calvin_aead *a, struct calvin_replay *w, uint8_t *out, size_t out_cap,
		     const uint8_t *in, size_t len);

/* Release the context (it wipes its key schedule); safe on a zeroed one. */
void calvin_aead_free(struct calvin_aead *a);

/* Rejections by cause, for a VNF's counters; calvin_aead_count() files a
 * return value of calvin_aead_open() under one of them. */
struct calvin_aead_counters {
	uint64_t ok;
	uint64_t bad_header;  /* -EPROTO: truncated or not our format */
	uint64_t unknown_spi; /* -ENOKEY */
	uint64_t replay;      /* -EALREADY */
	uint64_t bad_tag;     /* -EBADMSG */
	uint64_t other;	      /* anything else: a local problem, not the packet */
};

void calvin_aead_count(struct calvin_aead_counters *c, int ret);

/* Create a key file at path (mode 0600; an existing file is left alone:
 * -EEXIST) holding a fresh random long-term key from RAND_bytes, in the
 * format of keyfile.h (v2). Returns 0 or -errno with one line in err. */
int calvin_keyfile_generate(const char *path, char *err, size_t errlen);

/* HKDF-SHA256 (RFC 5869), extract then expand, through OpenSSL's EVP_KDF:
 * okm_len bytes (1..8160) from ikm (not empty), salt and info (either may
 * be empty). Returns 0, -EINVAL or -EIO. */
int calvin_hkdf_sha256(const uint8_t *ikm, size_t ikm_len, const uint8_t *salt, size_t salt_len,
		       const uint8_t *info, size_t info_len, uint8_t *okm, size_t okm_len);

/* What one security association is keyed with. */
struct calvin_sa_keys {
	uint8_t key[32];
	uint8_t salt[CALVIN_CRYPT_SALT_LEN];
};

/* The traffic key and nonce salt of the security association (chain, spi,
 * dir) of one deployment, in one epoch: the first 36 bytes of HKDF-SHA256
 * with IKM = the long-term key ltk (32 bytes, from the key file), salt =
 * the deployment's random value, info = calvin_sa_info() (pair.h); the
 * key is bytes 0..31, the salt 32..35. Both ends of an SA derive the same;
 * anything else in the context gives other keys. Only the controller
 * derives: VNFs get the result (sa_set.h). Returns 0, -EINVAL or -EIO;
 * wipe out with calvin_sa_keys_wipe() once the context is keyed. */
int calvin_sa_derive(const uint8_t ltk[32], const uint8_t deploy_random[32], const char *chain,
		     uint32_t spi, unsigned int dir, uint32_t epoch, struct calvin_sa_keys *out);
void calvin_sa_keys_wipe(struct calvin_sa_keys *k);

/* The raw AEAD primitive the framing uses, exposed so tests can check it
 * against published vectors with their own nonce and AAD: one packet,
 * 12-byte nonce, 16-byte tag. Returns 0, -EBADMSG (open: tag), -EINVAL or
 * -EIO. */
int calvin_aead_raw(struct calvin_aead *a, const uint8_t nonce[CALVIN_CRYPT_NONCE_LEN],
		    const uint8_t *aad, size_t aad_len, uint8_t *out, const uint8_t *in, size_t len,
		    uint8_t tag[CALVIN_CRYPT_TAG_LEN]);

#endif /* CALVIN_LIB_AEAD_H */
