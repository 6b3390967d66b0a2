// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec scalar values (names, durations, bools, words, integers) and the
 * one-line error format. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "spec_priv.h"

__attribute__((format(printf, 3, 4))) int calvin_spec_err(struct spec_ctx *c, yaml_mark_t m,
							  const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!c->err || !c->errlen)
		return -EINVAL;
	n = snprintf(c->err, c->errlen, "%s:%zu:%zu: ", c->path, m.line + 1, m.column + 1);
	if (n >= 0 && (size_t)n < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* User text as an error line may quote it: printable, short, one line. */
const char *calvin_spec_shown(const char *s, char buf[SHOWN_MAX + 4])
{
	size_t i;

	for (i = 0; s[i] && i < SHOWN_MAX; i++)
		buf[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	strcpy(buf + i, s[i] ? "..." : "");
	return buf;
}

void calvin_spec_join_words(const char *const *words, char *buf, size_t size)
{
	size_t n = 0;
	int i;

	buf[0] = 0;
	for (i = 0; words[i] && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", words[i]);
}

int calvin_spec_scalar(struct spec_ctx *c, yaml_node_t *n, const char *key, const char **s)
{
	if (n->type != YAML_SCALAR_NODE)
		return calvin_spec_err(c, n->start_mark,
				       "'%s' takes a single value, not a %s; write '%s: VALUE'",
				       key, n->type == YAML_MAPPING_NODE ? "mapping" : "list", key);
	*s = (const char *)n->data.scalar.value;
	if (strlen(*s) != n->data.scalar.length)
		return calvin_spec_err(c, n->start_mark, "'%s' contains a NUL character; remove it",
				       key);
	return 0;
}

int calvin_name_check(const char *what, const char *s, char *err, size_t errlen)
{
	char buf[SHOWN_MAX + 4];

	if (calvin_name_valid(s))
		return 0;
	if (!*s)
		snprintf(err, errlen,
			 "%s is empty; give a name of lower-case letters, digits and '-'", what);
	else if (strlen(s) > CALVIN_NAME_MAX)
		snprintf(err, errlen, "%s '%s' is longer than %d characters; shorten it", what,
			 calvin_spec_shown(s, buf), CALVIN_NAME_MAX);
	else
		snprintf(err, errlen,
			 "%s '%s' is not a valid name; use lower-case letters, digits and '-', "
			 "starting with a letter",
			 what, calvin_spec_shown(s, buf));
	return -EINVAL;
}

int calvin_spec_set_name(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, char *out)
{
	char why[CALVIN_ERR_MAX];
	const char *s = "";
	int err;

	err = calvin_spec_scalar(c, n, k->name, &s);
	if (err)
		return err;
	if (calvin_name_check(k->name, s, why, sizeof(why)))
		return calvin_spec_err(c, n->start_mark, "%s", why);
	strcpy(out, s);
	return 0;
}

int calvin_spec_set_duration(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			     uint64_t *out)
{
	char buf[SHOWN_MAX + 4];
	const char *s = "";
	int err;

	err = calvin_spec_scalar(c, n, k->name, &s);
	if (err)
		return err;
	if (calvin_parse_duration(s, out)) {
		if (*s && strspn(s, "0123456789.") == strlen(s))
			return calvin_spec_err(
			    c, n->start_mark,
			    "%s '%s' has no unit; add one of ns, us, ms, s (e.g. 350us)", k->name,
			    calvin_spec_shown(s, buf));
		return calvin_spec_err(c, n->start_mark,
				       "%s '%s' is not a duration; write a number and a unit ns, "
				       "us, ms or s (e.g. 350us or 0.35ms)",
				       k->name, calvin_spec_shown(s, buf));
	}
	if (*out == 0)
		return calvin_spec_err(c, n->start_mark, "%s must be above zero; give %s",
				       k->name, k->hint ? k->hint : "a duration, e.g. 1ms");
	return 0;
}

int calvin_spec_set_bool(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, bool *out)
{
	const char *const yes[] = {"true", "True", "TRUE", NULL};
	const char *const no[] = {"false", "False", "FALSE", NULL};
	char buf[SHOWN_MAX + 4];
	const char *s = "";
	int err;

	err = calvin_spec_scalar(c, n, k->name, &s);
	if (err)
		return err;
	if (calvin_word_lookup(yes, s) >= 0)
		*out = true;
	else if (calvin_word_lookup(no, s) >= 0)
		*out = false;
	else
		return calvin_spec_err(c, n->start_mark, "%s '%s' is not a bool; use true or false",
				       k->name, calvin_spec_shown(s, buf));
	return 0;
}

int calvin_spec_set_word(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, int *out)
{
	char buf[SHOWN_MAX + 4], list[SPEC_LIST_MAX];
	const char *s = "";
	int err;

	err = calvin_spec_scalar(c, n, k->name, &s);
	if (err)
		return err;
	*out = calvin_word_lookup(k->words, s);
	if (*out < 0) {
		calvin_spec_join_words(k->words, list, sizeof(list));
		return calvin_spec_err(c, n->start_mark, "unknown %s '%s'; use one of: %s", k->name,
				       calvin_spec_shown(s, buf), list);
	}
	return 0;
}

int calvin_spec_set_uint(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			 unsigned int *out)
{
	char buf[SHOWN_MAX + 4];
	unsigned long long v = 0;
	const char *s = "", *p;
	unsigned int shown = k->shown_max ? k->shown_max : k->max;
	int err;

	err = calvin_spec_scalar(c, n, k->name, &s);
	if (err)
		return err;
	p = *s == '-' ? s + 1 : s;
	if (!*p || strspn(p, "0123456789") != strlen(p))
		return calvin_spec_err(c, n->start_mark,
				       "%s '%s' is not an integer; use an integer from %u to %u",
				       k->name, calvin_spec_shown(s, buf), k->min, shown);
	for (; *p && v <= k->max; p++)
		v = v * 10 + (unsigned int)(*p - '0');
	if (*s == '-' || v < k->min || v > k->max)
		return calvin_spec_err(c, n->start_mark,
				       "%s %s is out of range; use an integer from %u to %u",
				       k->name, calvin_spec_shown(s, buf), k->min, shown);
	*out = (unsigned int)v;
	return 0;
}

const char *calvin_spec_vnf_label(struct spec_ctx *c, char *buf, size_t size)
{
	const char *kind = calvin_vnf_kind_name(c->vnf->kind);

	if (c->vnf->name[0])
		snprintf(buf, size, "%s '%s'", kind, c->vnf->name);
	else
		snprintf(buf, size, "%s in VNF %u", kind, c->vnf_index + 1);
	return buf;
}
