// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* One command to a DPDK process's telemetry socket (dpdk_query.h), with
 * one deadline for all of it: a wedged VNF (stopped, spinning, or a
 * socket someone else serves) costs timeout_ms, not a hung caller. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "dpdk_query.h"

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* What is left until deadline, as the socket's send and receive timeout
 * (a blocking connect to a full backlog waits on the send timeout);
 * -ETIMEDOUT when nothing is. */
static int arm(int fd, long long deadline)
{
	long long left = deadline - now_ms();
	struct timeval tv;

	if (left <= 0)
		return -ETIMEDOUT;
	tv.tv_sec = left / 1000;
	tv.tv_usec = (left % 1000) * 1000;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		return -errno;
	return 0;
}

/* -errno of a failed call; a timeout is -ETIMEDOUT whatever the call. */
static int failed(void)
{
	return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINPROGRESS ? -ETIMEDOUT
									       : -errno;
}

/* One message into buf, NUL-terminated: -EMSGSIZE when it did not fit
 * (SOCK_SEQPACKET cuts it; MSG_TRUNC tells how long it was). */
static int recv_msg(int fd, long long deadline, char *buf, size_t len)
{
	ssize_t n;
	int err;

	err = arm(fd, deadline);
	if (err)
		return err;
	n = recv(fd, buf, len - 1, MSG_TRUNC);
	if (n < 0)
		return failed();
	if (n == 0)
		return -EPROTO; /* it closed without a word */
	if ((size_t)n > len - 1)
		return -EMSGSIZE;
	buf[n] = '\0';
	return 0;
}

int dpdk_query(const char *prefix, const char *cmd, char *buf, size_t len, int timeout_ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	long long deadline = now_ms() + timeout_ms;
	int fd, err;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "/var/run/dpdk/%.60s/dpdk_telemetry.v2", prefix);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	err = arm(fd, deadline);
	if (!err && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		err = failed();
	if (!err)
		err = recv_msg(fd, deadline, buf, len); /* the greeting */
	if (!err)
		err = arm(fd, deadline);
	if (!err && send(fd, cmd, strlen(cmd), MSG_NOSIGNAL) < 0)
		err = failed();
	if (!err)
		err = recv_msg(fd, deadline, buf, len);
	close(fd);
	return err;
}
