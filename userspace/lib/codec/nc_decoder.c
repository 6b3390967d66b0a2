// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Network-coding decoder: forwards sources, rebuilds lost ones, keeps a window of generations.
 *
 * Decoding is done once per generation, when enough independent repairs are
 * in: the repair rows restricted to the missing columns are chosen by a
 * small incremental elimination (gf_mul/gf_inv on at most 64x64 bytes, to
 * skip dependent rows), inverted with gf_invert_matrix(), folded with the
 * known sources' coefficients into one decode matrix, and applied to the
 * payload bytes in a single ec_encode_data() call. So the bulk data is
 * touched once by ISA-L's SIMD code, however many packets were lost. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <isa-l.h>

#include "codec/codec.h"

#define NC_SYM_STRIDE ((CALVIN_NC_MAX_SYMBOL + 63) & ~63u)
#define MAX_K CALVIN_NC_MAX_K

/* One generation in the window. Its symbols live in the decoder's arena. */
struct nc_gen {
	uint32_t id;
	uint8_t used;
	uint8_t complete;  /* every source forwarded or recovered */
	uint8_t k_nom;	   /* k of its source headers, 0 until one came */
	uint8_t k_real;	   /* k' of its repair headers, 0 until one came */
	uint8_t top;	   /* 1 + highest source index seen */
	uint8_t nr_rep;	   /* repairs stored */
	uint16_t sym_len;  /* L of its repair headers */
	uint16_t max_src;  /* longest source payload stored */
	uint64_t have;	   /* sources stored or recovered */
	uint64_t rep_seen; /* repair indices seen */
	uint8_t *src;	   /* k_max symbols */
	uint8_t *rep;	   /* r_max symbols */
	uint32_t rep_seed[CALVIN_NC_MAX_R];
};

struct nc_decoder {
	unsigned int k_max, r_max, window;
	int started;
	uint32_t newest; /* newest generation id seen */
	struct nc_gen *gens;
	uint8_t *arena;
	struct nc_decoder_stats st;
	struct nc_gen *out_gen; /* recovered sources not yet drained */
	uint64_t out_mask;
	/* scratch of one decode */
	uint8_t rows[MAX_K][MAX_K];  /* full coefficient rows of the chosen repairs */
	uint8_t basis[MAX_K][MAX_K]; /* echelon form, missing columns only */
	uint8_t mat[MAX_K * MAX_K], inv[MAX_K * MAX_K], dmat[MAX_K * MAX_K];
	uint8_t tbls[32 * MAX_K * MAX_K];
	uint8_t *in[MAX_K], *out[MAX_K];
};

static uint8_t *sym(const struct nc_gen *g, unsigned int i)
{
	return g->src + (size_t)i * NC_SYM_STRIDE;
}

static uint8_t *rep_sym(const struct nc_gen *g, unsigned int j)
{
	return g->rep + (size_t)j * NC_SYM_STRIDE;
}

int nc_decoder_new(const struct nc_params *p, struct nc_decoder **out)
{
	unsigned int w = p->window ? p->window : NC_DEFAULT_WINDOW, per, i;
	struct nc_decoder *dec;

	if (p->k == 0 || p->k > CALVIN_NC_MAX_K || p->r > CALVIN_NC_MAX_R || w < 2 || w > 64 ||
	    (w & (w - 1)))
		return -EINVAL;
	dec = calloc(1, sizeof(*dec));
	if (!dec)
		return -ENOMEM;
	dec->k_max = p->k;
	dec->r_max = p->r;
	dec->window = w;
	dec->gens = calloc(w, sizeof(*dec->gens));
	if (!dec->gens)
		goto err_free_dec;
	per = p->k + p->r;
	dec->arena = aligned_alloc(64, (size_t)w * per * NC_SYM_STRIDE);
	if (!dec->arena)
		goto err_free_gens;
	for (i = 0; i < w; i++) {
		dec->gens[i].src = dec->arena + (size_t)i * per * NC_SYM_STRIDE;
		dec->gens[i].rep = dec->gens[i].src + (size_t)p->k * NC_SYM_STRIDE;
	}
	*out = dec;
	return 0;

err_free_gens:
	free(dec->gens);
err_free_dec:
	free(dec);
	return -ENOMEM;
}

