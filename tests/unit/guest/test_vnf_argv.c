// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of calvin-vnf's command line from a chain spec (guest/guest.h):
 * what the netns backend and calvin-agent both run. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "guest/guest.h"

static const char spec_text[] =
    "name: t\n"
    "budget: 1ms\n"
    "vnfs:\n"
    "  - {name: fwd-k, kind: forward}\n"
    "  - {name: enc, kind: encrypt, key-file: /k/t.key, spi: 7,"
    " cipher: chacha20-poly1305}\n"
    "  - {name: dec, kind: decrypt, key-file: /k/t.key, spi: 7, cipher: chacha20-poly1305}\n"
    "  - {name: nc, kind: nc-encode, k: 8, r: 2, flush: 2ms}\n"
    "  - {name: ncd, kind: nc-decode, k: 8, r: 2, direction: both}\n"
    "  - {name: fwd-u, kind: forward, space: user, burst: 4, pmd: af_packet}\n"
    "realtime: {lock-memory: true}\n";

static struct calvin_chain_spec spec;
static struct calvin_vnf_argv a;

static int setup(void **state)
{
	char err[CALVIN_ERR_MAX];

	return calvin_spec_parse(spec_text, sizeof(spec_text) - 1, "t.yaml", &spec, err,
				 sizeof(err));
}

/* The value that follows option opt in a's argv, or NULL. */
static const char *value_of(const char *opt)
{
	unsigned int i;

	for (i = 1; i + 1 < a.argc; i++)
		if (!strcmp(a.argv[i], opt))
			return a.argv[i + 1];
	return NULL;
}

static struct calvin_vnf_site site_of(unsigned int vnf_id)
{
	struct calvin_vnf_site s = {
		.bin = "/usr/lib/calvin/calvin-vnf",
		.vnf_id = vnf_id,
		.cpu = 1,
		.west = "west",
		.east = "east",
		.west_peer = { 2, 0, 0, 0, 0, 0xa },
		.east_peer = { 2, 0, 0, 0, 0, 0xb },
		.ready_fd = -1,
		.keys_fd = -1,
	};
	return s;
}

static void test_forward(void **state)
{
	struct calvin_vnf_site s = site_of(5);

	assert_int_equal(calvin_vnf_argv_build(&a, &spec, &s), 0);
	assert_string_equal(a.argv[0], "/usr/lib/calvin/calvin-vnf");
	assert_null(a.argv[a.argc]);
	assert_string_equal(value_of("--chain"), "t");
	assert_string_equal(value_of("--name"), "fwd-u");
	assert_string_equal(value_of("--vnf-id"), "5");
	assert_string_equal(value_of("--lcore"), "1");
	assert_string_equal(value_of("--burst"), "4");
	assert_string_equal(value_of("--pmd"), "af_packet");
	assert_string_equal(value_of("--west-peer"), "02:00:00:00:00:0a");
	assert_string_equal(value_of("--east-peer"), "02:00:00:00:00:0b");
	assert_string_equal(value_of("--probe-port"), "7357");
	assert_string_equal(value_of("--transform"), "forward");
	assert_null(value_of("--ready-fd"));
	assert_int_equal(a.ready_arg, 0);
	/* no wait mode given: calvin-vnf's own default; the chain locks memory */
	assert_null(value_of("--wait"));
	assert_string_equal(a.argv[a.argc - 3], "--lock-memory");
	/* latency mode: calvin-vnf's own small rings and memory */
	assert_null(value_of("--ring"));
	assert_null(value_of("--mem-mb"));
	s.wait = "wakeup";
	assert_int_equal(calvin_vnf_argv_build(&a, &spec, &s), 0);
	assert_string_equal(value_of("--wait"), "wakeup");
}

static void test_unpinned_and_ready(void **state)
{
	struct calvin_vnf_site s = site_of(5);

	s.cpu = -1;
	s.ready_fd = 9;
	assert_int_equal(calvin_vnf_argv_build(&a, &spec, &s), 0);
	assert_string_equal(value_of("--lcore"), "any");
	assert_string_equal(value_of("--ready-fd"), "9");
	/* the slot a caller rewrites after fork */
	assert_ptr_equal(a.argv[a.ready_arg], a.ready_fd);
}

/* Keys travel through a descriptor: no key file, no key material and no
 * deployment random on the command line, which /proc/PID/cmdline shows. */
static void test_crypt_keys_fd(void **state)
{
	struct calvin_vnf_site s = site_of(1);
	unsigned int i;

	s.keys_fd = 7;
	assert_int_equal(calvin_vnf_argv_build(&a, &spec, &s), 0);
	assert_string_equal(value_of("--transform"), "encrypt");
	assert_string_equal(value_of("--cipher"), "chacha20-poly1305");
	assert_string_equal(value_of("--keys-fd"), "7");
	assert_string_equal(value_of("--spi"), "7");
	assert_string_equal(value_of("--spi-rev"), "8");
	assert_string_equal(value_of("--direction"), "both");
	assert_null(value_of("--key-file"));
	assert_null(value_of("--deploy-random"));
	assert_null(value_of("--replay-window"));
	for (i = 0; i < a.argc; i++)
		assert_null(strstr(a.argv[i], "t.key"));
	s = site_of(2);
	s.keys_fd = 5;
	assert_int_equal(calvin_vnf_argv_build(&a, &spec, &s), 0);
	assert_string_equal(value_of("--keys-fd"), "5");
	assert_string_equal(value_of("--replay-window"), "1024");
}

static void test_nc(void **state)
{
	struct calvin_vnf_site s = site_of(3);

	assert_int_equal(calvin_vnf_argv_build(&a, &spec, &s), 0);
	assert_string_equal(value_of("--nc-k"), "8");
	assert_string_equal(value_of("--nc-r"), "2");
	assert_string_equal(value_of("--nc-flush-ns"), "2000000");
	assert_string_equal(value_of("--nc-flush-early"), "1");
	assert_string_equal(value_of("--direction"), "both");
}

/* mode: throughput: deep rings, and the memory for their pool */
static void test_throughput_rings(void **state)
{
	struct calvin_vnf_site s = site_of(5);

	spec.mode = CALVIN_MODE_THROUGHPUT;
	assert_int_equal(calvin_vnf_argv_build(&a, &spec, &s), 0);
	spec.mode = CALVIN_MODE_LATENCY;
	assert_string_equal(value_of("--ring"), "2048");
	assert_string_equal(value_of("--mem-mb"), "128");
	assert_string_equal(value_of("--burst"), "4");
}

static void test_refuses(void **state)
{
	struct calvin_vnf_site s = site_of(0); /* a kernel VNF */

	assert_int_equal(calvin_vnf_argv_build(&a, &spec, &s), -EINVAL);
	s = site_of(9);
	assert_int_equal(calvin_vnf_argv_build(&a, &spec, &s), -EINVAL);
	/* a command line that cannot fit is refused, not cut */
	static char big[4001];
	s = site_of(1);
	memset(big, 'k', sizeof(big) - 1);
	s.west = big;
	assert_int_equal(calvin_vnf_argv_build(&a, &spec, &s), 0);
	s.east = big;
	assert_int_equal(calvin_vnf_argv_build(&a, &spec, &s), -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forward),	      cmocka_unit_test(test_unpinned_and_ready),
		cmocka_unit_test(test_crypt_keys_fd), cmocka_unit_test(test_nc),
		cmocka_unit_test(test_refuses),	      cmocka_unit_test(test_throughput_rings),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
