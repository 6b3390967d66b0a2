/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The transforms' pure code: what the nc-encode/nc-decode and the
 * encrypt/decrypt VNFs do to each packet, and the keys they do it with.
 * Network coding (nc.c, nc_decoder.c; wire format include/calvin/nc.h),
 * the anti-replay window (replay.c), AEAD framing and key derivation
 * (aead.c, the one file that includes OpenSSL; wire format
 * include/calvin/crypt.h), what an SA's keys are derived from
 * (sa_info.c), the keys a VNF is handed (sa_set.c), and key files
 * (keyfile.c). No I/O but the key files' reading. */
#ifndef CALVIN_LIB_CODEC_H
#define CALVIN_LIB_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <calvin/nc.h>
#include <calvin/crypt.h>
#include <calvin/telemetry.h> /* CALVIN_DIR_FWD, CALVIN_DIR_REV */

#include "spec/spec.h"

/* ==== nc.c, nc_decoder.c ==== */

/* Network-coding codec (systematic RLNC over GF(2^8), include/calvin/nc.h) for the NC VNF.
 * Pure code: no I/O; all memory is allocated by nc_*_new(), none per packet.
 * Codes opaque byte buffers: the caller keeps headers and telemetry in clear
 * and passes only the application bytes. Link with -lisal. */

/* A decoded header in host byte order. */
struct nc_hdr {
	uint8_t version;
	uint8_t type;
	uint8_t k;
	uint8_t r;
	uint32_t gen;
	uint8_t index;
	uint16_t len;
	uint32_t seed;
};

/* Write h at buf (CALVIN_NC_HDR_LEN bytes), version and flags filled in. */
void nc_hdr_encode(const struct nc_hdr *h, void *buf);

/* Decode the header of the packet pkt[0..len). Returns 0, or -EMSGSIZE
 * (shorter than the header, or len does not match the packet),
 * -EPROTONOSUPPORT (unknown version), -EBADMSG (unknown type or flags, k, r
 * or index out of range, bad length). */
int nc_hdr_decode(const void *pkt, size_t len, struct nc_hdr *out);

/* Coefficient row of a repair packet: k bytes from seed (see include/calvin/nc.h). */
void nc_coefs(uint32_t seed, unsigned int k, uint8_t *coefs);
/* Seed the encoder puts in repair j of generation gen. */
uint32_t nc_seed(uint32_t gen, unsigned int j);

struct nc_params {
	unsigned int k;	     /* generation size, 1..CALVIN_NC_MAX_K */
	unsigned int r;	     /* repair packets per generation, 0..CALVIN_NC_MAX_R */
	uint64_t flush_ns;   /* encoder: flush a partial generation this long after
			      * its first packet; 0: never */
	bool flush_early;    /* encoder: close a partial generation at once when
			      * no source is expected before its flush (below) */
	uint32_t first_gen;  /* encoder: id of the first generation */
	unsigned int window; /* decoder: generations kept, a power of two 2..64;
			      * 0: NC_DEFAULT_WINDOW */
};

#define NC_DEFAULT_WINDOW 8

/* Encoder. Per source payload: nc_encoder_add() gives the header to put in
 * front of it (the caller sends header + payload at once); when it closes a
 * generation, the repair packets are fetched with nc_encoder_next_repair().
 * The caller's loop calls nc_encoder_poll() to flush late partial generations. */
struct nc_encoder;

/* Returns 0 or -EINVAL (bad k or r), -ENOMEM. */
int nc_encoder_new(const struct nc_params *p, struct nc_encoder **out);
void nc_encoder_free(struct nc_encoder *enc);

/* Take one source payload (len <= CALVIN_NC_MAX_PAYLOAD), write its header
 * in hdr (CALVIN_NC_HDR_LEN bytes). Returns the number of repair packets now
 * ready (r when this packet closed the generation, else 0), or -EMSGSIZE.
 *
 * Early flush (p->flush_early, with flush_ns > 0): the encoder keeps an
 * average of how often the gap between two sources was shorter than
 * flush_ns. While that is under half the time, the next source is not
 * expected before the flush, so waiting for it would only delay the
 * repairs (the generation would leave as partial anyway, with the same
 * repairs): the source then closes its generation itself, and a lost one
 * is recovered one frame later instead of flush_ns later. Sources of one
 * receive burst share a timestamp and count as close together, so bursts
 * still fill their generations. */
