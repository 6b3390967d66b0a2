/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Inside the netlink module: the rtnetlink requests it sends, built into
 * a caller's buffer without I/O (tests/unit/test_nl_msg.c reads them
 * back), the addresses they carry, and the reading of the kernel's ack. */
#ifndef CALVIN_NL_MSG_H
#define CALVIN_NL_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nl.h"

/* Every request fits: a few names of IFNAMSIZ, numbers and addresses. */
#define NL_BUF_SIZE 1024
/* The kernel's explanation of a refusal (extack), as much as is kept. */
#define NL_EXT_MAX 256

struct nl_ip {
	int family;  /* AF_INET or AF_INET6 */
	uint8_t len; /* bytes of addr: 4 or 16 */
	uint8_t addr[16];
};
struct nl_prefix {
	struct nl_ip ip;
	uint8_t plen;
};

/* "10.70.0.1" or an IPv6 address: 0, or -EINVAL. */
int nl_parse_ip(const char *s, struct nl_ip *ip);
/* "10.70.0.1/24", "10.71.3.0/24", an address alone (a host prefix), or
 * "default" (family AF_INET, length 0): 0, or -EINVAL. */
int nl_parse_prefix(const char *s, struct nl_prefix *p);
/* An interface name the kernel takes: 1..IFNAMSIZ-1 bytes, no '/' and
 * no white space. */
bool nl_ifname_ok(const char *name);

/* Each request in buf (NL_BUF_SIZE bytes), flags NLM_F_REQUEST|NLM_F_ACK
 * and the ones of its kind; the sender sets the sequence number. An
 * ns_fd of -1 leaves the end where the request is made. */
struct nlmsghdr *nl_msg_veth(void *buf, const struct nl_veth_end *a, int a_ns_fd,
			     const struct nl_veth_end *b, int b_ns_fd);
/* Set a link: mtu (0: leave it), up, master (0: leave it). */
struct nlmsghdr *nl_msg_link_set(void *buf, int ifindex, unsigned int mtu, bool up, int master);
struct nlmsghdr *nl_msg_link_delete(void *buf, int ifindex);
struct nlmsghdr *nl_msg_bridge(void *buf, const char *name, unsigned int mtu);
struct nlmsghdr *nl_msg_addr(void *buf, int ifindex, const struct nl_prefix *p);
struct nlmsghdr *nl_msg_neigh(void *buf, int ifindex, const struct nl_ip *ip, const uint8_t mac[6]);
struct nlmsghdr *nl_msg_route(void *buf, const struct nl_prefix *dst, const struct nl_ip *via,
			      int ifindex);

/* RTM_GETLINK of every link (a dump: no ack, the links answer). */
struct nlmsghdr *nl_msg_link_dump(void *buf);
/* A link message (RTM_NEWLINK, RTM_DELLINK) read into l: 0, or -EINVAL
 * for another message or one too short. */
int nl_link_parse(const struct nlmsghdr *nlh, struct nl_link *l);

/* The answer to request seq in len bytes of buf: 1 when it holds the
 * ack, *err set to 0 or -errno and ext to the kernel's explanation ("" if
 * none); 0 when the ack is still to come; -EPROTO for a reply that is not
 * a netlink message. */
int nl_ack_read(const void *buf, size_t len, unsigned int seq, int *err, char ext[NL_EXT_MAX]);

#endif /* CALVIN_NL_MSG_H */
