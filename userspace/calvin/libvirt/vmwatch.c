// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The supervisor's view of a chain's VMs (vmwatch.h): libvirt's domain
 * lifecycle events, delivered by its default event loop in a thread of
 * their own, become a readable pipe the supervisor polls with its pidfds;
 * an event only names a domain to look at, and virDomainGetState says
 * what it is, so an event that arrives after a restart (the old VM's
 * stop) is never taken for a new death. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lv.h"
#include "vmwatch.h"
#include "util.h"

/* The loop wakes at least this often to see whether it must end. */
#define LOOP_TICK_MS 500
#define QUEUE_MAX 32
/* this host's libvirt and each other host's */
#define WATCH_CONNS (1 + CALVIN_MAX_HOSTS)

static struct {
	virConnectPtr conn[WATCH_CONNS];
	int cb[WATCH_CONNS];
	unsigned int nr_conns;
	int tick, pipe[2];
	pthread_t thread;
	pthread_mutex_t lock;
	volatile bool stop;
	char prefix[CALVIN_NAME_MAX + 16];
	unsigned int nr;
	char q[QUEUE_MAX][128];
} w = { .tick = -1, .pipe = { -1, -1 }, .lock = PTHREAD_MUTEX_INITIALIZER };

/* The libvirt of the host domain runs on: its VNF's (or the server's)
 * host's, or this host's (the chain's libvirt: uri) for one on local. */
static const char *domain_uri(const struct calvin_chain_spec *s, const char *domain)
{
	const struct calvin_host_spec *h;
	char name[128];
	unsigned int i;

	for (i = 0; i < s->nr_vnfs; i++) {
		if (node_netns(name, sizeof(name), s->name, calvin_vnf_node(&s->vnfs[i])) ||
		    strcmp(name, domain))
			continue;
		h = s->vnfs[i].host[0] ? calvin_spec_host(s, s->vnfs[i].host) : NULL;
		return h ? h->uri : s->libvirt.uri;
	}
	h = calvin_spec_host(s, s->server.host);
	if (h && !node_netns(name, sizeof(name), s->name, s->server.name) && !strcmp(name, domain))
		return h->uri;
	return s->libvirt.uri;
}

static int on_lifecycle(virConnectPtr conn, virDomainPtr dom, int event, int detail, void *opaque)
{
	const char *name = virDomainGetName(dom);
	unsigned int i;
	ssize_t r;

	if (!name || strncmp(name, w.prefix, strlen(w.prefix)))
		return 0;
	pthread_mutex_lock(&w.lock);
	for (i = 0; i < w.nr && strcmp(w.q[i], name); i++)
		;
	if (i == w.nr && w.nr < QUEUE_MAX)
		snprintf(w.q[w.nr++], sizeof(w.q[0]), "%s", name);
	pthread_mutex_unlock(&w.lock);
	/* full: a byte is there already */
	r = write(w.pipe[1], "e", 1);
	(void)r;
	return 0;
}

static void on_tick(int timer, void *opaque)
{
}

static void *loop(void *arg)
{
	while (!w.stop)
		if (virEventRunDefaultImpl() < 0)
			break;
	return NULL;
}

/* The thread takes no quit signal: the supervisor's poll must see it. */
static int thread_start(void)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&w.thread, NULL, loop, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return -err;
}

/* A connection of the watch's own to uri, made after the event loop
 * exists (only then does it deliver events), with the lifecycle callback;
 * once per URI. */
static int watch_uri(const char *uri, const char **uris)
{
	virConnectPtr checked;
	unsigned int i = w.nr_conns;
	int err;

	for (i = 0; i < w.nr_conns; i++)
		if (!strcmp(uris[i], uri))
			return 0;
	if (w.nr_conns == WATCH_CONNS)
		return -ENOSPC;
	/* the URI's checks (and this host's daemons) first */
	err = lv_open(uri, &checked);
	if (err)
		return err;
	w.conn[i] = virConnectOpen(uri);
	w.cb[i] = w.conn[i] ? virConnectDomainEventRegisterAny(
				  w.conn[i], NULL, VIR_DOMAIN_EVENT_ID_LIFECYCLE,
				  VIR_DOMAIN_EVENT_CALLBACK(on_lifecycle), NULL, NULL)
			    : -1;
	uris[i] = uri;
	w.nr_conns++;
	if (w.cb[i] < 0) {
		calvin_err("cannot watch the VMs at %s: %s", uri, lv_error());
		return -EIO;
	}
	return 0;
}

