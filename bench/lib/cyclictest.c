// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* cyclictest's histogram output, read (see bench_lib.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/lib/bench_lib.h"

/* Up to max numbers of a line into v; how many there were. */
static unsigned int numbers(const char *p, const char *end, uint64_t *v, unsigned int max)
{
	unsigned int n = 0;
	char *e;

	while (p < end && n < max) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= end || *p < '0' || *p > '9')
			break;
		v[n++] = strtoull(p, &e, 10);
		p = e;
	}
	return n;
}

static int grow(struct calvin_cyclictest *ct, size_t bucket)
{
	size_t need = bucket + 1, cap = ct->nr_buckets ? ct->nr_buckets : 64;
	uint64_t *c;

	if (need <= ct->nr_buckets)
		return 0;
	while (cap < need)
		cap *= 2;
	c = realloc(ct->count, cap * ct->nr_threads * sizeof(*c));
	if (!c)
		return -ENOMEM;
	memset(c + ct->nr_buckets * ct->nr_threads, 0,
	       (cap - ct->nr_buckets) * ct->nr_threads * sizeof(*c));
	ct->count = c;
	ct->nr_buckets = cap;
	return 0;
}

/* "000013 001380 000002": bucket 13 us, a count per thread. */
static int bucket_line(struct calvin_cyclictest *ct, const char *p, const char *end)
{
	uint64_t v[CALVIN_CT_MAX_THREADS + 1];
	unsigned int n = numbers(p, end, v, CALVIN_CT_MAX_THREADS + 1), t;
	int err;

	if (n < 2 || v[0] > 10000000)
		return -EINVAL;
	if (!ct->nr_threads)
		ct->nr_threads = n - 1;
	if (n - 1 != ct->nr_threads)
		return -EINVAL;
	err = grow(ct, v[0]);
	if (err)
		return err;
	for (t = 0; t < ct->nr_threads; t++) {
		ct->count[v[0] * ct->nr_threads + t] += v[t + 1];
		ct->total += v[t + 1];
	}
	return 0;
}

/* "# Max Latencies: 00173 00021" into out, one per thread. */
static void summary_line(const char *p, const char *end, const char *what, uint64_t *out)
{
	size_t w = strlen(what);

	if ((size_t)(end - p) > w && !strncmp(p, what, w))
		numbers(p + w, end, out, CALVIN_CT_MAX_THREADS);
}

int calvin_cyclictest_parse(const char *text, size_t len, struct calvin_cyclictest *ct)
{
	const char *p = text, *end = text + len, *eol;
	int err = 0;

	memset(ct, 0, sizeof(*ct));
	while (!err && p < end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		if (*p >= '0' && *p <= '9') {
			err = bucket_line(ct, p, eol);
		} else if (*p == '#') {
			summary_line(p, eol, "# Max Latencies:", ct->max_us);
			summary_line(p, eol, "# Histogram Overflows:", ct->overflows);
		}
		p = eol + 1;
	}
	if (!err && !ct->nr_threads)
		err = -EINVAL;
	if (err)
		calvin_cyclictest_free(ct);
	return err;
}

void calvin_cyclictest_free(struct calvin_cyclictest *ct)
{
	free(ct->count);
	ct->count = NULL;
	ct->nr_buckets = 0;
}

int calvin_cyclictest_samples(const struct calvin_cyclictest *ct, struct calvin_bench_series *s,
			      unsigned int r)
{
	unsigned int t;
	uint64_t k;
	size_t b;
	int err = 0;

	s->ordered = false;
	for (t = 0; t < ct->nr_threads; t++) {
		for (b = 0; !err && b < ct->nr_buckets; b++)
			for (k = 0; !err && k < ct->count[b * ct->nr_threads + t]; k++)
				err = calvin_bench_series_add(s, (double)b * 1000, r);
		for (k = 0; !err && k < ct->overflows[t]; k++)
			err = calvin_bench_series_add(s, (double)ct->max_us[t] * 1000, r);
	}
	return err;
}
