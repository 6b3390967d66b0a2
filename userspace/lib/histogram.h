/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Log-linear latency histogram with bounded relative error.
 *
 * Values are unsigned 64-bit (nanoseconds, in calvin). Values below
 * 2^CALVIN_HIST_SUB_BITS are counted exactly; above that, each power-of-two
 * range [2^k, 2^(k+1)) is split into 2^(CALVIN_HIST_SUB_BITS-1) equal
 * buckets, so a bucket's width is at most 2^-(CALVIN_HIST_SUB_BITS-1) of its
 * lower bound. A percentile is reported as the midpoint of its bucket
 * (clamped to the observed min and max), so its relative error is at most
 * half a bucket: 2^-CALVIN_HIST_SUB_BITS (0.39% with 8 sub-bits).
 *
 * Adding a value is O(1) with no allocation: safe in a hot loop. Pure code.
 */
#ifndef CALVIN_LIB_HISTOGRAM_H
#define CALVIN_LIB_HISTOGRAM_H

#include <stdint.h>

#define CALVIN_HIST_SUB_BITS 8
#define CALVIN_HIST_SUB_COUNT (1u << CALVIN_HIST_SUB_BITS)
#define CALVIN_HIST_HALF_COUNT (CALVIN_HIST_SUB_COUNT / 2)
/* exact range, then one group of HALF_COUNT buckets per remaining power of two */
#define CALVIN_HIST_BUCKETS                                                                        \
	(CALVIN_HIST_SUB_COUNT + (64 - CALVIN_HIST_SUB_BITS) * CALVIN_HIST_HALF_COUNT)

struct calvin_hist {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	long double sum; /* for the mean; long double keeps ns sums exact enough */
	uint64_t buckets[CALVIN_HIST_BUCKETS];
};

void calvin_hist_init(struct calvin_hist *h);
void calvin_hist_add(struct calvin_hist *h, uint64_t v);
/* Add every value of src to dst. */
void calvin_hist_merge(struct calvin_hist *dst, const struct calvin_hist *src);
/* The value below which p percent of the values lie (p in [0, 100]);
 * 0 for an empty histogram. p = 100 gives the exact max, p = 0 the exact min. */
uint64_t calvin_hist_percentile(const struct calvin_hist *h, double p);
double calvin_hist_mean(const struct calvin_hist *h);

/* Bucket index of v, and the [lo, hi] range of values that bucket holds
 * (exposed for tests and for exporting the raw histogram). */
unsigned int calvin_hist_bucket(uint64_t v);
void calvin_hist_bucket_range(unsigned int b, uint64_t *lo, uint64_t *hi);

#endif /* CALVIN_LIB_HISTOGRAM_H */
