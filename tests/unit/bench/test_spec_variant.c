// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of chain spec variants (bench/lib/bench_lib.h): values replaced
 * where the file writes them, added where it leaves them to defaults, in
 * block and flow style, and the result parses to what was asked. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench/lib/bench_lib.h"

static const char fwd[] = "name: t-fwd\n"
			  "budget: 350us\n"
			  "placement: pinned   # a comment\n"
			  "allow-sharing: true\n"
			  "vnfs:\n"
			  "  - name: fwd-k\n"
			  "    kind: forward\n"
			  "  - name: fwd-u\n"
			  "    kind: forward\n"
			  "    space: user\n"
			  "    burst: 1\n"
			  "server: {name: server, kind: echo}\n"
			  "probe: {port: 7357, count: 10}\n";

/* No placement, a flow-style user VNF without burst, a libvirt section. */
static const char vm[] = "name: t-vm\n"
			 "budget: 1ms\n"
			 "backend: libvirt\n"
			 "vnfs:\n"
			 "  - {name: fwd-k, kind: forward}\n"
			 "  - {name: fwd-u, kind: forward, space: user}\n"
			 "libvirt: {links: xdp, memory: 256MiB}\n";

static void parse(const char *text, size_t len, struct calvin_chain_spec *s)
{
	char err[CALVIN_ERR_MAX] = "";
	int rc = calvin_spec_parse(text, len, "t.yaml", s, err, sizeof(err));

	if (rc)
		fail_msg("%s\n---\n%s", err, text);
}

static struct calvin_chain_spec *variant_of(const char *text, const struct calvin_spec_override *o)
{
	struct calvin_chain_spec *s = calloc(2, sizeof(*s));
	char *out = NULL;
	size_t len = 0;

	assert_non_null(s);
	parse(text, strlen(text), &s[0]);
	assert_int_equal(calvin_spec_variant(text, strlen(text), &s[0], o, &out, &len), 0);
	assert_int_equal(strlen(out), len);
	parse(out, len, &s[1]);
	free(out);
	return s;
}

static void test_nothing_changes(void **state)
{
	struct calvin_spec_override o = CALVIN_SPEC_OVERRIDE_NONE;
	struct calvin_chain_spec *s = variant_of(fwd, &o);

	assert_string_equal(s[1].name, "t-fwd");
	assert_int_equal(s[1].placement, CALVIN_PLACE_PINNED);
	assert_int_equal(s[1].budget_ns, 350000);
	assert_int_equal(s[1].nr_vnfs, 2);
	assert_int_equal(s[1].vnfs[1].space, CALVIN_USER);
	assert_int_equal(s[1].vnfs[1].burst, 1);
	assert_int_equal(s[1].probe.count, 10);
	free(s);
}

static void test_replace_written(void **state)
{
	struct calvin_spec_override o = CALVIN_SPEC_OVERRIDE_NONE;
	struct calvin_chain_spec *s;

	o.placement = CALVIN_PLACE_ISOLATED;
	o.burst = 32;
	s = variant_of(fwd, &o);
	assert_int_equal(s[1].placement, CALVIN_PLACE_ISOLATED);
	assert_int_equal(s[1].vnfs[1].burst, 32);
	/* a kernel VNF has no burst, and gets none */
	assert_int_equal(s[1].vnfs[0].space, CALVIN_KERNEL);
	assert_true(s[1].allow_sharing);
	free(s);
}

static void test_add_defaults(void **state)
{
	struct calvin_spec_override o = CALVIN_SPEC_OVERRIDE_NONE;
	struct calvin_chain_spec *s;

	o.placement = CALVIN_PLACE_SHARED;
	o.burst = 32;
	o.links = CALVIN_LINKS_BRIDGE;
	o.image = "/tmp/images/rt";
	s = variant_of(vm, &o);
	assert_int_equal(s[0].placement, CALVIN_PLACE_PINNED);
	assert_int_equal(s[1].placement, CALVIN_PLACE_SHARED);
	assert_int_equal(s[1].vnfs[1].burst, 32);
	assert_int_equal(s[1].libvirt.links, CALVIN_LINKS_BRIDGE);
	assert_string_equal(s[1].libvirt.image, "/tmp/images/rt");
	/* what the override does not touch stays */
	assert_int_equal(s[1].libvirt.memory_mib, 256);
	assert_int_equal(s[1].backend, CALVIN_BACKEND_LIBVIRT);
	free(s);
}

static void test_libvirt_section_added(void **state)
{
	struct calvin_spec_override o = CALVIN_SPEC_OVERRIDE_NONE;
	struct calvin_chain_spec *s;
	char *text = malloc(sizeof(vm));

	/* the same chain without its libvirt section */
	assert_non_null(text);
	memcpy(text, vm, sizeof(vm));
	*strstr(text, "libvirt: {") = '\0';
	o.links = CALVIN_LINKS_BRIDGE;
	s = variant_of(text, &o);
	assert_int_equal(s[1].libvirt.links, CALVIN_LINKS_BRIDGE);
	assert_int_equal(s[1].libvirt.memory_mib, 512);
	free(text);
	free(s);
}

static void test_not_the_spec(void **state)
{
	struct calvin_spec_override o = CALVIN_SPEC_OVERRIDE_NONE;
	struct calvin_chain_spec s;
	char *out = NULL;
	size_t len;

	parse(fwd, strlen(fwd), &s);
	assert_int_equal(calvin_spec_variant("a: [b", 5, &s, &o, &out, &len), -EINVAL);
	assert_null(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_changes),
		cmocka_unit_test(test_replace_written),
		cmocka_unit_test(test_add_defaults),
		cmocka_unit_test(test_libvirt_section_added),
		cmocka_unit_test(test_not_the_spec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
