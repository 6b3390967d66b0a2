/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* calvin monitor CHAIN: continuous probing of a deployed chain, window by
 * window, exported to Prometheus; budget breaches become events and run
 * the chain's hook. One process per chain, started (and restarted) by the
 * supervisor; the pieces here are its threads' shared state (metrics.c),
 * the HTTP endpoint (http.c), the collector of VNF counters and the
 * supervisor's health (collect.c), the breach hook (hook.c). */
#ifndef CALVIN_MONITOR_H
#define CALVIN_MONITOR_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/measure.h"
#include "spec/spec.h"

/* `calvin up --monitor` leaves this file in RUN_DIR/CHAIN.d: the wish the
 * supervisor reads (as it reads a monitor section) to start the monitor. */
#define MONITOR_WISH_FILE "monitor-wanted"
/* What the running monitor says about itself, in RUN_DIR/CHAIN.d:
 * {"pid", "listen", "started", "windows", "breaches", "last_window"}. */
#define MONITOR_STATE_FILE "monitor.json"
/* flock()ed by the chain's one monitor while it runs. */
#define MONITOR_LOCK_FILE "monitor.lock"

/* Should the supervisor run a monitor for this deployed chain: a monitor
 * section in its file, or `up --monitor`? */
bool monitor_wanted(const struct calvin_chain_spec *spec);
/* The chain file's hook program is one root may run (mon_hook_check()):
 * 0, or CALVIN_EXIT_USAGE after one line at its file:line:col. `validate`
 * and `up` check it as they check key files; the monitor again at its
 * start and before each run. */
int monitor_check_hook(const struct calvin_chain_spec *spec);
/* Record `up --monitor`'s wish: 0, or an exit code after one line. */
int monitor_request(const char *chain);

/* One histogram series and its labels (escaped, Prometheus text). */
struct mon_series {
	char labels[256];
	struct calvin_prom_hist h;
};

#define MON_MAX_SERIES (CALVIN_TLM_MAX_HOPS + 1)

/* Everything the endpoint shows. The probing thread adds a window, the
 * collector replaces its text, the HTTP thread reads: under lock. */
struct mon_metrics {
	pthread_mutex_t lock;
	const struct calvin_chain_spec *spec;
	char chain_label[64]; /* chain="NAME" */
	unsigned int rate;
	uint64_t window_ns;
	struct calvin_prom_hist rtt;
	unsigned int nr_hops, nr_links;
	struct mon_series hops[MON_MAX_SERIES], links[MON_MAX_SERIES];
	uint64_t windows, breaches, breaches_p99, breaches_loss;
	uint64_t sent, received, lost;
	uint64_t last_p50_ns, last_p99_ns;
	uint64_t hook_runs, hook_failed, hook_killed, hook_skipped;
	char *collected; /* VNF counters and supervisor health (collect.c) */
};

void mon_metrics_init(struct mon_metrics *m, const struct calvin_chain_spec *spec,
		      unsigned int rate, uint64_t window_ns);
void mon_metrics_free(struct mon_metrics *m);
/* Add a window's result; breach: it missed the budget or lost probes. */
void mon_metrics_window(struct mon_metrics *m, const struct calvin_probe_result *r, bool breach,
			bool p99_over, bool lost);
/* The exposition text of everything, to f. */
void mon_metrics_write(struct mon_metrics *m, FILE *f);
/* Replace the collector's text (takes text, malloc'd). */
void mon_metrics_collected(struct mon_metrics *m, char *text);

/* The endpoint: serve GET /metrics on addr from a thread of its own.
 * Bound before it returns; *port gets the port (port 0: the kernel's
 * choice). 0 or -errno after one line. */
struct MHD_Daemon;
int mon_http_start(struct mon_metrics *m, const struct calvin_listen *addr, uint16_t *port,
		   struct MHD_Daemon **d);
void mon_http_stop(struct MHD_Daemon *d);

/* The collector thread: VNF counters and supervisor.json every
 * COLLECT_EVERY_MS, into m. */
#define COLLECT_EVERY_MS 2000
struct mon_collector {
	struct mon_metrics *m;
	pthread_t thread;
	bool running;
	volatile bool stop;
};
int mon_collect_start(struct mon_collector *c, struct mon_metrics *m);
void mon_collect_stop(struct mon_collector *c);
/* supervisor.json's text as exposition lines, to f (pure but for time:
 * now is the wall clock in ns); -EINVAL when it is not that shape. */
int mon_supervisor_write(FILE *f, const char *chain_label, const char *json, uint64_t now_ns);

/* The hook: its own thread, so a breach never stops the probes; it runs
 * one hook at a time, outside the probe node's network. */
struct mon_hook {
	const struct calvin_monitor_spec *spec;
	const char *chain;
	struct mon_metrics *m;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	char *pending; /* the event JSON to hand over; NULL: none */
	bool busy, stop, running;
};
int mon_hook_start(struct mon_hook *h, const char *chain, const struct calvin_monitor_spec *spec,
		   struct mon_metrics *m);
/* Hand event (JSON text) to the hook; false when one still runs. */
bool mon_hook_fire(struct mon_hook *h, const char *event);
void mon_hook_stop(struct mon_hook *h);
/* Is the hook program one root may run: an absolute path to a regular
 * file, not a symbolic link, root's (or ours), written by nobody else, in
 * folders nobody else can change? 0 or -errno with one line in why. */
int mon_hook_check(const char *path, char *why, size_t len);

/* The running monitor (cmd_monitor.c): its settings, threads and counts. */
struct monitor {
	struct calvin_chain_spec spec;
	struct calvin_monitor_spec *set; /* spec.monitor with the options applied */
	struct mon_metrics m;
	struct mon_collector collector;
	struct mon_hook hook;
	struct MHD_Daemon *http;
	uint16_t port;
	char started[40];
};

/* window.c: the time now as "2026-12-02T05:07:45Z" */
void mon_utc_text(char *buf, size_t len);
/* RUN_DIR/CHAIN.d/NAME into out, or -errno. */
int mon_chain_dir_file(char *out, size_t len, const char *chain, const char *name);
/* Replace monitor.json whole (a new file, renamed); last: the last
 * window's object, or NULL before the first. */
void mon_state_write(const struct monitor *mon, struct json_object *last);
/* A window as one JSON object: what its line, its event and the hook
 * say; the caller puts it. */
struct json_object *mon_window_jobj(const struct monitor *mon, const struct calvin_probe_result *r,
				    bool p99_over, bool lost);
/* The window's line on stdout (-j: the object on one line). */
void mon_window_line(const struct json_object *w);

#endif /* CALVIN_MONITOR_H */
