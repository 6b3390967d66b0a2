/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* What the supervisor's own files share (the public side is supervise.h):
 * the chain it watches and each user VNF's life as it sees it. */
#ifndef CALVIN_SUP_H
#define CALVIN_SUP_H

#include <stdint.h>
#include <sys/types.h>

#include "backend.h"
#include "supervise.h"

enum sup_state { SUP_RUNNING, SUP_RESTARTING, SUP_STALLED, SUP_FAILED };

/* Restarts follow the chain file's supervise: section (spec.h; by
 * default the first at once, then 100 ms doubling to 5 s while they keep
 * failing, and failed after 5 starts within 60 s). */
/* The loop's tick: stalled checks and the heartbeat (at most 2 s apart). */
#define SUP_TICK_MS 1000
/* Frames that came in within a tick, none going out: stalled. */
#define SUP_STALL_MIN 10

/* The idx of the server's VM on another host, watched and healed as a
 * VNF's VM is (its agent runs the reflector). */
#define SUP_SERVER CALVIN_MAX_VNFS

struct sup_vnf {
	unsigned int idx; /* in spec.vnfs, or SUP_SERVER */
	int partner;	  /* index in sup.v of the other end of its pair, or -1 */
	pid_t pid;
	unsigned long long start;
	int pidfd;	 /* -1 while not running */
	bool child;	 /* started by this supervisor: waitid() gives its exit */
	bool vm;	 /* a VM of its own (libvirt): no pid, its domain's state */
	bool exit_known; /* exit_code came from the process events connector */
	int exit_code;	 /* a wait status */
	enum sup_state state;
	/* why it is stalled: stopped (SIGSTOP), or its ports' counters (frames
	 * came in, nothing went out within a tick); and those counters at
	 * the last tick (counted: they are a baseline) */
	enum { STALL_NONE, STALL_STOPPED, STALL_COUNTERS } stall;
	bool counted;
	uint64_t in, out;
	unsigned int restarts;
	char last_exit[32];	   /* "" until it exits */
	uint64_t up_ms;		   /* when it last started (monotonic) */
	uint64_t down_ms;	   /* when it was found dead (monotonic) */
	uint64_t due_ms;	   /* restarting: when the next start is due */
	/* the last spec.supervise.restarts starts (monotonic ms), a ring */
	uint64_t tries[CALVIN_RESTARTS_MAX];
	unsigned int nr_tries;
};

/* A port of the chain: one end of a veth in a node's namespace, as the
 * netlink watch sees it (links.c). Ports are kept in path order (the
 * probe's east, each node's west and east, the server's west), so ports
 * 2j and 2j+1 are the two ends of one veth. */
enum sup_port_state { PORT_OK, PORT_DOWN, PORT_XDP_LOST, PORT_GONE };
#define SUP_MAX_PORTS (2 * CALVIN_MAX_NODES)
/* How often the XDP programs are looked at (a driver need not announce
 * an XDP change: a dump of the namespace's links each time). */
#define SUP_LINK_POLL_MS 100

struct sup_port {
	const char *node, *ifname;
	unsigned int net; /* its namespace's socket: sup.net[net] */
	int vnf;	  /* the user VNF whose node it is (index in sup.v), or -1 */
	bool xdp;	  /* the chain attached an XDP program here (journalled) */
	uint32_t prog;	  /* the program attached, as last seen; 0: none */
	int prog_fd;	  /* a kernel VNF's, pass or reflect program, held; -1 */
	enum sup_port_state state;
	uint64_t rx, tx; /* the veth's packet counters, as last seen */
	bool told; /* a failed repair was reported (once per fault) */
	unsigned int repairs;
	uint64_t fault_us; /* when the fault was seen (monotonic) */
};

struct sup_net {
	char ns[128];
	int fd; /* rtnetlink, made in ns, member of RTNLGRP_LINK; -1 */
};

struct sup {
	struct calvin_chain_spec spec;
	struct calvin_plan plan;
	struct calvin_keyring keys;
	uint8_t deploy_random[CALVIN_DEPLOY_RANDOM_LEN];
	unsigned int nr_nodes;
	struct calvin_node nodes[CALVIN_MAX_NODES];
	unsigned int nr;
	struct sup_vnf v[CALVIN_MAX_VNFS + 1]; /* the VNFs, then a server's VM */
	struct sup_vnf mon; /* the chain's monitor (monitor.c); idx unused */
	uint32_t epoch; /* the last epoch any pair of the chain used */
	struct timespec started;
	unsigned long long oom_kills; /* the host's count when last read */
	int exits;		      /* the process events connector (exits.c), or -1 */
	bool vms;		      /* a libvirt chain: every VNF is a VM (vm.c) */
	struct calvin_spec_text text; /* vms: the spec's bytes, for the agents */
	unsigned int nr_nets, nr_ports;
	struct sup_net net[CALVIN_MAX_NODES];
	struct sup_port port[SUP_MAX_PORTS];
	uint64_t link_poll_ms; /* when the links are next looked at */
	char failed[256];      /* why the chain is failed; "" while it is not */
};

