// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Report folders written as root (outdir.h): the folder found by walking
 * its path one folder at a time from a descriptor of the one before, each
 * checked before the next step, symlinks followed only where the folder
 * that holds them is trusted; then files made relative to the folder's
 * descriptor. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outdir.h"
#include "util.h"

#define MAX_LINKS 40 /* as the kernel's own path walk */

struct walk {
	const char *given; /* the path as given, for messages */
	uid_t uid;
	gid_t gid;
	int cur;		 /* O_PATH descriptor of the folder reached */
	char at[PATH_MAX];	 /* its path, for messages */
	char rest[2 * PATH_MAX]; /* what is left to walk */
	unsigned int links;
};

/* The caller: the real user; root's under sudo is the user who ran sudo,
 * whose folders the report is for (only root can set SUDO_UID for a
 * process that runs as root). */
static void caller(uid_t *uid, gid_t *gid)
{
	const char *u = getenv("SUDO_UID"), *g = getenv("SUDO_GID");
	char *end;
	unsigned long v;

	*uid = getuid();
	*gid = getgid();
	if (*uid != 0 || !u || !g)
		return;
	v = strtoul(u, &end, 10);
	if (*u && !*end && v < (uid_t)-1)
		*uid = (uid_t)v;
	v = strtoul(g, &end, 10);
	if (*g && !*end && v < (gid_t)-1)
		*gid = (gid_t)v;
}

static int refuse(const struct walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(const struct walk *w, const char *fmt, ...)
{
	char line[PATH_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	calvin_err("report folder %s: %s", w->given, line);
	return CALVIN_EXIT_USAGE;
}

/* A folder above the report folder: only root and the caller may change
 * what it holds, or others only under the sticky bit (they cannot move
 * what is not theirs, as in /tmp). */
static int check_above(const struct walk *w, const struct stat *st)
{
	if (st->st_uid != 0 && st->st_uid != w->uid)
		return refuse(w,
			      "%s belongs to user %u, who could swap the folder under it: give "
			      "a folder whose parents only you and root can change",
			      w->at, (unsigned int)st->st_uid);
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX))
		return refuse(
		    w,
		    "%s can be written by group or others and is not sticky (mode %03o), so "
		    "the folder under it could be swapped: give a folder whose parents "
		    "only you and root can change",
		    w->at, (unsigned int)(st->st_mode & 07777));
	return 0;
}

/* The report folder itself: the caller's (or root's, under sudo), written
 * by nobody else. */
static int check_final(const struct walk *w, const struct stat *st)
{
	if (st->st_uid != w->uid && st->st_uid != getuid())
		return refuse(w,
			      "it belongs to user %u, not to you (user %u): give a folder of "
			      "your own, or a new path for calvin to create",
			      (unsigned int)st->st_uid, (unsigned int)w->uid);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return refuse(w,
			      "group or others can write it (mode %03o): 'chmod go-w' it, or "
			      "give a new path for calvin to create",
			      (unsigned int)(st->st_mode & 07777));
	return 0;
}

/* The next component of w->rest into comp (skipping "" and "."); false
 * when none is left. *last: no component after it. */
static bool next_component(struct walk *w, char *comp, size_t len, bool *last)
{
	char *p = w->rest, *e;
	size_t n;

	for (;;) {
		while (*p == '/')
			p++;
		if (!*p)
			return false;
		e = p + strcspn(p, "/");
		n = (size_t)(e - p);
		if (n != 1 || *p != '.')
			break;
		p = e;
	}
	snprintf(comp, len, "%.*s", (int)n, p);
	memmove(w->rest, e, strlen(e) + 1);
	for (p = w->rest; *p == '/' || (p[0] == '.' && (p[1] == '/' || !p[1])); p++)
		;
	*last = !*p;
	return true;
}

/* dir/comp as a path for messages ("/" joins no slash; ".." goes up);
 * out may be dir. */
static void path_join(char *out, size_t len, const char *dir, const char *comp)
{
	size_t n;
	char *slash;

	if (out != dir)
		snprintf(out, len, "%s", dir);
	n = strlen(out);
	if (strcmp(comp, "..")) {
		snprintf(out + n, len - n, "%s%s", strcmp(out, "/") ? "/" : "", comp);
		return;
	}
	slash = strrchr(out, '/');
	if (slash)
		slash[slash == out] = '\0';
}

