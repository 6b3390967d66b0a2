// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the netlink module's requests (userspace/calvin/nl/msg.c),
 * read back attribute by attribute as the kernel would, and of the reading
 * of its acks: errors, the kernel's explanation, acks of other requests.
 * tests/integration/test_netlink.sh sends them to the real kernel. */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "nl/msg.h"

/* Attributes of one level by type; a type seen twice fails the test. */
struct attrs {
	const struct nlattr *a[64];
};

static int put_attr(const struct nlattr *attr, void *data)
{
	struct attrs *t = data;
	uint16_t type = mnl_attr_get_type(attr);

	assert_true(type < 64);
	assert_null(t->a[type]);
	t->a[type] = attr;
	return MNL_CB_OK;
}

static void parse(const struct nlmsghdr *nlh, size_t hdr, struct attrs *t)
{
	memset(t, 0, sizeof(*t));
	assert_int_equal(mnl_attr_parse(nlh, (unsigned int)hdr, put_attr, t), MNL_CB_OK);
}

static void parse_nested(const struct nlattr *nest, struct attrs *t)
{
	assert_non_null(nest);
	memset(t, 0, sizeof(*t));
	assert_int_equal(mnl_attr_parse_nested(nest, put_attr, t), MNL_CB_OK);
}

static const uint8_t mac[6] = { 0x02, 0xca, 0x11, 0x00, 0x00, 0x07 };

static void test_veth(void **state)
{
	struct nl_veth_end a = { .ifname = "east", .mtu = 1600, .ns = "calvin-c.a" };
	struct nl_veth_end b = { .ifname = "west", .mtu = 1500, .ns = "calvin-c.b", .mac = mac };
	char buf[NL_BUF_SIZE];
	struct nlmsghdr *nlh = nl_msg_veth(buf, &a, 7, &b, 9);
	struct attrs t, info, data, peer;
	const struct nlattr *p;

	assert_int_equal(nlh->nlmsg_type, RTM_NEWLINK);
	assert_int_equal(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL);
	parse(nlh, sizeof(struct ifinfomsg), &t);
	assert_string_equal(mnl_attr_get_str(t.a[IFLA_IFNAME]), "east");
	assert_int_equal(mnl_attr_get_u32(t.a[IFLA_MTU]), 1600);
	assert_int_equal(mnl_attr_get_u32(t.a[IFLA_NET_NS_FD]), 7);
	assert_null(t.a[IFLA_ADDRESS]);
	parse_nested(t.a[IFLA_LINKINFO], &info);
	assert_string_equal(mnl_attr_get_str(info.a[IFLA_INFO_KIND]), "veth");
	parse_nested(info.a[IFLA_INFO_DATA], &data);
	/* the peer: an ifinfomsg, then its own attributes */
	p = data.a[VETH_INFO_PEER];
	assert_non_null(p);
	assert_true(mnl_attr_get_payload_len(p) > sizeof(struct ifinfomsg));
	memset(&peer, 0, sizeof(peer));
	assert_int_equal(
	    mnl_attr_parse_payload((const char *)mnl_attr_get_payload(p) + sizeof(struct ifinfomsg),
				   mnl_attr_get_payload_len(p) - sizeof(struct ifinfomsg), put_attr,
				   &peer),
	    MNL_CB_OK);
	assert_string_equal(mnl_attr_get_str(peer.a[IFLA_IFNAME]), "west");
	assert_int_equal(mnl_attr_get_u32(peer.a[IFLA_MTU]), 1500);
	assert_int_equal(mnl_attr_get_u32(peer.a[IFLA_NET_NS_FD]), 9);
	assert_memory_equal(mnl_attr_get_payload(peer.a[IFLA_ADDRESS]), mac, 6);
}

/* An end without a namespace stays where the request is made. */
static void test_veth_here(void **state)
{
	struct nl_veth_end a = { .ifname = "cv0" }, b = { .ifname = "cv1" };
	char buf[NL_BUF_SIZE];
	struct attrs t;

	parse(nl_msg_veth(buf, &a, -1, &b, -1), sizeof(struct ifinfomsg), &t);
	assert_null(t.a[IFLA_NET_NS_FD]);
	assert_null(t.a[IFLA_MTU]);
}

