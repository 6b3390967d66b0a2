// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the wire audit (tests/tools/wire_audit.h) on crafted
 * captures: frames sealed as the VNFs seal them, under keys derived as
 * calvin derives them. A restart that reused its epoch (seq from 1 again
 * under the same key) is caught; one under a new epoch is not a repeat;
 * a copy of a frame, a frame under no known key and other traffic are
 * told apart. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../tools/wire_audit.h"

#define SPI 0x100
#define CHAIN "t-audit"

static struct wire_audit w;
static uint8_t ltk[CALVIN_KEY_LEN], rnd[CALVIN_DEPLOY_RANDOM_LEN];

/* A sealing end of (SPI, dir, epoch), as a VNF that just started. */
static void sealer(struct calvin_aead *a, const uint8_t *key, unsigned int dir, uint32_t epoch)
{
	struct calvin_sa_keys k;

	assert_int_equal(calvin_sa_derive(key, rnd, CHAIN, SPI, dir, epoch, &k), 0);
	assert_int_equal(
	    calvin_aead_init(a, CALVIN_CIPHER_AES_256_GCM, k.key, sizeof(k.key), k.salt, SPI, 1),
	    0);
	calvin_sa_keys_wipe(&k);
}

/* Seal n packets of pattern fill+i and audit each; their epoch. */
static void send(struct calvin_aead *a, unsigned int n, uint8_t fill, int want)
{
	uint8_t pt[64], ct[64 + CALVIN_CRYPT_OVERHEAD];
	unsigned int i;

	for (i = 0; i < n; i++) {
		memset(pt, fill + i, sizeof(pt));
		assert_int_equal(calvin_aead_seal(a, ct, sizeof(ct), pt, sizeof(pt)), sizeof(ct));
		assert_int_equal(audit_frame(&w, ct, sizeof(ct)), want);
	}
}

static int setup(void **state)
{
	memset(ltk, 0x11, sizeof(ltk));
	memset(rnd, 0x22, sizeof(rnd));
	audit_init(&w, ltk, rnd, CHAIN, CALVIN_CIPHER_AES_256_GCM, 8);
	return 0;
}

static int teardown(void **state)
{
	audit_free(&w);
	return 0;
}

/* A pair restarted under the epoch it had: the same (key, nonce) seals
 * other bytes, and the audit says so. */
static void test_epoch_reused(void **state)
{
	struct calvin_aead a = { 0 }, b = { 0 };
	struct audit_verdict v;

	sealer(&a, ltk, CALVIN_DIR_FWD, 1);
	send(&a, 10, 0, 1);
	sealer(&b, ltk, CALVIN_DIR_FWD, 1); /* the restart, same epoch */
	send(&b, 5, 100, 1);
	v = audit_verdict(&w);
	assert_int_equal(v.repeats, 5);
	assert_int_equal(v.seq_reused, 0);
	assert_int_equal(v.epochs, 1);
	calvin_aead_free(&a);
	calvin_aead_free(&b);
}

/* Under a new epoch, seq 1.. again is another key's: no repeat; both
 * directions' SAs and the epochs are told apart. */
static void test_new_epoch(void **state)
{
	struct calvin_aead a = { 0 }, b = { 0 }, r = { 0 };
	struct audit_verdict v;

	sealer(&a, ltk, CALVIN_DIR_FWD, 1);
	send(&a, 10, 0, 1);
	sealer(&r, ltk, CALVIN_DIR_REV, 1);
	send(&r, 10, 0, 1);
	sealer(&b, ltk, CALVIN_DIR_FWD, 2);
	send(&b, 5, 0, 2);
	v = audit_verdict(&w);
	assert_int_equal(v.repeats, 0);
	assert_int_equal(v.duplicates, 0);
	assert_int_equal(v.seq_reused, 5);
	assert_int_equal(v.epochs, 2);
	assert_int_equal(w.per_epoch[1], 20);
	assert_int_equal(w.per_epoch[2], 5);
	calvin_aead_free(&a);
	calvin_aead_free(&b);
	calvin_aead_free(&r);
}

/* The same frame twice is a copy, not a reuse; a frame under another key
 * file, or an epoch past the audit's, is unknown; other traffic is not
 * counted. */
static void test_copies_and_strangers(void **state)
{
	uint8_t pt[32] = { 1 }, ct[32 + CALVIN_CRYPT_OVERHEAD], other[CALVIN_KEY_LEN];
	struct calvin_aead a = { 0 }, x = { 0 }, late = { 0 };
	struct audit_verdict v;

	sealer(&a, ltk, CALVIN_DIR_FWD, 3);
	assert_int_equal(calvin_aead_seal(&a, ct, sizeof(ct), pt, sizeof(pt)), sizeof(ct));
	assert_int_equal(audit_frame(&w, ct, sizeof(ct)), 3);
	assert_int_equal(audit_frame(&w, ct, sizeof(ct)), 3);
	memset(other, 0x33, sizeof(other));
	sealer(&x, other, CALVIN_DIR_FWD, 1);
	send(&x, 1, 0, -EBADMSG);
	sealer(&late, ltk, CALVIN_DIR_FWD, 9);
	send(&late, 1, 0, -EBADMSG);
	ct[0] = 4; /* not our version: other traffic */
	assert_int_equal(audit_frame(&w, ct, sizeof(ct)), 0);
	v = audit_verdict(&w);
	assert_int_equal(v.repeats, 0);
	assert_int_equal(v.duplicates, 1);
	assert_int_equal(w.unknown, 2);
	assert_int_equal(w.frames, 4);
	calvin_aead_free(&a);
	calvin_aead_free(&x);
	calvin_aead_free(&late);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_epoch_reused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_new_epoch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_copies_and_strangers, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
