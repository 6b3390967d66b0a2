// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* What the supervisor tells the others: supervisor.json (its shape is in
 * supervise.h, and the monitor reads it on every scrape), and the part of
 * `calvin status` that reads it back with the chain's recent events. */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "events/events.h"
#include "monitor/monitor.h"
#include "sup.h"
#include "util.h"

/* A supervisor whose heartbeat is older than this is not answering. */
#define HEARTBEAT_STALE_S 5
#define STATUS_EVENTS 8

static const char *const state_names[] = {
	[SUP_RUNNING] = "running",
	[SUP_RESTARTING] = "restarting",
	[SUP_STALLED] = "stalled",
	[SUP_FAILED] = "failed",
};

const char *sup_state_name(enum sup_state st)
{
	return state_names[st];
}

static const char *const port_state_names[] = {
	[PORT_OK] = "ok",
	[PORT_DOWN] = "down",
	[PORT_XDP_LOST] = "xdp-detached",
	[PORT_GONE] = "deleted",
};

const char *sup_port_state_name(enum sup_port_state st)
{
	return port_state_names[st];
}

/* The ports the netlink watch sees: state, repairs, the program held. */
static struct json_object *links_json(const struct sup *s)
{
	struct json_object *a = json_object_new_array(), *o;
	const struct sup_port *p;
	unsigned int i;

	for (i = 0; i < s->nr_ports; i++) {
		p = &s->port[i];
		o = json_object_new_object();
		json_object_object_add(o, "node", json_object_new_string(p->node));
		json_object_object_add(o, "ifname", json_object_new_string(p->ifname));
		json_object_object_add(o, "state",
				       json_object_new_string(sup_port_state_name(p->state)));
		json_object_object_add(o, "repairs", json_object_new_int((int)p->repairs));
		json_object_object_add(o, "xdp_prog",
				       p->prog ? json_object_new_int64(p->prog) : NULL);
		json_object_array_add(a, o);
	}
	return a;
}

static void rfc3339(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static struct json_object *vnf_json(const struct sup *s, const struct sup_vnf *v, uint64_t now)
{
	struct json_object *o = json_object_new_object();
	bool running = v->state == SUP_RUNNING || v->state == SUP_STALLED;
	char dom[128];

	if (v != &s->mon)
		json_object_object_add(
		    o, "name", json_object_new_string(sup_name(s, (unsigned int)(v - s->v))));
	json_object_object_add(o, "state", json_object_new_string(sup_state_name(v->state)));
	json_object_object_add(o, "restarts", json_object_new_int((int)v->restarts));
	json_object_object_add(o, "last_exit",
			       v->last_exit[0] ? json_object_new_string(v->last_exit) : NULL);
	json_object_object_add(
	    o, "uptime_s", json_object_new_int64(running ? (int64_t)(now - v->up_ms) / 1000 : 0));
	json_object_object_add(o, "pid", running && !v->vm ? json_object_new_int(v->pid) : NULL);
	if (v->vm) {
		sup_vm_name(s, (unsigned int)(v - s->v), dom, sizeof(dom));
		json_object_object_add(o, "vm", json_object_new_string(dom));
	}
	return o;
}

/* The monitor the supervisor runs, or null when the chain wants none. */
static struct json_object *monitor_json(const struct sup *s, uint64_t now)
{
	struct json_object *o;

	if (!s->mon.nr_tries)
		return NULL;
	o = vnf_json(s, &s->mon, now);
	json_object_object_del(o, "name");
	return o;
}

void sup_report_write(const struct sup *s)
{
	struct json_object *o = json_object_new_object(), *vnfs = json_object_new_array();
	char path[PATH_MAX], tmp[PATH_MAX + 8], t[32];
	uint64_t now = sup_now_ms();
	const char *text;
	unsigned int k;
	int fd;

	json_object_object_add(o, "chain", json_object_new_string(s->spec.name));
	json_object_object_add(o, "pid", json_object_new_int(getpid()));
	rfc3339(s->started.tv_sec, t, sizeof(t));
	json_object_object_add(o, "started", json_object_new_string(t));
	rfc3339(time(NULL), t, sizeof(t));
	json_object_object_add(o, "heartbeat", json_object_new_string(t));
	for (k = 0; k < s->nr; k++)
		json_object_array_add(vnfs, vnf_json(s, &s->v[k], now));
	json_object_object_add(o, "vnfs", vnfs);
	json_object_object_add(o, "monitor", monitor_json(s, now));
	json_object_object_add(o, "state",
			       json_object_new_string(s->failed[0] ? "failed" : "running"));
	json_object_object_add(o, "reason",
			       s->failed[0] ? json_object_new_string(s->failed) : NULL);
	json_object_object_add(o, "links", links_json(s));
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	if (state_file(path, sizeof(path), s->spec.name, ".d/" SUPERVISOR_JSON))
		goto out;
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		goto out;
	if (dprintf(fd, "%s\n", text) < 0) {
		close(fd);
		unlink(tmp);
		goto out;
	}
	close(fd);
	rename(tmp, path);
out:
	json_object_put(o);
}

void sup_chain_failed(struct sup *s, const char *why)
{
	struct json_object *f;
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (s->v[i].state == SUP_RESTARTING)
			s->v[i].state = SUP_FAILED;
	if (s->failed[0])
		return;
	snprintf(s->failed, sizeof(s->failed), "%s", why);
	f = json_object_new_object();
	if (f)
		json_object_object_add(f, "reason", json_object_new_string(why));
	events_append(s->spec.name, "chain-failed", f);
	json_object_put(f);
}

static const char *str_of(struct json_object *o, const char *key, const char *dflt)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return dflt;
	return json_object_get_string(v);
}

