/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The audit of an encrypted link's captured frames (tests/tools/nonce_audit
 * and its unit test): which key sealed each frame, and whether any (key,
 * nonce) pair was used twice.
 *
 * The wire names only (SPI, seq); the epoch that keys an SA is never sent
 * (include/calvin/crypt.h), and a restarted pair starts its seq at 1
 * again. So the key of a frame is found the way an attacker with the key
 * file would: by trial, deriving each (SPI, direction, epoch)'s key as
 * calvin does and keeping the one whose tag verifies. Its nonce is that
 * SA's salt and the header's seq, so a (key, nonce) pair is an (SPI,
 * direction, epoch, seq); two frames of the same one that differ (other
 * tags) are a nonce reuse, the fault that gives away AES-GCM's
 * authentication key. The same frame twice (a capture seeing a copy) is
 * not. */
#ifndef CALVIN_TOOLS_WIRE_AUDIT_H
#define CALVIN_TOOLS_WIRE_AUDIT_H

#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <calvin/crypt.h>
#include <calvin/telemetry.h>
#include "codec/codec.h"

#define AUDIT_MAX_EPOCHS 64
#define AUDIT_MAX_KEYS 256
#define AUDIT_FRAME_MAX 2048

struct audit_key {
	uint32_t spi, epoch;
	unsigned int dir;
	struct calvin_aead a;
};

struct audit_seen {
	uint32_t spi, epoch;
	unsigned int dir;
	uint64_t seq;
	uint8_t tag[CALVIN_CRYPT_TAG_LEN];
};

struct wire_audit {
	uint8_t ltk[CALVIN_KEY_LEN], rnd[CALVIN_DEPLOY_RANDOM_LEN];
	char chain[256];
	enum calvin_cipher cipher;
	uint32_t max_epoch;
	unsigned int nr_keys;
	struct audit_key keys[AUDIT_MAX_KEYS];
	struct audit_seen *seen;
	size_t nr_seen, cap_seen;
	unsigned long frames, unknown; /* sealed frames; those no key opened */
	unsigned long per_epoch[AUDIT_MAX_EPOCHS + 1];
};

/* What the frames showed, once all are in (audit_verdict). */
struct audit_verdict {
	unsigned long repeats;	  /* (key, nonce) pairs used for two different frames */
	unsigned long duplicates; /* the same frame seen again */
	unsigned long seq_reused; /* (SPI, direction, seq) sent under more than one key */
	unsigned int epochs;	  /* how many epochs sealed frames */
};

static inline void audit_init(struct wire_audit *w, const uint8_t *ltk, const uint8_t *rnd,
			      const char *chain, enum calvin_cipher c, uint32_t max_epoch)
{
	memset(w, 0, sizeof(*w));
	memcpy(w->ltk, ltk, sizeof(w->ltk));
	memcpy(w->rnd, rnd, sizeof(w->rnd));
	snprintf(w->chain, sizeof(w->chain), "%s", chain);
	w->cipher = c;
	w->max_epoch = max_epoch < AUDIT_MAX_EPOCHS ? max_epoch : AUDIT_MAX_EPOCHS;
}

static inline void audit_free(struct wire_audit *w)
{
	unsigned int i;

	for (i = 0; i < w->nr_keys; i++)
		calvin_aead_free(&w->keys[i].a);
	free(w->seen);
	explicit_bzero(w->ltk, sizeof(w->ltk));
	w->nr_keys = 0;
	w->seen = NULL;
}

/* The opening context of (spi, dir, epoch), derived once; NULL when full. */
static inline struct calvin_aead *audit_key(struct wire_audit *w, uint32_t spi, unsigned int dir,
					    uint32_t epoch)
{
	struct calvin_sa_keys k;
	struct audit_key *ak;
	unsigned int i;
	int err;

	for (i = 0; i < w->nr_keys; i++)
		if (w->keys[i].spi == spi && w->keys[i].dir == dir && w->keys[i].epoch == epoch)
			return &w->keys[i].a;
	if (w->nr_keys == AUDIT_MAX_KEYS)
		return NULL;
	ak = &w->keys[w->nr_keys];
	if (calvin_sa_derive(w->ltk, w->rnd, w->chain, spi, dir, epoch, &k))
		return NULL;
	err = calvin_aead_init(&ak->a, w->cipher, k.key, sizeof(k.key), k.salt, spi, 0);
	calvin_sa_keys_wipe(&k);
	if (err)
		return NULL;
	ak->spi = spi;
	ak->dir = dir;
	ak->epoch = epoch;
	return &w->keys[w->nr_keys++].a;
}

