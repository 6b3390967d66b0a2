// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The agent's VNF: configured from the chain spec the host sends, started
 * with the same code the netns backend uses (the kernel/ loader for XDP
 * VNFs, vnf_argv for calvin-vnf), counted like calvin status counts. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "dpdk_query.h"
#include "guest/guest.h"
#include "kvnf.h"
#include "loader.h"
#include "sa_pipe.h"
#include "vnf_start.h"

/* How long the agent waits for its VNF's telemetry: as long as calvin
 * status waits for the agent (VNF_ANSWER_TIMEOUT_MS), so a wedged VNF in
 * a VM is "not answering" there too, not an agent that hangs. */
#define AGENT_TELEMETRY_TIMEOUT_MS 2000

#define VNF_READY_TIMEOUT_MS 120000 /* DPDK's init under TCG is slow */
#define VNF_STOP_TIMEOUT_MS 5000

static int find_vnf(struct agent *a, const struct calvin_agent_str *name, char *err, size_t errlen)
{
	struct calvin_node nodes[CALVIN_MAX_NODES];
	unsigned int i, nr, n;

	for (i = 0; i < a->spec.nr_vnfs; i++)
		if (strlen(a->spec.vnfs[i].name) == name->len &&
		    !memcmp(a->spec.vnfs[i].name, name->ptr, name->len))
			break;
	if (i == a->spec.nr_vnfs) {
		snprintf(err, errlen, "VNF %.*s is not in chain %s; configure one of its VNFs",
			 (int)name->len, name->ptr, a->spec.name);
		return -ENOENT;
	}
	nr = calvin_chain_nodes(&a->spec, nodes);
	n = calvin_node_of(nodes, nr, i);
	if (nodes[n].nr_vnfs > 1) {
		snprintf(err, errlen, "%s: shares node %s with other VNFs; a VM runs one VNF",
			 a->spec.vnfs[i].name, nodes[n].name);
		return -EOPNOTSUPP;
	}
	a->vnf_id = i;
	return 0;
}

int agent_configure(struct agent *a, const struct calvin_agent_configure *c, char *err,
		    size_t errlen)
{
	int e;

	if (a->state == CALVIN_AGENT_RUNNING) {
		snprintf(err, errlen, "%s is running; stop it before configuring again",
			 agent_name(a));
		return -EBUSY;
	}
	a->state = CALVIN_AGENT_IDLE;
	a->server = false;
	e = calvin_spec_parse(c->spec.ptr, c->spec.len, "chain spec from the host", &a->spec, err,
			      errlen);
	if (!e)
		e = c->role == CALVIN_AGENT_ROLE_SERVER ? agent_server_configure(a, c, err, errlen)
							: find_vnf(a, &c->vnf, err, errlen);
	if (e)
		return e;
	calvin_sa_set_wipe(&a->keys);
	a->has_keys = false;
	a->cpu = c->cpu;
	memcpy(a->west_peer, c->west_peer, 6);
	memcpy(a->east_peer, c->east_peer, 6);
	a->west_mtu = c->west_mtu;
	a->east_mtu = c->east_mtu;
	a->state = CALVIN_AGENT_CONFIGURED;
	fprintf(stderr, AGENT_PROG ": configured %s of chain %s (%s), cpu %d\n", agent_name(a),
		a->spec.name,
		a->server ? "server" : calvin_space_name(a->spec.vnfs[a->vnf_id].space), a->cpu);
	return 0;
}

int agent_set_mtu(const char *ifname, unsigned int mtu)
{
	struct ifreq ifr = {.ifr_mtu = (int)mtu};
	int fd, err = 0;

	if (!mtu)
		return 0;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCSIFMTU, &ifr))
		err = -errno;
	close(fd);
	return err;
}

static int kernel_start(struct agent *a, char *err, size_t errlen)
{
	const struct calvin_vnf_spec *v = &a->spec.vnfs[a->vnf_id];
	struct calvin_xdp_forward_cfg base = {0};
	struct calvin_kvnf k;
	int e;

	snprintf(a->pin_dir, sizeof(a->pin_dir), "/sys/fs/bpf/calvin/%s/%s", a->spec.name, v->name);
	base.pin_dir = a->pin_dir;
	base.vnf_id = (uint16_t)a->vnf_id;
	base.probe_port = (uint16_t)a->spec.probe.port;
	base.clock = calvin_vnf_clock(&a->spec, a->vnf_id);
	base.west_ifindex = (int)if_nametoindex(AGENT_WEST);
	base.east_ifindex = (int)if_nametoindex(AGENT_EAST);
	memcpy(base.west_peer_mac, a->west_peer, 6);
	memcpy(base.east_peer_mac, a->east_peer, 6);
	if (!base.west_ifindex || !base.east_ifindex) {
		snprintf(err, errlen, "%s: the VM has no NICs named west and east", v->name);
		return -ENODEV;
	}
	e = calvin_kvnf_from_spec(v, &k);
	if (!e)
		e = calvin_kvnf_attach(&k, &base);
	if (e == -EOPNOTSUPP)
		snprintf(err, errlen, "%s: kind %s has no kernel-space implementation", v->name,
			 calvin_vnf_kind_name(v->kind));
	else if (e)
		snprintf(err, errlen, "%s: Failed to attach XDP program %s: %s", v->name,
			 calvin_vnf_kind_name(v->kind), strerror(-e));
	return e;
}

