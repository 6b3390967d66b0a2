// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the network-coding codec: round trips under loss, window, flush. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <isa-l.h>

#include "codec/codec.h"

#define PKT_MAX (CALVIN_NC_HDR_LEN + CALVIN_NC_MAX_SYMBOL)
#define GEN_MAX (CALVIN_NC_MAX_K + CALVIN_NC_MAX_R)

struct pkt {
	uint8_t b[PKT_MAX];
	size_t len;
};

/* One generation as sent: sources 0..nsrc-1, then the repairs. */
struct gen_io {
	unsigned int npkt, nsrc;
	struct pkt pkts[GEN_MAX];
	uint8_t payload[CALVIN_NC_MAX_K][CALVIN_NC_MAX_PAYLOAD];
	size_t plen[CALVIN_NC_MAX_K];
	bool delivered[CALVIN_NC_MAX_K];
};

static struct gen_io gio; /* too big for the stack */

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Encode n sources of random lengths 0..max_len; flush when n < k. */
static void make_gen(struct nc_encoder *enc, unsigned int k, unsigned int n, unsigned int max_len,
		     uint32_t *rng)
{
	struct gen_io *g = &gio;
	const uint8_t *rp;
	unsigned int i, j;
	size_t rl;
	int ret = 0;

	memset(g->delivered, 0, sizeof(g->delivered));
	g->nsrc = n;
	for (i = 0; i < n; i++) {
		g->plen[i] = rnd(rng) % (max_len + 1);
		for (j = 0; j < g->plen[i]; j++)
			g->payload[i][j] = (uint8_t)rnd(rng);
		ret = nc_encoder_add(enc, g->payload[i], g->plen[i], 0, g->pkts[i].b);
		assert_true(ret >= 0);
		memcpy(g->pkts[i].b + CALVIN_NC_HDR_LEN, g->payload[i], g->plen[i]);
		g->pkts[i].len = CALVIN_NC_HDR_LEN + g->plen[i];
	}
	if (n < k)
		ret = nc_encoder_flush(enc, 0);
	g->npkt = n;
	while (nc_encoder_next_repair(enc, &rp, &rl)) {
		memcpy(g->pkts[g->npkt].b, rp, rl);
		g->pkts[g->npkt++].len = rl;
	}
	assert_int_equal(g->npkt, n + (unsigned int)ret);
}

static void match(const uint8_t *data, size_t len)
{
	unsigned int i;

	for (i = 0; i < gio.nsrc; i++) {
		if (!gio.delivered[i] && gio.plen[i] == len && !memcmp(gio.payload[i], data, len)) {
			gio.delivered[i] = true;
			return;
		}
	}
	fail_msg("decoder delivered a payload that was not sent (len %zu)", len);
}

/* Push the packets not lost; returns how many sources came out. */
static unsigned int feed_gen(struct nc_decoder *dec, const bool *lost)
{
	unsigned int i, n = 0;
	const uint8_t *d;
	size_t l;
	int ret;

	for (i = 0; i < gio.npkt; i++) {
		if (lost[i])
			continue;
		ret = nc_decoder_push(dec, gio.pkts[i].b, gio.pkts[i].len, &d, &l);
		assert_int_equal(ret, i < gio.nsrc ? 1 : 0);
		if (ret == 1) {
			match(d, l);
			n++;
		}
		while (nc_decoder_next(dec, &d, &l)) {
			match(d, l);
			n++;
		}
	}
	return n;
}

/* Rank over GF(2^8) of the received repairs' rows restricted to the missing
 * columns: random coefficients are not MDS, so a generation with as many
 * packets as sources is still lost now and then (about 1 in 256 when the
 * repairs are just enough). Written apart from the decoder's elimination. */
static unsigned int repair_rank(const bool *lost, const uint8_t *miss, unsigned int m)
{
	uint8_t a[GEN_MAX][CALVIN_NC_MAX_K], row[CALVIN_NC_MAX_K], f;
	unsigned int i, n = 0, c, rank = 0, p, q;
	struct nc_hdr h;

	for (i = gio.nsrc; i < gio.npkt; i++) {
		if (lost[i])
			continue;
		assert_int_equal(nc_hdr_decode(gio.pkts[i].b, gio.pkts[i].len, &h), 0);
		nc_coefs(h.seed, h.k, row);
		for (c = 0; c < m; c++)
			a[n][c] = row[miss[c]];
		n++;
	}
	for (c = 0; c < m && rank < n; c++) {
		for (p = rank; p < n && !a[p][c]; p++)
			;
		if (p == n)
			continue;
		memcpy(row, a[p], m);
		memcpy(a[p], a[rank], m);
		memcpy(a[rank], row, m);
		for (q = rank + 1; q < n; q++) {
			f = gf_mul(a[q][c], gf_inv(a[rank][c]));
			for (i = c; i < m; i++)
				a[q][i] ^= gf_mul(f, a[rank][i]);
		}
		rank++;
	}
	return rank;
}

