// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of a chain's supervise section (restarts, within, backoff):
 * defaults, every key, and each error with its file:line:col. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "spec/spec.h"
#include "spec_fixture.h"

/* lines 1-5: a chain with one kernel VNF */
#define HEAD "name: c\nbudget: 1ms\nvnfs:\n  - name: a\n    kind: forward\n"
#define MS 1000000ULL

static int parse(const char *yaml, struct calvin_chain_spec *s, char *err)
{
	return calvin_spec_parse(yaml, strlen(yaml), "t.yaml", s, err, CALVIN_ERR_MAX);
}

/* Without the section, and with it empty: 5 starts in 60 s, 100ms..5s. */
static void test_defaults(void **unused)
{
	static const char *const texts[] = { HEAD, HEAD "supervise:\n", HEAD "supervise: {}\n" };
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		assert_int_equal(parse(texts[i], &s, err), 0);
		assert_int_equal(s.supervise.restarts, 5);
		assert_int_equal(s.supervise.within_ns, 60000 * MS);
		assert_int_equal(s.supervise.backoff_min_ns, 100 * MS);
		assert_int_equal(s.supervise.backoff_max_ns, 5000 * MS);
	}
}

static void test_every_key(void **unused)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];

	assert_int_equal(parse(HEAD "supervise:\n  restarts: 100\n  within: 3600s\n"
				    "  backoff: 10ms..60s\n",
			       &s, err),
			 0);
	assert_int_equal(s.supervise.restarts, 100);
	assert_int_equal(s.supervise.within_ns, 3600000 * MS);
	assert_int_equal(s.supervise.backoff_min_ns, 10 * MS);
	assert_int_equal(s.supervise.backoff_max_ns, 60000 * MS);
	/* one wait, always the same; the smallest window */
	assert_int_equal(
	    parse(HEAD "supervise: {restarts: 1, within: 1s, backoff: 2s..2s}\n", &s, err), 0);
	assert_int_equal(s.supervise.restarts, 1);
	assert_int_equal(s.supervise.within_ns, 1000 * MS);
	assert_int_equal(s.supervise.backoff_min_ns, 2000 * MS);
	assert_int_equal(s.supervise.backoff_max_ns, 2000 * MS);
	assert_int_equal(parse(HEAD "supervise: {backoff: 0.5s..1.5s}\n", &s, err), 0);
	assert_int_equal(s.supervise.backoff_min_ns, 500 * MS);
	assert_int_equal(s.supervise.backoff_max_ns, 1500 * MS);
}

static void test_bad(void **unused)
{
	static const struct spec_refusal bad[] = {
		{ HEAD "supervise: 3\n", "t.yaml:6:12:", "must be a mapping" },
		{ HEAD "supervise: [1]\n", "t.yaml:6:12:", "must be a mapping" },
		{ HEAD "supervise:\n  restarts: 0\n", "t.yaml:7:13:", "restarts" },
		{ HEAD "supervise:\n  restarts: 101\n", "t.yaml:7:13:", "restarts" },
		{ HEAD "supervise:\n  restarts: -1\n", "t.yaml:7:13:", "restarts" },
		{ HEAD "supervise:\n  within: 60\n", "t.yaml:7:11:", "no unit" },
		{ HEAD "supervise:\n  within: 0s\n", "t.yaml:7:11:", "above zero" },
		{ HEAD "supervise:\n  within: 999ms\n", "t.yaml:7:11:", "from 1s to 1h" },
		{ HEAD "supervise:\n  within: 3601s\n", "t.yaml:7:11:", "from 1s to 1h" },
		{ HEAD "supervise:\n  backoff: 100ms\n", "t.yaml:7:12:", "not FIRST..LONGEST" },
		{ HEAD "supervise:\n  backoff: 100ms-5s\n", "t.yaml:7:12:", "not FIRST..LONGEST" },
		{ HEAD "supervise:\n  backoff: [100ms, 5s]\n", "t.yaml:7:12:", "backoff" },
		{ HEAD "supervise:\n  backoff: ..5s\n",
		  "t.yaml:7:12:", "first wait '' is not a duration" },
		{ HEAD "supervise:\n  backoff: 100ms..\n",
		  "t.yaml:7:12:", "longest wait '' is not a duration" },
		{ HEAD "supervise:\n  backoff: 100..5s\n", "t.yaml:7:12:", "first wait '100'" },
		{ HEAD "supervise:\n  backoff: 1ms..5s\n", "t.yaml:7:12:", "not from 10ms to 60s" },
		{ HEAD "supervise:\n  backoff: 1s..61s\n", "t.yaml:7:12:", "not from 10ms to 60s" },
		{ HEAD "supervise:\n  backoff: 5s..100ms\n",
		  "t.yaml:7:12:", "longer first than last" },
		{ HEAD "supervise:\n  backoff: 1s..2s..3s\n",
		  "t.yaml:7:12:", "longest wait '2s..3s'" },
		{ HEAD "supervise:\n  tries: 3\n", "t.yaml:7:3:", "unknown key 'tries'" },
		{ HEAD "supervise:\n  within: 5s\n  within: 6s\n", "t.yaml:8:3:", "duplicate key" },
	};

	spec_refusals(bad, sizeof(bad) / sizeof(bad[0]));
}

/* New limits on a running chain are a settings change (up starts a new
 * supervisor with them), not a refusal. */
static void test_diff(void **unused)
{
	struct calvin_spec_diff d, same;

	spec_settings_change(HEAD, HEAD "supervise: {restarts: 9}\n", &d, &same);
	assert_true(d.supervise);
	assert_false(same.supervise);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests_name("chainspec_supervise", tests, NULL, NULL);
}
