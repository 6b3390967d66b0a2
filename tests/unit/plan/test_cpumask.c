// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of CPU sets and the kernel's list and hex mask forms. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "plan/plan.h"

static void test_list(void **unused)
{
	static const char *const round[] = { "", "0", "1", "0-1", "0-3,8,10-11", "5,7,9", "1023" };
	static char buf[CALVIN_CPUS_TEXT_MAX];
	struct calvin_cpumask m;
	size_t i;

	for (i = 0; i < sizeof(round) / sizeof(round[0]); i++) {
		assert_int_equal(calvin_cpumask_parse_list(round[i], &m), 0);
		assert_string_equal(calvin_cpumask_list(&m, buf, sizeof(buf)), round[i]);
	}
	/* the kernel's files end in a newline; "2-2" and "1,2" read back short */
	assert_int_equal(calvin_cpumask_parse_list("0-1\n", &m), 0);
	assert_int_equal(calvin_cpumask_count(&m), 2);
	assert_int_equal(calvin_cpumask_parse_list("1,2,2-3", &m), 0);
	assert_string_equal(calvin_cpumask_list(&m, buf, sizeof(buf)), "1-3");
	assert_int_equal(calvin_cpumask_parse_list("\n", &m), 0);
	assert_true(calvin_cpumask_empty(&m));
}

static void test_list_bad(void **unused)
{
	static const char *const bad[] = { "3-1", "1,,2", "x", "-1", "+1", " 1", "1,", "1-", ",1" };
	struct calvin_cpumask m;
	char small[4];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(calvin_cpumask_parse_list(bad[i], &m), -EINVAL);
	/* CPUs beyond the bound are out of range, not malformed */
	assert_int_equal(calvin_cpumask_parse_list("1024", &m), -ERANGE);
	assert_int_equal(calvin_cpumask_parse_list("0-1024", &m), -ERANGE);
	/* a list that does not fit is NULL, never cut */
	assert_int_equal(calvin_cpumask_parse_list("100,200", &m), 0);
	assert_null(calvin_cpumask_list(&m, small, sizeof(small)));
}

static void test_hex(void **unused)
{
	char buf[CALVIN_CPUS_TEXT_MAX];
	struct calvin_cpumask m;

	assert_int_equal(calvin_cpumask_parse_hex("3\n", &m), 0);
	assert_string_equal(calvin_cpumask_list(&m, buf, sizeof(buf)), "0-1");
	assert_string_equal(calvin_cpumask_hex(&m, buf, sizeof(buf)), "3");
	/* groups of 32 bits, most significant first, as the kernel prints */
	assert_int_equal(calvin_cpumask_parse_hex("00000001,00000002", &m), 0);
	assert_string_equal(calvin_cpumask_list(&m, buf, sizeof(buf)), "1,32");
	assert_string_equal(calvin_cpumask_hex(&m, buf, sizeof(buf)), "1,00000002");
	assert_int_equal(calvin_cpumask_parse_hex("ff,ffffffff", &m), 0);
	assert_string_equal(calvin_cpumask_list(&m, buf, sizeof(buf)), "0-39");
	assert_int_equal(calvin_cpumask_parse_hex("0", &m), 0);
	assert_true(calvin_cpumask_empty(&m));
	assert_string_equal(calvin_cpumask_hex(&m, buf, sizeof(buf)), "0");
	assert_int_equal(calvin_cpumask_parse_hex("00000000", &m), 0);
	assert_true(calvin_cpumask_empty(&m));
	assert_int_equal(calvin_cpumask_parse_list("1023", &m), 0);
	assert_int_equal(calvin_cpumask_parse_hex(calvin_cpumask_hex(&m, buf, sizeof(buf)), &m), 0);
	assert_true(calvin_cpumask_isset(&m, 1023));
	assert_int_equal(calvin_cpumask_count(&m), 1);
	/* bad: empty, not hex, a group of 9 digits, empty groups, beyond 1024 */
	assert_int_equal(calvin_cpumask_parse_hex("", &m), -EINVAL);
	assert_int_equal(calvin_cpumask_parse_hex("g", &m), -EINVAL);
	assert_int_equal(calvin_cpumask_parse_hex("100000000", &m), -EINVAL);
	assert_int_equal(calvin_cpumask_parse_hex("1,,2", &m), -EINVAL);
	assert_int_equal(calvin_cpumask_parse_hex(",2", &m), -EINVAL);
	assert_int_equal(calvin_cpumask_parse_hex("1,", &m), -EINVAL);
	strcpy(buf, "1"); /* CPU 1024 */
	for (int g = 0; g < 32; g++)
		strcat(buf, ",00000000");
	assert_int_equal(calvin_cpumask_parse_hex(buf, &m), -EINVAL);
}

static void test_sets(void **unused)
{
	struct calvin_cpumask a, b, d;

	calvin_cpumask_parse_list("0-3", &a);
	calvin_cpumask_parse_list("2-5", &b);
	calvin_cpumask_and(&d, &a, &b);
	assert_int_equal(calvin_cpumask_count(&d), 2);
	calvin_cpumask_or(&d, &a, &b);
	assert_int_equal(calvin_cpumask_count(&d), 6);
	calvin_cpumask_andnot(&d, &a, &b);
	assert_true(calvin_cpumask_isset(&d, 0) && calvin_cpumask_isset(&d, 1));
	assert_false(calvin_cpumask_isset(&d, 2));
	assert_true(calvin_cpumask_contains(&a, &d));
	assert_false(calvin_cpumask_contains(&d, &a));
	assert_false(calvin_cpumask_equal(&a, &b));
	calvin_cpumask_clear(&a, 0);
	assert_false(calvin_cpumask_isset(&a, 0));
	/* out of range is never set, and setting it does nothing */
	calvin_cpumask_set(&a, -1);
	calvin_cpumask_set(&a, CALVIN_MAX_CPUS);
	assert_false(calvin_cpumask_isset(&a, -1) || calvin_cpumask_isset(&a, CALVIN_MAX_CPUS));
	assert_int_equal(calvin_cpumask_count(&a), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_list_bad),
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_sets),
	};

	return cmocka_run_group_tests_name("cpumask", tests, NULL, NULL);
}
