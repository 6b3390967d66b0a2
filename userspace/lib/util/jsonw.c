// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* JSON helpers over json-c (util.h). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>

#include "util/util.h"

struct json_object *jw_obj(void)
{
	return json_object_new_object();
}

struct json_object *jw_arr(void)
{
	return json_object_new_array();
}

void jw_add(struct json_object *o, const char *key, struct json_object *v)
{
	if (!o || !v || json_object_object_add(o, key, v))
		json_object_put(v);
}

void jw_push(struct json_object *a, struct json_object *v)
{
	if (!a || !v || json_object_array_add(a, v))
		json_object_put(v);
}

void jw_str(struct json_object *o, const char *key, const char *s)
{
	jw_add(o, key, json_object_new_string(s ? s : ""));
}

void jw_text(struct json_object *o, const char *key, const char *s, size_t len)
{
	char buf[CALVIN_ESCAPED_LEN(1024)];

	jw_str(o, key, calvin_text_escape(s, len, buf, sizeof(buf)));
}

void jw_u64(struct json_object *o, const char *key, uint64_t v)
{
	jw_add(o, key, json_object_new_uint64(v));
}

void jw_i64(struct json_object *o, const char *key, int64_t v)
{
	jw_add(o, key, json_object_new_int64(v));
}

void jw_bool(struct json_object *o, const char *key, bool v)
{
	jw_add(o, key, json_object_new_boolean(v));
}

void jw_null(struct json_object *o, const char *key)
{
	if (o)
		json_object_object_add(o, key, NULL);
}

void jw_num(struct json_object *o, const char *key, const char *fmt, double v)
{
	char buf[64];

	if (!isfinite(v)) {
		jw_null(o, key);
		return;
	}
	snprintf(buf, sizeof(buf), fmt, v);
	jw_add(o, key, json_object_new_double_s(v, buf));
}

void jw_merge(struct json_object *o, struct json_object *from)
{
	if (!o || !from || !json_object_is_type(from, json_type_object))
		return;
	json_object_object_foreach(from, key, v) jw_add(o, key, json_object_get(v));
}

int jw_write(FILE *f, struct json_object *o, bool pretty)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE |
		    (pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED : 0);
	const char *s = json_object_to_json_string_ext(o, flags);

	if (!s || fputs(s, f) == EOF || fputc('\n', f) == EOF)
		return -EIO;
	return 0;
}

int jw_parse(const char *text, size_t len, int depth, struct json_object **out, char *why,
	     size_t whylen)
{
	struct json_tokener *tok = len <= INT_MAX ? json_tokener_new_ex(depth) : NULL;
	enum json_tokener_error e = json_tokener_continue;
	struct json_object *o = NULL;
	size_t end = 0;

	*out = NULL;
	if (!tok) {
		snprintf(why, whylen, len > INT_MAX ? "too long" : "out of memory");
		return len > INT_MAX ? -EBADMSG : -ENOMEM;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	if (len) {
		o = json_tokener_parse_ex(tok, text, (int)len);
		e = json_tokener_get_error(tok);
	}
	if (o)
		end = json_tokener_get_parse_end(tok);
	else if (e == json_tokener_continue)
		snprintf(why, whylen, "the JSON ends early");
	else if (e == json_tokener_success)
		snprintf(why, whylen, "the document is null");
	else
		snprintf(why, whylen, "not JSON: %s at byte %zu", json_tokener_error_desc(e),
			 json_tokener_get_parse_end(tok));
	json_tokener_free(tok);
	while (o && end < len && isspace((unsigned char)text[end]))
		end++;
	if (o && end < len) {
		snprintf(why, whylen, "more than one JSON document (more at byte %zu)", end);
		json_object_put(o);
		o = NULL;
	}
	*out = o;
	return o ? 0 : -EBADMSG;
}
