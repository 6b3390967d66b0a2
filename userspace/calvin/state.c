// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Per-chain state journal (see state.h for the format and why). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "spec/spec.h"
#include "state.h"
#include "util.h"

static const char *const kind_word[] = {
	[ST_NETNS] = "netns",	    [ST_XDP] = "xdp",	      [ST_PROC] = "proc",
	[ST_PATH] = "path",	    [ST_BACKEND] = "backend", [ST_ISOLATE] = "isolate",
	[ST_NETSYSFS] = "netsysfs", [ST_SCHED] = "sched",     [ST_DOMAIN] = "domain",
	[ST_TAP] = "tap",	    [ST_BRIDGE] = "bridge",   [ST_HOST_XDP] = "hostxdp",
	[ST_VETH] = "veth",	    [ST_OVN_LS] = "ovnls",    [ST_OVN_LSP] = "ovnlsp",
	[ST_LV_POOL] = "lvpool",    [ST_LV_VOL] = "lvvol",   [ST_SUPERVISOR] = "supervisor",
	[ST_OVS_PORT] = "ovsport",
};

int state_file(char *out, size_t len, const char *chain, const char *suffix)
{
	int n;

	/* a name from the command line must not lead out of the directory */
	if (!calvin_name_valid(chain))
		return -EINVAL;
	n = snprintf(out, len, "%s/%s%s", calvin_run_dir(), chain, suffix);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

bool state_name_fits(const char *name)
{
	return strlen(name) <= STATE_NAME_MAX;
}

static int state_dir_refuse(const char *dir, const struct stat *st)
{
	if (!S_ISDIR(st->st_mode))
		calvin_err("state directory %s is not a directory; remove it", dir);
	else if (st->st_uid != 0)
		calvin_err("state directory %s belongs to uid %u, not root: that user could choose "
			   "what calvin removes; remove it, or 'chown root: %s'",
			   dir, (unsigned int)st->st_uid, dir);
	else if (st->st_mode & 077)
		calvin_err("state directory %s has mode %04o: group or others could choose what "
			   "calvin removes; 'chmod 700 %s'",
			   dir, (unsigned int)(st->st_mode & 07777), dir);
	else
		return 0;
	return CALVIN_EXIT_USAGE;
}

int state_dir_check(bool create)
{
	const char *dir = calvin_run_dir();
	struct stat st;

	if (lstat(dir, &st) == 0)
		return state_dir_refuse(dir, &st);
	if (errno == ENOENT && !create)
		return 0;
	if (errno == ENOENT && (mkdir(dir, 0700) == 0 || errno == EEXIST) && lstat(dir, &st) == 0)
		return state_dir_refuse(dir, &st);
	calvin_err("cannot %s state directory %s: %s", create ? "create the" : "read the", dir,
		   strerror(errno));
	return CALVIN_EXIT_FAIL;
}

/* Fault injection for the crash tests: CALVIN_CRASH_AFTER=N kills the
 * controller right after the N-th step is journalled, before the resource
 * or change it names is made: exactly the window `down` must cope with.
 * Steps count the entries of this chain's journal and the writes to the
 * host-wide isolation record alike. */
void journal_step(void)
{
	static unsigned int steps;
	const char *n = getenv("CALVIN_CRASH_AFTER");

	if (n && (unsigned int)atoi(n) == ++steps)
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
	s->fd = -1;
	snprintf(s->chain, sizeof(s->chain), "%s", chain);
	err = state_file(s->path, sizeof(s->path), chain, ".state");
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
	case ST_ISOLATE:
	case ST_TAP:
	case ST_BRIDGE:
	case ST_HOST_XDP:
	case ST_VETH:
		return sscanf(line, " %255[^\n]", e->name) == 1 ? 0 : -EINVAL;
	case ST_DOMAIN:
	case ST_OVN_LS:
	case ST_OVN_LSP:
	case ST_LV_POOL:
	case ST_LV_VOL:
	case ST_OVS_PORT:
		return sscanf(line, "%255s %255s", e->name, e->uri) == 2 ? 0 : -EINVAL;
	case ST_XDP:
		return sscanf(line, "%255s %63s", e->name, e->ifname) == 2 ? 0 : -EINVAL;
	case ST_NETSYSFS:
		return sscanf(line, "%255s %63s %319s", e->name, e->ifname, e->value) == 3
			   ? 0
			   : -EINVAL;
	case ST_SCHED:
		return sscanf(line, "%d %llu %319[^\n]", &e->pid, &e->start, e->value) == 3
			   ? 0
			   : -EINVAL;
	case ST_PROC:
	case ST_SUPERVISOR:
		return sscanf(line, "%255s %d %llu", e->name, &e->pid, &e->start) == 3 ? 0
											 : -EINVAL;
	case ST_NR_KINDS:
		break;
	}
	return -EINVAL;
}

