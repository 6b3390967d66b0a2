// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* How this host's clock is kept: chrony's word on it (`chronyc -c -n
 * tracking`), for the report, and as this host's side of an offset
 * between hosts (a calvin_clock_ref). chronyc is run by its absolute path
 * with an argv, never through a shell, and given 2 s. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host_clock.h"
#include "util.h"

#define CHRONYC_DEADLINE_MS 2000

static void chronyc_child(const char *path, int out)
{
	const char *const argv[] = { path, "-c", "-n", "tracking", NULL };
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	dup2(null, STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	dup2(null, STDERR_FILENO);
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	execv(path, (char *const *)argv);
	_exit(127);
}

/* What the child wrote within the deadline: 0, or -ETIMEDOUT. */
static int read_within(int fd, char *buf, size_t size)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t len = 0;
	ssize_t n;

	while (len + 1 < size) {
		if (poll(&p, 1, CHRONYC_DEADLINE_MS) <= 0)
			return -ETIMEDOUT;
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	return 0;
}

int host_clock_chrony(struct calvin_chrony_tracking *t, char *why, size_t len)
{
	const char *path = tool_path("chronyc");
	char out[1024];
	int fds[2], status, err;
	pid_t pid;

	if (!path) {
		snprintf(why, len, "chrony is not installed");
		return -ENOENT;
	}
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(fds[0]);
		close(fds[1]);
		return err;
	}
	if (pid == 0)
		chronyc_child(path, fds[1]);
	close(fds[1]);
	err = read_within(fds[0], out, sizeof(out));
	close(fds[0]);
	if (err)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (err) {
		snprintf(why, len, "chronyc did not answer within 2 s");
		return err;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(why, len, "chronyc tracking failed (is chronyd running?)");
		return -EIO;
	}
	return calvin_chrony_tracking_parse(out, t, why, len);
}

const char *host_clock_describe(char *buf, size_t len)
{
	struct calvin_chrony_tracking t;
	char why[160], d[CALVIN_DUR_LEN];
	int err = host_clock_chrony(&t, why, sizeof(why));

	if (err == -ENOENT)
		return NULL; /* nothing to say: the report stays as it was */
	if (err)
		snprintf(buf, len, "host clock: %s", why);
	else
		snprintf(buf, len,
			 "host clock: chrony, within ±%s of its reference %s (stratum %u)",
			 calvin_fmt_ns(d, t.bound_ns), t.reference[0] ? t.reference : "(unnamed)",
			 t.stratum);
	return buf;
}