/* a/b into out; -ENAMETOOLONG when it does not fit */
static int concat(char *out, size_t len, const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);

	if (na + nb + 2 > len)
		return -ENAMETOOLONG;
	memcpy(out, a, na);
	out[na] = '/';
	memcpy(out + na + 1, b, nb + 1);
	return 0;
}

static int go_root(struct walk *w)
{
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (w->cur >= 0)
		close(w->cur);
	w->cur = fd;
	snprintf(w->at, sizeof(w->at), "/");
	return 0;
}

/* A symlink on the way, in a folder already trusted: followed if root or
 * the caller made it, its target walked in place of it (from / or from
 * the folder that holds it). */
static int follow(struct walk *w, const char *comp, const struct stat *st, bool last)
{
	char target[PATH_MAX], rest[sizeof(w->rest)], link[PATH_MAX + NAME_MAX + 2];
	ssize_t n;

	path_join(link, sizeof(link), w->at, comp);
	if (last)
		return refuse(w,
			      "it is a symbolic link: give the folder it leads to, or a new path "
			      "for calvin to create");
	if (st->st_uid != 0 && st->st_uid != w->uid)
		return refuse(w, "%s is a symbolic link of user %u: give the path without it", link,
			      (unsigned int)st->st_uid);
	if (++w->links > MAX_LINKS)
		return refuse(w, "too many symbolic links on the way (%s)", link);
	n = readlinkat(w->cur, comp, target, sizeof(target) - 1);
	if (n <= 0)
		return refuse(w, "cannot read the symbolic link %s: %s", link, strerror(errno));
	target[n] = '\0';
	if (concat(rest, sizeof(rest), target, w->rest))
		return refuse(w, "the path is too long with %s", link);
	memcpy(w->rest, rest, sizeof(rest));
	return target[0] == '/' && go_root(w) ? CALVIN_EXIT_FAIL : 0;
}

/* comp, made (0700, the caller's) if it is missing. */
static int look(struct walk *w, const char *comp, struct stat *st)
{
	int tries;

	for (tries = 0; tries < 3; tries++) {
		if (fstatat(w->cur, comp, st, AT_SYMLINK_NOFOLLOW) == 0)
			return 0;
		if (errno != ENOENT)
			break;
		if (mkdirat(w->cur, comp, 0700) < 0 && errno != EEXIST)
			break;
		if (geteuid() != w->uid &&
		    fchownat(w->cur, comp, w->uid, w->gid, AT_SYMLINK_NOFOLLOW) < 0)
			break;
	}
	return refuse(w, "cannot create or look at %s in %s: %s", comp, w->at, strerror(errno));
}

