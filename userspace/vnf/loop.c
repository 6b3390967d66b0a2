// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The polling loop: one lcore polls every port of the VNF and hands each
 * received burst to the transform, without pause on a core of its own,
 * sleeping in the kernel between frames on a shared one (--wait, wait.c),
 * or polls every port of every VNF of its core in turn (--wait loop).
 * Nothing here logs or allocates. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "vnf.h"

/* Turns in a row with frames after which a waking or yielding VNF lets a
 * neighbour of its priority run: under a flood through two VNFs on one
 * core, the second got 45 to 57% of what the first sent without it, 93 to
 * 100% yielding every 64 turns, 100% every 8 (busy-polling at normal
 * priority: 45 to 53%). */
#define VNF_WAIT_YIELD_TURNS 8

volatile sig_atomic_t vnf_quit;

/* Send n frames out of one port; probes (if any) are stamped as late as
 * possible before the hand-off. What the PMD does not take is freed and
 * counted: holding it back would only add latency to the next burst. */
void vnf_tx(struct vnf *vnf, struct vnf_lcore_stats *st, enum vnf_side out, struct rte_mbuf **pkts,
	    uint16_t n, struct vnf_probes *probes)
{
	struct vnf_port_stats *ps = &st->port[out];
	uint16_t sent, i;
	uint64_t bytes = 0;

	if (!n)
		return;
	for (i = 0; i < n; i++)
		bytes += rte_pktmbuf_pkt_len(pkts[i]);
	if (probes && probes->nb)
		vnf_probes_stamp(vnf, st, probes, vnf_now_ns());
	sent = rte_eth_tx_burst(vnf->port[out].port_id, 0, pkts, n);
	if (unlikely(sent < n)) {
		for (i = sent; i < n; i++) {
			bytes -= rte_pktmbuf_pkt_len(pkts[i]);
			rte_pktmbuf_free(pkts[i]);
		}
		ps->tx_failed += n - sent;
	}
	ps->tx_packets += sent;
	ps->tx_bytes += bytes;
}

static void count_rx(struct vnf_port_stats *ps, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i;

	ps->rx_packets += n;
	for (i = 0; i < n; i++)
		ps->rx_bytes += rte_pktmbuf_pkt_len(pkts[i]);
}

/* What the loops need at hand, read once before they start. */
struct poller {
	struct vnf *vnf;
	struct vnf_lcore_stats *st;
	void (*process)(struct vnf *, struct vnf_lcore_stats *, enum vnf_side, struct rte_mbuf **,
			uint16_t, uint64_t);
	void (*poll)(struct vnf *, struct vnf_lcore_stats *, unsigned int);
	uint16_t port_id[VNF_SIDES];
	unsigned int nb_sides;
	uint16_t burst;
};

/* One turn: every port once, what came in to the transform, then the
 * transform's due work. Returns how many frames came in. t_in is read as
 * soon as rx_burst returns: a probe's record starts there only where no
 * hand-over program opened it earlier (handover.c), as when the port runs
 * without one or the frame was rebuilt here. */
static inline unsigned int turn(const struct poller *p)
{
	struct rte_mbuf *pkts[VNF_MAX_BURST];
	unsigned int side, got = 0;
	uint64_t t_in;
	uint16_t n;

	for (side = 0; side < p->nb_sides; side++) {
		n = rte_eth_rx_burst(p->port_id[side], 0, pkts, p->burst);
		if (!n)
			continue;
		t_in = vnf_now_ns();
		count_rx(&p->st->port[side], pkts, n);
		p->process(p->vnf, p->st, (enum vnf_side)side, pkts, n, t_in);
		got += n;
	}
	if (p->poll)
		p->poll(p->vnf, p->st, got);
	return got;
}

/* A core of its own: poll without pause. */
static void loop_busy(const struct poller *p)
{
	while (!vnf_quit)
		turn(p);
}

/* A shared core: poll while frames come, then sleep in the kernel until a
 * frame or the transform's deadline. It sleeps at once: spinning on after
 * a frame delays the neighbour the frame goes to next, which needs this
 * very core (measured: 20 us of spinning doubled tactile-crypt's median).
 * Under a flood it never sleeps; at real-time priority (wait.c) it would
 * then starve a neighbour of the same priority on its core, so it yields
 * to it every few turns (sched_yield() returns at once when none waits). */
static void loop_wakeup(const struct poller *p, struct vnf_wait *w)
{
	uint64_t (*deadline)(const struct vnf *) = p->vnf->cfg.transform->deadline;
	unsigned int busy = 0;

	while (!vnf_quit) {
		if (turn(p)) {
			if (++busy == VNF_WAIT_YIELD_TURNS) {
				busy = 0;
				sched_yield();
			}
			continue;
		}
		busy = 0;
		p->st->sleeps++;
		vnf_wait_sleep(w, deadline ? deadline(p->vnf) : UINT64_MAX);
	}
}

