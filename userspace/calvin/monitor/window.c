// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The monitor's words and files: a window as JSON (its line, its event,
 * the hook's input) and as a line of text, RUN_DIR/CHAIN.d/monitor.json,
 * and the wish `up --monitor` leaves for the supervisor. */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "jout.h"
#include "monitor/monitor.h"
#include "state.h"
#include "util.h"
#include "util/util.h"

#define NS_PER_S 1000000000ULL

void mon_utc_text(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* RUN_DIR/CHAIN.d/NAME, or -errno. */
int mon_chain_dir_file(char *out, size_t len, const char *chain, const char *name)
{
	char dir[PATH_MAX];
	int err = state_file(dir, sizeof(dir), chain, ".d");

	if (err)
		return err;
	return (size_t)snprintf(out, len, "%s/%s", dir, name) < len ? 0 : -ENAMETOOLONG;
}

/* Replace RUN_DIR/CHAIN.d/monitor.json whole (a new file, renamed). */
void mon_state_write(const struct monitor *mon, struct json_object *last)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	struct json_object *o = json_object_new_object();
	const char *text;
	int fd;

	json_object_object_add(o, "pid", json_object_new_int(getpid()));
	json_object_object_add(o, "listen", json_object_new_string(mon->set->listen_text));
	json_object_object_add(o, "port", json_object_new_int(mon->port));
	json_object_object_add(o, "started", json_object_new_string(mon->started));
	json_object_object_add(o, "rate", json_object_new_int((int)mon->set->rate));
	json_object_object_add(o, "window_s",
			       json_object_new_double((double)mon->set->window_ns / NS_PER_S));
	json_object_object_add(o, "windows", json_object_new_uint64(mon->m.windows));
	json_object_object_add(o, "breaches", json_object_new_uint64(mon->m.breaches));
	if (last)
		json_object_object_add(o, "last_window", json_object_get(last));
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	if (!mon_chain_dir_file(path, sizeof(path), mon->spec.name, MONITOR_STATE_FILE)) {
		snprintf(tmp, sizeof(tmp), "%s.tmp", path);
		unlink(tmp);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			if (write(fd, text, strlen(text)) == (ssize_t)strlen(text) &&
			    write(fd, "\n", 1) == 1)
				rename(tmp, path);
			else
				unlink(tmp);
			close(fd);
		}
	}
	json_object_put(o);
}

/* The window as one JSON object: what the line, the event and the hook
 * say. */
struct json_object *mon_window_jobj(const struct monitor *mon, const struct calvin_probe_result *r,
				    bool p99_over, bool lost)
{
	struct json_object *o = json_object_new_object();
	struct calvin_share share;
	char end[40], line[CALVIN_VERDICT_LEN + CALVIN_LABEL_LEN];

	mon_utc_text(end, sizeof(end));
	json_object_object_add(o, "window", json_object_new_uint64(mon->m.windows));
	json_object_object_add(o, "end", json_object_new_string(end));
	json_object_object_add(o, "sent", json_object_new_uint64(r->sent + r->send_errors));
	json_object_object_add(o, "received", json_object_new_uint64(r->received));
	json_object_object_add(o, "lost", json_object_new_uint64(r->lost + r->send_errors));
	json_object_object_add(o, "rtt_p50_ns",
			       json_object_new_uint64(calvin_hist_percentile(&r->rtt, 50)));
	json_object_object_add(o, "rtt_p99_ns",
			       json_object_new_uint64(calvin_hist_percentile(&r->rtt, 99)));
	json_object_object_add(o, "rtt_max_ns", json_object_new_uint64(r->rtt.max));
	json_object_object_add(o, "budget_ns", json_object_new_uint64(mon->spec.budget_ns));
	json_object_object_add(o, "breach", json_object_new_boolean(p99_over || lost));
	if (!(p99_over || lost))
		return o;
	json_object_object_add(o, "p99_over_budget", json_object_new_boolean(p99_over));
	json_object_object_add(o, "lost_probes", json_object_new_boolean(lost));
	if (!calvin_report_largest_share(&mon->spec, r, &share)) {
		calvin_share_text(&share, line, sizeof(line));
		json_object_object_add(o, "largest_share", json_object_new_string(line));
	}
	return o;
}

static uint64_t member_u64(const struct json_object *w, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(w, key, &v) ? json_object_get_uint64(v) : 0;
}

void mon_window_line(const struct json_object *w)
{
	struct json_object *over = NULL, *share = NULL;
	char a[CALVIN_DUR_LEN], b[CALVIN_DUR_LEN];
	bool p99 = false, lost = member_u64(w, "lost") != 0;

	if (calvin_json) {
		printf("%s\n", json_object_to_json_string_ext((struct json_object *)w,
							      JSON_C_TO_STRING_PLAIN));
		fflush(stdout);
		return;
	}
	printf("window %llu: %llu/%llu probes back, rtt p50 %s p99 %s",
	       (unsigned long long)member_u64(w, "window"),
	       (unsigned long long)member_u64(w, "received"),
	       (unsigned long long)member_u64(w, "sent"),
	       calvin_fmt_ns(a, member_u64(w, "rtt_p50_ns")),
	       calvin_fmt_ns(b, member_u64(w, "rtt_p99_ns")));
	if (!json_object_object_get_ex(w, "p99_over_budget", &over)) {
		printf(": within budget\n");
	} else {
		p99 = json_object_get_boolean(over);
		json_object_object_get_ex(w, "largest_share", &share);
		printf(": breach (%s%s%s)%s%s\n", p99 ? "p99 over budget" : "",
		       p99 && lost ? ", " : "", lost ? "lost probes" : "",
		       share ? "; largest share: " : "",
		       share ? json_object_get_string(share) : "");
	}
	fflush(stdout);
}

bool monitor_wanted(const struct calvin_chain_spec *spec)
{
	char path[PATH_MAX];

	if (spec->monitor.on)
		return true;
	return !mon_chain_dir_file(path, sizeof(path), spec->name, MONITOR_WISH_FILE) &&
	       !access(path, F_OK);
}

int monitor_request(const char *chain)
{
	char path[PATH_MAX];
	int fd, err;

	err = mon_chain_dir_file(path, sizeof(path), chain, MONITOR_WISH_FILE);
	fd = err ? err : open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		calvin_err("chain %s is up, but its monitor could not be asked for: %s", chain,
			   strerror(err ? -err : errno));
		return CALVIN_EXIT_FAIL;
	}
	close(fd);
	jw_bool(jout(), "monitor", true);
	return 0;
}
