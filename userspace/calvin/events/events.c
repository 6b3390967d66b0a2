// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The chain's event log (events.h): appended as JSON lines under the
 * chain's run folder, and sent to syslog where /dev/log exists. */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "events/events.h"
#include "state.h"

#define EVENTS_FILE "/events.jsonl"
/* a tail reads at most this much of the end of the log */
#define EVENTS_TAIL_BYTES (256 * 1024)

static int events_path(char *out, size_t len, const char *chain)
{
	char dir[PATH_MAX];
	int err = state_file(dir, sizeof(dir), chain, ".d");

	if (err)
		return err;
	if ((size_t)snprintf(out, len, "%s%s", dir, EVENTS_FILE) >= len)
		return -ENAMETOOLONG;
	return 0;
}

static void utc_now(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%09ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec);
}

/* syslog only where a daemon listens: openlog would otherwise retry */
static void events_syslog(const char *line)
{
	if (access("/dev/log", W_OK))
		return;
	openlog("calvin", LOG_PID | LOG_NDELAY, LOG_DAEMON);
	syslog(LOG_NOTICE, "%s", line);
	closelog();
}

static int append_line(const char *path, const char *text)
{
	size_t len = strlen(text);
	char *line = malloc(len + 2);
	ssize_t n;
	int fd, err = 0;

	if (!line)
		return -ENOMEM;
	memcpy(line, text, len);
	memcpy(line + len, "\n", 2);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		free(line);
		return -errno;
	}
	n = write(fd, line, len + 1);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len + 1)
		err = -EIO;
	close(fd);
	free(line);
	return err;
}

int events_append(const char *chain, const char *kind, struct json_object *fields)
{
	struct json_object *ev = json_object_new_object();
	char path[PATH_MAX], now[48];
	const char *text;
	int err;

	if (!ev)
		return -ENOMEM;
	err = events_path(path, sizeof(path), chain);
	if (err)
		goto out;
	utc_now(now, sizeof(now));
	json_object_object_add(ev, "time", json_object_new_string(now));
	json_object_object_add(ev, "chain", json_object_new_string(chain));
	json_object_object_add(ev, "kind", json_object_new_string(kind));
	if (fields) {
		json_object_object_foreach(fields, key, val)
		{
			if (strcmp(key, "time") && strcmp(key, "chain") && strcmp(key, "kind"))
				json_object_object_add(ev, key, json_object_get(val));
		}
	}
	text = json_object_to_json_string_ext(ev, JSON_C_TO_STRING_PLAIN);
	err = append_line(path, text);
	if (!err)
		events_syslog(text);
out:
	json_object_put(ev);
	return err;
}

/* The last part of the log, from the start of a whole line; NULL if none. */
static char *read_end(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	char *buf, *start;
	off_t size, from;
	ssize_t n;

	if (fd < 0)
		return NULL;
	size = lseek(fd, 0, SEEK_END);
	from = size > EVENTS_TAIL_BYTES ? size - EVENTS_TAIL_BYTES : 0;
	buf = size >= 0 ? malloc((size_t)(size - from) + 1) : NULL;
	n = buf ? pread(fd, buf, (size_t)(size - from), from) : -1;
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	start = from ? strchr(buf, '\n') : buf;
	if (!start) {
		free(buf);
		return NULL;
	}
	if (start != buf)
		memmove(buf, start + 1, strlen(start + 1) + 1);
	return buf;
}

struct json_object *events_tail(const char *chain, size_t n)
{
	struct json_object *all = json_object_new_array(), *out, *ev;
	char path[PATH_MAX], *text, *line, *save = NULL;
	size_t len, i;

	if (!all)
		return NULL;
	text = events_path(path, sizeof(path), chain) ? NULL : read_end(path);
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		ev = json_tokener_parse(line);
		if (ev && json_object_is_type(ev, json_type_object))
			json_object_array_add(all, ev);
		else
			json_object_put(ev);
	}
	free(text);
	len = json_object_array_length(all);
	if (len <= n)
		return all;
	out = json_object_new_array();
	for (i = len - n; out && i < len; i++)
		json_object_array_add(out, json_object_get(json_object_array_get_idx(all, i)));
	json_object_put(all);
	return out;
}
