// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec: the hosts a chain spans (hosts:, each VNF's and the server's
 * host:) and the OVN northbound database their links go through (ovn:),
 * with the checks that need the whole chain. */
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "spec_priv.h"

#define H(field) offsetof(struct calvin_host_spec, field)
#define O(field) offsetof(struct calvin_ovn_spec, field)

enum { HOST_NAME, HOST_URI, HOST_CHASSIS, HOST_END };
static const struct spec_key host_keys[] = {
	[HOST_NAME] = { .name = "name",
			.type = KEY_NAME,
			.off = H(name),
			.required = "the host's name, e.g. 'name: edge-b'" },
	[HOST_URI] = { .name = "uri",
		       .type = KEY_URI,
		       .off = H(uri),
		       .required = "its libvirt URI, e.g. 'uri: qemu+ssh://edge-b/system'" },
	[HOST_CHASSIS] = { .name = "chassis",
			   .type = KEY_STRING,
			   .off = H(chassis),
			   .required = "its OVN chassis name, e.g. 'chassis: edge-b'" },
	[HOST_END] = { NULL },
};

enum { OVN_NB, OVN_KEY, OVN_CERT, OVN_CA, OVN_MTU, OVN_END };
const struct spec_key calvin_ovn_keys[] = {
	[OVN_NB] = { .name = "nb",
		     .type = KEY_STRING,
		     .off = O(nb),
		     .required = "the northbound database, e.g. 'nb: tcp:192.0.2.1:6641'" },
	[OVN_KEY] = { .name = "private-key", .type = KEY_STRING, .off = O(private_key) },
	[OVN_CERT] = { .name = "certificate", .type = KEY_STRING, .off = O(certificate) },
	[OVN_CA] = { .name = "ca-cert", .type = KEY_STRING, .off = O(ca_cert) },
	/* 576: IPv4's least; 9216: the largest jumbo frames */
	[OVN_MTU] = { .name = "underlay-mtu",
		      .type = KEY_UINT,
		      .off = O(underlay_mtu),
		      .min = 576,
		      .max = 9216 },
	[OVN_END] = { NULL },
};

#define bad calvin_spec_why

/* IP:PORT or [IPv6]:PORT: addresses only, so what calvin connects to is
 * what the file says, whatever a resolver would answer. */
static int check_ip_port(const char *s, char *why, size_t len)
{
	char addr[INET6_ADDRSTRLEN + 2], *end;
	unsigned char buf[sizeof(struct in6_addr)];
	const char *colon = strrchr(s, ':');
	int family = AF_INET;
	unsigned long port;
	size_t n;

	if (!colon || colon == s || (size_t)(colon - s) >= sizeof(addr))
		return bad(why, len, "has no IP:PORT; write tcp:IP:PORT, e.g. tcp:192.0.2.1:6641");
	n = (size_t)(colon - s);
	if (s[0] == '[' && s[n - 1] == ']') {
		family = AF_INET6;
		s++;
		n -= 2;
	}
	memcpy(addr, s, n);
	addr[n] = '\0';
	if (inet_pton(family, addr, buf) != 1)
		return bad(why, len,
			   "has no IP address before its port; write an IPv4 address or an IPv6 "
			   "one in brackets, not a host name");
	port = strtoul(colon + 1, &end, 10);
	if (!colon[1] || *end || port < 1 || port > 65535 || colon[1] == '+' || colon[1] == '-')
		return bad(why, len,
			   "has no port from 1 to 65535 after its address; add one, "
			   "e.g. :6641");
	return 0;
}

int calvin_ovn_remote_check(const char *r, char *why, size_t len)
{
	if (strchr(r, ','))
		return bad(why, len,
			   "names several remotes; give one (a clustered database's "
			   "leader or any member)");
	if (!strncmp(r, "tcp:", 4))
		return check_ip_port(r + 4, why, len);
	if (!strncmp(r, "ssl:", 4))
		return check_ip_port(r + 4, why, len);
	if (!strncmp(r, "unix:", 5)) {
		if (r[5] != '/' || strstr(r, "/../") || !strcmp(r + strlen(r) - 3, "/.."))
			return bad(why, len,
				   "needs an absolute path without '..', e.g. "
				   "unix:/var/run/ovn/ovnnb_db.sock");
		return 0;
	}
	return bad(why, len,
		   "is not a remote calvin takes; write tcp:IP:PORT, ssl:IP:PORT or "
		   "unix:/PATH (one remote)");
}

