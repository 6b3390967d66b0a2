// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The rtnetlink requests of the netlink module, built without I/O, and
 * the reading of the kernel's ack with its explanation (extack). */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "msg.h"

int nl_parse_ip(const char *s, struct nl_ip *ip)
{
	memset(ip, 0, sizeof(*ip));
	if (inet_pton(AF_INET, s, ip->addr) == 1) {
		ip->family = AF_INET;
		ip->len = 4;
		return 0;
	}
	if (inet_pton(AF_INET6, s, ip->addr) == 1) {
		ip->family = AF_INET6;
		ip->len = 16;
		return 0;
	}
	return -EINVAL;
}

int nl_parse_prefix(const char *s, struct nl_prefix *p)
{
	char addr[INET6_ADDRSTRLEN];
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);
	unsigned long plen;
	char *end;

	memset(p, 0, sizeof(*p));
	if (!strcmp(s, "default")) {
		p->ip.family = AF_INET;
		p->ip.len = 4;
		return 0;
	}
	if (n >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, s, n);
	addr[n] = '\0';
	if (nl_parse_ip(addr, &p->ip))
		return -EINVAL;
	if (!slash) {
		p->plen = (uint8_t)(p->ip.len * 8);
		return 0;
	}
	if (!isdigit((unsigned char)slash[1]))
		return -EINVAL;
	errno = 0;
	plen = strtoul(slash + 1, &end, 10);
	if (errno || *end || plen > p->ip.len * 8U)
		return -EINVAL;
	p->plen = (uint8_t)plen;
	return 0;
}

bool nl_ifname_ok(const char *name)
{
	size_t n = strnlen(name, IFNAMSIZ);

	if (n == 0 || n >= IFNAMSIZ || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (; *name; name++)
		if (*name == '/' || *name == ':' || isspace((unsigned char)*name))
			return false;
	return true;
}

static struct nlmsghdr *request(void *buf, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh;

	memset(buf, 0, NL_BUF_SIZE);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	return nlh;
}

static struct ifinfomsg *link_header(struct nlmsghdr *nlh, int ifindex)
{
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));

	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	return ifi;
}

/* What both ends of a veth say of themselves. */
static void veth_end(struct nlmsghdr *nlh, const struct nl_veth_end *e, int ns_fd)
{
	mnl_attr_put_strz(nlh, IFLA_IFNAME, e->ifname);
	if (e->mtu)
		mnl_attr_put_u32(nlh, IFLA_MTU, e->mtu);
	if (ns_fd >= 0)
		mnl_attr_put_u32(nlh, IFLA_NET_NS_FD, (uint32_t)ns_fd);
	if (e->mac)
		mnl_attr_put(nlh, IFLA_ADDRESS, 6, e->mac);
}

/* The peer is a link message of its own (an ifinfomsg and its
 * attributes) nested in the first end's VETH_INFO_PEER. */
struct nlmsghdr *nl_msg_veth(void *buf, const struct nl_veth_end *a, int a_ns_fd,
			     const struct nl_veth_end *b, int b_ns_fd)
{
	struct nlmsghdr *nlh = request(buf, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	struct nlattr *info, *data, *peer;

	link_header(nlh, 0);
	veth_end(nlh, a, a_ns_fd);
	info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "veth");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	peer = mnl_attr_nest_start(nlh, VETH_INFO_PEER);
	link_header(nlh, 0);
	veth_end(nlh, b, b_ns_fd);
	mnl_attr_nest_end(nlh, peer);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, info);
	return nlh;
}

struct nlmsghdr *nl_msg_link_set(void *buf, int ifindex, unsigned int mtu, bool up, int master)
{
	struct nlmsghdr *nlh = request(buf, RTM_NEWLINK, 0);
	struct ifinfomsg *ifi = link_header(nlh, ifindex);

	if (up) {
		ifi->ifi_flags = IFF_UP;
		ifi->ifi_change = IFF_UP;
	}
	if (mtu)
		mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	if (master)
		mnl_attr_put_u32(nlh, IFLA_MASTER, (uint32_t)master);
	return nlh;
}

