/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* CPUs: the host as the planner sees it, which CPU each VNF gets, and
 * what that means at run time. Sets of CPUs (cpumask.c); the planner
 * (plan.c, rules.c, topology.c, explain.c) and its plan as text, JSON
 * (print.c, json.c) and as the record a deployed chain leaves
 * (record.c); the host reader that feeds it (host.c, host_cgroup.c,
 * host_files.c); the run-time isolation decisions (isolation.c); and
 * where a VNF really runs, read back from the kernel (placement.c). */
#ifndef CALVIN_LIB_PLAN_H
#define CALVIN_LIB_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spec/spec.h"

/* ==== cpumask.c ==== */

/* Sets of CPUs as a fixed bitmap, and the two text forms the kernel uses
 * for them: lists ("0-3,8") in cpuset and smp_affinity_list files, hex
 * masks ("ff,00000003") in default_smp_affinity, rps_cpus and the
 * workqueue cpumask. Pure code. */

/* CPUs a set can hold: the planner's bound too */
#define CALVIN_MAX_CPUS 1024
/* longest text either form takes: every CPU listed ("0,2,4,...") */
#define CALVIN_CPUS_TEXT_MAX (CALVIN_MAX_CPUS * 5)

struct calvin_cpumask {
	uint64_t w[CALVIN_MAX_CPUS / 64];
};

static inline void calvin_cpumask_set(struct calvin_cpumask *m, int c)
{
	if (c >= 0 && c < CALVIN_MAX_CPUS)
		m->w[c / 64] |= 1ULL << (c % 64);
}

static inline void calvin_cpumask_clear(struct calvin_cpumask *m, int c)
{
	if (c >= 0 && c < CALVIN_MAX_CPUS)
		m->w[c / 64] &= ~(1ULL << (c % 64));
}

static inline bool calvin_cpumask_isset(const struct calvin_cpumask *m, int c)
{
	return c >= 0 && c < CALVIN_MAX_CPUS && (m->w[c / 64] >> (c % 64)) & 1;
}

bool calvin_cpumask_empty(const struct calvin_cpumask *m);
bool calvin_cpumask_equal(const struct calvin_cpumask *a, const struct calvin_cpumask *b);
/* Does a hold every CPU of b? */
bool calvin_cpumask_contains(const struct calvin_cpumask *a, const struct calvin_cpumask *b);
unsigned int calvin_cpumask_count(const struct calvin_cpumask *m);
/* d = a | b, d = a & b, d = a & ~b; d may be a or b */
void calvin_cpumask_or(struct calvin_cpumask *d, const struct calvin_cpumask *a,
		       const struct calvin_cpumask *b);
void calvin_cpumask_and(struct calvin_cpumask *d, const struct calvin_cpumask *a,
			const struct calvin_cpumask *b);
void calvin_cpumask_andnot(struct calvin_cpumask *d, const struct calvin_cpumask *a,
			   const struct calvin_cpumask *b);

/* Lowest CPU in m, or -1. */
int calvin_cpumask_first(const struct calvin_cpumask *m);
/* "0-3,8,10-11" (an empty string or a lone newline: none). 0, -EINVAL (not
 * a list) or -ERANGE (a CPU of CALVIN_MAX_CPUS or more). */
int calvin_cpumask_parse_list(const char *s, struct calvin_cpumask *m);
/* The list form into buf ("" when empty); returns buf, or NULL if it did
 * not fit. */
const char *calvin_cpumask_list(const struct calvin_cpumask *m, char *buf, size_t len);
/* "3", "00000000,00000003", "ff\n": comma-separated groups of 32 bits, most
 * significant first. 0 or -EINVAL. */
int calvin_cpumask_parse_hex(const char *s, struct calvin_cpumask *m);
/* The hex form the kernel parses back: groups of 32 bits, the first
 * without leading zeros ("0" when empty). Returns buf, or NULL. */
const char *calvin_cpumask_hex(const struct calvin_cpumask *m, char *buf, size_t len);

/* ==== plan.c, rules.c, topology.c, explain.c, record.c, print.c, json.c ==== */

