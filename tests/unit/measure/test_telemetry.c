// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the probe telemetry block codec (encode, push, decode, reject). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "measure/measure.h"

#define BUF_LEN 1500

static struct calvin_hop hop_n(unsigned int n)
{
	struct calvin_hop h = {
	    .vnf_id = (uint8_t)(100 + n),
	    .space = (uint8_t)(n & 1),
	    .clock = CALVIN_CLOCK_HOST_MONO,
	    .dir = (uint8_t)((n >> 1) & 1),
	    .t_in = 1000000000ull * n + 17,
	    .t_out = 1000000000ull * n + 4242,
	};
	return h;
}

static void assert_hop_equal(const struct calvin_hop *a, const struct calvin_hop *b)
{
	assert_int_equal(a->vnf_id, b->vnf_id);
	assert_int_equal(a->space, b->space);
	assert_int_equal(a->clock, b->clock);
	assert_int_equal(a->dir, b->dir);
	assert_int_equal(a->t_in, b->t_in);
	assert_int_equal(a->t_out, b->t_out);
}

static void test_init_header_bytes(void **state)
{
	static const uint8_t want[16] = {'C',  'L',  'V',  'N',	 2,    4,    0,	   0,
					 0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03, 0x04};
	uint8_t buf[BUF_LEN];
	unsigned int i;

	memset(buf, 0x5a, sizeof(buf));
	assert_int_equal(calvin_tlm_init(buf, sizeof(buf), 4, 0xdeadbeef, 0x01020304),
			 CALVIN_TLM_LEN(4));
	assert_memory_equal(buf, want, sizeof(want));
	for (i = CALVIN_TLM_HDR_LEN; i < CALVIN_TLM_LEN(4); i++)
		assert_int_equal(buf[i], 0);
	/* application bytes after the block are not the codec's business */
	assert_int_equal(buf[CALVIN_TLM_LEN(4)], 0x5a);
}

static void test_init_rejects(void **state)
{
	uint8_t buf[BUF_LEN];

	assert_int_equal(calvin_tlm_init(buf, sizeof(buf), 0, 1, 1), -EINVAL);
	assert_int_equal(calvin_tlm_init(buf, sizeof(buf), CALVIN_TLM_MAX_HOPS + 1, 1, 1), -EINVAL);
	assert_int_equal(calvin_tlm_init(buf, sizeof(buf), 255, 1, 1), -EINVAL);
	assert_int_equal(calvin_tlm_init(buf, CALVIN_TLM_LEN(3) - 1, 3, 1, 1), -EMSGSIZE);
	assert_int_equal(calvin_tlm_init(buf, CALVIN_TLM_LEN(3), 3, 1, 1), CALVIN_TLM_LEN(3));
	assert_int_equal(calvin_tlm_init(buf, sizeof(buf), CALVIN_TLM_MAX_HOPS, 1, 1),
			 CALVIN_TLM_LEN(CALVIN_TLM_MAX_HOPS));
}

static void test_round_trip(void **state)
{
	uint8_t buf[BUF_LEN];
	struct calvin_tlm t;
	struct calvin_hop h;
	unsigned int i;

	assert_int_equal(calvin_tlm_init(buf, sizeof(buf), 5, 77, 0xcafef00d), CALVIN_TLM_LEN(5));
	assert_int_equal(calvin_tlm_decode(buf, sizeof(buf), &t), 0);
	assert_int_equal(t.nr_hops, 0);
	for (i = 0; i < 3; i++) {
		h = hop_n(i);
		assert_int_equal(calvin_tlm_push_hop(buf, sizeof(buf), &h), i);
	}
	assert_int_equal(calvin_tlm_decode(buf, CALVIN_TLM_LEN(5), &t), 0);
	assert_int_equal(t.version, CALVIN_TLM_VERSION);
	assert_int_equal(t.max_hops, 5);
	assert_int_equal(t.nr_hops, 3);
	assert_int_equal(t.flags, 0);
	assert_int_equal(t.seq, 77);
	assert_int_equal(t.session, 0xcafef00d);
	for (i = 0; i < 3; i++) {
		h = hop_n(i);
		assert_hop_equal(&t.hops[i], &h);
	}
}