/* Let the calling process run on cpu (-1: on every online CPU). */
static void allow_cpu(int cpu)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN), i;
	cpu_set_t set;

	CPU_ZERO(&set);
	for (i = 0; i < n && i < CPU_SETSIZE; i++)
		if (cpu < 0 || i == cpu)
			CPU_SET(i, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, AGENT_PROG ": cannot run on CPU %d: %s\n", cpu, strerror(errno));
}

static bool is_crypt(const struct calvin_vnf_spec *v)
{
	return v->kind == CALVIN_VNF_ENCRYPT || v->kind == CALVIN_VNF_DECRYPT;
}

int agent_keys(struct agent *a, const struct calvin_agent_str *keys, char *err, size_t errlen)
{
	struct calvin_sa_set set;
	int e;

	if (a->state != CALVIN_AGENT_CONFIGURED) {
		snprintf(err, errlen, "keys: %s",
			 a->state == CALVIN_AGENT_RUNNING ? "the VNF is running; stop it first"
							  : "configure a VNF first");
		return -EINVAL;
	}
	if (a->server || !is_crypt(&a->spec.vnfs[a->vnf_id])) {
		snprintf(err, errlen, "keys: %s is not an encrypt or decrypt VNF", agent_name(a));
		return -EINVAL;
	}
	e = calvin_sa_set_decode((const uint8_t *)keys->ptr, keys->len, &set);
	if (e) {
		snprintf(err, errlen, "keys: not a set of SA keys this agent reads (%s)",
			 strerror(-e));
		return e;
	}
	/* keys of an epoch a start used already would repeat its nonces */
	if (set.epoch <= a->last_epoch) {
		snprintf(err, errlen,
			 "keys: epoch %u is not after %u, the last one started; keys are never "
			 "used twice",
			 set.epoch, a->last_epoch);
		calvin_sa_set_wipe(&set);
		return -EKEYREJECTED;
	}
	calvin_sa_set_wipe(&a->keys);
	a->keys = set;
	a->has_keys = true;
	calvin_sa_set_wipe(&set);
	return 0;
}

/* An encrypt or decrypt VNF's keys into a pipe for calvin-vnf (*fd, -1
 * for other kinds); the agent forgets them, and their epoch is used up. */
static int keys_handover(struct agent *a, int *fd, char *err, size_t errlen)
{
	const struct calvin_vnf_spec *v = &a->spec.vnfs[a->vnf_id];
	int e;

	*fd = -1;
	if (!is_crypt(v))
		return 0;
	if (!a->has_keys) {
		snprintf(err, errlen,
			 "%s: no fresh keys (the host sends them before each start; a start "
			 "never reuses the keys of another)",
			 v->name);
		return -ENOKEY;
	}
	e = sa_set_pipe(&a->keys);
	a->last_epoch = a->keys.epoch;
	calvin_sa_set_wipe(&a->keys);
	a->has_keys = false;
	if (e < 0) {
		snprintf(err, errlen, "%s: cannot hand over its keys: %s", v->name, strerror(-e));
		return e;
	}
	*fd = e;
	return 0;
}

/* In calvin-vnf's process: isolcpus= keeps the vCPU out of init's
 * affinity, which we inherit. */
static int user_child(void *arg)
{
	const struct agent *a = arg;

	allow_cpu(a->cpu);
	return 0;
}

