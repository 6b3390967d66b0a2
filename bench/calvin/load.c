// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Processes `calvin bench` starts on the host: interference (stress-ng)
 * and cyclictest. Each runs as a process group of its own, journalled
 * before it may run, so nothing it forks outlives the bench: stopped at
 * the end of its round, on Ctrl-C, killed with calvin (the leader's
 * parent-death signal; its workers are the journal's to find), and
 * stopped by the next calvin after a SIGKILL. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "util.h"

/* In the child: a group of its own, death with calvin, wait for the go
 * (the parent journals us first; EOF: it died before it could), exec. */
static void child(int go, pid_t parent, const char *path, char *const argv[],
		  const struct calvin_cpumask *cpus, int out_fd)
{
	cpu_set_t set;
	char c;
	int i;

	setsid();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent || read(go, &c, 1) != 1)
		_exit(1);
	if (cpus) {
		CPU_ZERO(&set);
		for (i = 0; i < CALVIN_MAX_CPUS && i < CPU_SETSIZE; i++)
			if (calvin_cpumask_isset(cpus, i))
				CPU_SET(i, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	bench_child_stdio(out_fd);
	execv(path, argv);
	fprintf(stderr, "calvin: cannot run %s: %s\n", path, strerror(errno));
	_exit(127);
}

int bench_spawn(struct bench_journal *j, char *const argv[], const struct calvin_cpumask *cpus,
		int out_fd, int (*before_go)(pid_t pid, void *arg), void *arg, struct bench_proc *p)
{
	const char *path = argv[0][0] == '/' ? argv[0] : tool_need(argv[0]);
	pid_t parent = getpid();
	int go[2], err;

	memset(p, 0, sizeof(*p));
	if (!path)
		return -ENOENT;
	snprintf(p->comm, sizeof(p->comm), "%s",
		 strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0]);
	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	p->pid = fork();
	if (p->pid < 0) {
		err = -errno;
		p->pid = 0;
		goto close_go;
	}
	if (p->pid == 0) {
		close(go[1]);
		child(go[0], parent, path, argv, cpus, out_fd);
	}
	p->start = proc_start_time(p->pid);
	err = bench_journal_proc(j, p->pid, p->start, p->comm);
	if (!err && before_go)
		err = before_go(p->pid, arg);
	if (!err && write(go[1], "g", 1) != 1)
		err = -errno;
	if (err) {
		calvin_err("cannot start %s: %s", argv[0], strerror(-err));
		kill(p->pid, SIGKILL);
		waitpid(p->pid, NULL, 0);
		bench_journal_proc_end(j, p->pid);
		p->pid = 0;
	}
close_go:
	close(go[0]);
	close(go[1]);
	return err;
}

static int exit_status(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int bench_wait(struct bench_proc *p, int timeout_ms, int *status)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int waited, st;
	pid_t r;

	for (waited = 0; waited <= timeout_ms; waited += 10) {
		r = waitpid(p->pid, &st, WNOHANG);
		if (r == p->pid) {
			if (status)
				*status = exit_status(st);
			p->pid = -p->pid; /* exited: only its group is left to stop */
			return 0;
		}
		if (calvin_quit)
			return -EINTR;
		nanosleep(&ts, NULL);
	}
	return -ETIMEDOUT;
}

void bench_reap(struct bench_journal *j, struct bench_proc *p, int *status)
{
	pid_t pgid = p->pid < 0 ? -p->pid : p->pid;
	int st;

	if (!pgid)
		return;
	if (status && p->pid > 0)
		*status = -1;
	/* the leader's exit status, if it is still ours to collect */
	if (p->pid > 0 && waitpid(p->pid, &st, WNOHANG) == p->pid && status)
		*status = exit_status(st);
	bench_group_stop(pgid, p->start, p->comm);
	if (p->pid > 0)
		waitpid(p->pid, NULL, WNOHANG);
	bench_journal_proc_end(j, pgid);
	p->pid = 0;
}

int bench_stress_start(struct bench_journal *j, const struct calvin_cpumask *cpus,
		       unsigned int seconds, struct bench_proc *p)
{
	char n[16], list[256], timeout[32];
	char *argv[] = { "stress-ng",  "--cpu",	    n,	       "--vm",	  n,
			 "--vm-bytes", "64M",	    "--cache", n,	  "--taskset",
			 list,	       "--timeout", timeout,   "--quiet", NULL };
	unsigned int nr = calvin_cpumask_count(cpus);

	snprintf(n, sizeof(n), "%u", nr ? nr : 1);
	snprintf(timeout, sizeof(timeout), "%us", seconds);
	calvin_cpumask_list(cpus, list, sizeof(list));
	return bench_spawn(j, argv, cpus, -1, NULL, NULL, p);
}
