// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the AEAD framing: published vectors through the same EVP
 * path, known-answer framing, round trips, every tamper, truncation, replay,
 * SPI, sequence exhaustion. Key files: test_keyfile.c; key derivation:
 * test_kdf.c. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "codec/codec.h"
#include "hex.h"

#define AES CALVIN_CIPHER_AES_256_GCM
#define CHACHA CALVIN_CIPHER_CHACHA20_POLY1305
#define OVH CALVIN_CRYPT_OVERHEAD
#define MAXPKT 1472

static const uint8_t key0[32] = {0,  1,	 2,  3,	 4,  5,	 6,  7,	 8,  9,	 10, 11, 12, 13, 14, 15,
				 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
static const uint8_t salt0[4] = {0xa0, 0xa1, 0xa2, 0xa3};

struct vector {
	enum calvin_cipher cipher;
	const char *key, *nonce, *aad, *pt, *ct, *tag;
};

#define GCM_K15 "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"
#define GCM_P15                                                                                    \
	"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e24" \
	"49a6b525b16aedf5aa0de657ba637b39"
#define GCM_C15                                                                                    \
	"522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b10" \
	"56828838c5f61e6393ba7a0abcc9f662"
#define ZERO32 "0000000000000000000000000000000000000000000000000000000000000000"

static const struct vector vectors[] = {
    /* McGrew-Viega GCM spec, test cases 13-16 (256-bit key) */
    {AES, ZERO32, "000000000000000000000000", "", "", "", "530f8afbc74536b9a963b4f1c4cb738b"},
    {AES, ZERO32, "000000000000000000000000", "", "00000000000000000000000000000000",
     "cea7403d4d606b6e074ec5d3baf39d18", "d0d1c8a799996bf0265b98b5d48ab919"},
    {AES, GCM_K15, "cafebabefacedbaddecaf888", "", GCM_P15 "1aafd255", GCM_C15 "898015ad",
     "b094dac5d93471bdec1a502270e3cc6c"},
    {AES, GCM_K15, "cafebabefacedbaddecaf888", "feedfacedeadbeeffeedfacedeadbeefabaddad2", GCM_P15,
     GCM_C15, "76fc6ece0f4e1768cddf8853bb2d551b"},
    /* RFC 8439 2.8.2 */
    {CHACHA, "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
     "070000004041424344454647", "50515253c0c1c2c3c4c5c6c7",
     "4c616469657320616e642047656e746c656d656e206f662074686520636c617373206f66202739393a204966"
     "204920636f756c64206f6666657220796f75206f6e6c79206f6e652074697020666f7220746865206675747572"
     "652c2073756e73637265656e20776f756c642062652069742e",
     "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69"
     "da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad67594"
     "5585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116",
     "1ae10b594f09e26a7e902ecbd0600691"},
};

static void test_vectors(void **state)
{
	uint8_t key[32], nonce[12], aad[32], pt[128], ct[128], tag[16], out[128], got[16];
	struct calvin_aead enc, dec;
	size_t i, n;

	for (i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		const struct vector *v = &vectors[i];
		size_t aad_len;

		unhex(key, v->key);
		unhex(nonce, v->nonce);
		aad_len = unhex(aad, v->aad);
		n = unhex(pt, v->pt);
		assert_int_equal(unhex(ct, v->ct), n);
		unhex(tag, v->tag);
		assert_int_equal(calvin_aead_init(&enc, v->cipher, key, 32, salt0, 1, 1), 0);
		assert_int_equal(calvin_aead_init(&dec, v->cipher, key, 32, salt0, 1, 0), 0);
		/* twice: the second proves a per-packet IV reset starts clean */
		for (int round = 0; round < 2; round++) {
			assert_int_equal(
			    calvin_aead_raw(&enc, nonce, aad, aad_len, out, pt, n, got), 0);
			assert_memory_equal(out, ct, n);
			assert_memory_equal(got, tag, 16);
			assert_int_equal(
			    calvin_aead_raw(&dec, nonce, aad, aad_len, out, ct, n, tag), 0);
			assert_memory_equal(out, pt, n);
		}
		tag[15] ^= 1;
		assert_int_equal(calvin_aead_raw(&dec, nonce, aad, aad_len, out, ct, n, tag),
				 -EBADMSG);
		calvin_aead_free(&enc);
		calvin_aead_free(&dec);
	}
}

/* The framing, checked against an independent implementation (Python's
 * cryptography package): header as AAD, nonce salt || seq. */
static void test_framing_known_answer(void **state)
{
	static const char *const want[] = {
	    "01000000010203040000000000000001d3ced4f8051af30ba2eeb7ce8c530ccfdce784ab6594",
	    "0100000001020304000000000000000144bd59b833db49cd97d0d4e9dfea112c6bb4f732263c",
	};
	uint8_t out[64], exp[64];
	struct calvin_aead a;
	size_t n;

	for (int c = AES; c <= CHACHA; c++) {
		assert_int_equal(calvin_aead_init(&a, c, key0, 32, salt0, 0x01020304, 1), 0);
		n = unhex(exp, want[c]);
		assert_int_equal(
		    calvin_aead_seal(&a, out, sizeof(out), (const uint8_t *)"calvin", 6), n);
		assert_memory_equal(out, exp, n);
		calvin_aead_free(&a);
	}
}

struct pair {
	struct calvin_aead enc, dec;
	struct calvin_replay w;
};

static void pair_init(struct pair *p, enum calvin_cipher c)
{
	assert_int_equal(calvin_aead_init(&p->enc, c, key0, 32, salt0, 7, 1), 0);
	assert_int_equal(calvin_aead_init(&p->dec, c, key0, 32, salt0, 7, 0), 0);
	assert_int_equal(calvin_replay_init(&p->w, 64), 0);
}

static void pair_free(struct pair *p)
{
	calvin_aead_free(&p->enc);
	calvin_aead_free(&p->dec);
}

static void fill(uint8_t *b, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(i * 31 + seed);
}

static void test_round_trip(void **state)
{
	static const size_t sizes[] = {0, 1, 15, 16, 17, 256, 1400, 1472};
	uint8_t pt[MAXPKT], pkt[MAXPKT + OVH], out[MAXPKT];
	struct pair p;

	for (int c = AES; c <= CHACHA; c++) {
		pair_init(&p, c);
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			size_t n = sizes[i];

			fill(pt, n, (unsigned int)i);
			/* separate buffers */
			assert_int_equal(calvin_aead_seal(&p.enc, pkt, sizeof(pkt), pt, n),
					 n + OVH);
			assert_int_equal(calvin_aead_open(&p.dec, &p.w, out, n, pkt, n + OVH), n);
			assert_memory_equal(out, pt, n);
			/* in place both ways: the packet keeps its [hdr][data][tag] shape */
			memcpy(pkt + CALVIN_CRYPT_HDR_LEN, pt, n);
			assert_int_equal(calvin_aead_seal(&p.enc, pkt, sizeof(pkt),
							  pkt + CALVIN_CRYPT_HDR_LEN, n),
					 n + OVH);
			assert_int_equal(calvin_aead_open(&p.dec, &p.w, pkt + CALVIN_CRYPT_HDR_LEN,
							  n, pkt, n + OVH),
					 n);
			assert_memory_equal(pkt + CALVIN_CRYPT_HDR_LEN, pt, n);
		}
		assert_int_equal(p.enc.seq, 16);
		assert_int_equal(p.w.top, 16);
		pair_free(&p);
	}
}