/* Does key a open the sealed frame p? A fresh replay window each time:
 * the audit looks for repeats itself, and must see them. */
static inline bool audit_opens(struct calvin_aead *a, const uint8_t *p, size_t len)
{
	static uint8_t out[AUDIT_FRAME_MAX];
	struct calvin_replay win;

	calvin_replay_init(&win, CALVIN_REPLAY_MIN);
	return calvin_aead_open(a, &win, out, sizeof(out), p, len) >= 0;
}

/* One frame's application bytes (header, ciphertext, tag). The epoch
 * whose key opened it; 0: not a sealed frame (other traffic); -EBADMSG:
 * sealed, but under no key of epochs 1..max_epoch; -ENOMEM. */
static inline int audit_frame(struct wire_audit *w, const uint8_t *p, size_t len)
{
	const struct calvin_crypt_hdr *h = (const void *)p;
	struct audit_seen *s;
	struct calvin_aead *a;
	unsigned int dir;
	uint32_t e, spi;

	if (len < CALVIN_CRYPT_OVERHEAD || len > AUDIT_FRAME_MAX ||
	    h->version != CALVIN_CRYPT_VERSION || h->reserved[0] || h->reserved[1] ||
	    h->reserved[2] || !h->spi)
		return 0;
	w->frames++;
	spi = be32toh(h->spi);
	for (e = 1; e <= w->max_epoch; e++)
		for (dir = CALVIN_DIR_FWD; dir <= CALVIN_DIR_REV; dir++) {
			a = audit_key(w, spi, dir, e);
			if (!a || !audit_opens(a, p, len))
				continue;
			if (w->nr_seen == w->cap_seen) {
				s = realloc(w->seen, (w->cap_seen * 2 + 64) * sizeof(*s));
				if (!s)
					return -ENOMEM;
				w->seen = s;
				w->cap_seen = w->cap_seen * 2 + 64;
			}
			s = &w->seen[w->nr_seen++];
			*s = (struct audit_seen){
				.spi = spi, .dir = dir, .epoch = e, .seq = be64toh(h->seq)
			};
			memcpy(s->tag, p + len - CALVIN_CRYPT_TAG_LEN, CALVIN_CRYPT_TAG_LEN);
			w->per_epoch[e]++;
			return (int)e;
		}
	w->unknown++;
	return -EBADMSG;
}

static inline int audit_cmp(const void *x, const void *y)
{
	const struct audit_seen *a = x, *b = y;

	if (a->spi != b->spi)
		return a->spi < b->spi ? -1 : 1;
	if (a->dir != b->dir)
		return a->dir < b->dir ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	if (a->epoch != b->epoch)
		return a->epoch < b->epoch ? -1 : 1;
	return memcmp(a->tag, b->tag, sizeof(a->tag));
}

/* Sorted by (SPI, direction, seq, epoch): equal neighbours are the same
 * (key, nonce); the same (SPI, direction, seq) under two epochs is what a
 * restart sends, each under its own key. */
static inline struct audit_verdict audit_verdict(struct wire_audit *w)
{
	struct audit_verdict v = { 0 };
	const struct audit_seen *a, *b;
	size_t i;
	uint32_t e;

	qsort(w->seen, w->nr_seen, sizeof(*w->seen), audit_cmp);
	for (i = 1; i < w->nr_seen; i++) {
		a = &w->seen[i - 1];
		b = &w->seen[i];
		if (a->spi != b->spi || a->dir != b->dir || a->seq != b->seq)
			continue;
		if (a->epoch != b->epoch)
			v.seq_reused++;
		else if (memcmp(a->tag, b->tag, sizeof(a->tag)))
			v.repeats++;
		else
			v.duplicates++;
	}
	for (e = 1; e <= w->max_epoch; e++)
		v.epochs += w->per_epoch[e] > 0;
	return v;
}

#endif /* CALVIN_TOOLS_WIRE_AUDIT_H */
