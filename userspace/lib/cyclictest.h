/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* cyclictest's (rt-tests) histogram output, read: `cyclictest -q -h N`
 * prints one line per microsecond bucket ("000013 001380 000002": the
 * bucket, then each thread's count) and then "# Max Latencies: 00173
 * 00021", "# Histogram Overflows: 00000 00001" and the like. Pure code,
 * for `calvin bench wakeup` and the in-guest agent alike. */
#ifndef CALVIN_LIB_CYCLICTEST_H
#define CALVIN_LIB_CYCLICTEST_H

#include <stddef.h>
#include <stdint.h>

#include "bench_report.h"

#define CALVIN_CT_MAX_THREADS 64

struct calvin_cyclictest {
	unsigned int nr_threads;
	size_t nr_buckets; /* buckets 0 .. nr_buckets - 1 us */
	uint64_t *count;   /* nr_buckets x nr_threads, bucket-major */
	uint64_t max_us[CALVIN_CT_MAX_THREADS];
	uint64_t overflows[CALVIN_CT_MAX_THREADS]; /* cycles beyond the last bucket */
	uint64_t total;				   /* cycles counted, all threads */
};

/* Parse len bytes of output. Returns 0; -EINVAL when it holds no
 * histogram (or a line does not parse); -ENOMEM. Free with
 * calvin_cyclictest_free(). */
int calvin_cyclictest_parse(const char *text, size_t len, struct calvin_cyclictest *ct);
void calvin_cyclictest_free(struct calvin_cyclictest *ct);

/* Every cycle of every thread as a sample (ns) of s, in round r: each
 * bucket's count times its value, overflows at the thread's max (so a
 * quantile above the histogram's range is a lower bound). The samples are
 * not in time order (s->ordered is cleared). 0 or -ENOMEM. */
int calvin_cyclictest_samples(const struct calvin_cyclictest *ct, struct calvin_bench_series *s,
			      unsigned int r);

#endif /* CALVIN_LIB_CYCLICTEST_H */
