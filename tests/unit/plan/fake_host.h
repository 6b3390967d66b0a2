/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Fake hosts for the host reader and the planner: a directory tree made at
 * run time (mkdtemp) with the sysfs, procfs and cgroup files a real host
 * has, at the same relative paths, and a run directory for plan records.
 * Included by the unit tests that need one. */
#ifndef CALVIN_TEST_FAKE_HOST_H
#define CALVIN_TEST_FAKE_HOST_H

#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan/plan.h"

#define FAKE_UNUSED __attribute__((unused))

struct fake_host {
	char root[64];
	char run_dir[128];
};

static FAKE_UNUSED void fake_mkdirs(const char *path)
{
	char p[PATH_MAX], *s;

	snprintf(p, sizeof(p), "%s", path);
	for (s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
}

static FAKE_UNUSED void fake_vwrite(const struct fake_host *fh, const char *rel, const char *fmt,
				    va_list ap)
{
	char path[PATH_MAX], dir[PATH_MAX], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fh->root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	fake_mkdirs(dir);
	f = fopen(path, "w");
	if (!f)
		abort();
	vfprintf(f, fmt, ap);
	fclose(f);
}

/* Write a file below the root, making its directories. */
static FAKE_UNUSED __attribute__((format(printf, 3, 4))) void
fake_write(const struct fake_host *fh, const char *rel, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fake_vwrite(fh, rel, fmt, ap);
	va_end(ap);
}

static FAKE_UNUSED void fake_rm(const struct fake_host *fh, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", fh->root, rel);
	unlink(path);
}

/* SMT: CPU c's thread siblings. */
static FAKE_UNUSED void fake_siblings(const struct fake_host *fh, unsigned int c, const char *list)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/thread_siblings_list", c);
	fake_write(fh, rel, "%s\n", list);
}

/* A host with n CPUs, one thread per core, no NUMA directory, no cgroup
 * mounts, every CPU allowed, nothing isolated: what each test changes. */
static FAKE_UNUSED void fake_host(struct fake_host *fh, unsigned int n)
{
	char list[16], one[16];
	unsigned int c;

	snprintf(fh->root, sizeof(fh->root), "/tmp/calvin-host.XXXXXX");
	if (!mkdtemp(fh->root))
		abort();
	snprintf(fh->run_dir, sizeof(fh->run_dir), "%s/run/calvin", fh->root);
	fake_mkdirs(fh->run_dir);
	snprintf(list, sizeof(list), n > 1 ? "0-%u" : "0", n - 1);
	fake_write(fh, "sys/devices/system/cpu/online", "%s\n", list);
	fake_write(fh, "sys/devices/system/cpu/possible", "%s\n", list);
	fake_write(fh, "sys/devices/system/cpu/isolated", "\n");
	for (c = 0; c < n; c++) {
		snprintf(one, sizeof(one), "%u", c);
		fake_siblings(fh, c, one);
	}
	fake_write(fh, "proc/self/status",
		   "Name:\tcalvin\nCpus_allowed:\tff\nCpus_allowed_list:\t%s\n", list);
	fake_write(fh, "proc/self/cgroup", "0::/\n");
	fake_write(fh, "proc/self/mountinfo",
		   "22 1 0:21 / /proc rw,nosuid shared:12 - proc proc rw\n");
}

/* SMT pairs: CPU c and c + n/2 share a core, as Linux numbers them. */
static FAKE_UNUSED void fake_smt_pairs(const struct fake_host *fh, unsigned int n)
{
	char list[32];
	unsigned int c;

	for (c = 0; c < n / 2; c++) {
		snprintf(list, sizeof(list), "%u,%u", c, c + n / 2);
		fake_siblings(fh, c, list);
		fake_siblings(fh, c + n / 2, list);
	}
}

static FAKE_UNUSED void fake_numa(const struct fake_host *fh, const char *node0, const char *node1)
{
	fake_write(fh, "sys/devices/system/node/node0/cpulist", "%s\n", node0);
	fake_write(fh, "sys/devices/system/node/node1/cpulist", "%s\n", node1);
	fake_write(fh, "sys/devices/system/node/online", "0-1\n");
}

/* The plan record of a deployed chain, as `calvin up` writes it. */
static FAKE_UNUSED __attribute__((format(printf, 3, 4))) void
fake_record(const struct fake_host *fh, const char *chain, const char *fmt, ...)
{
	char rel[64];
	va_list ap;

	snprintf(rel, sizeof(rel), "run/calvin/%s.plan", chain);
	va_start(ap, fmt);
	fake_vwrite(fh, rel, fmt, ap);
	va_end(ap);
}

/* Chain "mine" of n VNFs in spec s, the user-space ones given by mask (bit
 * i: VNF i; from VNF 32 on, all); names v0, v1, ... */
static FAKE_UNUSED void fake_chain(struct calvin_chain_spec *s, unsigned int n,
				   unsigned int user_mask, enum calvin_placement pl, bool share)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	strcpy(s->name, "mine");
	strcpy(s->path, "mine.yaml");
	strcpy(s->server.name, "server");
	s->nr_vnfs = n;
	s->placement = pl;
	s->allow_sharing = share;
	s->mtu = CALVIN_MTU_DEFAULT;
	for (i = 0; i < n; i++) {
		snprintf(s->vnfs[i].name, sizeof(s->vnfs[i].name), "v%u", i);
		s->vnfs[i].space = i >= 32 || (user_mask >> i) & 1 ? CALVIN_USER : CALVIN_KERNEL;
	}
}

static int fake_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static FAKE_UNUSED void fake_free(struct fake_host *fh)
{
	if (fh->root[0])
		nftw(fh->root, fake_rm_one, 16, FTW_DEPTH | FTW_PHYS);
	fh->root[0] = '\0';
}

/* Each test's tree, removed after it whether it passed or not. */
static struct fake_host h;

static FAKE_UNUSED int fake_teardown(void **unused)
{
	fake_free(&h);
	return 0;
}

/* Read the fake host as the chain "mine" would. */
static FAKE_UNUSED int fake_read(const struct fake_host *fh, struct calvin_topology *t)
{
	struct calvin_host_source src = {fh->root, fh->run_dir, "mine"};
	char err[256];

	return calvin_host_read(&src, t, err, sizeof(err));
}

#endif /* CALVIN_TEST_FAKE_HOST_H */