/* A chassis name is OVN's system-id: a host name or a UUID. */
static bool chassis_valid(const char *s)
{
	size_t i, n = strlen(s);

	if (!n || n > CALVIN_CHASSIS_MAX || s[0] == '-')
		return false;
	for (i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-:",
			    s[i]))
			return false;
	return true;
}

static int host_after(struct spec_ctx *c, struct calvin_host_spec *h, struct spec_seen *seen)
{
	char buf[SHOWN_MAX + 4];

	h->pos.line = (int)seen->val[HOST_NAME]->start_mark.line + 1;
	h->pos.col = (int)seen->val[HOST_NAME]->start_mark.column + 1;
	if (!strcmp(h->name, CALVIN_LOCAL_HOST))
		return calvin_spec_err(c, seen->val[HOST_NAME]->start_mark,
				       "host name 'local' is reserved for the host calvin runs "
				       "on, which is never listed; choose another name");
	if (calvin_libvirt_uri_local(h->uri))
		return calvin_spec_err(c, seen->val[HOST_URI]->start_mark,
				       "uri %s is this host's own libvirt; a listed host is "
				       "another one: write qemu+ssh:// or qemu+tls://HOST/system",
				       h->uri);
	if (!chassis_valid(h->chassis))
		return calvin_spec_err(c, seen->val[HOST_CHASSIS]->start_mark,
				       "chassis '%s' is not an OVN chassis name; write the "
				       "host's system-id (letters, digits, '.', '_', ':', '-', at "
				       "most %d)",
				       calvin_spec_shown(h->chassis, buf), CALVIN_CHASSIS_MAX);
	return 0;
}

/* Names, URIs and chassis are one host each: two entries for one would
 * put two VNFs' VMs through one daemon under two names. */
static int check_unique(struct spec_ctx *c, unsigned int i, struct spec_seen *seen)
{
	const struct calvin_host_spec *h = c->spec->hosts, *n = &h[i];
	unsigned int j;

	for (j = 0; j < i; j++) {
		if (!strcmp(h[j].name, n->name))
			return calvin_spec_err(c, seen->val[HOST_NAME]->start_mark,
					       "host '%s' is listed twice (first at line %d); "
					       "give each host its own name",
					       n->name, h[j].pos.line);
		if (!strcmp(h[j].uri, n->uri))
			return calvin_spec_err(c, seen->val[HOST_URI]->start_mark,
					       "uri %s is host '%s''s already; list each host "
					       "once",
					       n->uri, h[j].name);
		if (!strcmp(h[j].chassis, n->chassis))
			return calvin_spec_err(c, seen->val[HOST_CHASSIS]->start_mark,
					       "chassis '%s' is host '%s''s already; each host is "
					       "a chassis of its own",
					       n->chassis, h[j].name);
	}
	return 0;
}

int calvin_spec_set_hosts(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, void *field)
{
	yaml_node_item_t *item;
	struct spec_seen seen;
	yaml_node_t *in;
	unsigned int i;
	char what[32];
	int err;

	if (n->type != YAML_SEQUENCE_NODE ||
	    n->data.sequence.items.start == n->data.sequence.items.top)
		return calvin_spec_err(c, n->start_mark,
				       "hosts must be a list of 1 to %d hosts; write one '- {name: "
				       "NAME, uri: URI, chassis: NAME}' item per host",
				       CALVIN_MAX_HOSTS);
	for (item = n->data.sequence.items.start, i = 0; item < n->data.sequence.items.top;
	     item++, i++) {
		in = yaml_document_get_node(c->doc, *item);
		if (!in)
			return calvin_spec_err(c, n->start_mark,
					       "broken YAML document; report a bug");
		if (i >= CALVIN_MAX_HOSTS)
			return calvin_spec_err(c, in->start_mark,
					       "too many hosts: a chain spans at most %d besides "
					       "local; remove some",
					       CALVIN_MAX_HOSTS);
		if (in->type != YAML_MAPPING_NODE)
			return calvin_spec_err(c, in->start_mark,
					       "host %u must be a mapping; write '- {name: NAME, "
					       "uri: URI, chassis: NAME}'",
					       i + 1);
		snprintf(what, sizeof(what), "host %u", i + 1);
		err = calvin_spec_walk_mapping(c, in, what, host_keys, &c->spec->hosts[i], &seen);
		if (!err)
			err = host_after(c, &c->spec->hosts[i], &seen);
		if (!err)
			err = check_unique(c, i, &seen);
		if (err)
			return err;
		c->spec->nr_hosts = i + 1;
	}
	return 0;
}

