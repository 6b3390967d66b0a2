// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of what the chain spec does with files: key-file paths made
 * absolute at load, a copy of a spec elsewhere naming the same key files
 * with every line where it was, and the key-file checks `calvin validate`
 * and `calvin up` make (missing, unreadable, unsafe mode), each one line at
 * the key-file value's file:line:col. Needs no root. */
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
#include "spec/spec.h"

static char dir[] = "/tmp/calvin-specfiles-XXXXXX";
static struct calvin_chain_spec spec, copy;

#define KEY_HEX "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
/* key-file's value at line 5, column 40 (and line 6, column 40) */
#define SPEC(key)                                                                                  \
	"name: c\nbudget: 1ms\n# a comment, d\xc3\xa9j\xc3\xa0 vu\nvnfs:\n"                        \
	"  - {name: e, kind: encrypt, key-file: " key "}\n"                                        \
	"  - {name: d, kind: decrypt, key-file: " key "}\n"                                        \
	"  - name: fw\n    kind: acl\n    rules:\n      - {action: deny, proto: tcp}\n"

static const char *put(const char *name, const char *text, mode_t mode)
{
	static char path[4][256];
	static int next;
	char *p = path[next++ % 4];
	FILE *f;

	snprintf(p, 256, "%s/%s", dir, name);
	unlink(p);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(p, mode), 0);
	return p;
}

