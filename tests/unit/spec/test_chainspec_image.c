// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the guest-image check `calvin validate` and `up` make of a
 * libvirt chain's image folder: each missing or unusable file named in one
 * line at the image value's file:line:col. Needs no root. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "spec/spec.h"

static char dir[] = "/tmp/calvin-specimage-XXXXXX";
static char img[64];

/* image's value at line 6, column 10 */
#define SPEC                                                                                       \
	"name: c\nbudget: 1ms\nbackend: libvirt\nvnfs: [{name: a, kind: forward}]\nlibvirt:\n"     \
	"  image: img\n"

static void put(const char *name, const void *data, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", img, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

/* A file with a bzImage header: "HdrS" at 0x202. */
static void put_kernel(void)
{
	char k[0x300] = { 0 };

	memcpy(k + 0x202, "HdrS", 4);
	put("vmlinuz", k, sizeof(k));
}

/* The spec's error, or "" where it has none. */
static const char *check(void)
{
	static char err[CALVIN_ERR_MAX];
	struct calvin_chain_spec *spec = malloc(sizeof(*spec));
	char path[128];

	assert_non_null(spec);
	snprintf(path, sizeof(path), "%s/t.yaml", dir);
	assert_int_equal(calvin_spec_parse(SPEC, strlen(SPEC), path, spec, err, sizeof(err)), 0);
	err[0] = '\0';
	if (calvin_spec_check_image(spec, err, sizeof(err)) != (err[0] ? -ENOENT : 0))
		fail_msg("return value and error line disagree: %s", err);
	free(spec);
	/* the rest of the line after "DIR/t.yaml:" */
	return err[0] ? err + strlen(dir) + strlen("/t.yaml:") : err;
}

static void test_image(void **state)
{
	char want[512];

	assert_non_null(mkdtemp(dir));
	snprintf(img, sizeof(img), "%s/img", dir);

	snprintf(want, sizeof(want),
		 "6:10: image %s is not a folder; give the folder 'make vm-image' makes "
		 "(build/vm-images/cloud) or one with the same two files",
		 img);
	assert_string_equal(check(), want);

	assert_int_equal(mkdir(img, 0755), 0);
	snprintf(want, sizeof(want), "6:10: image %s holds neither vmlinuz nor initramfs.img; ",
		 img);
	assert_memory_equal(check(), want, strlen(want));

	put("initramfs.img", "\x1f\x8b", 2);
	snprintf(want, sizeof(want), "6:10: image %s/vmlinuz (the guest kernel) is missing; ", img);
	assert_memory_equal(check(), want, strlen(want));

	put("vmlinuz", "#!/bin/sh\n", 10);
	snprintf(want, sizeof(want),
		 "6:10: image %s/vmlinuz (the guest kernel) is not a Linux kernel (no bzImage "
		 "header); ",
		 img);
	assert_memory_equal(check(), want, strlen(want));

	put_kernel();
	assert_string_equal(check(), "");

	put("initramfs.img", "", 0);
	snprintf(want, sizeof(want),
		 "6:10: image %s/initramfs.img (the guest initramfs) is empty; ", img);
	assert_memory_equal(check(), want, strlen(want));

	snprintf(want, sizeof(want), "%s/initramfs.img", img);
	unlink(want);
	assert_int_equal(mkdir(want, 0755), 0);
	snprintf(want, sizeof(want),
		 "6:10: image %s/initramfs.img (the guest initramfs) is not a file; ", img);
	assert_memory_equal(check(), want, strlen(want));
}

/* A netns chain, or a libvirt chain on the build's image, names none. */
static void test_no_image(void **state)
{
	static const char yaml[] = "name: c\nbudget: 1ms\nvnfs: [{name: a, kind: forward}]\n";
	struct calvin_chain_spec *spec = malloc(sizeof(*spec));
	char err[CALVIN_ERR_MAX] = "";

	assert_non_null(spec);
	assert_int_equal(calvin_spec_parse(yaml, strlen(yaml), "t.yaml", spec, err, sizeof(err)),
			 0);
	assert_int_equal(calvin_spec_check_image(spec, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	free(spec);
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image),
		cmocka_unit_test(test_no_image),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
