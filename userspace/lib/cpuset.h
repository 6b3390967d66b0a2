/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Sets of CPUs: a fixed bitmap, and the kernel's list form ("0-3,8,10-11")
 * in both directions. Pure code. */
#ifndef CALVIN_LIB_CPUSET_H
#define CALVIN_LIB_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CPU numbers calvin handles: 0 .. CALVIN_MAX_CPUS - 1 */
#define CALVIN_MAX_CPUS 1024
/* Longest list calvin_cpulist_format() writes: "0,2,4,..." of every CPU. */
#define CALVIN_CPULIST_MAX (CALVIN_MAX_CPUS * 5)

struct calvin_cpuset {
	uint64_t w[CALVIN_MAX_CPUS / 64];
};

static inline void calvin_cpu_set(struct calvin_cpuset *s, unsigned int c)
{
	if (c < CALVIN_MAX_CPUS)
		s->w[c / 64] |= 1ULL << (c % 64);
}

static inline void calvin_cpu_clear(struct calvin_cpuset *s, unsigned int c)
{
	if (c < CALVIN_MAX_CPUS)
		s->w[c / 64] &= ~(1ULL << (c % 64));
}

static inline bool calvin_cpu_isset(const struct calvin_cpuset *s, int c)
{
	return c >= 0 && c < CALVIN_MAX_CPUS && (s->w[c / 64] >> (c % 64)) & 1;
}

unsigned int calvin_cpuset_count(const struct calvin_cpuset *s);
bool calvin_cpuset_empty(const struct calvin_cpuset *s);
/* Lowest CPU in s, or -1. */
int calvin_cpuset_first(const struct calvin_cpuset *s);
/* d = a & b, d = a | b, d = a & ~b (d may be a or b) */
void calvin_cpuset_and(struct calvin_cpuset *d, const struct calvin_cpuset *a,
		       const struct calvin_cpuset *b);
void calvin_cpuset_or(struct calvin_cpuset *d, const struct calvin_cpuset *a,
		      const struct calvin_cpuset *b);
void calvin_cpuset_andnot(struct calvin_cpuset *d, const struct calvin_cpuset *a,
			  const struct calvin_cpuset *b);
bool calvin_cpuset_equal(const struct calvin_cpuset *a, const struct calvin_cpuset *b);

/* Parse a kernel CPU list ("0-3,8,10-11"; empty or a lone newline means
 * none) into s. Returns 0, -EINVAL (not a list) or -ERANGE (a CPU number
 * of CALVIN_MAX_CPUS or more). */
int calvin_cpulist_parse(const char *text, struct calvin_cpuset *s);
/* The list form of s into buf ("" when empty); returns buf. */
const char *calvin_cpulist_format(const struct calvin_cpuset *s, char *buf, size_t len);

#endif /* CALVIN_LIB_CPUSET_H */