/* Placement: which CPU each VNF gets, and what is left for housekeeping.
 * Pure code: the host's topology comes in as a struct (host.c reads it),
 * the plan goes out.
 *
 * Only user VNFs get cores: they busy-poll. Kernel VNFs run in the softirq
 * of whichever CPU delivers their packets (on veth, the sender's), so they
 * are placed by where their neighbours run, not pinned; under the libvirt
 * backend each VM's vCPU 1 runs its VNFs, so every VM takes a core (its
 * kernel VNFs get it too, and VNFs sharing a node share their VM's). Housekeeping (the
 * probe, the controller, emulator threads, IRQs) gets the cores no VNF is
 * placed on, at least one, and never a nohz_full one: the tick it needs
 * would keep those cores from being tickless. */

/* ---- the host, as the planner sees it ---- */

/* How a deployed chain holds a CPU (its plan record, see below). */
enum calvin_hold_kind {
	CALVIN_HOLD_OWNS,	  /* a VNF busy-polls on it */
	CALVIN_HOLD_SHARES,	  /* VNFs share it, waiting for packets */
	CALVIN_HOLD_HOUSEKEEPING, /* a VNF shares the chain's housekeeping core */
};

struct calvin_hold {
	char chain[CALVIN_NAME_MAX + 1];
	char vnf[CALVIN_NAME_MAX + 1];
	int cpu;
	enum calvin_hold_kind kind;
	bool isolated; /* isolated now or to be at run time: keep off its SMT siblings */
};

#define CALVIN_MAX_HOLDS 1024

struct calvin_topology {
	unsigned int nr_cpus; /* highest online CPU + 1 */
	struct calvin_cpumask online;
	struct calvin_cpumask isolcpus;	 /* isolated at boot (isolcpus=) */
	struct calvin_cpumask partitions; /* in cgroup v2 isolated partitions */
	struct calvin_cpumask nohz_full;
	struct calvin_cpumask affinity; /* the controller's allowed CPUs */
	struct calvin_cpumask cpuset;   /* its cgroup's cpuset: all when it has none */
	int core[CALVIN_MAX_CPUS];     /* SMT core: the lowest of its thread siblings */
	int node[CALVIN_MAX_CPUS];     /* NUMA node; -1: unknown */
	unsigned int nr_nodes;	       /* 0: unknown */
	unsigned int nr_holds;	       /* cores other deployed chains hold */
	struct calvin_hold holds[CALVIN_MAX_HOLDS];
	/* for `calvin plan`: where the cpuset came from, and what could not
	 * be read ("" when all was read) */
	char cpuset_from[256];
	char unread[256];
	/* read through libvirt from another host (caps.c): calvin sees no
	 * isolation there and cannot isolate CPUs, move IRQs or set cpusets */
	bool remote;
};

/* nr_cpus CPUs, all online and allowed, each its own core, nodes unknown,
 * nothing isolated or held: the base of a host description. */
void calvin_topology_init(struct calvin_topology *t, unsigned int nr_cpus);

/* A host's topology from its libvirt capabilities XML (caps.c): every
 * CPU of <host><topology> online, its NUMA cell and SMT core (the lowest
 * of its siblings); nothing isolated (calvin cannot see or change that on
 * another host), t->remote set, nothing held yet. 0, or -EINVAL with a
 * sentence in why. */
int calvin_topology_from_caps(const char *xml, struct calvin_topology *t, char *why, size_t len);

/* The cores a calvin domain on that host holds, from its domain XML
 * (virDomainGetXMLDesc), added to t->holds: a domain named
 * calvin-CHAIN.NODE holds its vCPU 1's pinned CPUs for its VNFs (owns)
 * and its vCPU 0's and emulator's for housekeeping. Other domains, those
 * of chain own (may be NULL) and unpinned ones add nothing. Returns how
 * many holds were added, or -EINVAL (not a domain XML, or a calvin
 * domain's pin that does not parse) with a sentence in why. */
int calvin_holds_from_domain(const char *xml, const char *own, struct calvin_topology *t, char *why,
			     size_t len);

/* Two controllers planning one host at once: after a VM of placement v
 * was defined, the host's holds read again (now) against those it was
 * planned on (then). The first hold that is new and collides with v (on
 * v's CPU: any, when v owns it; one that owns it, when v shares it), or
 * NULL. */
