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
 *   domain NAME URI               a libvirt domain (defined, maybe running) at URI
 *   tap NAME                      a tap device on the host
 *   bridge NAME                   a Linux bridge on the host
 *   veth NAME                     the host end of a veth pair (a link to a namespace)
 *   hostxdp IFNAME                XDP programs on a host interface (a link)
 *
 * The file is /run/calvin/CHAIN.state; its existence means "deployed". */
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
	ST_DOMAIN,
	ST_TAP,
	ST_BRIDGE,
	ST_HOST_XDP,
	ST_VETH,
	ST_NR_KINDS,
};

struct state_entry {
	enum state_kind kind;
	char name[256]; /* netns, domain or interface name, or path */
	char ifname[32]; /* ST_XDP */
	char uri[256]; /* ST_DOMAIN: the libvirt connection */
	pid_t pid; /* ST_PROC */
	unsigned long long start; /* ST_PROC */
};

struct chain_state {
	char chain[64];
	char path[4096];
	int fd; /* open and locked while in use */
	unsigned int nr;
	struct state_entry e[STATE_MAX_ENTRIES];
};

/* Create the journal of a new deployment; -EEXIST if one exists. */
int state_create(struct chain_state *s, const char *chain);
/* Open and lock an existing journal and read its entries; -ENOENT if none. */
int state_open(struct chain_state *s, const char *chain);
/* Append one entry and sync it to disk before returning. ST_DOMAIN takes
 * the URI as ifname. */
int state_add(struct chain_state *s, enum state_kind kind, const char *name, const char *ifname,
	      pid_t pid, unsigned long long start);
/* Close (and unlock) the journal; with remove, delete it: nothing is left. */
void state_close(struct chain_state *s, bool remove);
/* Path of a chain's files under the run dir: "CHAIN.state", "CHAIN.yaml", "CHAIN.d". */
void state_file(char *out, size_t len, const char *chain, const char *suffix);

#endif /* CALVIN_STATE_H */
