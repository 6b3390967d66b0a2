// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of calvin_text_escape() (what reaches a terminal from
 * outside calvin) and of the JSON helpers around json-c. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/util.h"

static const char *esc(const char *in, size_t len)
{
	static char out[CALVIN_ESCAPED_LEN(256)];

	return calvin_text_escape(in, len, out, sizeof(out));
}

#define ESC(s) esc(s, sizeof(s) - 1)

static void test_escape_table(void **unused)
{
	static const struct {
		const char *in;
		size_t len;
		const char *want;
	} t[] = {
#define T(in, want) { in, sizeof(in) - 1, want }
		T("af_xdp", "af_xdp"),
		T("", ""),
		/* C0 controls, tab and newline included, and DEL */
		T("a\033[2Jb", "a\\x1b[2Jb"),
		T("\a\b\t\n\r", "\\x07\\x08\\x09\\x0a\\x0d"),
		T("x\x7fy", "x\\x7fy"),
		T("nul\0in", "nul\\x00in"),
		/* C1 controls: as UTF-8 (two bytes) and as a lone byte */
		T("\xc2\x9b"
		  "6n",
		  "\\xc2\\x9b6n"),
		T("\xc2\x80\xc2\x9f", "\\xc2\\x80\\xc2\\x9f"),
		T("\x9b"
		  "6n",
		  "\\x9b6n"),
		/* printable Unicode passes: é, U+00A0, CJK, an emoji */
		T("caf\xc3\xa9 \xc2\xa0 \xe4\xb8\xad \xf0\x9f\x98\x80",
		  "caf\xc3\xa9 \xc2\xa0 \xe4\xb8\xad \xf0\x9f\x98\x80"),
		/* bidirectional controls and line separators */
		T("a\xe2\x80\xae"
		  "b",
		  "a\\xe2\\x80\\xaeb"),
		T("\xe2\x81\xa6\xe2\x80\x8f\xd8\x9c", "\\xe2\\x81\\xa6\\xe2\\x80\\x8f\\xd8\\x9c"),
		T("\xe2\x80\xa8", "\\xe2\\x80\\xa8"),
		/* invalid UTF-8: overlong, surrogate, beyond U+10FFFF, cut short */
		T("\xc0\xaf", "\\xc0\\xaf"),
		T("\xe0\x80\xaf", "\\xe0\\x80\\xaf"),
		T("\xed\xa0\x80", "\\xed\\xa0\\x80"),
		T("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"),
		T("\xf5", "\\xf5"),
		T("ab\xe4\xb8", "ab\\xe4\\xb8"),
		T("\xe4\xb8"
		  "x",
		  "\\xe4\\xb8x"),
		/* a backslash cannot pass for one of ours */
		T("\\x1b", "\\\\x1b"),
#undef T
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_string_equal(esc(t[i].in, t[i].len), t[i].want);
}

/* Every output holds no control byte and is valid UTF-8: try every
 * byte, and every pair of bytes, after a prefix. */
static void test_escape_every_byte(void **unused)
{
	char in[3], out[CALVIN_ESCAPED_LEN(3)], check[CALVIN_ESCAPED_LEN(sizeof(out))];
	unsigned int a, b;
	size_t i;

	for (a = 0; a < 256; a++)
		for (b = 0; b < 256; b++) {
			in[0] = (char)a;
			in[1] = (char)b;
			in[2] = 'z';
			calvin_text_escape(in, 3, out, sizeof(out));
			for (i = 0; out[i]; i++)
				assert_true((unsigned char)out[i] >= 0x20 && out[i] != 0x7f);
			/* valid UTF-8 without controls escapes to itself, but
			 * for its backslashes */
			calvin_text_escape(out, strlen(out), check, sizeof(check));
			if (!strchr(out, '\\'))
				assert_string_equal(check, out);
		}
}

/* Cut at a character, never inside an escape or a UTF-8 sequence. */
static void test_escape_cut(void **unused)
{
	char out[8];

	assert_string_equal(calvin_text_escape("abcdefghij", 10, out, sizeof(out)), "abcdefg");
	assert_string_equal(calvin_text_escape("abcde\033", 6, out, sizeof(out)), "abcde");
	assert_string_equal(calvin_text_escape("abcde\xe4\xb8\xad", 8, out, sizeof(out)), "abcde");
	assert_string_equal(calvin_text_escape("ab\033", 3, out, sizeof(out)), "ab\\x1b");
	assert_string_equal(calvin_text_escape("ab", 2, out, 1), "");
	assert_string_equal(calvin_text_escape_str(NULL, out, sizeof(out)), "");
}

static char *doc_text(struct json_object *o, bool pretty)
{
	static char out[1024];
	FILE *f = fmemopen(out, sizeof(out), "w");

	assert_non_null(f);
	assert_int_equal(jw_write(f, o, pretty), 0);
	fclose(f);
	return out;
}

static void test_jw_members(void **unused)
{
	struct json_object *o = jw_obj(), *a = jw_arr(), *back;
	char why[128];

	jw_str(o, "chain", "a/b\"c");
	jw_text(o, "vnf", "x\033]0;t\a\"}],\"injected\":1", 23);
	jw_u64(o, "big", UINT64_MAX);
	jw_i64(o, "neg", -5);
	jw_bool(o, "up", true);
	jw_null(o, "cpu");
	jw_num(o, "mean", "%.0f", 6399.7);
	jw_num(o, "nan", "%.0f", 0.0 / 0.0);
	jw_push(a, json_object_new_int(1));
	jw_add(o, "cpus", a);
	jw_add(NULL, "lost", jw_obj()); /* a NULL container: no crash, no leak */
	jw_push(NULL, jw_obj());
	assert_string_equal(
	    doc_text(o, false),
	    "{\"chain\":\"a/b\\\"c\",\"vnf\":\"x\\\\x1b]0;t\\\\x07\\\"}],\\\"injected\\\":1\","
	    "\"big\":18446744073709551615,\"neg\":-5,\"up\":true,\"cpu\":null,"
	    "\"mean\":6400,\"nan\":null,\"cpus\":[1]}\n");
	/* what it wrote reads back as one document, whatever the layout */
	assert_int_equal(
	    jw_parse(doc_text(o, true), strlen(doc_text(o, true)), 8, &back, why, sizeof(why)), 0);
	assert_int_equal(json_object_object_length(back), 9);
	json_object_put(back);
	json_object_put(o);
}

static void test_jw_parse(void **unused)
{
	static const char *const bad[] = {
		"", "   ", "{", "{\"a\":1} {\"b\":2}", "{\"a\":1}x", "{\"a\":1,}", "[01]", "null x",
	};
	struct json_object *o;
	char why[128];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(jw_parse(bad[i], strlen(bad[i]), 8, &o, why, sizeof(why)),
				 -EBADMSG);
		assert_null(o);
		assert_true(why[0]);
	}
	assert_int_equal(jw_parse("[[[[1]]]]", 9, 3, &o, why, sizeof(why)), -EBADMSG);
	assert_int_equal(jw_parse(" {\"a\": [1]}\n", 12, 3, &o, why, sizeof(why)), 0);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_table), cmocka_unit_test(test_escape_every_byte),
		cmocka_unit_test(test_escape_cut),   cmocka_unit_test(test_jw_members),
		cmocka_unit_test(test_jw_parse),
	};

	return cmocka_run_group_tests_name("text_escape", tests, NULL, NULL);
}