struct calvin_vnf_place;
const struct calvin_hold *calvin_hold_collision(const struct calvin_topology *then,
						const struct calvin_topology *now,
						const struct calvin_vnf_place *v);

/* The online CPUs of SMT core core (its lowest CPU), or of NUMA node
 * node, into out; returns how many. */
unsigned int calvin_topology_core_cpus(const struct calvin_topology *t, int core,
				       struct calvin_cpumask *out);
unsigned int calvin_topology_node_cpus(const struct calvin_topology *t, int node,
				       struct calvin_cpumask *out);

/* ---- the plan ---- */

/* What a VNF may ask for and be granted, best first. With allow-sharing, a
 * VNF that cannot have what it asked for degrades one step at a time in
 * this order. */
enum calvin_grant {
	CALVIN_GRANT_ISOLATED,	  /* a core of its own, isolated now or at run time */
	CALVIN_GRANT_DEDICATED,	  /* a core of its own, not isolated */
	CALVIN_GRANT_SHARED_CORE, /* a core shared with other VNFs, not with housekeeping */
	CALVIN_GRANT_SHARED,	  /* a housekeeping core, or not pinned at all */
	CALVIN_GRANT_SOFTIRQ,	  /* kernel VNF: the softirq of the CPU that delivers */
};

enum calvin_isolation {
	CALVIN_ISOL_NONE,
	CALVIN_ISOL_NOW,      /* isolcpus= or a cgroup v2 isolated partition */
	CALVIN_ISOL_RUN_TIME, /* to be isolated by calvin (a cpuset partition) */
};

/* How a user VNF waits for packets, chosen per core: it busy-polls a core
 * it owns ("busy"); VNFs that share a core with each other and nothing
 * else take turns polling, each yielding on an empty poll ("shared");
 * beside other work (housekeeping, or not pinned) they sleep in the kernel
 * until a frame wakes them ("wake-up"), so that work keeps its share. */
enum calvin_plan_wait {
	CALVIN_PLAN_WAIT_NONE, /* kernel VNF */
	CALVIN_PLAN_WAIT_BUSY,
	CALVIN_PLAN_WAIT_WAKEUP, /* sleeps in the kernel until packets come */
	CALVIN_PLAN_WAIT_YIELD,	 /* polls, yielding to its core's other VNFs when idle */
	CALVIN_PLAN_WAIT_LOOP,	 /* one process polls the chain's VNFs of its core in turn */
};

/* VNFs one loop may poll (calvin-vnf's VNF_GROUP_MAX); more of a chain on
 * one core take turns, a process each. */
#define CALVIN_PLAN_LOOP_MAX 8

#define CALVIN_WHY_MAX 160

struct calvin_vnf_place {
	int cpu;   /* -1: not pinned */
	bool owns; /* no other VNF and no housekeeping on cpu */
	enum calvin_grant asked, granted;
	enum calvin_isolation isolation; /* of cpu */
	enum calvin_plan_wait wait;
	char why[CALVIN_WHY_MAX]; /* why granted is worse than asked; "" if not */
	int host;		  /* where cpu is: 0 this host, 1 + i spec->hosts[i] */
};

struct calvin_plan {
	enum calvin_placement policy;
	unsigned int nr_vnfs;
	struct calvin_vnf_place vnf[CALVIN_MAX_VNFS];
	struct calvin_cpumask housekeeping; /* for the probe, controller, IRQs */
	struct calvin_cpumask isolate;	   /* cores to isolate at run time */
	unsigned int nr_degraded;	   /* VNFs granted less than they asked */
	/* on spec->hosts[i]: its VMs' vCPU 0 and emulator threads; empty
	 * where no VNF of the chain runs, or its CPUs were not read */
	struct calvin_cpumask remote_housekeeping[CALVIN_MAX_HOSTS];
};

/* Make the plan for spec on host t, or explain in err (one line) what the
 * host lacks and return -ENOSPC (-ENODEV: no CPU at all for housekeeping).
 * nic_node[i] is the NUMA node of VNF i's NIC, -1 where unknown; NULL: all
 * unknown (veth). */
