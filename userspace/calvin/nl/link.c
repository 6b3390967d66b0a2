// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Links through rtnetlink: veth pairs made straight in their namespaces,
 * bridges and their ports, up, MTU, delete. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "sock.h"
#include "util.h"

/* An fd of namespace ns for IFLA_NET_NS_FD; -1 for calvin's own (no
 * attribute: the end stays where the request is made). */
static int ns_fd(const char *ns, int *fd)
{
	char path[PATH_MAX];

	*fd = -1;
	if (!ns)
		return 0;
	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	return *fd < 0 ? -errno : 0;
}

static void show_end(char *out, size_t len, const struct nl_veth_end *e)
{
	char mtu[16] = "", mac[18] = "";

	if (e->mtu)
		snprintf(mtu, sizeof(mtu), "%u", e->mtu);
	if (e->mac)
		mac_str(e->mac, mac);
	snprintf(out, len, "%s%s%s%s%s%s%s", e->ifname, mtu[0] ? " mtu " : "", mtu,
		 mac[0] ? " address " : "", mac, e->ns ? " netns " : "", e->ns ? e->ns : "");
}

int nl_veth_add(const struct nl_veth_end *a, const struct nl_veth_end *b)
{
	char buf[NL_BUF_SIZE], sa[128], sb[128], in_b[160];
	int fa = -1, fb = -1, err;
	struct nl_sock s = { .fd = -1 };

	show_end(sa, sizeof(sa), a);
	show_end(sb, sizeof(sb), b);
	nl_show(NULL, "link add %s type veth peer name %s", sa, sb);
	err = nl_ifname_ok(a->ifname) && nl_ifname_ok(b->ifname) ? 0 : -EINVAL;
	if (!err)
		err = ns_fd(a->ns, &fa);
	if (!err)
		err = ns_fd(b->ns, &fb);
	if (!err)
		err = nl_open(&s, NULL);
	if (!err)
		err = nl_talk(&s, nl_msg_veth(buf, a, fa, b, fb));
	nl_close(&s);
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	snprintf(in_b, sizeof(in_b), "%s%s", b->ns ? " in " : "", b->ns ? b->ns : "");
	return nl_fail(err, &s, NULL, "add veth %s%s%s (peer %s%s)", a->ifname, a->ns ? " in " : "",
		       a->ns ? a->ns : "", b->ifname, in_b);
}

/* A request about one link of namespace ns (and, for master, a second). */
static int link_set(const char *ns, const char *ifname, unsigned int mtu, bool up,
		    const char *master, struct nl_sock *s)
{
	char buf[NL_BUF_SIZE];
	int ifindex, mindex = 0, err;

	err = nl_open(s, ns);
	if (err)
		return err;
	ifindex = nl_ifindex(s, ifname);
	if (ifindex < 0)
		return ifindex;
	if (master) {
		mindex = nl_ifindex(s, master);
		if (mindex < 0)
			return mindex;
	}
	return nl_talk(s, nl_msg_link_set(buf, ifindex, mtu, up, mindex));
}

int nl_link_up(const char *ns, const char *ifname, unsigned int mtu)
{
	struct nl_sock s = { .fd = -1 };
	char mtus[24] = "";
	int err;

	if (mtu)
		snprintf(mtus, sizeof(mtus), " mtu %u", mtu);
	nl_show(ns, "link set %s%s up", ifname, mtus);
	err = link_set(ns, ifname, mtu, true, NULL, &s);
	nl_close(&s);
	return nl_fail(err, &s, ns, "set %s%s up", ifname, mtus);
}

int nl_link_master(const char *ns, const char *ifname, const char *master)
{
	struct nl_sock s = { .fd = -1 };
	int err;

	nl_show(ns, "link set %s master %s", ifname, master);
	err = link_set(ns, ifname, 0, false, master, &s);
	nl_close(&s);
	return nl_fail(err, &s, ns, "set %s master %s", ifname, master);
}

/* gone: -ENODEV is 0, unsaid (a veth end goes with its peer's namespace,
 * some time after it) */
static int link_delete(const char *ns, const char *ifname, bool gone)
{
	char buf[NL_BUF_SIZE];
	struct nl_sock s = { .fd = -1 };
	int err, ifindex;

	nl_show(ns, "link delete %s", ifname);
	err = nl_open(&s, ns);
	if (!err) {
		ifindex = nl_ifindex(&s, ifname);
		err = ifindex < 0 ? ifindex : nl_talk(&s, nl_msg_link_delete(buf, ifindex));
	}
	nl_close(&s);
	if (gone && err == -ENODEV)
		return 0;
	return nl_fail(err, &s, ns, "delete %s", ifname);
}

int nl_link_delete(const char *ns, const char *ifname)
{
	return link_delete(ns, ifname, false);
}

int nl_link_delete_gone(const char *ns, const char *ifname)
{
	return link_delete(ns, ifname, true);
}

int nl_bridge_add(const char *ns, const char *name, unsigned int mtu)
{
	char buf[NL_BUF_SIZE];
	struct nl_sock s = { .fd = -1 };
	int err;

	nl_show(ns, "link add name %s mtu %u type bridge forward_delay 0 stp_state 0", name, mtu);
	err = nl_ifname_ok(name) ? nl_open(&s, ns) : -EINVAL;
	if (!err)
		err = nl_talk(&s, nl_msg_bridge(buf, name, mtu));
	nl_close(&s);
	return nl_fail(err, &s, ns, "add bridge %s", name);
}
