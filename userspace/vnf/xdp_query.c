// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Is an XDP program attached to an interface? Asked over rtnetlink before
 * af_xdp is tried: DPDK 22.11's af_xdp PMD, when it fails or closes,
 * detaches whatever XDP program the interface has, even one it did not
 * attach, so a port whose interface already runs XDP must use af_packet. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include "vnf.h"

struct link_req {
	struct nlmsghdr nh;
	struct ifinfomsg ifi;
};

/* Walk the attributes of an RTM_NEWLINK answer for IFLA_XDP/ATTACHED. */
static int xdp_attached_in(struct nlmsghdr *nh)
{
	struct ifinfomsg *ifi = NLMSG_DATA(nh);
	int len = (int)nh->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*ifi));
	struct rtattr *rta, *sub;
	int sublen;

	for (rta = IFLA_RTA(ifi); RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		if ((rta->rta_type & ~NLA_F_NESTED) != IFLA_XDP)
			continue;
		sublen = (int)RTA_PAYLOAD(rta);
		for (sub = RTA_DATA(rta); RTA_OK(sub, sublen); sub = RTA_NEXT(sub, sublen))
			if (sub->rta_type == IFLA_XDP_ATTACHED)
				return *(uint8_t *)RTA_DATA(sub) != XDP_ATTACHED_NONE;
	}
	return 0;
}

/* Returns 1 if attached, 0 if not, -errno if the question failed. */
int vnf_xdp_attached(unsigned int ifindex)
{
	struct link_req req = {
	    .nh = {.nlmsg_len = sizeof(req),
		   .nlmsg_type = RTM_GETLINK,
		   .nlmsg_flags = NLM_F_REQUEST,
		   .nlmsg_seq = 1},
	    .ifi = {.ifi_family = AF_UNSPEC, .ifi_index = (int)ifindex},
	};
	char buf[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	ssize_t n;
	int fd, ret;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (send(fd, &req, sizeof(req), 0) < 0) {
		ret = -errno;
		goto close_fd;
	}
	n = recv(fd, buf, sizeof(buf), 0);
	if (n < 0) {
		ret = -errno;
		goto close_fd;
	}
	if (!NLMSG_OK(nh, (size_t)n)) {
		ret = -EBADMSG;
		goto close_fd;
	}
	if (nh->nlmsg_type == NLMSG_ERROR) {
		struct nlmsgerr *e = NLMSG_DATA(nh);

		ret = e->error ? e->error : -EBADMSG;
		goto close_fd;
	}
	ret = nh->nlmsg_type == RTM_NEWLINK ? xdp_attached_in(nh) : -EBADMSG;
close_fd:
	close(fd);
	return ret;
}
