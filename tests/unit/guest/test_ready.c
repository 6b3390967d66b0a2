// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of calvin-vnf's ready line: what is formatted parses back,
 * and the parser takes nothing it does not understand. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "guest/guest.h"

static void test_round_trip(void **state)
{
	static const int cases[][CALVIN_READY_SIDES] = {
		{ CALVIN_PMD_AF_XDP, CALVIN_PMD_AF_XDP },
		{ CALVIN_PMD_AF_XDP, CALVIN_PMD_AF_PACKET },
		{ CALVIN_PMD_AF_PACKET, CALVIN_READY_NO_PORT },
		{ CALVIN_READY_NO_PORT, CALVIN_READY_NO_PORT },
	};
	int got[CALVIN_READY_SIDES];
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_true(calvin_ready_format(buf, sizeof(buf), cases[i]) > 0);
		assert_int_equal(calvin_ready_parse(buf, got), 0);
		assert_memory_equal(got, cases[i], sizeof(got));
	}
}

static void test_format_exact(void **state)
{
	const int pmd[CALVIN_READY_SIDES] = { CALVIN_PMD_AF_XDP, CALVIN_PMD_AF_PACKET };
	char buf[64];

	assert_int_equal(calvin_ready_format(buf, sizeof(buf), pmd), 33);
	assert_string_equal(buf, "ready west=af_xdp east=af_packet\n");
	assert_int_equal(calvin_ready_format(buf, 33, pmd), -ENOSPC);
	assert_int_equal(calvin_ready_format(buf, 3, pmd), -ENOSPC);
}

static void test_parse_accepts(void **state)
{
	int pmd[CALVIN_READY_SIDES];

	/* an older calvin-vnf says only "ready" */
	assert_int_equal(calvin_ready_parse("ready\n", pmd), 0);
	assert_int_equal(pmd[CALVIN_READY_WEST], CALVIN_READY_NO_PORT);
	assert_int_equal(calvin_ready_parse("ready east=af_packet west=af_xdp", pmd), 0);
	assert_int_equal(pmd[CALVIN_READY_WEST], CALVIN_PMD_AF_XDP);
	assert_int_equal(pmd[CALVIN_READY_EAST], CALVIN_PMD_AF_PACKET);
}

static void test_parse_rejects(void **state)
{
	static const char *const bad[] = {
		"",
		"read",
		"readyx",
		"ready west",
		"ready west=",
		"ready west=virtio",
		"ready north=af_xdp",
		"ready west=af_xdp west=af_packet",
		"ready  west=af_xdp",
		"ready west=af_xdp\nmore",
		"ready west=af_xdp_but_a_very_long_word_indeed",
	};
	int pmd[CALVIN_READY_SIDES];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(calvin_ready_parse(bad[i], pmd), -EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_format_exact),
		cmocka_unit_test(test_parse_accepts),
		cmocka_unit_test(test_parse_rejects),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