int calvin_plan_make(const struct calvin_chain_spec *spec, const struct calvin_topology *t,
		     const int *nic_node, struct calvin_plan *p, char *err, size_t errlen);

/* The same across hosts: t[0] is this host, t[1 + i] spec->hosts[i]
 * (NULL where it was not read), each VNF planned on its own host's CPUs
 * with the same rules (an isolated VNF on another host: calvin cannot
 * isolate there). A VNF on a host not read is not pinned. A host that
 * cannot place its VNFs fails the plan: err starts "host NAME: ". */
int calvin_plan_make_hosts(const struct calvin_chain_spec *spec,
			   const struct calvin_topology *const *t, const int *nic_node,
			   struct calvin_plan *p, char *err, size_t errlen);

/* Where VNF i runs: 0 this host, 1 + i for spec->hosts[i] (-1: a host
 * not in hosts:, which the parser refuses). */
int calvin_plan_host_of(const struct calvin_chain_spec *spec, unsigned int i);

/* A deployed chain's housekeeping set hk, less the cores other chains'
 * VNFs (t->holds) took since; unchanged if that would leave none. */
void calvin_plan_housekeeping_now(const struct calvin_topology *t, struct calvin_cpumask *hk);

/* CPUs a VNF may be pinned to: online, in the controller's cpuset and
 * affinity; isolated CPUs count even outside them (see plan.c). */
void calvin_plan_usable(const struct calvin_topology *t, struct calvin_cpumask *out);

const char *calvin_grant_name(enum calvin_grant g);
const char *calvin_isolation_name(enum calvin_isolation i);
const char *calvin_plan_wait_name(enum calvin_plan_wait w);
const char *calvin_hold_kind_name(enum calvin_hold_kind k);

/* ---- the plan record: RUN_DIR/CHAIN.plan ----
 *
 * What `calvin up` deployed, so that other chains' plans keep off its
 * cores and its probe finds its housekeeping cores. Text, one item a line:
 *
 *   housekeeping CPULIST
 *   isolate [CPULIST]            (cores to isolate at run time, if any)
 *   vnf NAME CPU owns|shares|housekeeping [isolated]
 *   degraded NAME ASKED GRANTED WHY...   (a VNF granted less than it asked)
 *   wait NAME busy|wakeup|yield|loop     (how a user VNF waits; loop: the
 *                                         chain's VNFs of its CPU, one process)
 *
 * Lines starting with '#' and unknown words are skipped, so a newer calvin
 * can add lines an older one reads past. */

/* The record of plan into f. */
void calvin_plan_record_write(FILE *f, const struct calvin_chain_spec *spec,
			      const struct calvin_plan *p);

/* One line of a record: the housekeeping set goes to hk (may be NULL), a
 * vnf line to *hold (chain left as it is) with 1 returned; 0 for any
 * other line; -EINVAL for a line that does not parse. */
int calvin_plan_record_line(const char *line, struct calvin_cpumask *hk, struct calvin_hold *hold);

/* A VNF the plan gave less than it asked for, as its record says: what
 * reports of the chain tell (probe, run, status). */
struct calvin_degraded {
	char vnf[CALVIN_NAME_MAX + 1];
	enum calvin_grant asked, granted;
	char why[CALVIN_WHY_MAX];
};

/* A degraded line of a record into *d: 1; 0 for any other line; -EINVAL
 * for a degraded line that does not parse. */
int calvin_plan_record_degraded(const char *line, struct calvin_degraded *d);

/* "fwd-u asked isolated, got shared-core: no core left to dedicate" */
void calvin_degraded_text(const struct calvin_degraded *d, char *buf, size_t len);

/* Each VNF's cpu and wait as the record at path has them, into p (spec's
 * VNFs by name; what the record does not name is left). 0 or -errno. */
int calvin_plan_record_places(const char *path, const struct calvin_chain_spec *spec,
			      struct calvin_plan *p);

/* The VNF whose process runs VNF i: the first of the chain with wait
 * loop on i's CPU (one process polls them all), else i itself. */
unsigned int calvin_plan_loop_leader(const struct calvin_plan *p, unsigned int i);

/* ---- printing ---- */