void nc_decoder_free(struct nc_decoder *dec)
{
	if (!dec)
		return;
	free(dec->arena);
	free(dec->gens);
	free(dec);
}

const struct nc_decoder_stats *nc_decoder_stats(const struct nc_decoder *dec)
{
	return &dec->st;
}

/* A generation leaves the window. Without a repair header its real size is
 * unknown, so only the sources below the highest one seen count as missing. */
static void gen_retire(struct nc_decoder *dec, struct nc_gen *g)
{
	unsigned int size;
	int have;

	if (!g->used)
		return;
	if (!g->complete) {
		size = g->k_real ? g->k_real : g->top;
		have = __builtin_popcountll(g->have);
		if ((int)size > have)
			dec->st.unrecoverable += size - (unsigned int)have;
	}
	g->used = 0;
}

void nc_decoder_retire_all(struct nc_decoder *dec)
{
	unsigned int i;

	for (i = 0; i < dec->window; i++)
		gen_retire(dec, &dec->gens[i]);
	dec->out_gen = NULL;
	dec->out_mask = 0;
}

/* Find (or open) the slot of generation id, moving the window forward if it
 * is newer than any seen; NULL if it is older than the window. */
static struct nc_gen *gen_lookup(struct nc_decoder *dec, uint32_t id)
{
	uint32_t mask = dec->window - 1, i, steps;
	int32_t d = (int32_t)(id - dec->newest);
	struct nc_gen *g;

	if (!dec->started) {
		dec->started = 1;
		dec->newest = id;
		d = 0;
	}
	if (d > 0) {
		steps = (uint32_t)d < dec->window ? (uint32_t)d : dec->window;
		for (i = 1; i <= steps; i++)
			gen_retire(dec, &dec->gens[(dec->newest + i) & mask]);
		dec->newest = id;
	} else if (dec->newest - id >= dec->window) {
		return NULL;
	}
	g = &dec->gens[id & mask];
	if (!g->used) {
		uint8_t *src = g->src, *rep = g->rep;

		memset(g, 0, sizeof(*g));
		g->src = src;
		g->rep = rep;
		g->used = 1;
		g->id = id;
	}
	return g;
}

/* Reduce v (n bytes) against the basis; if it is independent, add it.
 * Returns 1 when v was added. */
static int basis_add(struct nc_decoder *dec, unsigned int nb, uint8_t *v, unsigned int n)
{
	unsigned int b, c, p;
	uint8_t f, iv;

	for (b = 0; b < nb; b++) {
		/* basis row b has its leading 1 at column p */
		for (p = 0; p < n && !dec->basis[b][p]; p++)
			;
		f = v[p];
		if (!f)
			continue;
		for (c = p; c < n; c++)
			v[c] ^= gf_mul(f, dec->basis[b][c]);
	}
	for (p = 0; p < n && !v[p]; p++)
		;
	if (p == n)
		return 0;
	iv = gf_inv(v[p]);
	for (c = p; c < n; c++)
		dec->basis[nb][c] = gf_mul(iv, v[c]);
	for (c = 0; c < p; c++)
		dec->basis[nb][c] = 0;
	return 1;
}

/* Choose m repairs whose rows are independent on the missing columns, put
 * their symbols in in[0..m) and their full rows in rows[]. Returns 0, or
 * -EAGAIN when the stored repairs do not have rank m yet. */