struct nlmsghdr *nl_msg_link_delete(void *buf, int ifindex)
{
	struct nlmsghdr *nlh = request(buf, RTM_DELLINK, 0);

	link_header(nlh, ifindex);
	return nlh;
}

/* No STP and no forwarding delay: the bridge forwards from the first
 * frame. */
struct nlmsghdr *nl_msg_bridge(void *buf, const char *name, unsigned int mtu)
{
	struct nlmsghdr *nlh = request(buf, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	struct nlattr *info, *data;

	link_header(nlh, 0);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	if (mtu)
		mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bridge");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	mnl_attr_put_u32(nlh, IFLA_BR_FORWARD_DELAY, 0);
	mnl_attr_put_u32(nlh, IFLA_BR_STP_STATE, 0);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, info);
	return nlh;
}

/* As ip addr add does for an address without a peer: local and address
 * the same. */
struct nlmsghdr *nl_msg_addr(void *buf, int ifindex, const struct nl_prefix *p)
{
	struct nlmsghdr *nlh = request(buf, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL);
	struct ifaddrmsg *ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));

	ifa->ifa_family = (uint8_t)p->ip.family;
	ifa->ifa_prefixlen = p->plen;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	ifa->ifa_index = (uint32_t)ifindex;
	mnl_attr_put(nlh, IFA_LOCAL, p->ip.len, p->ip.addr);
	mnl_attr_put(nlh, IFA_ADDRESS, p->ip.len, p->ip.addr);
	return nlh;
}

struct nlmsghdr *nl_msg_neigh(void *buf, int ifindex, const struct nl_ip *ip, const uint8_t mac[6])
{
	struct nlmsghdr *nlh = request(buf, RTM_NEWNEIGH, NLM_F_CREATE | NLM_F_REPLACE);
	struct ndmsg *nd = mnl_nlmsg_put_extra_header(nlh, sizeof(*nd));

	nd->ndm_family = (uint8_t)ip->family;
	nd->ndm_ifindex = ifindex;
	nd->ndm_state = NUD_PERMANENT;
	mnl_attr_put(nlh, NDA_DST, ip->len, ip->addr);
	mnl_attr_put(nlh, NDA_LLADDR, 6, mac);
	return nlh;
}

/* A unicast route of the main table, by the protocol ip route add gives
 * one (boot). */
struct nlmsghdr *nl_msg_route(void *buf, const struct nl_prefix *dst, const struct nl_ip *via,
			      int ifindex)
{
	struct nlmsghdr *nlh = request(buf, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL);
	struct rtmsg *rt = mnl_nlmsg_put_extra_header(nlh, sizeof(*rt));

	rt->rtm_family = (uint8_t)dst->ip.family;
	rt->rtm_dst_len = dst->plen;
	rt->rtm_table = RT_TABLE_MAIN;
	rt->rtm_protocol = RTPROT_BOOT;
	rt->rtm_scope = RT_SCOPE_UNIVERSE;
	rt->rtm_type = RTN_UNICAST;
	if (dst->plen)
		mnl_attr_put(nlh, RTA_DST, dst->ip.len, dst->ip.addr);
	mnl_attr_put(nlh, RTA_GATEWAY, via->len, via->addr);
	mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t)ifindex);
	return nlh;
}

struct nlmsghdr *nl_msg_link_dump(void *buf)
{
	struct nlmsghdr *nlh = request(buf, RTM_GETLINK, NLM_F_DUMP);

	nlh->nlmsg_flags &= (uint16_t)~NLM_F_ACK;
	link_header(nlh, 0);
	return nlh;
}

static int link_attr(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(attr);

	if (type <= IFLA_MAX)
		tb[type] = attr;
	return MNL_CB_OK;
}

/* The native program: alone it is IFLA_XDP_PROG_ID with ATTACHED_DRV;
 * beside one of another mode, IFLA_XDP_DRV_PROG_ID. */