uint64_t sup_now_ms(void);
/* What s->v[k] is: its name and its node's (the server's for SUP_SERVER). */
const char *sup_name(const struct sup *s, unsigned int k);
const char *sup_node(const struct sup *s, unsigned int k);

/* heal.c: the chain's context, and (re)starting one VNF */
int sup_load(struct sup *s, const char *chain);
/* Start VNF k under epoch (its pair's keys) with the starter `up` uses;
 * sets pid, start, pidfd. The first VNF of a loop starts the process of
 * them all; the others only watch it then (start them after it). 0 or
 * -errno. */
int sup_vnf_start(struct sup *s, unsigned int k, uint32_t epoch);
/* Do s->v[a] and s->v[b] run in one process (a loop of their core)? */
bool sup_same_process(const struct sup *s, unsigned int a, unsigned int b);
/* The next epoch, persisted before it is used. 0 or -errno. */
int sup_epoch_next(struct sup *s, uint32_t *epoch);

/* vm.c: a libvirt chain's VMs. Its domain's name; its state
 * (enum lv_vm_state, why it stopped into why) or -errno; the spec's text
 * and the watch of lifecycle events; k as the journal finds it; k
 * deployed again (its VM started again unless it runs); the descriptor
 * readable on events (-1: none) and the next VNF one names (-1: none). */
void sup_vm_name(const struct sup *s, unsigned int k, char *out, size_t len);
int sup_vm_state(const struct sup *s, unsigned int k, char *why, size_t len);
int sup_vm_load(struct sup *s);
void sup_vm_attach(struct sup *s, unsigned int k);
int sup_vm_start(struct sup *s, unsigned int k, uint32_t epoch);
int sup_vm_fd(const struct sup *s);
int sup_vm_event(struct sup *s);
void sup_vm_close(struct sup *s);

/* exits.c: the process events connector, drained into each VNF's
 * exit_code; -errno where the kernel does not offer it here. */
int sup_exits_open(void);
void sup_exits_drain(struct sup *s);

/* The restart rule (heal.c), the VNFs' and the monitor's, from the
 * chain's supervise: section: the wait before the next start, whether v
 * was started `restarts` times `within`, a start to count, and the rule
 * in words for the give-up event ("5 starts within 60 s"). */
uint64_t sup_backoff_ms(const struct sup *s, const struct sup_vnf *v, uint64_t now);
bool sup_worn_out(const struct sup *s, const struct sup_vnf *v, uint64_t now);
void sup_tried(const struct sup *s, struct sup_vnf *v, uint64_t now);
void sup_rule_text(const struct sup *s, char *buf, size_t len);

/* watch.c: the loop */
int sup_watch(struct sup *s);

/* links.c: the netlink watch of the chain's ports */
/* One socket per node namespace, each port's program held. 0 or -errno. */
int sup_links_open(struct sup *s);
void sup_links_close(struct sup *s);
/* Read what the kernel said on net's socket; repair what it tells. */
void sup_links_read(struct sup *s, unsigned int net);
/* Due: ask each namespace for its links again (XDP changes need not be
 * announced). */
void sup_links_tick(struct sup *s);
/* The packets VNF k's ports received and sent (their veths' counters,
 * as last dumped); false when none is known. */
bool sup_links_counts(const struct sup *s, unsigned int k, uint64_t *in, uint64_t *out);

/* monitor.c: the chain's monitor, a child watched like a VNF */
void sup_monitor_tend(struct sup *s);
void sup_monitor_exited(struct sup *s);
void sup_monitor_stop(struct sup *s);

/* report.c */
const char *sup_state_name(enum sup_state st);
const char *sup_port_state_name(enum sup_port_state st);
/* supervisor.json, replaced whole. */
void sup_report_write(const struct sup *s);
/* The chain cannot be healed without a new deployment: every VNF that
 * waits for a restart is failed, and one chain-failed event says why
 * (the first reason only). */
void sup_chain_failed(struct sup *s, const char *why);

#endif /* CALVIN_SUP_H */
