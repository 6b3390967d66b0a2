// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Per-chain state journal (see state.h for the format and why). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "state.h"
#include "util.h"

static const char *const kind_word[] = {
	[ST_NETNS] = "netns",
	[ST_XDP] = "xdp",
	[ST_PROC] = "proc",
	[ST_PATH] = "path",
	[ST_BACKEND] = "backend",
	[ST_DOMAIN] = "domain",
	[ST_TAP] = "tap",
	[ST_BRIDGE] = "bridge",
	[ST_HOST_XDP] = "hostxdp",
	[ST_VETH] = "veth",
};

void state_file(char *out, size_t len, const char *chain, const char *suffix)
{
	snprintf(out, len, "%s/%s%s", calvin_run_dir(), chain, suffix);
}

/* Fault injection for the crash tests: CALVIN_CRASH_AFTER=N kills the
 * controller right after the N-th entry is journalled, before the resource
 * it names is made: exactly the window `down` must cope with. */
static void crash_point(unsigned int nr)
{
	const char *n = getenv("CALVIN_CRASH_AFTER");

	if (n && (unsigned int)atoi(n) == nr)
		raise(SIGKILL);
}

/* Wait a little for the lock: a controller that was just killed may have
 * left a child that still shares the journal's open file for a moment. */
static int state_lock(struct chain_state *s)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int tries;

	for (tries = 0; tries < 250; tries++) {
		if (flock(s->fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK)
			return -errno;
		nanosleep(&ts, NULL);
	}
	return -EBUSY;
}

int state_create(struct chain_state *s, const char *chain)
{
	int err;

	memset(s, 0, sizeof(*s));
	snprintf(s->chain, sizeof(s->chain), "%s", chain);
	state_file(s->path, sizeof(s->path), chain, ".state");
	err = mkdir_p(calvin_run_dir(), 0700);
	if (err)
		return err;
	s->fd = open(s->path, O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
	if (s->fd < 0)
		return -errno;
	err = state_lock(s);
	if (err) {
		close(s->fd);
		return err;
	}
	return 0;
}

static int parse_line(struct state_entry *e, char *line)
{
	char word[16];
	int n;

	memset(e, 0, sizeof(*e));
	if (sscanf(line, "%15s%n", word, &n) != 1)
		return -EINVAL;
	line += n;
	for (e->kind = 0; e->kind < ST_NR_KINDS; e->kind++)
		if (!strcmp(word, kind_word[e->kind]))
			break;
	switch (e->kind) {
	case ST_NETNS:
	case ST_PATH:
	case ST_BACKEND:
	case ST_TAP:
	case ST_BRIDGE:
	case ST_HOST_XDP:
	case ST_VETH:
		return sscanf(line, " %255[^\n]", e->name) == 1 ? 0 : -EINVAL;
	case ST_DOMAIN:
		return sscanf(line, "%255s %255s", e->name, e->uri) == 2 ? 0 : -EINVAL;
	case ST_XDP:
		return sscanf(line, "%255s %31s", e->name, e->ifname) == 2 ? 0 : -EINVAL;
	case ST_PROC:
		return sscanf(line, "%255s %d %llu", e->name, &e->pid, &e->start) == 3 ? 0
											 : -EINVAL;
	case ST_NR_KINDS:
		break;
	}
	return -EINVAL;
}

int state_open(struct chain_state *s, const char *chain)
{
	char line[512];
	FILE *f;
	int err;

	memset(s, 0, sizeof(*s));
	snprintf(s->chain, sizeof(s->chain), "%s", chain);
	state_file(s->path, sizeof(s->path), chain, ".state");
	s->fd = open(s->path, O_RDWR | O_APPEND | O_CLOEXEC);
	if (s->fd < 0)
		return -errno;
	err = state_lock(s);
	if (err)
		goto close_fd;
	f = fdopen(dup(s->fd), "r");
	if (!f) {
		err = -errno;
		goto close_fd;
	}
	/* a line cut short by a crash is skipped: its resource was never made */
	while (fgets(line, sizeof(line), f) && s->nr < STATE_MAX_ENTRIES) {
		if (!strchr(line, '\n'))
			continue;
		if (parse_line(&s->e[s->nr], line) == 0)
			s->nr++;
	}
	fclose(f);
	return 0;
close_fd:
	close(s->fd);
	s->fd = -1;
	return err;
}

int state_add(struct chain_state *s, enum state_kind kind, const char *name, const char *ifname,
	      pid_t pid, unsigned long long start)
{
	char line[512];
	int n;

	if (s->nr >= STATE_MAX_ENTRIES)
		return -ENOSPC;
	switch (kind) {
	case ST_XDP:
		n = snprintf(line, sizeof(line), "xdp %s %s\n", name, ifname);
		break;
	case ST_PROC:
		n = snprintf(line, sizeof(line), "proc %s %d %llu\n", name, (int)pid, start);
		break;
	case ST_DOMAIN:
		n = snprintf(line, sizeof(line), "domain %s %s\n", name, ifname);
		break;
	default:
		n = snprintf(line, sizeof(line), "%s %s\n", kind_word[kind], name);
		break;
	}
	if (n >= (int)sizeof(line))
		return -ENAMETOOLONG;
	if (write(s->fd, line, n) != n || fdatasync(s->fd) < 0)
		return errno ? -errno : -EIO;
	parse_line(&s->e[s->nr++], line);
	crash_point(s->nr);
	return 0;
}

void state_close(struct chain_state *s, bool remove)
{
	if (remove)
		unlink(s->path);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}
