// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The libvirt backend's side of calvin-agent: each VM's agent is reached
 * over its virtio-serial channel (the UNIX socket libvirt binds in the
 * chain's run dir) with the client of userspace/agent/client.h. Deploying
 * a VNF is configure (the spec, the VNF, its peers' MACs), the traffic keys
 * of an encrypt or decrypt VNF's own SAs, and start;
 * status reads the counters `calvin status` shows. A VM on another host is
 * reached through libvirt's channel stream instead (chan.c). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "codec/codec.h"
#include "loader.h"
#include "lv.h"
#include "util.h"
#include "vmwatch.h"

/* One round of waiting for a booting VM's agent. */
#define AGENT_ROUND_MS 1000

static int agent_connect(const char *chain, const char *node, int timeout_ms,
			 struct calvin_channel *ch)
{
	char path[PATH_MAX], err[CALVIN_AGENT_LINE_MAX + 128];
	int e;

	lv_node_file(path, sizeof(path), chain, node, "agent");
	e = calvin_agent_open(ch, path, timeout_ms, NULL, 0, err, sizeof(err));
	if (e)
		calvin_err(
		    "%s: no answer from calvin-agent in its VM: %s (its console: %s.d/%s.console)",
		    node, err, chain, node);
	return e;
}

int lv_remote_agent_open(const char *uri, const char *domain, int timeout_ms, struct lv_agent *a,
			 char *who, size_t wholen)
{
	char err[CALVIN_AGENT_LINE_MAX + 128];
	int fd, e;

	e = lv_chan_open(uri, domain, timeout_ms, &a->lc);
	if (e)
		return e;
	fd = a->lc.fd; /* the agent client's from here on */
	a->lc.fd = -1;
	e = calvin_agent_greet(&a->ch, fd, timeout_ms, who, wholen, err, sizeof(err));
	if (e) {
		calvin_err("domain %s at %s: no answer from calvin-agent in its VM: %s "
			   "(its console: /var/log/libvirt/qemu/%s.console there)",
			   domain, uri, err, domain);
		lv_chan_close(&a->lc);
	}
	return e;
}

void lv_remote_agent_close(struct lv_agent *a)
{
	calvin_agent_close(&a->ch);
	lv_chan_close(&a->lc);
}

static int agent_call(struct calvin_channel *ch, const char *node,
		      const struct calvin_agent_msg *req, struct calvin_agent_msg *reply)
{
	char err[CALVIN_AGENT_LINE_MAX + 128];
	int e;

	e = calvin_agent_call(ch, req, reply, LV_CALL_TIMEOUT_MS, err, sizeof(err));
	if (e)
		calvin_err("%s: %s", node, err);
	return e;
}

static bool is_server(const struct deploy *d, unsigned int n)
{
	return n + 1 == d->nr_nodes;
}

/* What the agent needs: the spec `up` checked (its very bytes), the VNF
 * (or the server, the last node: a VM on another host), its peers, MTUs.
 * No key material: that is keys_send()'s. */
static void configure_msg(struct deploy *d, unsigned int n, struct calvin_agent_msg *m)
{
	struct calvin_agent_configure *c = &m->configure;
	const struct calvin_vnf_spec *v = &d->spec->vnfs[d->nodes[n].first_vnf];

	m->type = CALVIN_AGENT_CONFIGURE;
	c->role = is_server(d, n) ? CALVIN_AGENT_ROLE_SERVER : CALVIN_AGENT_ROLE_VNF;
	c->cpu = 1; /* the guest's isolated vCPU (see calvin_vm_cmdline()) */
	calvin_vm_mac(c->west_peer, d->spec->name, n - 1, CALVIN_EAST);
	c->west_mtu = lv_link_mtu(d, n - 1);
	c->vnf = calvin_agent_str(is_server(d, n) ? d->spec->server.name : v->name);
	if (!is_server(d, n)) {
		calvin_vm_mac(c->east_peer, d->spec->name, n + 1, CALVIN_WEST);
		c->east_mtu = lv_link_mtu(d, n);
	}
	c->spec.ptr = d->text->text;
	c->spec.len = (uint32_t)d->text->len;
}

/* An encrypt or decrypt VNF's VM gets the traffic keys of that VNF's own
 * SAs in epoch, never the key file's key or the deployment random. */
static int keys_send(struct deploy *d, unsigned int n, uint32_t epoch, struct calvin_channel *ch)
{
	unsigned int vnf = d->nodes[n].first_vnf;
	const struct calvin_vnf_spec *v = &d->spec->vnfs[vnf];
	struct calvin_agent_msg req = { .type = CALVIN_AGENT_KEYS }, reply;
	uint8_t buf[CALVIN_SA_SET_MAX];
	struct calvin_sa_set set;
	ssize_t len;
	int err;

	if (is_server(d, n) || (v->kind != CALVIN_VNF_ENCRYPT && v->kind != CALVIN_VNF_DECRYPT))
		return 0;
	err = deploy_sa_set(d, vnf, epoch, &set);
	if (err)
		return err;
	len = calvin_sa_set_encode(&set, buf, sizeof(buf));
	calvin_sa_set_wipe(&set);
	if (len < 0) {
		calvin_err("%s: cannot encode its keys: %s", v->name, strerror((int)-len));
		return (int)len;
	}
	req.keys.ptr = (const char *)buf;
	req.keys.len = (uint32_t)len;
	err = agent_call(ch, d->nodes[n].name, &req, &reply);
	explicit_bzero(buf, sizeof(buf));
	return err;
}

/* Configure, keys of epoch, start: the VNF of node n over an open channel. */
static int deploy_over(struct deploy *d, unsigned int n, uint32_t epoch, struct calvin_channel *ch)
{
	const char *node = d->nodes[n].name;
	struct calvin_agent_msg req = { 0 }, reply;
	int err;

	configure_msg(d, n, &req);
	err = agent_call(ch, node, &req, &reply);
	if (!err)
		err = keys_send(d, n, epoch, ch);
	if (!err) {
		memset(&req, 0, sizeof(req));
		req.type = CALVIN_AGENT_START;
		err = agent_call(ch, node, &req, &reply);
	}
	return err;
}

/* A VM's agent: its socket here, or its channel through its host's
 * libvirt. */
static int vnf_agent(struct deploy *d, unsigned int n, struct lv_agent *a)
{
	const struct calvin_host_spec *h = lv_node_remote(d, n);
	char dom[128];
	int err;

	a->lc.fd = a->lc.pid = -1;
	if (!h)
		return agent_connect(d->spec->name, d->nodes[n].name, LV_BOOT_TIMEOUT_MS, &a->ch);
	err = node_netns(dom, sizeof(dom), d->spec->name, d->nodes[n].name);
	return err ? err : lv_remote_agent_open(h->uri, dom, LV_BOOT_TIMEOUT_MS, a, NULL, 0);
}

int lv_vnf_start(struct deploy *d, unsigned int n)
{
	struct lv_agent a;
	int err;

	err = vnf_agent(d, n, &a);
	if (err)
		return err;
	err = deploy_over(d, n, 1, &a.ch);
	lv_remote_agent_close(&a);
	return err;
}

static long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The agent of a VM that boots, asked in short rounds so that a quit
 * signal (down stopping the supervisor) ends the wait within one. */
static int agent_wait(const char *chain, const char *node, struct calvin_channel *ch)
{
	char path[PATH_MAX], err[CALVIN_AGENT_LINE_MAX + 128] = "";
	struct timespec pause = { 0, AGENT_ROUND_MS * 1000000L / 10 };
	long long end = mono_ms() + LV_BOOT_TIMEOUT_MS;
	int e = -ETIMEDOUT;

	lv_node_file(path, sizeof(path), chain, node, "agent");
	while (!calvin_quit && mono_ms() < end) {
		e = calvin_agent_open(ch, path, AGENT_ROUND_MS, NULL, 0, err, sizeof(err));
		if (!e)
			return 0;
		/* a refusal that came at once is not a round */
		nanosleep(&pause, NULL);
	}
	if (calvin_quit)
		return -EINTR;
	calvin_err("%s: no answer from calvin-agent in its VM: %s (its console: %s.d/%s.console)",
		   node, err, chain, node);
	return e;
}

int lv_vnf_redeploy(struct deploy *d, unsigned int n, uint32_t epoch)
{
	const char *node = d->nodes[n].name;
	struct calvin_agent_msg req = { .type = CALVIN_AGENT_STOP }, reply;
	struct lv_agent a = { .lc = { -1, -1 } };
	char dom[128];
	int err;

	err = node_netns(dom, sizeof(dom), d->spec->name, node);
	if (!err)
		err = lv_domain_restart(d->spec, dom);
	if (!err && calvin_quit)
		err = -EINTR;
	/* on another host, its channel there waits for the boot itself */
	if (!err)
		err = lv_node_remote(d, n) ? vnf_agent(d, n, &a)
					   : agent_wait(d->spec->name, node, &a.ch);
	if (err)
		return err;
	/* a VM that kept running (the other end of a pair) runs its VNF:
	 * stopped first, as a configure needs */
	err = agent_call(&a.ch, node, &req, &reply);
	if (!err)
		err = deploy_over(d, n, epoch, &a.ch);
	lv_remote_agent_close(&a);
	return err;
}

/* The VNFs of this process's chain whose agent did not answer: one
 * `calvin status` asks each agent for counters and placement, and gives a
 * wedged one its deadline once. */
static struct {
	char chain[CALVIN_NAME_MAX + 1];
	bool vnf[CALVIN_MAX_VNFS];
} silent;

/* The channel of the remote VM whose status is being read: one at a
 * time, closed by status_close(). */
static struct lv_chan status_chan = { -1, -1 };

static void status_close(struct calvin_channel *ch)
{
	calvin_agent_close(ch);
	lv_chan_close(&status_chan);
}

/* vnf_status() of a VM on another host, through its channel there. */
static int remote_status(const struct calvin_chain_spec *s, unsigned int vnf,
			 struct calvin_channel *ch, struct calvin_agent_msg *reply)
{
	const struct calvin_host_spec *h = calvin_spec_host(s, s->vnfs[vnf].host);
	struct calvin_agent_msg req = { .type = CALVIN_AGENT_STATUS };
	char dom[128], err[CALVIN_AGENT_LINE_MAX + 128];
	struct lv_agent a;
	int e;

	e = node_netns(dom, sizeof(dom), s->name, calvin_vnf_node(&s->vnfs[vnf]));
	if (!e)
		e = lv_remote_agent_open(h->uri, dom, VNF_ANSWER_TIMEOUT_MS, &a, NULL, 0);
	if (e)
		return e;
	e = calvin_agent_call(&a.ch, &req, reply, VNF_ANSWER_TIMEOUT_MS, err, sizeof(err));
	if (e) {
		calvin_err("%s at %s: %s", dom, h->uri, err);
		lv_remote_agent_close(&a);
		return e;
	}
	*ch = a.ch;
	status_chan = a.lc;
	return 0;
}

/* The counters of a VNF's agent, within VNF_ANSWER_TIMEOUT_MS in all; ch
 * stays open for reply's strings. An agent that does not answer in time
 * (a paused VM, a stopped agent) is -ETIMEDOUT, left for status to say. */
static int vnf_status(const struct calvin_chain_spec *s, unsigned int vnf,
		      struct calvin_channel *ch, struct calvin_agent_msg *reply)
{
	const char *node = calvin_vnf_node(&s->vnfs[vnf]);
	struct calvin_agent_msg req = { .type = CALVIN_AGENT_STATUS };
	char path[PATH_MAX], err[CALVIN_AGENT_LINE_MAX + 128];
	int e;

	if (strcmp(silent.chain, s->name)) {
		memset(&silent, 0, sizeof(silent));
		snprintf(silent.chain, sizeof(silent.chain), "%s", s->name);
	}
	if (silent.vnf[vnf])
		return -ETIMEDOUT;
	if (calvin_spec_host(s, s->vnfs[vnf].host))
		return remote_status(s, vnf, ch, reply);
	lv_node_file(path, sizeof(path), s->name, node, "agent");
	e = calvin_agent_ask(ch, path, &req, reply, VNF_ANSWER_TIMEOUT_MS, err, sizeof(err));
	if (e == -ETIMEDOUT)
		silent.vnf[vnf] = true;
	else if (e)
		calvin_err("%s: %s (its console: %s.d/%s.console)", node, err, s->name, node);
	return e;
}

/* The value a counters answer gives name; false if it gives none. */
static bool agent_value(const struct calvin_agent_counters *c, const char *name, uint64_t *v)
{
	unsigned int i;

	for (i = 0; i < c->nr_counters; i++)
		if (c->counters[i].name.len == strlen(name) &&
		    !memcmp(c->counters[i].name.ptr, name, c->counters[i].name.len)) {
			*v = c->counters[i].value;
			return true;
		}
	return false;
}

/* "fwd.rx_packets" into its direction and field of out. */
static void kernel_counter(struct kvnf_counters *out, const struct calvin_agent_counter *c)
{
	unsigned int d, i;
	size_t n;

	for (d = 0; d < CALVIN_NR_DIRS; d++) {
		n = strlen(d ? "rev." : "fwd.");
		if (c->name.len <= n || memcmp(c->name.ptr, d ? "rev." : "fwd.", n))
			continue;
		for (i = 0; i < calvin_xdp_nr_stat_fields; i++)
			if (strlen(calvin_xdp_stat_fields[i].name) == c->name.len - n &&
			    !memcmp(c->name.ptr + n, calvin_xdp_stat_fields[i].name,
				    c->name.len - n))
				*(__u64 *)((char *)&out->dir[d] +
					   calvin_xdp_stat_fields[i].offset) = c->value;
	}
}

int lv_kernel_stats(const struct calvin_chain_spec *s, unsigned int vnf, struct kvnf_counters *out)
{
	struct calvin_agent_msg *reply = malloc(sizeof(*reply));
	struct calvin_channel ch;
	unsigned int i;
	int err;

	memset(out, 0, sizeof(*out));
	if (!reply)
		return -ENOMEM;
	err = vnf_status(s, vnf, &ch, reply);
	if (!err) {
		for (i = 0; i < reply->counters.nr_counters; i++)
			kernel_counter(out, &reply->counters.counters[i]);
		status_close(&ch);
	}
	free(reply);
	return err;
}

int lv_user_stats(const struct calvin_chain_spec *s, unsigned int vnf, char *json, size_t len)
{
	struct calvin_agent_msg *reply = malloc(sizeof(*reply));
	struct calvin_channel ch;
	uint64_t v;
	int err;

	if (!reply)
		return -ENOMEM;
	err = vnf_status(s, vnf, &ch, reply);
	if (!err) {
		/* calvin-vnf exited in the guest: it has no telemetry to give */
		if (agent_value(&reply->counters, "vnf.exit", &v))
			err = -ESRCH;
		else if (reply->counters.telemetry.len >= len)
			err = -E2BIG;
		else
			snprintf(json, len, "%.*s", (int)reply->counters.telemetry.len,
				 reply->counters.telemetry.ptr);
		status_close(&ch);
	}
	free(reply);
	return err;
}

/* The agent's vnf.* values (proc.c in the agent) into p. */
static void guest_placement(const struct calvin_agent_counters *c, struct calvin_vnf_placement *p)
{
	uint64_t v;

	p->pid = agent_value(c, "vnf.pid", &v) && v <= INT32_MAX ? (int)v : 0;
	if (agent_value(c, "vnf.exit", &v)) {
		p->exited = p->pid != 0;
		p->exit_status = (int)v;
		p->pid = 0;
	}
	if (c->state != CALVIN_AGENT_RUNNING || !agent_value(c, "vnf.cpus", &v)) {
		p->pid = 0;
		return;
	}
	p->allowed.w[0] = v;
	p->last_cpu = agent_value(c, "vnf.last_cpu", &v) ? (int)v : -1;
	p->policy = agent_value(c, "vnf.policy", &v) ? (unsigned int)v : 0;
	p->priority = agent_value(c, "vnf.priority", &v) ? (unsigned int)v : 0;
	p->locked_kb = agent_value(c, "vnf.locked_kb", &v) ? (unsigned long)v : 0;
	p->isolated_by = agent_value(c, "vnf.isolated", &v) && v ? "isolcpus in the VM" : NULL;
}

int lv_vnf_placement(const struct calvin_chain_spec *s, unsigned int vnf,
		     struct calvin_vnf_placement *p)
{
	const char *node = calvin_vnf_node(&s->vnfs[vnf]);
	struct calvin_agent_msg *reply = malloc(sizeof(*reply));
	struct calvin_channel ch;
	int err;

	if (!reply)
		return -ENOMEM;
	node_netns(p->vm, sizeof(p->vm), s->name, node);
	p->host_last_cpu = -1;
	err = vnf_status(s, vnf, &ch, reply);
	if (!err) {
		guest_placement(&reply->counters, p);
		status_close(&ch);
		/* the VNF's vCPU is the one it last ran on in the guest */
		if (p->pid)
			lv_vcpu_host(s, p->vm, p->last_cpu, &p->host_last_cpu, &p->host_allowed);
	}
	free(reply);
	return err;
}