static void test_link_set(void **state)
{
	char buf[NL_BUF_SIZE];
	struct nlmsghdr *nlh = nl_msg_link_set(buf, 42, 1600, true, 0);
	struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	struct attrs t;

	assert_int_equal(nlh->nlmsg_type, RTM_NEWLINK);
	assert_int_equal(nlh->nlmsg_flags & (NLM_F_CREATE | NLM_F_EXCL), 0);
	assert_int_equal(ifi->ifi_index, 42);
	assert_int_equal(ifi->ifi_flags, IFF_UP);
	assert_int_equal(ifi->ifi_change, IFF_UP);
	parse(nlh, sizeof(*ifi), &t);
	assert_int_equal(mnl_attr_get_u32(t.a[IFLA_MTU]), 1600);
	assert_null(t.a[IFLA_MASTER]);

	/* master alone: no flag changes, no MTU */
	nlh = nl_msg_link_set(buf, 5, 0, false, 9);
	ifi = mnl_nlmsg_get_payload(nlh);
	assert_int_equal(ifi->ifi_change, 0);
	parse(nlh, sizeof(*ifi), &t);
	assert_int_equal(mnl_attr_get_u32(t.a[IFLA_MASTER]), 9);
	assert_null(t.a[IFLA_MTU]);
}

static void test_link_delete(void **state)
{
	char buf[NL_BUF_SIZE];
	struct nlmsghdr *nlh = nl_msg_link_delete(buf, 13);

	assert_int_equal(nlh->nlmsg_type, RTM_DELLINK);
	assert_int_equal(((struct ifinfomsg *)mnl_nlmsg_get_payload(nlh))->ifi_index, 13);
}

static void test_bridge(void **state)
{
	char buf[NL_BUF_SIZE];
	struct attrs t, info, data;

	parse(nl_msg_bridge(buf, "cvb0", 1600), sizeof(struct ifinfomsg), &t);
	assert_string_equal(mnl_attr_get_str(t.a[IFLA_IFNAME]), "cvb0");
	assert_int_equal(mnl_attr_get_u32(t.a[IFLA_MTU]), 1600);
	parse_nested(t.a[IFLA_LINKINFO], &info);
	assert_string_equal(mnl_attr_get_str(info.a[IFLA_INFO_KIND]), "bridge");
	parse_nested(info.a[IFLA_INFO_DATA], &data);
	assert_non_null(data.a[IFLA_BR_FORWARD_DELAY]);
	assert_int_equal(mnl_attr_get_u32(data.a[IFLA_BR_FORWARD_DELAY]), 0);
	assert_non_null(data.a[IFLA_BR_STP_STATE]);
	assert_int_equal(mnl_attr_get_u32(data.a[IFLA_BR_STP_STATE]), 0);
}

static void test_addr(void **state)
{
	char buf[NL_BUF_SIZE];
	struct nl_prefix p;
	struct nlmsghdr *nlh;
	struct ifaddrmsg *ifa;
	uint8_t want[4] = { 10, 70, 0, 1 };
	struct attrs t;

	assert_int_equal(nl_parse_prefix("10.70.0.1/24", &p), 0);
	nlh = nl_msg_addr(buf, 3, &p);
	ifa = mnl_nlmsg_get_payload(nlh);
	assert_int_equal(nlh->nlmsg_type, RTM_NEWADDR);
	assert_int_equal(ifa->ifa_family, AF_INET);
	assert_int_equal(ifa->ifa_prefixlen, 24);
	assert_int_equal(ifa->ifa_index, 3);
	parse(nlh, sizeof(*ifa), &t);
	assert_int_equal(mnl_attr_get_payload_len(t.a[IFA_LOCAL]), 4);
	assert_memory_equal(mnl_attr_get_payload(t.a[IFA_LOCAL]), want, 4);
	assert_memory_equal(mnl_attr_get_payload(t.a[IFA_ADDRESS]), want, 4);
}

static void test_neigh(void **state)
{
	char buf[NL_BUF_SIZE];
	struct nl_ip ip;
	struct nlmsghdr *nlh;
	struct ndmsg *nd;
	uint8_t want[4] = { 10, 70, 0, 2 };
	struct attrs t;

	assert_int_equal(nl_parse_ip("10.70.0.2", &ip), 0);
	nlh = nl_msg_neigh(buf, 4, &ip, mac);
	nd = mnl_nlmsg_get_payload(nlh);
	assert_int_equal(nlh->nlmsg_type, RTM_NEWNEIGH);
	/* replace: a neighbour learnt meanwhile is overwritten, not an error */
	assert_int_equal(nlh->nlmsg_flags & (NLM_F_CREATE | NLM_F_REPLACE | NLM_F_EXCL),
			 NLM_F_CREATE | NLM_F_REPLACE);
	assert_int_equal(nd->ndm_state, NUD_PERMANENT);
	assert_int_equal(nd->ndm_ifindex, 4);
	parse(nlh, sizeof(*nd), &t);
	assert_memory_equal(mnl_attr_get_payload(t.a[NDA_DST]), want, 4);
	assert_memory_equal(mnl_attr_get_payload(t.a[NDA_LLADDR]), mac, 6);
}

