// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The host record (format in userspace/lib/plan/plan.h): the journal of host-wide
 * isolation, shared by every isolated chain, under RUN_DIR/isolation.host.
 * A lock file beside it (never removed, so every controller locks the same
 * inode) serialises the chains that join and leave. */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "isolate_priv.h"
#include "util.h"

#define LOCK_WAIT_MS 30000

/* Another controller holds the lock for a few milliseconds per chain
 * (the task sweep); a killed one releases it as it dies. */
static int lock_wait(int fd)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int waited;

	for (waited = 0; waited < LOCK_WAIT_MS; waited += 10) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK)
			return -errno;
		nanosleep(&ts, NULL);
	}
	return -EBUSY;
}

static int read_record(int fd, struct calvin_hostrec *r)
{
	struct calvin_hostrec_entry *e;
	char *line = NULL;
	size_t cap = 0;
	int err = 0;
	FILE *in;

	in = fdopen(dup(fd), "r");
	if (!in)
		return -errno;
	e = malloc(sizeof(*e));
	if (!e) {
		fclose(in);
		return -ENOMEM;
	}
	/* a line cut short by a crash is skipped: its change was never made */
	while (!err && getline(&line, &cap, in) > 0)
		if (strchr(line, '\n') && !calvin_hostrec_parse(line, e))
			err = calvin_hostrec_add(r, e);
	free(line);
	free(e);
	fclose(in);
	return err;
}

int hostrec_open(const struct isolate_host *h, struct hostrec_file *f)
{
	char path[PATH_MAX];
	int err;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	err = mkdir_p(h->run_dir, 0700);
	if (!err)
		err = pathf(path, sizeof(path), "%s/%s", h->run_dir, HOSTREC_LOCK);
	if (!err)
		err = pathf(f->path, sizeof(f->path), "%s/%s", h->run_dir, HOSTREC_FILE);
	if (err)
		return err;
	f->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (f->lock_fd < 0)
		return -errno;
	err = lock_wait(f->lock_fd);
	if (err)
		goto close_lock;
	f->fd = open(f->path, O_RDWR | O_APPEND | O_CLOEXEC);
	if (f->fd < 0) {
		/* no record: nothing is isolated yet */
		err = errno == ENOENT ? 0 : -errno;
		if (err)
			goto close_lock;
		return 0;
	}
	err = read_record(f->fd, &f->r);
	if (!err)
		return 0;
	close(f->fd);
	calvin_hostrec_free(&f->r);
close_lock:
	close(f->lock_fd);
	return err;
}

int hostrec_read(const struct isolate_host *h, struct calvin_hostrec *r)
{
	char path[PATH_MAX];
	int fd, err;

	memset(r, 0, sizeof(*r));
	if (pathf(path, sizeof(path), "%s/%s", h->run_dir, HOSTREC_FILE))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	err = read_record(fd, r);
	close(fd);
	return err;
}

int hostrec_append(struct hostrec_file *f, const struct calvin_hostrec_entry *e, unsigned int n)
{
	size_t len = (size_t)n * (CALVIN_HOSTREC_PATH_MAX + CALVIN_HOSTREC_VALUE_MAX + 16),
	       used = 0;
	unsigned int i;
	char *buf;
	int err = 0;

	if (!n)
		return 0;
	if (f->fd < 0) {
		f->fd = open(f->path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
		if (f->fd < 0)
			return -errno;
	}
	buf = malloc(len);
	if (!buf)
		return -ENOMEM;
	for (i = 0; !err && i < n; i++) {
		err = calvin_hostrec_format(&e[i], buf + used, len - used);
		used += strlen(buf + used);
	}
	/* one write, then one sync: the lines are on disk before the changes */
	if (!err && (write(f->fd, buf, used) != (ssize_t)used || fdatasync(f->fd) < 0))
		err = errno ? -errno : -EIO;
	free(buf);
	for (i = 0; !err && i < n; i++)
		err = calvin_hostrec_add(&f->r, &e[i]);
	if (!err)
		journal_step();
	return err;
}

int hostrec_add(struct hostrec_file *f, enum calvin_hostrec_kind kind, const char *path,
		const char *value)
{
	struct calvin_hostrec_entry *e = calloc(1, sizeof(*e));
	int err;

	if (!e)
		return -ENOMEM;
	e->kind = kind;
	err = pathf(e->path, sizeof(e->path), "%s", path);
	if (!err && value)
		err = pathf(e->value, sizeof(e->value), "%s", value);
	if (!err)
		err = hostrec_append(f, e, 1);
	free(e);
	return err;
}

unsigned int hostrec_live_chains(const struct isolate_host *h, const struct hostrec_file *f,
				 const char *skip, const char **names, unsigned int max)
{
	unsigned int nr = calvin_hostrec_chains(&f->r, names, max), i, live = 0;
	char path[PATH_MAX];

	/* a chain whose journal is gone can no longer be brought down: it
	 * does not keep the isolation alive */
	for (i = 0; i < nr; i++)
		if ((!skip || strcmp(names[i], skip)) &&
		    !pathf(path, sizeof(path), "%s/%s.state", h->run_dir, names[i]) &&
		    access(path, F_OK) == 0)
			names[live++] = names[i];
	return live;
}

void hostrec_close(struct hostrec_file *f, bool remove)
{
	if (remove)
		unlink(f->path);
	if (f->fd >= 0)
		close(f->fd);
	close(f->lock_fd);
	calvin_hostrec_free(&f->r);
	f->fd = -1;
}

/* What the isolation steps share: the first note of a run, and writes
 * that record the value they replace first. */
void ctx_note(struct isolate_ctx *x, const char *fmt, ...)
{
	va_list ap;

	if (x->note[0])
		return; /* the first says enough */
	va_start(ap, fmt);
	vsnprintf(x->note, sizeof(x->note), fmt, ap);
	va_end(ap);
}

int rec_write_from(struct isolate_ctx *x, const char *path, const char *from, const char *text)
{
	char old[CALVIN_HOSTREC_VALUE_MAX];
	int err;

	if (!calvin_hostrec_original(&x->rec.r, path)) {
		err = read_text(from, old, sizeof(old));
		if (!err)
			err = hostrec_add(&x->rec, HR_FILE, path, old);
		if (err)
			return err;
	}
	return write_text(path, text);
}

int rec_write(struct isolate_ctx *x, const char *path, const char *text)
{
	return rec_write_from(x, path, path, text);
}