static int user_start(struct agent *a, char *err, size_t errlen)
{
	const struct calvin_vnf_spec *v = &a->spec.vnfs[a->vnf_id];
	struct calvin_vnf_site site = {
		.vnf_id = a->vnf_id,
		.cpu = a->cpu,
		.west = AGENT_WEST,
		.east = AGENT_EAST,
		.keys_fd = -1,
		.ready_fd = 0, /* a slot, filled in by vnf_start() */
	};
	static struct calvin_vnf_argv args;
	struct vnf_start start = {
		.prog = AGENT_PROG,
		.argv = &args,
		.ready_timeout_ms = VNF_READY_TIMEOUT_MS,
		.child = user_child,
		.ctx = a,
	};
	int pmd[CALVIN_READY_SIDES], e;
	char bin[PATH_MAX];
	pid_t pid;

	snprintf(bin, sizeof(bin), "%s/calvin-vnf", a->lib_dir);
	site.bin = bin;
	memcpy(site.west_peer, a->west_peer, 6);
	memcpy(site.east_peer, a->east_peer, 6);
	e = keys_handover(a, &site.keys_fd, err, errlen);
	if (e)
		return e;
	start.keys_fd = site.keys_fd;
	e = calvin_vnf_argv_build(&args, &a->spec, &site);
	if (e) {
		snprintf(err, errlen, "%s: calvin-vnf's command line: %s", v->name, strerror(-e));
		goto close;
	}
	e = vnf_start(&start, &pid, pmd);
	if (pid) {
		a->vnf_pid = pid;
		a->vnf_exit = -1;
	}
	if (e)
		snprintf(err, errlen, "%s: user VNF did not start: %s (see the VM's console)",
			 v->name, e == -ETIMEDOUT ? "no ready in time" : "it exited");
close:
	if (site.keys_fd >= 0)
		close(site.keys_fd);
	return e;
}

/* Interrupts of NIC ifname's virtio device (/proc/irq/N/virtioM-*) to
 * cpu: an XDP VNF runs in the softirq of the CPU that takes them. */
static int nic_irqs_to(const char *ifname, int cpu)
{
	char path[PATH_MAX], dev[PATH_MAX], *name, val[16];
	struct dirent *irq, *act;
	DIR *irqs, *d;
	int fd, moved = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/net/%s/device", ifname);
	n = readlink(path, dev, sizeof(dev) - 1);
	if (n <= 0)
		return -errno;
	dev[n] = '\0';
	name = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	snprintf(val, sizeof(val), "%d", cpu);
	irqs = opendir("/proc/irq");
	if (!irqs)
		return -errno;
	while ((irq = readdir(irqs))) {
		snprintf(path, sizeof(path), "/proc/irq/%.32s", irq->d_name);
		d = irq->d_name[0] == '.' ? NULL : opendir(path);
		while (d && (act = readdir(d))) {
			if (strncmp(act->d_name, name, strlen(name)) ||
			    act->d_name[strlen(name)] != '-')
				continue;
			snprintf(path, sizeof(path), "/proc/irq/%.32s/smp_affinity_list",
				 irq->d_name);
			fd = open(path, O_WRONLY | O_CLOEXEC);
			if (fd >= 0 && write(fd, val, strlen(val)) > 0)
				moved++;
			if (fd >= 0)
				close(fd);
		}
		if (d)
			closedir(d);
	}
	closedir(irqs);
	return moved ? 0 : -ENOENT;
}

int agent_start(struct agent *a, char *err, size_t errlen)
{
	const struct calvin_vnf_spec *v = &a->spec.vnfs[a->vnf_id];
	char why[CALVIN_AGENT_LINE_MAX];
	int e;

	if (a->state == CALVIN_AGENT_RUNNING)
		return 0;
	if (a->state != CALVIN_AGENT_CONFIGURED) {
		snprintf(err, errlen, "nothing to start: configure a VNF first");
		return -EINVAL;
	}
	e = agent_set_mtu(AGENT_WEST, a->west_mtu);
	if (!e && !a->server)
		e = agent_set_mtu(AGENT_EAST, a->east_mtu);
	if (e) {
		snprintf(err, errlen, "%s: cannot set the NICs' MTU: %s", agent_name(a),
			 strerror(-e));
		return e;
	}
	if (a->cpu >= 0 &&
	    (nic_irqs_to(AGENT_WEST, a->cpu) || (!a->server && nic_irqs_to(AGENT_EAST, a->cpu))))
		fprintf(stderr, AGENT_PROG ": could not move the NICs' interrupts to CPU %d\n",
			a->cpu);
	if (a->server)
		e = agent_server_start(a, err, errlen);
	else if (v->space == CALVIN_KERNEL)
		e = kernel_start(a, err, errlen);
	else
		e = user_start(a, err, errlen);
	if (e) {
		/* a half start leaves nothing behind; its own error stays the one */
		agent_stop(a, why, sizeof(why));
		return e;
	}
	a->state = CALVIN_AGENT_RUNNING;
	fprintf(stderr, AGENT_PROG ": started %s\n", agent_name(a));
	return 0;
}

