// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Network-coding header codec, coefficient rows and the encoder (the decoder is nc_decoder.c). */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <isa-l.h>

#include "codec/codec.h"

/* Early flush: the share of short gaps is an exponential average in
 * fixed point (NC_SHORT_ONE is all of them) over about 1 << NC_SHORT_SHIFT
 * gaps; below half, sources close their generations. It starts at all,
 * so a new encoder waits as without early flush until it has seen the
 * flow. */
#define NC_SHORT_ONE 1024u
#define NC_SHORT_SHIFT 3 /* weight of a new gap: 1/8 */

/* Room for a coded symbol, rounded to a cache line so symbols do not share lines. */
#define NC_SYM_STRIDE ((CALVIN_NC_MAX_SYMBOL + 63) & ~63u)
#define NC_REP_STRIDE ((CALVIN_NC_HDR_LEN + CALVIN_NC_MAX_SYMBOL + 63) & ~63u)

struct nc_encoder {
	unsigned int k, r;
	uint64_t flush_ns;
	uint32_t gen;			  /* id of the generation being filled */
	unsigned int n;			  /* sources in it so far */
	unsigned int max_len;		  /* longest payload in it */
	uint64_t first_ns;		  /* when its first source came */
	bool flush_early;
	uint64_t last_ns;	 /* when the last source came (0: none yet) */
	unsigned int short_avg;	 /* share of gaps under flush_ns, of NC_SHORT_ONE */
	unsigned int rep_ready, rep_next; /* repairs of the last closed generation */
	size_t rep_len;
	uint8_t *src;  /* k symbols of NC_SYM_STRIDE */
	uint8_t *rep;  /* r packets of NC_REP_STRIDE: header, then symbol */
	uint8_t *tbls; /* ISA-L tables, 32 * k * r */
	uint8_t coefs[CALVIN_NC_MAX_R * CALVIN_NC_MAX_K];
	uint8_t *in[CALVIN_NC_MAX_K];
	uint8_t *out[CALVIN_NC_MAX_R];
};

void nc_hdr_encode(const struct nc_hdr *h, void *buf)
{
	struct calvin_nc_hdr *w = buf;

	w->version = CALVIN_NC_VERSION;
	w->type = h->type;
	w->k = h->k;
	w->r = h->r;
	w->gen = htobe32(h->gen);
	w->index = h->index;
	w->flags = 0;
	w->len = htobe16(h->len);
	w->seed = htobe32(h->seed);
}

/* Field checks that depend on the type; the caller has checked version and size. */
static int hdr_check_fields(const struct calvin_nc_hdr *w, uint16_t len)
{
	if (w->flags || w->k == 0 || w->k > CALVIN_NC_MAX_K || w->r > CALVIN_NC_MAX_R)
		return -EBADMSG;
	switch (w->type) {
	case CALVIN_NC_SOURCE:
		if (w->index >= w->k || len > CALVIN_NC_MAX_PAYLOAD || w->seed)
			return -EBADMSG;
		return 0;
	case CALVIN_NC_REPAIR:
		if (w->index >= w->r || len < CALVIN_NC_LEN_BYTES || len > CALVIN_NC_MAX_SYMBOL)
			return -EBADMSG;
		return 0;
	default:
		return -EBADMSG;
	}
}

int nc_hdr_decode(const void *pkt, size_t len, struct nc_hdr *out)
{
	const struct calvin_nc_hdr *w = pkt;
	uint16_t plen;
	int err;

	if (len < CALVIN_NC_HDR_LEN)
		return -EMSGSIZE;
	if (w->version != CALVIN_NC_VERSION)
		return -EPROTONOSUPPORT;
	plen = be16toh(w->len);
	err = hdr_check_fields(w, plen);
	if (err)
		return err;
	if (len != CALVIN_NC_HDR_LEN + (size_t)plen)
		return -EMSGSIZE;
	out->version = w->version;
	out->type = w->type;
	out->k = w->k;
	out->r = w->r;
	out->gen = be32toh(w->gen);
	out->index = w->index;
	out->len = plen;
	out->seed = be32toh(w->seed);
	return 0;
}

/* MurmurHash3's finaliser: a counter-based generator has no bad seeds. */
static uint32_t fmix32(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bU;
	h ^= h >> 13;
	h *= 0xc2b2ae35U;
	h ^= h >> 16;
	return h;
}

void nc_coefs(uint32_t seed, unsigned int k, uint8_t *coefs)
{
	unsigned int i;

	for (i = 0; i < k; i++)
		coefs[i] = (uint8_t)(1 + fmix32(seed + i * 0x9e3779b9U) % 255);
}

/* Varies with the generation so that a loss pattern whose rows happen to be
 * singular in one generation is not singular in every one. */
uint32_t nc_seed(uint32_t gen, unsigned int j)
{
	return fmix32(gen * 0x9e3779b1U ^ fmix32(j + 1));
}

