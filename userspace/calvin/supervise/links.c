// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The supervisor's netlink watch of the chain's ports: one rtnetlink
 * socket per node namespace (made inside it, member of RTNLGRP_LINK), and
 * a dump of its links every SUP_LINK_POLL_MS, since a driver need not
 * announce an XDP change (veth on 6.18 does: a detach is heard at once).
 * What it repairs:
 * - an XDP program detached or replaced on a port where the chain put a
 *   kernel VNF, the pass program or the reflector: the very program the
 *   supervisor holds (an fd taken when it started) is attached again, so
 *   its maps (ACL rules, routes, rate-limit buckets, stats) keep their
 *   state and nothing is loaded anew;
 * - the hand-over program of a user VNF's port gone: that VNF is killed,
 *   and restarted like any VNF that died (its successor attaches anew);
 * - a port set down: set up again;
 * - a veth deleted: not rebuilt (its ifindexes are in the VNFs' maps, its
 *   MACs in the endpoints' neighbours, its programs went with it); the
 *   chain is failed with the reason, in one event. */
#include <errno.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "events/events.h"
#include "loader.h"
#include "nl/nl.h"
#include "sup.h"
#include "util.h"

/* Microseconds, for the time a repair took (monotonic). */
static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static void port_event(const struct sup *s, const char *kind, const struct sup_port *p,
		       const char *key, const char *val, long long us)
{
	struct json_object *f = json_object_new_object();

	if (f) {
		json_object_object_add(f, "node", json_object_new_string(p->node));
		json_object_object_add(f, "ifname", json_object_new_string(p->ifname));
		if (key)
			json_object_object_add(f, key, json_object_new_string(val));
		if (us >= 0)
			json_object_object_add(f, "us", json_object_new_int64(us));
	}
	events_append(s->spec.name, kind, f);
	json_object_put(f);
}

/* Did the chain attach XDP to ifname in namespace ns (the journal says)? */
static bool journalled_xdp(const struct chain_state *st, const char *ns, const char *ifname)
{
	unsigned int i;

	for (i = 0; i < st->nr; i++)
		if (st->e[i].kind == ST_XDP && !strcmp(st->e[i].name, ns) &&
		    !strcmp(st->e[i].ifname, ifname))
			return true;
	return false;
}

static int user_vnf_of(const struct sup *s, const char *node)
{
	unsigned int k;

	for (k = 0; k < s->nr; k++)
		if (!strcmp(sup_node(s, k), node))
			return (int)k;
	return -1;
}

static void port_add(struct sup *s, const struct chain_state *st, unsigned int net,
		     const char *node, const char *ifname)
{
	struct sup_port *p = &s->port[s->nr_ports++];

	memset(p, 0, sizeof(*p));
	p->node = node;
	p->ifname = ifname;
	p->net = net;
	p->prog_fd = -1;
	p->vnf = user_vnf_of(s, node);
	p->xdp = journalled_xdp(st, s->net[net].ns, ifname);
}

/* Hold the programs of the namespace's ports that are not a user VNF's
 * (its hand-over programs change with each start). */
static int hold_programs(struct sup *s, unsigned int net)
{
	struct sup_port *p;
	unsigned int i;
	int saved, err, fd;

	err = netns_enter(s->net[net].ns, &saved);
	if (err)
		return err;
	for (i = 0; i < s->nr_ports; i++) {
		p = &s->port[i];
		if (p->net != net || !p->xdp || p->vnf >= 0)
			continue;
		fd = calvin_xdp_hold(if_index(p->ifname), &p->prog);
		if (fd >= 0)
			p->prog_fd = fd;
		else
			port_event(s, "xdp-unheld", p, "error", strerror(-fd), -1);
	}
	return netns_leave(saved);
}

int sup_links_open(struct sup *s)
{
	struct chain_state st;
	unsigned int n, last = s->nr_nodes - 1;
	struct sup_net *net;
	int err;

	err = state_peek(&st, s->spec.name);
	if (err)
		return err;
	for (n = 0; n < s->nr_nodes; n++) {
		net = &s->net[s->nr_nets];
		node_netns(net->ns, sizeof(net->ns), s->spec.name, s->nodes[n].name);
		net->fd = nl_watch_open(net->ns);
		if (net->fd < 0)
			return net->fd;
		s->nr_nets++;
		if (n > 0)
			port_add(s, &st, n, s->nodes[n].name, IF_WEST);
		if (n < last)
			port_add(s, &st, n, s->nodes[n].name, IF_EAST);
		err = hold_programs(s, n);
		if (!err)
			err = nl_watch_dump(net->fd);
		if (err)
			return err;
	}
	s->link_poll_ms = sup_now_ms() + SUP_LINK_POLL_MS;
	return 0;
}

void sup_links_close(struct sup *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_ports; i++)
		if (s->port[i].prog_fd >= 0)
			close(s->port[i].prog_fd);
	for (i = 0; i < s->nr_nets; i++)
		if (s->net[i].fd >= 0)
			close(s->net[i].fd);
	s->nr_ports = s->nr_nets = 0;
}

