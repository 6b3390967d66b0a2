/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* What the files of the isolation applier share; not for use outside it. */
#ifndef CALVIN_ISOLATE_PRIV_H
#define CALVIN_ISOLATE_PRIV_H

#include <stdarg.h>
#include <stddef.h>

#include "isolate.h"

/* calvin's cgroups, directly under the hierarchy's root */
#define CG_ISOLATED "calvin-isolated"
#define CG_HOUSEKEEPING "calvin-housekeeping"
#define HOSTREC_FILE "isolation.host"
#define HOSTREC_LOCK "isolation.lock"

/* host.c: files. Text is read without its trailing newline. */
int pathf(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int read_text(const char *path, char *buf, size_t len);
int write_text(const char *path, const char *text);
int cg_mkdir(const struct isolate_host *h, const char *path);
int cg_rmdir(const struct isolate_host *h, const char *path);
/* Is word in a list separated by sep ("cpu cpuset io", "rw,cpuset")? */
bool has_word(const char *list, const char *word, char sep);
/* The CPUs of a list file (online, isolated, cpuset.cpus); empty if absent. */
void read_cpulist(const char *path, struct calvin_cpumask *m);
/* Call fn for every cgroup below dir, parents before children. */
void cg_walk(const char *dir, void (*fn)(const char *path, void *arg), void *arg);
/* A task's /proc/TID/stat; is it a kernel thread? */
struct calvin_procstat;
int task_stat(const struct isolate_host *h, pid_t tid, struct calvin_procstat *st);
bool is_kthread(const struct isolate_host *h, pid_t tid);
#define PF_KTHREAD 0x00200000UL
/* Lines of a file (tasks of a cgroup); 0 if it cannot be read. */
unsigned int count_lines(const char *path);
/* The first task of a process that is not its main thread, in order: *tid
 * starts at 0; returns false when there are no more. */
bool next_thread(const struct isolate_host *h, pid_t pid, pid_t *tid);

/* record.c: the host record, open and locked while in use */
struct hostrec_file {
	int lock_fd;
	int fd; /* -1 until the first append creates the record */
	char path[PATH_MAX];
	struct calvin_hostrec r;
};
int hostrec_open(const struct isolate_host *h, struct hostrec_file *f);
/* The record as it is, without taking the lock (`status` only reads). */
int hostrec_read(const struct isolate_host *h, struct calvin_hostrec *r);
/* Append n entries in one synced write: one journalled step. */
int hostrec_append(struct hostrec_file *f, const struct calvin_hostrec_entry *e, unsigned int n);
int hostrec_add(struct hostrec_file *f, enum calvin_hostrec_kind kind, const char *path,
		const char *value);
/* Chains of the record still deployed (their journal exists), skip aside. */
unsigned int hostrec_live_chains(const struct isolate_host *h, const struct hostrec_file *f,
				 const char *skip, const char **names, unsigned int max);
void hostrec_close(struct hostrec_file *f, bool remove);

/* Other tools' v1 cpusets (libvirt's, docker's) that span some of cpus:
 * their tasks may run there, and if they balance load the kernel keeps
 * those CPUs in a scheduler domain. calvin leaves them as they are. */
struct cg_foreign {
	unsigned int tasks;
	bool balances;
	char first[64]; /* the first such cpuset at the root ("/machine"); "" if none */
};
/* What one application did, for the one summary line. */
struct isolate_ctx {
	const struct isolate_host *h;
	struct hostrec_file rec;
	enum calvin_isolate_mode mode;
	const char *root; /* of the mode's hierarchy */
	struct calvin_cpumask online, boot_isolated;
	struct calvin_cpumask isolate, housekeeping, irq_cpus;
	unsigned int tasks_moved, kthreads_stuck, tasks_stuck;
	struct cg_foreign foreign;
	unsigned int irqs, irqs_moved;
	bool exclusive, default_irq, workqueue;
	char note[256]; /* the first thing that could not be done */
	bool said;	/* a failure was explained in its own line already */
};
void ctx_note(struct isolate_ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Journal path's value (unless journalled already), then write text. */
int rec_write(struct isolate_ctx *x, const char *path, const char *text);
/* The same, journalling the value of from (a file that says what path
 * was asked to hold, where the kernel narrows what it holds). */
int rec_write_from(struct isolate_ctx *x, const char *path, const char *from, const char *text);

/* cgroup.c */
int cg_converge(struct isolate_ctx *x, const struct isolate_request *req);
/* A cgroup of calvin's name at path that calvin did not make (the record
 * r says) and that holds tasks or cgroups: another's, which calvin must
 * not take over. Says so in one line and returns -EBUSY; 0 otherwise. */
int cg_taken(const struct calvin_hostrec *r, enum calvin_isolate_mode mode, const char *path);
/* Move every task of cgroup from into to (v1: tasks; v2: cgroup.procs). */
int cg_sweep(struct isolate_ctx *x, const char *from, const char *to, bool count);
/* Empty a cgroup calvin made into its parent and remove it. */
int cg_remove(struct isolate_ctx *x, const char *path);
int cg_ctrl_restore(struct isolate_ctx *x, const char *path, const char *controller);
/* Fill out for cpus (see struct cg_foreign). */
void cg_foreign(const char *root, const struct calvin_cpumask *cpus, struct cg_foreign *out);
/* The cgroup path a process is in, in the cpuset hierarchy of mode. */
int cg_of(const struct isolate_host *h, enum calvin_isolate_mode mode, pid_t pid, char *out,
	  size_t len);

/* irq.c */
int irq_converge(struct isolate_ctx *x);
/* How many IRQs there are, and how many may only run on cpus. */
void irq_count(const struct isolate_host *h, const struct calvin_cpumask *cpus, unsigned int *nr,
	       unsigned int *on);

/* netsysfs.c */
int netsysfs_steer(const struct isolate_host *h, const struct isolate_request *req,
		   const struct calvin_cpumask *isolate, const struct calvin_cpumask *housekeeping,
		   struct chain_state *st, unsigned int *changed);
int netsysfs_restore(const struct isolate_host *h, struct chain_state *st);

/* chain.c */
int rt_apply(const struct isolate_host *h, const struct isolate_request *req,
	     struct chain_state *st);
int rt_restore(const struct isolate_host *h, struct chain_state *st);

#endif /* CALVIN_ISOLATE_PRIV_H */