/* Nice value of a yielding VNF's polling thread under the fair scheduler
 * (--yield-sched normal, for comparison). */
#define VNF_YIELD_NICE (-20)

/* The core a yielding VNF polls on. Its set-up ran on any CPU it may use
 * (main.c): a neighbour already polling there at real-time priority would
 * leave set-up only the scheduler's 5% for normal tasks. */
static void yield_pin(const struct vnf_config *cfg)
{
	cpu_set_t set;
	int err;

	if (cfg->unpinned)
		return;
	CPU_ZERO(&set);
	CPU_SET(cfg->lcore, &set);
	err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (err)
		vnf_err("warning: cannot pin the polling thread to CPU %u: %s", cfg->lcore,
			strerror(err));
}

/* Co-located VNFs leave their core for --yield-window's LEAVE at the start
 * of every PERIOD of CLOCK_MONOTONIC, all at once since they read one
 * clock: by default 24 us of every 256 (9.4%). The kernel keeps 5% of each
 * CPU for normal tasks: a real-time poller that never sleeps was stopped
 * for 50 ms once a second here, and so were these whenever a normal task
 * on their core got less than that in their leaves: with 32 us of every
 * 512 (6.25%, of which the normal tasks got less, as the VNFs do not leave
 * at the same instant) and a task spinning at SCHED_IDLE, p99 RTT 43 ms in
 * every round. Leaving all of it (--yield-leave timer or spin) rather than
 * until a frame comes (socket) is what gives the normal tasks their time
 * whatever the traffic; small pieces keep a frame that comes meanwhile
 * waiting no longer than one. */
static uint64_t next_leave(uint64_t now, uint64_t period)
{
	return (now / period + 1) * period;
}

/* Tried and left out (2026-12-04): polling through the leave at SCHED_IDLE
 * instead of sleeping, with a guard thread restoring SCHED_FIFO after it.
 * A frame in a leave then woke nothing: a wake-up from the other CPU cost
 * 27 us here (an IPI between vCPUs of this PVM guest) and a 21 us sleep
 * lasted 44. In quiet rounds tactile-crypt's p99 RTT fell to 0.55-0.85x.
 * But a normal task still running when a leave ended kept the VNF, back
 * at SCHED_FIFO, off its core for a scheduler tick (4 ms) or more: most
 * likely the kernel's deadline server for normal tasks went on running it
 * (only a deadline entity outranks a real-time task, and the real-time
 * runqueue was not throttled meanwhile). That happened 2-3 times in every
 * 5 s round even on this quiet core, and beside a CPU-bound task p99 RTT
 * was 185 and 450 us in two rounds against 170 and 278 sleeping.
 * Not tried, and why: SCHED_DEADLINE for the poller (runtime 232 us of
 * every 256) would not poll through the leave either, as a throttled
 * deadline task does not run at all, and the kernel enforces its runtime
 * at the scheduler tick unless the HRTICK_DL feature is on (off by default
 * in kernel/sched/features.h; /sys/kernel/debug/sched/features is not even
 * readable here, EPERM): a poller that never sleeps would overrun to the
 * tick and then wait as long. Ending each period itself (sched_yield())
 * is a timer wake-up at the next period, as the sleeping leave is. And a
 * deadline task may not be pinned to less than its root domain without a
 * cpuset partition (calvin isolate makes one; the default placement not). */

/* --yield-leave early: a leave a frame may end, but only once this VNF has
 * left the core 7/8 of each piece on average (calvin_leave_pause()): then
 * each of two VNFs on a core takes back at most 1/8 of the piece (3 us of
 * 24), and the normal tasks keep at least 3/4 of it (7% of the core by
 * default, above the kernel's 5%: below it they take 50 ms at once, see
 * next_leave()). The spinning process keeps the vCPU awake meanwhile, so
 * a frame wakes its VNF at once. until: the end of the piece; a VNF late
 * for it (a long turn) owes only what is left of it. */
static void leave_early(struct vnf_wait *w, uint64_t now, uint64_t until, uint64_t away,
			int64_t *credit)
{
	uint64_t planned, pause;

	if (now >= until)
		return;
	planned = until - now;
	pause = calvin_leave_pause(*credit, planned);
	if (pause)
		vnf_wait_pause(w, now + pause);
	if (pause < planned)
		vnf_wait_sleep(w, until);
	*credit = calvin_leave_credit(*credit, planned, vnf_now_ns() - now, away);
}

