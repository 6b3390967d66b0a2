// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The host reader's cgroup part: the cpuset of the controller's own cgroup
 * (cgroup v1 where cpuset is mounted as a v1 hierarchy, as on hosts with a
 * hybrid layout, else cgroup v2) and the CPUs of cgroup v2 isolated
 * partitions. Mount points come from proc/self/mountinfo and are looked up
 * below root, so a test tree holds them at the same relative places. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host_priv.h"

#define WALK_DEPTH 16

struct cg_mount {
	char root[PATH_MAX];  /* of the mount, inside the hierarchy */
	char point[PATH_MAX]; /* where it is mounted */
};

/* mountinfo escapes blanks and backslashes as \ooo. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* Is word one of the comma-separated items of list? */
static bool has_item(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (p && *p) {
		if (!strncmp(p, word, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

/* The v1 hierarchy with the cpuset controller (v2: the cgroup2 mount). */
static bool find_mount(const char *root, bool v2, struct cg_mount *m)
{
	char path[PATH_MAX], fstype[64], opts[1024], *line = NULL, *sep;
	size_t cap = 0;
	bool found = false;
	FILE *f;

	host_path(path, sizeof(path), root, "proc/self/mountinfo");
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		sep = strstr(line, " - ");
		if (!sep || sscanf(sep + 3, "%63s %*s %1023s", fstype, opts) != 2)
			continue;
		if (v2 ? strcmp(fstype, "cgroup2")
		       : strcmp(fstype, "cgroup") || !has_item(opts, "cpuset"))
			continue;
		if (sscanf(line, "%*s %*s %*s %4095s %4095s", m->root, m->point) != 2)
			continue;
		unescape(m->root);
		unescape(m->point);
		found = true;
	}
	free(line);
	fclose(f);
	return found;
}

/* This process's cgroup in the v1 cpuset hierarchy or in v2. */
static bool own_cgroup(const char *root, bool v2, char *out, size_t len)
{
	char path[PATH_MAX], *line = NULL, *ctl, *cg;
	size_t cap = 0;
	bool found = false;
	FILE *f;

	host_path(path, sizeof(path), root, "proc/self/cgroup");
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		ctl = strchr(line, ':');
		cg = ctl ? strchr(ctl + 1, ':') : NULL;
		if (!cg)
			continue;
		*cg++ = '\0';
		*ctl++ = '\0';
		if (v2 ? strcmp(line, "0") || *ctl : !has_item(ctl, "cpuset"))
			continue;
		snprintf(out, len, "%s", cg);
		found = true;
	}
	free(line);
	fclose(f);
	return found;
}

/* The directory of cgroup cg (as in proc/self/cgroup) under mount m,
 * without root: the path as the host sees it. */
static bool cgroup_dir(const struct cg_mount *m, const char *cg, char *out, size_t len)
{
	size_t n = strlen(m->root);

	if (strcmp(m->root, "/") && !strncmp(cg, m->root, n) && (cg[n] == '/' || !cg[n]))
		cg += n;
	if (!strcmp(cg, "/"))
		cg = "";
	return snprintf(out, len, "%s%s%s", m->point, !*cg || *cg == '/' ? "" : "/", cg) < (int)len;
}

/* The first of files in dir (below root) that holds a CPU list. */
static bool read_first(const char *root, const char *dir, const char *const *files,
		       struct calvin_topology *t)
{
	char rel[PATH_MAX], path[PATH_MAX];
	struct calvin_cpumask cpus;
	int err;

	for (; *files; files++) {
		if (snprintf(rel, sizeof(rel), "%s/%s", dir, *files) >= (int)sizeof(rel))
			return false;
		host_path(path, sizeof(path), root, rel);
		err = host_read_cpulist(path, &cpus);
		if (err == -ENOENT)
			continue;
		if (err) {
			host_unread(t, *files);
			return true;
		}
		t->cpuset = cpus;
		if (snprintf(t->cpuset_from, sizeof(t->cpuset_from), "%s", rel) >=
		    (int)sizeof(t->cpuset_from))
			strcpy(t->cpuset_from + sizeof(t->cpuset_from) - 4, "...");
		return true;
	}
	return false;
}

static void read_own_cpuset(const char *root, struct calvin_topology *t)
{
	static const char *const v1_files[] = {"cpuset.effective_cpus", "cpuset.cpus",
					       "effective_cpus", "cpus", NULL};
	static const char *const v2_files[] = {"cpuset.cpus.effective", NULL};
	char cg[PATH_MAX], dir[PATH_MAX];
	struct cg_mount m;

	if (find_mount(root, false, &m) && own_cgroup(root, false, cg, sizeof(cg)) &&
	    cgroup_dir(&m, cg, dir, sizeof(dir)) && read_first(root, dir, v1_files, t))
		return;
	if (find_mount(root, true, &m) && own_cgroup(root, true, cg, sizeof(cg)) &&
	    cgroup_dir(&m, cg, dir, sizeof(dir)))
		read_first(root, dir, v2_files, t);
}

/* Every cgroup below path whose partition is "isolated" (not "isolated
 * invalid": the kernel did not make that one). */
static void walk_partitions(const char *path, int depth, struct calvin_topology *t)
{
	char sub[PATH_MAX], type[64];
	struct calvin_cpumask cpus;
	struct dirent *e;
	struct stat st;
	DIR *d;

	if (snprintf(sub, sizeof(sub), "%s/cpuset.cpus.partition", path) >= (int)sizeof(sub))
		return;
	if (!host_read_line(sub, type, sizeof(type)) && !strcmp(type, "isolated")) {
		snprintf(sub, sizeof(sub), "%s/cpuset.cpus.effective", path);
		if (!host_read_cpulist(sub, &cpus))
			calvin_cpumask_or(&t->partitions, &t->partitions, &cpus);
	}
	if (depth >= WALK_DEPTH)
		return;
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) < (int)sizeof(sub) &&
		    !lstat(sub, &st) && S_ISDIR(st.st_mode))
			walk_partitions(sub, depth + 1, t);
	}
	closedir(d);
}

static void read_partitions(const char *root, struct calvin_topology *t)
{
	char path[PATH_MAX], rel[PATH_MAX];
	struct cg_mount m;
	int err;

	if (!find_mount(root, true, &m))
		return;
	/* since Linux 6.8 the root says it in one file */
	if (snprintf(rel, sizeof(rel), "%s/cpuset.cpus.isolated", m.point) >= (int)sizeof(rel))
		return;
	host_path(path, sizeof(path), root, rel);
	err = host_read_cpulist(path, &t->partitions);
	if (err == -ENOENT) {
		host_path(path, sizeof(path), root, m.point);
		walk_partitions(path, 0, t);
	} else if (err) {
		host_unread(t, "cpuset.cpus.isolated");
	}
}

void host_read_cgroups(const char *root, struct calvin_topology *t)
{
	read_own_cpuset(root, t);
	read_partitions(root, t);
}
