// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The programs calvin runs (gnuplot, stress-ng, cyclictest, iperf3,
 * sockperf; network configuration is spoken in-process, nl/): found in
 * the system's own folders by an absolute path, once, never through PATH.
 * calvin runs as root, and PATH is whoever started it: a folder of theirs
 * early in it would run their "iperf3" as root. And how they run: their
 * output relayed to calvin's stderr, in a node if asked. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/close_range.h>

#include "util.h"

static const char *const tool_dirs[] = { "/usr/sbin", "/usr/bin", "/sbin", "/bin" };
#define NR_TOOL_DIRS (sizeof(tool_dirs) / sizeof(tool_dirs[0]))

/* The Debian package of each, for the line that says it is missing. */
static const struct {
	const char *name, *package;
} packages[] = {
	{ "gnuplot", "gnuplot-nox" }, { "stress-ng", "stress-ng" }, { "cyclictest", "rt-tests" },
	{ "iperf3", "iperf3" },	      { "sockperf", "sockperf" },
};

#define MAX_TOOLS 16

static struct {
	char name[32];
	char path[64]; /* "": in none of tool_dirs */
} found[MAX_TOOLS];
static unsigned int nr_found;

/* A regular file someone may execute; root's access(X_OK) says yes to
 * any file with an x bit, which is what exec wants too. */
static bool executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static void resolve(const char *name, char *path, size_t len)
{
	size_t i;

	for (i = 0; i < NR_TOOL_DIRS; i++) {
		snprintf(path, len, "%s/%s", tool_dirs[i], name);
		if (executable(path))
			return;
	}
	path[0] = '\0';
}

const char *tool_path(const char *name)
{
	static char uncached[64];
	unsigned int i;

	if (strchr(name, '/') || strlen(name) >= sizeof(found[0].name))
		return NULL;
	for (i = 0; i < nr_found; i++)
		if (!strcmp(found[i].name, name))
			return found[i].path[0] ? found[i].path : NULL;
	if (nr_found == MAX_TOOLS) { /* more tools than calvin has: look, do not keep */
		resolve(name, uncached, sizeof(uncached));
		return uncached[0] ? uncached : NULL;
	}
	snprintf(found[nr_found].name, sizeof(found[0].name), "%s", name);
	resolve(name, found[nr_found].path, sizeof(found[0].path));
	return found[nr_found++].path[0] ? found[nr_found - 1].path : NULL;
}

const char *tool_package(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(packages) / sizeof(packages[0]); i++)
		if (!strcmp(packages[i].name, name))
			return packages[i].package;
	return name;
}

void tool_missing(const char *name, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%s is not installed: it is in none of /usr/sbin, /usr/bin, /sbin, /bin (Debian "
		 "package %s; make installs it)",
		 name, tool_package(name));
}

const char *tool_need(const char *name)
{
	const char *path = tool_path(name);
	char why[256];

	if (!path) {
		tool_missing(name, why, sizeof(why));
		calvin_err("%s", why);
	}
	return path;
}

/* In the child: stdin, the output's way (a pipe to calvin, /dev/null),
 * the node and the folder it runs in, nothing else of calvin's. */
static void cmd_child(const struct run_opts *o, const char *path, const char *const argv[], int out)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC), saved;

	/* calvin ignores a reader that left; the programs it runs need not */
	signal(SIGPIPE, SIG_DFL);
	dup2(o->in_fd > 0 ? o->in_fd : null, STDIN_FILENO);
	dup2(calvin_verbose ? out : null, STDOUT_FILENO);
	dup2(calvin_verbose || !o->quiet_fail ? out : null, STDERR_FILENO);
	if (o->netns && netns_enter(o->netns, &saved) < 0) {
		fprintf(stderr, "calvin: cannot enter network namespace %s: %s\n", o->netns,
			strerror(errno));
		_exit(126);
	}
	if (o->dir_fd > 0 && fchdir(o->dir_fd) < 0)
		_exit(126);
	/* a lock whoever ran calvin holds (flock(1)) must not live on in it */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	execv(path, (char *const *)argv);
	fprintf(stderr, "calvin: cannot run %s: %s\n", path, strerror(errno));
	_exit(127);
}

/* What the child says goes to calvin's stderr, never its stdout: a pipe
 * calvin reads, so a reader of calvin's that went away costs only the
 * text (calvin ignores EPIPE) and never the program's life. */
static void relay(int from)
{
	char buf[4096];
	ssize_t n, w;

	for (;;) {
		n = read(from, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		w = write(STDERR_FILENO, buf, (size_t)n);
		(void)w; /* nobody reads calvin's stderr any more: drain on */
	}
}

int run_cmd_opts(const struct run_opts *o, const char *const argv[])
{
	const char *path = argv[0][0] == '/' ? argv[0] : tool_need(argv[0]);
	int status, out[2];
	pid_t pid;

	if (!path)
		return 127;
	if (calvin_verbose) {
		fprintf(stderr, "+%s%s", o->netns ? " [netns " : "", o->netns ? o->netns : "");
		fputs(o->netns ? "]" : "", stderr);
		for (const char *const *a = argv; *a; a++)
			fprintf(stderr, " %s", *a);
		fputc('\n', stderr);
	}
	if (pipe2(out, O_CLOEXEC) < 0)
		return -errno;
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		status = -errno;
		close(out[0]);
		close(out[1]);
		return status;
	}
	if (pid == 0)
		cmd_child(o, path, argv, out[1]);
	close(out[1]);
	relay(out[0]);
	close(out[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		status = WEXITSTATUS(status);
	else
		status = 128 + WTERMSIG(status);
	/* a child that died of the user's Ctrl-C is part of that one line */
	if (status && !o->quiet_fail && !calvin_quit)
		calvin_err("'%s %s ...' failed with status %d", argv[0], argv[1] ? argv[1] : "",
			   status);
	return status;
}

int run_cmd(const char *const argv[], bool quiet_fail)
{
	struct run_opts o = { .quiet_fail = quiet_fail };

	return run_cmd_opts(&o, argv);
}
