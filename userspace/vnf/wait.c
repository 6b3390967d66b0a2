// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Waiting for frames in the kernel (--wait wakeup), for a VNF that shares
 * its core: between frames it sleeps instead of taking the CPU from its
 * neighbours, and a frame wakes it at real-time priority.
 *
 * Rx interrupts are not available here: in DPDK 22.11 neither net_af_xdp
 * nor net_af_packet implements rx_queue_intr_enable, and their vdevs have
 * no interrupt handle (rte_eth_dev_rx_intr_ctl_q() returns -ENOTSUP).
 * Both PMDs read a kernel socket, though, and the kernel wakes a poll() on
 * it when a frame lands in the ring: an AF_XDP socket reports POLLIN while
 * its Rx ring is not empty, an AF_PACKET socket with a TPACKET_V2 ring
 * while the frame before the kernel's head belongs to user space. So the
 * VNF poll()s the PMD's own sockets, found as the one socket each port's
 * setup opened (DPDK does not hand them out). poll() checks the rings
 * before it sleeps, so a frame that lands between an empty rx_burst and
 * the poll() is not missed.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>

#include "vnf.h"

#ifndef AF_XDP
#define AF_XDP 44
#endif

/* Timer slack of the waiting thread: a transform's deadline (the NC flush)
 * is met within this, not within the default 50 us. */
#define VNF_WAIT_SLACK_NS 1000UL

static int pmd_family(enum vnf_pmd pmd)
{
	return pmd == VNF_PMD_AF_XDP ? AF_XDP : AF_PACKET;
}

/* The sockets of the PMD's address family this process has open. */
int vnf_sockets(enum vnf_pmd pmd, struct vnf_fdset *set)
{
	int family = pmd_family(pmd), domain, fd;
	socklen_t len;
	struct dirent *e;
	DIR *dir;

	set->n = 0;
	dir = opendir("/proc/self/fd");
	if (!dir)
		return -errno;
	while ((e = readdir(dir))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		fd = atoi(e->d_name);
		len = sizeof(domain);
		if (fd == dirfd(dir) || getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0 ||
		    domain != family)
			continue;
		if (set->n == VNF_FDSET_MAX) {
			closedir(dir);
			return -E2BIG;
		}
		set->fd[set->n++] = fd;
	}
	closedir(dir);
	return 0;
}

/* The socket a port's setup opened: the one new since before. */
int vnf_port_socket(enum vnf_pmd pmd, const struct vnf_fdset *before)
{
	struct vnf_fdset after;
	int err;

	err = vnf_sockets(pmd, &after);
	if (err)
		return err;
	return calvin_fd_new(before->fd, before->n, after.fd, after.n);
}

/* SCHED_FIFO at VNF_RT_PRIO for the calling thread: 0 or -errno. */
int vnf_rt_priority(void)
{
	struct sched_param sp = {.sched_priority = VNF_RT_PRIO};

	return -pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
}

/* A VNF that sleeps between frames runs at real-time priority, so a frame
 * that wakes it preempts whatever else runs on the core. At normal priority
 * it waits behind a CPU-bound task for up to a tick (measured here with two
 * spinning tasks on the VNFs' core: tactile-crypt's p99 RTT 3.6 to 4.2 ms,
 * alike at nice -20 and with a 100 us EEVDF slice; 130 to 160 us with
 * SCHED_FIFO). Idle, it cannot hog the core: it sleeps. Under a flood it
 * keeps the core, as a busy-poller would, but the kernel's real-time
 * throttling still leaves other tasks a share. Busy mode never gets it. */
static void rt_priority(void)
{
	int err = vnf_rt_priority();

	if (err)
		vnf_err("warning: cannot run at real-time priority (SCHED_FIFO %d): %s; a busy task"
			" on this core will delay wake-ups by up to a scheduler tick",
			VNF_RT_PRIO, strerror(-err));
}

/* Called on the lcore that will wait. SIGTERM and SIGINT stay blocked
 * except inside ppoll(), so one that comes after the loop checked
 * vnf_quit still ends the wait (main.c keeps them blocked in the EAL's
 * threads, so they reach this one). */
void vnf_wait_init(struct vnf_wait *w, const struct vnf *vnf, unsigned int n)
{
	enum vnf_side side;
	sigset_t block;
	unsigned int i;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < n; i++)
		for (side = VNF_WEST; side < VNF_SIDES; side++) {
			if (!vnf[i].port[side].used)
				continue;
			w->fds[w->nfds].fd = vnf[i].port[side].wait_fd;
			w->fds[w->nfds].events = POLLIN;
			w->nfds++;
		}
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	pthread_sigmask(SIG_BLOCK, &block, &w->mask);
	sigdelset(&w->mask, SIGTERM);
	sigdelset(&w->mask, SIGINT);
	/* best effort: a coarser slack only makes deadlines later */
	prctl(PR_SET_TIMERSLACK, VNF_WAIT_SLACK_NS);
	rt_priority();
}

void vnf_wait_fini(struct vnf_wait *w)
{
	pthread_sigmask(SIG_SETMASK, &w->mask, NULL);
}

/* An AF_PACKET socket whose interface went down reports POLLERR until its
 * error is read; the PMD never reads it, so without this every later
 * poll() would return at once and the VNF would spin. */
static void errors_clear(struct vnf_wait *w)
{
	socklen_t len;
	nfds_t i;
	int err;

	for (i = 0; i < w->nfds; i++) {
		if (!(w->fds[i].revents & POLLERR))
			continue;
		len = sizeof(err);
		getsockopt(w->fds[i].fd, SOL_SOCKET, SO_ERROR, &err, &len);
	}
}

/* Sleep until a port has a frame, deadline passes (CLOCK_MONOTONIC ns,
 * UINT64_MAX: none) or a signal comes. */
void vnf_wait_sleep(struct vnf_wait *w, uint64_t deadline)
{
	struct timespec ts, *timeout = calvin_wait_timeout(vnf_now_ns(), deadline, &ts);

	if (ppoll(w->fds, w->nfds, timeout, &w->mask) > 0)
		errors_clear(w);
}

/* Sleep until `until` (CLOCK_MONOTONIC ns) or a signal, whatever frames
 * come meanwhile: a core's leave (loop.c, --yield-leave timer). */
void vnf_wait_pause(struct vnf_wait *w, uint64_t until)
{
	struct timespec ts, *timeout = calvin_wait_timeout(vnf_now_ns(), until, &ts);

	ppoll(NULL, 0, timeout, &w->mask);
}