static unsigned int nr_singular; /* generations lost only for want of rank */

/* How many sources must come out of a generation with these losses, and
 * how many sources were lost. */
static unsigned int expect_out(const bool *lost, unsigned int *lost_src)
{
	uint8_t miss[CALVIN_NC_MAX_K];
	unsigned int i, got = 0, src = 0, m = 0;

	for (i = 0; i < gio.npkt; i++) {
		got += !lost[i];
		if (i < gio.nsrc && lost[i])
			miss[m++] = (uint8_t)i;
	}
	src = gio.nsrc - m;
	*lost_src = m;
	if (got < gio.nsrc)
		return src;
	if (m && repair_rank(lost, miss, m) < m) {
		nr_singular++;
		return src;
	}
	return gio.nsrc;
}

/* Lost sources the decoder can know of: without a repair it does not know
 * the generation's size, so only those below the highest source seen. */
static unsigned int known_missing(const bool *lost)
{
	unsigned int i, top = 0, m = 0;

	for (i = gio.nsrc; i < gio.npkt; i++)
		if (!lost[i])
			top = gio.nsrc;
	for (i = 0; i < gio.nsrc; i++)
		if (!lost[i] && i + 1 > top)
			top = i + 1;
	for (i = 0; i < top; i++)
		m += lost[i];
	return m;
}

static void new_pair(unsigned int k, unsigned int r, struct nc_encoder **enc,
		     struct nc_decoder **dec)
{
	struct nc_params p = {.k = k, .r = r, .first_gen = 1000};

	assert_int_equal(nc_encoder_new(&p, enc), 0);
	assert_int_equal(nc_decoder_new(&p, dec), 0);
}

/* Every single-packet loss (and none), one generation each, through one decoder. */
static void test_single_losses(void **state)
{
	static const unsigned int ks[] = {1, 4, 16, 32}, rs[] = {0, 1, 4};
	unsigned int a, b, loss, want, lost_src, unrec = 0, rec = 0;
	struct nc_encoder *enc;
	struct nc_decoder *dec;
	bool lost[GEN_MAX];
	uint32_t rng = 12345;

	for (a = 0; a < 4; a++) {
		for (b = 0; b < 3; b++) {
			new_pair(ks[a], rs[b], &enc, &dec);
			unrec = rec = 0;
			for (loss = 0; loss <= ks[a] + rs[b]; loss++) {
				make_gen(enc, ks[a], ks[a], 1400, &rng);
				memset(lost, 0, sizeof(lost));
				if (loss < gio.npkt)
					lost[loss] = true;
				want = expect_out(lost, &lost_src);
				assert_int_equal(feed_gen(dec, lost), want);
				if (want < gio.nsrc)
					unrec += known_missing(lost);
				else
					rec += lost_src;
			}
			nc_decoder_retire_all(dec);
			assert_int_equal(nc_decoder_stats(dec)->recovered, rec);
			assert_int_equal(nc_decoder_stats(dec)->unrecoverable, unrec);
			assert_int_equal(nc_decoder_stats(dec)->malformed, 0);
			nc_encoder_free(enc);
			nc_decoder_free(dec);
		}
	}
}

static void test_pair_losses_k4_r2(void **state)
{
	struct nc_encoder *enc;
	struct nc_decoder *dec;
	unsigned int i, j, lost_src;
	bool lost[GEN_MAX];
	uint32_t rng = 777;

	new_pair(4, 2, &enc, &dec);
	for (i = 0; i < 6; i++) {
		for (j = i + 1; j < 6; j++) {
			make_gen(enc, 4, 4, 300, &rng);
			memset(lost, 0, sizeof(lost));
			lost[i] = lost[j] = true;
			assert_int_equal(expect_out(lost, &lost_src), 4);
			assert_int_equal(feed_gen(dec, lost), 4);
		}
	}
	assert_int_equal(nc_decoder_stats(dec)->unrecoverable, 0);
	nc_encoder_free(enc);
	nc_decoder_free(dec);
}