int nc_encoder_add(struct nc_encoder *enc, const void *payload, size_t len, uint64_t now_ns,
		   void *hdr);

/* Close the current generation early (k' < k packets): make its repair
 * packets and start a new generation. Returns the number of repair packets
 * ready (0 when the generation was empty). */
int nc_encoder_flush(struct nc_encoder *enc, uint64_t now_ns);

/* When the current partial generation must be flushed; UINT64_MAX if never. */
uint64_t nc_encoder_deadline(const struct nc_encoder *enc);

/* Flush if the deadline has passed. Returns as nc_encoder_flush(). */
int nc_encoder_poll(struct nc_encoder *enc, uint64_t now_ns);

/* Next ready repair packet (header + coded symbol) in *pkt, *len. Returns 1,
 * or 0 when there is none left. The bytes stay valid until the next
 * generation closes. */
int nc_encoder_next_repair(struct nc_encoder *enc, const uint8_t **pkt, size_t *len);

/* Decoder. Per received packet, nc_decoder_push() says whether to forward it
 * (a source: payload at once) and may recover lost sources, which the caller
 * then drains with nc_decoder_next() before the next push. */
struct nc_decoder;

struct nc_decoder_stats {
	uint64_t forwarded;	/* source packets passed on as they came */
	uint64_t recovered;	/* lost sources rebuilt from repair packets */
	uint64_t unrecoverable; /* sources known missing when their generation
				 * left the window */
	uint64_t duplicate;	/* a source or repair seen (or recovered) before */
	uint64_t stale;		/* generation older than the window */
	uint64_t malformed;	/* rejected header, or inconsistent with its generation */
	uint64_t repair_unused; /* repair for a generation already complete */
};

/* Returns 0 or -EINVAL (bad k, r or window), -ENOMEM. p->k and p->r bound
 * what the decoder accepts; flush_ns and first_gen are not used. */
int nc_decoder_new(const struct nc_params *p, struct nc_decoder **out);
void nc_decoder_free(struct nc_decoder *dec);

/* Receive one packet (header + payload). Returns 1 for a new source, to
 * forward now: its payload is (*data, *len_out), inside pkt. Returns 0 for a
 * repair (consumed), or a negative errno when the packet is dropped: -ESTALE
 * (older than the window), -EALREADY (duplicate), or a header error of
 * nc_hdr_decode() or -EBADMSG (malformed). Either way, recovered sources may
 * then be waiting in nc_decoder_next(). */
int nc_decoder_push(struct nc_decoder *dec, const void *pkt, size_t len, const uint8_t **data,
		    size_t *len_out);

/* Next recovered source payload in (*data, *len), valid until the next push.
 * Returns 1, or 0 when none is left. */
int nc_decoder_next(struct nc_decoder *dec, const uint8_t **data, size_t *len);

/* Retire every generation in the window (at shutdown, or in tests), counting
 * its missing sources as unrecoverable. */
void nc_decoder_retire_all(struct nc_decoder *dec);

const struct nc_decoder_stats *nc_decoder_stats(const struct nc_decoder *dec);

/* ==== replay.c ==== */

/* Anti-replay sliding window for 64-bit sequence numbers (RFC 4303 3.4.3).
 *
 * Pure code: no I/O, no allocation. The receiver checks a packet's sequence
 * number before it spends time on the tag (calvin_replay_check()) and
 * records it only after the tag verified (calvin_replay_update()), so a
 * forged packet can neither be accepted nor move the window.
 *
 * The window holds the W sequence numbers top-W+1 .. top, where top is the
 * highest number accepted so far; anything newer than top is accepted and
 * slides the window. The bitmap is circular (RFC 6479): it has at least one
 * 64-bit word more than W needs, so sliding clears whole words and never
 * shifts bits. Sequence number 0 is never valid. */

#define CALVIN_REPLAY_MIN 32
#define CALVIN_REPLAY_MAX 4096
/* words for the largest window: a power of two >= 4096/64 + 1 */
#define CALVIN_REPLAY_WORDS 128

