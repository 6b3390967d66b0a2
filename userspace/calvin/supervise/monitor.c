// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The chain's monitor as the supervisor's child: started when the chain
 * wants one (a monitor section, or `up --monitor`), restarted like a VNF
 * (the same backoff and give-up rule), stopped with SIGTERM when the
 * supervisor stops. Its output goes to CHAIN.d/monitor.log. */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/close_range.h>

#include "events/events.h"
#include "monitor/monitor.h"
#include "sup.h"
#include "util.h"

#define MONITOR_LOG "monitor.log"
/* within the 2 s `down` gives the supervisor before its SIGKILL */
#define MONITOR_STOP_MS 1500

static void event(const struct sup *s, const char *kind, const char *key, const char *val)
{
	struct json_object *f = json_object_new_object();

	if (f) {
		json_object_object_add(f, "pid", json_object_new_int(s->mon.pid));
		json_object_object_add(f, "restarts", json_object_new_int((int)s->mon.restarts));
		if (key)
			json_object_object_add(f, key, json_object_new_string(val));
	}
	events_append(s->spec.name, kind, f);
	json_object_put(f);
}

/* In the child: `calvin monitor CHAIN`, stdin /dev/null, its output in
 * the log; it goes when the supervisor goes, however that ends. */
static void monitor_child(const char *chain, const char *log)
{
	char exe[PATH_MAX];
	ssize_t n;
	int fd;

	prctl(PR_SET_PDEATHSIG, SIGTERM);
	sigprocmask(SIG_SETMASK, &(sigset_t){ 0 }, NULL);
	fd = open("/dev/null", O_RDONLY);
	dup2(fd, STDIN_FILENO);
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
	}
	close_range(3, ~0U, 0);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		_exit(127);
	exe[n] = '\0';
	execl(exe, "calvin", "monitor", chain, (char *)NULL);
	fprintf(stderr, "calvin: cannot run %s: %s\n", exe, strerror(errno));
	_exit(127);
}

static int monitor_spawn(struct sup *s)
{
	struct sup_vnf *m = &s->mon;
	char log[PATH_MAX];
	pid_t pid;
	int err;

	err = state_file(log, sizeof(log), s->spec.name, ".d/" MONITOR_LOG);
	if (err)
		return err;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		monitor_child(s->spec.name, log);
	m->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (m->pidfd < 0) {
		err = -errno;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return err;
	}
	m->pid = pid;
	m->child = true;
	return 0;
}

/* Start (or restart) the monitor when it is due; give up as with a VNF. */
void sup_monitor_tend(struct sup *s)
{
	struct sup_vnf *m = &s->mon;
	uint64_t now = sup_now_ms();
	char why[64];
	int err;

	if (m->pidfd >= 0 || m->state == SUP_FAILED || calvin_quit)
		return;
	if (m->state != SUP_RESTARTING) { /* never started: is one wanted now? */
		if (!monitor_wanted(&s->spec))
			return;
		m->state = SUP_RESTARTING;
		m->due_ms = now;
		m->restarts = 0;
	}
	if (m->due_ms > now)
		return;
	if (sup_worn_out(s, m, now)) {
		sup_rule_text(s, why, sizeof(why));
		m->state = SUP_FAILED;
		event(s, "monitor-failed", "reason", why);
		return;
	}
	sup_tried(s, m, now);
	err = monitor_spawn(s);
	if (err) {
		m->due_ms = sup_now_ms() + sup_backoff_ms(s, m, sup_now_ms());
		event(s, "monitor-start-failed", "error", strerror(-err));
		return;
	}
	m->state = SUP_RUNNING;
	m->up_ms = sup_now_ms();
	if (m->nr_tries > 1) {
		m->restarts++;
		event(s, "monitor-restarted", NULL, NULL);
	}
	sup_report_write(s);
}

/* The monitor's pidfd became readable: it exited. */
void sup_monitor_exited(struct sup *s)
{
	struct sup_vnf *m = &s->mon;
	siginfo_t si = { 0 };

	if (!waitid(P_PIDFD, (id_t)m->pidfd, &si, WEXITED))
		snprintf(m->last_exit, sizeof(m->last_exit), "%s %d",
			 si.si_code == CLD_EXITED ? "exit" : "signal", si.si_status);
	else
		snprintf(m->last_exit, sizeof(m->last_exit), "unknown");
	close(m->pidfd);
	m->pidfd = -1;
	m->state = SUP_RESTARTING;
	m->down_ms = sup_now_ms();
	m->due_ms = m->down_ms + sup_backoff_ms(s, m, m->down_ms);
	event(s, "monitor-exited", "cause", m->last_exit);
	sup_report_write(s);
}

void sup_monitor_stop(struct sup *s)
{
	struct sup_vnf *m = &s->mon;
	struct pollfd pfd = { .fd = m->pidfd, .events = POLLIN };

	if (m->pidfd < 0)
		return;
	syscall(SYS_pidfd_send_signal, m->pidfd, SIGTERM, NULL, 0);
	while (poll(&pfd, 1, MONITOR_STOP_MS) < 0 && errno == EINTR)
		;
	if (!pfd.revents)
		syscall(SYS_pidfd_send_signal, m->pidfd, SIGKILL, NULL, 0);
	waitid(P_PIDFD, (id_t)m->pidfd, &(siginfo_t){ 0 }, WEXITED);
	close(m->pidfd);
	m->pidfd = -1;
}
