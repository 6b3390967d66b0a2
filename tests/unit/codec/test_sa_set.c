// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of what a VNF is handed instead of a key file: the SAs each
 * kind of VNF takes part in, derived as the controller derives them; the
 * bytes they travel as, and every way those bytes are refused. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "codec/codec.h"

static struct calvin_chain_spec spec;
static uint8_t ltk[32], rnd[CALVIN_DEPLOY_RANDOM_LEN];

static const char text[] = "name: t\nbudget: 1ms\n"
			   "vnfs:\n"
			   "  - {name: e, kind: encrypt, key-file: /k, spi: 16}\n"
			   "  - {name: d, kind: decrypt, key-file: /k, spi: 16}\n"
			   "  - {name: ef, kind: encrypt, key-file: /k, spi: 32, direction: fwd}\n"
			   "  - {name: df, kind: decrypt, key-file: /k, spi: 32, direction: fwd}\n"
			   "  - {name: f, kind: forward}\n";

static int setup(void **state)
{
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(ltk); i++)
		ltk[i] = (uint8_t)i;
	memset(rnd, 0x5a, sizeof(rnd));
	return calvin_spec_parse(text, strlen(text), "t.yaml", &spec, err, sizeof(err));
}

/* Both ends of an SA get the same keys; each VNF only its own SAs. */
static void test_derive(void **state)
{
	struct calvin_sa_set e, d, ef, df;
	const struct calvin_sa *a, *b;
	struct calvin_sa_keys k;

	assert_int_equal(calvin_sa_set_derive(&spec, 0, ltk, rnd, 1, &e), 0);
	assert_int_equal(calvin_sa_set_derive(&spec, 1, ltk, rnd, 1, &d), 0);
	assert_int_equal(e.nr, 2);
	assert_int_equal(d.nr, 2);
	a = calvin_sa_set_find(&e, CALVIN_DIR_REV);
	b = calvin_sa_set_find(&d, CALVIN_DIR_REV);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(a->spi, 17);
	assert_memory_equal(&a->k, &b->k, sizeof(a->k));
	assert_int_equal(calvin_sa_derive(ltk, rnd, "t", 17, CALVIN_DIR_REV, 1, &k), 0);
	assert_memory_equal(&a->k, &k, sizeof(k));
	/* one direction only: one SA, and not the other pair's */
	assert_int_equal(calvin_sa_set_derive(&spec, 2, ltk, rnd, 1, &ef), 0);
	assert_int_equal(calvin_sa_set_derive(&spec, 3, ltk, rnd, 1, &df), 0);
	assert_int_equal(ef.nr, 1);
	assert_int_equal(ef.sa[0].spi, 32);
	assert_null(calvin_sa_set_find(&ef, CALVIN_DIR_REV));
	assert_memory_equal(&ef.sa[0], &df.sa[0], sizeof(ef.sa[0]));
	assert_memory_not_equal(&ef.sa[0].k, &calvin_sa_set_find(&e, CALVIN_DIR_FWD)->k, sizeof(k));
	/* a restart's epoch gives other keys for the same SA */
	assert_int_equal(calvin_sa_set_derive(&spec, 0, ltk, rnd, 2, &d), 0);
	assert_int_equal(d.epoch, 2);
	assert_memory_not_equal(&d.sa[0].k, &e.sa[0].k, sizeof(k));
	/* no keys for what is not a crypt VNF, nor for epoch 0 */
	assert_int_equal(calvin_sa_set_derive(&spec, 4, ltk, rnd, 1, &d), -EINVAL);
	assert_int_equal(calvin_sa_set_derive(&spec, 0, ltk, rnd, 0, &d), -EINVAL);
	assert_int_equal(calvin_sa_set_derive(&spec, 9, ltk, rnd, 1, &d), -EINVAL);
	calvin_sa_set_wipe(&e);
	for (size_t i = 0; i < sizeof(e); i++)
		assert_int_equal(((uint8_t *)&e)[i], 0);
}

static void test_round_trip(void **state)
{
	uint8_t buf[CALVIN_SA_SET_MAX + 8];
	struct calvin_sa_set s, back;
	ssize_t n;

	assert_int_equal(calvin_sa_set_derive(&spec, 1, ltk, rnd, 0x01020304, &s), 0);
	n = calvin_sa_set_encode(&s, buf, sizeof(buf));
	assert_int_equal(n, CALVIN_SA_SET_MAX);
	assert_int_equal(buf[0], CALVIN_SA_SET_VERSION);
	assert_int_equal(buf[1], 2);
	assert_int_equal(buf[4], 1);
	assert_int_equal(buf[7], 4);
	assert_int_equal(calvin_sa_set_decode(buf, (size_t)n, &back), 0);
	assert_memory_equal(&back, &s, sizeof(s));
	assert_int_equal(calvin_sa_set_encode(&s, buf, (size_t)n - 1), -ENOSPC);
	s.nr = 0;
	assert_int_equal(calvin_sa_set_encode(&s, buf, sizeof(buf)), CALVIN_SA_SET_HDR_LEN);
	assert_int_equal(calvin_sa_set_decode(buf, CALVIN_SA_SET_HDR_LEN, &back), 0);
	s.epoch = 0;
	assert_int_equal(calvin_sa_set_encode(&s, buf, sizeof(buf)), -EINVAL);
}

/* Flip one thing at a time in good bytes: each is refused, and the output
 * holds no key bytes afterwards. */
static void test_refused(void **state)
{
	uint8_t good[CALVIN_SA_SET_MAX], b[CALVIN_SA_SET_MAX + 1];
	struct calvin_sa_set s;
	size_t i;

	assert_int_equal(calvin_sa_set_derive(&spec, 0, ltk, rnd, 1, &s), 0);
	assert_int_equal(calvin_sa_set_encode(&s, good, sizeof(good)), (ssize_t)sizeof(good));
	memcpy(b, good, sizeof(good));
	b[0] = 2;
	assert_int_equal(calvin_sa_set_decode(b, sizeof(good), &s), -EPROTO);
	static const struct {
		size_t off;
		uint8_t v;
	} flips[] = {
		{ 1, 3 },		  /* more SAs than directions */
		{ 1, 1 },		  /* fewer than the bytes hold */
		{ 2, 1 },		  /* reserved */
		{ 7, 0 },		  /* epoch 0 (bytes 4-6 are 0 too) */
		{ 8, 2 },		  /* an unknown direction */
		{ 9, 1 },		  /* reserved in an SA */
		{ 8 + CALVIN_SA_LEN, 0 }, /* the same direction twice */
		{ 15, 0 },		  /* spi 0 (bytes 12-14 are 0 too) */
	};
	for (i = 0; i < sizeof(flips) / sizeof(flips[0]); i++) {
		memcpy(b, good, sizeof(good));
		b[flips[i].off] = flips[i].v;
		print_message("flip %zu\n", i);
		assert_int_equal(calvin_sa_set_decode(b, sizeof(good), &s), -EBADMSG);
		for (size_t j = 0; j < sizeof(s); j++)
			assert_int_equal(((uint8_t *)&s)[j], 0);
	}
	memcpy(b, good, sizeof(good));
	assert_int_equal(calvin_sa_set_decode(b, sizeof(good) + 1, &s), -EBADMSG);
	for (i = 0; i < sizeof(good); i++)
		assert_int_equal(calvin_sa_set_decode(good, i, &s), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
