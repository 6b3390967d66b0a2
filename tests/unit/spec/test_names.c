// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of calvin_name_check(): the one rule for chain and node names,
 * in chain files and on the command line, with one printable line saying
 * what is wrong. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "spec/spec.h"

static void test_valid(void **state)
{
	char err[CALVIN_ERR_MAX] = "";

	assert_int_equal(calvin_name_check("chain", "tactile-fwd", err, sizeof(err)), 0);
	assert_int_equal(calvin_name_check("node", "a", err, sizeof(err)), 0);
	assert_int_equal(calvin_name_check("chain", "abcdefghijklmnopqrstuvwx", err, sizeof(err)),
			 0);
	assert_string_equal(err, "");
}

static void test_invalid(void **state)
{
	static const struct {
		const char *name, *err;
	} cases[] = {
		{ "../x", "chain '../x' is not a valid name; use lower-case letters, digits and "
			  "'-', starting with a letter" },
		{ "a/b", "chain 'a/b' is not a valid name; use lower-case letters, digits and '-', "
			 "starting with a letter" },
		{ "", "chain is empty; give a name of lower-case letters, digits and '-'" },
		{ "abcdefghijklmnopqrstuvwxy",
		  "chain 'abcdefghijklmnopqrstuvwxy' is longer than 24 characters; shorten it" },
		{ "1a", "chain '1a' is not a valid name; use lower-case letters, digits and '-', "
			"starting with a letter" },
		{ "a\nb",
		  "chain 'a?b' is not a valid name; use lower-case letters, digits and '-', "
		  "starting with a letter" },
	};
	char err[CALVIN_ERR_MAX];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(calvin_name_check("chain", cases[i].name, err, sizeof(err)),
				 -EINVAL);
		assert_string_equal(err, cases[i].err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_invalid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
