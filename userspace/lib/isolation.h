/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
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
#ifndef CALVIN_LIB_ISOLATION_H
#define CALVIN_LIB_ISOLATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "chainspec.h"
#include "cpumask.h"

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

#endif /* CALVIN_LIB_ISOLATION_H */
