/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Small helpers of the controller: errors, commands, namespaces, files. */
#ifndef CALVIN_UTIL_H
#define CALVIN_UTIL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Exit codes: 2 for what the user can fix (bad input, not root, missing
 * kernel feature), 1 for a failure while doing the work, 4 for a valid
 * chain file this host cannot run (validate says so before up refuses). */
#define CALVIN_EXIT_USAGE 2
#define CALVIN_EXIT_FAIL 1
#define CALVIN_EXIT_HOST 4

/* Where calvin keeps per-chain state (tmpfs: gone at reboot, like the
 * namespaces it describes): /run/calvin, or CALVIN_RUN_DIR (README.md,
 * Environment). */
const char *calvin_run_dir(void);
/* Directory of calvin-vnf (and of kernel/handover.bpf.o, which calvin-vnf
 * finds beside itself): the calvin binary's own directory (the build
 * tree), or ../lib/calvin from it (installed). */
const char *calvin_lib_dir(void);

/* SIGINT or SIGTERM once catch_quit_signals() ran: the signal's number,
 * 0 until one came. Work in progress stops at its next step, undoes what
 * it made, and calvin exits with quit_status(). */
extern volatile sig_atomic_t calvin_quit;
void catch_quit_signals(void);
/* 128 + the signal, as a shell reports a process killed by it. */
int quit_status(void);
/* Writes to a pipe whose reader left fail with EPIPE instead of killing
 * calvin; output_done() flushes stdout and says nothing of that case. */
void catch_sigpipe(void);
/* rc, or CALVIN_EXIT_FAIL when stdout could not be written for another
 * reason (one line). */
int output_done(int rc);

/* One line on stderr, prefixed "calvin: " (and under -j, the first
 * one is the document's "error": jout.h). Lines are cut at
 * CALVIN_ERR_LINE_MAX bytes. */
#define CALVIN_ERR_LINE_MAX 2048
void calvin_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for a line made already, shown as it is: the spec parser's
 * and the key checks' "FILE:LINE:COL: ..." lines. */
void calvin_err_line(const char *line);
/* Same, only when -v was given. */
void calvin_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern bool calvin_verbose;

/* Run argv (a NULL-terminated list) and wait. argv[0] is a program of
 * the system's (tool_path(): never found through PATH) or an absolute
 * path. Its stdout goes nowhere and its stderr to calvin's stderr; under
 * -v both go to calvin's stderr. Never to calvin's stdout, which is the
 * report's. Returns the exit status, or -errno. When quiet_fail is
 * false, a non-zero status is reported in one line; when true, its
 * stderr is dropped too (unless -v). */
int run_cmd(const char *const argv[], bool quiet_fail);
struct run_opts {
	bool quiet_fail;
	const char *netns; /* run it in this network namespace (/run/netns/NAME) */
	int in_fd;	   /* its stdin; 0: /dev/null */
	int dir_fd;	   /* the folder it runs in; 0: calvin's */
};
int run_cmd_opts(const struct run_opts *o, const char *const argv[]);

/* The programs calvin runs (tools.c): the absolute path of name in
 * /usr/sbin, /usr/bin, /sbin or /bin, looked up once; NULL when it is in
 * none of them. */
const char *tool_path(const char *name);
/* Its Debian package ("rt-tests" for cyclictest). */
const char *tool_package(const char *name);
/* "cyclictest is not installed: ... (Debian package rt-tests; ...)". */
void tool_missing(const char *name, char *buf, size_t len);
/* tool_path(), or NULL after that line on stderr. */
const char *tool_need(const char *name);

/* Network namespaces by name (/run/netns/NAME). */
bool netns_exists(const char *name);
/* Enter the namespace in the calling thread; *saved gets an fd of the
 * current one for netns_leave(). */
int netns_enter(const char *name, int *saved);
int netns_leave(int saved);
/* In a child of its own: a private mount namespace, the node's network
 * namespace, and a sysfs of it on /sys (a node's interfaces show only in a
 * sysfs mounted from inside it). 0 or -errno. */
int netns_sysfs_enter(const char *name);
/* Interface facts inside the current namespace. */
int if_index(const char *ifname);
int if_mac(const char *ifname, uint8_t mac[6]);
void mac_str(const uint8_t mac[6], char out[18]);

/* Process identity that survives PID reuse: start time in clock ticks
 * since boot (field 22 of /proc/PID/stat); 0 if the process is gone. */
unsigned long long proc_start_time(pid_t pid);
/* Is pid running (not a zombie) with start time st? */
bool proc_is(pid_t pid, unsigned long long st);
/* SIGTERM, wait up to timeout_ms, then SIGKILL; only if pid still has
 * start time st. Returns true if it was running. */
bool proc_stop(pid_t pid, unsigned long long st, int timeout_ms);

/* In a child of calvin that a journal will own (a VNF, a relay): a
 * session of its own, stdin /dev/null, stdout and stderr to the log file
 * (truncated, 0600; left as they are if it cannot be opened). */
void child_detach(const char *log);

int mkdir_p(const char *path, mode_t mode);
/* rm -rf that does not follow symlinks and treats "missing" as done. */
int rm_rf(const char *path);
bool path_exists(const char *path);
int ensure_bpffs(void);

#endif /* CALVIN_UTIL_H */
