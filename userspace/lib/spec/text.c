// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec text rewriting, pure: the text of a spec with each key-file
 * value replaced by the path the spec resolved it to, so that a copy kept
 * elsewhere (the controller's state directory) names the same files. Only
 * those values change: every line stays where it was, so positions the
 * controller reports from the copy (an acl rule's line) still point into
 * the user's file. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec.h"

/* libyaml counts characters, not bytes, and not a UTF-8 byte order mark. */
static int char_to_byte(const char *text, size_t len, uint32_t index, size_t *at)
{
	size_t i = 0, chars = 0;

	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		i = 3;
	for (; i < len && chars < index; i++)
		if (((unsigned char)text[i] & 0xc0) != 0x80)
			chars++;
	/* i now sits on the first byte of character index, or at the end */
	while (i < len && ((unsigned char)text[i] & 0xc0) == 0x80)
		i++;
	if (chars != index)
		return -EINVAL;
	*at = i;
	return 0;
}

/* A YAML double-quoted scalar of s; returns the bytes written. out must
 * hold 4 * strlen(s) + 2. */
static size_t quote(char *out, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;
	unsigned char c;

	out[n++] = '"';
	for (; *s; s++) {
		c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			out[n++] = '\\';
			out[n++] = (char)c;
		} else if (c < 0x20 || c == 0x7f) {
			out[n++] = '\\';
			out[n++] = 'x';
			out[n++] = hex[c >> 4];
			out[n++] = hex[c & 15];
		} else {
			out[n++] = (char)c;
		}
	}
	out[n++] = '"';
	return n;
}

static bool has_key_file(const struct calvin_vnf_spec *v)
{
	return v->kind == CALVIN_VNF_ENCRYPT || v->kind == CALVIN_VNF_DECRYPT;
}

int calvin_spec_text_resolved(const char *text, size_t len, const struct calvin_chain_spec *spec,
			      char **out, size_t *out_len)
{
	const struct calvin_vnf_spec *v;
	size_t cap = len + 1, from = 0, n = 0, start, end;
	unsigned int i;
	char *buf;

	for (i = 0; i < spec->nr_vnfs; i++)
		if (has_key_file(&spec->vnfs[i]))
			cap += 4 * strlen(spec->vnfs[i].crypt.key_file) + 2;
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < spec->nr_vnfs; i++) {
		v = &spec->vnfs[i];
		if (!has_key_file(v))
			continue;
		if (char_to_byte(text, len, v->key_file_span.start, &start) ||
		    char_to_byte(text, len, v->key_file_span.end, &end) || start < from ||
		    end < start)
			goto err_free;
		memcpy(buf + n, text + from, start - from);
		n += start - from;
		n += quote(buf + n, v->crypt.key_file);
		from = end;
	}
	memcpy(buf + n, text + from, len - from);
	n += len - from;
	buf[n] = '\0';
	*out = buf;
	*out_len = n;
	return 0;

err_free:
	free(buf);
	return -EINVAL;
}
