/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Small helpers every part of calvin shares: text from outside calvin made
 * safe to show (text_escape.c), and JSON through json-c for everything
 * calvin writes or reads as JSON (jsonw.c). */
#ifndef CALVIN_LIB_UTIL_H
#define CALVIN_LIB_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

/* ==== text_escape.c ==== */

/* Text that did not come from calvin itself (a VNF's counter names and
 * values, a guest agent's error line, a line of a VNF's log, a helper's
 * error message), made safe to show: nothing in it can move the cursor,
 * retitle or reprogram the terminal, or start a line of its own. */

/* Room for the escaped form of n bytes: each may become \xNN. */
#define CALVIN_ESCAPED_LEN(n) (4 * (n) + 1)

/* in[0..len) into out (outlen bytes, NUL-terminated) as one line of valid
 * UTF-8 without control characters. Shown as \xNN, one per byte:
 * - C0 controls (tab and newline too), DEL, and the C1 controls
 *   U+0080..U+009F (their two UTF-8 bytes, or the lone byte);
 * - Unicode's bidirectional controls and its line and paragraph
 *   separators, which reorder or break what a terminal shows;
 * - every byte that is not part of valid UTF-8: a stray continuation
 *   byte, a sequence cut short, an overlong form, a surrogate, beyond
 *   U+10FFFF. Valid UTF-8 otherwise passes as it is (names in any script
 *   stay readable); invalid bytes are escaped, not replaced, so what
 *   was sent can be read back exactly.
 * A backslash becomes \\, so an escape in the input cannot pass for one
 * of ours. Cut at a character boundary when out is too small.
 * Returns out. */
const char *calvin_text_escape(const void *in, size_t len, char *out, size_t outlen);
/* The same for a NUL-terminated string. */
const char *calvin_text_escape_str(const char *s, char *out, size_t outlen);

/* ==== jsonw.c ==== */

/* JSON through json-c, for everything calvin writes as JSON and every
 * JSON answer it reads: small helpers, so the code that builds a
 * document reads like the document. Nothing is assembled or scanned by
 * hand: json-c quotes what it writes and parses what comes in. */

/* A new object or array; NULL when out of memory. Every helper below
 * takes a NULL container or value harmlessly (the member is left out),
 * so a document is built without a check after each step. */
struct json_object *jw_obj(void);
struct json_object *jw_arr(void);

/* Members of object o. key is calvin's own (copied). */
/* A string calvin made or checked itself (a chain's names, fixed words). */
void jw_str(struct json_object *o, const char *key, const char *s);
/* Text from outside calvin (a VNF's answer, a guest's line, a tool's
 * message), escaped as calvin_text_escape() does: the same text whether
 * it reaches a terminal through -j or not. */
void jw_text(struct json_object *o, const char *key, const char *s, size_t len);
void jw_u64(struct json_object *o, const char *key, uint64_t v);
void jw_i64(struct json_object *o, const char *key, int64_t v);
void jw_bool(struct json_object *o, const char *key, bool v);
void jw_null(struct json_object *o, const char *key);
/* A number as printf's fmt writes it ("%.0f"): json-c's own form of 0.1
 * is 0.10000000000000001. A value that is not finite is written null. */
void jw_num(struct json_object *o, const char *key, const char *fmt, double v);
/* v, which o or a now owns (replacing a member of the same key). */
void jw_add(struct json_object *o, const char *key, struct json_object *v);
void jw_push(struct json_object *a, struct json_object *v);
/* Every member of from into o, replacing those of the same key; o takes
 * a reference of its own to each, so from may be put afterwards. */
void jw_merge(struct json_object *o, struct json_object *from);

/* o as one document and a newline: on one line, or indented (a report
 * people read as it is). 0 or -EIO. */
int jw_write(FILE *f, struct json_object *o, bool pretty);

/* text[0..len) as exactly one JSON document, with nothing but white
 * space around it and at most depth levels of nesting: 0 and *out (the
 * caller puts it), or -EBADMSG and why, in words. */
int jw_parse(const char *text, size_t len, int depth, struct json_object **out, char *why,
	     size_t whylen);

#endif /* CALVIN_LIB_UTIL_H */
