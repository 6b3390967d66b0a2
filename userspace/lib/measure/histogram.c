// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Log-linear latency histogram: O(1) add, percentiles within 2^-SUB_BITS. */
#include <string.h>

#include "measure/measure.h"

/* Bucket layout: [0, SUB_COUNT) hold one value each. For v >= SUB_COUNT with
 * top bit k (k >= SUB_BITS), the SUB_BITS-1 bits below the top bit pick one of
 * HALF_COUNT buckets of width 2^(k - SUB_BITS + 1) in group k - SUB_BITS. */
unsigned int calvin_hist_bucket(uint64_t v)
{
	unsigned int k, shift, sub;

	if (v < CALVIN_HIST_SUB_COUNT)
		return (unsigned int)v;
	k = 63u - (unsigned int)__builtin_clzll(v);
	shift = k - (CALVIN_HIST_SUB_BITS - 1);
	sub = (unsigned int)(v >> shift) & (CALVIN_HIST_HALF_COUNT - 1);
	return CALVIN_HIST_SUB_COUNT + (k - CALVIN_HIST_SUB_BITS) * CALVIN_HIST_HALF_COUNT + sub;
}

void calvin_hist_bucket_range(unsigned int b, uint64_t *lo, uint64_t *hi)
{
	unsigned int k, sub;
	uint64_t width;

	if (b < CALVIN_HIST_SUB_COUNT) {
		*lo = *hi = b;
		return;
	}
	if (b >= CALVIN_HIST_BUCKETS)
		b = CALVIN_HIST_BUCKETS - 1;
	k = CALVIN_HIST_SUB_BITS + (b - CALVIN_HIST_SUB_COUNT) / CALVIN_HIST_HALF_COUNT;
	sub = (b - CALVIN_HIST_SUB_COUNT) % CALVIN_HIST_HALF_COUNT;
	width = 1ull << (k - (CALVIN_HIST_SUB_BITS - 1));
	*lo = (1ull << k) + sub * width;
	/* the last bucket ends at UINT64_MAX: lo + width - 1 does not overflow */
	*hi = *lo + (width - 1);
}

void calvin_hist_init(struct calvin_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void calvin_hist_add(struct calvin_hist *h, uint64_t v)
{
	if (h->count == 0 || v < h->min)
		h->min = v;
	if (h->count == 0 || v > h->max)
		h->max = v;
	h->count++;
	h->sum += v;
	h->buckets[calvin_hist_bucket(v)]++;
}

void calvin_hist_merge(struct calvin_hist *dst, const struct calvin_hist *src)
{
	unsigned int b;

	if (src->count == 0)
		return;
	if (dst->count == 0 || src->min < dst->min)
		dst->min = src->min;
	if (dst->count == 0 || src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	for (b = 0; b < CALVIN_HIST_BUCKETS; b++)
		dst->buckets[b] += src->buckets[b];
}

/* The percentile is the value of rank ceil(p/100 * count) (1-based) in
 * sorted order, the nearest-rank definition; the tests use the same one. */
uint64_t calvin_hist_percentile(const struct calvin_hist *h, double p)
{
	uint64_t rank, seen = 0, lo, hi, mid;
	long double r;
	unsigned int b;

	if (h->count == 0)
		return 0;
	if (!(p > 0)) /* also NaN */
		return h->min;
	if (p >= 100)
		return h->max;
	r = (long double)p / 100 * h->count;
	rank = (uint64_t)r;
	if ((long double)rank < r)
		rank++;
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (b = 0; b < CALVIN_HIST_BUCKETS; b++) {
		seen += h->buckets[b];
		if (seen >= rank)
			break;
	}
	calvin_hist_bucket_range(b, &lo, &hi);
	mid = lo + (hi - lo) / 2;
	if (mid < h->min)
		return h->min;
	if (mid > h->max)
		return h->max;
	return mid;
}

double calvin_hist_mean(const struct calvin_hist *h)
{
	if (h->count == 0)
		return 0;
	return (double)(h->sum / h->count);
}
