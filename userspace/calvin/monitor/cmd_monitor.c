// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin monitor CHAIN: probe a deployed chain without end, window by
 * window, until SIGTERM. Each window is one run of the probe engine (the
 * report's own histograms and verdict); its RTT, residence and link
 * histograms are added to the endpoint's series, and a window whose p99
 * exceeds the budget or that lost probes is a breach: an event with the
 * report's largest-share line, and the chain's hook. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <json-c/json.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "backend.h"
#include "chain/chain.h"
#include "commands.h"
#include "events/events.h"
#include "jout.h"
#include "monitor/monitor.h"
#include "probe.h"
#include "state.h"
#include "util.h"
#include "util/util.h"

#define NS_PER_S 1000000000ULL
/* a probe later than this after its window's last send counts as lost */
#define STRAGGLER_NS NS_PER_S

const struct option monitor_options[] = {
	{ "listen", required_argument, NULL, 'l' },
	{ "rate", required_argument, NULL, 'r' },
	{ "window", required_argument, NULL, 'w' },
	{ "allow-remote", no_argument, NULL, 'A' },
	{ NULL, 0, NULL, 0 },
};

/* --window 10 (seconds) or --window 10s, 500ms (a duration). */
static int window_arg(const char *s, uint64_t *ns)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!errno && end != s && !*end && v <= 3600) {
		*ns = v * NS_PER_S;
		return 0;
	}
	return calvin_parse_duration(s, ns);
}

/* monitor's own options: 0 or NULL where not given (the chain file's) */
static struct monitor_given {
	const char *listen; /* --listen ADDR:PORT */
	unsigned int rate;  /* --rate: probes per second */
	uint64_t window_ns; /* --window */
	bool allow_remote;  /* --allow-remote: a listen address that is not loopback */
} given;

int monitor_option(int c, const char *arg)
{
	struct monitor_given *m = &given;
	char *end;

	switch (c) {
	case 'l':
		m->listen = arg;
		return 0;
	case 'A':
		m->allow_remote = true;
		return 0;
	case 'r':
		errno = 0;
		m->rate = (unsigned int)strtoul(arg, &end, 10);
		if (errno || *end || end == arg || m->rate < 1 || m->rate > 100000)
			break;
		return 0;
	case 'w':
		if (window_arg(arg, &m->window_ns) || m->window_ns < NS_PER_S ||
		    m->window_ns > 3600 * NS_PER_S)
			break;
		return 0;
	default:
		return CALVIN_EXIT_USAGE;
	}
	calvin_err("option %s: '%s' is not %s", c == 'r' ? "--rate" : "--window", arg,
		   c == 'r' ? "a rate from 1 to 100000 per second" : "a window from 1 to 3600 s");
	return CALVIN_EXIT_USAGE;
}

/* The chain file's monitor section, then the command line over it. */
static int apply_options(struct calvin_monitor_spec *s, const struct monitor_given *a)
{
	if (a->rate)
		s->rate = a->rate;
	if (a->window_ns)
		s->window_ns = a->window_ns;
	if (a->allow_remote)
		s->allow_remote = true;
	if (a->listen) {
		if (strlen(a->listen) >= sizeof(s->listen_text) ||
		    calvin_parse_listen(a->listen, &s->listen)) {
			calvin_err("--listen '%s' is not ADDR:PORT; give e.g. 127.0.0.1:%u",
				   a->listen, CALVIN_MONITOR_PORT);
			return CALVIN_EXIT_USAGE;
		}
		strcpy(s->listen_text, a->listen);
	}
	/* metrics of a root process are nobody else's business by default */
	if (!s->allow_remote && !calvin_listen_is_local(&s->listen)) {
		calvin_err("listen %s is not a loopback address: the metrics would be open to the "
			   "network; add --allow-remote (or 'allow-remote: true') if that is meant",
			   s->listen_text);
		return CALVIN_EXIT_USAGE;
	}
	if ((uint64_t)s->rate * (s->window_ns / NS_PER_S) > 10000000ULL) {
		calvin_err("rate %u for %llu s windows is more than 10000000 probes a window; "
			   "lower one of them",
			   s->rate, (unsigned long long)(s->window_ns / NS_PER_S));
		return CALVIN_EXIT_USAGE;
	}
	return 0;
}