/* Random losses over many generations, some beyond what r can repair. */
static void random_losses(unsigned int k, unsigned int r, unsigned int pct)
{
	unsigned int gen, i, want, lost_src, unrec = 0, rec = 0, fwd = 0;
	const struct nc_decoder_stats *st;
	struct nc_encoder *enc;
	struct nc_decoder *dec;
	bool lost[GEN_MAX];
	uint32_t rng = 0xc0ffee;

	new_pair(k, r, &enc, &dec);
	nr_singular = 0;
	for (gen = 0; gen < 300; gen++) {
		make_gen(enc, k, k, 1500, &rng);
		for (i = 0; i < gio.npkt; i++)
			lost[i] = rnd(&rng) % 100 < pct;
		want = expect_out(lost, &lost_src);
		assert_int_equal(feed_gen(dec, lost), want);
		fwd += k - lost_src;
		if (want < k)
			unrec += known_missing(lost);
		else
			rec += lost_src;
	}
	nc_decoder_retire_all(dec);
	st = nc_decoder_stats(dec);
	assert_int_equal(st->forwarded, fwd);
	assert_int_equal(st->recovered, rec);
	assert_int_equal(st->unrecoverable, unrec);
	assert_true(rec > 0 && unrec > 0);
	assert_true(nr_singular <= 3);
	nc_encoder_free(enc);
	nc_decoder_free(dec);
}

static void test_random_losses(void **state)
{
	random_losses(32, 4, 8);
	random_losses(16, 4, 12);
	random_losses(32, 1, 3);
	random_losses(64, 16, 15);
}

/* Too much lost: no output beyond the received sources, counted when the
 * generation leaves the window (not only at retire_all). */
static void test_too_much_lost(void **state)
{
	struct nc_params p = {.k = 4, .r = 1, .window = 4};
	struct nc_encoder *enc;
	struct nc_decoder *dec;
	bool lost[GEN_MAX] = {[1] = true, [2] = true};
	bool none[GEN_MAX] = {0};
	uint32_t rng = 5;
	unsigned int g;

	assert_int_equal(nc_encoder_new(&p, &enc), 0);
	assert_int_equal(nc_decoder_new(&p, &dec), 0);
	make_gen(enc, 4, 4, 100, &rng);
	assert_int_equal(feed_gen(dec, lost), 2);
	assert_int_equal(nc_decoder_stats(dec)->unrecoverable, 0);
	for (g = 0; g < 4; g++) {
		make_gen(enc, 4, 4, 100, &rng);
		assert_int_equal(feed_gen(dec, none), 4);
	}
	assert_int_equal(nc_decoder_stats(dec)->unrecoverable, 2);
	assert_int_equal(nc_decoder_stats(dec)->recovered, 0);
	nc_encoder_free(enc);
	nc_decoder_free(dec);
}

static void test_duplicates_and_stale(void **state)
{
	struct nc_params p = {.k = 4, .r = 2, .window = 4};
	const struct nc_decoder_stats *st;
	struct nc_encoder *enc;
	struct nc_decoder *dec;
	bool lost[GEN_MAX] = {[0] = true};
	struct pkt old;
	uint32_t rng = 9;
	const uint8_t *d;
	size_t l;
	unsigned int g;

	assert_int_equal(nc_encoder_new(&p, &enc), 0);
	assert_int_equal(nc_decoder_new(&p, &dec), 0);
	st = nc_decoder_stats(dec);
	make_gen(enc, 4, 4, 200, &rng);
	old = gio.pkts[0];
	assert_int_equal(feed_gen(dec, lost), 4); /* 0 recovered from repair 0 */
	/* the late original of the recovered source, a second copy, the unused repair */
	assert_int_equal(nc_decoder_push(dec, gio.pkts[0].b, gio.pkts[0].len, &d, &l), -EALREADY);
	assert_int_equal(nc_decoder_push(dec, gio.pkts[1].b, gio.pkts[1].len, &d, &l), -EALREADY);
	assert_int_equal(nc_decoder_push(dec, gio.pkts[4].b, gio.pkts[4].len, &d, &l), -EALREADY);
	assert_int_equal(st->duplicate, 3);
	assert_int_equal(st->repair_unused, 1); /* repair 1 came after the recovery */
	for (g = 0; g < 3; g++) {
		make_gen(enc, 4, 4, 200, &rng);
		feed_gen(dec, (bool[GEN_MAX]){0});
	}
	/* first generation is 3 behind the newest: still in a window of 4 */
	assert_int_equal(nc_decoder_push(dec, old.b, old.len, &d, &l), -EALREADY);
	make_gen(enc, 4, 4, 200, &rng);
	feed_gen(dec, (bool[GEN_MAX]){0});
	assert_int_equal(nc_decoder_push(dec, old.b, old.len, &d, &l), -ESTALE);
	assert_int_equal(st->stale, 1);
	assert_int_equal(st->unrecoverable, 0);
	nc_encoder_free(enc);
	nc_decoder_free(dec);
}

