/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* How a user VNF waits for packets, and the pure decisions around it.
 *
 * A VNF that owns its core busy-polls: nothing is faster. Two busy-pollers
 * on one core take turns by scheduler slices (milliseconds), so a VNF that
 * shares its core waits in the kernel instead ("wakeup"): it sleeps in
 * poll() on its PMD's socket and the kernel wakes it when a frame lands in
 * the ring. Pure code: no I/O; calvin-vnf does the waiting. */
#ifndef CALVIN_LIB_WAKEUP_H
#define CALVIN_LIB_WAKEUP_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

enum calvin_wait {
	CALVIN_WAIT_BUSY,   /* poll the rings without pause: a core of its own */
	CALVIN_WAIT_WAKEUP, /* sleep in the kernel until a frame or a deadline */
};

const char *calvin_wait_name(enum calvin_wait w);
/* "busy" or "wakeup"; 0 or -EINVAL. */
int calvin_wait_parse(const char *s, enum calvin_wait *w);

/* The controller's rule until the planner decides it: a VNF busy-polls
 * only on a core of its own (pinned, and the plan shares no core). */
enum calvin_wait calvin_wait_for(bool plan_shared, int cpu);

/* The one descriptor in after[] that is not in before[]: how calvin-vnf
 * finds the socket a PMD opened for a port (DPDK 22.11 gives no access to
 * it). Returns the fd, -ENOENT if none is new, -EEXIST if several are. */
int calvin_fd_new(const int *before, unsigned int nb, const int *after, unsigned int na);

/* The timeout of a wait that must end by deadline (CLOCK_MONOTONIC ns,
 * UINT64_MAX: none). Returns ts filled in, zero when the deadline has
 * passed, or NULL: wait without a timeout. */
struct timespec *calvin_wait_timeout(uint64_t now, uint64_t deadline, struct timespec *ts);

#endif /* CALVIN_LIB_WAKEUP_H */
