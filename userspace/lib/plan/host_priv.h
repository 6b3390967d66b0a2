/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Inside the host reader: its file access (host_files.c), which host.c and
 * host_cgroup.c share, and the cgroup part host.c calls. */
#ifndef CALVIN_LIB_HOST_PRIV_H
#define CALVIN_LIB_HOST_PRIV_H

#include <stddef.h>

#include "plan/plan.h"

/* host_files.c: root + "/" + rel, never past len. */
void host_path(char *out, size_t len, const char *root, const char *rel);
/* The first line of a file, newline cut: 0 or -errno. */
int host_read_line(const char *path, char *buf, size_t len);
/* A CPU list file: 0, -errno, or -EINVAL when it is not a list. */
int host_read_cpulist(const char *path, struct calvin_cpumask *s);
/* Say in t->unread that what could not be read. */
void host_unread(struct calvin_topology *t, const char *what);

/* The cgroup part: t->cpuset (and t->cpuset_from) and t->partitions. */
void host_read_cgroups(const char *root, struct calvin_topology *t);

#endif /* CALVIN_LIB_HOST_PRIV_H */