/* Into comp, checked as a folder above the report's unless it is last. */
static int step(struct walk *w, const char *comp, bool last)
{
	struct stat st;
	int fd, rc;

	rc = look(w, comp, &st);
	if (rc)
		return rc;
	if (S_ISLNK(st.st_mode))
		return follow(w, comp, &st, last);
	path_join(w->at, sizeof(w->at), w->at, comp);
	if (!S_ISDIR(st.st_mode))
		return refuse(w, "%s is not a folder: give another path", w->at);
	fd = openat(w->cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return refuse(w, "%s changed while calvin looked at it (%s): try again", w->at,
			      strerror(errno));
	close(w->cur);
	w->cur = fd;
	if (fstat(fd, &st) < 0)
		return CALVIN_EXIT_FAIL;
	return last ? 0 : check_above(w, &st);
}

/* Every component of w->rest from w->cur, then the folder reached opened
 * into *fd and checked as the report folder. */
static int walk_run(struct walk *w, int *fd)
{
	char comp[NAME_MAX + 1];
	struct stat st;
	bool last;
	int rc = 0;

	while (!rc && next_component(w, comp, sizeof(comp), &last))
		rc = strlen(comp) > NAME_MAX - 1 ? refuse(w, "a name is too long")
						 : step(w, comp, last);
	if (!rc) {
		*fd = openat(w->cur, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		rc = *fd < 0 || fstat(*fd, &st) ? CALVIN_EXIT_FAIL : check_final(w, &st);
	}
	close(w->cur);
	w->cur = -1;
	return rc;
}

int outdir_open(struct outdir *d, const char *path)
{
	struct walk w = { .given = path, .cur = -1 };
	char cwd[PATH_MAX];
	struct stat st;
	int rc;

	d->fd = -1;
	snprintf(d->path, sizeof(d->path), "%s", path);
	caller(&d->uid, &d->gid);
	w.uid = d->uid;
	w.gid = d->gid;
	if (!*path)
		return refuse(&w, "an empty path; give a folder");
	cwd[0] = '\0';
	if (path[0] != '/' && !getcwd(cwd, sizeof(cwd)))
		return refuse(&w, "cannot tell the current folder: %s", strerror(errno));
	/* a relative path is walked from / too: the folders above the
	 * current one count as much as the others */
	if (concat(w.rest, sizeof(w.rest), cwd, path))
		return refuse(&w, "the path is too long");
	if (go_root(&w) || fstat(w.cur, &st) < 0) {
		rc = CALVIN_EXIT_FAIL;
	} else {
		rc = check_above(&w, &st);
		if (!rc)
			rc = walk_run(&w, &d->fd);
	}
	if (w.cur >= 0)
		close(w.cur);
	if (rc)
		outdir_close(d);
	return rc;
}

int outdir_sub(const struct outdir *d, const char *name, struct outdir *sub)
{
	struct walk w = { .uid = d->uid, .gid = d->gid };
	int rc;

	if (strchr(name, '/') || concat(sub->path, sizeof(sub->path), d->path, name))
		return CALVIN_EXIT_FAIL;
	sub->uid = d->uid;
	sub->gid = d->gid;
	sub->fd = -1;
	w.given = sub->path;
	snprintf(w.at, sizeof(w.at), "%s", d->path);
	snprintf(w.rest, sizeof(w.rest), "%s", name);
	w.cur = fcntl(d->fd, F_DUPFD_CLOEXEC, 3);
	if (w.cur < 0)
		return CALVIN_EXIT_FAIL;
	rc = walk_run(&w, &sub->fd);
	if (rc)
		outdir_close(sub);
	return rc;
}

void outdir_close(struct outdir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

/* name in d, new: O_EXCL makes it or fails, O_NOFOLLOW never opens
 * through a link. Only the caller can write in d, so a file of that name
 * there is an earlier report's (or a link planted before): it goes first,
 * itself, not what it may lead to. The descriptor, or -errno (one line). */
static int outdir_create(const struct outdir *d, const char *name)
{
	const int flags = O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC;
	int fd, err;

	fd = openat(d->fd, name, flags, 0644);
	if (fd < 0 && errno == EEXIST) {
		if (unlinkat(d->fd, name, 0) < 0) {
			err = -errno;
			calvin_err("cannot replace %s/%s: %s%s", d->path, name, strerror(-err),
				   err == -EISDIR ? " (a folder: remove it, or give another)" : "");
			return err;
		}
		fd = openat(d->fd, name, flags, 0644);
	}
	if (fd < 0) {
		err = -errno;
		calvin_err("cannot write %s/%s: %s", d->path, name, strerror(-err));
		return err;
	}
	if (geteuid() != d->uid && fchown(fd, d->uid, d->gid) < 0) {
		err = -errno;
		calvin_err("cannot give %s/%s to user %u: %s", d->path, name, (unsigned int)d->uid,
			   strerror(-err));
		close(fd);
		return err;
	}
	return fd;
}

static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

FILE *outdir_file(const struct outdir *d, const char *name)
{
	int fd = outdir_create(d, name);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		calvin_err("cannot write %s/%s: %s", d->path, name, strerror(errno));
		close(fd);
	}
	return f;
}

int outdir_copy(const struct outdir *d, const char *name, int from)
{
	char buf[65536];
	off_t off = 0;
	ssize_t n = 0;
	int fd, err = 0;

	fd = outdir_create(d, name);
	if (fd < 0)
		return fd;
	while (!err && (n = pread(from, buf, sizeof(buf), off)) > 0) {
		off += n;
		err = write_all(fd, buf, (size_t)n);
	}
	if (!err && n < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (err)
		calvin_err("cannot write %s/%s: %s", d->path, name, strerror(-err));
	return err;
}
