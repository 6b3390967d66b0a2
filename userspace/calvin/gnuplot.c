// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* gnuplot, run as root on a script calvin wrote, for the pictures of a
 * report folder. It reads the script from a descriptor calvin holds (its
 * stdin), so no file anyone could swap between calvin's write and
 * gnuplot's read; it runs in a folder of its own under the run directory
 * (0700, root's), which holds only the data files calvin put there, so
 * `set output` (which opens by path and follows symlinks) meets nothing
 * calvin did not make; and calvin copies the pictures into the report
 * folder through that folder's descriptor. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outdir.h"
#include "state.h"
#include "util.h"

static bool is_picture(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && (!strcmp(name + n - 4, ".png") || !strcmp(name + n - 4, ".svg"));
}

/* The pictures gnuplot left in work, into d; how many, or -errno. */
static int pictures_copy(int work, const struct outdir *d)
{
	struct dirent *e;
	struct stat st;
	int n = 0, fd, err = 0;
	DIR *dir;

	fd = fcntl(work, F_DUPFD_CLOEXEC, 3);
	dir = fd < 0 ? NULL : fdopendir(fd);
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	rewinddir(dir); /* a dup shares the position with every other */
	while (!err && (e = readdir(dir))) {
		if (!is_picture(e->d_name) || fstatat(work, e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		fd = openat(work, e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		err = fd < 0 ? -errno : outdir_copy(d, e->d_name, fd);
		if (fd >= 0)
			close(fd);
		n++;
	}
	closedir(dir);
	return err ? err : n;
}

/* Empty the work folder and remove it. */
static void work_remove(int work, const char *path)
{
	struct dirent *e;
	int fd = fcntl(work, F_DUPFD_CLOEXEC, 3);
	DIR *dir = fd < 0 ? NULL : fdopendir(fd);

	if (dir)
		rewinddir(dir); /* pictures_copy() read it to its end */
	while (dir && (e = readdir(dir)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(work, e->d_name, 0);
	if (dir)
		closedir(dir);
	else if (fd >= 0)
		close(fd);
	rmdir(path);
}

static int run_gnuplot(int script, int work)
{
	const char *const argv[] = { "gnuplot", "--default-settings", NULL };
	struct run_opts o = { .quiet_fail = true };
	int rc;

	/* descriptors 0-2 would be taken for the child's own stdio */
	o.in_fd = fcntl(script, F_DUPFD_CLOEXEC, 3);
	o.dir_fd = fcntl(work, F_DUPFD_CLOEXEC, 3);
	if (o.in_fd < 0 || o.dir_fd < 0 || lseek(o.in_fd, 0, SEEK_SET) < 0)
		rc = -errno;
	else
		rc = run_cmd_opts(&o, argv);
	if (o.in_fd >= 0)
		close(o.in_fd);
	if (o.dir_fd >= 0)
		close(o.dir_fd);
	return rc;
}

static int draw(const struct outdir *d, int script, const struct gnuplot_input *in, size_t nr_in)
{
	struct outdir work = { .uid = geteuid(), .gid = getegid() };
	size_t i;
	int rc;

	if (state_dir_check(true))
		return -EPERM;
	if (snprintf(work.path, sizeof(work.path), "%s/gnuplot_XXXXXX", calvin_run_dir()) >=
	    (int)sizeof(work.path))
		return -ENAMETOOLONG;
	if (!mkdtemp(work.path))
		return -errno;
	work.fd = open(work.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	rc = work.fd < 0 ? -errno : 0;
	for (i = 0; !rc && i < nr_in; i++)
		rc = outdir_copy(&work, in[i].name, in[i].fd);
	if (!rc)
		rc = run_gnuplot(script, work.fd);
	if (rc > 0)
		rc = -EIO;
	if (!rc)
		rc = pictures_copy(work.fd, d);
	if (work.fd >= 0) {
		work_remove(work.fd, work.path);
		close(work.fd);
	} else {
		rmdir(work.path);
	}
	return rc;
}

int gnuplot_report(const struct outdir *d, const char *name, FILE *script,
		   const struct gnuplot_input *in, size_t nr_in)
{
	int err;

	if (fflush(script) || ferror(script))
		return -EIO;
	err = outdir_copy(d, name, fileno(script));
	return err ? err : draw(d, fileno(script), in, nr_in);
}
