// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Addresses, static neighbours and routes through rtnetlink. */
#include <errno.h>
#include <stdio.h>

#include "sock.h"
#include "util.h"

/* Open ns, find ifname there: its index, or -errno. */
static int open_dev(struct nl_sock *s, const char *ns, const char *ifname)
{
	int err = nl_open(s, ns);

	return err ? err : nl_ifindex(s, ifname);
}

int nl_addr_add(const char *ns, const char *ifname, const char *cidr)
{
	char buf[NL_BUF_SIZE];
	struct nl_sock s = { .fd = -1 };
	struct nl_prefix p;
	int err;

	nl_show(ns, "addr add %s dev %s", cidr, ifname);
	err = nl_parse_prefix(cidr, &p);
	if (!err)
		err = open_dev(&s, ns, ifname);
	if (err >= 0)
		err = nl_talk(&s, nl_msg_addr(buf, err, &p));
	nl_close(&s);
	return nl_fail(err, &s, ns, "add address %s to %s", cidr, ifname);
}

int nl_neigh_permanent(const char *ns, const char *ifname, const char *addr, const uint8_t mac[6])
{
	char buf[NL_BUF_SIZE], macs[18];
	struct nl_sock s = { .fd = -1 };
	struct nl_ip ip;
	int err;

	mac_str(mac, macs);
	nl_show(ns, "neigh replace %s lladdr %s dev %s nud permanent", addr, macs, ifname);
	err = nl_parse_ip(addr, &ip);
	if (!err)
		err = open_dev(&s, ns, ifname);
	if (err >= 0)
		err = nl_talk(&s, nl_msg_neigh(buf, err, &ip, mac));
	nl_close(&s);
	return nl_fail(err, &s, ns, "set neighbour %s lladdr %s on %s", addr, macs, ifname);
}

int nl_route_add(const char *ns, const char *prefix, const char *via, const char *ifname)
{
	char buf[NL_BUF_SIZE];
	struct nl_sock s = { .fd = -1 };
	struct nl_prefix dst;
	struct nl_ip gw;
	int err;

	nl_show(ns, "route add %s via %s dev %s", prefix, via, ifname);
	err = nl_parse_prefix(prefix, &dst);
	if (!err)
		err = nl_parse_ip(via, &gw);
	if (!err && gw.family != dst.ip.family)
		err = -EAFNOSUPPORT;
	if (!err)
		err = open_dev(&s, ns, ifname);
	if (err >= 0)
		err = nl_talk(&s, nl_msg_route(buf, &dst, &gw, err));
	nl_close(&s);
	return nl_fail(err, &s, ns, "add route %s via %s dev %s", prefix, via, ifname);
}