static void test_overflow(void **state)
{
	uint8_t buf[BUF_LEN], before[BUF_LEN];
	struct calvin_tlm t;
	struct calvin_hop h;
	unsigned int i;

	assert_int_equal(calvin_tlm_init(buf, sizeof(buf), 2, 1, 2), CALVIN_TLM_LEN(2));
	for (i = 0; i < 2; i++) {
		h = hop_n(i);
		assert_int_equal(calvin_tlm_push_hop(buf, sizeof(buf), &h), i);
	}
	memcpy(before, buf, sizeof(buf));
	h = hop_n(9);
	assert_int_equal(calvin_tlm_push_hop(buf, sizeof(buf), &h), -ENOSPC);
	assert_int_equal(buf[7], CALVIN_TLM_F_OVERFLOW);
	/* only the flags byte changed: records and trailing bytes are intact */
	buf[7] = before[7];
	assert_memory_equal(buf, before, sizeof(buf));
	buf[7] = CALVIN_TLM_F_OVERFLOW;
	assert_int_equal(calvin_tlm_push_hop(buf, sizeof(buf), &h), -ENOSPC);
	assert_int_equal(calvin_tlm_decode(buf, sizeof(buf), &t), 0);
	assert_int_equal(t.flags, CALVIN_TLM_F_OVERFLOW);
	assert_int_equal(t.nr_hops, 2);
	h = hop_n(1);
	assert_hop_equal(&t.hops[1], &h);
}

static void test_full_block(void **state)
{
	uint8_t buf[BUF_LEN];
	struct calvin_tlm t;
	struct calvin_hop h;
	unsigned int i;

	calvin_tlm_init(buf, sizeof(buf), CALVIN_TLM_MAX_HOPS, 1, 1);
	for (i = 0; i < CALVIN_TLM_MAX_HOPS; i++) {
		h = hop_n(i);
		assert_int_equal(calvin_tlm_push_hop(buf, CALVIN_TLM_LEN(CALVIN_TLM_MAX_HOPS), &h),
				 i);
	}
	assert_int_equal(calvin_tlm_decode(buf, CALVIN_TLM_LEN(CALVIN_TLM_MAX_HOPS), &t), 0);
	assert_int_equal(t.nr_hops, CALVIN_TLM_MAX_HOPS);
	for (i = 0; i < CALVIN_TLM_MAX_HOPS; i++) {
		h = hop_n(i);
		assert_hop_equal(&t.hops[i], &h);
	}
}

static void test_hop_bytes_big_endian(void **state)
{
	static const uint8_t want[16] = {
	    0x21, 1,	0,    1,    0x00, 0x01, 0x02, 0x03, /* vnf_id, space, dir, clock, residence */
	    0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, /* t_in */
	};
	struct calvin_hop h = {.vnf_id = 0x21,
			       .space = CALVIN_SPACE_USER,
			       .clock = 1,
			       .dir = CALVIN_DIR_FWD,
			       .t_in = 0x1122334455667788ull,
			       .t_out = 0x1122334455667788ull + 0x010203};
	uint8_t buf[BUF_LEN];

	calvin_tlm_init(buf, sizeof(buf), 2, 0, 0);
	assert_int_equal(calvin_tlm_push_hop(buf, sizeof(buf), &h), 0);
	assert_int_equal(buf[6], 1); /* nr_hops */
	assert_memory_equal(buf + CALVIN_TLM_HDR_LEN, want, sizeof(want));
	/* the second record starts 16 bytes on */
	h.vnf_id = 0x22;
	assert_int_equal(calvin_tlm_push_hop(buf, sizeof(buf), &h), 1);
	assert_int_equal(buf[CALVIN_TLM_HDR_LEN + 16], 0x22);
}

/* A stay beyond 32 bits of ns is written as the largest residence, and
 * read back as at least that long. */
static void test_residence_saturates(void **state)
{
	struct calvin_hop h = hop_n(1);
	uint8_t buf[BUF_LEN];
	struct calvin_tlm t;

	h.t_out = h.t_in + CALVIN_TLM_RESIDENCE_MAX;
	calvin_tlm_init(buf, sizeof(buf), 4, 0, 0);
	assert_int_equal(calvin_tlm_push_hop(buf, sizeof(buf), &h), 0);
	h.t_out = h.t_in + 10ull * CALVIN_TLM_RESIDENCE_MAX;
	assert_int_equal(calvin_tlm_push_hop(buf, sizeof(buf), &h), 1);
	assert_int_equal(calvin_tlm_decode(buf, sizeof(buf), &t), 0);
	assert_int_equal(t.hops[0].t_out - t.hops[0].t_in, CALVIN_TLM_RESIDENCE_MAX);
	assert_int_equal(t.hops[1].t_out - t.hops[1].t_in, CALVIN_TLM_RESIDENCE_MAX);
	assert_memory_equal(buf + CALVIN_TLM_HDR_LEN + 16 + 4, "\xff\xff\xff\xff", 4);
}