/* Every single-bit change of header, ciphertext or tag is refused and
 * leaves the window as it was. */
static void test_every_bit_flip(void **state)
{
	uint8_t pt[8] = "tactile", pkt[8 + OVH], bad[8 + OVH], out[8];
	struct pair p;
	int ret;

	for (int c = AES; c <= CHACHA; c++) {
		pair_init(&p, c);
		assert_int_equal(calvin_aead_seal(&p.enc, pkt, sizeof(pkt), pt, 8), sizeof(pkt));
		for (size_t bit = 0; bit < 8 * sizeof(pkt); bit++) {
			memcpy(bad, pkt, sizeof(pkt));
			bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
			memset(out, 0x55, sizeof(out));
			ret = calvin_aead_open(&p.dec, &p.w, out, sizeof(out), bad, sizeof(bad));
			if (bit < 32)
				assert_int_equal(ret, -EPROTO); /* version, reserved */
			else if (bit < 64)
				assert_int_equal(ret, -ENOKEY);
			else if (bit == 120) /* seq 1 -> 0 */
				assert_int_equal(ret, -EALREADY);
			else
				assert_int_equal(ret, -EBADMSG);
			assert_int_equal(p.w.top, 0);
			for (size_t i = 0; i < sizeof(out); i++) /* nothing unauthenticated out */
				assert_true(out[i] == 0x55 || out[i] == 0);
		}
		assert_int_equal(calvin_aead_open(&p.dec, &p.w, out, sizeof(out), pkt, sizeof(pkt)),
				 8);
		assert_memory_equal(out, pt, 8);
		pair_free(&p);
	}
}

