// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the anti-replay window: edges, jumps, bitmap wrap, and a
 * comparison with a naive model over a long pseudo-random walk. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "codec/codec.h"

/* accept = check, then update, as a receiver does after the tag verified */
static int accept(struct calvin_replay *w, uint64_t seq)
{
	int ret = calvin_replay_check(w, seq);

	if (!ret)
		calvin_replay_update(w, seq);
	return ret;
}

static void test_init_sizes(void **state)
{
	struct calvin_replay w;

	assert_int_equal(calvin_replay_init(&w, 31), -EINVAL);
	assert_int_equal(calvin_replay_init(&w, 4097), -EINVAL);
	assert_int_equal(calvin_replay_init(&w, 0), -EINVAL);
	assert_int_equal(calvin_replay_init(&w, 32), 0);
	assert_int_equal(w.mask, 1);
	assert_int_equal(calvin_replay_init(&w, 1024), 0);
	assert_int_equal(w.mask, 31);
	assert_int_equal(calvin_replay_init(&w, 4096), 0);
	assert_int_equal(w.mask, CALVIN_REPLAY_WORDS - 1);
	assert_int_equal(calvin_replay_init(&w, 100), 0);
	assert_int_equal(w.top, 0);
}

static void test_seq_zero(void **state)
{
	struct calvin_replay w;

	calvin_replay_init(&w, 64);
	assert_int_equal(accept(&w, 0), -EALREADY);
	assert_int_equal(accept(&w, 1), 0);
	assert_int_equal(accept(&w, 0), -EALREADY);
}

static void test_edges(void **state)
{
	static const unsigned int sizes[] = {32, 64, 65, 100, 1024, 4096};
	struct calvin_replay w;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t W = sizes[i], top = 10000;

		calvin_replay_init(&w, sizes[i]);
		assert_int_equal(accept(&w, top), 0);
		assert_int_equal(accept(&w, top), -EALREADY);
		/* W-1 behind: inside, once */
		assert_int_equal(accept(&w, top - (W - 1)), 0);
		assert_int_equal(accept(&w, top - (W - 1)), -EALREADY);
		/* W behind and more: outside */
		assert_int_equal(accept(&w, top - W), -EALREADY);
		assert_int_equal(accept(&w, top - W - 1), -EALREADY);
		assert_int_equal(accept(&w, 1), -EALREADY);
		/* the check alone changes nothing */
		assert_int_equal(calvin_replay_check(&w, top + 1), 0);
		assert_int_equal(calvin_replay_check(&w, top + 1), 0);
		assert_int_equal(w.top, top);
		/* one step forward drops the oldest */
		assert_int_equal(accept(&w, top + 1), 0);
		assert_int_equal(accept(&w, top - (W - 1)), -EALREADY);
		assert_int_equal(accept(&w, top - (W - 2)), 0);
	}
}

static void test_big_jump(void **state)
{
	struct calvin_replay w;
	uint64_t s;

	calvin_replay_init(&w, 1024);
	for (s = 1; s <= 2000; s++)
		assert_int_equal(accept(&w, s), 0);
	/* far beyond the bitmap: everything old is out, nothing stale remains */
	assert_int_equal(accept(&w, 1000000), 0);
	assert_int_equal(accept(&w, 2000), -EALREADY);
	for (s = 1000000 - 1023; s < 1000000; s++)
		assert_int_equal(accept(&w, s), 0);
	assert_int_equal(accept(&w, 1000000 - 1024), -EALREADY);
	/* a jump of exactly the bitmap's span, and near the top of 64 bits */
	assert_int_equal(accept(&w, 1000000 + 64 * 32), 0);
	assert_int_equal(accept(&w, 1000000 + 64 * 32 - 1), 0);
	assert_int_equal(accept(&w, UINT64_MAX - 1), 0);
	assert_int_equal(accept(&w, UINT64_MAX - 1), -EALREADY);
	assert_int_equal(accept(&w, UINT64_MAX - 1024), 0);
	assert_int_equal(accept(&w, UINT64_MAX - 1025), -EALREADY);
}

/* Slide one at a time past many bitmap lengths, keeping holes: a hole is
 * accepted late exactly while it is inside the window. */
static void test_bitmap_wrap(void **state)
{
	struct calvin_replay w;
	uint64_t s;

	calvin_replay_init(&w, 32); /* two words: wraps every 128 */
	for (s = 1; s <= 1000; s++) {
		if (s % 7 == 0)
			continue; /* a hole, filled 31 later */
		assert_int_equal(accept(&w, s), 0);
		if (s > 31 && (s - 31) % 7 == 0)
			assert_int_equal(accept(&w, s - 31), 0);
		if (s > 32 && (s - 32) % 7 == 0)
			assert_int_equal(accept(&w, s - 32), -EALREADY);
	}
	/* window 969..1000: the holes not filled yet are still welcome */
	for (s = 968; s <= 1000; s++)
		assert_int_equal(accept(&w, s), s > 969 && s % 7 == 0 ? 0 : -EALREADY);
}

/* The window against the obvious model: a set of accepted numbers. */
static void test_against_model(void **state)
{
	enum { W = 96, SPAN = 100000 };
	static uint8_t seen[SPAN];
	struct calvin_replay w;
	uint64_t top = 0, s;
	int want;

	srand(4303);
	memset(seen, 0, sizeof(seen));
	calvin_replay_init(&w, W);
	for (int i = 0; i < 200000; i++) {
		int r = rand() % 100;

		if (r < 60)
			s = top + 1 + (uint64_t)(rand() % 3);
		else if (r < 62)
			s = top + (uint64_t)(rand() % 500);
		else
			s = top > 200 ? top - (uint64_t)(rand() % 200) : (uint64_t)(rand() % 200);
		if (s >= SPAN)
			break;
		want = s == 0 || seen[s] || (s <= top && top - s >= W) ? -EALREADY : 0;
		assert_int_equal(accept(&w, s), want);
		if (!want) {
			seen[s] = 1;
			if (s > top)
				top = s;
		}
	}
	assert_true(top > SPAN / 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_init_sizes),	cmocka_unit_test(test_seq_zero),
	    cmocka_unit_test(test_edges),	cmocka_unit_test(test_big_jump),
	    cmocka_unit_test(test_bitmap_wrap), cmocka_unit_test(test_against_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