static long long int_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : -1;
}

/* Seconds since an RFC 3339 time, or -1. */
static long long age_s(const char *t)
{
	struct tm tm = { 0 };

	if (!t || !strptime(t, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return -1;
	return (long long)(time(NULL) - timegm(&tm));
}

static void print_vnfs(struct json_object *rep)
{
	struct json_object *vnfs, *v, *vm;
	char where[160];
	size_t i;

	if (!json_object_object_get_ex(rep, "vnfs", &vnfs) ||
	    !json_object_is_type(vnfs, json_type_array))
		return;
	for (i = 0; i < json_object_array_length(vnfs); i++) {
		v = json_object_array_get_idx(vnfs, i);
		if (json_object_object_get_ex(v, "vm", &vm))
			snprintf(where, sizeof(where), "vm %s", json_object_get_string(vm));
		else
			snprintf(where, sizeof(where), "pid %lld", int_of(v, "pid"));
		printf("  supervised %-12s %-10s restarts %lld  last exit %s  uptime %lld s  %s\n",
		       str_of(v, "name", "?"), str_of(v, "state", "?"), int_of(v, "restarts"),
		       str_of(v, "last_exit", "-"), int_of(v, "uptime_s"), where);
	}
}

/* One line for the ports: how many, how many repairs; and one for each
 * port that is not ok. */
static void print_links(struct json_object *rep)
{
	struct json_object *links, *l;
	long long repairs = 0;
	size_t i, n;

	if (!json_object_object_get_ex(rep, "links", &links) ||
	    !json_object_is_type(links, json_type_array))
		return;
	n = json_object_array_length(links);
	for (i = 0; i < n; i++)
		repairs += int_of(json_object_array_get_idx(links, i), "repairs");
	printf("  links: %zu ports watched, %lld repairs\n", n, repairs);
	for (i = 0; i < n; i++) {
		l = json_object_array_get_idx(links, i);
		if (strcmp(str_of(l, "state", "?"), "ok"))
			printf("  link %s:%s %s\n", str_of(l, "node", "?"),
			       str_of(l, "ifname", "?"), str_of(l, "state", "?"));
	}
}

static void print_events(struct json_object *ev)
{
	struct json_object *e;
	size_t i;

	for (i = 0; ev && i < json_object_array_length(ev); i++) {
		e = json_object_array_get_idx(ev, i);
		printf("  event %s\n", json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN));
	}
}

/* Does a monitor hold the chain's monitor lock right now? */
static bool monitor_runs(const char *chain)
{
	char path[PATH_MAX];
	bool held = false;
	int fd;

	if (state_file(path, sizeof(path), chain, ".d/" MONITOR_LOCK_FILE))
		return false;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		held = flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
		close(fd);
	}
	return held;
}