/* Repairs first, then the sources backwards, one lost: the decoder rebuilds
 * the lost one and the one not yet come as soon as it can; that one is then
 * a duplicate. Every payload still comes out once. */
static void test_reordered(void **state)
{
	struct nc_encoder *enc;
	struct nc_decoder *dec;
	unsigned int n = 0, i;
	uint32_t rng = 21;
	const uint8_t *d;
	size_t l;
	int ret;

	new_pair(8, 2, &enc, &dec);
	make_gen(enc, 8, 8, 1000, &rng);
	for (i = gio.npkt; i-- > 0;) {
		if (i == 5)
			continue;
		ret = nc_decoder_push(dec, gio.pkts[i].b, gio.pkts[i].len, &d, &l);
		assert_int_equal(ret, i >= 8 ? 0 : i == 0 ? -EALREADY : 1);
		if (ret == 1) {
			match(d, l);
			n++;
		}
		while (nc_decoder_next(dec, &d, &l)) {
			match(d, l);
			n++;
		}
	}
	assert_int_equal(n, 8);
	assert_int_equal(nc_decoder_stats(dec)->recovered, 2);
	assert_int_equal(nc_decoder_stats(dec)->duplicate, 1);
	nc_encoder_free(enc);
	nc_decoder_free(dec);
}

static void test_flush_partial(void **state)
{
	struct nc_params p = {.k = 8, .r = 2, .flush_ns = 1000};
	struct nc_encoder *enc;
	struct nc_decoder *dec;
	uint8_t payload[3][50], hdr[CALVIN_NC_HDR_LEN];
	bool lost[GEN_MAX] = {[1] = true};
	struct nc_hdr h;
	unsigned int i;
	uint32_t rng = 3;

	assert_int_equal(nc_encoder_new(&p, &enc), 0);
	assert_int_equal(nc_decoder_new(&p, &dec), 0);
	assert_int_equal(nc_encoder_deadline(enc), UINT64_MAX);
	memset(payload, 0x42, sizeof(payload));
	for (i = 0; i < 3; i++)
		assert_int_equal(nc_encoder_add(enc, payload[i], 10 + i, 500 + i, hdr), 0);
	assert_int_equal(nc_encoder_deadline(enc), 1500);
	assert_int_equal(nc_encoder_poll(enc, 1499), 0);
	assert_int_equal(nc_encoder_poll(enc, 1500), 2);
	assert_int_equal(nc_encoder_deadline(enc), UINT64_MAX);
	assert_int_equal(nc_encoder_poll(enc, 1000000), 0);
	/* the next source opens generation 1 at index 0 */
	assert_int_equal(nc_encoder_add(enc, payload[0], 5, 2000, hdr), 0);
	assert_int_equal(nc_hdr_decode(hdr, CALVIN_NC_HDR_LEN + 5, &h), 0);
	assert_int_equal(h.gen, 1);
	assert_int_equal(h.index, 0);
	nc_encoder_flush(enc, 0);

	/* a partial generation with one source lost is rebuilt */
	make_gen(enc, 8, 5, 700, &rng);
	assert_int_equal(gio.npkt, 7);
	assert_int_equal(nc_hdr_decode(gio.pkts[5].b, gio.pkts[5].len, &h), 0);
	assert_int_equal(h.k, 5);
	assert_int_equal(feed_gen(dec, lost), 5);
	assert_int_equal(nc_decoder_stats(dec)->recovered, 1);
	nc_decoder_retire_all(dec);
	assert_int_equal(nc_decoder_stats(dec)->unrecoverable, 0);
	nc_encoder_free(enc);
	nc_decoder_free(dec);
}

/* Add one 20-byte source at now_ns; returns what nc_encoder_add() did. */
static int add_at(struct nc_encoder *enc, uint64_t now_ns)
{
	uint8_t payload[20], hdr[CALVIN_NC_HDR_LEN];

	memset(payload, 0x5a, sizeof(payload));
	return nc_encoder_add(enc, payload, sizeof(payload), now_ns, hdr);
}

