// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the key derivation: HKDF-SHA256 against RFC 5869's test
 * vectors (the primitive is OpenSSL's, called right), the SA derivation
 * against an independent implementation (Python's hmac module), and that
 * every part of the context (long-term key, deployment random, chain, SPI,
 * direction, epoch) changes the traffic key and nonce salt, so a packet
 * sealed in one deployment, direction or epoch does not open in another;
 * and the deployment random's hex form in the state directory; and the
 * streaming SHA-256 that names guest images on remote hosts (FIPS 180-2's
 * examples, fed whole and in pieces). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "codec/codec.h"
#include "hex.h"

static void fill(uint8_t *p, size_t n, uint8_t from)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(from + i);
}

/* RFC 5869, appendix A, test cases 1-3 (SHA-256). */
static void test_rfc5869(void **state)
{
	uint8_t ikm[80], salt[80], info[80], okm[82], want[82];
	size_t n;

	/* 1: the basic case */
	memset(ikm, 0x0b, 22);
	fill(salt, 13, 0x00);
	fill(info, 10, 0xf0);
	n = unhex(want, "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf3400"
			"7208d5b887185865");
	assert_int_equal(calvin_hkdf_sha256(ikm, 22, salt, 13, info, 10, okm, n), 0);
	assert_memory_equal(okm, want, n);
	/* 2: longer inputs and outputs (three blocks) */
	fill(ikm, 80, 0x00);
	fill(salt, 80, 0x60);
	fill(info, 80, 0xb0);
	n = unhex(want, "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c5904"
			"5a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179"
			"ec3e87c14c01d5c1f3434f1d87");
	assert_int_equal(calvin_hkdf_sha256(ikm, 80, salt, 80, info, 80, okm, n), 0);
	assert_memory_equal(okm, want, n);
	/* 3: zero-length salt and info */
	memset(ikm, 0x0b, 22);
	n = unhex(want, "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d20"
			"1395faa4b61a96c8");
	assert_int_equal(calvin_hkdf_sha256(ikm, 22, NULL, 0, NULL, 0, okm, n), 0);
	assert_memory_equal(okm, want, n);
	/* what it refuses */
	assert_int_equal(calvin_hkdf_sha256(ikm, 0, NULL, 0, NULL, 0, okm, 32), -EINVAL);
	assert_int_equal(calvin_hkdf_sha256(ikm, 22, NULL, 0, NULL, 0, okm, 0), -EINVAL);
	assert_int_equal(calvin_hkdf_sha256(ikm, 22, NULL, 0, NULL, 0, okm, 255 * 32 + 1), -EINVAL);
}

/* The info's bytes, as sa_info.c documents them (userspace/lib/codec/codec.h). */
static void test_info(void **state)
{
	static const uint8_t want[] = { 'c', 'a',  'l',	 'v',  'i',  'n',  '-',
					'c', 'r',  'y',	 'p',  't',  '-',  's',
					'a', '-',  'v',	 '2',  0,    3,	   'a',
					'b', 'c',  0x01, 0x02, 0x03, 0x04, CALVIN_DIR_REV,
					0,   0x01, 0x00, 0x02 };
	uint8_t buf[CALVIN_SA_INFO_MAX];
	char name[257];

	assert_int_equal(
	    calvin_sa_info(buf, sizeof(buf), "abc", 0x01020304, CALVIN_DIR_REV, 0x10002),
	    sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(calvin_sa_info(buf, sizeof(want) - 1, "abc", 1, CALVIN_DIR_FWD, 1),
			 -ENOSPC);
	assert_int_equal(calvin_sa_info(buf, sizeof(buf), "", 1, CALVIN_DIR_FWD, 1), -EINVAL);
	assert_int_equal(calvin_sa_info(buf, sizeof(buf), "abc", 0, CALVIN_DIR_FWD, 1), -EINVAL);
	assert_int_equal(calvin_sa_info(buf, sizeof(buf), "abc", 1, 2, 1), -EINVAL);
	assert_int_equal(calvin_sa_info(buf, sizeof(buf), "abc", 1, CALVIN_DIR_FWD, 0), -EINVAL);
	memset(name, 'a', 255);
	name[255] = '\0';
	assert_int_equal(calvin_sa_info(buf, sizeof(buf), name, 1, CALVIN_DIR_FWD, 1),
			 (int)CALVIN_SA_INFO_MAX);
	name[255] = 'a';
	name[256] = '\0';
	assert_int_equal(calvin_sa_info(buf, sizeof(buf), name, 1, CALVIN_DIR_FWD, 1), -EINVAL);
}

/* Known answers from an independent HKDF (Python's hmac and hashlib) over
 * the same info: the derivation is exactly what codec/codec.h says. */
static void test_sa_known_answer(void **state)
{
	uint8_t ltk[32], rnd[CALVIN_DEPLOY_RANDOM_LEN], want[32];
	struct calvin_sa_keys k;

	fill(ltk, 32, 0x00);
	fill(rnd, sizeof(rnd), 0x40);
	assert_int_equal(calvin_sa_derive(ltk, rnd, "tactile-crypt", 0x100, CALVIN_DIR_FWD, 1, &k),
			 0);
	unhex(want, "5798d330423821510acb59b8bc22edb5b4964fcdc51dedf6169c61eb56eb2152");
	assert_memory_equal(k.key, want, 32);
	unhex(want, "5f621b43");
	assert_memory_equal(k.salt, want, 4);
	assert_int_equal(calvin_sa_derive(ltk, rnd, "tactile-crypt", 0x101, CALVIN_DIR_REV, 1, &k),
			 0);
	unhex(want, "5a6df8b86d92e14743601b8d105827a6bfbb57531e615c17cfcf3e305a676622");
	assert_memory_equal(k.key, want, 32);
	unhex(want, "329d5a9e");
	assert_memory_equal(k.salt, want, 4);
	assert_int_equal(calvin_sa_derive(ltk, rnd, "tactile-crypt", 0x100, CALVIN_DIR_FWD, 2, &k),
			 0);
	unhex(want, "be58794bde2b4d72fdf4effe4d498e75a96389502a1169fdd413706e816f3258");
	assert_memory_equal(k.key, want, 32);
	unhex(want, "bfe916c4");
	assert_memory_equal(k.salt, want, 4);
	calvin_sa_keys_wipe(&k);
	for (size_t i = 0; i < sizeof(k); i++)
		assert_int_equal(((uint8_t *)&k)[i], 0);
	assert_int_equal(calvin_sa_derive(ltk, rnd, "", 1, CALVIN_DIR_FWD, 1, &k), -EINVAL);
	assert_int_equal(calvin_sa_derive(ltk, rnd, "c", 0, CALVIN_DIR_FWD, 1, &k), -EINVAL);
	assert_int_equal(calvin_sa_derive(ltk, rnd, "c", 1, CALVIN_DIR_FWD, 0, &k), -EINVAL);
}

struct ctx {
	uint8_t ltk[32], rnd[CALVIN_DEPLOY_RANDOM_LEN];
	const char *chain;
	uint32_t spi;
	unsigned int dir;
	uint32_t epoch;
};

static void derive(const struct ctx *c, struct calvin_sa_keys *k)
{
	assert_int_equal(calvin_sa_derive(c->ltk, c->rnd, c->chain, c->spi, c->dir, c->epoch, k),
			 0);
}

/* Change one part of the context at a time: key and salt both change. */
static void test_sa_context(void **state)
{
	struct ctx base = { .chain = "tactile-crypt",
			    .spi = 0x100,
			    .dir = CALVIN_DIR_FWD,
			    .epoch = 1 },
		   c;
	struct calvin_sa_keys k0, k1;

	fill(base.ltk, 32, 1);
	fill(base.rnd, sizeof(base.rnd), 2);
	derive(&base, &k0);
	derive(&base, &k1);
	assert_memory_equal(&k0, &k1, sizeof(k0)); /* both ends agree */
	for (int part = 0; part < 8; part++) {
		c = base;
		switch (part) {
		case 0:
			c.rnd[31] ^= 1; /* another deployment */
			break;
		case 1:
			c.ltk[0] ^= 0x80; /* another key file */
			break;
		case 2:
			c.chain = "tactile-crypu";
			break;
		case 3:
			c.spi = 0x101;
			break;
		case 4:
			c.dir = CALVIN_DIR_REV;
			break;
		case 5:
			c.chain = "tactile-crypt2"; /* a name that extends the other */
			break;
		case 6:
			c.epoch = 2; /* the pair restarted */
			break;
		case 7:
			c.epoch = 0x101; /* bytes that would meet the SPI's, unframed */
			break;
		}
		derive(&c, &k1);
		print_message("part %d\n", part);
		assert_memory_not_equal(k0.key, k1.key, sizeof(k0.key));
		assert_memory_not_equal(k0.salt, k1.salt, sizeof(k0.salt));
	}
}

/* What a redeployment changes on the wire: the first packet of an SA with
 * the same plaintext seals to other bytes, and a packet sealed in the old
 * deployment fails the new one's tag. */
static void test_sa_redeploy(void **state)
{
	struct ctx c = {
		.chain = "tactile-crypt", .spi = 0x100, .dir = CALVIN_DIR_FWD, .epoch = 1
	};
	uint8_t pt[64], a[64 + CALVIN_CRYPT_OVERHEAD], b[sizeof(a)], out[64];
	struct calvin_aead seal1, seal2, open2;
	struct calvin_replay w;
	struct calvin_sa_keys k1, k2;

	fill(c.ltk, 32, 9);
	fill(c.rnd, sizeof(c.rnd), 3);
	fill(pt, sizeof(pt), 5);
	derive(&c, &k1);
	c.rnd[0] ^= 0xff;
	derive(&c, &k2);
	assert_int_equal(
	    calvin_aead_init(&seal1, CALVIN_CIPHER_AES_256_GCM, k1.key, 32, k1.salt, c.spi, 1), 0);
	assert_int_equal(
	    calvin_aead_init(&seal2, CALVIN_CIPHER_AES_256_GCM, k2.key, 32, k2.salt, c.spi, 1), 0);
	assert_int_equal(
	    calvin_aead_init(&open2, CALVIN_CIPHER_AES_256_GCM, k2.key, 32, k2.salt, c.spi, 0), 0);
	assert_int_equal(calvin_replay_init(&w, 64), 0);
	assert_int_equal(calvin_aead_seal(&seal1, a, sizeof(a), pt, sizeof(pt)), (int)sizeof(a));
	assert_int_equal(calvin_aead_seal(&seal2, b, sizeof(b), pt, sizeof(pt)), (int)sizeof(b));
	assert_memory_equal(a, b, CALVIN_CRYPT_HDR_LEN); /* same SPI, same seq 1 */
	assert_memory_not_equal(a + CALVIN_CRYPT_HDR_LEN, b + CALVIN_CRYPT_HDR_LEN,
				sizeof(a) - CALVIN_CRYPT_HDR_LEN);
	assert_int_equal(calvin_aead_open(&open2, &w, out, sizeof(out), a, sizeof(a)), -EBADMSG);
	assert_int_equal(calvin_aead_open(&open2, &w, out, sizeof(out), b, sizeof(b)),
			 (int)sizeof(pt));
	assert_memory_equal(out, pt, sizeof(pt));
	calvin_aead_free(&seal1);
	calvin_aead_free(&seal2);
	calvin_aead_free(&open2);
}

/* The deployment random round-trips through its hex form; anything else
 * is refused. */
static void test_deploy_random_hex(void **state)
{
	uint8_t in[CALVIN_DEPLOY_RANDOM_LEN], out[CALVIN_DEPLOY_RANDOM_LEN];
	char hex[2 * CALVIN_DEPLOY_RANDOM_LEN + 1];
	size_t i;

	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 37 + 5);
	calvin_deploy_random_format(in, hex);
	assert_int_equal(strlen(hex), 64);
	assert_int_equal(strncmp(hex, "052a4f", 6), 0);
	assert_int_equal(calvin_deploy_random_parse(hex, out), 0);
	assert_memory_equal(in, out, sizeof(in));
	hex[0] = 'G';
	assert_int_equal(calvin_deploy_random_parse(hex, out), -EINVAL);
	assert_int_equal(calvin_deploy_random_parse("00ff", out), -EINVAL);
}

static void sha256_hex(const char *const parts[], char hex[65])
{
	uint8_t sum[32];
	void *ctx;

	assert_int_equal(calvin_sha256_begin(&ctx), 0);
	for (; *parts; parts++)
		assert_int_equal(calvin_sha256_feed(ctx, *parts, strlen(*parts)), 0);
	assert_int_equal(calvin_sha256_end(ctx, sum), 0);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", sum[i]);
}

static void test_sha256(void **state)
{
	static const char abc[] =
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
	static const char two[] =
	    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
	const char *const whole[] = { "abc", NULL }, *const pieces[] = { "a", "", "bc", NULL };
	const char *const blocks[] = { "abcdbcdecdefdefgefghfghighijhijk",
				       "ijkljklmklmnlmnomnopnopq", NULL };
	char hex[65];

	sha256_hex(whole, hex);
	assert_string_equal(hex, abc);
	sha256_hex(pieces, hex);
	assert_string_equal(hex, abc);
	sha256_hex(blocks, hex);
	assert_string_equal(hex, two);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc5869),		cmocka_unit_test(test_info),
		cmocka_unit_test(test_sa_known_answer), cmocka_unit_test(test_sa_context),
		cmocka_unit_test(test_sa_redeploy),	cmocka_unit_test(test_deploy_random_hex),
		cmocka_unit_test(test_sha256),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
