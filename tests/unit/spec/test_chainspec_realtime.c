// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of a chain's realtime section (sched, priority, lock-memory):
 * defaults, every value, and each error with its file:line:col. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "spec/spec.h"

/* lines 1-6: a chain with one user VNF */
#define HEAD "name: c\nbudget: 1ms\nvnfs:\n  - name: a\n    kind: forward\n    space: user\n"

static int parse(const char *yaml, struct calvin_chain_spec *s, char *err)
{
	return calvin_spec_parse(yaml, strlen(yaml), "t.yaml", s, err, CALVIN_ERR_MAX);
}

static void test_defaults(void **unused)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];

	assert_int_equal(parse(HEAD, &s, err), 0);
	assert_int_equal(s.realtime.sched, CALVIN_SCHED_OTHER);
	assert_int_equal(s.realtime.priority, CALVIN_FIFO_PRIORITY_DEFAULT);
	assert_false(s.realtime.lock_memory);
	assert_int_equal(s.realtime.sched_pos.line, 0);
	/* an empty section is all defaults */
	assert_int_equal(parse(HEAD "realtime:\n", &s, err), 0);
	assert_int_equal(s.realtime.sched, CALVIN_SCHED_OTHER);
}

static void test_every_key(void **unused)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];

	assert_int_equal(
	    parse(HEAD "realtime:\n  sched: fifo\n  priority: 98\n  lock-memory: true\n", &s, err),
	    0);
	assert_int_equal(s.realtime.sched, CALVIN_SCHED_FIFO);
	assert_int_equal(s.realtime.priority, 98);
	assert_true(s.realtime.lock_memory);
	/* where sched was written, for errors `up` finds with the plan */
	assert_int_equal(s.realtime.sched_pos.line, 8);
	assert_int_equal(s.realtime.sched_pos.col, 10);
	assert_string_equal(calvin_sched_name(s.realtime.sched), "fifo");
	/* fifo alone takes the default priority; lock-memory alone is fine */
	assert_int_equal(parse(HEAD "realtime: {sched: fifo}\n", &s, err), 0);
	assert_int_equal(s.realtime.priority, CALVIN_FIFO_PRIORITY_DEFAULT);
	assert_int_equal(parse(HEAD "realtime: {lock-memory: true}\n", &s, err), 0);
	assert_true(s.realtime.lock_memory);
	assert_int_equal(s.realtime.sched, CALVIN_SCHED_OTHER);
	assert_int_equal(parse(HEAD "placement: isolated\nrealtime: {sched: fifo}\n", &s, err), 0);
}

struct bad_case {
	const char *yaml;
	const char *where;
	const char *what;
};

static const struct bad_case bad[] = {
	{ HEAD "realtime:\n  sched: rr\n",
	  "t.yaml:8:10: ", "unknown sched 'rr'; use one of: other, fifo" },
	{ HEAD "realtime:\n  priority: 10\n",
	  "t.yaml:8:3: ", "priority applies to 'sched: fifo' only; add 'sched: fifo'" },
	{ HEAD "realtime:\n  sched: other\n  priority: 10\n",
	  "t.yaml:9:3: ", "priority applies to 'sched: fifo' only" },
	{ HEAD "realtime:\n  sched: fifo\n  priority: 99\n",
	  "t.yaml:9:13: ", "priority 99 is out of range; use an integer from 1 to 98" },
	{ HEAD "realtime:\n  sched: fifo\n  priority: 0\n", "t.yaml:9:13: ", "out of range" },
	{ HEAD "realtime:\n  lock-memory: sometimes\n", "t.yaml:8:16: ", "lock-memory" },
	{ HEAD "realtime:\n  nice: -5\n", "t.yaml:8:3: ",
	  "unknown key 'nice' in realtime; valid keys: sched, priority, lock-memory" },
	{ HEAD "realtime: fifo\n", "t.yaml:7:11: ", "realtime must be a mapping" },
	/* a busy-poller at FIFO that may run anywhere starves what it lands on;
	 * the error points at sched, wherever placement is written */
	{ HEAD "realtime:\n  sched: fifo\nplacement: shared\n",
	  "t.yaml:8:10: ", "sched: fifo needs pinned user VNFs" },
	{ "placement: shared\n" HEAD "realtime: {sched: fifo}\n",
	  "t.yaml:8:19: ", "use 'placement: pinned' or 'isolated'" },
	/* nothing to apply them to */
	{ "name: c\nbudget: 1ms\nvnfs:\n  - {name: a, kind: forward}\nrealtime:\n  lock-memory: "
	  "true\n",
	  "t.yaml:5:1: ", "realtime options apply to user VNFs, and this chain has none" },
};

static void test_bad(void **unused)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(bad[i].yaml, &s, err), -EINVAL);
		print_message("%s\n", err);
		assert_memory_equal(err, bad[i].where, strlen(bad[i].where));
		assert_non_null(strstr(err, bad[i].what));
		assert_non_null(strstr(err, "; "));
		assert_null(strchr(err, '\n'));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests_name("chainspec_realtime", tests, NULL, NULL);
}
