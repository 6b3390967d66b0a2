// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The host-wide planning lock: RUN_DIR/plan.lock.
 *
 * A plan keeps off the cores other chains hold by reading their plan
 * records; two `calvin up` at the same moment would both read no record
 * of the other and could pick the same core. So `up` holds this lock from
 * reading the records to writing its own. The file is never removed, so
 * every controller locks the same inode; the kernel drops the lock of a
 * controller that dies. It is held for milliseconds, so a waiter blocks in
 * flock() (where /proc/locks shows it) and gives up after a minute. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "commands.h"
#include "util.h"

#define PLAN_LOCK_FILE "plan.lock"
#define PLAN_LOCK_WAIT_S 60

static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

/* Block in flock() until the lock is ours, a minute passes (-ETIMEDOUT)
 * or SIGINT/SIGTERM asks to stop (-EINTR). */
static int lock_wait(int fd)
{
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	int err = 0;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, &old))
		return -errno;
	timed_out = 0;
	alarm(PLAN_LOCK_WAIT_S);
	while (flock(fd, LOCK_EX) < 0) {
		err = errno == EINTR ? 0 : -errno;
		if (!err && calvin_quit)
			err = -EINTR;
		else if (!err && timed_out)
			err = -ETIMEDOUT;
		if (err)
			break;
	}
	alarm(0);
	sigaction(SIGALRM, &old, NULL);
	return err;
}

int plan_lock(int *fdp)
{
	char path[PATH_MAX];
	int fd, err;

	*fdp = -1;
	snprintf(path, sizeof(path), "%s/%s", calvin_run_dir(), PLAN_LOCK_FILE);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = -errno;
		calvin_err("cannot open the planning lock %s: %s", path, strerror(errno));
		return err;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
		*fdp = fd;
		return 0;
	}
	err = errno == EWOULDBLOCK ? 0 : -errno;
	if (!err) {
		calvin_info("waiting for another calvin that plans a chain (%s)", path);
		err = lock_wait(fd);
	}
	if (!err) {
		*fdp = fd;
		return 0;
	}
	if (err == -ETIMEDOUT)
		calvin_err("another calvin has held the planning lock %s for %d s; try again once "
			   "it is done",
			   path, PLAN_LOCK_WAIT_S);
	else if (err != -EINTR)
		calvin_err("cannot take the planning lock %s: %s", path, strerror(-err));
	close(fd);
	return err;
}

void plan_unlock(int *fdp)
{
	if (*fdp < 0)
		return;
	/* explicitly: a forked child that still shares the descriptor would
	 * otherwise keep the lock */
	flock(*fdp, LOCK_UN);
	close(*fdp);
	*fdp = -1;
}
