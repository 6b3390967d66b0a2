// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Starting calvin-vnf with its ready pipe: the one way both the netns
 * backend and the agent do it (vnf_start.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/close_range.h>

#include "vnf_start.h"

/* In the child: wait for the parent's go (it has journalled our PID by
 * then), let the caller place us, exec. EOF on the pipe means the parent
 * died before it could journal us: leave without a trace. */
static void child(const struct vnf_start *s, int go, const int *ready, unsigned int n)
{
	char **argv = s->n ? s->group_argv : s->argv->argv;
	unsigned int k;
	char c;

	if (read(go, &c, 1) != 1)
		_exit(1);
	if (s->child && s->child(s->ctx))
		_exit(1);
	for (k = 0; k < n; k++)
		snprintf(s->n ? s->ready_slot[k] : s->argv->ready_fd, sizeof(s->argv->ready_fd),
			 "%d", ready[k]);
	/* Only the ready fds and the keys go on: a lock whoever ran us holds
	 * (flock(1) passes its fd on) must not live as long as the VNF. */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	for (k = 0; k < n; k++) {
		fcntl(ready[k], F_SETFD, 0);
		if (s->n ? s->keys_fds[k] >= 0 : s->keys_fd >= 0)
			fcntl(s->n ? s->keys_fds[k] : s->keys_fd, F_SETFD, 0);
	}
	execv(argv[0], argv);
	fprintf(stderr, "%s: cannot run %s: %s\n", s->prog, argv[0], strerror(errno));
	_exit(127);
}

/* Wait for the ready line on fd; pmd[] gets what it says of each port. */
static int wait_ready(int fd, unsigned int timeout_ms, int pmd[CALVIN_READY_SIDES])
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[128];
	ssize_t n;
	int r;

	r = poll(&p, 1, (int)timeout_ms);
	if (r == 0)
		return -ETIMEDOUT;
	if (r < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return -ECHILD;
	buf[n] = '\0';
	return calvin_ready_parse(buf, pmd);
}

static int ms_left(const struct timespec *end)
{
	struct timespec now;
	long long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (end->tv_sec - now.tv_sec) * 1000LL + (end->tv_nsec - now.tv_nsec) / 1000000;
	return ms < 0 ? 0 : (int)ms;
}

int vnf_start(const struct vnf_start *s, pid_t *pid, int pmd[CALVIN_READY_SIDES])
{
	unsigned int n = s->n ? s->n : 1, k, opened = 0;
	int go[2], ready[VNF_START_GROUP_MAX][2], theirs[VNF_START_GROUP_MAX], err = 0;
	struct timespec end;

	*pid = 0;
	if (n > VNF_START_GROUP_MAX)
		return -E2BIG;
	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	for (; opened < n; opened++)
		if (pipe2(ready[opened], O_CLOEXEC) < 0) {
			err = -errno;
			goto close_ready;
		}
	for (k = 0; k < n; k++)
		theirs[k] = ready[k][1];
	*pid = fork();
	if (*pid < 0) {
		err = -errno;
		*pid = 0;
		goto close_ready;
	}
	if (*pid == 0) {
		close(go[1]);
		for (k = 0; k < n; k++)
			close(ready[k][0]);
		child(s, go[0], theirs, n);
	}
	close(go[0]);
	go[0] = -1;
	for (k = 0; k < n; k++) {
		close(ready[k][1]);
		ready[k][1] = -1;
	}
	err = s->started ? s->started(s->ctx, *pid) : 0;
	if (err) {
		kill(*pid, SIGKILL);
		*pid = 0;
		goto close_ready;
	}
	if (write(go[1], "g", 1) != 1) {
		err = -errno;
		goto close_ready;
	}
	/* one deadline for them all: the VNFs of a group set up together */
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += s->ready_timeout_ms / 1000;
	end.tv_nsec += (long)(s->ready_timeout_ms % 1000) * 1000000;
	if (end.tv_nsec >= 1000000000) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000;
	}
	for (k = 0; !err && k < n; k++)
		err = wait_ready(ready[k][0], (unsigned int)ms_left(&end),
				 s->n ? s->group_pmd[k] : pmd);
	if (!err && s->n && pmd)
		memcpy(pmd, s->group_pmd[0], sizeof(s->group_pmd[0]));
close_ready:
	for (k = 0; k < opened; k++) {
		close(ready[k][0]);
		if (ready[k][1] >= 0)
			close(ready[k][1]);
	}
	if (go[0] >= 0)
		close(go[0]);
	close(go[1]);
	return err;
}
