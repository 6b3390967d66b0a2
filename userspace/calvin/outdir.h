/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The report folders of `-o DIR` (probe, run, bench), written by calvin
 * as root. A folder is trusted once, held by a descriptor from then on,
 * and every file in it is made relative to that descriptor, never by a
 * path that someone could turn into a symlink in between. */
#ifndef CALVIN_OUTDIR_H
#define CALVIN_OUTDIR_H

#include <limits.h>
#include <stdio.h>
#include <sys/types.h>

struct outdir {
	int fd;		     /* the folder, O_DIRECTORY; -1: none */
	char path[PATH_MAX]; /* as given, for messages */
	uid_t uid;	     /* the caller, who owns it */
	gid_t gid;
};

/* Take path as a report folder: created with mode 0700 (its missing
 * parents too), owned by the caller, or an existing folder that the
 * caller owns and neither group nor others may write, and not a symbolic
 * link. Every folder above it must be one that only root and the caller
 * can change (or sticky, like /tmp): whoever else could write there could
 * swap the folder for another. The caller is the real user, or under
 * sudo the user who ran it (SUDO_UID). 0, or CALVIN_EXIT_USAGE after one
 * line that names the folder and what to do; nothing created then but
 * the folders on the way. */
int outdir_open(struct outdir *d, const char *path);
void outdir_close(struct outdir *d);
/* A sub folder (bench's chains/), taken by the same rules. */
int outdir_sub(const struct outdir *d, const char *name, struct outdir *sub);

/* A new file name in d (O_CREAT | O_EXCL | O_NOFOLLOW): a file of that
 * name from an earlier run is removed first (a symlink itself, never what
 * it leads to). Readable by all (0644), owned by the caller. A stream to
 * write it, or NULL after one line. */
FILE *outdir_file(const struct outdir *d, const char *name);
/* The same, filled with the whole of the file at fd (read from offset 0).
 * 0 or -errno, after one line. */
int outdir_copy(const struct outdir *d, const char *name, int fd);

/* gnuplot.c: the pictures of a report, drawn by gnuplot from a script
 * calvin wrote to a file it holds (tmpfile()), never read back by path. */
struct gnuplot_input {
	const char *name; /* as the script reads it ("samples.csv") */
	int fd;		  /* its content, from offset 0 */
};
/* The script into d as name (for people to run again), then drawn, with
 * the inputs beside it, the pictures (*.png, *.svg) copied into d. How
 * many pictures, or -errno (gnuplot's own messages only under -v; one
 * line when it is not installed). */
int gnuplot_report(const struct outdir *d, const char *name, FILE *script,
		   const struct gnuplot_input *in, size_t nr_in);

#endif /* CALVIN_OUTDIR_H */