/* Both ends of a deleted veth go: one event names the pair, and the
 * chain is failed. */
static void port_gone(struct sup *s, struct sup_port *p)
{
	struct sup_port *a = &s->port[(p - s->port) & ~1L], *b = a + 1;
	char link[160], why[320];

	a->state = b->state = PORT_GONE;
	snprintf(link, sizeof(link), "%s:%s - %s:%s", a->node, a->ifname, b->node, b->ifname);
	port_event(s, "link-deleted", p, "link", link, -1);
	snprintf(why, sizeof(why),
		 "the veth %s was deleted; run 'calvin down %s' and 'calvin up' to rebuild it",
		 link, s->spec.name);
	sup_chain_failed(s, why);
}

static void repaired(const struct sup *s, struct sup_port *p, const char *kind)
{
	port_event(s, kind, p, NULL, NULL, (long long)(now_us() - p->fault_us));
	p->state = PORT_OK;
	p->told = false;
	p->repairs++;
}

static void repair_failed(const struct sup *s, struct sup_port *p, const char *kind, int err)
{
	if (!p->told)
		port_event(s, kind, p, "error", strerror(-err), -1);
	p->told = true;
}

/* Down: up again (its programs stayed). */
static void port_down(struct sup *s, struct sup_port *p)
{
	int err;

	if (p->state != PORT_DOWN) {
		p->state = PORT_DOWN;
		p->fault_us = now_us();
		port_event(s, "link-down", p, NULL, NULL, -1);
	}
	err = nl_link_up(s->net[p->net].ns, p->ifname, 0);
	if (err)
		repair_failed(s, p, "link-repair-failed", err);
	else
		repaired(s, p, "link-repaired");
}

/* The program the supervisor holds, attached again. */
static void xdp_lost(struct sup *s, struct sup_port *p, const struct nl_link *l)
{
	char found[16];
	int err, saved;

	if (p->state != PORT_XDP_LOST) {
		p->state = PORT_XDP_LOST;
		p->fault_us = now_us();
		snprintf(found, sizeof(found), "%u", l->xdp_prog);
		port_event(s, l->xdp_prog ? "xdp-replaced" : "xdp-detached", p,
			   l->xdp_prog ? "found" : NULL, found, -1);
	}
	err = netns_enter(s->net[p->net].ns, &saved);
	if (!err) {
		err = calvin_xdp_reattach(l->ifindex, p->prog_fd);
		netns_leave(saved);
	}
	if (err)
		repair_failed(s, p, "xdp-reattach-failed", err);
	else
		repaired(s, p, "xdp-reattached");
}

/* A user VNF's hand-over program gone while it runs: its socket hears
 * nothing more; it is restarted like a VNF that died. */
