// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Starting calvin-vnf with its ready pipe: the one way both the netns
 * backend and the agent do it (vnf_start.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/close_range.h>

#include "vnf_start.h"

/* In the child: wait for the parent's go (it has journalled our PID by
 * then), let the caller place us, exec. EOF on the pipe means the parent
 * died before it could journal us: leave without a trace. */
static void child(const struct vnf_start *s, int go, int ready)
{
	struct calvin_vnf_argv *a = s->argv;
	char c;

	if (read(go, &c, 1) != 1)
		_exit(1);
	if (s->child && s->child(s->ctx))
		_exit(1);
	snprintf(a->ready_fd, sizeof(a->ready_fd), "%d", ready);
	/* Only the ready fd and the keys go on: a lock whoever ran us holds
	 * (flock(1) passes its fd on) must not live as long as the VNF. */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	fcntl(ready, F_SETFD, 0);
	if (s->keys_fd >= 0)
		fcntl(s->keys_fd, F_SETFD, 0);
	execv(a->argv[0], a->argv);
	fprintf(stderr, "%s: cannot run %s: %s\n", s->prog, a->argv[0], strerror(errno));
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

int vnf_start(const struct vnf_start *s, pid_t *pid, int pmd[CALVIN_READY_SIDES])
{
	int go[2], ready[2], err;

	*pid = 0;
	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(ready, O_CLOEXEC) < 0) {
		err = -errno;
		goto close_go;
	}
	*pid = fork();
	if (*pid < 0) {
		err = -errno;
		*pid = 0;
		goto close_ready;
	}
	if (*pid == 0) {
		close(go[1]);
		close(ready[0]);
		child(s, go[0], ready[1]);
	}
	close(go[0]);
	close(ready[1]);
	go[0] = ready[1] = -1;
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
	err = wait_ready(ready[0], s->ready_timeout_ms, pmd);
close_ready:
	close(ready[0]);
	if (ready[1] >= 0)
		close(ready[1]);
close_go:
	if (go[0] >= 0)
		close(go[0]);
	close(go[1]);
	return err;
}
