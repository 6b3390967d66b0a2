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

#include "guest/guest.h"
#include "spec/spec_priv.h" /* the parameter values too */

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
	/* where the image is written, for what validate finds missing there */
	assert_int_equal(s.libvirt.image_pos.line, 11);
	assert_int_equal(s.libvirt.image_pos.col, 10);
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
	/* the attacks of issue 13: libvirt would run a program as root */
	{ HEAD VNFS "libvirt:\n  uri: \"qemu+ext:///system?command=/tmp/x/marker\"\n",
	  "dir/t.yaml:7:8: uri transport ext runs a program the URI names, as root; use "
	  "qemu:///system, qemu:///session, or qemu+ssh://, qemu+tls:// or "
	  "qemu+tcp://HOST/system" },
	{ HEAD VNFS "libvirt:\n  memory: 1GiB\n  uri: qemu+ssh://edge/system?netcat=/tmp/nc\n",
	  "dir/t.yaml:8:8: uri parameter netcat names a program libvirt would run; remove it "
	  "(calvin allows no_tty and mode only)" },
	{ HEAD VNFS "libvirt: {uri: 'xen:///system'}\n",
	  "dir/t.yaml:6:16: uri driver 'xen' is not qemu, which runs calvin's VMs; use "
	  "qemu:///system, qemu:///session, or qemu+ssh://, qemu+tls:// or "
	  "qemu+tcp://HOST/system" },
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

/* The checker alone: what it allows, and what each refusal says. */
static void test_uri_allowed(void **state)
{
	static const char *const ok[] = {
		"qemu:///system",
		"qemu:///session",
		"qemu+ssh://edge1/system",
		"qemu+ssh://calvin@edge-1.example.org:2222/system?no_tty=1",
		"qemu+tls://10.0.0.2/system?mode=direct&no_tty=0",
		"qemu+tcp://[fd00::2]:16509/system",
		"qemu+tcp://127.0.0.1/session?mode=legacy",
		"qemu:///system?mode=auto",
	};
	char why[256];
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		why[0] = '\0';
		if (calvin_libvirt_uri_check(ok[i], why, sizeof(why)))
			fail_msg("%s refused: %s", ok[i], why);
	}
	assert_true(calvin_libvirt_uri_local("qemu:///system"));
	assert_false(calvin_libvirt_uri_local("qemu+tcp://127.0.0.1/system"));
}

static void test_uri_refused(void **state)
{
	static const struct {
		const char *uri, *why;
	} cases[] = {
		{ "qemu+ext:///system?command=/bin/sh", "transport ext runs a program" },
		{ "qemu+unix:///system?socket=/tmp/s", "transport unix connects to a socket" },
		{ "qemu+libssh2://h/system", "transport 'libssh2' is not one calvin allows" },
		{ "qemu+ssh://h/system?netcat=/tmp/nc", "parameter netcat names a program" },
		{ "qemu+ssh://h/system?no_tty=1&command=x", "parameter command names a program" },
		{ "qemu+ssh://h/system?no_tty=1;keyfile=/root/k", "parameter keyfile names a key" },
		{ "qemu:///system?socket=/tmp/s", "parameter socket names a socket" },
		{ "qemu+tls://h/system?pkipath=/tmp", "parameter pkipath names a folder" },
		{ "qemu+tls://h/system?no_verify=1", "turns off the check" },
		{ "qemu+ssh://h/system?known_hosts_verify=ignore", "turn off the check" },
		{ "qemu+ssh://h/system?name=qemu+ext:///system", "names another URI" },
		{ "qemu+ssh://h/system?Command=x", "parameter 'Command' is not one calvin knows" },
		{ "qemu+ssh://h/system?no_tty=yes", "parameter no_tty takes 0, 1" },
		{ "qemu+ssh://h/system?mode", "parameter mode takes auto, legacy, direct" },
		{ "qemu+ssh://h/system?", "empty parameter" },
		{ "qemu+ssh://h/system?com%6dand=x", "has '%', '#' or '\\'" },
		{ "qemu+ssh://h/system#x", "has '%', '#' or '\\'" },
		{ "qemu+ssh://-oProxyCommand=x/system", "needs a host name" },
		{ "qemu+ssh://-o@h/system", "user '-o' is not a user name" },
		{ "qemu+ssh:///system", "needs a host name" },
		{ "qemu+ssh://h:0/system", "':0' after the host is not a port" },
		{ "qemu+ssh://h:65536/system", "':65536' after the host is not a port" },
		{ "qemu+ssh://h:22x/system", "':22x' after the host is not a port" },
		{ "qemu+tcp://[zz]/system", "not an IPv6 address" },
		{ "qemu+ssh://h/embed?root=/tmp", "path '/embed' is not /system or /session" },
		{ "qemu+ssh://h", "path '' is not /system" },
		{ "qemu://h/system", "names a host without a transport" },
		{ "qemu:///system/", "path '/system/' is not" },
		{ "qemu:///system;command=x", "path '/system;command=x' is not" },
		{ "lxc:///system", "driver 'lxc' is not qemu" },
		{ "qemu", "is not a libvirt URI" },
		{ "qemu:///system x", "has a space or a control character" },
	};
	char why[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		why[0] = '\0';
		if (calvin_libvirt_uri_check(cases[i].uri, why, sizeof(why)) != -EINVAL)
			fail_msg("%s allowed", cases[i].uri);
		if (!strstr(why, cases[i].why))
			fail_msg("%s: '%s' does not say '%s'", cases[i].uri, why, cases[i].why);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_mib),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_uri_allowed),
		cmocka_unit_test(test_uri_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