/* The running monitor's own report (monitor.json): under -j as the
 * member "monitor", else one line. */
static void monitor_status(const char *chain, struct json_object *o)
{
	struct json_object *m = NULL, *w = NULL;
	char path[PATH_MAX];

	if (monitor_runs(chain) && !state_file(path, sizeof(path), chain, ".d/" MONITOR_STATE_FILE))
		m = json_object_from_file(path);
	if (o) { /* only when one runs: a chain's members stay as they were */
		if (m)
			json_object_object_add(o, "monitor", m);
		return;
	}
	if (m && json_object_object_get_ex(m, "window_s", &w))
		printf("  monitor pid %lld: metrics on http://%s/metrics, %lld windows of %g s, "
		       "%lld breaches\n",
		       int_of(m, "pid"), str_of(m, "listen", "?"), int_of(m, "windows"),
		       json_object_get_double(w), int_of(m, "breaches"));
	json_object_put(m);
}

/* Seconds since pid started (from its start time in clock ticks since
 * boot); -1 if unknown. */
static long long proc_age_s(pid_t pid)
{
	unsigned long long start = proc_start_time(pid);
	struct timespec now;
	long hz = sysconf(_SC_CLK_TCK);

	if (!start || hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &now))
		return -1;
	return (long long)now.tv_sec - (long long)(start / (unsigned long long)hz);
}

void supervise_status(const char *chain, struct json_object *o)
{
	struct json_object *rep = NULL, *ev = events_tail(chain, STATUS_EVENTS), *sup;
	char path[PATH_MAX], why[128] = "";
	struct chain_state st;
	long long age = -1;
	bool off = false;
	pid_t pid = 0;

	if (!state_peek(&st, chain)) {
		pid = supervise_running(&st);
		off = supervise_unwanted(&st);
	}
	if (pid && !state_file(path, sizeof(path), chain, ".d/" SUPERVISOR_JSON))
		rep = json_object_from_file(path);
	if (rep)
		age = age_s(str_of(rep, "heartbeat", NULL));
	if (off)
		snprintf(why, sizeof(why),
			 "unsupervised: brought up with --no-supervise; 'calvin up' of the same "
			 "file without it attaches a supervisor");
	else if (!pid)
		snprintf(why, sizeof(why),
			 "unsupervised: no supervisor runs; 'calvin up' of "
			 "the same file attaches one");
	else if (!rep && proc_age_s(pid) >= 0 && proc_age_s(pid) <= HEARTBEAT_STALE_S)
		/* between up's last step and the supervisor's first report */
		snprintf(why, sizeof(why), "supervisor %d starting: no report yet", (int)pid);
	else if (age < 0 || age > HEARTBEAT_STALE_S)
		snprintf(why, sizeof(why), "supervisor %d not answering (heartbeat %lld s old)",
			 (int)pid, age);
	if (o) {
		sup = rep ? json_object_get(rep) : json_object_new_object();
		json_object_object_add(sup, "supervised", json_object_new_boolean(!why[0]));
		if (why[0])
			json_object_object_add(sup, "why", json_object_new_string(why));
		json_object_object_add(o, "supervisor", sup);
		monitor_status(chain, o);
		json_object_object_add(o, "events", ev);
		json_object_put(rep);
		return;
	}
	if (why[0])
		printf("  %s\n", why);
	else
		printf("  supervisor pid %d, heartbeat %lld s ago\n", (int)pid, age);
	if (rep && pid && !strcmp(str_of(rep, "state", ""), "failed"))
		printf("  chain failed: %s\n", str_of(rep, "reason", "?"));
	if (rep && pid) {
		print_vnfs(rep);
		print_links(rep);
	}
	monitor_status(chain, NULL);
	print_events(ev);
	json_object_put(rep);
	json_object_put(ev);
}
