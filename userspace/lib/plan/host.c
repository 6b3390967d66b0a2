// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The host reader: CPUs, SMT, NUMA, affinity, and other chains' plan
 * records (see plan.h; the cgroup part is host_cgroup.c, the file access
 * both use host_files.c). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_priv.h"

#define CPU_DIR "sys/devices/system/cpu"
#define NODE_DIR "sys/devices/system/node"

/* A list that may be missing (none); garbage is noted and read as none. */
static void read_optional(const char *root, const char *rel, struct calvin_cpumask *s,
			  struct calvin_topology *t)
{
	char path[PATH_MAX];
	int err;

	host_path(path, sizeof(path), root, rel);
	err = host_read_cpulist(path, s);
	if (err && err != -ENOENT)
		host_unread(t, rel);
}

/* SMT: each CPU's core is the lowest of its thread siblings. */
static void read_smt(const char *root, struct calvin_topology *t)
{
	struct calvin_cpumask sib;
	char rel[128], path[PATH_MAX];
	int c, first;

	for (c = 0; c < (int)t->nr_cpus; c++) {
		if (!calvin_cpumask_isset(&t->online, c))
			continue;
		snprintf(rel, sizeof(rel), CPU_DIR "/cpu%d/topology/thread_siblings_list", c);
		host_path(path, sizeof(path), root, rel);
		if (host_read_cpulist(path, &sib))
			continue;
		first = calvin_cpumask_first(&sib);
		if (first >= 0 && calvin_cpumask_isset(&sib, c))
			t->core[c] = first;
	}
}

/* NUMA: nodeN/cpulist; a host without the node directory has one node we
 * know nothing about (-1 everywhere). */
static void read_numa(const char *root, struct calvin_topology *t)
{
	struct calvin_cpumask cpus;
	char path[PATH_MAX], rel[128];
	struct dirent *e;
	unsigned long n;
	char *end;
	DIR *d;
	int c;

	host_path(path, sizeof(path), root, NODE_DIR);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "node", 4) || !isdigit((unsigned char)e->d_name[4]))
			continue;
		n = strtoul(e->d_name + 4, &end, 10);
		if (*end || n > INT_MAX)
			continue;
		snprintf(rel, sizeof(rel), NODE_DIR "/node%lu/cpulist", n);
		host_path(path, sizeof(path), root, rel);
		if (host_read_cpulist(path, &cpus))
			continue;
		t->nr_nodes++;
		for (c = 0; c < CALVIN_MAX_CPUS; c++)
			if (calvin_cpumask_isset(&cpus, c))
				t->node[c] = (int)n;
	}
	closedir(d);
}

/* The controller's affinity: Cpus_allowed_list in proc/self/status. */
static void read_affinity(const char *root, struct calvin_topology *t)
{
	static char line[CALVIN_CPUS_TEXT_MAX + 64];
	const char *key = "Cpus_allowed_list:";
	char path[PATH_MAX];
	FILE *f;

	host_path(path, sizeof(path), root, "proc/self/status");
	f = fopen(path, "re");
	if (!f) {
		host_unread(t, "proc/self/status");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, strlen(key)))
			continue;
		if (calvin_cpumask_parse_list(line + strlen(key) + strspn(line + strlen(key), " \t"),
					 &t->affinity))
			host_unread(t, "Cpus_allowed_list");
		break;
	}
	fclose(f);
}

/* Every plan record in run_dir but chain's own. */
static void read_holds(const struct calvin_host_source *src, struct calvin_topology *t)
{
	struct calvin_hold h;
	char path[PATH_MAX], line[256], note[PATH_MAX + 64];
	struct dirent *e;
	size_t n;
	FILE *f;
	DIR *d;

	d = opendir(src->run_dir);
	if (!d) {
		if (errno != ENOENT) {
			snprintf(note, sizeof(note), "the plans of other chains (%s: %s)",
				 src->run_dir, strerror(errno));
			host_unread(t, note);
		}
		return;
	}
	while ((e = readdir(d)) && t->nr_holds < CALVIN_MAX_HOLDS) {
		n = strlen(e->d_name);
		if (n < 6 || n - 5 > CALVIN_NAME_MAX || strcmp(e->d_name + n - 5, ".plan"))
			continue;
		memset(&h, 0, sizeof(h));
		snprintf(h.chain, sizeof(h.chain), "%.*s", (int)(n - 5), e->d_name);
		if (!calvin_name_valid(h.chain) || (src->chain && !strcmp(h.chain, src->chain)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", src->run_dir, e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f) && t->nr_holds < CALVIN_MAX_HOLDS)
			if (calvin_plan_record_line(line, NULL, &h) == 1)
				t->holds[t->nr_holds++] = h;
		fclose(f);
	}
	closedir(d);
}

int calvin_host_read(const struct calvin_host_source *src, struct calvin_topology *t, char *err,
		     size_t errlen)
{
	struct calvin_cpumask online;
	char path[PATH_MAX];
	int rc;

	host_path(path, sizeof(path), src->root, CPU_DIR "/online");
	rc = host_read_cpulist(path, &online);
	if (!rc && calvin_cpumask_empty(&online))
		rc = -EINVAL;
	if (rc) {
		snprintf(err, errlen, "cannot read the online CPUs from %s: %s", path,
			 rc == -EINVAL ? "not a CPU list" : strerror(-rc));
		return rc;
	}
	/* init gives every CPU below nr_cpus; then the real online set */
	calvin_topology_init(t, 0);
	t->online = online;
	t->affinity = online;
	t->cpuset = online;
	for (rc = 0; rc < CALVIN_MAX_CPUS; rc++)
		if (calvin_cpumask_isset(&online, rc))
			t->nr_cpus = (unsigned int)rc + 1;
	read_optional(src->root, CPU_DIR "/isolated", &t->isolcpus, t);
	read_optional(src->root, CPU_DIR "/nohz_full", &t->nohz_full, t);
	read_smt(src->root, t);
	read_numa(src->root, t);
	read_affinity(src->root, t);
	host_read_cgroups(src->root, t);
	if (src->run_dir)
		read_holds(src, t);
	return 0;
}

int calvin_plan_record_housekeeping(const char *path, struct calvin_cpumask *hk)
{
	struct calvin_hold h;
	char line[CALVIN_CPUS_TEXT_MAX + 32];
	int rc = -EINVAL;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	memset(hk, 0, sizeof(*hk));
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "housekeeping", 12) && !calvin_plan_record_line(line, hk, &h))
			rc = calvin_cpumask_empty(hk) ? -EINVAL : 0;
	fclose(f);
	return rc;
}

int calvin_plan_record_degraded_read(const char *path, struct calvin_degraded *d, unsigned int max)
{
	char line[CALVIN_WHY_MAX + 3 * 32];
	unsigned int n = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (n < max && fgets(line, sizeof(line), f))
		if (calvin_plan_record_degraded(line, &d[n]) == 1)
			n++;
	fclose(f);
	return (int)n;
}
