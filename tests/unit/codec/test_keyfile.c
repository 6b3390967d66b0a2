// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of key files: both formats (v2: the key; v1: the key and an
 * old salt, which is ignored), unsafe modes and file types refused, bad
 * text refused without showing key bytes, and calvin keygen's files. */
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

#include "codec/codec.h"

static const uint8_t key0[32] = {0,  1,	 2,  3,	 4,  5,	 6,  7,	 8,  9,	 10, 11, 12, 13, 14, 15,
				 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};

/* a scratch directory per test run */
static char dir[] = "/tmp/calvin-keyfile-XXXXXX";

#define KEY_HEX "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
#define SALT_HEX "a0a1a2a3"

static const char *put_file(const char *name, const char *text, mode_t mode)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
	return path;
}

static int load(const char *path, struct calvin_key *k, char *err)
{
	return calvin_keyfile_load(path, k, err, 256);
}

static void test_keyfile_good(void **state)
{
	struct calvin_key *k = calvin_key_new();
	char err[256] = "";
	const char *path;

	assert_non_null(k);
	path = put_file("good", "# demo key\n\n  " KEY_HEX "  \n# end\n", 0600);
	assert_int_equal(load(path, k, err), 0);
	assert_memory_equal(k->key, key0, 32);
	/* upper case, no final newline, read-only for the owner */
	path = put_file("upper", "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
			0400);
	memset(k, 0, sizeof(*k));
	assert_int_equal(load(path, k, err), 0);
	assert_memory_equal(k->key, key0, 32);
	calvin_key_free(k);
}

/* Files written before keys were derived per deployment keep working, and
 * give the same long-term key: the old salt is read and ignored. */
static void test_keyfile_v1(void **state)
{
	struct calvin_key *k = calvin_key_new(), *k1 = calvin_key_new();
	char err[256] = "";
	const char *path;

	assert_non_null(k);
	assert_non_null(k1);
	path = put_file("v2", KEY_HEX "\n", 0600);
	assert_int_equal(load(path, k, err), 0);
	path = put_file(
	    "v1", "# calvin key file: 32-byte key then 4-byte salt, hex\n" KEY_HEX SALT_HEX "\n",
	    0600);
	assert_int_equal(load(path, k1, err), 0);
	assert_memory_equal(k1->key, key0, 32);
	assert_memory_equal(k, k1, sizeof(*k));
	/* the ignored salt must still be hex: a typo is not a key */
	path = put_file("v1bad", KEY_HEX "a0a1a2ag\n", 0600);
	assert_int_equal(load(path, k1, err), -EINVAL);
	assert_non_null(strstr(err, ":1:72: not a hex digit"));
	calvin_key_free(k);
	calvin_key_free(k1);
}

static void test_keyfile_modes(void **state)
{
	static const mode_t bad[] = {0640, 0604, 0666, 0620, 0602, 0700 | 0010};
	struct calvin_key k;
	char err[256], want[300];
	const char *path;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		path = put_file("mode", KEY_HEX "\n", bad[i]);
		assert_int_equal(load(path, &k, err), -EPERM);
		snprintf(want, sizeof(want), "%s: mode %04o lets others %s the key; chmod 600 %s",
			 path, bad[i], bad[i] & 044 ? "read" : "change", path);
		assert_string_equal(err, want);
	}
	path = put_file("mode", KEY_HEX "\n", 0644);
	assert_int_equal(load(path, &k, err), -EPERM);
	assert_non_null(strstr(err, "mode 0644 lets others read the key; chmod 600 "));
}

static void test_keyfile_not_a_file(void **state)
{
	char err[256], link[256], fifo[256], want[600];
	struct calvin_key k;
	const char *path;

	path = put_file("target", KEY_HEX "\n", 0600);
	snprintf(link, sizeof(link), "%s/link", dir);
	unlink(link);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(load(link, &k, err), -ELOOP);
	assert_non_null(strstr(err, "symbolic link"));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	unlink(fifo);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(load(fifo, &k, err), -EINVAL);
	assert_non_null(strstr(err, "not a regular file"));
	assert_int_equal(load(dir, &k, err), -EINVAL);
	/* a missing file says how to make one */
	snprintf(link, sizeof(link), "%s/missing", dir);
	assert_int_equal(load(link, &k, err), -ENOENT);
	snprintf(want, sizeof(want), "%s: no such key file; make one with 'calvin keygen %s'", link,
		 link);
	assert_string_equal(err, want);
	/* unreadable, even for root: a path through a regular file */
	snprintf(link, sizeof(link), "%s/target/key", dir);
	assert_int_equal(load(link, &k, err), -ENOTDIR);
	assert_non_null(strstr(err, "cannot open key file"));
}

static void test_keyfile_bad_text(void **state)
{
	static const struct {
		const char *text, *what;
	} cases[] = {
	    {"000102030405060708090a0b0c0d0e0f\n", "has 32 characters; it must be 64 hex digits"},
	    {KEY_HEX "00\n", "has 66 characters"},
	    {KEY_HEX SALT_HEX "00\n", "has 74 characters"},
	    {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1g\n",
	     ":1:64: not a hex digit"},
	    {"# c\n" KEY_HEX "a0a1 2a3\n", ":2:"},
	    {KEY_HEX "\n" KEY_HEX "\n", ":2: a second key line"},
	    {"# only a comment\n", "no key line"},
	    {"", "no key line"},
	};
	struct calvin_key k;
	char err[256];
	const char *path;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		path = put_file("text", cases[i].text, 0600);
		assert_int_equal(load(path, &k, err), -EINVAL);
		assert_non_null(strstr(err, cases[i].what));
		assert_null(strstr(err, "0405060708")); /* no key bytes in messages */
		for (size_t j = 0; j < sizeof(k); j++)
			assert_int_equal(((uint8_t *)&k)[j], 0);
	}
}

static void test_keyfile_generate(void **state)
{
	struct calvin_key *k = calvin_key_new(), *k2 = calvin_key_new();
	char path[256], path2[256], err[256], text[256];
	struct stat st;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/gen", dir);
	snprintf(path2, sizeof(path2), "%s/gen2", dir);
	unlink(path);
	unlink(path2);
	assert_int_equal(calvin_keyfile_generate(path, err, sizeof(err)), 0);
	assert_int_equal(calvin_keyfile_generate(path, err, sizeof(err)), -EEXIST);
	assert_int_equal(calvin_keyfile_generate(path2, err, sizeof(err)), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(load(path, k, err), 0);
	assert_int_equal(load(path2, k2, err), 0);
	assert_memory_not_equal(k, k2, sizeof(*k));
	/* v2: a comment that says so, then the key alone */
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	assert_non_null(strstr(text, "# calvin key file v2"));
	assert_int_equal(strlen(strchr(text, '\n') + 1), CALVIN_KEYFILE_HEX_LEN + 1);
	calvin_key_free(k);
	calvin_key_free(k2);
}

static int keyfile_setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int keyfile_teardown(void **state)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_keyfile_good),     cmocka_unit_test(test_keyfile_v1),
	    cmocka_unit_test(test_keyfile_modes),    cmocka_unit_test(test_keyfile_not_a_file),
	    cmocka_unit_test(test_keyfile_bad_text), cmocka_unit_test(test_keyfile_generate),
	};

	return cmocka_run_group_tests(tests, keyfile_setup, keyfile_teardown);
}