static void test_absolute(void **state)
{
	char err[CALVIN_ERR_MAX], want[512], cwd[4096];

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(want, sizeof(want), "%s/sub", dir);
	assert_int_equal(mkdir(want, 0700) && errno != EEXIST, 0);
	put("sub/t.yaml", SPEC("k.key"), 0600);
	/* a relative spec path, from its parent directory */
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(calvin_spec_load("sub/t.yaml", &spec, err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "%s/sub/k.key", dir);
	assert_string_equal(spec.vnfs[0].crypt.key_file, want);
	assert_string_equal(spec.vnfs[1].crypt.key_file, want);
	assert_string_equal(spec.path, "sub/t.yaml"); /* messages keep the user's path */
	/* from the spec's own directory, and a path with .. in it */
	assert_int_equal(chdir("sub"), 0);
	put("sub/u.yaml", SPEC("../keys/k.key"), 0600);
	assert_int_equal(calvin_spec_load("u.yaml", &spec, err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "%s/sub/../keys/k.key", dir);
	assert_string_equal(spec.vnfs[0].crypt.key_file, want);
	/* absolute paths stay as they are */
	put("sub/v.yaml", SPEC("/etc/calvin/k.key"), 0600);
	assert_int_equal(calvin_spec_load("v.yaml", &spec, err, sizeof(err)), 0);
	assert_string_equal(spec.vnfs[0].crypt.key_file, "/etc/calvin/k.key");
	assert_int_equal(chdir(cwd), 0);
}

static int count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	int c, n = 0;

	assert_non_null(f);
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* The controller's copy in its state directory names the same key files
 * (the bug: it resolved a relative key-file against the state directory,
 * so a deployed crypt chain could never be updated live), and is the
 * bytes that were read and checked, whatever the file says later. */
static void test_copy(void **state)
{
	char err[CALVIN_ERR_MAX], from[512], to[512], tmp[520];
	struct calvin_spec_text text;

	snprintf(to, sizeof(to), "%s/state", dir);
	assert_int_equal(mkdir(to, 0700) && errno != EEXIST, 0);
	snprintf(from, sizeof(from), "%s", put("t.yaml", SPEC("'k \"x\\\\.key'"), 0600));
	snprintf(to, sizeof(to), "%s/state/c.yaml", dir);
	snprintf(tmp, sizeof(tmp), "%s/state/c.tmp", dir);
	assert_int_equal(calvin_spec_load_text(from, &spec, &text, err, sizeof(err)), 0);
	/* the file changes after it was read: the copy is what was read */
	put("t.yaml", "name: other\nvnfs:\n  - {name: x, kind: forward}\n", 0600);
	assert_int_equal(calvin_spec_text_write(&text, to, NULL, err, sizeof(err)), 0);
	assert_int_equal(calvin_spec_load(to, &copy, err, sizeof(err)), 0);
	assert_string_equal(copy.name, "c");
	print_message("%s\n", copy.vnfs[0].crypt.key_file);
	assert_string_equal(copy.vnfs[0].crypt.key_file, spec.vnfs[0].crypt.key_file);
	assert_string_equal(copy.vnfs[1].crypt.key_file, spec.vnfs[1].crypt.key_file);
	assert_non_null(strstr(spec.vnfs[0].crypt.key_file, "/k \"x\\\\.key"));
	/* nothing else changed, and every line is where it was */
	assert_int_equal(
	    memcmp(&copy.vnfs[0].crypt, &spec.vnfs[0].crypt, sizeof(copy.vnfs[0].crypt)), 0);
	assert_int_equal(copy.vnfs[2].acl.rules[0].pos.line, 10);
	assert_int_equal(count_lines(to), 10);
	assert_int_equal(copy.vnfs[1].key_file_pos.line, 6);
	/* a new file is never written through a link, nor over a file */
	assert_int_equal(calvin_spec_text_write(&text, to, NULL, err, sizeof(err)), -EEXIST);
	/* through tmp, it replaces what was there */
	assert_int_equal(calvin_spec_text_write(&text, to, tmp, err, sizeof(err)), 0);
	assert_int_equal(access(tmp, F_OK), -1);
	calvin_spec_text_free(&text);
	/* what cannot be read or written */
	snprintf(from, sizeof(from), "%s/none.yaml", dir);
	assert_int_equal(calvin_spec_load_text(from, &spec, &text, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "none.yaml: cannot read"));
	assert_null(text.text);
	snprintf(from, sizeof(from), "%s", put("t.yaml", SPEC("k.key"), 0600));
	assert_int_equal(calvin_spec_load_text(from, &spec, &text, err, sizeof(err)), 0);
	snprintf(to, sizeof(to), "%s/nodir/c.yaml", dir);
	assert_int_equal(calvin_spec_text_write(&text, to, NULL, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "nodir/c.yaml: cannot write"));
	calvin_spec_text_free(&text);
}

/* The pure rewrite: libyaml counts characters, not bytes, and no BOM. */
static void test_text_resolved(void **state)
{
	static const char text[] =
	    "\xef\xbb\xbfname: c\r\nbudget: 1ms\r\n# \xc3\xa9\xc3\xa9\r\n"
	    "vnfs:\r\n  - {name: e, kind: encrypt, key-file: \"\xc3\xa9.key\"}\r\n"
	    "  - {name: d, kind: decrypt, key-file: \xc3\xa9.key, spi: 1}\r\n";
	char err[CALVIN_ERR_MAX], *out = NULL;
	size_t len = 0;

	assert_int_equal(calvin_spec_parse(text, strlen(text), "t.yaml", &spec, err, sizeof(err)),
			 0);
	strcpy(spec.vnfs[0].crypt.key_file, "/a/\x01\"b");
	strcpy(spec.vnfs[1].crypt.key_file, "/a/\x01\"b");
	assert_int_equal(calvin_spec_text_resolved(text, strlen(text), &spec, &out, &len), 0);
	print_message("%s\n", out);
	assert_int_equal(len, strlen(out));
	assert_non_null(strstr(out, "key-file: \"/a/\\x01\\\"b\"}\r\n"));
	assert_non_null(strstr(out, "key-file: \"/a/\\x01\\\"b\", spi: 1}\r\n"));
	assert_int_equal(calvin_spec_parse(out, len, "t.yaml", &copy, err, sizeof(err)), 0);
	assert_string_equal(copy.vnfs[0].crypt.key_file, "/a/\x01\"b");
	free(out);
	/* positions that do not fit the text are refused */
	spec.vnfs[1].key_file_span.start = 100000;
	assert_int_equal(calvin_spec_text_resolved(text, strlen(text), &spec, &out, &len), -EINVAL);
}

static void check_bad(const char *key_text, mode_t mode, const char *key_name, const char *what)
{
	char err[CALVIN_ERR_MAX], where[5000], path[512], text[1024];

	if (key_text)
		put("k.key", key_text, mode);
	/* SPEC() with key_name, at the same line and column */
	snprintf(text, sizeof(text), SPEC("%s"), key_name ? key_name : "k.key",
		 key_name ? key_name : "k.key");
	snprintf(path, sizeof(path), "%s", put("t.yaml", text, 0600));
	assert_int_equal(calvin_spec_load(path, &spec, err, sizeof(err)), 0);
	assert_int_not_equal(calvin_spec_check_key_files(&spec, err, sizeof(err)), 0);
	print_message("%s\n", err);
	snprintf(where, sizeof(where), "%s:5:40: %s", path, spec.vnfs[0].crypt.key_file);
	assert_int_equal(strncmp(err, where, strlen(where)), 0);
	assert_non_null(strstr(err, what));
	assert_null(strchr(err, '\n'));
}

static void test_key_checks(void **state)
{
	char err[CALVIN_ERR_MAX], want[600];
	const char *path;

	/* missing: says how to make one */
	put("k.key", "", 0600);
	unlink(put("k.key", "", 0600));
	snprintf(want, sizeof(want), "make one with 'calvin keygen %s/k.key'", dir);
	check_bad(NULL, 0, NULL, want);
	/* readable or writable by others */
	check_bad(KEY_HEX "\n", 0644, NULL, "mode 0644 lets others read the key; chmod 600");
	check_bad(KEY_HEX "\n", 0620, NULL, "mode 0620 lets others change the key; chmod 600");
	/* unreadable (a path through a regular file: unreadable even for root) */
	put("dir", "", 0600);
	check_bad(KEY_HEX "\n", 0600, "dir/k.key", "cannot open key file: Not a directory");
	/* not a key */
	check_bad("hello\n", 0600, NULL, "key line has 5 characters");
	/* all good: no key is kept, nothing printed */
	put("k.key", KEY_HEX "\n", 0600);
	path = put("t.yaml", SPEC("k.key"), 0600);
	assert_int_equal(calvin_spec_load(path, &spec, err, sizeof(err)), 0);
	err[0] = '\0';
	assert_int_equal(calvin_spec_check_key_files(&spec, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	/* a key in a folder others may write, or below one that is not
	 * sticky, could be replaced: refused; /tmp above is sticky and fine */
	snprintf(want, sizeof(want), "%s/open", dir);
	assert_int_equal(mkdir(want, 0700) && errno != EEXIST, 0);
	assert_int_equal(chmod(want, 0777), 0);
	put("open/k.key", KEY_HEX "\n", 0600);
	check_bad(NULL, 0, "open/k.key", "may be written by others, who could replace the key");
	assert_int_equal(chmod(want, 0775), 0);
	check_bad(NULL, 0, "open/k.key", "may be written by its group");
	snprintf(want, sizeof(want), "%s/open/sub", dir);
	assert_int_equal(mkdir(want, 0700) && errno != EEXIST, 0);
	put("open/sub/k.key", KEY_HEX "\n", 0600);
	check_bad(NULL, 0, "open/sub/k.key", "may be written by its group");
	snprintf(want, sizeof(want), "%s/open", dir);
	assert_int_equal(chmod(want, 01777), 0);
	check_bad(NULL, 0, "open/k.key", "may be written by others");
	path = put("t.yaml", SPEC("open/sub/k.key"), 0600);
	assert_int_equal(calvin_spec_load(path, &spec, err, sizeof(err)), 0);
	assert_int_equal(calvin_spec_check_key_files(&spec, err, sizeof(err)), 0);
	/* the key file of another user, however safe its mode */
	if (geteuid() == 0) {
		path = put("k.key", KEY_HEX "\n", 0600);
		assert_int_equal(chown(path, 65534, 65534), 0);
		check_bad(NULL, 0, NULL, "belongs to uid 65534, not to you (uid 0)");
		assert_int_equal(chown(path, 0, 0), 0);
	}
	/* a chain without encryption has nothing to check */
	path = put("n.yaml", "name: c\nbudget: 1ms\nvnfs:\n  - {name: a, kind: forward}\n", 0600);
	assert_int_equal(calvin_spec_load(path, &spec, err, sizeof(err)), 0);
	assert_int_equal(calvin_spec_check_key_files(&spec, err, sizeof(err)), 0);
}

static int setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_absolute),
	    cmocka_unit_test(test_copy),
	    cmocka_unit_test(test_text_resolved),
	    cmocka_unit_test(test_key_checks),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