int nc_encoder_new(const struct nc_params *p, struct nc_encoder **out)
{
	struct nc_encoder *enc;
	unsigned int i;

	if (p->k == 0 || p->k > CALVIN_NC_MAX_K || p->r > CALVIN_NC_MAX_R)
		return -EINVAL;
	enc = calloc(1, sizeof(*enc));
	if (!enc)
		return -ENOMEM;
	enc->k = p->k;
	enc->r = p->r;
	enc->flush_ns = p->flush_ns;
	enc->flush_early = p->flush_early && p->flush_ns;
	enc->short_avg = NC_SHORT_ONE;
	enc->gen = p->first_gen;
	enc->src = aligned_alloc(64, (size_t)p->k * NC_SYM_STRIDE);
	if (!enc->src)
		goto err_free_enc;
	/* r may be 0: allocate one row so the pointers stay valid */
	enc->rep = aligned_alloc(64, (size_t)(p->r ? p->r : 1) * NC_REP_STRIDE);
	if (!enc->rep)
		goto err_free_src;
	enc->tbls = malloc(32 * (size_t)p->k * (p->r ? p->r : 1));
	if (!enc->tbls)
		goto err_free_rep;
	for (i = 0; i < p->k; i++)
		enc->in[i] = enc->src + (size_t)i * NC_SYM_STRIDE;
	for (i = 0; i < p->r; i++)
		enc->out[i] = enc->rep + (size_t)i * NC_REP_STRIDE + CALVIN_NC_HDR_LEN;
	*out = enc;
	return 0;

err_free_rep:
	free(enc->rep);
err_free_src:
	free(enc->src);
err_free_enc:
	free(enc);
	return -ENOMEM;
}

void nc_encoder_free(struct nc_encoder *enc)
{
	if (!enc)
		return;
	free(enc->tbls);
	free(enc->rep);
	free(enc->src);
	free(enc);
}

/* Code the n sources of the current generation into r repair packets. */
static void encoder_make_repairs(struct nc_encoder *enc)
{
	unsigned int n = enc->n, sym_len = CALVIN_NC_LEN_BYTES + enc->max_len, i, j;
	struct nc_hdr h = {.type = CALVIN_NC_REPAIR, .k = (uint8_t)n, .r = (uint8_t)enc->r};

	/* pad every symbol to the generation's longest with zeros */
	for (i = 0; i < n; i++) {
		uint8_t *s = enc->in[i];
		unsigned int used = CALVIN_NC_LEN_BYTES + ((unsigned int)s[0] << 8 | s[1]);

		memset(s + used, 0, sym_len - used);
	}
	h.gen = enc->gen;
	h.len = (uint16_t)sym_len;
	for (j = 0; j < enc->r; j++) {
		h.index = (uint8_t)j;
		h.seed = nc_seed(enc->gen, j);
		nc_coefs(h.seed, n, enc->coefs + j * n);
		nc_hdr_encode(&h, enc->out[j] - CALVIN_NC_HDR_LEN);
	}
	ec_init_tables((int)n, (int)enc->r, enc->coefs, enc->tbls);
	ec_encode_data((int)sym_len, (int)n, (int)enc->r, enc->tbls, enc->in, enc->out);
	enc->rep_ready = enc->r;
	enc->rep_next = 0;
	enc->rep_len = CALVIN_NC_HDR_LEN + sym_len;
}

/* Close the current generation (n >= 1) and start the next one. */
static int encoder_close(struct nc_encoder *enc)
{
	enc->rep_ready = 0;
	enc->rep_next = 0;
	if (enc->r)
		encoder_make_repairs(enc);
	enc->gen++;
	enc->n = 0;
	enc->max_len = 0;
	return (int)enc->rep_ready;
}

/* Fold the gap since the last source into the share of short gaps. A
 * clock that went back (timestamps of another thread) counts as short. */
static void gap_learn(struct nc_encoder *enc, uint64_t now_ns)
{
	unsigned int sample;

	if (enc->last_ns) {
		sample = now_ns - enc->last_ns < enc->flush_ns || now_ns < enc->last_ns ? NC_SHORT_ONE : 0;
		enc->short_avg = enc->short_avg - (enc->short_avg >> NC_SHORT_SHIFT) +
				 (sample >> NC_SHORT_SHIFT);
	}
	enc->last_ns = now_ns ? now_ns : 1;
}

int nc_encoder_add(struct nc_encoder *enc, const void *payload, size_t len, uint64_t now_ns,
		   void *hdr)
{
	struct nc_hdr h = {.type = CALVIN_NC_SOURCE, .k = (uint8_t)enc->k, .r = (uint8_t)enc->r};
	uint8_t *s;

	if (len > CALVIN_NC_MAX_PAYLOAD)
		return -EMSGSIZE;
	if (enc->flush_early)
		gap_learn(enc, now_ns);
	if (enc->n == 0)
		enc->first_ns = now_ns;
	s = enc->in[enc->n];
	s[0] = (uint8_t)(len >> 8);
	s[1] = (uint8_t)len;
	memcpy(s + CALVIN_NC_LEN_BYTES, payload, len);
	if (len > enc->max_len)
		enc->max_len = (unsigned int)len;
	h.gen = enc->gen;
	h.index = (uint8_t)enc->n;
	h.len = (uint16_t)len;
	nc_hdr_encode(&h, hdr);
	if (++enc->n < enc->k && !(enc->flush_early && enc->short_avg < NC_SHORT_ONE / 2))
		return 0;
	return encoder_close(enc);
}

int nc_encoder_flush(struct nc_encoder *enc, uint64_t now_ns)
{
	if (enc->n == 0)
		return 0;
	return encoder_close(enc);
}

uint64_t nc_encoder_deadline(const struct nc_encoder *enc)
{
	if (enc->n == 0 || enc->flush_ns == 0 || enc->first_ns > UINT64_MAX - enc->flush_ns)
		return UINT64_MAX;
	return enc->first_ns + enc->flush_ns;
}

int nc_encoder_poll(struct nc_encoder *enc, uint64_t now_ns)
{
	if (now_ns < nc_encoder_deadline(enc))
		return 0;
	return nc_encoder_flush(enc, now_ns);
}

int nc_encoder_next_repair(struct nc_encoder *enc, const uint8_t **pkt, size_t *len)
{
	if (enc->rep_next >= enc->rep_ready)
		return 0;
	*pkt = enc->out[enc->rep_next++] - CALVIN_NC_HDR_LEN;
	*len = enc->rep_len;
	return 1;
}