struct calvin_replay {
	uint64_t top;  /* highest sequence number accepted; 0: none yet */
	uint32_t size; /* W */
	uint32_t mask; /* number of bitmap words in use - 1 (a power of two - 1) */
	uint64_t bits[CALVIN_REPLAY_WORDS]; /* bit seq%64 of word (seq/64)&mask */
};

/* Empty window of size W (CALVIN_REPLAY_MIN..CALVIN_REPLAY_MAX).
 * Returns 0 or -EINVAL. */
int calvin_replay_init(struct calvin_replay *w, unsigned int size);

/* May seq be accepted? 0, or -EALREADY when seq is 0, was seen already, or
 * is W or more behind the newest accepted. Changes nothing. */
int calvin_replay_check(const struct calvin_replay *w, uint64_t seq);

/* Record seq as accepted; call only after calvin_replay_check() returned 0
 * and the packet authenticated. */
void calvin_replay_update(struct calvin_replay *w, uint64_t seq);

/* ==== aead.c ==== */

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
 * format of keyfile.c (v2). Returns 0 or -errno with one line in err. */
int calvin_keyfile_generate(const char *path, char *err, size_t errlen);

/* HKDF-SHA256 (RFC 5869), extract then expand, through OpenSSL's EVP_KDF:
 * okm_len bytes (1..8160) from ikm (not empty), salt and info (either may
 * be empty). Returns 0, -EINVAL or -EIO. */
int calvin_hkdf_sha256(const uint8_t *ikm, size_t ikm_len, const uint8_t *salt, size_t salt_len,
		       const uint8_t *info, size_t info_len, uint8_t *okm, size_t okm_len);

/* SHA-256 over a stream fed in pieces (a guest image's checksum, which
 * names its volume on a remote host): begin, feed, end. end frees the
 * context, also on error. 0, -ENOMEM or -EIO. */
int calvin_sha256_begin(void **ctx);
int calvin_sha256_feed(void *ctx, const void *p, size_t len);
int calvin_sha256_end(void *ctx, uint8_t out[32]);

/* What one security association is keyed with. */
struct calvin_sa_keys {
	uint8_t key[32];
	uint8_t salt[CALVIN_CRYPT_SALT_LEN];
};

/* The traffic key and nonce salt of the security association (chain, spi,
 * dir) of one deployment, in one epoch: the first 36 bytes of HKDF-SHA256
 * with IKM = the long-term key ltk (32 bytes, from the key file), salt =
 * the deployment's random value, info = calvin_sa_info() (sa_info.c); the
 * key is bytes 0..31, the salt 32..35. Both ends of an SA derive the same;
 * anything else in the context gives other keys. Only the controller
 * derives: VNFs get the result (sa_set.c). Returns 0, -EINVAL or -EIO;
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

/* ==== sa_info.c ==== */

/* What the traffic keys of a security association are derived from: the
 * deployment's random value and the HKDF info of the SA. Pure: no I/O.
 *
 * Each direction of an encrypt/decrypt pair is a security association of
 * its own, as in IPsec: an SPI of its own (spi forward, spi-rev backward)
 * and a traffic key and nonce salt derived for it (calvin_sa_derive() in
 * aead.c) by HKDF-SHA256 from the key file's long-term key, with the
 * deployment's random value as salt and calvin_sa_info() as info. Which
 * way each VNF of a pair transforms is spec/spec.h's (calvin_pair_role()). */

/* What `calvin up` makes for each deployment (getrandom): the HKDF salt of
 * its traffic keys. It stays on the host (the chain's state directory, as
 * hex, for restarts); VNFs get derived keys only (sa_set.c). */
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

/* ==== sa_set.c ==== */

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
 *     u32 epoch    not 0 (sa_info.c)
 *     nr times:
 *       u8 dir     CALVIN_DIR_FWD or CALVIN_DIR_REV, each at most once
 *       u8 zero[3]
 *       u32 spi    not 0
 *       32 bytes   traffic key
 *       4 bytes    nonce salt
 */

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

/* ==== keyfile.c ==== */

