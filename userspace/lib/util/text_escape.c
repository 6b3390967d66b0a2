// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Escaping text from outside calvin for a terminal (util.h). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"

/* The length of the valid UTF-8 sequence at p (at most n bytes) and its
 * code point; 0 when p does not start one (RFC 3629's table: no
 * overlong forms, no surrogates, nothing past U+10FFFF). */
static size_t utf8_seq(const uint8_t *p, size_t n, uint32_t *cp)
{
	uint8_t lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2;
		*cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		*cp = p[0] & 0x0f;
		lo = p[0] == 0xe0 ? 0xa0 : 0x80;
		hi = p[0] == 0xed ? 0x9f : 0xbf;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		*cp = p[0] & 0x07;
		lo = p[0] == 0xf0 ? 0x90 : 0x80;
		hi = p[0] == 0xf4 ? 0x8f : 0xbf;
	} else {
		return 0;
	}
	if (len > n || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (p[i] & 0x3f);
	}
	return len;
}

/* Code points a terminal acts on instead of showing. */
static bool control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c || cp == 0x200e ||
	       cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Appends n bytes to out unless that leaves no room for the NUL. */
static bool put(char *out, size_t outlen, size_t *o, const void *src, size_t n)
{
	if (*o + n >= outlen)
		return false;
	memcpy(out + *o, src, n);
	*o += n;
	return true;
}

const char *calvin_text_escape(const void *in, size_t len, char *out, size_t outlen)
{
	const uint8_t *p = in;
	size_t i = 0, o = 0, n, k;
	char hex[4 * 4 + 1];
	uint32_t cp;
	bool room = true;

	if (!outlen)
		return out;
	while (room && i < len) {
		n = utf8_seq(p + i, len - i, &cp);
		if (n && cp == '\\') {
			room = put(out, outlen, &o, "\\\\", 2);
		} else if (n && !control(cp)) {
			room = put(out, outlen, &o, p + i, n);
		} else {
			/* a control, every byte of it, or one byte of invalid UTF-8 */
			n = n ? n : 1;
			for (k = 0; k < n; k++)
				snprintf(hex + 4 * k, 5, "\\x%02x", p[i + k]);
			room = put(out, outlen, &o, hex, 4 * n);
		}
		i += n;
	}
	out[o] = '\0';
	return out;
}

const char *calvin_text_escape_str(const char *s, char *out, size_t outlen)
{
	return calvin_text_escape(s, s ? strlen(s) : 0, out, outlen);
}