/* A hop this version cannot carry is refused and the block left alone. */
static void test_push_rejects_bad_hop(void **state)
{
	uint8_t buf[BUF_LEN], before[BUF_LEN];
	struct calvin_hop h;
	unsigned int i;

	calvin_tlm_init(buf, sizeof(buf), 4, 0, 0);
	memcpy(before, buf, sizeof(buf));
	for (i = 0; i < 3; i++) {
		h = hop_n(2);
		if (i == 0)
			h.space = 2;
		else if (i == 1)
			h.dir = 2;
		else
			h.t_out = h.t_in - 1;
		assert_int_equal(calvin_tlm_push_hop(buf, sizeof(buf), &h), -EINVAL);
		assert_memory_equal(buf, before, sizeof(buf));
	}
}

/* A block of 4 records with byte off set to val: decode and push both
 * refuse it with err, and push leaves it as it was. */
static void assert_refused(unsigned int off, uint8_t val, int err)
{
	uint8_t buf[BUF_LEN], before[BUF_LEN];
	struct calvin_hop h = hop_n(1);
	struct calvin_tlm t;

	calvin_tlm_init(buf, sizeof(buf), 4, 1, 1);
	buf[off] = val;
	memcpy(before, buf, sizeof(buf));
	assert_int_equal(calvin_tlm_decode(buf, sizeof(buf), &t), err);
	assert_int_equal(calvin_tlm_push_hop(buf, sizeof(buf), &h), err);
	assert_memory_equal(buf, before, sizeof(buf));
}

static void test_bad_magic(void **state)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		assert_refused(i, "CLVN"[i] ^ 0x20, -EBADMSG);
}

static void test_bad_version(void **state)
{
	static const uint8_t versions[] = {0, 1, 3, 0xff};
	uint8_t buf[BUF_LEN];
	unsigned int i;

	for (i = 0; i < sizeof(versions); i++) {
		assert_refused(4, versions[i], -EPROTONOSUPPORT);
		calvin_tlm_init(buf, sizeof(buf), 4, 1, 1);
		buf[4] = versions[i];
		assert_int_equal(calvin_tlm_block_len(buf, sizeof(buf)), 0);
	}
}

/* A version 1 block as an older calvin wrote it (24-byte records): refused,
 * and the reason says so. */
static void test_version1_refused(void **state)
{
	static const uint8_t v1[16 + 2 * 24] = {
	    'C', 'L', 'V', 'N', 1, 2, 1, 0, 0, 0, 0, 7, 0, 0, 0, 9,
	    0,	 3,   0,   0,	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10,
	    0,	 0,   0,   0,	0, 0, 0, 20,
	};
	struct calvin_tlm t;
	char why[160];

	assert_int_equal(calvin_tlm_decode(v1, sizeof(v1), &t), -EPROTONOSUPPORT);
	calvin_tlm_why(v1, sizeof(v1), -EPROTONOSUPPORT, why, sizeof(why));
	assert_non_null(strstr(why, "telemetry version 1 (24-byte hop records)"));
	assert_non_null(strstr(why, "reads version 2"));
}

static void test_why(void **state)
{
	uint8_t buf[BUF_LEN];
	char why[160];

	calvin_tlm_init(buf, sizeof(buf), 4, 1, 1);
	calvin_tlm_why(buf, 20, -EMSGSIZE, why, sizeof(why));
	assert_string_equal(why, "telemetry block cut short: 20 bytes, 4 hop records need 80");
	buf[0] = 'X';
	calvin_tlm_why(buf, sizeof(buf), -EBADMSG, why, sizeof(why));
	assert_string_equal(why, "no telemetry block (1500 bytes, magic is not CLVN)");
	calvin_tlm_why(buf, 3, -EMSGSIZE, why, sizeof(why));
	assert_string_equal(why, "no telemetry block (3 bytes, shorter than its header)");
	buf[0] = 'C';
	buf[4] = 7;
	calvin_tlm_why(buf, sizeof(buf), -EPROTONOSUPPORT, why, sizeof(why));
	assert_string_equal(why, "telemetry version 7; this calvin reads version 2");
}

/* Each short length is copied to a heap buffer of exactly that size, so a
 * read past the end would be a real overrun, not a read of our own stack. */