/* A breach: its event, and the same JSON for the hook's stdin. */
static void breach(struct monitor *mon, struct json_object *w)
{
	struct json_object *ev = json_object_new_object();
	char now[40];

	events_append(mon->spec.name, "breach", w);
	mon_utc_text(now, sizeof(now));
	json_object_object_add(ev, "time", json_object_new_string(now));
	json_object_object_add(ev, "chain", json_object_new_string(mon->spec.name));
	json_object_object_add(ev, "kind", json_object_new_string("breach"));
	json_object_object_foreach(w, k, v) json_object_object_add(ev, k, json_object_get(v));
	mon_hook_fire(&mon->hook, json_object_to_json_string_ext(ev, JSON_C_TO_STRING_PLAIN));
	json_object_put(ev);
}

/* One window: the probe engine's run, judged and added. 0, or -errno
 * when the probes could not run at all. */
static int one_window(struct monitor *mon, struct calvin_probe_result *r)
{
	const struct calvin_monitor_spec *s = mon->set;
	struct calvin_probe_opts o = { 0 };
	struct json_object *w;
	bool p99_over, lost;
	int err;

	inet_pton(AF_INET, SERVER_ADDR, &o.dst);
	o.port = (uint16_t)mon->spec.probe.port;
	o.rate = s->rate;
	o.count = (unsigned int)((uint64_t)s->rate * s->window_ns / NS_PER_S);
	o.count = o.count ? o.count : 1;
	o.mode = CALVIN_PROBE_PACED;
	o.size = mon->spec.probe.size;
	o.max_hops = (uint8_t)(2 * mon->spec.nr_vnfs);
	o.timeout_ns = STRAGGLER_NS < s->window_ns / 4 ? STRAGGLER_NS : s->window_ns / 4;
	err = calvin_probe_run(&o, r);
	/* a window that SIGTERM cut short is not judged */
	if (err || r->interrupted)
		return err;
	p99_over = r->received && calvin_hist_percentile(&r->rtt, 99) > mon->spec.budget_ns;
	lost = r->lost || r->send_errors || !r->received;
	mon_metrics_window(&mon->m, r, p99_over || lost, p99_over, lost);
	w = mon_window_jobj(mon, r, p99_over, lost);
	mon_window_line(w);
	if (p99_over || lost)
		breach(mon, w);
	mon_state_write(mon, w);
	json_object_put(w);
	return 0;
}

/* Threads started with the quit signals blocked, so SIGTERM reaches the
 * probing thread and ends its wait at once; SIGPIPE too (a hook that
 * does not read its input). */
