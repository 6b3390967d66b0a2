// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of a user VNF's wait mode decisions (userspace/lib/guest/wakeup.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "guest/guest.h"

static void test_names(void **unused)
{
	enum calvin_wait w = CALVIN_WAIT_BUSY;

	assert_int_equal(calvin_wait_parse("wakeup", &w), 0);
	assert_int_equal(w, CALVIN_WAIT_WAKEUP);
	assert_string_equal(calvin_wait_name(w), "wakeup");
	assert_int_equal(calvin_wait_parse("busy", &w), 0);
	assert_int_equal(w, CALVIN_WAIT_BUSY);
	assert_string_equal(calvin_wait_name(w), "busy");
	assert_int_equal(calvin_wait_parse("loop", &w), 0);
	assert_int_equal(w, CALVIN_WAIT_LOOP);
	assert_string_equal(calvin_wait_name(w), "loop");
	assert_int_equal(calvin_wait_parse("yield", &w), 0);
	assert_int_equal(w, CALVIN_WAIT_YIELD);
	assert_int_equal(calvin_wait_parse("busy", &w), 0);
	assert_int_equal(calvin_wait_parse("Busy", &w), -EINVAL);
	assert_int_equal(calvin_wait_parse("", &w), -EINVAL);
	assert_int_equal(calvin_wait_parse("wake", &w), -EINVAL);
	assert_int_equal(w, CALVIN_WAIT_BUSY); /* untouched on error */
}

/* Busy-poll only on a core of one's own. */
static void test_rule(void **unused)
{
	assert_int_equal(calvin_wait_for(false, 1), CALVIN_WAIT_BUSY);
	assert_int_equal(calvin_wait_for(false, 0), CALVIN_WAIT_BUSY);
	assert_int_equal(calvin_wait_for(true, 1), CALVIN_WAIT_WAKEUP);
	assert_int_equal(calvin_wait_for(false, -1), CALVIN_WAIT_WAKEUP);
	assert_int_equal(calvin_wait_for(true, -1), CALVIN_WAIT_WAKEUP);
}

static void test_fd_new(void **unused)
{
	const int before[] = {3, 7, 9};
	const int one_new[] = {3, 7, 9, 12};
	const int reordered[] = {12, 9, 3, 7};
	const int two_new[] = {3, 7, 9, 10, 11};
	const int gone_and_new[] = {3, 11};

	assert_int_equal(calvin_fd_new(before, 3, one_new, 4), 12);
	assert_int_equal(calvin_fd_new(before, 3, reordered, 4), 12);
	assert_int_equal(calvin_fd_new(before, 3, two_new, 5), -EEXIST);
	assert_int_equal(calvin_fd_new(before, 3, before, 3), -ENOENT);
	assert_int_equal(calvin_fd_new(before, 3, NULL, 0), -ENOENT);
	assert_int_equal(calvin_fd_new(NULL, 0, gone_and_new, 2), -EEXIST);
	assert_int_equal(calvin_fd_new(before, 3, gone_and_new, 2), 11);
	assert_int_equal(calvin_fd_new(NULL, 0, one_new + 3, 1), 12);
}

static void test_timeout(void **unused)
{
	struct timespec ts;

	assert_null(calvin_wait_timeout(5, UINT64_MAX, &ts));
	assert_ptr_equal(calvin_wait_timeout(1000, 2500001000ULL, &ts), &ts);
	assert_int_equal(ts.tv_sec, 2);
	assert_int_equal(ts.tv_nsec, 500000000);
	/* a deadline just passed, or long passed: do not sleep at all */
	assert_ptr_equal(calvin_wait_timeout(2000, 2000, &ts), &ts);
	assert_true(ts.tv_sec == 0 && ts.tv_nsec == 0);
	assert_ptr_equal(calvin_wait_timeout(UINT64_MAX - 1, 10, &ts), &ts);
	assert_true(ts.tv_sec == 0 && ts.tv_nsec == 0);
	assert_ptr_equal(calvin_wait_timeout(0, 999, &ts), &ts);
	assert_true(ts.tv_sec == 0 && ts.tv_nsec == 999);
}

/* A leave a frame may end early: what it pauses first, and the credit. */
static void test_leave_early(void **unused)
{
	const uint64_t piece = 24000; /* ns */
	int64_t credit = 0;
	uint64_t left = 0;
	int i;

	/* no credit: 7/8 of the piece (21 us) before a frame may end it */
	assert_int_equal(calvin_leave_pause(0, piece), 21000);
	/* a full piece earns 1/8 of it */
	assert_int_equal(calvin_leave_credit(0, piece, piece, piece), 3000);
	/* with credit the pause shrinks, and is never negative or over the piece */
	assert_int_equal(calvin_leave_pause(3000, piece), 18000);
	assert_int_equal(calvin_leave_pause(21000, piece), 0);
	assert_int_equal(calvin_leave_pause(96000, piece), 0);
	assert_int_equal(calvin_leave_pause(-50000, piece), piece);
	/* a piece cut short spends credit; the credit has a cap of four pieces */
	assert_int_equal(calvin_leave_credit(21000, piece, 0, piece), 0);
	assert_int_equal(calvin_leave_credit(96000, piece, piece, piece), 96000);
	/* late for the piece: only what is left of it is owed */
	assert_int_equal(calvin_leave_pause(0, 8000), 7000);

	/* a frame in every piece, as early as allowed: over many pieces the VNF
	 * still leaves at least 7/8 of what it planned */
	for (i = 0; i < 1000; i++) {
		uint64_t l = calvin_leave_pause(credit, piece);

		credit = calvin_leave_credit(credit, piece, l, piece);
		left += l;
		assert_true(credit >= 0);
	}
	assert_true(left * 8 >= 7 * 1000 * piece);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_rule),
	    cmocka_unit_test(test_fd_new),
	    cmocka_unit_test(test_timeout),
	    cmocka_unit_test(test_leave_early),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
