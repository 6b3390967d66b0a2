// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The bench journal, RUN_DIR/bench.journal: what a running `calvin bench`
 * started (process groups of interference and cyclictest) and deployed
 * (chains), each line synced before the thing exists, as calvin's state
 * journal does for a chain. The running bench holds a lock on it; a
 * journal nobody holds belongs to a bench that was killed, and the next
 * `calvin bench` or `calvin down --all` undoes what it names:
 *
 *   bench PID START            the bench that wrote it
 *   proc PGID START COMM       a process group (its leader, the command)
 *   chain NAME                 a chain about to be deployed
 *   end proc PGID | end chain NAME   stopped, torn down
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "chain/chain.h"
#include "state.h"
#include "util.h"

#define MAX_ENTRIES 256

static int journal_path(char *out, size_t len)
{
	int n = snprintf(out, len, "%s/%s", calvin_run_dir(), BENCH_JOURNAL);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int append(struct bench_journal *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int append(struct bench_journal *j, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line))
		return -ENAMETOOLONG;
	if (write(j->fd, line, (size_t)n) != n || fdatasync(j->fd) < 0)
		return errno ? -errno : -EIO;
	return 0;
}

int bench_journal_proc(struct bench_journal *j, pid_t pgid, unsigned long long start,
		       const char *comm)
{
	return append(j, "proc %d %llu %s\n", (int)pgid, start, comm);
}

int bench_journal_proc_end(struct bench_journal *j, pid_t pgid)
{
	return append(j, "end proc %d\n", (int)pgid);
}

int bench_journal_chain(struct bench_journal *j, const char *chain)
{
	return append(j, "chain %s\n", chain);
}

int bench_journal_chain_end(struct bench_journal *j, const char *chain)
{
	return append(j, "end chain %s\n", chain);
}

/* Process PID's group and start time, and its command name. */
static bool proc_facts(pid_t pid, pid_t *pgrp, unsigned long long *start, char *comm, size_t len)
{
	char p[64], buf[1024], *s, *e;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
	f = fopen(p, "re");
	if (!f)
		return false;
	s = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (!s || !(s = strchr(buf, '(')) || !(e = strrchr(buf, ')')))
		return false;
	snprintf(comm, len, "%.*s", (int)(e - s - 1), s + 1);
	/* after ") ": state ppid pgrp ...; starttime is field 22 */
	if (sscanf(e + 2, "%*c %*d %d", pgrp) != 1)
		return false;
	*start = proc_start_time(pid);
	return *start != 0;
}

/* Signal every live member of the group that is the journal's: started
 * no earlier than its leader and running its command. Returns how many. */
static int signal_group(pid_t pgid, unsigned long long start, const char *comm, int sig)
{
	unsigned long long st;
	struct dirent *de;
	char c[64];
	pid_t pid, pgrp;
	int found = 0;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		pid = (pid_t)atoi(de->d_name);
		if (pid <= 1 || !proc_facts(pid, &pgrp, &st, c, sizeof(c)))
			continue;
		if (pgrp != pgid || st < start || strncmp(c, comm, strlen(comm)))
			continue;
		kill(pid, sig);
		found++;
	}
	closedir(d);
	return found;
}

int bench_group_stop(pid_t pgid, unsigned long long start, const char *comm)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int found, i;

	if (pgid <= 1)
		return 0;
	found = signal_group(pgid, start, comm, SIGTERM);
	for (i = 0; found && i < 100; i++) {
		while (waitpid(-pgid, NULL, WNOHANG) > 0)
			; /* our children: reap them, or they stay as zombies */
		if (!signal_group(pgid, start, comm, 0))
			return found;
		nanosleep(&ts, NULL);
	}
	if (found)
		signal_group(pgid, start, comm, SIGKILL);
	while (waitpid(-pgid, NULL, WNOHANG) > 0)
		;
	return found;
}

struct journal_entry {
	bool chain, ended;
	pid_t pid;
	unsigned long long start;
	char name[64];
};

