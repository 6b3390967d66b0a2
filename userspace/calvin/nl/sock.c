// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The netlink module's sockets: one rtnetlink socket and one ioctl socket
 * per operation, made inside the namespace the operation works in (a
 * socket stays in the namespace it was made in, so calvin's thread goes
 * there only for the moment of making them); requests and their acks,
 * with the kernel's explanation of a refusal; the -v line and the error
 * line of each operation. */
#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include "sock.h"
#include "util.h"

static int sockets_make(struct nl_sock *s)
{
	int one = 1;

	s->nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!s->nl)
		return -errno;
	s->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s->fd < 0)
		return -errno;
	if (mnl_socket_bind(s->nl, 0, MNL_SOCKET_AUTOPID) < 0)
		return -errno;
	/* the kernel's reason in words, and acks without our request in them;
	 * a kernel without these answers all the same */
	mnl_socket_setsockopt(s->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(s->nl, NETLINK_CAP_ACK, &one, sizeof(one));
	return 0;
}

int nl_open(struct nl_sock *s, const char *ns)
{
	int err, back, saved = -1;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (ns) {
		err = netns_enter(ns, &saved);
		if (err)
			return err;
	}
	err = sockets_make(s);
	back = netns_leave(saved);
	if (!err)
		err = back;
	if (err)
		nl_close(s);
	return err;
}

void nl_close(struct nl_sock *s)
{
	if (s->nl)
		mnl_socket_close(s->nl);
	if (s->fd >= 0)
		close(s->fd);
	s->nl = NULL;
	s->fd = -1;
}

int nl_ifindex(struct nl_sock *s, const char *ifname)
{
	struct ifreq ifr = { 0 };

	if (!nl_ifname_ok(ifname))
		return -EINVAL;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(s->fd, SIOCGIFINDEX, &ifr) < 0)
		return -errno;
	return ifr.ifr_ifindex;
}

int nl_talk(struct nl_sock *s, struct nlmsghdr *nlh)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	ssize_t n;
	int err = 0, got;

	nlh->nlmsg_seq = ++s->seq;
	s->ext[0] = '\0';
	if (mnl_socket_sendto(s->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(s->nl, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		got = nl_ack_read(buf, (size_t)n, nlh->nlmsg_seq, &err, s->ext);
		if (got < 0)
			return got;
		if (got)
			return err;
	}
}

void nl_show(const char *ns, const char *fmt, ...)
{
	char rest[512];
	va_list ap;

	if (!calvin_verbose)
		return;
	va_start(ap, fmt);
	vsnprintf(rest, sizeof(rest), fmt, ap);
	va_end(ap);
	calvin_info("+ ip%s%s %s", ns ? " -n " : "", ns ? ns : "", rest);
}

int nl_fail(int err, const struct nl_sock *s, const char *ns, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	if (!err)
		return err;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	calvin_err("Failed to %s%s%s: %s%s%s%s", what, ns ? " in " : "", ns ? ns : "",
		   strerror(-err), s && s->ext[0] ? " (" : "", s && s->ext[0] ? s->ext : "",
		   s && s->ext[0] ? ")" : "");
	return err;
}