/* A core shared with other VNFs and nothing else: poll, and on an empty
 * poll hand the core to a neighbour (sched_yield() returns at once when
 * none waits). Neighbours take turns a poll at a time, not a scheduler
 * slice or a wake-up at a time: no frame waits for the kernel to wake
 * its VNF, but in the pieces of time they leave the core together: a frame
 * that comes then waits for the piece to end (with --yield-leave socket it
 * woke its VNF at once, but on a halted vCPU, which took tens of
 * microseconds to wake: that set the p99, 75 us for tactile-crypt on a
 * quiet machine; spin keeps the vCPU awake meanwhile, and early, the
 * default, lets a frame end the piece while leave_early()'s credit allows). The core is busy
 * but for those pieces. Under a flood a poll is never empty, so it also yields every few turns with
 * frames: yielding only when idle, the decryptor of tactile-crypt opened
 * 22% of what the encryptor sealed.
 *
 * They poll at real-time priority (vnf_wait_init()), all alike: under the
 * fair scheduler (EEVDF, Linux 6.6 on) sched_yield() forfeits the rest of
 * the yielder's slice, so a VNF yielding on every empty poll runs ahead of
 * any other task on its core in virtual time and waits behind it for whole
 * slices (measured at load 13: the builds of others ran 2.6 ms at a time
 * on the VNFs' core at nice -20, p50 RTT 3.9 ms). Among SCHED_FIFO tasks of
 * one priority sched_yield() only moves the caller behind its equals, and
 * no normal task runs while one of them is runnable, but in the pieces they
 * leave (measured: p99 75 us in every round; 30 us on a quiet core at nice
 * -20, 7.9 ms in a round with other work on it). w NULL: at nice -20
 * under the fair scheduler (--yield-sched normal), which needs no pieces. */
static void loop_shared(const struct poller *p, unsigned int n, struct vnf_wait *w, bool yield)
{
	const struct vnf_config *cfg = &p->vnf->cfg;
	uint64_t period = cfg->yield_period_us * 1000ULL, away = cfg->yield_leave_us * 1000ULL;
	uint64_t leave = next_leave(vnf_now_ns(), period), now;
	unsigned int busy = 0, got, i;
	int64_t credit = 0;

	while (!vnf_quit) {
		for (got = 0, i = 0; i < n; i++)
			got += turn(&p[i]);
		if (got && ++busy < VNF_WAIT_YIELD_TURNS)
			continue;
		busy = 0;
		if (w && (now = vnf_now_ns()) >= leave) {
			p->st->sleeps++;
			if (cfg->leave == VNF_LEAVE_SOCKET)
				vnf_wait_sleep(w, leave + away);
			else if (cfg->leave == VNF_LEAVE_EARLY)
				leave_early(w, now, leave + away, away, &credit);
			else
				vnf_wait_pause(w, leave + away);
			leave = next_leave(vnf_now_ns(), period);
			continue;
		}
		if (yield)
			sched_yield();
	}
}

/* --yield-leave spin: a process on the core at SCHED_IDLE that spins while
 * the VNFs leave it, so its vCPU does not halt (waking a halted vCPU took
 * tens of microseconds here) and the leave ends on time; any normal task
 * takes the core from it at once. A process of its own (calvin-vnf
 * --spin-for CPU PARENT, nothing else: no memory, no descriptors) rather
 * than a thread: a thread at SCHED_IDLE was the last of a killed VNF to
 * exit and tore down its memory and sockets at that priority, so a
 * supervised pair took 3.8 s instead of 0.7 to pass probes again. It dies
 * with the thread that started it (PR_SET_PDEATHSIG) or when that thread
 * is done polling.
 *
 * SCHED_IDLE yields only to tasks of its own task group, though, and with
 * autogroups (Debian's default) each session is a group of its own that
 * weighs as a nice 0 task whatever its tasks' policies: the spinner, in
 * calvin's session, took half of the leaves from a CPU-bound shell on its
 * core (measured over 2.09 s: the spinner 125 ms, the shell 112, 5.3% of
 * the core; 234 ms, 11.2%, with this). So it starts a session
 * of its own and sets that group's nice to 19 (weight 15 against 1024):
 * best effort, as a kernel without autogroups needs neither. */