/* Our pins, then the directories up to /sys/fs/bpf/calvin if empty. */
static void unpin(char *dir)
{
	struct dirent *de;
	char path[PATH_MAX], *slash;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' &&
		    snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) < (int)sizeof(path))
			unlink(path);
	if (d)
		closedir(d);
	while (strcmp(dir, "/sys/fs/bpf/calvin") && !rmdir(dir) && (slash = strrchr(dir, '/')))
		*slash = '\0';
}

static void stop_vnf_process(struct agent *a)
{
	struct timespec tick = {0, 10 * 1000 * 1000};
	int waited = 0, status;

	/* reaped already: its pid may be another process's by now */
	if (!agent_vnf_running(a)) {
		a->vnf_pid = 0;
		return;
	}
	kill(a->vnf_pid, SIGTERM);
	while (waitpid(a->vnf_pid, &status, WNOHANG) == 0) {
		if (waited >= VNF_STOP_TIMEOUT_MS) {
			kill(a->vnf_pid, SIGKILL);
			waitpid(a->vnf_pid, &status, 0);
			break;
		}
		nanosleep(&tick, NULL);
		waited += 10;
	}
	a->vnf_pid = 0;
}

int agent_stop(struct agent *a, char *err, size_t errlen)
{
	int west = (int)if_nametoindex(AGENT_WEST), east = (int)if_nametoindex(AGENT_EAST), e = 0;

	if (a->vnf_pid > 0)
		stop_vnf_process(a);
	/* XDP programs: the kernel VNF's, or what DPDK's af_xdp PMD left */
	if (west > 0)
		e = calvin_xdp_detach_all(west);
	if (east > 0 && !e)
		e = calvin_xdp_detach_all(east);
	if (a->pin_dir[0]) {
		unpin(a->pin_dir);
		a->pin_dir[0] = '\0';
	}
	if (a->state == CALVIN_AGENT_RUNNING)
		a->state = CALVIN_AGENT_CONFIGURED;
	calvin_sa_set_wipe(&a->keys);
	a->has_keys = false;
	if (e)
		snprintf(err, errlen, "cannot detach XDP programs: %s", strerror(-e));
	return e;
}

/* A kernel VNF's counters, named as calvin status names them. */
static int kernel_counters(struct agent *a, struct calvin_agent_counters *out, char *err,
			   size_t errlen)
{
	static const char *const dirs[CALVIN_NR_DIRS] = {"fwd", "rev"};
	struct calvin_vnf_stats s[CALVIN_NR_DIRS];
	unsigned int d, i, n = 0;
	int e;

	e = calvin_xdp_read_stats(a->pin_dir, s);
	if (e) {
		snprintf(err, errlen, "%s: cannot read its counters: %s", agent_name(a),
			 strerror(-e));
		return e;
	}
	for (d = 0; d < CALVIN_NR_DIRS; d++)
		for (i = 0; i < calvin_xdp_nr_stat_fields && n < CALVIN_AGENT_MAX_COUNTERS; i++) {
			snprintf(a->names[n], sizeof(a->names[n]), "%s.%s", dirs[d],
				 calvin_xdp_stat_fields[i].name);
			out->counters[n].name = calvin_agent_str(a->names[n]);
			out->counters[n].value = calvin_xdp_stat(&s[d], i);
			n++;
		}
	out->nr_counters = (uint16_t)n;
	return 0;
}

int agent_counters(struct agent *a, struct calvin_agent_counters *out, char *err, size_t errlen)
{
	const struct calvin_vnf_spec *v = &a->spec.vnfs[a->vnf_id];
	char prefix[128];
	int e;

	memset(out, 0, sizeof(*out));
	out->state = (uint8_t)a->state;
	if (a->state != CALVIN_AGENT_RUNNING)
		return 0;
	out->space = a->server ? CALVIN_KERNEL : (uint8_t)v->space;
	if (a->server || v->space == CALVIN_KERNEL)
		return kernel_counters(a, out, err, errlen);
	/* an exited VNF has no telemetry socket: say so, not a socket error */
	if (!agent_vnf_values(a, out))
		return 0;
	/* the file prefix calvin-vnf gives its EAL */
	snprintf(prefix, sizeof(prefix), "calvin-%s.%s", a->spec.name, v->name);
	e = dpdk_query(prefix, CALVIN_VNF_STATS_CMD, a->telemetry, sizeof(a->telemetry),
		       AGENT_TELEMETRY_TIMEOUT_MS);
	if (e) {
		snprintf(err, errlen, "%s: telemetry socket unavailable: %s", v->name,
			 strerror(-e));
		return e;
	}
	out->telemetry = calvin_agent_str(a->telemetry);
	return 0;
}
