// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Exit statuses of VNFs that are not the supervisor's children (those
 * `up` started: their status went to their parent, and on to init), from
 * the kernel's process events connector (root only; in the host's
 * network namespace only). Where it cannot be opened, such an exit's
 * cause is "unknown". */
#include <errno.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sup.h"

/* Exits of the whole host land here between two drains (at most a tick). */
#define EXITS_RCVBUF (4 << 20)

int sup_exits_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC };
	struct {
		struct nlmsghdr nh;
		struct cn_msg cn;
		enum proc_cn_mcast_op op;
	} __attribute__((packed)) req = {
		.nh = { .nlmsg_len = sizeof(req), .nlmsg_type = NLMSG_DONE },
		.cn = { .id = { CN_IDX_PROC, CN_VAL_PROC }, .len = sizeof(enum proc_cn_mcast_op) },
		.op = PROC_CN_MCAST_LISTEN,
	};
	int fd, sz = EXITS_RCVBUF;

	fd = socket(PF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_CONNECTOR);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    send(fd, &req, sizeof(req), 0) != sizeof(req)) {
		close(fd);
		return -errno;
	}
	return fd;
}

static void note_exit(struct sup *s, const struct proc_event *ev)
{
	unsigned int k;

	if (ev->what != PROC_EVENT_EXIT ||
	    ev->event_data.exit.process_pid != ev->event_data.exit.process_tgid)
		return;
	for (k = 0; k < s->nr; k++)
		if (s->v[k].pidfd >= 0 && s->v[k].pid == ev->event_data.exit.process_pid) {
			s->v[k].exit_code = (int)ev->event_data.exit.exit_code;
			s->v[k].exit_known = true;
		}
}

void sup_exits_drain(struct sup *s)
{
	char buf[8192] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *nh;
	struct cn_msg *cn;
	ssize_t n;

	while (s->exits >= 0 && (n = recv(s->exits, buf, sizeof(buf), 0)) > 0)
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, (size_t)n); nh = NLMSG_NEXT(nh, n)) {
			cn = NLMSG_DATA(nh);
			if (cn->len >= sizeof(struct proc_event))
				note_exit(s, (const struct proc_event *)cn->data);
		}
}