static void test_short_buffers(void **state)
{
	uint8_t buf[BUF_LEN], *copy;
	struct calvin_tlm t;
	struct calvin_hop h = hop_n(1);
	unsigned int len, max;

	for (max = 1; max <= CALVIN_TLM_MAX_HOPS; max++) {
		calvin_tlm_init(buf, sizeof(buf), (uint8_t)max, 1, 1);
		for (len = 0; len < CALVIN_TLM_LEN(max); len++) {
			copy = malloc(len ? len : 1);
			assert_non_null(copy);
			memcpy(copy, buf, len);
			assert_int_equal(calvin_tlm_decode(copy, len, &t), -EMSGSIZE);
			assert_int_equal(calvin_tlm_push_hop(copy, len, &h), -EMSGSIZE);
			free(copy);
		}
		assert_int_equal(calvin_tlm_decode(buf, len, &t), 0);
	}
}

static void test_bad_counts(void **state)
{
	uint8_t buf[BUF_LEN];
	struct calvin_tlm t;
	struct calvin_hop h = hop_n(1);

	calvin_tlm_init(buf, sizeof(buf), 4, 1, 1);
	buf[6] = 5; /* nr_hops > max_hops */
	assert_int_equal(calvin_tlm_decode(buf, sizeof(buf), &t), -EINVAL);
	assert_int_equal(calvin_tlm_push_hop(buf, sizeof(buf), &h), -EINVAL);
	buf[6] = 0;
	buf[5] = 0; /* max_hops 0 */
	assert_int_equal(calvin_tlm_decode(buf, sizeof(buf), &t), -EINVAL);
	assert_int_equal(calvin_tlm_push_hop(buf, sizeof(buf), &h), -EINVAL);
	buf[5] = CALVIN_TLM_MAX_HOPS + 1; /* buffer is long enough: the count alone is wrong */
	assert_int_equal(calvin_tlm_decode(buf, sizeof(buf), &t), -EINVAL);
	assert_int_equal(calvin_tlm_push_hop(buf, sizeof(buf), &h), -EINVAL);
	buf[5] = 0xff;
	buf[6] = 0xff;
	assert_int_equal(calvin_tlm_decode(buf, sizeof(buf), &t), -EINVAL);
}

/* A record a hand-over program opened: this VNF's, residence 0. */
static void push_open(uint8_t *buf, const struct calvin_hop *h)
{
	struct calvin_hop open = *h;

	open.t_out = open.t_in;
	assert_true(calvin_tlm_push_hop(buf, BUF_LEN, &open) >= 0);
}

static void test_close_opened(void **state)
{
	struct calvin_hop prev = hop_n(0), h = hop_n(1), want;
	uint8_t buf[BUF_LEN];
	struct calvin_tlm t;

	calvin_tlm_init(buf, sizeof(buf), 4, 1, 1);
	assert_int_equal(calvin_tlm_push_hop(buf, sizeof(buf), &prev), 0);
	push_open(buf, &h);
	want = h;
	h.t_in = 1; /* the program's t_in stays */
	assert_int_equal(calvin_tlm_close_hop(buf, sizeof(buf), &h), 1);
	assert_int_equal(calvin_tlm_decode(buf, sizeof(buf), &t), 0);
	assert_int_equal(t.nr_hops, 2);
	assert_hop_equal(&t.hops[0], &prev);
	assert_hop_equal(&t.hops[1], &want);
	/* closed now: a second close finds nothing open */
	assert_int_equal(calvin_tlm_close_hop(buf, sizeof(buf), &h), -ENOENT);
}

/* Only this hop's open record is closed: another VNF's, another
 * direction's, space's or clock's, a closed one, or none, leave the block
 * as it is, for the caller to push a record of its own. */
static void test_close_not_ours(void **state)
{
	uint8_t buf[BUF_LEN], before[BUF_LEN];
	struct calvin_hop h = hop_n(1), other;
	unsigned int i;

	calvin_tlm_init(buf, sizeof(buf), 4, 1, 1);
	memcpy(before, buf, sizeof(buf));
	assert_int_equal(calvin_tlm_close_hop(buf, sizeof(buf), &h), -ENOENT);
	assert_memory_equal(buf, before, sizeof(buf));
	for (i = 0; i < 5; i++) {
		other = h;
		if (i == 0)
			other.vnf_id++;
		else if (i == 1)
			other.dir ^= 1;
		else if (i == 2)
			other.space ^= 1;
		else if (i == 3)
			other.clock++;
		calvin_tlm_init(buf, sizeof(buf), 4, 1, 1);
		if (i == 4)
			assert_int_equal(calvin_tlm_push_hop(buf, sizeof(buf), &h), 0);
		else
			push_open(buf, &other);
		memcpy(before, buf, sizeof(buf));
		assert_int_equal(calvin_tlm_close_hop(buf, sizeof(buf), &h), -ENOENT);
		assert_memory_equal(buf, before, sizeof(buf));
	}
}

