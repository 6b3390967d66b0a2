// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The Prometheus text exposition of calvin's latency histograms: bucket
 * layouts fine enough to read a p99 near the budget, the fold of a
 * log-linear histogram into them, and the text itself. Pure code. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "measure/measure.h"

#define NS_PER_S 1000000000ULL
/* the buckets reach this far; beyond it, only +Inf */
#define LAST_BOUND_NS (10 * NS_PER_S)
/* about this many linear steps up to the budget */
#define STEPS_TO_BUDGET 64

static void bounds_clear(struct calvin_prom_hist *p)
{
	memset(p, 0, sizeof(*p));
}

static void bound_add(struct calvin_prom_hist *p, uint64_t ns)
{
	if (p->nr_bounds < CALVIN_PROM_MAX_BOUNDS &&
	    (!p->nr_bounds || ns > p->bound_ns[p->nr_bounds - 1]))
		p->bound_ns[p->nr_bounds++] = ns;
}

/* The largest of 1, 2, 5 times a power of ten that is at most ns (1 ns
 * at least): steps people read at a glance (5us, not 5.47us). */
static uint64_t nice_step(uint64_t ns)
{
	uint64_t p = 1;

	while (p * 10 <= ns)
		p *= 10;
	if (5 * p <= ns)
		return 5 * p;
	if (2 * p <= ns)
		return 2 * p;
	return p;
}

void calvin_prom_hist_init_rtt(struct calvin_prom_hist *p, uint64_t budget_ns)
{
	uint64_t step, b;

	bounds_clear(p);
	if (!budget_ns)
		budget_ns = NS_PER_S / 1000;
	step = nice_step(budget_ns / STEPS_TO_BUDGET);
	for (b = step; b < budget_ns + step; b += step)
		bound_add(p, b);
	for (b = p->bound_ns[p->nr_bounds - 1] * 2; b <= 2 * LAST_BOUND_NS; b *= 2) {
		bound_add(p, b);
		if (b >= LAST_BOUND_NS)
			break;
	}
}

void calvin_prom_hist_init_hop(struct calvin_prom_hist *p)
{
	static const unsigned int mant[] = { 10, 15, 20, 30, 50, 70 };
	uint64_t decade;
	unsigned int i;

	bounds_clear(p);
	for (decade = 10; decade < LAST_BOUND_NS / 10; decade *= 10)
		for (i = 0; i < sizeof(mant) / sizeof(mant[0]); i++)
			bound_add(p, decade * mant[i]);
	bound_add(p, LAST_BOUND_NS);
}

/* Index of the first bound at or above ns: nr_bounds means +Inf. */
static unsigned int bucket_of(const struct calvin_prom_hist *p, uint64_t ns)
{
	unsigned int lo = 0, hi = p->nr_bounds, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (p->bound_ns[mid] >= ns)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void calvin_prom_hist_add(struct calvin_prom_hist *p, const struct calvin_hist *h)
{
	uint64_t lo, hi, mid;
	unsigned int b;

	if (!h->count)
		return;
	for (b = 0; b < CALVIN_HIST_BUCKETS; b++) {
		if (!h->buckets[b])
			continue;
		calvin_hist_bucket_range(b, &lo, &hi);
		/* a bucket of one value is that value; else its middle, kept
		 * inside what was seen */
		mid = lo + (hi - lo) / 2;
		if (mid < h->min)
			mid = h->min;
		if (mid > h->max)
			mid = h->max;
		p->counts[bucket_of(p, mid)] += h->buckets[b];
	}
	p->count += h->count;
	p->sum_ns += h->sum;
}

static void seconds_text(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%.9g", (double)ns / (double)NS_PER_S);
}

void calvin_prom_family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

void calvin_prom_sample(FILE *f, const char *name, const char *labels, double v)
{
	if (labels && *labels)
		fprintf(f, "%s{%s} %.15g\n", name, labels, v);
	else
		fprintf(f, "%s %.15g\n", name, v);
}

void calvin_prom_hist_write(FILE *f, const char *name, const char *labels,
			    const struct calvin_prom_hist *p)
{
	const char *sep = labels && *labels ? "," : "";
	uint64_t cum = 0;
	char le[32];
	unsigned int i;

	labels = labels ? labels : "";
	for (i = 0; i < p->nr_bounds; i++) {
		cum += p->counts[i];
		seconds_text(le, sizeof(le), p->bound_ns[i]);
		fprintf(f, "%s_bucket{%s%sle=\"%s\"} %llu\n", name, labels, sep, le,
			(unsigned long long)cum);
	}
	fprintf(f, "%s_bucket{%s%sle=\"+Inf\"} %llu\n", name, labels, sep,
		(unsigned long long)p->count);
	fprintf(f, "%s_sum{%s} %.9Lg\n", name, labels, p->sum_ns / (long double)NS_PER_S);
	fprintf(f, "%s_count{%s} %llu\n", name, labels, (unsigned long long)p->count);
}

size_t calvin_prom_label(char *buf, size_t len, const char *key, const char *value)
{
	size_t n = strlen(buf);
	const char *s;

	if (n + 1 >= len)
		return n;
	n += (size_t)snprintf(buf + n, len - n, "%s%s=\"", n ? "," : "", key);
	/* the exposition format escapes three characters in a label value */
	for (s = value; *s && n + 3 < len; s++) {
		if (*s == '\\' || *s == '"' || *s == '\n') {
			buf[n++] = '\\';
			buf[n++] = *s == '\n' ? 'n' : *s;
		} else {
			buf[n++] = *s;
		}
	}
	if (n + 1 < len)
		buf[n++] = '"';
	buf[n < len ? n : len - 1] = 0;
	return n;
}

double calvin_prom_quantile(const struct calvin_prom_hist *p, double q)
{
	double rank = q * (double)p->count, start = 0, end;
	uint64_t cum = 0;
	unsigned int i;

	if (!p->count || q < 0 || q > 1)
		return NAN;
	for (i = 0; i <= p->nr_bounds; i++) {
		if ((double)(cum + p->counts[i]) >= rank && p->counts[i])
			break;
		cum += p->counts[i];
		if (i < p->nr_bounds)
			start = (double)p->bound_ns[i] / (double)NS_PER_S;
	}
	/* in +Inf, Prometheus answers the last finite bound */
	if (i >= p->nr_bounds)
		return (double)p->bound_ns[p->nr_bounds - 1] / (double)NS_PER_S;
	end = (double)p->bound_ns[i] / (double)NS_PER_S;
	return start + (end - start) * (rank - (double)cum) / (double)p->counts[i];
}

uint64_t calvin_prom_bucket_width(const struct calvin_prom_hist *p, uint64_t ns)
{
	unsigned int b = bucket_of(p, ns);

	if (b >= p->nr_bounds)
		return UINT64_MAX;
	return p->bound_ns[b] - (b ? p->bound_ns[b - 1] : 0);
}
