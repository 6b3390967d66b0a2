// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin-vnf: a DPDK user-space VNF of a calvin chain, or the co-located
 * VNFs of a core (--wait loop, joined by --next). Its life: parse the
 * command line, init the EAL, open each VNF's ports in its node's
 * namespace, wait for links, say ready, poll until SIGTERM/SIGINT (busy,
 * or sleeping between frames), then close the ports (which detaches
 * af_xdp's XDP programs) and clean up. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "guest/guest.h"
#include "vnf.h"

#define VNF_LINK_TIMEOUT_MS 3000
#define VNF_EAL_ARGS 16

static void on_signal(int sig)
{
	vnf_quit = true;
}

/* SIGTERM and SIGINT are blocked (how) around EAL init: the threads the
 * EAL starts inherit the mask, so the signals reach the lcore, which may
 * be asleep in ppoll() waiting for them (wait.c). */
static void signals_mask(int how)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(how, &set, NULL);
}

static void signals_setup(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	/* a controller that died must not kill us with SIGPIPE on the ready fd */
	signal(SIGPIPE, SIG_IGN);
}

/* Checked before the EAL sees it: the EAL would print its whole usage. */
static int lcore_check(unsigned int lcore)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0) {
		vnf_err("Failed to read the CPU affinity: %s", strerror(errno));
		return -errno;
	}
	if (lcore >= CPU_SETSIZE || !CPU_ISSET(lcore, &set)) {
		vnf_err("Failed to use lcore %u: CPU %u is not in this process's CPU affinity"
			" (%d CPUs allowed)",
			lcore, lcore, CPU_COUNT(&set));
		return -EINVAL;
	}
	return 0;
}

/* "--lcores 0@(a,b,...)": lcore 0 floats over every CPU we may use. */
static void lcores_any(char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "0@(");
	cpu_set_t set;
	int c;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		CPU_ZERO(&set);
	for (c = 0; c < CPU_SETSIZE && used + 8 < len; c++)
		if (CPU_ISSET(c, &set))
			used += (size_t)snprintf(buf + used, len - used, "%d,", c);
	if (buf[used - 1] == ',')
		used--;
	snprintf(buf + used, len - used, ")");
}

/* The EAL command line comes from ours: one lcore, no hugepages, a file
 * prefix of our own so several VNFs (and their telemetry sockets) coexist. */
static int eal_init(const struct vnf_config *cfg, unsigned int mem_mb, const char *argv0)
{
	static char lcore[1024], mem[16], prefix[16 + 2 * VNF_NAME_MAX], log[64];
	const char *level = getenv("CALVIN_VNF_LOG_LEVEL");
	/* a yielding VNF sets up anywhere and pins itself to poll (loop.c) */
	const bool floating = cfg->unpinned || cfg->wait == CALVIN_WAIT_YIELD;
	char *args[VNF_EAL_ARGS];
	int n = 0, ret;

	if (floating)
		lcores_any(lcore, sizeof(lcore));
	else
		snprintf(lcore, sizeof(lcore), "%u", cfg->lcore);
	snprintf(mem, sizeof(mem), "%u", mem_mb);
	/* as the controller derives it (userspace/calvin/backend.c) */
	snprintf(prefix, sizeof(prefix), "calvin-%s.%s", cfg->chain, cfg->name);
	args[n++] = (char *)argv0;
	args[n++] = floating ? "--lcores" : "-l";
	args[n++] = lcore;
	args[n++] = "--no-huge";
	args[n++] = "-m";
	args[n++] = mem;
	args[n++] = "--file-prefix";
	args[n++] = prefix;
	args[n++] = "--no-pci";
	/* quiet unless asked: DPDK logs go to stdout and syslog, not to our one line */
	snprintf(log, sizeof(log), "--log-level=%s", level ? level : "error");
	args[n++] = log;
	args[n] = NULL;

	ret = rte_eal_init(n, args);
	if (ret < 0) {
		const char *log = vnf_log_first();

		vnf_err("Failed to initialise DPDK's EAL (lcore %u, %u MB, prefix %s): %s%s%s%s",
			cfg->lcore, mem_mb, prefix, rte_strerror(rte_errno), log ? " (" : "",
			log ? log : "", log ? ")" : "");
		return -rte_errno;
	}
	return 0;
}

/* Everything mapped now and later stays in RAM: a page fault or a page
 * compacted away under the polling loop costs microseconds. */
static int memory_lock(bool lock)
{
	int err;

	if (!lock || mlockall(MCL_CURRENT | MCL_FUTURE) == 0)
		return 0;
	err = -errno;
	vnf_err("Failed to lock memory (mlockall): %s", strerror(-err));
	return err;
}

/* The ready line names each port's PMD (userspace/lib/guest/guest.h): af_xdp may
 * have fallen back to af_packet, which the controller must know. */
