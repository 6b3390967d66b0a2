// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The supervisor's loop: poll the VNFs' pidfds; a VNF that exits is
 * restarted (with the other end of its pair), with backoff, until it
 * has been started as often as the chain's supervise: section allows
 * within its window; a stopped VNF
 * (SIGSTOP) is stalled, never killed. Every change is an event. */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "events/events.h"
#include "libvirt/vmwatch.h"
#include "sup.h"
#include "util.h"

#define PARTNER_STOP_MS 1000

static void sup_event(const struct sup *s, const char *kind, unsigned int k, const char *key,
		      const char *val)
{
	struct json_object *f = json_object_new_object();

	if (f) {
		json_object_object_add(f, "vnf", json_object_new_string(sup_name(s, k)));
		json_object_object_add(f, "pid", json_object_new_int(s->v[k].pid));
		json_object_object_add(f, "restarts", json_object_new_int((int)s->v[k].restarts));
		if (key)
			json_object_object_add(f, key, json_object_new_string(val));
	}
	events_append(s->spec.name, kind, f);
	json_object_put(f);
}

static unsigned long long oom_kills(void)
{
	unsigned long long n = 0;
	char line[128];
	FILE *f = fopen("/proc/vmstat", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "oom_kill %llu", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

/* Why VNF k's process ended: its wait status if it was our child, else
 * what the process events connector said (a VNF `up` started is not our
 * child); an OOM kill if it died of SIGKILL and the host's count of OOM
 * kills moved. */
static void exit_cause(struct sup *s, struct sup_vnf *v)
{
	unsigned long long ooms = oom_kills();
	siginfo_t si = { 0 };

	int status = -1;

	sup_exits_drain(s);
	if (v->child && !waitid(P_PIDFD, (id_t)v->pidfd, &si, WEXITED))
		status = si.si_code == CLD_EXITED ? W_EXITCODE(si.si_status, 0) : si.si_status;
	else if (v->exit_known)
		status = v->exit_code;
	v->exit_known = false;
	if (status < 0)
		snprintf(v->last_exit, sizeof(v->last_exit), "unknown");
	else if (WIFEXITED(status))
		snprintf(v->last_exit, sizeof(v->last_exit), "exit %d", WEXITSTATUS(status));
	else
		snprintf(v->last_exit, sizeof(v->last_exit), "signal %d", WTERMSIG(status));
	if (ooms > s->oom_kills && status >= 0 && WIFSIGNALED(status) &&
	    WTERMSIG(status) == SIGKILL)
		snprintf(v->last_exit, sizeof(v->last_exit), "oom-kill");
	s->oom_kills = ooms;
}

static void gone(struct sup_vnf *v)
{
	if (v->pidfd >= 0)
		close(v->pidfd);
	v->pidfd = -1;
	v->state = SUP_RESTARTING;
	v->down_ms = sup_now_ms();
}

/* The surviving end of a pair goes too: both restart together, under a
 * new epoch (a crypt pair) or with fresh generations (an nc pair). */
static void stop_partner(struct sup *s, unsigned int k)
{
	struct sup_vnf *p = &s->v[k];
	struct pollfd pfd = { .fd = p->pidfd, .events = POLLIN };

	/* a VM keeps running: its agent stops the VNF when the pair starts */
	if (p->vm && (p->state == SUP_RUNNING || p->state == SUP_STALLED)) {
		snprintf(p->last_exit, sizeof(p->last_exit), "restarted with its pair");
	} else if (p->pidfd >= 0) {
		syscall(SYS_pidfd_send_signal, p->pidfd, SIGKILL, NULL, 0);
		poll(&pfd, 1, PARTNER_STOP_MS);
		if (p->child)
			waitid(P_PIDFD, (id_t)p->pidfd, &(siginfo_t){ 0 }, WEXITED | WNOHANG);
		snprintf(p->last_exit, sizeof(p->last_exit), "stopped with its pair");
	} else {
		return;
	}
	gone(p);
	p->due_ms = s->v[p->partner].due_ms;
	sup_event(s, "vnf-exited", k, "cause", p->last_exit);
}

/* The other VNFs of k's process (a loop) went with it. */
static void loop_gone(struct sup *s, unsigned int k)
{
	struct sup_vnf *v = &s->v[k], *m;
	char cause[sizeof(v->last_exit)];
	unsigned int j;

	snprintf(cause, sizeof(cause), "%s", v->last_exit);
	for (j = 0; j < s->nr; j++) {
		m = &s->v[j];
		if (j == k || !sup_same_process(s, k, j) || m->pidfd < 0)
			continue;
		snprintf(m->last_exit, sizeof(m->last_exit), "its loop: %.20s", cause);
		gone(m);
		m->due_ms = v->due_ms;
		sup_event(s, "vnf-exited", j, "cause", m->last_exit);
	}
}

/* A VNF's process, or its VM (why: what libvirt says), is gone. */
static void on_exit_of(struct sup *s, unsigned int k, const char *why)
{
	struct sup_vnf *v = &s->v[k];

	if (why)
		snprintf(v->last_exit, sizeof(v->last_exit), "%s", why);
	else
		exit_cause(s, v);
	gone(v);
	v->due_ms = v->down_ms + sup_backoff_ms(s, v, v->down_ms);
	sup_event(s, "vnf-exited", k, "cause", v->last_exit);
	loop_gone(s, k);
	if (v->partner >= 0 && s->v[v->partner].state != SUP_FAILED)
		stop_partner(s, (unsigned int)v->partner);
}

static void give_up(struct sup *s, unsigned int k)
{
	char why[64];

	sup_rule_text(s, why, sizeof(why));
	s->v[k].state = SUP_FAILED;
	sup_event(s, "vnf-failed", k, "reason", why);
}

/* A port of the VNF's node is gone (its veth deleted): no restart brings
 * it back, only a new deployment. */
static void chain_failed(struct sup *s, unsigned int k)
{
	char why[160];

	snprintf(why, sizeof(why),
		 "a link of node %s is gone; run 'calvin down %s' and 'calvin up' to rebuild it",
		 sup_node(s, k), s->spec.name);
	sup_chain_failed(s, why);
}

/* What starts with k: the other end of its pair and the VNFs of its
 * process (a loop), and theirs, in chain order (as up starts them: the
 * first of a loop starts its process). Returns how many, k among them. */
static unsigned int start_set(const struct sup *s, unsigned int k, unsigned int *ks)
{
	bool in[CALVIN_MAX_VNFS + 1] = { false };
	bool grew = true;
	unsigned int i, j, n = 0;
	int p;

	in[k] = true;
	while (grew) {
		grew = false;
		for (i = 0; i < s->nr; i++) {
			if (!in[i])
				continue;
			p = s->v[i].partner;
			if (p >= 0 && !in[p])
				in[p] = grew = true;
			for (j = 0; j < s->nr; j++)
				if (!in[j] && sup_same_process(s, i, j))
					in[j] = grew = true;
		}
	}
	for (i = 0; i < s->nr; i++)
		if (in[i])
			ks[n++] = i;
	return n;
}

static bool crypt_kind(const struct sup *s, unsigned int k)
{
	return s->v[k].idx != SUP_SERVER && (s->spec.vnfs[s->v[k].idx].kind == CALVIN_VNF_ENCRYPT ||
					     s->spec.vnfs[s->v[k].idx].kind == CALVIN_VNF_DECRYPT);
}

/* Start k (and its pair's other end, and the VNFs of its process), or
 * schedule the next try. */
static void heal(struct sup *s, unsigned int k)
{
	unsigned int ks[CALVIN_MAX_VNFS + 1], n, i;
	uint64_t now = sup_now_ms();
	struct sup_vnf *v;
	uint32_t epoch = 0;
	bool crypt = false;
	char e[16];
	int err = 0;

	n = start_set(s, k, ks);
	for (i = 0; i < n; i++)
		if (sup_worn_out(s, &s->v[ks[i]], now)) {
			for (i = 0; i < n; i++)
				give_up(s, ks[i]);
			return;
		}
	for (i = 0; i < n; i++)
		crypt |= crypt_kind(s, ks[i]);
	if (crypt)
		err = sup_epoch_next(s, &epoch);
	for (i = 0; !err && i < n; i++) {
		v = &s->v[ks[i]];
		sup_tried(s, v, now);
		err = sup_vnf_start(s, ks[i], epoch);
	}
	for (i = 0; i < n; i++) {
		v = &s->v[ks[i]];
		if (err) {
			/* the one that started goes again: a pair starts whole */
			if (v->pidfd >= 0 && !calvin_quit)
				stop_partner(s, ks[i]);
			v->due_ms = sup_now_ms() + sup_backoff_ms(s, v, sup_now_ms());
			continue;
		}
		v->state = SUP_RUNNING;
		v->restarts++;
		v->up_ms = sup_now_ms();
		snprintf(e, sizeof(e), "%u", epoch);
		sup_event(s, "vnf-restarted", ks[i], epoch ? "epoch" : NULL, e);
	}
	if (err == -ENODEV)
		chain_failed(s, k);
	else if (err && !calvin_quit)
		sup_event(s, "vnf-start-failed", k, "error", strerror(-err));
}

static char proc_state(pid_t pid)
{
	char p[64], st = '?';
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
	f = fopen(p, "re");
	if (f) {
		if (fscanf(f, "%*d (%*[^)]) %c", &st) != 1)
			st = '?';
		fclose(f);
	}
	return st;
}

/* Why VNF k is stalled now: stopped (SIGSTOP, a debugger); or frames
 * came in on its ports within the last tick and none went out (frozen,
 * spinning, its socket deaf), which stays so until something goes out. */
static int stall_of(struct sup *s, unsigned int k)
{
	struct sup_vnf *v = &s->v[k];
	uint64_t in, out, din, dout;
	bool known, base;

	known = sup_links_counts(s, k, &in, &out);
	base = v->counted;
	din = in - v->in;
	dout = out - v->out;
	v->in = in;
	v->out = out;
	v->counted = known;
	if (strchr("Tt", proc_state(v->pid)))
		return STALL_STOPPED;
	if (!known || !base || dout)
		return STALL_NONE;
	return din >= SUP_STALL_MIN || v->stall == STALL_COUNTERS ? STALL_COUNTERS : STALL_NONE;
}

/* Stalled: reported, never killed (a debugger, an operator's pause). */
static void check_stalled(struct sup *s)
{
	struct sup_vnf *v;
	unsigned int k;
	int stall;

	for (k = 0; k < s->nr; k++) {
		v = &s->v[k];
		if (v->state != SUP_RUNNING && v->state != SUP_STALLED) {
			v->counted = false; /* its counters start again when it runs */
			continue;
		}
		if (v->vm) /* a VM's stall is libvirt's to say (vm_look) */
			continue;
		stall = stall_of(s, k);
		if (stall && v->state == SUP_RUNNING) {
			v->state = SUP_STALLED;
			sup_event(s, "stalled", k, "cause",
				  stall == STALL_STOPPED ? "stopped"
							 : "counters: frames in, none out");
		} else if (!stall && v->state == SUP_STALLED) {
			v->state = SUP_RUNNING;
			sup_event(s, "vnf-resumed", k, NULL, NULL);
		}
		v->stall = stall;
	}
}

/* A VM as libvirt has it now: stopped (destroyed, crashed, shut down,
 * undefined: restarted), paused (stalled, never killed) or running. An
 * event only says where to look, so one that arrives after the VM was
 * started again changes nothing. libvirt not answering: nothing known. */
static void vm_look(struct sup *s, unsigned int k)
{
	struct sup_vnf *v = &s->v[k];
	char why[32];
	int st;

	if (v->state != SUP_RUNNING && v->state != SUP_STALLED)
		return;
	st = sup_vm_state(s, k, why, sizeof(why));
	if (st == LV_VM_STOPPED || st == -ENOENT) {
		on_exit_of(s, k, why);
	} else if (st == LV_VM_PAUSED && v->state == SUP_RUNNING) {
		v->state = SUP_STALLED;
		sup_event(s, "stalled", k, "cause", why);
	} else if (st == LV_VM_RUNNING && v->state == SUP_STALLED) {
		v->state = SUP_RUNNING;
		sup_event(s, "vnf-resumed", k, NULL, NULL);
	}
}

static void vms_look(struct sup *s)
{
	unsigned int k;

	for (k = 0; s->vms && k < s->nr && !calvin_quit; k++)
		vm_look(s, k);
}

/* How long poll may sleep: until the next tick or the next restart. */
static int next_wait(const struct sup *s, uint64_t tick)
{
	uint64_t now = sup_now_ms(), due = tick;
	unsigned int k;

	for (k = 0; k < s->nr; k++)
		if (s->v[k].state == SUP_RESTARTING && s->v[k].due_ms < due)
			due = s->v[k].due_ms;
	if (s->mon.state == SUP_RESTARTING && s->mon.due_ms < due)
		due = s->mon.due_ms;
	if (s->nr_nets && s->link_poll_ms < due)
		due = s->link_poll_ms;
	return due > now ? (int)(due - now) : 0;
}

/* Who a descriptor in the poll set is: VNF k (below WHO_NET),
 * the monitor, libvirt's events (a libvirt chain), or namespace WHO_NET +
 * i's link socket. */
#define WHO_MONITOR UINT_MAX
#define WHO_VM (UINT_MAX - 1)
#define WHO_NET (CALVIN_MAX_VNFS + 1)

static void on_ready(struct sup *s, const struct pollfd *p, unsigned int who)
{
	int vk;

	if (!p->revents)
		return;
	if (who == WHO_MONITOR && s->mon.pidfd == p->fd)
		sup_monitor_exited(s);
	else if (who == WHO_VM)
		while (!calvin_quit && (vk = sup_vm_event(s)) >= 0)
			vm_look(s, (unsigned int)vk);
	else if (who >= WHO_NET)
		sup_links_read(s, who - WHO_NET);
	else if (s->v[who].pidfd == p->fd)
		on_exit_of(s, who, NULL);
}

int sup_watch(struct sup *s)
{
	struct pollfd pfd[CALVIN_MAX_VNFS + 3 + CALVIN_MAX_NODES];
	unsigned int who[CALVIN_MAX_VNFS + 3 + CALVIN_MAX_NODES], n, k, i;
	uint64_t tick = 0;
	int err;

	s->oom_kills = oom_kills();
	while (!calvin_quit) {
		sup_exits_drain(s);
		if (sup_now_ms() >= tick) {
			check_stalled(s);
			vms_look(s);
			sup_report_write(s);
			tick = sup_now_ms() + SUP_TICK_MS;
		}
		for (n = 0, k = 0; k < s->nr; k++)
			if (s->v[k].pidfd >= 0) {
				pfd[n] = (struct pollfd){ .fd = s->v[k].pidfd, .events = POLLIN };
				who[n++] = k;
			}
		if (s->mon.pidfd >= 0) {
			pfd[n] = (struct pollfd){ .fd = s->mon.pidfd, .events = POLLIN };
			who[n++] = WHO_MONITOR;
		}
		for (k = 0; k < s->nr_nets; k++) {
			pfd[n] = (struct pollfd){ .fd = s->net[k].fd, .events = POLLIN };
			who[n++] = WHO_NET + k;
		}
		if (sup_vm_fd(s) >= 0) {
			pfd[n] = (struct pollfd){ .fd = sup_vm_fd(s), .events = POLLIN };
			who[n++] = WHO_VM;
		}
		if (poll(pfd, n, next_wait(s, tick)) < 0 && errno != EINTR)
			break;
		for (i = 0; i < n && !calvin_quit; i++)
			on_ready(s, &pfd[i], who[i]);
		if (!calvin_quit)
			sup_links_tick(s);
		for (k = 0; k < s->nr && !calvin_quit; k++)
			if (s->v[k].state == SUP_RESTARTING && s->v[k].due_ms <= sup_now_ms()) {
				/* a VM takes seconds: status says restarting meanwhile */
				if (s->v[k].vm)
					sup_report_write(s);
				heal(s, k);
				sup_report_write(s);
			}
		sup_monitor_tend(s);
	}
	err = calvin_quit ? 0 : -errno;
	sup_monitor_stop(s);
	return err;
}