/* Key files of the encrypt/decrypt VNFs: format, safe loading, key memory.
 *
 * A key file holds a long-term key only: one line of 64 hex digits, 32
 * bytes. No packet is ever sealed with it: each deployment derives the
 * traffic key and nonce salt of each security association from it (HKDF,
 * see calvin_sa_derive() in aead.c). Lines starting with '#' (after
 * optional blanks) and blank lines are ignored; upper- or lower-case hex;
 * nothing else may be on the key line. Example:
 *
 *   # calvin key file v2: a 32-byte long-term key, hex
 *   000102...1f   (written without the dots)
 *
 * Files of the first format (v1: 72 hex digits, the key then a 4-byte
 * nonce salt) keep working: the format is told by the line's length, the
 * key is read and the old salt ignored, since salts are now derived per
 * deployment (a fixed salt from the file is what let a redeployment reuse
 * nonces). calvin keygen writes v2. Both formats give the same long-term
 * key for the same 32 bytes, so a v1 file may be rewritten as v2 by
 * dropping its last 8 digits.
 *
 * The file must be a regular file (not a symlink) of the caller's that
 * neither group nor others can read or write (chmod 600), in a folder only
 * its owner can write, below folders that belong to root or the caller and
 * that others cannot write (or sticky ones, like /tmp). It is opened once
 * per command (calvin_keyring): the bytes checked are the bytes used.
 * calvin_keyfile_generate() in aead.c writes one. No message ever
 * contains key bytes. */

#define CALVIN_KEY_LEN 32
#define CALVIN_KEYFILE_HEX_LEN (2 * CALVIN_KEY_LEN)
/* v1: the key, then a 4-byte salt that is read and ignored */
#define CALVIN_KEYFILE_V1_HEX_LEN (CALVIN_KEYFILE_HEX_LEN + 8)
/* a key file is small; a bigger one is not a key file */
#define CALVIN_KEYFILE_MAX 4096

struct calvin_key {
	uint8_t key[CALVIN_KEY_LEN];
};

/* A key on a page of its own, locked in memory where the limits allow
 * (mlock) and left out of core dumps (MADV_DONTDUMP). NULL on failure. */
struct calvin_key *calvin_key_new(void);

/* Wipe and release a key from calvin_key_new(); NULL is fine. */
void calvin_key_free(struct calvin_key *k);

/* Parse key file text (len bytes, need not be NUL-terminated). Pure.
 * Returns 0, or -EINVAL with one line in err naming path and what is wrong. */
int calvin_keyfile_parse(const char *text, size_t len, const char *path, struct calvin_key *k,
			 char *err, size_t errlen);

/* Check and read the key file at path into k. Returns 0 or -errno with one
 * line in err, e.g. "k.key: mode 0644 lets others read the key; chmod 600
 * k.key". On failure k is wiped. */
int calvin_keyfile_load(const char *path, struct calvin_key *k, char *err, size_t errlen);

/* Is path a place for a key file: its folders as a key file's must be
 * (above)? 0 or -errno with one line in err. For keygen: a key made where
 * calvin up would refuse it helps nobody. */
int calvin_keyfile_check_place(const char *path, char *err, size_t errlen);

/* The key files one command uses, each read once, by path. */
#define CALVIN_KEYRING_MAX 32
struct calvin_keyring {
	unsigned int nr;
	struct {
		char *path;
		struct calvin_key *key;
	} e[CALVIN_KEYRING_MAX];
};

/* The key of path: read now (checked as calvin_keyfile_load() does) if the
 * ring does not hold it yet. Returns 0 and *key, or -errno with one line in
 * err. */
int calvin_keyring_add(struct calvin_keyring *r, const char *path, const struct calvin_key **key,
		       char *err, size_t errlen);
/* The key the ring holds for path, or NULL. */
const struct calvin_key *calvin_keyring_get(const struct calvin_keyring *r, const char *path);
/* Wipe and forget every key; the ring is empty and usable again. */
void calvin_keyring_clear(struct calvin_keyring *r);

/* The key files of spec's encrypt and decrypt VNFs, each read once into
 * ring. Returns 0 or -errno with one line in err, "path:line:col: what is
 * wrong; what to do" at the key-file value. */
int calvin_spec_load_keys(const struct calvin_chain_spec *spec, struct calvin_keyring *ring,
			  char *err, size_t errlen);
/* The same, keeping no key: a check. */
int calvin_spec_check_key_files(const struct calvin_chain_spec *spec, char *err, size_t errlen);

#endif /* CALVIN_LIB_CODEC_H */