static void handover_lost(struct sup *s, struct sup_port *p)
{
	struct sup_vnf *v = &s->v[p->vnf];

	port_event(s, "xdp-detached", p, "repair", "restart the VNF", -1);
	if (v->pidfd >= 0)
		syscall(SYS_pidfd_send_signal, v->pidfd, SIGKILL, NULL, 0);
}

/* What is attached to p now: a message read may be older than the
 * last repair or restart. 0 or -errno. */
static int prog_now(const struct sup *s, const struct sup_port *p, uint32_t *id)
{
	int saved, err, ifindex;

	err = netns_enter(s->net[p->net].ns, &saved);
	if (err)
		return err;
	ifindex = if_index(p->ifname);
	err = ifindex > 0 ? calvin_xdp_native_id(ifindex, id) : -ENODEV;
	netns_leave(saved);
	return err;
}

/* Does l say p lost its program, and is it so now? */
static bool prog_lost(const struct sup *s, struct sup_port *p, const struct nl_link *l)
{
	uint32_t now;

	if (p->prog_fd >= 0 && l->xdp_prog == p->prog && p->state != PORT_XDP_LOST)
		return false;
	if (p->prog_fd < 0 && (l->xdp_prog || !p->prog))
		return false;
	if (prog_now(s, p, &now))
		return false;
	if (p->prog_fd >= 0 && now == p->prog && p->state == PORT_XDP_LOST)
		p->state = PORT_OK; /* someone else put it back */
	if (p->prog_fd >= 0)
		return now != p->prog;
	p->prog = now;
	return !now;
}

struct heard {
	struct sup *s;
	unsigned int net;
};

static void link_heard(const struct nl_link *l, void *arg)
{
	struct heard *h = arg;
	struct sup *s = h->s;
	struct sup_port *p = NULL;
	unsigned int i;

	for (i = 0; i < s->nr_ports && !p; i++)
		if (s->port[i].net == h->net && !strcmp(s->port[i].ifname, l->ifname))
			p = &s->port[i];
	if (!p || p->state == PORT_GONE || calvin_quit)
		return;
	if (l->gone) {
		port_gone(s, p);
		return;
	}
	if (l->stats) {
		p->rx = l->rx_packets;
		p->tx = l->tx_packets;
	}
	if (!l->up || p->state == PORT_DOWN)
		port_down(s, p);
	if (!p->xdp || !prog_lost(s, p, l)) {
		if (p->prog_fd < 0 && l->xdp_prog)
			p->prog = l->xdp_prog;
	} else if (p->prog_fd >= 0) {
		xdp_lost(s, p, l);
	} else if (p->vnf >= 0 && s->v[p->vnf].state == SUP_RUNNING) {
		handover_lost(s, p);
	}
}

void sup_links_read(struct sup *s, unsigned int net)
{
	struct heard h = { s, net };

	/* messages dropped: the next dump tells where things stand */
	if (nl_watch_read(s->net[net].fd, link_heard, &h) == -ENOBUFS)
		nl_watch_dump(s->net[net].fd);
}

void sup_links_tick(struct sup *s)
{
	unsigned int i;

	if (sup_now_ms() < s->link_poll_ms)
		return;
	for (i = 0; i < s->nr_nets; i++) {
		nl_watch_dump(s->net[i].fd);
		sup_links_read(s, i);
	}
	s->link_poll_ms = sup_now_ms() + SUP_LINK_POLL_MS;
}

bool sup_links_counts(const struct sup *s, unsigned int k, uint64_t *in, uint64_t *out)
{
	unsigned int i, n = 0;

	*in = *out = 0;
	for (i = 0; i < s->nr_ports; i++)
		if (s->port[i].vnf == (int)k && s->port[i].state != PORT_GONE) {
			*in += s->port[i].rx;
			*out += s->port[i].tx;
			n++;
		}
	return n > 0;
}