/* An open record not last (another hop stamped after it) is not this hop's. */
static void test_close_only_last(void **state)
{
	struct calvin_hop h = hop_n(1), next = hop_n(2);
	uint8_t buf[BUF_LEN];

	calvin_tlm_init(buf, sizeof(buf), 4, 1, 1);
	push_open(buf, &h);
	assert_int_equal(calvin_tlm_push_hop(buf, sizeof(buf), &next), 1);
	assert_int_equal(calvin_tlm_close_hop(buf, sizeof(buf), &h), -ENOENT);
	buf[0] = 'X';
	assert_int_equal(calvin_tlm_close_hop(buf, sizeof(buf), &h), -EBADMSG);
}

/* Flags this version does not define: the block is not understood. */
static void test_unknown_flags(void **state)
{
	unsigned int bit;

	for (bit = 1; bit < 8; bit++)
		assert_refused(7, (uint8_t)(1u << bit), -EINVAL);
}

/* A filled record with values this version does not have. */
static void test_bad_records(void **state)
{
	uint8_t buf[BUF_LEN];
	struct calvin_tlm t;
	struct calvin_hop h = hop_n(1);
	uint8_t *rec = buf + CALVIN_TLM_HDR_LEN + CALVIN_TLM_HOP_LEN;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		calvin_tlm_init(buf, sizeof(buf), 4, 1, 1);
		calvin_tlm_push_hop(buf, sizeof(buf), &h);
		calvin_tlm_push_hop(buf, sizeof(buf), &h);
		if (i == 0)
			rec[1] = 2; /* space */
		else if (i == 1)
			rec[2] = 2; /* dir */
		else
			memset(rec + 4, 0xff, 12); /* t_in + residence past 64 bits */
		assert_int_equal(calvin_tlm_decode(buf, sizeof(buf), &t), -EINVAL);
	}
	/* an unfilled record is not read */
	calvin_tlm_init(buf, sizeof(buf), 4, 1, 1);
	calvin_tlm_push_hop(buf, sizeof(buf), &h);
	rec[1] = 9;
	assert_int_equal(calvin_tlm_decode(buf, sizeof(buf), &t), 0);
}

/* The block length VNFs skip over: only of a block this version reads. */
static void test_block_len(void **state)
{
	uint8_t buf[BUF_LEN];

	calvin_tlm_init(buf, sizeof(buf), 64, 1, 1);
	assert_int_equal(calvin_tlm_block_len(buf, sizeof(buf)), 1040);
	assert_int_equal(calvin_tlm_block_len(buf, 1040), 1040);
	assert_int_equal(calvin_tlm_block_len(buf, 1039), 0);
	assert_int_equal(calvin_tlm_block_len(buf, 3), 0);
	buf[1] = 'x';
	assert_int_equal(calvin_tlm_block_len(buf, sizeof(buf)), 0);
}

/* 32 VNFs stamp 64 records, and the whole probe fits a 1500-byte MTU. */
static void test_chain_of_32(void **state)
{
	assert_int_equal(CALVIN_TLM_MAX_HOPS, 64);
	assert_int_equal(CALVIN_TLM_HOP_LEN, 16);
	assert_true(CALVIN_TLM_LEN(CALVIN_TLM_MAX_HOPS) <= 1500 - 20 - 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_header_bytes),
		cmocka_unit_test(test_init_rejects),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_full_block),
		cmocka_unit_test(test_hop_bytes_big_endian),
		cmocka_unit_test(test_residence_saturates),
		cmocka_unit_test(test_push_rejects_bad_hop),
		cmocka_unit_test(test_bad_magic),
		cmocka_unit_test(test_bad_version),
		cmocka_unit_test(test_version1_refused),
		cmocka_unit_test(test_why),
		cmocka_unit_test(test_short_buffers),
		cmocka_unit_test(test_bad_counts),
		cmocka_unit_test(test_unknown_flags),
		cmocka_unit_test(test_bad_records),
		cmocka_unit_test(test_block_len),
		cmocka_unit_test(test_chain_of_32),
		cmocka_unit_test(test_close_opened),
		cmocka_unit_test(test_close_not_ours),
		cmocka_unit_test(test_close_only_last),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