static void test_truncated(void **state)
{
	uint8_t pt[40], pkt[40 + OVH], out[40];
	struct pair p;

	pair_init(&p, AES);
	fill(pt, sizeof(pt), 3);
	assert_int_equal(calvin_aead_seal(&p.enc, pkt, sizeof(pkt), pt, 40), sizeof(pkt));
	for (size_t len = 0; len < sizeof(pkt); len++)
		assert_int_equal(calvin_aead_open(&p.dec, &p.w, out, sizeof(out), pkt, len),
				 len < OVH ? -EPROTO : -EBADMSG);
	assert_int_equal(p.w.top, 0);
	assert_int_equal(calvin_aead_open(&p.dec, &p.w, out, sizeof(out), pkt, sizeof(pkt)), 40);
	pair_free(&p);
}

static void test_replay_and_window(void **state)
{
	uint8_t pkts[70][4 + OVH], out[4];
	struct pair p;

	pair_init(&p, CHACHA); /* window 64 */
	for (int i = 0; i < 70; i++)
		assert_int_equal(
		    calvin_aead_seal(&p.enc, pkts[i], sizeof(pkts[i]), (const uint8_t *)"abcd", 4),
		    sizeof(pkts[i]));
	assert_int_equal(calvin_aead_open(&p.dec, &p.w, out, 4, pkts[0], sizeof(pkts[0])), 4);
	assert_int_equal(calvin_aead_open(&p.dec, &p.w, out, 4, pkts[0], sizeof(pkts[0])),
			 -EALREADY);
	assert_int_equal(calvin_aead_open(&p.dec, &p.w, out, 4, pkts[69], sizeof(pkts[0])), 4);
	/* seq 70 is top: 7 (63 behind) is in, 6 (64 behind) is out */
	assert_int_equal(calvin_aead_open(&p.dec, &p.w, out, 4, pkts[5], sizeof(pkts[0])),
			 -EALREADY);
	assert_int_equal(calvin_aead_open(&p.dec, &p.w, out, 4, pkts[6], sizeof(pkts[0])), 4);
	assert_int_equal(calvin_aead_open(&p.dec, &p.w, out, 4, pkts[6], sizeof(pkts[0])),
			 -EALREADY);
	pair_free(&p);
}

static void test_unknown_spi(void **state)
{
	uint8_t pkt[3 + OVH], out[3];
	struct calvin_aead other;
	struct pair p;

	pair_init(&p, AES);
	assert_int_equal(calvin_aead_init(&other, AES, key0, 32, salt0, 8, 1), 0);
	assert_int_equal(calvin_aead_seal(&other, pkt, sizeof(pkt), (const uint8_t *)"xyz", 3),
			 sizeof(pkt));
	assert_int_equal(calvin_aead_open(&p.dec, &p.w, out, 3, pkt, sizeof(pkt)), -ENOKEY);
	calvin_aead_free(&other);
	pair_free(&p);
}

static void test_wrong_key_wipes(void **state)
{
	uint8_t key1[32], pt[32], pkt[32 + OVH], out[32];
	struct calvin_aead other;
	struct pair p;

	pair_init(&p, AES);
	memcpy(key1, key0, 32);
	key1[0] ^= 0x80;
	assert_int_equal(calvin_aead_init(&other, AES, key1, 32, salt0, 7, 1), 0);
	memset(pt, 'p', sizeof(pt));
	assert_int_equal(calvin_aead_seal(&other, pkt, sizeof(pkt), pt, 32), sizeof(pkt));
	assert_int_equal(calvin_aead_open(&p.dec, &p.w, out, 32, pkt, sizeof(pkt)), -EBADMSG);
	for (int i = 0; i < 32; i++)
		assert_int_equal(out[i], 0);
	calvin_aead_free(&other);
	pair_free(&p);
}

