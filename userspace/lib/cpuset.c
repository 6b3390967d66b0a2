// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Sets of CPUs and their list form (see cpuset.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuset.h"

#define NR_WORDS (CALVIN_MAX_CPUS / 64)

unsigned int calvin_cpuset_count(const struct calvin_cpuset *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < NR_WORDS; i++)
		n += (unsigned int)__builtin_popcountll(s->w[i]);
	return n;
}

bool calvin_cpuset_empty(const struct calvin_cpuset *s)
{
	return calvin_cpuset_first(s) < 0;
}

int calvin_cpuset_first(const struct calvin_cpuset *s)
{
	unsigned int i;

	for (i = 0; i < NR_WORDS; i++)
		if (s->w[i])
			return (int)(i * 64) + __builtin_ctzll(s->w[i]);
	return -1;
}

void calvin_cpuset_and(struct calvin_cpuset *d, const struct calvin_cpuset *a,
		       const struct calvin_cpuset *b)
{
	unsigned int i;

	for (i = 0; i < NR_WORDS; i++)
		d->w[i] = a->w[i] & b->w[i];
}

void calvin_cpuset_or(struct calvin_cpuset *d, const struct calvin_cpuset *a,
		      const struct calvin_cpuset *b)
{
	unsigned int i;

	for (i = 0; i < NR_WORDS; i++)
		d->w[i] = a->w[i] | b->w[i];
}

void calvin_cpuset_andnot(struct calvin_cpuset *d, const struct calvin_cpuset *a,
			  const struct calvin_cpuset *b)
{
	unsigned int i;

	for (i = 0; i < NR_WORDS; i++)
		d->w[i] = a->w[i] & ~b->w[i];
}

bool calvin_cpuset_equal(const struct calvin_cpuset *a, const struct calvin_cpuset *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* One number of a list; -ERANGE above the highest CPU calvin handles. */
static int cpu_number(const char **s, unsigned long *v)
{
	char *end;

	if (**s < '0' || **s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoul(*s, &end, 10);
	if (errno || *v >= CALVIN_MAX_CPUS)
		return -ERANGE;
	*s = end;
	return 0;
}

int calvin_cpulist_parse(const char *s, struct calvin_cpuset *set)
{
	unsigned long a, b;
	int err;

	memset(set, 0, sizeof(*set));
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
		}
		if (a > b)
			return -EINVAL;
		while (a <= b)
			calvin_cpu_set(set, (unsigned int)a++);
		if (*s == ',' && s[1] && s[1] != '\n')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return 0;
}

const char *calvin_cpulist_format(const struct calvin_cpuset *s, char *buf, size_t len)
{
	size_t used = 0;
	int c, end, n;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (c = 0; c < CALVIN_MAX_CPUS; c = end + 1) {
		if (!calvin_cpu_isset(s, c)) {
			end = c;
			continue;
		}
		for (end = c; calvin_cpu_isset(s, end + 1); end++)
			;
		n = end == c ? snprintf(buf + used, len - used, "%s%d", used ? "," : "", c)
			     : snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", c, end);
		if (n < 0 || (size_t)n >= len - used) {
			buf[used] = '\0'; /* whole items only */
			break;
		}
		used += (size_t)n;
	}
	return buf;
}