/* The plan for people: per VNF its CPU, owns or shares, isolation, wait
 * mode, what it was degraded from and why; the housekeeping set; what was
 * read from the host. */
void calvin_plan_print_text(FILE *f, const struct calvin_chain_spec *spec,
			    const struct calvin_topology *t, const struct calvin_plan *p);
/* Each host of hosts: that calvin read (t[1 + i], see
 * calvin_plan_make_hosts()): its CPUs, what other chains hold there, the
 * plan's housekeeping there, and what calvin does not do there
 * (calvin_remote_not_done). */
extern const char calvin_remote_not_done[];
void calvin_plan_print_remote_text(FILE *f, const struct calvin_chain_spec *spec,
				   const struct calvin_topology *const *t,
				   const struct calvin_plan *p);
/* The plan as one JSON object (the caller puts it; NULL when out of
 * memory), and that object written to f on one line. Each VNF names its
 * host ("local" or a name of hosts:). */
struct json_object;
struct json_object *calvin_plan_jobj(const struct calvin_chain_spec *spec,
				     const struct calvin_topology *t, const struct calvin_plan *p);
void calvin_plan_print_json(FILE *f, const struct calvin_chain_spec *spec,
			    const struct calvin_topology *t, const struct calvin_plan *p);
/* The hosts calvin_plan_print_remote_text() shows, as a JSON array:
 * name, uri, online, smt, numa, held, housekeeping, not_done. */
struct json_object *calvin_plan_remote_jobj(const struct calvin_chain_spec *spec,
					    const struct calvin_topology *const *t,
					    const struct calvin_plan *p);

/* ==== host.c, host_cgroup.c, host_files.c ==== */

/* The host reader: the CPU topology the planner needs, from sysfs, procfs,
 * the cgroup filesystems and the plan records of deployed chains. It reads
 * files and needs no root; the filesystem root is a parameter, so tests
 * feed it trees of their own.
 *
 * What it reads, below root:
 *   sys/devices/system/cpu/{online,isolated,nohz_full}
 *   sys/devices/system/cpu/cpuN/topology/thread_siblings_list   (SMT)
 *   sys/devices/system/node/nodeN/cpulist                       (NUMA)
 *   proc/self/status (Cpus_allowed_list)                        (affinity)
 *   proc/self/cgroup and proc/self/mountinfo, then the cpuset of this
 *   process's cgroup: cgroup v1 cpuset.effective_cpus, or cgroup v2
 *   cpuset.cpus.effective; and cgroup v2 isolated partitions (the root's
 *   cpuset.cpus.isolated, or every cgroup whose cpuset.cpus.partition is
 *   "isolated")
 * and, in the run directory, every CHAIN.plan but the chain's own. */

struct calvin_host_source {
	const char *root;    /* "/" on a real host */
	const char *run_dir; /* where plan records are; NULL: none read */
	const char *chain;   /* whose own record is left out; may be NULL */
};

/* Fill t. Only the list of online CPUs is required: without it, -errno and
 * one line in err. Anything else missing means "none" or "no limit"; what
 * could not be read is said in t->unread. */
int calvin_host_read(const struct calvin_host_source *src, struct calvin_topology *t, char *err,
		     size_t errlen);

/* The housekeeping set of the plan record at path: 0, or -errno (-ENOENT:
 * no record; -EINVAL: it has no housekeeping line). */
int calvin_plan_record_housekeeping(const char *path, struct calvin_cpumask *hk);

/* The degraded lines of the plan record at path, at most max of them,
 * into d: how many, or -errno (-ENOENT: no record). */
int calvin_plan_record_degraded_read(const char *path, struct calvin_degraded *d, unsigned int max);

/* ==== isolation.c ==== */

