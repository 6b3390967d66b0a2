// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Watching the links of a namespace (the supervisor's netlink watch): a
 * socket made inside it that hears of every link added, changed or
 * deleted, and dumps of all its links on request, read back as struct
 * nl_link. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "msg.h"
#include "util.h"

static int watch_socket(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = RTMGRP_LINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);

	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -errno;
	}
	return fd;
}

int nl_watch_open(const char *ns)
{
	int fd, err, saved = -1;

	if (ns) {
		err = netns_enter(ns, &saved);
		if (err)
			return err;
	}
	/* a socket stays in the namespace it was made in */
	fd = watch_socket();
	err = netns_leave(saved);
	if (err && fd >= 0) {
		close(fd);
		fd = err;
	}
	return fd;
}

int nl_watch_dump(int fd)
{
	char buf[NL_BUF_SIZE];
	struct nlmsghdr *nlh = nl_msg_link_dump(buf);
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	if (sendto(fd, nlh, nlh->nlmsg_len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		return -errno;
	return 0;
}

static void each_link(const void *buf, int len, void (*cb)(const struct nl_link *l, void *arg),
		      void *arg)
{
	const struct nlmsghdr *nlh = buf;
	struct nl_link l;

	for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len))
		if (!nl_link_parse(nlh, &l))
			cb(&l, arg);
}

int nl_watch_read(int fd, void (*cb)(const struct nl_link *l, void *arg), void *arg)
{
	static char buf[32768]; /* a dump's part, as the kernel sends them */
	ssize_t n;

	for (;;) {
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
		if (n == 0)
			return 0;
		each_link(buf, (int)n, cb, arg);
	}
}