static void spin_group_lowest(void)
{
	int fd;

	if (setsid() < 0)
		return;
	fd = open("/proc/self/autogroup", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	(void)!write(fd, "19", 2); /* failing, the spinner still spins */
	close(fd);
}

int vnf_spin_main(const char *cpu, const char *parent)
{
	struct sched_param sp = {.sched_priority = 0};
	char *end;
	unsigned long c = strtoul(cpu, &end, 10);
	long ppid = strtol(parent, NULL, 10);
	cpu_set_t set;

	close_range(3, ~0U, 0);
	if (*end || c >= CPU_SETSIZE || prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != ppid)
		return 1;
	spin_group_lowest();
	CPU_ZERO(&set);
	CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof(set), &set) || sched_setscheduler(0, SCHED_IDLE, &sp))
		return 1;
	for (;;)
		rte_pause();
}

static pid_t spin_start(const struct vnf_config *cfg)
{
	char cpu[16], parent[24];
	char *argv[] = {(char *)VNF_PROG, (char *)VNF_SPIN_ARG, cpu, parent, NULL};
	pid_t pid;
	int err;

	if ((cfg->leave != VNF_LEAVE_SPIN && cfg->leave != VNF_LEAVE_EARLY) || cfg->unpinned)
		return 0;
	snprintf(cpu, sizeof(cpu), "%u", cfg->lcore);
	snprintf(parent, sizeof(parent), "%ld", (long)getpid());
	err = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, environ);
	if (err) {
		vnf_err("warning: cannot start the spinning process: %s", strerror(err));
		return 0;
	}
	return pid;
}

static void spin_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* --wait yield (one VNF) and --wait loop (n VNFs of vnf[], one loop),
 * both yielding on an empty poll (a loop to another chain's VNFs on its
 * core, if any; at once when none waits): pinned (yield_pin), at
 * real-time priority or nice -20. */
static void run_shared(const struct poller *p, unsigned int n, struct vnf *vnf, bool yield)
{
	struct vnf_wait w;
	pid_t spin;

	yield_pin(&vnf->cfg);
	if (vnf->cfg.yield_fair) {
		if (setpriority(PRIO_PROCESS, (id_t)gettid(), VNF_YIELD_NICE))
			vnf_err("warning: cannot raise the polling thread's priority (nice %d): %s",
				VNF_YIELD_NICE, strerror(errno));
		loop_shared(p, n, NULL, yield);
		return;
	}
	vnf_wait_init(&w, vnf, n);
	spin = spin_start(&vnf->cfg);
	loop_shared(p, n, &w, yield);
	spin_stop(spin);
	vnf_wait_fini(&w);
}

static void poller_init(struct poller *p, struct vnf *vnf)
{
	unsigned int side;

	memset(p, 0, sizeof(*p));
	p->vnf = vnf;
	p->st = &vnf->stats;
	p->process = vnf->cfg.transform->process;
	p->poll = vnf->cfg.transform->poll;
	p->nb_sides = vnf->port[VNF_EAST].used ? 2 : 1;
	p->burst = vnf->cfg.burst;
	for (side = 0; side < p->nb_sides; side++)
		p->port_id[side] = vnf->port[side].port_id;
}

int vnf_loop(void *arg)
{
	struct vnf_group *g = arg;
	struct vnf *vnf = &g->vnf[0];
	struct poller p[VNF_GROUP_MAX];
	struct vnf_wait w;
	unsigned int i;

	for (i = 0; i < g->n; i++)
		poller_init(&p[i], &g->vnf[i]);
	/* The co-located VNFs of a core in one loop, run to completion: a
	 * VNF's turn hands what it received, transformed, to its next hop
	 * before the next VNF polls, and no VNF waits for the kernel to
	 * switch to it or wake it. It polls as yielding VNFs do, at real-time
	 * priority leaving the core 1/16 of the time, or (--yield-sched
	 * normal) at nice -20 never sleeping. Measured (tactile-crypt, 5
	 * alternating rounds of 2000 probes each): on a core with no other
	 * CPU-bound task, p99 72 us at real-time priority, 40 us at nice -20,
	 * 75 us yielding; with one, 72 us at real-time priority but 4 ms at
	 * nice -20 (the other task runs a tick at a time, as it does beside a
	 * busy VNF: tactile-fwd's was 3.7 ms then). */
	if (vnf->cfg.wait == CALVIN_WAIT_LOOP) {
		run_shared(p, g->n, g->vnf, true);
		return 0;
	}
	if (vnf->cfg.wait == CALVIN_WAIT_BUSY) {
		loop_busy(&p[0]);
		return 0;
	}
	if (vnf->cfg.wait == CALVIN_WAIT_YIELD) {
		run_shared(&p[0], 1, vnf, true);
		return 0;
	}
	vnf_wait_init(&w, vnf, 1);
	loop_wakeup(&p[0], &w);
	vnf_wait_fini(&w);
	return 0;
}