static uint32_t xdp_native(const struct nlattr *xdp)
{
	const struct nlattr *tb[IFLA_XDP_MAX + 1] = { 0 };

	if (!xdp || mnl_attr_parse_nested(xdp, link_attr, tb) != MNL_CB_OK)
		return 0;
	if (tb[IFLA_XDP_DRV_PROG_ID] && mnl_attr_get_payload_len(tb[IFLA_XDP_DRV_PROG_ID]) >= 4)
		return mnl_attr_get_u32(tb[IFLA_XDP_DRV_PROG_ID]);
	if (tb[IFLA_XDP_ATTACHED] && mnl_attr_get_payload_len(tb[IFLA_XDP_ATTACHED]) >= 1 &&
	    mnl_attr_get_u8(tb[IFLA_XDP_ATTACHED]) == XDP_ATTACHED_DRV && tb[IFLA_XDP_PROG_ID] &&
	    mnl_attr_get_payload_len(tb[IFLA_XDP_PROG_ID]) >= 4)
		return mnl_attr_get_u32(tb[IFLA_XDP_PROG_ID]);
	return 0;
}

int nl_link_parse(const struct nlmsghdr *nlh, struct nl_link *l)
{
	const struct nlattr *tb[IFLA_MAX + 1] = { 0 };
	struct rtnl_link_stats64 st;
	const struct ifinfomsg *ifi;

	memset(l, 0, sizeof(*l));
	if ((nlh->nlmsg_type != RTM_NEWLINK && nlh->nlmsg_type != RTM_DELLINK) ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifi))
		return -EINVAL;
	ifi = mnl_nlmsg_get_payload(nlh);
	if (mnl_attr_parse(nlh, sizeof(*ifi), link_attr, tb) != MNL_CB_OK)
		return -EINVAL;
	l->ifindex = ifi->ifi_index;
	l->gone = nlh->nlmsg_type == RTM_DELLINK;
	l->up = ifi->ifi_flags & IFF_UP;
	if (tb[IFLA_IFNAME] && !mnl_attr_validate(tb[IFLA_IFNAME], MNL_TYPE_NUL_STRING))
		snprintf(l->ifname, sizeof(l->ifname), "%s", mnl_attr_get_str(tb[IFLA_IFNAME]));
	l->xdp_prog = xdp_native(tb[IFLA_XDP]);
	if (tb[IFLA_STATS64] && mnl_attr_get_payload_len(tb[IFLA_STATS64]) >= sizeof(st)) {
		memcpy(&st, mnl_attr_get_payload(tb[IFLA_STATS64]), sizeof(st));
		l->stats = true;
		l->rx_packets = st.rx_packets;
		l->tx_packets = st.tx_packets;
	}
	return 0;
}

static int ext_attr(const struct nlattr *attr, void *data)
{
	char *ext = data;

	if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
		snprintf(ext, NL_EXT_MAX, "%s", mnl_attr_get_str(attr));
	return MNL_CB_OK;
}

/* The explanation follows the error and, unless the kernel capped it,
 * the request it answers. */
static void ack_ext(const struct nlmsghdr *nlh, const struct nlmsgerr *e, char *ext)
{
	size_t off = sizeof(*e);

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		if (e->msg.nlmsg_len < sizeof(e->msg))
			return;
		off += e->msg.nlmsg_len - sizeof(e->msg);
	}
	if (off <= mnl_nlmsg_get_payload_len(nlh))
		mnl_attr_parse(nlh, (unsigned int)off, ext_attr, ext);
}

int nl_ack_read(const void *buf, size_t len, unsigned int seq, int *err, char ext[NL_EXT_MAX])
{
	const struct nlmsghdr *nlh = buf;
	const struct nlmsgerr *e;
	int n = (int)len;

	ext[0] = '\0';
	if (!mnl_nlmsg_ok(nlh, n))
		return -EPROTO;
	for (; mnl_nlmsg_ok(nlh, n); nlh = mnl_nlmsg_next(nlh, &n)) {
		if (nlh->nlmsg_seq != seq || nlh->nlmsg_type != NLMSG_ERROR)
			continue;
		if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e))
			return -EPROTO;
		e = mnl_nlmsg_get_payload(nlh);
		*err = e->error > 0 ? -e->error : e->error;
		if (*err)
			ack_ext(nlh, e, ext);
		return 1;
	}
	return 0;
}