static int ready_report(const struct vnf *vnf)
{
	int pmd[CALVIN_READY_SIDES], fd = vnf->cfg.ready_fd, side, len;
	char line[64];
	ssize_t n;

	_Static_assert((int)VNF_WEST == (int)CALVIN_READY_WEST &&
			   (int)VNF_EAST == (int)CALVIN_READY_EAST,
		       "the ready line's sides are calvin-vnf's");
	if (fd < 0)
		return 0;
	for (side = 0; side < CALVIN_READY_SIDES; side++) {
		pmd[side] = CALVIN_READY_NO_PORT;
		if (vnf->port[side].started)
			pmd[side] = vnf->port[side].pmd == VNF_PMD_AF_XDP ? CALVIN_PMD_AF_XDP
									  : CALVIN_PMD_AF_PACKET;
	}
	len = calvin_ready_format(line, sizeof(line), pmd);
	n = len < 0 ? -1 : write(fd, line, (size_t)len);
	close(fd);
	if (n != len) {
		vnf_err("Failed to report ready on fd %d: %s", fd,
			n < 0 ? strerror(errno) : "short write");
		return n < 0 ? -errno : -EIO;
	}
	return 0;
}

static int transform_setup(struct vnf *vnf)
{
	const struct vnf_transform *t = vnf->cfg.transform;

	if (!t->setup)
		return 0;
	return t->setup(vnf); /* it says what failed, in one line */
}

static void transform_teardown(struct vnf *vnf)
{
	if (vnf->cfg.transform->teardown)
		vnf->cfg.transform->teardown(vnf);
}

/* Its transform and its ports, in its node's namespace: the sockets the
 * PMDs open there stay there whatever namespace the process moves to. */
static int vnf_open(struct vnf *vnf)
{
	int err;

	vnf_err_name(vnf->cfg.name);
	err = vnf_netns_enter(vnf);
	if (!err)
		err = transform_setup(vnf);
	if (err)
		return err;
	err = vnf_ports_open(vnf);
	if (err)
		transform_teardown(vnf);
	return err;
}

/* Back in its namespace: closing an af_xdp port detaches its XDP program
 * from the interface, found by index. */
static void vnf_close(struct vnf *vnf)
{
	vnf_err_name(vnf->cfg.name);
	vnf_netns_enter(vnf);
	vnf_ports_close(vnf);
	transform_teardown(vnf);
}

/* Links up (read in each node), memory locked, each VNF ready. */
static int group_ready(struct vnf_group *g)
{
	unsigned int i;
	bool lock = false;
	int err;

	for (i = 0; i < g->n; i++) {
		vnf_err_name(g->vnf[i].cfg.name);
		err = vnf_netns_enter(&g->vnf[i]);
		if (!err)
			err = vnf_ports_wait_link(&g->vnf[i], VNF_LINK_TIMEOUT_MS);
		if (err)
			return err;
		lock |= g->vnf[i].cfg.lock_memory;
	}
	vnf_log_release();
	err = memory_lock(lock);
	for (i = 0; i < g->n && !err; i++) {
		vnf_err_name(g->vnf[i].cfg.name);
		err = ready_report(&g->vnf[i]);
	}
	return err;
}

int main(int argc, char **argv)
{
	static struct vnf_group g;
	unsigned int i, opened = 0, mem_mb = 0;
	int err;

	/* 0. The spinning process of a yielding VNF (loop.c), nothing else. */
	if (argc == 4 && !strcmp(argv[1], VNF_SPIN_ARG))
		return vnf_spin_main(argv[2], argv[3]);
	/* 1. Our own arguments: the EAL's are built from them. */
	err = vnf_group_parse(argc, argv, &g);
	if (err) {
		vnf_usage(err > 0 ? stdout : stderr);
		return err > 0 ? 0 : 2;
	}
	vnf_err_name(g.vnf[0].cfg.name);
	signals_setup();
	for (i = 0; i < g.n; i++)
		mem_mb += g.vnf[i].cfg.mem_mb;

	/* 2. EAL on the one lcore we were given; its log is ours until we run. */
	err = g.vnf[0].cfg.unpinned ? 0 : lcore_check(g.vnf[0].cfg.lcore);
	if (err)
		return 1;
	vnf_log_capture();
	signals_mask(SIG_BLOCK);
	err = eal_init(&g.vnf[0].cfg, mem_mb, argv[0]);
	signals_mask(SIG_UNBLOCK);
	if (err)
		return 1;
	err = vnf_stats_register(&g);
	if (err) {
		vnf_err("Failed to register telemetry commands: %s", strerror(-err));
		goto cleanup_eal;
	}

	/* 3. Transform state, mbuf pool and ports, VNF by VNF. */
	for (opened = 0; opened < g.n; opened++) {
		err = vnf_open(&g.vnf[opened]);
		if (err)
			goto close;
	}

	/* 4. Links up: from here on we forward, so say so. */
	err = group_ready(&g);
	if (err)
		goto close;

	/* 5. Poll on our lcore (the main one) until a signal. */
	rte_eal_mp_remote_launch(vnf_loop, &g, CALL_MAIN);
	rte_eal_mp_wait_lcore();

close:
	while (opened)
		vnf_close(&g.vnf[--opened]);
cleanup_eal:
	rte_eal_cleanup();
	return err ? 1 : 0;
}
