// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The monitor's collector thread: every COLLECT_EVERY_MS, the VNFs'
 * counters (what `calvin status` reads: BPF maps of kernel VNFs, the
 * telemetry socket of user VNFs) and the supervisor's health
 * (RUN_DIR/CHAIN.d/supervisor.json), as exposition text for the endpoint.
 * It runs in the host's network, apart from the probes, so a VNF that
 * does not answer (2 s) never delays a window or a scrape. */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "guest/guest.h"
#include "monitor/monitor.h"
#include "state.h"
#include "util.h"

#define MAX_SAMPLES 2048
/* the supervisor refreshes its heartbeat every 2 s: three missed is down */

struct sample {
	char name[80];
	char labels[200];
	uint64_t v;
};

struct samples {
	unsigned int n;
	struct sample s[MAX_SAMPLES];
};

static void sample_add(struct samples *ss, const char *name, const char *labels, uint64_t v)
{
	struct sample *s;

	if (ss->n == MAX_SAMPLES)
		return;
	s = &ss->s[ss->n++];
	snprintf(s->name, sizeof(s->name), "calvin_vnf_%s_total", name);
	snprintf(s->labels, sizeof(s->labels), "%s", labels);
	s->v = v;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct sample *)a)->name, ((const struct sample *)b)->name);
}

/* A counter name from a VNF's answer becomes part of a metric name: only
 * what Prometheus allows, and nothing a VNF could use to forge a line. */
static bool name_ok(const char *s)
{
	size_t n = strlen(s);

	return n && n < 48 && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == n;
}

static void vnf_labels(char *l, size_t len, const char *chain_label,
		       const struct calvin_vnf_spec *v)
{
	snprintf(l, len, "%s", chain_label);
	calvin_prom_label(l, len, "vnf", v->name);
	calvin_prom_label(l, len, "tier", v->space == CALVIN_KERNEL ? "kernel" : "user");
}

static bool kernel_counters(const struct calvin_chain_spec *spec, unsigned int vnf,
			    const char *base, struct samples *ss)
{
	static const char *const dirs[] = { "fwd", "rev" };
	struct kvnf_counters c;
	char l[200];
	unsigned int i;
	int d;

	if (backend_of(spec)->kernel_stats(spec, vnf, &c))
		return false;
	for (d = 0; d < CALVIN_NR_DIRS; d++) {
		snprintf(l, sizeof(l), "%s", base);
		calvin_prom_label(l, sizeof(l), "direction", dirs[d]);
		for (i = 0; i < calvin_xdp_nr_stat_fields; i++)
			sample_add(ss, calvin_xdp_stat_fields[i].name, l,
				   calvin_xdp_stat(&c.dir[d], i));
	}
	return true;
}

/* "west_rx_packets" is rx_packets of port west; the others are the VNF's. */
static void user_counter(struct samples *ss, const char *base, const char *name, uint64_t v)
{
	char l[200];

	if (!strncmp(name, "west_", 5) || !strncmp(name, "east_", 5)) {
		snprintf(l, sizeof(l), "%s", base);
		calvin_prom_label(l, sizeof(l), "port", name[0] == 'w' ? "west" : "east");
		sample_add(ss, name + 5, l, v);
	} else {
		sample_add(ss, name, base, v);
	}
}

static bool user_counters(const struct calvin_chain_spec *spec, unsigned int vnf, const char *base,
			  struct samples *ss)
{
	char *buf = malloc(CALVIN_VNF_ANSWER_MAX), why[256];
	struct json_object *counters = NULL;
	bool ok = false;

	if (buf && !backend_of(spec)->user_stats(spec, vnf, buf, CALVIN_VNF_ANSWER_MAX) &&
	    !calvin_vnf_stats_parse(buf, strlen(buf), &counters, why, sizeof(why))) {
		json_object_object_foreach(counters, name, val)
		{
			if (name_ok(name) && json_object_is_type(val, json_type_int))
				user_counter(ss, base, name, json_object_get_uint64(val));
		}
		ok = true;
	}
	json_object_put(counters);
	free(buf);
	return ok;
}

static void write_vnfs(FILE *f, const struct mon_metrics *m)
{
	static struct samples ss; /* the collector thread's alone */
	const struct calvin_chain_spec *spec = m->spec;
	char base[200];
	unsigned int i;
	bool up;

	ss.n = 0;
	calvin_prom_family(f, "calvin_vnf_up", "gauge",
			   "1 when the VNF's counters could be read (it answers).");
	for (i = 0; i < spec->nr_vnfs; i++) {
		vnf_labels(base, sizeof(base), m->chain_label, &spec->vnfs[i]);
		up = spec->vnfs[i].space == CALVIN_KERNEL ? kernel_counters(spec, i, base, &ss)
							  : user_counters(spec, i, base, &ss);
		calvin_prom_sample(f, "calvin_vnf_up", base, up);
	}
	qsort(ss.s, ss.n, sizeof(ss.s[0]), by_name);
	for (i = 0; i < ss.n; i++) {
		if (!i || strcmp(ss.s[i].name, ss.s[i - 1].name))
			calvin_prom_family(f, ss.s[i].name, "counter",
					   "A VNF's counter, as calvin status shows it.");
		calvin_prom_sample(f, ss.s[i].name, ss.s[i].labels, (double)ss.s[i].v);
	}
}

static char *read_small(const char *path)
{
	char *buf = NULL;
	size_t len = 0, n;
	FILE *f = fopen(path, "re");

	if (!f)
		return NULL;
	buf = malloc(65536);
	if (buf) {
		n = fread(buf, 1, 65535, f);
		buf[n] = 0;
		len = n;
	}
	fclose(f);
	(void)len;
	return buf;
}

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void write_supervisor(FILE *f, const struct mon_metrics *m)
{
	char path[PATH_MAX], dir[PATH_MAX];
	char *json = NULL;

	if (!state_file(dir, sizeof(dir), m->spec->name, ".d") &&
	    (size_t)snprintf(path, sizeof(path), "%s/supervisor.json", dir) < sizeof(path))
		json = read_small(path);
	if (!json || mon_supervisor_write(f, m->chain_label, json, wall_ns())) {
		calvin_prom_family(
		    f, "calvin_supervisor_up", "gauge",
		    "1 when the chain's supervisor runs and its heartbeat is fresh.");
		calvin_prom_sample(f, "calvin_supervisor_up", m->chain_label, 0);
	}
	free(json);
}

static void *collect_thread(void *arg)
{
	struct mon_collector *c = arg;
	struct timespec nap = { .tv_sec = 0, .tv_nsec = 100000000 };
	char *text;
	size_t len;
	FILE *f;
	int i;

	while (!c->stop) {
		text = NULL;
		f = open_memstream(&text, &len);
		if (f) {
			write_vnfs(f, c->m);
			write_supervisor(f, c->m);
			if (!fclose(f))
				mon_metrics_collected(c->m, text);
			else
				free(text);
		}
		for (i = 0; i < COLLECT_EVERY_MS / 100 && !c->stop; i++)
			nanosleep(&nap, NULL);
	}
	return NULL;
}

int mon_collect_start(struct mon_collector *c, struct mon_metrics *m)
{
	memset(c, 0, sizeof(*c));
	c->m = m;
	if (pthread_create(&c->thread, NULL, collect_thread, c))
		return -EAGAIN;
	c->running = true;
	return 0;
}

void mon_collect_stop(struct mon_collector *c)
{
	if (!c->running)
		return;
	c->stop = true;
	pthread_join(c->thread, NULL);
}