static int read_entries(struct chain_state *s)
{
	char line[1024];
	long off;
	FILE *f;

	f = fdopen(dup(s->fd), "r");
	if (!f)
		return -errno;
	/* a line cut short by a crash is skipped: its resource was never made */
	while (s->nr < STATE_MAX_ENTRIES) {
		off = ftell(f);
		if (!fgets(line, sizeof(line), f))
			break;
		if (!strchr(line, '\n'))
			continue;
		if (parse_line(&s->e[s->nr], line) == 0) {
			s->e[s->nr].off = off;
			s->e[s->nr++].len = (unsigned int)strlen(line);
		}
	}
	fclose(f);
	return 0;
}

int state_peek(struct chain_state *s, const char *chain)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	snprintf(s->chain, sizeof(s->chain), "%s", chain);
	err = state_file(s->path, sizeof(s->path), chain, ".state");
	if (err)
		return err;
	s->fd = open(s->path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0)
		return -errno;
	err = read_entries(s);
	close(s->fd);
	s->fd = -1;
	return err;
}

int state_open(struct chain_state *s, const char *chain)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	snprintf(s->chain, sizeof(s->chain), "%s", chain);
	err = state_file(s->path, sizeof(s->path), chain, ".state");
	if (err)
		return err;
	s->fd = open(s->path, O_RDWR | O_APPEND | O_CLOEXEC);
	if (s->fd < 0)
		return -errno;
	err = state_lock(s);
	if (!err)
		err = read_entries(s);
	if (!err)
		return 0;
	close(s->fd);
	s->fd = -1;
	return err;
}

/* "PID START" of a process entry, and the width a proc line gives them. */
#define PROC_FIELDS_LEN 31 /* 10 digits, a blank, 20 digits */
static const char *proc_fields(const struct state_entry *e, char *buf, size_t len)
{
	snprintf(buf, len, "%d %llu", (int)e->pid, e->start);
	return buf;
}

static int format_line(const struct state_entry *e, char *line, size_t len)
{
	const char *w = kind_word[e->kind];
	char fields[48];

	switch (e->kind) {
	case ST_XDP:
		return snprintf(line, len, "xdp %s %s\n", e->name, e->ifname);
	case ST_PROC:
		/* room for any PID and start time: a successor fits in place */
		return snprintf(line, len, "%s %s %-*s\n", w, e->name, PROC_FIELDS_LEN,
				proc_fields(e, fields, sizeof(fields)));
	case ST_SUPERVISOR:
		return snprintf(line, len, "%s %s %d %llu\n", w, e->name, (int)e->pid, e->start);
	case ST_NETSYSFS:
		return snprintf(line, len, "%s %s %s %s\n", w, e->name, e->ifname, e->value);
	case ST_SCHED:
		return snprintf(line, len, "%s %d %llu %s\n", w, (int)e->pid, e->start, e->value);
	case ST_DOMAIN:
	case ST_OVN_LS:
	case ST_OVN_LSP:
	case ST_LV_POOL:
	case ST_LV_VOL:
	case ST_OVS_PORT:
		return snprintf(line, len, "%s %s %s\n", w, e->name, e->uri);
	default:
		return snprintf(line, len, "%s %s\n", w, e->name);
	}
}

/* Does the journal hold e already? A supervisor's restart of a VNF
 * names the VNF's runtime dir and ports again: once is enough. */
