// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* User VNFs in the netns backend: calvin-vnf (DPDK) started inside the
 * node's namespace, pinned, journalled before it can do anything. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "netns.h"
#include "util.h"

#define VNF_READY_TIMEOUT_MS 30000

struct vnf_args {
	char id[12], cpu[12], burst[12], port[12];
	char west_peer[18], east_peer[18];
	char bin[PATH_MAX];
	char ready_fd[12];
};

static int vnf_args_fill(struct deploy *d, unsigned int i, struct vnf_args *a)
{
	const struct calvin_chain_spec *s = d->spec;
	uint8_t mac[6];
	int err;

	err = node_mac_of(s->name, west_of(s, i), IF_EAST, mac);
	if (err)
		return err;
	mac_str(mac, a->west_peer);
	err = node_mac_of(s->name, east_of(s, i), IF_WEST, mac);
	if (err)
		return err;
	mac_str(mac, a->east_peer);
	snprintf(a->id, sizeof(a->id), "%u", i);
	snprintf(a->cpu, sizeof(a->cpu), "%d", d->vnf_cpu[i] < 0 ? 0 : d->vnf_cpu[i]);
	snprintf(a->burst, sizeof(a->burst), "%u", s->vnfs[i].burst);
	snprintf(a->port, sizeof(a->port), "%u", s->probe.port);
	snprintf(a->bin, sizeof(a->bin), "%s/calvin-vnf", calvin_lib_dir());
	return 0;
}

/* In the child: wait for the parent's go (it has journalled our PID by
 * then), enter the node, exec. EOF on the pipe means the controller died
 * before it could journal us: leave without a trace. */
static void vnf_child(struct deploy *d, unsigned int i, struct vnf_args *a, int go, int ready,
		      const char *log)
{
	const struct calvin_vnf_spec *v = &d->spec->vnfs[i];
	char ns[128], c;
	int fd, saved;

	setsid();
	fd = open("/dev/null", O_RDONLY);
	dup2(fd, STDIN_FILENO);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
	}
	if (read(go, &c, 1) != 1)
		_exit(1);
	node_netns(ns, sizeof(ns), d->spec->name, v->name);
	if (netns_enter(ns, &saved) < 0) {
		fprintf(stderr, "calvin: cannot enter %s\n", ns);
		_exit(1);
	}
	snprintf(a->ready_fd, sizeof(a->ready_fd), "%d", ready);
	execl(a->bin, a->bin, "--chain", d->spec->name, "--name", v->name, "--vnf-id", a->id,
	      "--lcore", a->cpu, "--burst", a->burst, "--pmd",
	      v->pmd == CALVIN_PMD_AF_PACKET ? "af_packet" : "af_xdp", "--west", IF_WEST, "--east",
	      IF_EAST, "--west-peer", a->west_peer, "--east-peer", a->east_peer, "--probe-port",
	      a->port, "--ready-fd", a->ready_fd, (char *)NULL);
	fprintf(stderr, "calvin: cannot run %s: %s\n", a->bin, strerror(errno));
	_exit(127);
}

/* Last line of a log, for a one-line error. */
static void last_line(const char *log, char *out, size_t len)
{
	char line[512];
	FILE *f = fopen(log, "re");

	snprintf(out, len, "no output (see %.400s)", log);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '\n') {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, len, "%s", line);
		}
	fclose(f);
}

/* Wait for "ready\n" on fd. */
static int vnf_wait_ready(int fd, pid_t pid)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[64];
	ssize_t n;
	int r;

	r = poll(&p, 1, VNF_READY_TIMEOUT_MS);
	if (r == 0)
		return -ETIMEDOUT;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return -ECHILD;
	buf[n] = '\0';
	return strncmp(buf, "ready", 5) ? -EPROTO : 0;
}

int netns_user_vnf(struct deploy *d, unsigned int i)
{
	const struct calvin_vnf_spec *v = &d->spec->vnfs[i];
	int go[2], ready[2], err;
	char path[PATH_MAX], ns[128], log[PATH_MAX + 64], why[512];
	struct vnf_args a = { 0 };
	unsigned long long st;
	pid_t pid;

	err = vnf_args_fill(d, i, &a);
	if (err)
		return err;
	vnf_file_prefix(ns, sizeof(ns), d->spec->name, v->name);
	snprintf(path, sizeof(path), "/var/run/dpdk/%s", ns);
	err = state_add(d->state, ST_PATH, path, NULL, 0, 0);
	if (err)
		return err;
	state_file(path, sizeof(path), d->spec->name, ".d");
	snprintf(log, sizeof(log), "%s/%s.log", path, v->name);
	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	if (pipe(ready) < 0) {
		err = -errno;
		goto close_go;
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		goto close_ready;
	}
	if (pid == 0) {
		close(go[1]);
		close(ready[0]);
		vnf_child(d, i, &a, go[0], ready[1], log);
	}
	close(go[0]);
	close(ready[1]);
	go[0] = ready[1] = -1;
	st = proc_start_time(pid);
	node_netns(ns, sizeof(ns), d->spec->name, v->name);
	err = state_add(d->state, ST_PROC, ns, NULL, pid, st);
	if (err) {
		kill(pid, SIGKILL);
		goto close_ready;
	}
	if (write(go[1], "g", 1) != 1) {
		err = -errno;
		goto close_ready;
	}
	err = vnf_wait_ready(ready[0], pid);
	if (err) {
		last_line(log, why, sizeof(why));
		calvin_err("%s: user VNF did not start: %s", v->name, why);
	}
close_ready:
	if (ready[0] >= 0)
		close(ready[0]);
	if (ready[1] >= 0)
		close(ready[1]);
close_go:
	if (go[0] >= 0)
		close(go[0]);
	close(go[1]);
	return err;
}