static int check_path(struct spec_ctx *c, yaml_node_t *n, const char *key, const char *path)
{
	if (path[0] == '/')
		return 0;
	return calvin_spec_err(c, n->start_mark,
			       "%s '%s' is not an absolute path; write the file's whole path", key,
			       path);
}

/* ssl needs its three files, and only ssl takes them. */
int calvin_spec_ovn_after(struct spec_ctx *c, void *obj, struct spec_seen *seen)
{
	struct calvin_ovn_spec *o = obj;
	char why[CALVIN_ERR_MAX / 2];
	bool ssl = !strncmp(o->nb, "ssl:", 4);
	int i, err;

	if (calvin_ovn_remote_check(o->nb, why, sizeof(why)))
		return calvin_spec_err(c, seen->val[OVN_NB]->start_mark, "nb %s %s", o->nb, why);
	for (i = OVN_KEY; i <= OVN_CA; i++) {
		if (seen->val[i] && !ssl)
			return calvin_spec_err(c, seen->key[i]->start_mark,
					       "%s applies to an ssl: database only; remove it",
					       calvin_ovn_keys[i].name);
		if (!seen->val[i] && ssl)
			return calvin_spec_err(c, seen->val[OVN_NB]->start_mark,
					       "an ssl: database needs private-key, certificate "
					       "and ca-cert; add %s: /PATH",
					       calvin_ovn_keys[i].name);
		err = seen->val[i] ? check_path(c, seen->val[i], calvin_ovn_keys[i].name,
						(const char *)obj + calvin_ovn_keys[i].off)
				   : 0;
		if (err)
			return err;
	}
	return 0;
}

const struct calvin_host_spec *calvin_spec_host(const struct calvin_chain_spec *spec,
						const char *name)
{
	unsigned int i;

	for (i = 0; i < spec->nr_hosts; i++)
		if (!strcmp(spec->hosts[i].name, name))
			return &spec->hosts[i];
	return NULL;
}

unsigned int calvin_inner_mtu(const struct calvin_chain_spec *spec)
{
	return spec->mtu + CALVIN_INNER_MTU_EXTRA;
}

unsigned int calvin_link_mtu(const struct calvin_chain_spec *spec)
{
	return spec->ovn.underlay_mtu - CALVIN_GENEVE_OVERHEAD;
}

/* A probe crosses a link between hosts whole (IPv4 20 and UDP 8 around
 * its payload), or not at all: Geneve packets are not fragmented. */
static int check_probe_fits(struct spec_ctx *c)
{
	const struct calvin_chain_spec *s = c->spec;
	unsigned int mtu = calvin_link_mtu(s), room = mtu - 28;
	struct calvin_pos at;
	yaml_mark_t m = { 0 };

	if (!calvin_spec_multihost(s) || s->probe.size <= room)
		return 0;
	/* without a size, the hop records' block is what does not fit */
	at = s->probe.size_pos.line ? s->probe.size_pos : s->ovn.pos;
	m.line = (size_t)at.line - 1;
	m.column = (size_t)at.col - 1;
	return calvin_spec_err(c, m,
			       "probe size %u does not fit a link between hosts: Geneve takes %d "
			       "of the underlay's %u bytes, leaving an MTU of %u and %u bytes of "
			       "UDP payload; set size to at most %u, or ovn's underlay-mtu to at "
			       "least %u",
			       s->probe.size, CALVIN_GENEVE_OVERHEAD, s->ovn.underlay_mtu, mtu,
			       room, room, s->probe.size + 28 + CALVIN_GENEVE_OVERHEAD);
}

