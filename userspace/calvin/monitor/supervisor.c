// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The supervisor's health as the monitor exports it, from the file the
 * supervisor keeps (RUN_DIR/CHAIN.d/supervisor.json): {"pid", "started",
 * "heartbeat" (RFC 3339, refreshed at least every 2 s), "vnfs": [{"name",
 * "state", "restarts", "last_exit", "uptime_s", "pid"}]}. Up means its
 * process lives and its heartbeat is fresh. */
#include <errno.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "monitor/monitor.h"

#define HEARTBEAT_STALE_S 6.0

/* "2026-12-02T04:50:49.123Z" or "...+01:00" to ns since the epoch; 0 when
 * it is not that. */
static uint64_t rfc3339_ns(const char *s)
{
	struct tm tm = { 0 };
	const char *p = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	uint64_t frac = 0, scale = 1000000000ULL;
	int sign, off = 0;
	time_t t;

	if (!p)
		return 0;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(*p - '0') * scale;
			}
	if (*p == '+' || *p == '-') {
		sign = *p == '-' ? -1 : 1;
		if (strlen(p) != 6 || p[3] != ':')
			return 0;
		off = sign *
		      ((p[1] - '0') * 600 + (p[2] - '0') * 60 + (p[4] - '0') * 10 + (p[5] - '0')) *
		      60;
	} else if (strcmp(p, "Z") && strcmp(p, "z")) {
		return 0;
	}
	t = timegm(&tm) - off;
	return t < 0 ? 0 : (uint64_t)t * 1000000000ULL + frac;
}

static const char *const states[] = { "running", "restarting", "stalled", "failed", NULL };

static void vnf_family(FILE *f, const char *chain_label, struct json_object *vnfs,
		       const char *metric, const char *key)
{
	struct json_object *v, *name, *val;
	char l[256];
	size_t i;

	for (i = 0; i < json_object_array_length(vnfs); i++) {
		v = json_object_array_get_idx(vnfs, i);
		if (!json_object_object_get_ex(v, "name", &name) ||
		    !json_object_object_get_ex(v, key, &val))
			continue;
		snprintf(l, sizeof(l), "%s", chain_label);
		calvin_prom_label(l, sizeof(l), "vnf", json_object_get_string(name));
		calvin_prom_sample(f, metric, l, json_object_get_double(val));
	}
}

/* One series per state the supervisor knows, 1 for the VNF's own. */
static void vnf_states(FILE *f, const char *chain_label, struct json_object *vnfs)
{
	struct json_object *v, *name, *state;
	char l[256];
	size_t i;
	int s;

	calvin_prom_family(f, "calvin_vnf_state", "gauge",
			   "1 for the supervisor's state of the VNF, 0 for the others.");
	for (i = 0; i < json_object_array_length(vnfs); i++) {
		v = json_object_array_get_idx(vnfs, i);
		if (!json_object_object_get_ex(v, "name", &name) ||
		    !json_object_object_get_ex(v, "state", &state))
			continue;
		for (s = 0; states[s]; s++) {
			snprintf(l, sizeof(l), "%s", chain_label);
			calvin_prom_label(l, sizeof(l), "vnf", json_object_get_string(name));
			calvin_prom_label(l, sizeof(l), "state", states[s]);
			calvin_prom_sample(f, "calvin_vnf_state", l,
					   !strcmp(json_object_get_string(state), states[s]));
		}
	}
}

int mon_supervisor_write(FILE *f, const char *chain_label, const char *json, uint64_t now_ns)
{
	struct json_object *o = json_tokener_parse(json), *pid, *hb, *vnfs;
	uint64_t beat;
	double age;
	bool up;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "pid", &pid) ||
	    !json_object_object_get_ex(o, "heartbeat", &hb) ||
	    !json_object_object_get_ex(o, "vnfs", &vnfs) ||
	    !json_object_is_type(vnfs, json_type_array) ||
	    !(beat = rfc3339_ns(json_object_get_string(hb)))) {
		json_object_put(o);
		return -EINVAL;
	}
	age = now_ns > beat ? (double)(now_ns - beat) / 1e9 : 0;
	up = age <= HEARTBEAT_STALE_S && json_object_get_int(pid) > 0 &&
	     (kill(json_object_get_int(pid), 0) == 0 || errno == EPERM);
	calvin_prom_family(f, "calvin_supervisor_up", "gauge",
			   "1 when the chain's supervisor runs and its heartbeat is fresh.");
	calvin_prom_sample(f, "calvin_supervisor_up", chain_label, up);
	calvin_prom_family(f, "calvin_supervisor_heartbeat_age_seconds", "gauge",
			   "Seconds since the supervisor's last heartbeat.");
	calvin_prom_sample(f, "calvin_supervisor_heartbeat_age_seconds", chain_label, age);
	calvin_prom_family(f, "calvin_vnf_restarts_total", "counter",
			   "Restarts of the VNF by the supervisor.");
	vnf_family(f, chain_label, vnfs, "calvin_vnf_restarts_total", "restarts");
	calvin_prom_family(f, "calvin_vnf_uptime_seconds", "gauge",
			   "Seconds since the supervisor last started the VNF.");
	vnf_family(f, chain_label, vnfs, "calvin_vnf_uptime_seconds", "uptime_s");
	vnf_states(f, chain_label, vnfs);
	json_object_put(o);
	return 0;
}