static void test_seq_exhaustion(void **state)
{
	uint8_t pkt[1 + OVH], out[1];
	struct pair p;

	pair_init(&p, AES);
	p.enc.seq = UINT64_MAX - 2; /* as if 2^64-3 packets had gone */
	assert_int_equal(calvin_aead_seal(&p.enc, pkt, sizeof(pkt), (const uint8_t *)"z", 1),
			 sizeof(pkt));
	assert_int_equal(calvin_aead_seal(&p.enc, pkt + 0, sizeof(pkt), (const uint8_t *)"z", 1),
			 -EOVERFLOW);
	assert_int_equal(p.enc.seq, UINT64_MAX - 1);
	/* the receiver takes the 64-bit jump in one step */
	assert_int_equal(calvin_aead_open(&p.dec, &p.w, out, 1, pkt, sizeof(pkt)), 1);
	assert_true(p.w.top == UINT64_MAX - 1);
	pair_free(&p);
}

static void test_bad_arguments(void **state)
{
	uint8_t buf[64 + OVH], out[64];
	struct calvin_aead a;
	struct pair p;

	assert_int_equal(calvin_aead_init(&a, AES, key0, 16, salt0, 1, 1), -EINVAL);
	assert_int_equal(calvin_aead_init(&a, AES, key0, 32, salt0, 0, 1), -EINVAL);
	assert_int_equal(calvin_aead_init(&a, (enum calvin_cipher)9, key0, 32, salt0, 1, 1),
			 -EINVAL);
	calvin_aead_free(&a); /* zeroed by the failed init: harmless */
	pair_init(&p, AES);
	memset(buf, 0, sizeof(buf));
	memset(out, 0, sizeof(out));
	assert_int_equal(calvin_aead_seal(&p.dec, buf, sizeof(buf), out, 8), -EINVAL);
	assert_int_equal(calvin_aead_open(&p.enc, &p.w, out, 8, buf, 8 + OVH), -EINVAL);
	assert_int_equal(calvin_aead_seal(&p.enc, buf, 8 + OVH - 1, out, 8), -ENOSPC);
	/* overlapping, but not in the one supported way */
	assert_int_equal(calvin_aead_seal(&p.enc, buf, sizeof(buf), buf + 4, 8), -EINVAL);
	assert_int_equal(calvin_aead_seal(&p.enc, buf, sizeof(buf), buf, 8), -EINVAL);
	assert_int_equal(p.enc.seq, 0);
	assert_int_equal(calvin_aead_seal(&p.enc, buf, sizeof(buf), out, 8), 8 + OVH);
	assert_int_equal(calvin_aead_open(&p.dec, &p.w, out, 7, buf, 8 + OVH), -ENOSPC);
	assert_int_equal(calvin_aead_open(&p.dec, &p.w, buf, 8, buf, 8 + OVH), -EINVAL);
	assert_int_equal(calvin_aead_open(&p.dec, &p.w, out, 8, buf, 8 + OVH), 8);
	pair_free(&p);
}

static void test_counters(void **state)
{
	struct calvin_aead_counters c = {0};
	static const int rets[] = {5, 0, -EPROTO, -ENOKEY, -EALREADY, -EALREADY, -EBADMSG, -ENOSPC};

	for (size_t i = 0; i < sizeof(rets) / sizeof(rets[0]); i++)
		calvin_aead_count(&c, rets[i]);
	assert_int_equal(c.ok, 2);
	assert_int_equal(c.bad_header, 1);
	assert_int_equal(c.unknown_spi, 1);
	assert_int_equal(c.replay, 2);
	assert_int_equal(c.bad_tag, 1);
	assert_int_equal(c.other, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_vectors),	   cmocka_unit_test(test_framing_known_answer),
	    cmocka_unit_test(test_round_trip),	   cmocka_unit_test(test_every_bit_flip),
	    cmocka_unit_test(test_truncated),	   cmocka_unit_test(test_replay_and_window),
	    cmocka_unit_test(test_unknown_spi),	   cmocka_unit_test(test_wrong_key_wipes),
	    cmocka_unit_test(test_seq_exhaustion), cmocka_unit_test(test_bad_arguments),
	    cmocka_unit_test(test_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
