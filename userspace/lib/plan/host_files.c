// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The host reader's file access, shared by host.c and host_cgroup.c: paths
 * below the root it reads, first lines, CPU lists, and the note of what
 * could not be read (see host_priv.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "host_priv.h"

void host_path(char *out, size_t len, const char *root, const char *rel)
{
	size_t n = strlen(root);

	if (!n) {
		root = "/";
		n = 1;
	}
	while (n > 1 && root[n - 1] == '/')
		n--;
	while (*rel == '/')
		rel++;
	snprintf(out, len, "%.*s%s%s", (int)n, root, root[n - 1] == '/' ? "" : "/", rel);
}

int host_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	if (ferror(f))
		err = -EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return err;
}

int host_read_cpulist(const char *path, struct calvin_cpumask *s)
{
	static char buf[CALVIN_CPUS_TEXT_MAX];
	int err = host_read_line(path, buf, sizeof(buf));

	memset(s, 0, sizeof(*s));
	if (err)
		return err;
	/* some kernels say "(null)" in nohz_full when it is empty */
	if (!strcmp(buf, "(null)"))
		return 0;
	return calvin_cpumask_parse_list(buf, s) ? -EINVAL : 0;
}

void host_unread(struct calvin_topology *t, const char *what)
{
	size_t n = strlen(t->unread);

	snprintf(t->unread + n, sizeof(t->unread) - n, "%s%s", n ? ", " : "", what);
}
