// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the reader of `chronyc -c tracking` (chrony.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "measure/measure.h"

#define SYNCED                                                                                     \
	"C0A80001,192.168.0.1,3,1764650000.123456789,0.000001234,-0.000000456,0.000002000,"        \
	"-12.345,-0.001,0.034,0.000512345,0.000123456,64.4,Normal\n"

/* A synchronised host: its offset, and its bound from root dispersion and
 * half the root delay, plus the offset still being slewed away. */
static void test_chrony_synced(void **state)
{
	struct calvin_chrony_tracking t;
	char why[160] = "";

	assert_int_equal(calvin_chrony_tracking_parse(SYNCED, &t, why, sizeof(why)), 0);
	assert_string_equal(t.reference, "192.168.0.1");
	assert_int_equal(t.stratum, 3);
	assert_int_equal(t.offset_ns, 1234);
	/* 1234 + 123456 + 512345 / 2 */
	assert_true(t.bound_ns >= 380862 && t.bound_ns <= 380863);
}

static void test_chrony_not_synced(void **state)
{
	struct calvin_chrony_tracking t;
	char why[160] = "";

	assert_int_equal(calvin_chrony_tracking_parse(
			     "00000000,,0,0.000000000,0.000000000,0.000000000,0.000000000,0.000,"
			     "0.000,0.000,1.000000000,1.000000000,0.0,Not synchronised\n",
			     &t, why, sizeof(why)),
			 -ENOLINK);
	assert_string_equal(why, "chrony is not synchronised to a reference (leap status not "
				 "Normal)");
}

/* What is not chronyc's line is refused with a reason of calvin's own;
 * a reference name keeps only characters a name or address has (it
 * reaches a terminal). */
static void test_chrony_refused(void **state)
{
	static const char *const bad[] = {
		"",
		"506 Cannot talk to daemon\n",
		"C0A80001,x,3,1,0.1,0,0,0,0,0,0.1,0.1,64,Normal,extra\n",
		"C0A80001,x,3,1,0.1,0,0,0,0,0,0.1,0.1,Normal\n",
		"C0A80001,x,99,1,0.1,0,0,0,0,0,0.1,0.1,64,Normal\n",
		"C0A80001,x,3,1,nan,0,0,0,0,0,0.1,0.1,64,Normal\n",
		"C0A80001,x,3,1,0.1,0,0,0,0,0,-0.1,0.1,64,Normal\n",
		"C0A80001,x,3,1,1e300,0,0,0,0,0,0.1,0.1,64,Normal\n",
		SYNCED SYNCED,
	};
	struct calvin_chrony_tracking t;
	char why[160];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(calvin_chrony_tracking_parse(bad[i], &t, why, sizeof(why)),
				 -EINVAL);
		assert_non_null(strstr(why, "chronyc's tracking line"));
	}
	assert_int_equal(calvin_chrony_tracking_parse(
			     "C0A80001,ntp\x1b[2J.example,3,1,0.1,0,0,0,0,0,0.1,0.1,64,Normal", &t,
			     why, sizeof(why)),
			 0);
	assert_string_equal(t.reference, "ntp");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chrony_synced),
		cmocka_unit_test(test_chrony_not_synced),
		cmocka_unit_test(test_chrony_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
