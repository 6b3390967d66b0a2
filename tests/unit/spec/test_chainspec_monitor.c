// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of a chain's monitor section (rate, window, listen,
 * allow-remote, hook, hook-timeout) and of listen addresses: defaults,
 * every key, and each error with its file:line:col. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <cmocka.h>

#include "spec/spec.h"
#include "spec_fixture.h"

/* lines 1-5: a chain with one kernel VNF */
#define HEAD "name: c\nbudget: 1ms\nvnfs:\n  - name: a\n    kind: forward\n"

static int parse(const char *yaml, struct calvin_chain_spec *s, char *err)
{
	return calvin_spec_parse(yaml, strlen(yaml), "t.yaml", s, err, CALVIN_ERR_MAX);
}

static void test_defaults(void **unused)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];

	assert_int_equal(parse(HEAD, &s, err), 0);
	assert_false(s.monitor.on);
	/* the defaults hold without a section too: up --monitor uses them */
	assert_int_equal(s.monitor.rate, 10);
	assert_int_equal(s.monitor.window_ns, 10000000000ULL);
	assert_string_equal(s.monitor.listen_text, "127.0.0.1:9357");
	assert_int_equal(s.monitor.listen.port, 9357);
	assert_true(calvin_listen_is_local(&s.monitor.listen));
	assert_int_equal(s.monitor.nr_hook, 0);
	assert_int_equal(s.monitor.hook_timeout_ns, 5000000000ULL);
	/* "monitor:" alone turns it on with them */
	assert_int_equal(parse(HEAD "monitor:\n", &s, err), 0);
	assert_true(s.monitor.on);
	assert_int_equal(s.monitor.rate, 10);
}

static void test_every_key(void **unused)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];

	assert_int_equal(parse(HEAD "monitor:\n  rate: 100\n  window: 2s\n  listen: '[::1]:0'\n"
				    "  hook: [/usr/local/bin/page, --chain, c]\n"
				    "  hook-timeout: 500ms\n",
			       &s, err),
			 0);
	assert_true(s.monitor.on);
	assert_int_equal(s.monitor.rate, 100);
	assert_int_equal(s.monitor.window_ns, 2000000000ULL);
	assert_int_equal(s.monitor.listen.family, AF_INET6);
	assert_int_equal(s.monitor.listen.port, 0);
	assert_true(calvin_listen_is_local(&s.monitor.listen));
	assert_int_equal(s.monitor.nr_hook, 3);
	assert_string_equal(s.monitor.hook[0], "/usr/local/bin/page");
	assert_string_equal(s.monitor.hook[2], "c");
	assert_int_equal(s.monitor.hook_timeout_ns, 500000000ULL);
	/* a network address when asked for */
	assert_int_equal(
	    parse(HEAD "monitor:\n  allow-remote: true\n  listen: 0.0.0.0:9100\n", &s, err), 0);
	assert_false(calvin_listen_is_local(&s.monitor.listen));
}

static void test_listen(void **unused)
{
	struct calvin_listen l;

	assert_int_equal(calvin_parse_listen("127.0.0.2:1", &l), 0);
	assert_int_equal(l.family, AF_INET);
	assert_int_equal(l.port, 1);
	assert_true(calvin_listen_is_local(&l));
	assert_int_equal(calvin_parse_listen("10.0.0.1:65535", &l), 0);
	assert_false(calvin_listen_is_local(&l));
	assert_int_equal(calvin_parse_listen("[::]:80", &l), 0);
	assert_false(calvin_listen_is_local(&l));
	assert_int_equal(calvin_parse_listen("127.0.0.1", &l), -EINVAL);
	assert_int_equal(calvin_parse_listen("127.0.0.1:65536", &l), -EINVAL);
	assert_int_equal(calvin_parse_listen("127.0.0.1:-1", &l), -EINVAL);
	assert_int_equal(calvin_parse_listen("localhost:80", &l), -EINVAL);
	assert_int_equal(calvin_parse_listen("::1:80", &l), -EINVAL);
	assert_int_equal(calvin_parse_listen("[::1:80", &l), -EINVAL);
	assert_int_equal(calvin_parse_listen(":80", &l), -EINVAL);
	assert_int_equal(calvin_parse_listen("127.0.0.1:", &l), -EINVAL);
}

static void test_bad(void **unused)
{
	static const struct spec_refusal bad[] = {
		{ HEAD "monitor: 3\n", "t.yaml:6:10:", "must be a mapping" },
		{ HEAD "monitor:\n  rate: 0\n", "t.yaml:7:9:", "rate" },
		{ HEAD "monitor:\n  window: 10\n", "t.yaml:7:11:", "no unit" },
		{ HEAD "monitor:\n  window: 500ms\n", "t.yaml:7:11:", "from 1s to 1h" },
		{ HEAD "monitor:\n  window: 3601s\n", "t.yaml:7:11:", "from 1s to 1h" },
		{ HEAD "monitor:\n  rate: 100000\n  window: 3600s\n",
		  "t.yaml:7:9:", "probes a window" },
		{ HEAD "monitor:\n  listen: 127.0.0.1\n", "t.yaml:7:11:", "not ADDR:PORT" },
		{ HEAD "monitor:\n  listen: 0.0.0.0:9357\n", "t.yaml:7:11:", "allow-remote: true" },
		{ HEAD "monitor:\n  listen: 192.0.2.1:9357\n  allow-remote: false\n",
		  "t.yaml:7:11:", "not a loopback" },
		{ HEAD "monitor:\n  hook: /bin/true\n", "t.yaml:7:9:", "must be a list" },
		{ HEAD "monitor:\n  hook: []\n", "t.yaml:7:9:", "hook is empty" },
		{ HEAD "monitor:\n  hook: [page, x]\n", "t.yaml:7:10:", "not an absolute path" },
		{ HEAD "monitor:\n  hook: [/bin/x, {a: b}]\n", "t.yaml:7:18:", "a plain word" },
		{ HEAD
		  "monitor:\n  hook: [/a, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]\n",
		  "t.yaml:7:65:", "more than 16 words" },
		{ HEAD "monitor:\n  hook-timeout: 10ms\n", "t.yaml:7:17:", "from 100ms to 60s" },
		{ HEAD "monitor:\n  color: red\n", "t.yaml:7:3:", "unknown key 'color'" },
		{ HEAD "monitor:\n  rate: 5\n  rate: 6\n", "t.yaml:8:3:", "duplicate key" },
	};

	spec_refusals(bad, sizeof(bad) / sizeof(bad[0]));
}

/* A monitor section that changes is a settings change on a running chain,
 * not a refusal. */
static void test_diff(void **unused)
{
	struct calvin_spec_diff d, same;

	spec_settings_change(HEAD, HEAD "monitor: {rate: 20}\n", &d, &same);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults), cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_listen),	 cmocka_unit_test(test_bad),
		cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests_name("chainspec_monitor", tests, NULL, NULL);
}
