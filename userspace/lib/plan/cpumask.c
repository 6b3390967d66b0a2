// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Sets of CPUs and their kernel text forms (see plan.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"

#define NR_WORDS (CALVIN_MAX_CPUS / 64)

bool calvin_cpumask_empty(const struct calvin_cpumask *m)
{
	unsigned int i;

	for (i = 0; i < NR_WORDS; i++)
		if (m->w[i])
			return false;
	return true;
}

bool calvin_cpumask_equal(const struct calvin_cpumask *a, const struct calvin_cpumask *b)
{
	return !memcmp(a->w, b->w, sizeof(a->w));
}

bool calvin_cpumask_contains(const struct calvin_cpumask *a, const struct calvin_cpumask *b)
{
	unsigned int i;

	for (i = 0; i < NR_WORDS; i++)
		if (b->w[i] & ~a->w[i])
			return false;
	return true;
}

unsigned int calvin_cpumask_count(const struct calvin_cpumask *m)
{
	unsigned int i, n = 0;

	for (i = 0; i < NR_WORDS; i++)
		n += (unsigned int)__builtin_popcountll(m->w[i]);
	return n;
}

void calvin_cpumask_or(struct calvin_cpumask *d, const struct calvin_cpumask *a,
		       const struct calvin_cpumask *b)
{
	unsigned int i;

	for (i = 0; i < NR_WORDS; i++)
		d->w[i] = a->w[i] | b->w[i];
}

void calvin_cpumask_and(struct calvin_cpumask *d, const struct calvin_cpumask *a,
			const struct calvin_cpumask *b)
{
	unsigned int i;

	for (i = 0; i < NR_WORDS; i++)
		d->w[i] = a->w[i] & b->w[i];
}

void calvin_cpumask_andnot(struct calvin_cpumask *d, const struct calvin_cpumask *a,
			   const struct calvin_cpumask *b)
{
	unsigned int i;

	for (i = 0; i < NR_WORDS; i++)
		d->w[i] = a->w[i] & ~b->w[i];
}

/* One CPU number; strtoul alone would take "-1", "+1" and " 1". */
static int cpu_number(const char **s, unsigned long *out)
{
	char *end;

	if (**s < '0' || **s > '9')
		return -EINVAL;
	*out = strtoul(*s, &end, 10);
	if (*out >= CALVIN_MAX_CPUS)
		return -ERANGE;
	*s = end;
	return 0;
}

int calvin_cpumask_first(const struct calvin_cpumask *m)
{
	unsigned int i;

	for (i = 0; i < sizeof(m->w) / sizeof(m->w[0]); i++)
		if (m->w[i])
			return (int)(i * 64) + __builtin_ctzll(m->w[i]);
	return -1;
}

int calvin_cpumask_parse_list(const char *s, struct calvin_cpumask *m)
{
	unsigned long a, b;
	int err;

	memset(m, 0, sizeof(*m));
	while (*s && *s != '\n') {
		err = cpu_number(&s, &a);
		if (err)
			return err;
		b = a;
		if (*s == '-') {
			s++;
			err = cpu_number(&s, &b);
			if (err)
				return err;
			if (b < a)
				return -EINVAL;
		}
		while (a <= b)
			calvin_cpumask_set(m, (int)a++);
		if (*s == ',' && s[1] && s[1] != '\n')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return 0;
}

const char *calvin_cpumask_list(const struct calvin_cpumask *m, char *buf, size_t len)
{
	size_t used = 0;
	int c, end, n;

	if (!len)
		return NULL;
	buf[0] = '\0';
	for (c = 0; c < CALVIN_MAX_CPUS; c++) {
		if (!calvin_cpumask_isset(m, c))
			continue;
		for (end = c; calvin_cpumask_isset(m, end + 1); end++)
			;
		if (end == c)
			n = snprintf(buf + used, len - used, "%s%d", used ? "," : "", c);
		else
			n = snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", c, end);
		if (n < 0 || (size_t)n >= len - used)
			return NULL;
		used += (size_t)n;
		c = end;
	}
	return buf;
}

static int hex_digit(char ch)
{
	static const char digits[] = "0123456789abcdef";
	const char *p = ch ? strchr(digits, tolower((unsigned char)ch)) : NULL;

	return p ? (int)(p - digits) : -1;
}

int calvin_cpumask_parse_hex(const char *s, struct calvin_cpumask *m)
{
	size_t len = strcspn(s, "\n"), i, group = 0;
	unsigned int bit = 0;
	int d, b;

	memset(m, 0, sizeof(*m));
	if (!len)
		return -EINVAL;
	/* from the least significant digit up; a group holds 8 digits at most */
	for (i = len; i-- > 0;) {
		if (s[i] == ',') {
			if (!group || i == 0)
				return -EINVAL;
			bit = (bit + 31) / 32 * 32;
			group = 0;
			continue;
		}
		d = hex_digit(s[i]);
		if (d < 0 || ++group > 8)
			return -EINVAL;
		for (b = 0; b < 4; b++, bit++)
			if (d >> b & 1) {
				if (bit >= CALVIN_MAX_CPUS)
					return -EINVAL;
				calvin_cpumask_set(m, (int)bit);
			}
	}
	return 0;
}

const char *calvin_cpumask_hex(const struct calvin_cpumask *m, char *buf, size_t len)
{
	int top = CALVIN_MAX_CPUS / 32 - 1, g, n;
	size_t used = 0;
	uint32_t v;

	while (top > 0 && !(uint32_t)(m->w[top / 2] >> (top % 2 * 32)))
		top--;
	for (g = top; g >= 0; g--) {
		v = (uint32_t)(m->w[g / 2] >> (g % 2 * 32));
		n = snprintf(buf + used, len - used, g == top ? "%x" : ",%08x", v);
		if (n < 0 || (size_t)n >= len - used)
			return NULL;
		used += (size_t)n;
	}
	return buf;
}
