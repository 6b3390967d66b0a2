/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Sets of CPUs as a fixed bitmap, and the two text forms the kernel uses
 * for them: lists ("0-3,8") in cpuset and smp_affinity_list files, hex
 * masks ("ff,00000003") in default_smp_affinity, rps_cpus and the
 * workqueue cpumask. Pure code. */
#ifndef CALVIN_LIB_CPUMASK_H
#define CALVIN_LIB_CPUMASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the same bound as plan.h */
#define CALVIN_MAX_CPUS 1024
/* longest text either form takes: every CPU listed ("0,2,4,...") */
#define CALVIN_CPUS_TEXT_MAX (CALVIN_MAX_CPUS * 5)

struct calvin_cpumask {
	uint64_t w[CALVIN_MAX_CPUS / 64];
};

static inline void calvin_cpumask_set(struct calvin_cpumask *m, int c)
{
	if (c >= 0 && c < CALVIN_MAX_CPUS)
		m->w[c / 64] |= 1ULL << (c % 64);
}

static inline void calvin_cpumask_clear(struct calvin_cpumask *m, int c)
{
	if (c >= 0 && c < CALVIN_MAX_CPUS)
		m->w[c / 64] &= ~(1ULL << (c % 64));
}

static inline bool calvin_cpumask_isset(const struct calvin_cpumask *m, int c)
{
	return c >= 0 && c < CALVIN_MAX_CPUS && (m->w[c / 64] >> (c % 64)) & 1;
}

bool calvin_cpumask_empty(const struct calvin_cpumask *m);
bool calvin_cpumask_equal(const struct calvin_cpumask *a, const struct calvin_cpumask *b);
/* Does a hold every CPU of b? */
bool calvin_cpumask_contains(const struct calvin_cpumask *a, const struct calvin_cpumask *b);
unsigned int calvin_cpumask_count(const struct calvin_cpumask *m);
/* d = a | b, d = a & b, d = a & ~b; d may be a or b */
void calvin_cpumask_or(struct calvin_cpumask *d, const struct calvin_cpumask *a,
		       const struct calvin_cpumask *b);
void calvin_cpumask_and(struct calvin_cpumask *d, const struct calvin_cpumask *a,
			const struct calvin_cpumask *b);
void calvin_cpumask_andnot(struct calvin_cpumask *d, const struct calvin_cpumask *a,
			   const struct calvin_cpumask *b);

/* Lowest CPU in m, or -1. */
int calvin_cpumask_first(const struct calvin_cpumask *m);
/* "0-3,8,10-11" (an empty string or a lone newline: none). 0, -EINVAL (not
 * a list) or -ERANGE (a CPU of CALVIN_MAX_CPUS or more). */
int calvin_cpumask_parse_list(const char *s, struct calvin_cpumask *m);
/* The list form into buf ("" when empty); returns buf, or NULL if it did
 * not fit. */
const char *calvin_cpumask_list(const struct calvin_cpumask *m, char *buf, size_t len);
/* "3", "00000000,00000003", "ff\n": comma-separated groups of 32 bits, most
 * significant first. 0 or -EINVAL. */
int calvin_cpumask_parse_hex(const char *s, struct calvin_cpumask *m);
/* The hex form the kernel parses back: groups of 32 bits, the first
 * without leading zeros ("0" when empty). Returns buf, or NULL. */
const char *calvin_cpumask_hex(const struct calvin_cpumask *m, char *buf, size_t len);

#endif /* CALVIN_LIB_CPUMASK_H */