int lv_watch_open(const struct calvin_chain_spec *s)
{
	const char *uris[WATCH_CONNS];
	char dom[128];
	unsigned int i;
	int err = 0;

	snprintf(w.prefix, sizeof(w.prefix), "calvin-%s.", s->name);
	/* before the connections: only then do they deliver events */
	if (virEventRegisterDefaultImpl() < 0 || pipe2(w.pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
		calvin_err("cannot watch the VMs of %s: %s", s->name, lv_error());
		return -EIO;
	}
	for (i = 0; i < s->nr_vnfs && !err; i++) {
		err = node_netns(dom, sizeof(dom), s->name, calvin_vnf_node(&s->vnfs[i]));
		if (!err)
			err = watch_uri(domain_uri(s, dom), uris);
	}
	w.tick = err ? -1 : virEventAddTimeout(LOOP_TICK_MS, on_tick, NULL, NULL);
	if (!err && w.tick < 0) {
		calvin_err("cannot watch the VMs of %s: %s", s->name, lv_error());
		err = -EIO;
	}
	if (!err) {
		err = thread_start();
		if (err)
			calvin_err("cannot watch the VMs of %s: %s", s->name, strerror(-err));
	}
	if (err)
		lv_watch_close();
	return err;
}

int lv_watch_fd(void)
{
	return w.pipe[0];
}

bool lv_watch_next(char *name, size_t len)
{
	char buf[64];
	ssize_t r;
	bool got;

	while (read(w.pipe[0], buf, sizeof(buf)) > 0)
		;
	pthread_mutex_lock(&w.lock);
	got = w.nr > 0;
	if (got) {
		snprintf(name, len, "%s", w.q[--w.nr]);
		/* the others stay readable for the next poll */
		r = w.nr ? write(w.pipe[1], "e", 1) : 0;
		(void)r;
	}
	pthread_mutex_unlock(&w.lock);
	return got;
}

void lv_watch_close(void)
{
	if (w.thread) {
		w.stop = true;
		pthread_join(w.thread, NULL);
		w.thread = 0;
	}
	for (unsigned int i = 0; i < w.nr_conns; i++) {
		if (w.cb[i] >= 0)
			virConnectDomainEventDeregisterAny(w.conn[i], w.cb[i]);
		if (w.conn[i])
			virConnectClose(w.conn[i]);
	}
	w.nr_conns = 0;
	if (w.tick >= 0)
		virEventRemoveTimeout(w.tick);
	w.tick = -1;
	if (w.pipe[0] >= 0) {
		close(w.pipe[0]);
		close(w.pipe[1]);
	}
	w.pipe[0] = w.pipe[1] = -1;
}

static const char *shutoff_why(int reason)
{
	switch (reason) {
	case VIR_DOMAIN_SHUTOFF_SHUTDOWN:
		return "shutdown";
	case VIR_DOMAIN_SHUTOFF_DESTROYED:
		return "domain destroyed";
	case VIR_DOMAIN_SHUTOFF_CRASHED:
		return "crashed";
	case VIR_DOMAIN_SHUTOFF_FAILED:
		return "failed";
	case VIR_DOMAIN_SHUTOFF_SAVED:
		return "saved";
	case VIR_DOMAIN_SHUTOFF_MIGRATED:
		return "migrated";
	default:
		return "shut off";
	}
}

int lv_vm_state(const struct calvin_chain_spec *s, const char *domain, char *why, size_t len)
{
	virConnectPtr conn;
	virDomainPtr dom;
	int state, reason, err;

	why[0] = '\0';
	err = lv_open(domain_uri(s, domain), &conn);
	if (err)
		return err;
	dom = virDomainLookupByName(conn, domain);
	if (!dom) {
		snprintf(why, len, "domain undefined");
		return -ENOENT;
	}
	err = virDomainGetState(dom, &state, &reason, 0) < 0 ? -EIO : 0;
	virDomainFree(dom);
	if (err)
		return err;
	switch (state) {
	case VIR_DOMAIN_RUNNING:
	case VIR_DOMAIN_BLOCKED:
		return LV_VM_RUNNING;
	case VIR_DOMAIN_PAUSED:
		snprintf(why, len, "paused");
		return LV_VM_PAUSED;
	case VIR_DOMAIN_SHUTOFF:
		snprintf(why, len, "%s", shutoff_why(reason));
		return LV_VM_STOPPED;
	case VIR_DOMAIN_CRASHED:
		snprintf(why, len, "crashed");
		return LV_VM_STOPPED;
	case VIR_DOMAIN_PMSUSPENDED:
		snprintf(why, len, "suspended by the guest");
		return LV_VM_PAUSED;
	default: /* nostate, shutdown: the stop's own event follows */
		return LV_VM_CHANGING;
	}
}

/* The defined domain started again (a crashed one that libvirt kept
 * is destroyed first); one that runs is left as it is. */
int lv_domain_restart(const struct calvin_chain_spec *s, const char *domain)
{
	virConnectPtr conn;
	virDomainPtr dom;
	int state, reason, err;

	err = lv_open(domain_uri(s, domain), &conn);
	if (err)
		return err;
	dom = virDomainLookupByName(conn, domain);
	if (!dom) {
		calvin_err("domain %s is no longer defined; run 'calvin down %s' and up again",
			   domain, s->name);
		return -ENOENT;
	}
	err = virDomainGetState(dom, &state, &reason, 0) < 0 ? -EIO : 0;
	if (!err && state == VIR_DOMAIN_CRASHED && virDomainDestroy(dom) < 0)
		err = -EIO;
	if (!err && virDomainIsActive(dom) != 1 && virDomainCreate(dom) < 0)
		err = -EIO;
	if (err)
		calvin_err("cannot start domain %s again: %s", domain, lv_error());
	virDomainFree(dom);
	return err;
}