/* Early flush: sources farther apart than the flush close their own
 * generation once the encoder has seen enough such gaps; a faster flow or
 * bursts (one timestamp) fill generations again; off, nothing changes. */
static void test_flush_early(void **state)
{
	struct nc_params p = {.k = 4, .r = 2, .flush_ns = 40000, .flush_early = true};
	struct nc_params off = p;
	struct nc_encoder *enc, *plain;
	uint64_t t = 1000000;
	unsigned int i, closed = 0, first_closed = 0;
	int ret;

	off.flush_early = false;
	assert_int_equal(nc_encoder_new(&p, &enc), 0);
	assert_int_equal(nc_encoder_new(&off, &plain), 0);
	/* paced at 1 ms: the first sources wait for the flush, as without;
	 * within a few gaps every source closes its generation at once */
	for (i = 0; i < 20; i++, t += 1000000) {
		nc_encoder_poll(enc, t);
		nc_encoder_poll(plain, t);
		ret = add_at(enc, t);
		assert_true(ret == 0 || ret == 2);
		if (ret == 2 && !closed++)
			first_closed = i;
		if (i >= first_closed && closed)
			assert_int_equal(ret, 2);
		assert_int_equal(add_at(plain, t), 0);
		assert_int_equal(nc_encoder_deadline(plain), t + 40000);
	}
	assert_true(closed >= 10);
	assert_true(first_closed >= 3);
	assert_int_equal(nc_encoder_deadline(enc), UINT64_MAX);
	/* a burst of four in one receive (one timestamp) still fills a
	 * generation of four once the flow has been dense for a while */
	for (i = 0; i < 40; i++, t += 5000)
		nc_encoder_poll(enc, t), add_at(enc, t);
	nc_encoder_flush(enc, t);
	assert_int_equal(add_at(enc, t), 0);
	assert_int_equal(add_at(enc, t), 0);
	assert_int_equal(add_at(enc, t), 0);
	assert_int_equal(add_at(enc, t), 2);
	/* and a dense flow waits for k, not for the flush */
	assert_int_equal(add_at(enc, t + 5000), 0);
	assert_int_equal(nc_encoder_deadline(enc), t + 5000 + 40000);
	nc_encoder_free(enc);
	nc_encoder_free(plain);

	/* flush 0 (never) keeps generations whole, early or not */
	p.flush_ns = 0;
	assert_int_equal(nc_encoder_new(&p, &enc), 0);
	for (i = 0, t = 1; i < 20; i++, t += 1000000)
		assert_int_equal(add_at(enc, t), (i % 4) == 3 ? 2 : 0);
	nc_encoder_free(enc);
}

static void test_generation_wraparound(void **state)
{
	struct nc_params p = {.k = 4, .r = 1, .first_gen = 0xfffffffdU, .window = 4};
	struct nc_encoder *enc;
	struct nc_decoder *dec;
	bool lost[GEN_MAX] = {[2] = true};
	const uint8_t *d;
	struct pkt first;
	uint32_t rng = 11;
	struct nc_hdr h;
	unsigned int g;
	size_t l;

	assert_int_equal(nc_encoder_new(&p, &enc), 0);
	assert_int_equal(nc_decoder_new(&p, &dec), 0);
	for (g = 0; g < 8; g++) {
		make_gen(enc, 4, 4, 900, &rng);
		if (g == 0)
			first = gio.pkts[0];
		assert_int_equal(feed_gen(dec, lost), 4);
	}
	assert_int_equal(nc_hdr_decode(gio.pkts[0].b, gio.pkts[0].len, &h), 0);
	assert_int_equal(h.gen, 4); /* 0xfffffffd + 7 */
	assert_int_equal(nc_decoder_push(dec, first.b, first.len, &d, &l), -ESTALE);
	nc_decoder_retire_all(dec);
	assert_int_equal(nc_decoder_stats(dec)->recovered, 8);
	assert_int_equal(nc_decoder_stats(dec)->unrecoverable, 0);
	assert_int_equal(nc_decoder_stats(dec)->stale, 1);
	nc_encoder_free(enc);
	nc_decoder_free(dec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_single_losses),
	    cmocka_unit_test(test_pair_losses_k4_r2),
	    cmocka_unit_test(test_random_losses),
	    cmocka_unit_test(test_too_much_lost),
	    cmocka_unit_test(test_duplicates_and_stale),
	    cmocka_unit_test(test_reordered),
	    cmocka_unit_test(test_flush_partial),
	    cmocka_unit_test(test_flush_early),
	    cmocka_unit_test(test_generation_wraparound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
