/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Links between hosts as OVN logical switches, made in the northbound
 * database through ovn-nbctl (nbctl.c runs it; link.c the switches and
 * ports, journalled before they are made, and their removal by `down`).
 *
 * Why ovn-nbctl and not the OVSDB protocol (RFC 7047) over json-c:
 * ovn-nbctl is OVN's own client of that protocol, shipped with it
 * (ovn-common), and speaks ssl: remotes with the chain's key files;
 * calvin would otherwise need a TLS client outside its one crypto file
 * and its own transaction code for what one argv says. It is run by its
 * absolute path with an argv, never a shell, so no value of a chain file
 * becomes a command. */
#ifndef CALVIN_OVN_H
#define CALVIN_OVN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spec/spec.h"
#include "state.h"

/* A UUID in text, what a logical switch port is named by (libvirt's
 * virtualport takes only a UUID as its interfaceid). */
#define OVN_UUID_LEN 36

/* How to reach a northbound database: a chain's ovn section, or a
 * journal entry's remote alone (tcp: and unix:; an ssl: one needs its
 * files, which `down` reads from the deployed chain). */
struct ovn_nb {
	char remote[CALVIN_URI_MAX];
	const char *private_key, *certificate, *ca_cert; /* ssl only */
};

void ovn_nb_of_spec(struct ovn_nb *nb, const struct calvin_ovn_spec *o);

/* ovn-nbctl --db=REMOTE ARGS... with a deadline of timeout_s; its
 * stdout (trimmed) into out. 0, -ENOENT (not installed), -ETIMEDOUT, or
 * -EIO, with a line in err. */
int ovn_nbctl(const struct ovn_nb *nb, unsigned int timeout_s, const char *const args[], char *out,
	      size_t out_len, char *err, size_t err_len);

/* A link between hosts: a logical switch calvin-CHAIN-LINK with two
 * ports (addresses "unknown", no port security: VNFs forward frames that
 * are not theirs), each named by a fresh UUID (ports[]), all tagged
 * external_ids:calvin-chain=CHAIN and journalled before they are made.
 * Returns 0 or -errno with one line said. */
int ovn_link_create(struct chain_state *s, const struct ovn_nb *nb, const char *chain,
		    const char *link, char ports[2][OVN_UUID_LEN + 1]);
/* Wait until every port is up (bound to its chassis: the NB's
 * Logical_Switch_Port up=true), at most deadline_ms. 0, or -ETIMEDOUT
 * with one line naming the first port that is not. */
int ovn_ports_wait_up(const struct ovn_nb *nb, char ports[][OVN_UUID_LEN + 1], unsigned int nr,
		      unsigned int deadline_ms);
/* Remove the switches and ports the journal names that are the chain's
 * (tagged with it); harmless to repeat. When the database cannot be
 * reached, says in one line what is left and where, and returns -EAGAIN:
 * the journal stays for a later `down`. */
int ovn_links_destroy(struct chain_state *s);

/* nbctl.c: ovs-vsctl --db=DB --timeout=N ARGS..., as ovn_nbctl(). */
int ovs_vsctl(const char *db, unsigned int timeout_s, const char *const args[], char *out,
	      size_t out_len, char *err, size_t err_len);

/* local.c: this host's Open vSwitch, which its namespaces join OVN
 * through: CALVIN_OVS_DB (default unix:/run/openvswitch/db.sock) in the
 * network namespace CALVIN_OVS_NETNS (default: calvin's own). 0, or
 * -EINVAL with one line said. */
struct ovs_local {
	char db[256];
	char netns[64]; /* "" here */
	char bridge[16];
};
int ovs_local(struct ovs_local *o);
/* A node's interface on a link between hosts. */
struct ovs_join {
	const char *chain;
	const char *node_ns, *ifname; /* the node's namespace and interface */
	const uint8_t *mac;	      /* its MAC */
	const char *port;	      /* the bridge's end (an interface name) */
	const char *lsp;	      /* the OVN logical switch port it binds */
	unsigned int mtu;
};
/* Journal the port, make the veth (checksums in software at both ends:
 * OVS's userspace datapath does not fill them in), and add its end to the
 * bridge with external_ids:iface-id=LSP. 0 or -errno with one line. */
int ovs_port_join(struct chain_state *s, const struct ovs_local *o, const struct ovs_join *j);
/* down: every journalled port off its bridge, its veth deleted. A
 * database that does not answer: one line of what is left where,
 * -EAGAIN (the journal stays). */
int ovs_ports_destroy(struct chain_state *s);

#endif /* CALVIN_OVN_H */