static void block_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static int start_threads(struct monitor *mon)
{
	sigset_t old;
	int err;

	block_signals(&old);
	err = mon_http_start(&mon->m, &mon->set->listen, &mon->port, &mon->http);
	if (!err && mon_collect_start(&mon->collector, &mon->m))
		err = -EAGAIN;
	if (!err && mon_hook_start(&mon->hook, mon->spec.name, mon->set, &mon->m))
		err = -EAGAIN;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

static void stop_threads(struct monitor *mon)
{
	char path[PATH_MAX];

	mon_hook_stop(&mon->hook);
	mon_collect_stop(&mon->collector);
	mon_http_stop(mon->http);
	if (!mon_chain_dir_file(path, sizeof(path), mon->spec.name, MONITOR_STATE_FILE))
		unlink(path);
}

/* `calvin down` removes the journal first: windows after it would only
 * count lost probes. */
static bool chain_deployed(const char *chain)
{
	char path[PATH_MAX];

	return state_file(path, sizeof(path), chain, ".state") || !access(path, F_OK);
}

/* Windows until SIGTERM (or SIGINT), or until the chain is taken down. */
static int run_windows(struct monitor *mon)
{
	struct calvin_probe_result *r = calloc(1, sizeof(*r));
	int saved, err;

	if (!r)
		return CALVIN_EXIT_FAIL;
	err = backend_of(&mon->spec)->node_enter(&mon->spec, PROBE_NODE, &saved);
	if (err) {
		free(r);
		return CALVIN_EXIT_FAIL;
	}
	/* the log's first line (the supervisor keeps stderr) */
	fprintf(stderr,
		"calvin monitor: chain %s: %u probes/s in %g s windows; metrics on "
		"http://%s/metrics (port %u)\n",
		mon->spec.name, mon->set->rate, (double)mon->set->window_ns / NS_PER_S,
		mon->set->listen_text, mon->port);
	mon_state_write(mon, NULL);
	while (!calvin_quit && !err && chain_deployed(mon->spec.name))
		err = one_window(mon, r);
	if (!calvin_quit && !err)
		fprintf(stderr, "calvin monitor: chain %s is not deployed any more; stopping\n",
			mon->spec.name);
	node_leave(saved);
	free(r);
	if (err)
		calvin_err("probes of chain '%s' failed: %s", mon->spec.name, strerror(-err));
	return err ? CALVIN_EXIT_FAIL : 0;
}

static int monitor_setup(struct monitor *mon, const struct cmd_args *a)
{
	int rc;

	rc = check_name("chain", a->arg[0]);
	if (!rc)
		rc = need_root("calvin monitor");
	if (!rc)
		rc = deployed_spec(a->arg[0], &mon->spec);
	if (rc)
		return rc;
	mon->set = &mon->spec.monitor;
	rc = apply_options(mon->set, &given);
	if (rc)
		return rc;
	rc = monitor_check_hook(&mon->spec);
	if (rc)
		return rc;
	mon_utc_text(mon->started, sizeof(mon->started));
	return 0;
}

/* One monitor per chain (the supervisor's, or one run by hand): a second
 * would overwrite monitor.json and probe the chain twice. The lock goes
 * with the process, however it ends. The descriptor, or -1 after one line. */
static int monitor_lock(const char *chain)
{
	char path[PATH_MAX];
	int fd, err;

	err = mon_chain_dir_file(path, sizeof(path), chain, MONITOR_LOCK_FILE);
	fd = err ? err : open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		calvin_err("cannot lock the monitor of chain '%s': %s", chain,
			   strerror(err ? -err : errno));
		return -1;
	}
	if (!flock(fd, LOCK_EX | LOCK_NB))
		return fd;
	calvin_err("chain '%s' has a monitor already (calvin status %s shows it); stop it first",
		   chain, chain);
	close(fd);
	return -1;
}

int cmd_monitor(const struct cmd_args *a)
{
	struct monitor *mon = calloc(1, sizeof(*mon));
	int rc, lock = -1;

	if (!mon)
		return CALVIN_EXIT_FAIL;
	rc = monitor_setup(mon, a);
	if (!rc && (lock = monitor_lock(mon->spec.name)) < 0)
		rc = CALVIN_EXIT_FAIL;
	if (rc)
		goto out;
	jw_str(jout(), "chain", mon->spec.name);
	catch_quit_signals();
	/* the probes are housekeeping, and so are the threads made next */
	chain_pin_housekeeping(&mon->spec);
	mon_metrics_init(&mon->m, &mon->spec, mon->set->rate, mon->set->window_ns);
	rc = start_threads(mon) ? CALVIN_EXIT_FAIL : 0;
	if (!rc)
		rc = run_windows(mon);
	stop_threads(mon);
	jw_u64(jout(), "windows", mon->m.windows);
	jw_u64(jout(), "breaches", mon->m.breaches);
	mon_metrics_free(&mon->m);
	close(lock);
out:
	free(mon);
	return rc;
}