bool calvin_spec_multihost(const struct calvin_chain_spec *spec)
{
	unsigned int i;

	for (i = 0; i < spec->nr_vnfs; i++)
		if (strcmp(spec->vnfs[i].host, CALVIN_LOCAL_HOST))
			return true;
	return strcmp(spec->server.host, CALVIN_LOCAL_HOST) != 0;
}

/* The host a node runs on, written at n (NULL: the default, local). */
static int check_node_host(struct spec_ctx *c, const char *what, const char *name, const char *host,
			   yaml_node_t *n)
{
	char list[SPEC_LIST_MAX];
	const char *words[CALVIN_MAX_HOSTS + 2];
	unsigned int i;

	if (!n || !strcmp(host, CALVIN_LOCAL_HOST))
		return 0;
	if (!calvin_spec_host(c->spec, host)) {
		words[0] = CALVIN_LOCAL_HOST;
		for (i = 0; i < c->spec->nr_hosts; i++)
			words[i + 1] = c->spec->hosts[i].name;
		words[i + 1] = NULL;
		calvin_spec_join_words(words, list, sizeof(list));
		return calvin_spec_err(c, n->start_mark,
				       "unknown host '%s' for %s '%s'; list it under hosts: or use "
				       "one of: %s",
				       host, what, name, list);
	}
	if (c->spec->backend != CALVIN_BACKEND_LIBVIRT)
		return calvin_spec_err(
		    c, n->start_mark,
		    "%s '%s' is on host '%s', and on another host every node "
		    "runs in a VM; set 'backend: libvirt' or put it on host local",
		    what, name, host);
	return 0;
}

/* After the whole chain: hosts and ovn go together, every node's host is
 * listed and can run it, and VNFs that share a node share its host. */
int calvin_spec_check_hosts(struct spec_ctx *c, yaml_node_t *hosts, yaml_node_t *ovn)
{
	const struct calvin_chain_spec *s = c->spec;
	unsigned int i;
	int err = 0;

	if (hosts && !ovn)
		return calvin_spec_err(c, hosts->start_mark,
				       "hosts needs an ovn section: links between hosts are OVN "
				       "logical switches; add 'ovn: {nb: tcp:IP:6641}'");
	if (ovn && !hosts)
		return calvin_spec_err(c, ovn->start_mark,
				       "the ovn section applies to chains with hosts only; add "
				       "hosts: or remove the section");
	/* "ovn:" with nothing under it is a section without its database */
	if (ovn && !s->ovn.nb[0])
		return calvin_spec_err(c, ovn->start_mark,
				       "the ovn section needs nb, the northbound database; add "
				       "'nb: tcp:IP:6641'");
	if (ovn) {
		c->spec->ovn.pos.line = (int)ovn->start_mark.line + 1;
		c->spec->ovn.pos.col = (int)ovn->start_mark.column + 1;
	}
	for (i = 0; !err && i < s->nr_vnfs; i++)
		err = check_node_host(c,
				      s->vnfs[i].space == CALVIN_KERNEL ? "kernel VNF" : "user VNF",
				      s->vnfs[i].name, s->vnfs[i].host, c->vnf_host[i]);
	if (!err)
		err = check_node_host(c, "server", s->server.name, s->server.host, c->server_host);
	for (i = 1; !err && i < s->nr_vnfs; i++)
		if (!strcmp(s->vnfs[i].node, s->vnfs[i - 1].node) &&
		    strcmp(s->vnfs[i].host, s->vnfs[i - 1].host))
			err = calvin_spec_err(
			    c, (c->vnf_host[i] ? c->vnf_host[i] : c->vnf_host[i - 1])->start_mark,
			    "VNFs '%s' and '%s' share node '%s' but not its host; put both on one "
			    "host",
			    s->vnfs[i - 1].name, s->vnfs[i].name, s->vnfs[i].node);
	return err ? err : check_probe_fits(c);
}
