// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Where the host keeps the files isolation changes, and small file helpers
 * that take every path whole, so that a test can root them elsewhere. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "isolate_priv.h"
#include "plan/plan.h"
#include "textfile.h"
#include "util.h"

int pathf(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int read_text(const char *path, char *buf, size_t len)
{
	return calvin_read_text(path, buf, len);
}

/* One write(2), as the kernel's files want: they parse one value per write. */
int write_text(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		err = errno ? -errno : -EIO;
	if (close(fd) < 0 && !err)
		err = -errno;
	return err;
}

int cg_mkdir(const struct isolate_host *h, const char *path)
{
	if (h->mkdir)
		return h->mkdir(path);
	return mkdir(path, 0755) < 0 ? -errno : 0;
}

int cg_rmdir(const struct isolate_host *h, const char *path)
{
	if (h->rmdir)
		return h->rmdir(path);
	return rmdir(path) < 0 ? -errno : 0;
}

void read_cpulist(const char *path, struct calvin_cpumask *m)
{
	char buf[CALVIN_CPUS_TEXT_MAX];

	if (read_text(path, buf, sizeof(buf)) || calvin_cpumask_parse_list(buf, m))
		memset(m, 0, sizeof(*m));
}

static void walk(const char *dir, int depth, void (*fn)(const char *path, void *arg), void *arg)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (depth > 16 || !(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.' ||
		    pathf(path, sizeof(path), "%s/%s", dir, de->d_name))
			continue;
		fn(path, arg);
		walk(path, depth + 1, fn, arg);
	}
	closedir(d);
}

void cg_walk(const char *dir, void (*fn)(const char *path, void *arg), void *arg)
{
	walk(dir, 0, fn, arg);
}

int task_stat(const struct isolate_host *h, pid_t tid, struct calvin_procstat *st)
{
	char path[PATH_MAX], buf[1024];
	int err;

	err = pathf(path, sizeof(path), "%s/%d/stat", h->proc, (int)tid);
	if (!err)
		err = read_text(path, buf, sizeof(buf));
	return err ? err : calvin_procstat_parse(buf, st);
}

bool is_kthread(const struct isolate_host *h, pid_t tid)
{
	struct calvin_procstat st;

	return !task_stat(h, tid, &st) && (st.flags & PF_KTHREAD);
}

unsigned int count_lines(const char *path)
{
	unsigned int n = 0;
	char line[32];
	FILE *f = fopen(path, "re");

	while (f && fgets(line, sizeof(line), f))
		n++;
	if (f)
		fclose(f);
	return n;
}

bool next_thread(const struct isolate_host *h, pid_t pid, pid_t *tid)
{
	char path[PATH_MAX];
	struct dirent *de;
	pid_t t, best = 0;
	DIR *dir;

	if (pathf(path, sizeof(path), "%s/%d/task", h->proc, (int)pid))
		return false;
	dir = opendir(path);
	if (!dir)
		return false;
	/* the smallest TID above *tid, so a thread made meanwhile is not missed
	 * nor one seen twice */
	while ((de = readdir(dir))) {
		t = (pid_t)atoi(de->d_name);
		if (t > 0 && t != pid && t > *tid && (!best || t < best))
			best = t;
	}
	closedir(dir);
	*tid = best;
	return best != 0;
}

bool has_word(const char *list, const char *word, char sep)
{
	size_t n = strlen(word);
	const char *p = list;

	while (p && *p) {
		if (!strncmp(p, word, n) && (p[n] == sep || p[n] == '\0' || p[n] == '\n'))
			return true;
		p = strchr(p, sep);
		p = p ? p + 1 : NULL;
	}
	return false;
}

/* One line of /proc/self/mountinfo: "ID PARENT M:N ROOT MOUNTPOINT OPTS
 * [OPTIONAL...] - FSTYPE SOURCE SUPEROPTS". */
static void mount_line(struct isolate_host *h, const char *line)
{
	char root[PATH_MAX], point[PATH_MAX], fstype[64], super[512];
	const char *dash = strstr(line, " - ");

	if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", root, point) != 2 ||
	    sscanf(dash, " - %63s %*s %511s", fstype, super) != 2)
		return;
	if (!strcmp(fstype, "cgroup") && has_word(super, "cpuset", ',') && !h->v1[0])
		snprintf(h->v1, sizeof(h->v1), "%s", point);
	else if (!strcmp(fstype, "cgroup2") && !h->v2[0])
		snprintf(h->v2, sizeof(h->v2), "%s", point);
}

int isolate_host_detect(struct isolate_host *h)
{
	char line[2 * PATH_MAX + 1024], path[PATH_MAX], ctrl[512];
	FILE *f;

	memset(h, 0, sizeof(*h));
	strcpy(h->proc, "/proc");
	strcpy(h->sys, "/sys");
	snprintf(h->run_dir, sizeof(h->run_dir), "%s", calvin_run_dir());
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		mount_line(h, line);
	fclose(f);
	if (h->v2[0] && !pathf(path, sizeof(path), "%s/cgroup.controllers", h->v2) &&
	    !read_text(path, ctrl, sizeof(ctrl)))
		h->v2_cpuset = has_word(ctrl, "cpuset", ' ');
	return 0;
}