/* Run-time CPU isolation, the decisions: what the host-wide isolation
 * record says, which CPUs to isolate and which are housekeeping, where
 * packet steering may go, whether realtime options fit a placement, and
 * what the kernel's own files say about a VNF. Pure code: the controller
 * (userspace/calvin/isolate/) reads and writes the files.
 *
 * The host record is the journal of every host-wide setting calvin changes
 * to isolate CPUs, shared by all isolated chains, one line each:
 *
 *   mode v1|v2 ROOT        the mechanism (cgroup v1 cpusets or a cgroup v2
 *                          isolated partition) and its hierarchy's mount
 *   chain NAME CPULIST     chain NAME needs CPULIST isolated
 *   leave NAME             ... and no longer does
 *   mkdir PATH             a cgroup calvin made (emptied and removed at the end)
 *   found PATH             a cgroup of calvin's name that calvin did not make
 *                          (it was there already): used, its files' old values
 *                          journalled as file lines, never removed
 *   file PATH VALUE        PATH held VALUE before calvin first wrote it
 *   ctrl PATH CONTROLLER   calvin enabled CONTROLLER in PATH/cgroup.subtree_control
 *   moved FROM TO          the tasks of cgroup FROM are being moved to TO
 *
 * Every line is written before the change it describes, so undoing what
 * the lines name undoes everything, after a crash at any point too. */

#define CALVIN_HOSTREC_PATH_MAX 256
#define CALVIN_HOSTREC_VALUE_MAX 1200 /* a hex mask of 1024 CPUs, or a cpulist */

enum calvin_isolate_mode {
	CALVIN_ISOLATE_NONE, /* neither cgroup hierarchy has a cpuset we can use */
	CALVIN_ISOLATE_V1,   /* cgroup v1 cpusets: one for VNFs, one for housekeeping */
	CALVIN_ISOLATE_V2,   /* a cgroup v2 cpuset partition of type isolated */
};

enum calvin_hostrec_kind {
	HR_MODE,
	HR_CHAIN,
	HR_LEAVE,
	HR_MKDIR,
	HR_FILE,
	HR_CTRL,
	HR_MOVED,
	HR_FOUND,
	HR_NR_KINDS,
};

struct calvin_hostrec_entry {
	enum calvin_hostrec_kind kind;
	char path[CALVIN_HOSTREC_PATH_MAX];   /* also the mode word, or the chain name */
	char value[CALVIN_HOSTREC_VALUE_MAX]; /* mode root, cpulist, old value, controller, TO */
};

/* The record as read: its lines in order. */
struct calvin_hostrec {
	unsigned int nr, cap;
	struct calvin_hostrec_entry *e;
};

/* One line (without or with its newline) into e. 0, or -EINVAL. */
int calvin_hostrec_parse(const char *line, struct calvin_hostrec_entry *e);
/* e as one line with its newline. 0, or -ENAMETOOLONG, or -EINVAL (a path
 * or name with a space or newline: it could not be read back). */
int calvin_hostrec_format(const struct calvin_hostrec_entry *e, char *buf, size_t len);
/* Append a copy of e. 0 or -ENOMEM. */
int calvin_hostrec_add(struct calvin_hostrec *r, const struct calvin_hostrec_entry *e);
void calvin_hostrec_free(struct calvin_hostrec *r);

/* The mode the record was made with, and its root; NONE if not written. */
enum calvin_isolate_mode calvin_hostrec_mode(const struct calvin_hostrec *r, const char **root);
/* Does the record list chain as needing isolation (joined, not left)?
 * With cpus, its CPUs. */
bool calvin_hostrec_has_chain(const struct calvin_hostrec *r, const char *chain,
			      struct calvin_cpumask *cpus);
/* The chains in the record, in the order they joined: name i (i < the
 * return value) at names[i], valid while r is. */
unsigned int calvin_hostrec_chains(const struct calvin_hostrec *r, const char **names,
				   unsigned int max);
/* The value PATH held before calvin first wrote it; NULL: never written. */
const char *calvin_hostrec_original(const struct calvin_hostrec *r, const char *path);
/* Is there an entry of this kind for path (and, unless value is NULL,
 * with this value)? */
bool calvin_hostrec_has(const struct calvin_hostrec *r, enum calvin_hostrec_kind kind,
			const char *path, const char *value);
/* Did calvin make the cgroup at path: is its newest mkdir or found line a
 * mkdir? A cgroup found where calvin was about to make it is not calvin's. */
bool calvin_hostrec_made(const struct calvin_hostrec *r, const char *path);