static void test_route(void **state)
{
	char buf[NL_BUF_SIZE];
	struct nl_prefix dst;
	struct nl_ip via;
	struct nlmsghdr *nlh;
	struct rtmsg *rt;
	uint8_t net[4] = { 10, 71, 3, 0 };
	struct attrs t;

	assert_int_equal(nl_parse_prefix("10.71.3.0/24", &dst), 0);
	assert_int_equal(nl_parse_ip("10.71.2.1", &via), 0);
	nlh = nl_msg_route(buf, &dst, &via, 6);
	rt = mnl_nlmsg_get_payload(nlh);
	assert_int_equal(rt->rtm_dst_len, 24);
	assert_int_equal(rt->rtm_table, RT_TABLE_MAIN);
	assert_int_equal(rt->rtm_protocol, RTPROT_BOOT);
	assert_int_equal(rt->rtm_type, RTN_UNICAST);
	parse(nlh, sizeof(*rt), &t);
	assert_memory_equal(mnl_attr_get_payload(t.a[RTA_DST]), net, 4);
	assert_int_equal(mnl_attr_get_u32(t.a[RTA_OIF]), 6);
	assert_non_null(t.a[RTA_GATEWAY]);

	/* default: no destination at all */
	assert_int_equal(nl_parse_prefix("default", &dst), 0);
	nlh = nl_msg_route(buf, &dst, &via, 6);
	assert_int_equal(((struct rtmsg *)mnl_nlmsg_get_payload(nlh))->rtm_dst_len, 0);
	parse(nlh, sizeof(*rt), &t);
	assert_null(t.a[RTA_DST]);
}

static void test_parse(void **state)
{
	static const char *const bad[] = { "10.0.0.1/33",  "10.0.0.1/",	  "x/24",
					   "10.0.0.1/24x", "10.0.0.1/-1", "",
					   "10.0.0/24",	   "fd00::1/129", "10.0.0.1 /24" };
	struct nl_prefix p;
	size_t i;

	assert_int_equal(nl_parse_prefix("fd00::1/64", &p), 0);
	assert_int_equal(p.ip.family, AF_INET6);
	assert_int_equal(p.plen, 64);
	assert_int_equal(nl_parse_prefix("10.0.0.1", &p), 0);
	assert_int_equal(p.plen, 32);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(nl_parse_prefix(bad[i], &p), -EINVAL);
}

static void test_ifname(void **state)
{
	assert_true(nl_ifname_ok("east"));
	assert_true(nl_ifname_ok("cv0123456789abc")); /* 15 bytes: the most */
	assert_false(nl_ifname_ok("cv0123456789abcd"));
	assert_false(nl_ifname_ok(""));
	assert_false(nl_ifname_ok("a/b"));
	assert_false(nl_ifname_ok("a b"));
	assert_false(nl_ifname_ok("a:1"));
	assert_false(nl_ifname_ok(".."));
}

/* An NLMSG_ERROR for request seq, as the kernel writes one: the error,
 * the request (only its header when capped), then the explanation. */
static size_t error_msg(void *buf, unsigned int seq, int error, bool capped, const char *ext)
{
	char req[NL_BUF_SIZE];
	struct nlmsghdr *orig = nl_msg_link_delete(req, 1), *nlh;
	struct nlmsgerr *e;

	memset(buf, 0, NL_BUF_SIZE);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_seq = seq;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = error;
	memcpy(&e->msg, orig, sizeof(*orig));
	if (!capped)
		memcpy(mnl_nlmsg_put_extra_header(nlh, orig->nlmsg_len - sizeof(*orig)),
		       (char *)orig + sizeof(*orig), orig->nlmsg_len - sizeof(*orig));
	nlh->nlmsg_flags = capped ? NLM_F_CAPPED : 0;
	if (ext) {
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, ext);
	}
	return nlh->nlmsg_len;
}

