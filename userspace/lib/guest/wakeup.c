// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The pure decisions of a user VNF's wait mode (see guest.h). */
#include <errno.h>
#include <string.h>

#include "guest/guest.h"

static const char *const wait_names[] = {
	[CALVIN_WAIT_BUSY] = "busy",
	[CALVIN_WAIT_WAKEUP] = "wakeup",
	[CALVIN_WAIT_YIELD] = "yield",
	[CALVIN_WAIT_LOOP] = "loop",
};

const char *calvin_wait_name(enum calvin_wait w)
{
	return (unsigned int)w < sizeof(wait_names) / sizeof(wait_names[0])
		   ? wait_names[w]
		   : wait_names[CALVIN_WAIT_BUSY];
}

int calvin_wait_parse(const char *s, enum calvin_wait *w)
{
	unsigned int i;

	for (i = 0; i < sizeof(wait_names) / sizeof(wait_names[0]); i++)
		if (!strcmp(s, wait_names[i])) {
			*w = (enum calvin_wait)i;
			return 0;
		}
	return -EINVAL;
}

enum calvin_wait calvin_wait_for(bool plan_shared, int cpu)
{
	return plan_shared || cpu < 0 ? CALVIN_WAIT_WAKEUP : CALVIN_WAIT_BUSY;
}

static bool fd_in(int fd, const int *set, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (set[i] == fd)
			return true;
	return false;
}

int calvin_fd_new(const int *before, unsigned int nb, const int *after, unsigned int na)
{
	int found = -ENOENT;
	unsigned int i;

	for (i = 0; i < na; i++) {
		if (fd_in(after[i], before, nb))
			continue;
		if (found >= 0)
			return -EEXIST;
		found = after[i];
	}
	return found;
}

struct timespec *calvin_wait_timeout(uint64_t now, uint64_t deadline, struct timespec *ts)
{
	uint64_t left;

	if (deadline == UINT64_MAX)
		return NULL;
	left = deadline > now ? deadline - now : 0;
	ts->tv_sec = (time_t)(left / 1000000000ULL);
	ts->tv_nsec = (long)(left % 1000000000ULL);
	return ts;
}

static int64_t leave_owed(uint64_t planned)
{
	return (int64_t)(planned - planned / 8);
}

uint64_t calvin_leave_pause(int64_t credit, uint64_t planned)
{
	int64_t owed = leave_owed(planned);

	if (credit >= owed)
		return 0;
	return (uint64_t)(owed - credit) < planned ? (uint64_t)(owed - credit) : planned;
}

int64_t calvin_leave_credit(int64_t credit, uint64_t planned, uint64_t left, uint64_t piece)
{
	int64_t cap = 4 * (int64_t)piece;

	credit += (int64_t)left - leave_owed(planned);
	return credit > cap ? cap : credit;
}