/* The CPUs to isolate (the union of what the chains need) and the
 * housekeeping CPUs (every other online CPU). -ENOSPC when no online CPU
 * would be left for housekeeping. */
int calvin_isolate_targets(const struct calvin_cpumask *const *chain_cpus, unsigned int nr,
			   const struct calvin_cpumask *online, struct calvin_cpumask *isolate,
			   struct calvin_cpumask *housekeeping);

/* Receive/transmit packet steering (rps_cpus, xps_cpus) of a chain's
 * interface: keep it off the isolated CPUs. Off (empty) stays off; a mask
 * that only named isolated CPUs becomes the housekeeping set. Returns true
 * and the new mask in out when the file must change. */
bool calvin_isolate_steer(const struct calvin_cpumask *old, const struct calvin_cpumask *isolate,
			  const struct calvin_cpumask *housekeeping, struct calvin_cpumask *out);

/* SCHED_FIFO busy-pollers starve whatever shares their CPU: with
 * 'sched: fifo', every user VNF must be pinned (vnf_cpu[i] >= 0) to a CPU
 * no other VNF of the chain and no housekeeping uses. Returns 0, or
 * -EINVAL with "file:line:col: ..." in err. */
int calvin_realtime_check(const struct calvin_chain_spec *s, const int *vnf_cpu,
			  const struct calvin_cpumask *housekeeping, char *err, size_t len);

/* CPUs no scheduler domain balances onto under cgroup v1 cpusets: with the
 * root's sched_load_balance off, those in no cpuset that balances. */
void calvin_cpuset_v1_unbalanced(bool root_balances, const struct calvin_cpumask *balanced,
				 const struct calvin_cpumask *online, struct calvin_cpumask *out);

/* ==== placement.c ==== */

/* Where a user VNF really runs, as the kernel says it (`calvin status`):
 * parsers of /proc/PID/stat and /proc/PID/status text, and the text and
 * JSON forms. Pure code; the controller reads the files, or a VM's agent
 * reads them in the guest. */

/* The fields of /proc/PID/stat calvin reads (man 5 proc numbers them). */
struct calvin_procstat {
	char state;		  /* field 3 */
	unsigned long flags;	  /* 9: PF_*; PF_KTHREAD marks a kernel thread */
	unsigned long long start; /* 22: start time, clock ticks since boot */
	int last_cpu;		  /* 39: CPU it last ran on */
	unsigned int rt_priority; /* 40 */
	unsigned int policy;	  /* 41: SCHED_* */
};

/* 0, or -EINVAL. The command name (field 2) may hold spaces and ')'. */
int calvin_procstat_parse(const char *text, struct calvin_procstat *out);
/* Cpus_allowed_list and VmLck (kB; 0 when absent) of /proc/PID/status. */
int calvin_procstatus_parse(const char *text, struct calvin_cpumask *allowed,
			    unsigned long *locked_kb);
/* "other", "fifo", "rr", "batch", "idle", "deadline", or "?" */
const char *calvin_sched_policy_name(unsigned int policy);

struct calvin_vnf_placement {
	char name[CALVIN_NAME_MAX + 1];
	int pid; /* 0: not running */
	struct calvin_cpumask allowed;
	int last_cpu;
	unsigned int policy, priority;
	char cpuset[256]; /* its cgroup in the cpuset hierarchy */
	unsigned long locked_kb;
	const char *isolated_by; /* what isolates every CPU it may run on; NULL: not isolated */
	/* a VNF in a VM: pid, CPUs, policy and isolation are the guest's */
	char vm[128];			    /* the domain; "" on the host */
	bool exited;			    /* pid 0 in a VM: it ran and exited, with exit_status */
	int exit_status;		    /* its wait status */
	int host_last_cpu;		    /* the host CPU its vCPU last ran on; -1: unknown */
	struct calvin_cpumask host_allowed; /* the host CPUs that vCPU may run on */
};

/* One VNF: a line of text ("  NAME  pid N  cpus ..."), or a JSON object
 * (the caller puts it). */
void calvin_placement_print(FILE *f, const struct calvin_vnf_placement *p);
struct json_object *calvin_placement_jobj(const struct calvin_vnf_placement *p);

#endif /* CALVIN_LIB_PLAN_H */