static int choose_repairs(struct nc_decoder *dec, struct nc_gen *g, const uint8_t *miss,
			  unsigned int m)
{
	unsigned int k = g->k_real, j, t, nb = 0;
	uint8_t v[MAX_K];

	for (j = 0; j < g->nr_rep && nb < m; j++) {
		nc_coefs(g->rep_seed[j], k, dec->rows[nb]);
		for (t = 0; t < m; t++)
			v[t] = dec->rows[nb][miss[t]];
		if (!basis_add(dec, nb, v, m))
			continue;
		dec->in[nb++] = rep_sym(g, j);
	}
	return nb == m ? 0 : -EAGAIN;
}

/* Decode matrix: missing_t = sum_j inv[t][j] * (repair_j + sum_known c_j[i] * s_i),
 * over inputs ordered as the m chosen repairs, then the known sources. */
static void build_decode_matrix(struct nc_decoder *dec, const uint8_t *known, unsigned int nk,
				unsigned int m)
{
	unsigned int n = m + nk, t, j, q;
	uint8_t acc;

	for (t = 0; t < m; t++) {
		for (j = 0; j < m; j++)
			dec->dmat[t * n + j] = dec->inv[t * m + j];
		for (q = 0; q < nk; q++) {
			acc = 0;
			for (j = 0; j < m; j++)
				acc ^= gf_mul(dec->inv[t * m + j], dec->rows[j][known[q]]);
			dec->dmat[t * n + m + q] = acc;
		}
	}
}

/* Hand the rebuilt sources out, after checking the length each carries:
 * a symbol whose length does not fit came from inconsistent repairs and is
 * dropped rather than forwarded as garbage. */
static void publish_recovered(struct nc_decoder *dec, struct nc_gen *g, const uint8_t *miss,
			      unsigned int m)
{
	unsigned int t, len;
	uint8_t *s;

	dec->out_gen = g;
	dec->out_mask = 0;
	for (t = 0; t < m; t++) {
		s = sym(g, miss[t]);
		len = (unsigned int)s[0] << 8 | s[1];
		g->have |= 1ull << miss[t];
		if (len + CALVIN_NC_LEN_BYTES > g->sym_len) {
			dec->st.malformed++;
			continue;
		}
		dec->out_mask |= 1ull << miss[t];
		dec->st.recovered++;
	}
	g->complete = 1;
}

/* Rebuild the missing sources of g if the repairs in hand allow it. */
static void gen_try_decode(struct nc_decoder *dec, struct nc_gen *g)
{
	uint8_t miss[MAX_K], known[MAX_K];
	unsigned int k = g->k_real, L = g->sym_len, m = 0, nk = 0, i, t, used;
	uint8_t *s;

	for (i = 0; i < k; i++) {
		if (g->have & (1ull << i))
			known[nk++] = (uint8_t)i;
		else
			miss[m++] = (uint8_t)i;
	}
	if (m == 0) {
		g->complete = 1;
		return;
	}
	if (g->nr_rep < m || choose_repairs(dec, g, miss, m))
		return;
	for (t = 0; t < m; t++)
		for (i = 0; i < m; i++)
			dec->mat[t * m + i] = dec->rows[t][miss[i]];
	if (gf_invert_matrix(dec->mat, dec->inv, (int)m))
		return; /* cannot happen: the rows were chosen independent */
	build_decode_matrix(dec, known, nk, m);
	for (i = 0; i < nk; i++) {
		s = sym(g, known[i]);
		used = CALVIN_NC_LEN_BYTES + ((unsigned int)s[0] << 8 | s[1]);
		memset(s + used, 0, L - used);
		dec->in[m + i] = s;
	}
	for (t = 0; t < m; t++)
		dec->out[t] = sym(g, miss[t]);
	ec_init_tables((int)k, (int)m, dec->dmat, dec->tbls);
	ec_encode_data((int)L, (int)k, (int)m, dec->tbls, dec->in, dec->out);
	publish_recovered(dec, g, miss, m);
}