static int parse_entries(FILE *f, struct journal_entry *e, unsigned int *nr)
{
	char line[512], name[64];
	unsigned int i;
	int pid;

	*nr = 0;
	while (fgets(line, sizeof(line), f) && *nr < MAX_ENTRIES) {
		struct journal_entry *x = &e[*nr];

		memset(x, 0, sizeof(*x));
		if (!strchr(line, '\n'))
			continue; /* cut short by a crash: never acted on */
		if (sscanf(line, "proc %d %llu %63s", &pid, &x->start, x->name) == 3) {
			x->pid = pid;
			(*nr)++;
		} else if (sscanf(line, "chain %63s", x->name) == 1 && calvin_name_valid(x->name)) {
			x->chain = true;
			(*nr)++;
		} else if (sscanf(line, "end proc %d", &pid) == 1) {
			for (i = 0; i < *nr; i++)
				if (!e[i].chain && e[i].pid == pid)
					e[i].ended = true;
		} else if (sscanf(line, "end chain %63s", name) == 1) {
			for (i = 0; i < *nr; i++)
				if (e[i].chain && !strcmp(e[i].name, name))
					e[i].ended = true;
		}
	}
	return 0;
}

/* Undo what a killed bench's journal names: processes first (they may
 * load the chains' cores), then chains. */
static int undo(FILE *f, int *procs, int *chains)
{
	struct journal_entry *e = calloc(MAX_ENTRIES, sizeof(*e));
	unsigned int nr, i;
	int err = 0;

	if (!e)
		return -ENOMEM;
	parse_entries(f, e, &nr);
	for (i = 0; i < nr; i++)
		if (!e[i].chain && !e[i].ended)
			*procs += bench_group_stop(e[i].pid, e[i].start, e[i].name);
	for (i = 0; i < nr; i++) {
		if (!e[i].chain || e[i].ended)
			continue;
		if (chain_down(e[i].name))
			err = -EIO;
		else
			(*chains)++;
	}
	free(e);
	return err;
}

int bench_journal_recover(void)
{
	char path[PATH_MAX];
	int fd, err, procs = 0, chains = 0;
	FILE *f;

	if (journal_path(path, sizeof(path)))
		return -ENAMETOOLONG;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		err = errno == EWOULDBLOCK ? -EBUSY : -errno;
		close(fd);
		return err;
	}
	f = fdopen(dup(fd), "re");
	err = f ? undo(f, &procs, &chains) : -errno;
	if (f)
		fclose(f);
	if (!err)
		unlink(path);
	close(fd);
	if (procs || chains)
		calvin_err("a calvin bench was killed: stopped %d of its processes, took down %d "
			   "of its chains%s",
			   procs, chains,
			   err ? "; some would not go: run 'calvin down --all'" : "");
	return err;
}

int bench_journal_open(struct bench_journal *j)
{
	int err;

	j->fd = -1;
	err = state_dir_check(true);
	if (err)
		return err;
	err = bench_journal_recover();
	if (err == -EBUSY) {
		calvin_err("another calvin bench is running; wait for it to finish");
		return CALVIN_EXIT_USAGE;
	}
	if (!err)
		err = journal_path(j->path, sizeof(j->path));
	if (!err) {
		j->fd = open(j->path, O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
		err = j->fd < 0 ? -errno : 0;
	}
	if (!err && flock(j->fd, LOCK_EX | LOCK_NB) < 0)
		err = -errno;
	if (!err)
		err = append(j, "bench %d %llu\n", (int)getpid(), proc_start_time(getpid()));
	if (!err)
		return 0;
	calvin_err("cannot start the bench journal %s: %s", j->path, strerror(-err));
	if (j->fd >= 0) {
		unlink(j->path);
		close(j->fd);
		j->fd = -1;
	}
	return CALVIN_EXIT_FAIL;
}

void bench_journal_close(struct bench_journal *j, bool clean)
{
	if (j->fd < 0)
		return;
	if (clean)
		unlink(j->path);
	close(j->fd);
	j->fd = -1;
}
