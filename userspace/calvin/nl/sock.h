/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Inside the netlink module: a netlink socket of one namespace, what an
 * operation shows under -v, and its one line when it fails. */
#ifndef CALVIN_NL_SOCK_H
#define CALVIN_NL_SOCK_H

#include "msg.h"

struct nlmsghdr;

struct nl_sock {
	struct mnl_socket *nl; /* rtnetlink, bound to the namespace it was opened in */
	int fd;		       /* a datagram socket of that namespace, for ioctls */
	unsigned int seq;
	char ext[NL_EXT_MAX]; /* the kernel's explanation of the last refusal */
};

/* Both sockets made inside ns (NULL: calvin's own); calvin's thread is
 * back in its namespace when this returns. */
int nl_open(struct nl_sock *s, const char *ns);
void nl_close(struct nl_sock *s);
/* The index of ifname in the socket's namespace, or -errno. */
int nl_ifindex(struct nl_sock *s, const char *ifname);
/* Send the request, wait for its ack: 0 or -errno (s->ext says why). */
int nl_talk(struct nl_sock *s, struct nlmsghdr *nlh);

/* Under -v: "+ ip [-n NS] " and the rest in ip(8) words. */
void nl_show(const char *ns, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* err is 0: nothing. Else one line, "Failed to WHAT[ in NS]: strerror",
 * and the kernel's explanation where s has one; returns err. */
int nl_fail(int err, const struct nl_sock *s, const char *ns, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif /* CALVIN_NL_SOCK_H */
