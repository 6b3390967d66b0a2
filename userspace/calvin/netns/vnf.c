// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* User VNFs in the netns backend: calvin-vnf (DPDK) started inside the
 * node's namespace, pinned, journalled before it can do anything. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/close_range.h>

#include "netns.h"
#include "ready.h"
#include "util.h"

#define VNF_READY_TIMEOUT_MS 30000

/* calvin-vnf's command line, built before the fork. */
struct vnf_args {
	char *argv[48];
	unsigned int argc;
	char buf[2048]; /* the numbers and MACs argv points into */
	size_t used;
	char bin[PATH_MAX];
	char ready_fd[12];
};

static void arg(struct vnf_args *a, const char *s)
{
	if (a->argc + 1 < sizeof(a->argv) / sizeof(a->argv[0]))
		a->argv[a->argc++] = (char *)s;
}

/* An option with a formatted value. */
static void argf(struct vnf_args *a, const char *opt, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void argf(struct vnf_args *a, const char *opt, const char *fmt, ...)
{
	char *v = a->buf + a->used;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(v, sizeof(a->buf) - a->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(a->buf) - a->used)
		return;
	a->used += (size_t)n + 1;
	arg(a, opt);
	arg(a, v);
}

/* The transform and its parameters, per kind. */
static void transform_args(struct vnf_args *a, const struct calvin_vnf_spec *v)
{
	argf(a, "--transform", "%s", calvin_vnf_kind_name(v->kind));
	switch (v->kind) {
	case CALVIN_VNF_NC_ENCODE:
	case CALVIN_VNF_NC_DECODE:
		argf(a, "--nc-k", "%u", v->nc.k);
		argf(a, "--nc-r", "%u", v->nc.r);
		argf(a, "--nc-flush-ns", "%llu", (unsigned long long)v->nc.flush_ns);
		break;
	case CALVIN_VNF_ENCRYPT:
	case CALVIN_VNF_DECRYPT:
		argf(a, "--cipher", "%s", v->crypt.cipher == CALVIN_CIPHER_CHACHA20_POLY1305
						  ? "chacha20-poly1305"
						  : "aes-256-gcm");
		argf(a, "--key-file", "%s", v->crypt.key_file);
		argf(a, "--spi", "%u", v->crypt.spi);
		if (v->kind == CALVIN_VNF_DECRYPT)
			argf(a, "--replay-window", "%u", v->crypt.replay_window);
		break;
	default:
		break;
	}
}

static int vnf_args_fill(struct deploy *d, unsigned int i, struct vnf_args *a)
{
	const struct calvin_chain_spec *s = d->spec;
	const struct calvin_vnf_spec *v = &s->vnfs[i];
	char west[18], east[18];
	uint8_t mac[6];
	int err;

	err = node_mac_of(s->name, west_of(d, i), IF_EAST, mac);
	if (err)
		return err;
	mac_str(mac, west);
	err = node_mac_of(s->name, east_of(d, i), IF_WEST, mac);
	if (err)
		return err;
	mac_str(mac, east);
	snprintf(a->bin, sizeof(a->bin), "%s/calvin-vnf", calvin_lib_dir());
	arg(a, a->bin);
	argf(a, "--chain", "%s", s->name);
	argf(a, "--name", "%s", v->name);
	argf(a, "--vnf-id", "%u", i);
	if (d->plan.vnf_cpu[i] < 0)
		argf(a, "--lcore", "any");
	else
		argf(a, "--lcore", "%d", d->plan.vnf_cpu[i]);
	argf(a, "--burst", "%u", v->burst);
	/* af_xdp is a preference: calvin-vnf falls back to af_packet where it
	 * fails, and says so on its ready line */
	if (v->pmd == CALVIN_PMD_AF_PACKET)
		argf(a, "--pmd", "%s", "af_packet");
	argf(a, "--west", "%s", IF_WEST);
	argf(a, "--east", "%s", IF_EAST);
	argf(a, "--west-peer", "%s", west);
	argf(a, "--east-peer", "%s", east);
	argf(a, "--probe-port", "%u", s->probe.port);
	transform_args(a, v);
	arg(a, "--ready-fd");
	arg(a, a->ready_fd);
	a->argv[a->argc] = NULL;
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

	/* the journal's lock belongs to the controller alone */
	close(d->state->fd);
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
	node_netns(ns, sizeof(ns), d->spec->name, calvin_vnf_node(v));
	if (netns_enter(ns, &saved) < 0) {
		fprintf(stderr, "calvin: cannot enter %s\n", ns);
		_exit(1);
	}
	snprintf(a->ready_fd, sizeof(a->ready_fd), "%d", ready);
	/* Only the ready fd goes on: a lock whoever ran calvin holds (flock(1)
	 * passes its fd on) must not live as long as the VNF. */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	fcntl(ready, F_SETFD, 0);
	execv(a->bin, a->argv);
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

/* Wait for the ready line on fd; pmd[] gets what it says of each port. */
static int vnf_wait_ready(int fd, int pmd[CALVIN_READY_SIDES])
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[128];
	ssize_t n;
	int r;

	r = poll(&p, 1, VNF_READY_TIMEOUT_MS);
	if (r == 0)
		return -ETIMEDOUT;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return -ECHILD;
	buf[n] = '\0';
	return calvin_ready_parse(buf, pmd);
}

/* An af_packet port on a veth sees nothing its neighbour's XDP program
 * redirects or bounces to it unless the veth has an XDP program of its
 * own: give it the pass program (journalled before the VNF started). */
static int vnf_ports_finish(struct deploy *d, unsigned int i, const int pmd[CALVIN_READY_SIDES],
			    const char *log)
{
	static const char *const ifname[CALVIN_READY_SIDES] = { IF_WEST, IF_EAST };
	const struct calvin_vnf_spec *v = &d->spec->vnfs[i];
	bool fell_back[CALVIN_READY_SIDES] = { false };
	int side, err;

	for (side = 0; side < CALVIN_READY_SIDES; side++) {
		if (pmd[side] != CALVIN_PMD_AF_PACKET)
			continue;
		err = node_pass_attach(d, calvin_vnf_node(v), ifname[side]);
		if (err)
			return err;
		fell_back[side] = v->pmd != CALVIN_PMD_AF_PACKET;
	}
	if (fell_back[CALVIN_READY_WEST] || fell_back[CALVIN_READY_EAST])
		calvin_err("%s: warning: af_xdp unavailable on %s; using af_packet (why: %s)",
			   v->name,
			   !fell_back[CALVIN_READY_EAST]   ? IF_WEST
			   : !fell_back[CALVIN_READY_WEST] ? IF_EAST
							   : IF_WEST " and " IF_EAST,
			   log);
	return 0;
}

int netns_user_vnf(struct deploy *d, unsigned int i)
{
	const struct calvin_vnf_spec *v = &d->spec->vnfs[i];
	int go[2], ready[2], pmd[CALVIN_READY_SIDES], err;
	char path[PATH_MAX], ns[128], log[PATH_MAX + 64], why[512];
	struct vnf_args a = { 0 };
	unsigned long long st;
	pid_t pid;

	err = vnf_args_fill(d, i, &a);
	if (err)
		return err;
	/* DPDK's af_xdp PMD attaches XDP programs to the node's veths; a VNF
	 * that is killed leaves them there, so down must detach them */
	err = xdp_intent(d, calvin_vnf_node(v), IF_WEST);
	if (!err)
		err = xdp_intent(d, calvin_vnf_node(v), IF_EAST);
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
	node_netns(ns, sizeof(ns), d->spec->name, calvin_vnf_node(v));
	err = state_add(d->state, ST_PROC, ns, NULL, pid, st);
	if (err) {
		kill(pid, SIGKILL);
		goto close_ready;
	}
	if (write(go[1], "g", 1) != 1) {
		err = -errno;
		goto close_ready;
	}
	err = vnf_wait_ready(ready[0], pmd);
	if (err) {
		last_line(log, why, sizeof(why));
		calvin_err("%s: user VNF did not start: %s", v->name, why);
	} else {
		err = vnf_ports_finish(d, i, pmd, log);
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
