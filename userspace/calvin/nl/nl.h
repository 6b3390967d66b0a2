/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Network configuration spoken in-process (rtnetlink through libmnl, the
 * tun and ethtool ioctls, namespaces as ip-netns(8) keeps them): what
 * calvin once ran `ip` and `ethtool` for. Both backends and the bench use
 * it.
 *
 * Every operation takes the network namespace it works in by name
 * (/run/netns/NAME; NULL: calvin's own), shows itself under -v in ip(8)
 * words ("+ ip -n NS link set west up"), and on failure says one line
 * ("calvin: Failed to add veth east in NS: File exists", with the kernel's
 * own explanation where it gives one) and returns -errno. */
#ifndef CALVIN_NL_H
#define CALVIN_NL_H

#include <stdbool.h>
#include <stdint.h>

/* ip netns add / delete: /run/netns/NAME, a bind mount of a namespace
 * made for it, under the shared mount iproute2 sets up, so that
 * `ip netns list` and `ip netns exec` see it. Delete unmounts it (the
 * kernel frees the namespace, and its veths, once nothing holds it) and
 * removes the name; a name that is only a file (a crash between the two
 * steps of add) goes too. */
int nl_netns_add(const char *name);
int nl_netns_delete(const char *name);

/* One end of a veth pair: its name, MTU, namespace (NULL: calvin's) and
 * MAC (NULL: the kernel picks one). */
struct nl_veth_end {
	const char *ifname;
	unsigned int mtu;
	const char *ns;
	const uint8_t *mac;
};
/* ip link add A mtu M [netns NS] type veth peer name B mtu M [address MAC]
 * [netns NS]: both ends made straight in their namespaces, down. */
int nl_veth_add(const struct nl_veth_end *a, const struct nl_veth_end *b);
/* ip link set IFNAME [mtu MTU] up; mtu 0 leaves it as it is. */
int nl_link_up(const char *ns, const char *ifname, unsigned int mtu);
/* ip link delete IFNAME */
int nl_link_delete(const char *ns, const char *ifname);
/* The same, and 0 when IFNAME is not there (a veth end goes with its
 * peer's namespace, some time after it). */
int nl_link_delete_gone(const char *ns, const char *ifname);
/* ip tuntap add dev NAME mode tap: a persistent tap of no owner, which a
 * VM opens later. */
int nl_tap_add(const char *name);
/* ip link add name NAME mtu MTU type bridge forward_delay 0 stp_state 0 */
int nl_bridge_add(const char *ns, const char *name, unsigned int mtu);
/* ip link set IFNAME master MASTER */
int nl_link_master(const char *ns, const char *ifname, const char *master);

/* ip addr add CIDR dev IFNAME ("10.70.0.1/24") */
int nl_addr_add(const char *ns, const char *ifname, const char *cidr);
/* ip neigh replace ADDR lladdr MAC dev IFNAME nud permanent */
int nl_neigh_permanent(const char *ns, const char *ifname, const char *addr, const uint8_t mac[6]);
/* ip route add PREFIX via GATEWAY dev IFNAME (PREFIX "10.71.3.0/24" or
 * "default") */
int nl_route_add(const char *ns, const char *prefix, const char *via, const char *ifname);
/* ethtool -K IFNAME tx off: transmit checksums in software, every kind
 * of them (IPv4, IPv6, generic, SCTP, FCoE), as ethtool's "tx" means. */
int nl_tx_csum_off(const char *ns, const char *ifname);

/* Watching links (watch.c, for the supervisor): a link as the kernel
 * announces it, added, changed or deleted. */
struct nl_link {
	int ifindex;
	char ifname[16];   /* IFNAMSIZ */
	bool gone;	   /* deleted (RTM_DELLINK) */
	bool up;	   /* administratively up (IFF_UP) */
	uint32_t xdp_prog; /* id of the XDP program attached in native mode; 0: none */
	bool stats;	   /* the kernel sent its counters: */
	uint64_t rx_packets, tx_packets;
};
/* A non-blocking rtnetlink socket made in namespace ns (NULL: calvin's),
 * member of RTNLGRP_LINK: its fd, or -errno. */
int nl_watch_open(const char *ns);
/* Ask for every link of fd's namespace: the answers come through
 * nl_watch_read() like changes. A driver need not announce an XDP
 * program that comes or goes, so a watcher of XDP asks again from time
 * to time. 0 or -errno. */
int nl_watch_dump(int fd);
/* Each link message waiting on fd, one call of cb each, until none is
 * left: 0; -ENOBUFS when the kernel dropped some (dump to know where
 * things stand), or -errno. */
int nl_watch_read(int fd, void (*cb)(const struct nl_link *l, void *arg), void *arg);

#endif /* CALVIN_NL_H */
