/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Per-chain state journal: everything `up` creates is written here, and
 * synced, before it is created, so `down` can undo a deployment that was
 * interrupted at any point. One line per resource:
 *
 *   netns NAME                    a network namespace
 *   xdp NETNS IFNAME              XDP programs attached to IFNAME in NETNS
 *   proc NETNS PID STARTTIME      a process (a user VNF), identified by its start time
 *   path PATH                     a file or directory to remove (pins, DPDK runtime dir)
 *   backend NAME                  the first entry: which backend made the rest
 *   isolate CPULIST               the chain joined the host-wide isolation of
 *                                 CPULIST (isolate/, the host record)
 *   netsysfs NETNS PATH VALUE     PATH (under NETNS's /sys/class/net) held VALUE
 *   sched TID START POLICY PRIO   a VNF thread's scheduling policy before calvin set it
 *   domain NAME URI               a libvirt domain (defined, maybe running) at URI
 *   tap NAME                      a tap device on the host
 *   bridge NAME                   a Linux bridge on the host
 *   veth NAME                     the host end of a veth pair (a link to a namespace)
 *   hostxdp IFNAME                XDP programs on a host interface (a link)
 *   supervisor CHAIN PID START    the chain's supervisor (supervise/), stopped first
 *   ovnls NAME NB                 an OVN logical switch (a link between hosts)
 *                                 in the northbound database NB (ovn/)
 *   ovnlsp NAME NB                a port of one, named by a UUID
 *   lvpool NAME URI               a libvirt storage pool at URI (libvirt/storage.c)
 *   lvvol POOL/NAME URI           a volume in it (a guest image, or its sidecar)
 *
 * A proc line is padded with blanks to one length per node, so that a VNF
 * the supervisor restarts takes the line of its dead process in place:
 * the journal does not grow with restarts.
 *
 * The file is /run/calvin/CHAIN.state; its existence means "deployed".
 * Every name fits an entry whole (state_add refuses one that does not, and
 * `up` checks them all before it creates anything): a name cut short
 * could be someone else's file. */
#ifndef CALVIN_STATE_H
#define CALVIN_STATE_H

#include <stdbool.h>
#include <sys/types.h>

#define STATE_MAX_ENTRIES 256

enum state_kind {
	ST_NETNS,
	ST_XDP,
	ST_PROC,
	ST_PATH,
	ST_BACKEND,
	ST_ISOLATE,
	ST_NETSYSFS,
	ST_SCHED,
	ST_DOMAIN,
	ST_TAP,
	ST_BRIDGE,
	ST_HOST_XDP,
	ST_VETH,
	ST_SUPERVISOR,
	ST_OVN_LS,
	ST_OVN_LSP,
	ST_LV_POOL,
	ST_LV_VOL,
	ST_OVS_PORT,
	ST_NR_KINDS,
};

/* Longest name or path an entry holds. */
#define STATE_NAME_MAX 255

struct state_entry {
	enum state_kind kind;
	char name[STATE_NAME_MAX + 1]; /* netns, domain or interface name, or path;
				       * ST_ISOLATE: the CPU list */
	char ifname[64];	  /* ST_XDP; ST_NETSYSFS: the path under /sys/class/net */
	char uri[256];		  /* ST_DOMAIN, ST_LV_*: the libvirt
				   * connection; ST_OVN_*: the NB */
	pid_t pid;		  /* ST_PROC, ST_SCHED, ST_SUPERVISOR */
	unsigned long long start; /* ST_PROC, ST_SCHED */
	char value[320];	  /* ST_NETSYSFS: the old value; ST_SCHED: "POLICY PRIORITY" */
	long off;		  /* where its line starts in the file, and its length */
	unsigned int len;
};

struct chain_state {
	char chain[64];
	char path[4096];
	int fd; /* open and locked while in use */
	unsigned int nr;
	struct state_entry e[STATE_MAX_ENTRIES];
};

/* Does name fit a journal entry? */
bool state_name_fits(const char *name);
/* The state directory (calvin_run_dir()): with create, made if missing,
 * mode 0700 and root's. Refused in one line when it is not a directory, or
 * another user owns it, or group or others may use it: whoever can write
 * there decides what `calvin down` deletes. Missing without create is
 * fine (nothing is deployed). Returns 0 or an exit code. */
int state_dir_check(bool create);
/* Create the journal of a new deployment; -EEXIST if one exists. */
int state_create(struct chain_state *s, const char *chain);
/* Open and lock an existing journal and read its entries; -ENOENT if none. */
int state_open(struct chain_state *s, const char *chain);
/* Append one entry and sync it to disk before returning. ST_DOMAIN and
 * ST_LV_* take the URI as ifname, ST_OVN_* the northbound database,
 * ST_OVS_PORT the Open vSwitch database. A process (ST_PROC) takes the
 * place of a gone one of the same node instead: its line is rewritten in
 * place, synced the same way. */
int state_add(struct chain_state *s, enum state_kind kind, const char *name, const char *ifname,
	      pid_t pid, unsigned long long start);
/* Append a whole entry (any kind), synced, like state_add(). */
int state_append(struct chain_state *s, const struct state_entry *e);
/* Read a journal without locking it (`status`: it must not wait for an
 * `up` in progress); -ENOENT if none. */
int state_peek(struct chain_state *s, const char *chain);
/* A step of `up` has been journalled (in any journal): the fault injection
 * of the crash tests, CALVIN_CRASH_AFTER=N, kills the controller at step N. */
void journal_step(void);
/* Close (and unlock) the journal; with remove, delete it: nothing is left. */
void state_close(struct chain_state *s, bool remove);
/* Path of a chain's files under the run dir: "CHAIN.state", "CHAIN.yaml",
 * "CHAIN.plan" (its plan record, see plan/plan.h), "CHAIN.d"; -ENAMETOOLONG if
 * it does not fit, -EINVAL for a chain name that is not one. */
int state_file(char *out, size_t len, const char *chain, const char *suffix);

#endif /* CALVIN_STATE_H */
