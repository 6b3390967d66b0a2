// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* ovn-nbctl and ovs-vsctl, run by their absolute paths with an argv (see
 * ovn.h for why these clients): output kept, the first error line said. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovn.h"
#include "util.h"

#define MAX_ARGS 48

void ovn_nb_of_spec(struct ovn_nb *nb, const struct calvin_ovn_spec *o)
{
	memset(nb, 0, sizeof(*nb));
	snprintf(nb->remote, sizeof(nb->remote), "%s", o->nb);
	if (!strncmp(o->nb, "ssl:", 4)) {
		nb->private_key = o->private_key;
		nb->certificate = o->certificate;
		nb->ca_cert = o->ca_cert;
	}
}

/* The argv: the database and its deadline first, then the command. */
static int make_argv(const char *path, const struct ovn_nb *nb, char *db, size_t db_len,
		     char *timeout, const char *const args[], const char *argv[MAX_ARGS])
{
	unsigned int n = 0, i;

	snprintf(db, db_len, "--db=%s", nb->remote);
	argv[n++] = path;
	argv[n++] = db;
	argv[n++] = timeout;
	if (nb->private_key) {
		argv[n++] = "--private-key";
		argv[n++] = nb->private_key;
		argv[n++] = "--certificate";
		argv[n++] = nb->certificate;
		argv[n++] = "--ca-cert";
		argv[n++] = nb->ca_cert;
	}
	for (i = 0; args[i]; i++) {
		if (n + 1 >= MAX_ARGS)
			return -E2BIG;
		argv[n++] = args[i];
	}
	argv[n] = NULL;
	return 0;
}

/* Read both pipes to their end: a full pipe would stall the child. */
static void drain(int out_fd, int err_fd, char *out, size_t out_len, char *err, size_t err_len)
{
	struct pollfd p[2] = { { .fd = out_fd, .events = POLLIN },
			       { .fd = err_fd, .events = POLLIN } };
	size_t have[2] = { 0, 0 }, room[2] = { out_len, err_len };
	char *buf[2] = { out, err }, sink[512];
	unsigned int open_fds = 2, i;
	ssize_t r;

	while (open_fds && poll(p, 2, -1) >= 0) {
		for (i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !p[i].revents)
				continue;
			if (have[i] + 1 < room[i])
				r = read(p[i].fd, buf[i] + have[i], room[i] - have[i] - 1);
			else
				r = read(p[i].fd, sink, sizeof(sink));
			if (r <= 0) {
				p[i].fd = -1;
				open_fds--;
			} else if (have[i] + 1 < room[i]) {
				have[i] += (size_t)r;
			}
		}
	}
	for (i = 0; i < 2; i++) {
		buf[i][have[i]] = '\0';
		while (have[i] && strchr("\n ", buf[i][have[i] - 1]))
			buf[i][--have[i]] = '\0';
	}
}

static pid_t spawn(const char *const argv[], int out[2], int err[2])
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	dup2(out[1], 1);
	dup2(err[1], 2);
	execv(argv[0], (char *const *)argv);
	_exit(127);
}

/* Run argv (argv[0] the tool's path) with its output kept and its first
 * error line said; tool names it in the errors. */
static int run_ctl(const char *tool, unsigned int timeout_s, const char *const argv[], char *out,
		   size_t out_len, char *err, size_t err_len)
{
	char line[512], *nl;
	int o[2], e[2], status, rc;
	pid_t pid;

	if (pipe2(o, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(e, O_CLOEXEC) < 0) {
		rc = -errno;
		close(o[0]);
		close(o[1]);
		return rc;
	}
	pid = spawn(argv, o, e);
	close(o[1]);
	close(e[1]);
	if (pid > 0)
		drain(o[0], e[0], out, out_len, line, sizeof(line));
	close(o[0]);
	close(e[0]);
	if (pid < 0)
		return -errno;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	/* --timeout ends it with SIGALRM */
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
		snprintf(err, err_len, "no answer within %u s", timeout_s);
		return -ETIMEDOUT;
	}
	nl = strchr(line, '\n');
	if (nl)
		*nl = '\0';
	if (line[0])
		snprintf(err, err_len, "%s", line);
	else
		snprintf(err, err_len, "%s failed without a word", tool);
	return -EIO;
}

int ovn_nbctl(const struct ovn_nb *nb, unsigned int timeout_s, const char *const args[], char *out,
	      size_t out_len, char *err, size_t err_len)
{
	const char *path = tool_path("ovn-nbctl"), *argv[MAX_ARGS];
	char db[CALVIN_URI_MAX + 8], timeout[32];
	int rc;

	err[0] = out[0] = '\0';
	if (!path) {
		snprintf(err, err_len, "ovn-nbctl is not installed (Debian package ovn-common)");
		return -ENOENT;
	}
	snprintf(timeout, sizeof(timeout), "--timeout=%u", timeout_s);
	rc = make_argv(path, nb, db, sizeof(db), timeout, args, argv);
	return rc ? rc : run_ctl("ovn-nbctl", timeout_s, argv, out, out_len, err, err_len);
}

int ovs_vsctl(const char *db, unsigned int timeout_s, const char *const args[], char *out,
	      size_t out_len, char *err, size_t err_len)
{
	const char *path = tool_path("ovs-vsctl"), *argv[MAX_ARGS];
	char dbarg[CALVIN_URI_MAX + 8], timeout[32];
	unsigned int n = 0, i;

	err[0] = out[0] = '\0';
	if (!path) {
		snprintf(err, err_len,
			 "ovs-vsctl is not installed (Debian package openvswitch-switch)");
		return -ENOENT;
	}
	snprintf(dbarg, sizeof(dbarg), "--db=%s", db);
	snprintf(timeout, sizeof(timeout), "--timeout=%u", timeout_s);
	argv[n++] = path;
	argv[n++] = dbarg;
	argv[n++] = timeout;
	for (i = 0; args[i]; i++) {
		if (n + 1 >= MAX_ARGS)
			return -E2BIG;
		argv[n++] = args[i];
	}
	argv[n] = NULL;
	return run_ctl("ovs-vsctl", timeout_s, argv, out, out_len, err, err_len);
}