static bool state_has(const struct chain_state *s, const struct state_entry *e)
{
	const struct state_entry *o;
	unsigned int i;

	for (i = 0; i < s->nr; i++) {
		o = &s->e[i];
		if (o->kind == e->kind && o->pid == e->pid && o->start == e->start &&
		    !strcmp(o->name, e->name) && !strcmp(o->ifname, e->ifname) &&
		    !strcmp(o->uri, e->uri) && !strcmp(o->value, e->value))
			return true;
	}
	return false;
}

/* A process entry of e's node whose process is gone, with a line as long
 * as e's: its place is e's. -1 if none. */
static int state_gone_proc(const struct chain_state *s, const struct state_entry *e,
			   unsigned int len)
{
	unsigned int i;

	for (i = 0; e->kind == ST_PROC && i < s->nr; i++)
		if (s->e[i].kind == ST_PROC && !strcmp(s->e[i].name, e->name) &&
		    s->e[i].len == len && !proc_is(s->e[i].pid, s->e[i].start))
			return (int)i;
	return -1;
}

/* Write line over entry i's, synced. The file is opened for appending,
 * where pwrite() would append too: the flag is off for this one write. */
static int state_rewrite(struct chain_state *s, unsigned int i, const char *line)
{
	int flags = fcntl(s->fd, F_GETFL), err = 0;
	long off = s->e[i].off;
	ssize_t n;

	if (flags < 0 || fcntl(s->fd, F_SETFL, flags & ~O_APPEND) < 0)
		return -errno;
	n = pwrite(s->fd, line, s->e[i].len, off);
	if (n != (ssize_t)s->e[i].len || fdatasync(s->fd) < 0)
		err = errno ? -errno : -EIO;
	fcntl(s->fd, F_SETFL, flags);
	if (err)
		return err;
	parse_line(&s->e[i], (char *)line);
	s->e[i].off = off;
	s->e[i].len = (unsigned int)n;
	journal_step();
	return 0;
}

int state_append(struct chain_state *s, const struct state_entry *e)
{
	char line[1024];
	int n, i;

	if (state_has(s, e))
		return 0;
	if (!state_name_fits(e->name))
		return -ENAMETOOLONG;
	/* Ctrl-C: no new resource; the caller undoes what the journal holds */
	if (calvin_quit)
		return -EINTR;
	n = format_line(e, line, sizeof(line));
	if (n < 0 || n >= (int)sizeof(line))
		return -ENAMETOOLONG;
	i = state_gone_proc(s, e, (unsigned int)n);
	if (i >= 0)
		return state_rewrite(s, (unsigned int)i, line);
	if (s->nr >= STATE_MAX_ENTRIES)
		return -ENOSPC;
	if (write(s->fd, line, n) != n || fdatasync(s->fd) < 0)
		return errno ? -errno : -EIO;
	parse_line(&s->e[s->nr], line);
	s->e[s->nr].off = lseek(s->fd, 0, SEEK_END) - n;
	s->e[s->nr++].len = (unsigned int)n;
	journal_step();
	return 0;
}

int state_add(struct chain_state *s, enum state_kind kind, const char *name, const char *ifname,
	      pid_t pid, unsigned long long start)
{
	struct state_entry e = { .kind = kind, .pid = pid, .start = start };
	/* a domain's second field is its connection's URI, an OVN entry's its
	 * database */
	bool uri = kind == ST_DOMAIN || kind == ST_OVN_LS || kind == ST_OVN_LSP ||
		   kind == ST_LV_POOL || kind == ST_LV_VOL || kind == ST_OVS_PORT;
	char *second = uri ? e.uri : e.ifname;
	size_t room = uri ? sizeof(e.uri) : sizeof(e.ifname);

	/* never cut: a name cut short could be someone else's */
	if (!state_name_fits(name) || (ifname && strlen(ifname) >= room))
		return -ENAMETOOLONG;
	snprintf(e.name, sizeof(e.name), "%s", name);
	if (ifname)
		snprintf(second, room, "%s", ifname);
	return state_append(s, &e);
}

void state_close(struct chain_state *s, bool remove)
{
	if (remove)
		unlink(s->path);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}
