// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A namespace of calvin's own host joining a link between hosts: a veth
 * from the node's namespace to this host's Open vSwitch integration
 * bridge, whose Interface carries external_ids:iface-id = the OVN logical
 * switch port, so this host's ovn-controller binds the port to its
 * chassis. The Open vSwitch is the one at CALVIN_OVS_DB in the network
 * namespace CALVIN_OVS_NETNS (defaults: the system's, here); the
 * simulated hosts of tests/multihost give one of theirs. The port is
 * journalled (ovsport PORT[@NETNS] DB) before it is made; down deletes it
 * from the bridge and the veth with it. */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nl/nl.h"
#include "ovn.h"
#include "util.h"

#define OVS_TIMEOUT_S 10
#define OVS_DEFAULT_DB "unix:/run/openvswitch/db.sock"

/* A value from the environment calvin trusts as its caller's (root's):
 * still, only what names a socket or a namespace, nothing a tool would
 * read as an option. */
static const char *env_value(const char *name, const char *fallback, const char *allowed)
{
	const char *v = getenv(name);

	if (!v || !*v)
		return fallback;
	if (v[0] == '-' || strlen(v) >= 200 || strspn(v, allowed) != strlen(v))
		return NULL;
	return v;
}

int ovs_local(struct ovs_local *o)
{
	static const char path_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					 "0123456789._-/:";
	const char *db = env_value("CALVIN_OVS_DB", OVS_DEFAULT_DB, path_chars);
	const char *ns = env_value("CALVIN_OVS_NETNS", "", path_chars + 0);

	if (!db || !ns || strchr(ns, '/') || strchr(ns, ':')) {
		calvin_err(
		    "CALVIN_OVS_DB or CALVIN_OVS_NETNS holds characters calvin does not take "
		    "(a socket as unix:/PATH, a namespace name of letters, digits, . _ -)");
		return -EINVAL;
	}
	snprintf(o->db, sizeof(o->db), "%s", db);
	snprintf(o->netns, sizeof(o->netns), "%s", ns);
	snprintf(o->bridge, sizeof(o->bridge), "br-int");
	return 0;
}

static int vsctl(const struct ovs_local *o, const char *const args[], const char *what)
{
	char out[256], err[512];
	int rc = ovs_vsctl(o->db, OVS_TIMEOUT_S, args, out, sizeof(out), err, sizeof(err));

	if (rc)
		calvin_err("Open vSwitch at %s: cannot %s: %s", o->db, what, err);
	return rc;
}

int ovs_port_join(struct chain_state *s, const struct ovs_local *o, const struct ovs_join *j)
{
	char entry[128], iface_id[OVN_UUID_LEN + 32], chain[CALVIN_NAME_MAX + 40];
	const char *ns = o->netns[0] ? o->netns : NULL;
	struct nl_veth_end here = { .ifname = j->port, .mtu = j->mtu, .ns = ns }, there = {
		.ifname = j->ifname, .mtu = j->mtu, .ns = j->node_ns, .mac = j->mac
	};
	const char *const add[] = { "add-port",	 o->bridge, j->port,  "--",  "set",
				    "Interface", j->port,   iface_id, chain, NULL };
	const char *const which[] = { "port-to-br", j->port, NULL };
	int err;

	/* never journal what is not ours: down would delete it */
	if (!ovs_vsctl(o->db, OVS_TIMEOUT_S, which, iface_id, sizeof(iface_id), chain,
		       sizeof(chain))) {
		calvin_err("Open vSwitch at %s has a port %s already (on %s), not chain %s's; "
			   "remove it or rename the chain",
			   o->db, j->port, iface_id, j->chain);
		return -EEXIST;
	}
	snprintf(entry, sizeof(entry), "%s%s%s", j->port, ns ? "@" : "", ns ? ns : "");
	err = state_add(s, ST_OVS_PORT, entry, o->db, 0, 0);
	if (err)
		return err;
	err = nl_veth_add(&here, &there);
	/* OVS's userspace datapath never fills in a checksum left to offload */
	if (!err)
		err = nl_tx_csum_off(ns, j->port);
	if (!err)
		err = nl_tx_csum_off(j->node_ns, j->ifname);
	if (!err)
		err = nl_link_up(ns, j->port, 0);
	if (!err)
		err = nl_link_up(j->node_ns, j->ifname, 0);
	if (err)
		return err;
	snprintf(iface_id, sizeof(iface_id), "external_ids:iface-id=%s", j->lsp);
	snprintf(chain, sizeof(chain), "external_ids:calvin-chain=%s", j->chain);
	return vsctl(o, add, "add the port");
}

/* One journalled port: off the bridge, then its veth. */
static int port_remove(const struct state_entry *e)
{
	char port[STATE_NAME_MAX + 1], *at;
	struct ovs_local o = { .bridge = "br-int" };
	const char *const del[] = { "--if-exists", "del-port", o.bridge, port, NULL };
	int err;

	snprintf(port, sizeof(port), "%s", e->name);
	at = strchr(port, '@');
	if (at)
		*at = '\0';
	snprintf(o.db, sizeof(o.db), "%s", e->uri);
	snprintf(o.netns, sizeof(o.netns), "%s", at ? at + 1 : "");
	err = vsctl(&o, del, "delete a port");
	if (err) {
		calvin_err("left: port %s on the Open vSwitch at %s; run 'calvin down' again once "
			   "it answers",
			   port, e->uri);
		return -EAGAIN;
	}
	return nl_link_delete_gone(o.netns[0] ? o.netns : NULL, port);
}

int ovs_ports_destroy(struct chain_state *s)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < s->nr; i++)
		if (s->e[i].kind == ST_OVS_PORT && port_remove(&s->e[i]))
			err = -EAGAIN;
	return err;
}