static void test_ack(void **state)
{
	char buf[2 * NL_BUF_SIZE], ext[NL_EXT_MAX];
	size_t n;
	int err = 1;

	n = error_msg(buf, 5, 0, true, NULL);
	assert_int_equal(nl_ack_read(buf, n, 5, &err, ext), 1);
	assert_int_equal(err, 0);

	n = error_msg(buf, 5, -EEXIST, true, "device already exists");
	assert_int_equal(nl_ack_read(buf, n, 5, &err, ext), 1);
	assert_int_equal(err, -EEXIST);
	assert_string_equal(ext, "device already exists");

	n = error_msg(buf, 6, -EINVAL, false, "bad MTU");
	assert_int_equal(nl_ack_read(buf, n, 6, &err, ext), 1);
	assert_int_equal(err, -EINVAL);
	assert_string_equal(ext, "bad MTU");

	/* no explanation: an empty one */
	n = error_msg(buf, 7, -ENODEV, false, NULL);
	assert_int_equal(nl_ack_read(buf, n, 7, &err, ext), 1);
	assert_string_equal(ext, "");

	/* the ack of another request is not ours */
	n = error_msg(buf, 8, -EPERM, true, NULL);
	assert_int_equal(nl_ack_read(buf, n, 9, &err, ext), 0);

	/* two in one datagram: ours second */
	n = error_msg(buf, 1, -EPERM, true, NULL);
	n += error_msg(buf + n, 2, -EBUSY, true, NULL);
	assert_int_equal(nl_ack_read(buf, n, 2, &err, ext), 1);
	assert_int_equal(err, -EBUSY);

	/* not netlink at all */
	memset(buf, 0xff, 8);
	assert_int_equal(nl_ack_read(buf, 8, 1, &err, ext), -EPROTO);
}

/* A link message as the kernel sends one: its flags, name and XDP nest
 * (attached mode, and the ids it gives for that mode). */
static struct nlmsghdr *link_msg(void *buf, uint16_t type, unsigned int flags, uint8_t attached,
				 uint16_t id_attr, uint32_t id)
{
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;
	struct nlattr *xdp;

	memset(buf, 0, NL_BUF_SIZE);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_index = 5;
	ifi->ifi_flags = flags;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, "west");
	xdp = mnl_attr_nest_start(nlh, IFLA_XDP);
	mnl_attr_put_u8(nlh, IFLA_XDP_ATTACHED, attached);
	if (id_attr)
		mnl_attr_put_u32(nlh, id_attr, id);
	mnl_attr_nest_end(nlh, xdp);
	return nlh;
}

static void test_link_watch(void **state)
{
	char buf[NL_BUF_SIZE];
	struct nlmsghdr *nlh = nl_msg_link_dump(buf);
	struct nl_link l;

	assert_int_equal(nlh->nlmsg_type, RTM_GETLINK);
	assert_int_equal(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);

	/* a native program, alone */
	nlh = link_msg(buf, RTM_NEWLINK, IFF_UP, XDP_ATTACHED_DRV, IFLA_XDP_PROG_ID, 42);
	assert_int_equal(nl_link_parse(nlh, &l), 0);
	assert_int_equal(l.ifindex, 5);
	assert_string_equal(l.ifname, "west");
	assert_true(l.up);
	assert_false(l.gone);
	assert_int_equal(l.xdp_prog, 42);

	assert_false(l.stats);

	/* with its counters */
	{
		struct rtnl_link_stats64 st = { .rx_packets = 7, .tx_packets = 9 };

		mnl_attr_put(nlh, IFLA_STATS64, sizeof(st), &st);
		assert_int_equal(nl_link_parse(nlh, &l), 0);
		assert_true(l.stats);
		assert_int_equal(l.rx_packets, 7);
		assert_int_equal(l.tx_packets, 9);
	}

	/* a generic program is not the native one the chain attached */
	nlh = link_msg(buf, RTM_NEWLINK, 0, XDP_ATTACHED_SKB, IFLA_XDP_PROG_ID, 43);
	assert_int_equal(nl_link_parse(nlh, &l), 0);
	assert_false(l.up);
	assert_int_equal(l.xdp_prog, 0);

	/* several modes: the native one by its own attribute */
	nlh = link_msg(buf, RTM_NEWLINK, IFF_UP, XDP_ATTACHED_MULTI, IFLA_XDP_DRV_PROG_ID, 44);
	assert_int_equal(nl_link_parse(nlh, &l), 0);
	assert_int_equal(l.xdp_prog, 44);

	/* none, and deleted */
	nlh = link_msg(buf, RTM_DELLINK, 0, XDP_ATTACHED_NONE, 0, 0);
	assert_int_equal(nl_link_parse(nlh, &l), 0);
	assert_true(l.gone);
	assert_int_equal(l.xdp_prog, 0);

	/* not a link message */
	nlh->nlmsg_type = RTM_NEWADDR;
	assert_int_equal(nl_link_parse(nlh, &l), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_veth),	 cmocka_unit_test(test_veth_here),
		cmocka_unit_test(test_link_set), cmocka_unit_test(test_link_delete),
		cmocka_unit_test(test_bridge),	 cmocka_unit_test(test_addr),
		cmocka_unit_test(test_neigh),	 cmocka_unit_test(test_route),
		cmocka_unit_test(test_parse),	 cmocka_unit_test(test_ifname),
		cmocka_unit_test(test_ack),	 cmocka_unit_test(test_link_watch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