static int push_source(struct nc_decoder *dec, struct nc_gen *g, const struct nc_hdr *h,
		       const uint8_t *payload)
{
	uint8_t *s;

	if ((g->k_nom && h->k != g->k_nom) ||
	    (g->k_real && (h->index >= g->k_real || h->k < g->k_real)) ||
	    (g->sym_len && h->len + CALVIN_NC_LEN_BYTES > g->sym_len))
		return -EBADMSG;
	if (g->have & (1ull << h->index))
		return -EALREADY;
	g->k_nom = h->k;
	s = sym(g, h->index);
	s[0] = (uint8_t)(h->len >> 8);
	s[1] = (uint8_t)h->len;
	memcpy(s + CALVIN_NC_LEN_BYTES, payload, h->len);
	g->have |= 1ull << h->index;
	if (h->index >= g->top)
		g->top = (uint8_t)(h->index + 1);
	if (h->len > g->max_src)
		g->max_src = h->len;
	if ((unsigned int)__builtin_popcountll(g->have) == (g->k_real ? g->k_real : g->k_nom))
		g->complete = 1;
	else if (g->k_real)
		gen_try_decode(dec, g);
	return 1;
}

static int push_repair(struct nc_decoder *dec, struct nc_gen *g, const struct nc_hdr *h,
		       const uint8_t *payload)
{
	if (g->k_real ? (h->k != g->k_real || h->len != g->sym_len)
		      : (h->k < g->top || (g->k_nom && h->k > g->k_nom) ||
			 h->len < CALVIN_NC_LEN_BYTES + g->max_src))
		return -EBADMSG;
	if (g->rep_seen & (1ull << h->index))
		return -EALREADY;
	g->rep_seen |= 1ull << h->index;
	g->k_real = h->k;
	g->sym_len = h->len;
	if (g->complete || (unsigned int)__builtin_popcountll(g->have) == g->k_real) {
		g->complete = 1;
		dec->st.repair_unused++;
		return 0;
	}
	memcpy(rep_sym(g, g->nr_rep), payload, h->len);
	g->rep_seed[g->nr_rep++] = h->seed;
	gen_try_decode(dec, g);
	return 0;
}

int nc_decoder_push(struct nc_decoder *dec, const void *pkt, size_t len, const uint8_t **data,
		    size_t *len_out)
{
	const uint8_t *payload = (const uint8_t *)pkt + CALVIN_NC_HDR_LEN;
	struct nc_gen *g;
	struct nc_hdr h;
	int ret;

	dec->out_gen = NULL;
	dec->out_mask = 0;
	ret = nc_hdr_decode(pkt, len, &h);
	if (!ret && (h.k > dec->k_max || h.r > dec->r_max))
		ret = -EBADMSG;
	if (ret) {
		dec->st.malformed++;
		return ret;
	}
	g = gen_lookup(dec, h.gen);
	if (!g) {
		dec->st.stale++;
		return -ESTALE;
	}
	if (h.type == CALVIN_NC_SOURCE)
		ret = push_source(dec, g, &h, payload);
	else
		ret = push_repair(dec, g, &h, payload);
	if (ret == 1) {
		*data = payload;
		*len_out = h.len;
		dec->st.forwarded++;
	} else if (ret == -EALREADY) {
		dec->st.duplicate++;
	} else if (ret == -EBADMSG) {
		dec->st.malformed++;
	}
	return ret;
}

int nc_decoder_next(struct nc_decoder *dec, const uint8_t **data, size_t *len)
{
	unsigned int i;
	uint8_t *s;

	if (!dec->out_mask)
		return 0;
	i = (unsigned int)__builtin_ctzll(dec->out_mask);
	dec->out_mask &= dec->out_mask - 1;
	s = sym(dec->out_gen, i);
	*data = s + CALVIN_NC_LEN_BYTES;
	*len = (size_t)s[0] << 8 | s[1];
	return 1;
}
