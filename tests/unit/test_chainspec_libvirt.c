// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the chain spec's libvirt section: defaults, every key,
 * and the file:line:col of each error a user can make in it. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "chainspec.h"

#define HEAD "name: c\nbudget: 1ms\nbackend: libvirt\n"
#define VNFS "vnfs:\n  - {name: a, kind: forward}\n"

static int parse(const char *yaml, struct calvin_chain_spec *s, char *err, size_t len)
{
	return calvin_spec_parse(yaml, strlen(yaml), "dir/t.yaml", s, err, len);
}

static void test_defaults(void **state)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];

	assert_int_equal(parse(HEAD VNFS, &s, err, sizeof(err)), 0);
	assert_int_equal(s.backend, CALVIN_BACKEND_LIBVIRT);
	assert_string_equal(s.libvirt.uri, "qemu:///system");
	assert_int_equal(s.libvirt.links, CALVIN_LINKS_XDP);
	assert_false(s.libvirt.fifo);
	assert_int_equal(s.libvirt.memory_mib, 512);
	assert_string_equal(s.libvirt.image, "");
	assert_int_equal(s.libvirt.accel, CALVIN_ACCEL_AUTO);
	assert_int_equal(s.libvirt.pos.line, 0);
}

static void test_every_key(void **state)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];

	assert_int_equal(parse(HEAD VNFS
			       "libvirt:\n  uri: qemu+ssh://edge/system\n  links: bridge\n"
			       "  fifo: true\n  memory: 1GiB\n  image: img\n  accel: tcg\n",
			       &s, err, sizeof(err)),
			 0);
	assert_string_equal(s.libvirt.uri, "qemu+ssh://edge/system");
	assert_int_equal(s.libvirt.links, CALVIN_LINKS_BRIDGE);
	assert_true(s.libvirt.fifo);
	assert_int_equal(s.libvirt.memory_mib, 1024);
	/* relative to the chain file, like key files */
	assert_string_equal(s.libvirt.image, "dir/img");
	assert_int_equal(s.libvirt.accel, CALVIN_ACCEL_TCG);
	assert_int_equal(s.libvirt.pos.line, 6);
	assert_int_equal(s.libvirt.pos.col, 1);
}

static void test_mib(void **state)
{
	unsigned int mib = 0;

	assert_int_equal(calvin_parse_mib("512MiB", &mib), 0);
	assert_int_equal(mib, 512);
	assert_int_equal(calvin_parse_mib("3GiB", &mib), 0);
	assert_int_equal(mib, 3072);
	assert_int_equal(calvin_parse_mib("512", &mib), -EINVAL);
	assert_int_equal(calvin_parse_mib("512M", &mib), -EINVAL);
	assert_int_equal(calvin_parse_mib("1.5GiB", &mib), -EINVAL);
	assert_int_equal(calvin_parse_mib("-1MiB", &mib), -EINVAL);
	assert_int_equal(calvin_parse_mib("4194304GiB", &mib), -ERANGE);
	assert_int_equal(calvin_parse_mib("99999999999MiB", &mib), -ERANGE);
}

struct bad_case {
	const char *yaml;
	const char *error; /* the whole line */
};

static const struct bad_case bad_cases[] = {
	{ "name: c\nbudget: 1ms\n" VNFS "libvirt: {links: xdp}\n",
	  "dir/t.yaml:5:1: the libvirt section applies to 'backend: libvirt' only; set that "
	  "backend "
	  "or remove the section" },
	{ HEAD VNFS "libvirt:\n  links: ovs\n",
	  "dir/t.yaml:7:10: unknown links 'ovs'; use one of: xdp, bridge" },
	{ HEAD VNFS "libvirt:\n  memory: 512\n",
	  "dir/t.yaml:7:11: memory '512' is not a size; write a whole number and MiB or GiB (e.g. "
	  "512MiB)" },
	{ HEAD VNFS "libvirt:\n  memory: 64MiB\n",
	  "dir/t.yaml:7:11: memory 64MiB is out of range; give 128MiB to 1024GiB" },
	{ HEAD VNFS "libvirt:\n  uri: 'qemu:///system x'\n",
	  "dir/t.yaml:7:8: uri 'qemu:///system x' has a space or a control character; write it "
	  "without" },
	{ HEAD VNFS "libvirt:\n  uri: ''\n",
	  "dir/t.yaml:7:8: uri is empty; give a value or remove the key" },
	{ HEAD VNFS "libvirt:\n  fifo: yes\n",
	  "dir/t.yaml:7:9: fifo 'yes' is not a bool; use true or false" },
	{ HEAD VNFS "libvirt:\n  accel: hvf\n",
	  "dir/t.yaml:7:10: unknown accel 'hvf'; use one of: auto, kvm, tcg" },
	{ HEAD VNFS "libvirt:\n  cpus: 2\n",
	  "dir/t.yaml:7:3: unknown key 'cpus' in libvirt; valid keys: uri, links, fifo, memory, "
	  "image, accel" },
	{ HEAD VNFS "libvirt: [xdp]\n", "dir/t.yaml:6:10: libvirt must be a mapping; give it keys "
					"among: uri, links, fifo, memory, "
					"image, accel" },
};

static void test_bad(void **state)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];
	size_t i;

	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		err[0] = '\0';
		assert_int_equal(parse(bad_cases[i].yaml, &s, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, bad_cases[i].error);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_mib),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
