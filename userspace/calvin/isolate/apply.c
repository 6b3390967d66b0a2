// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Isolation at `up` and `down`: the order of the steps, and what is shared.
 *
 * Host-wide settings (cpusets, tasks, IRQs, workqueues) serve every
 * isolated chain at once. A chain joins the host record before anything
 * changes, the host converges to what all joined chains need, and only the
 * last chain to leave restores what the record says the host held before.
 * Per-chain settings (packet steering of its interfaces, its threads'
 * policy) go to the chain's own journal. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "isolate_priv.h"
#include "util.h"
#include "util/util.h"

#define MAX_CHAINS 64

static void ctx_init(struct isolate_ctx *x, const struct isolate_host *h)
{
	char path[PATH_MAX];

	memset(x, 0, sizeof(*x));
	x->h = h;
	pathf(path, sizeof(path), "%s/devices/system/cpu/online", h->sys);
	read_cpulist(path, &x->online);
	pathf(path, sizeof(path), "%s/devices/system/cpu/isolated", h->sys);
	read_cpulist(path, &x->boot_isolated);
}

/* The mechanism: the record's, or the best this host has. */
static void ctx_mode(struct isolate_ctx *x)
{
	x->mode = calvin_hostrec_mode(&x->rec.r, &x->root);
	if (x->mode != CALVIN_ISOLATE_NONE)
		return;
	if (x->h->v2_cpuset) {
		x->mode = CALVIN_ISOLATE_V2;
		x->root = x->h->v2;
	} else if (x->h->v1[0]) {
		x->mode = CALVIN_ISOLATE_V1;
		x->root = x->h->v1;
	}
}

/* What the record's chains (and extra, if not NULL) need isolated. */
static int ctx_targets(struct isolate_ctx *x, const char *const *names, unsigned int nr,
		       const struct calvin_cpumask *extra)
{
	static struct calvin_cpumask cpus[MAX_CHAINS + 1];
	const struct calvin_cpumask *sets[MAX_CHAINS + 1];
	unsigned int i, n = 0;

	for (i = 0; i < nr && n < MAX_CHAINS; i++)
		if (calvin_hostrec_has_chain(&x->rec.r, names[i], &cpus[n]))
			sets[n] = &cpus[n], n++;
	if (extra)
		sets[n++] = extra;
	if (calvin_isolate_targets(sets, n, &x->online, &x->isolate, &x->housekeeping))
		return -ENOSPC;
	/* interrupts also keep off CPUs the kernel was booted to isolate */
	calvin_cpumask_andnot(&x->irq_cpus, &x->housekeeping, &x->boot_isolated);
	if (calvin_cpumask_empty(&x->irq_cpus))
		x->irq_cpus = x->housekeeping;
	return 0;
}

/* One restore step of the record, newest first. */
static int restore_entry(struct isolate_ctx *x, const struct calvin_hostrec_entry *e)
{
	char now[CALVIN_HOSTREC_VALUE_MAX];
	int err;

	switch (e->kind) {
	case HR_FILE:
		/* the oldest line of a path holds what it had before calvin */
		if (calvin_hostrec_original(&x->rec.r, e->path) != e->value)
			return 0;
		err = read_text(e->path, now, sizeof(now));
		if (err == -ENOENT || (!err && !strcmp(now, e->value)))
			return 0; /* gone (an unplugged device's IRQ), or never changed */
		err = write_text(e->path, e->value);
		return err == -ENOENT ? 0 : err;
	case HR_MOVED:
		return cg_sweep(x, e->value, e->path, false);
	case HR_MKDIR:
		/* a cgroup found where calvin was about to make it is not its */
		return calvin_hostrec_made(&x->rec.r, e->path) ? cg_remove(x, e->path) : 0;
	case HR_CTRL:
		return cg_ctrl_restore(x, e->path, e->value);
	default:
		return 0;
	}
}

/* Undo every change the record names, newest first; the record goes only
 * when all are undone, so a failed restore can be tried again. */
static int restore_all(struct isolate_ctx *x)
{
	unsigned int i, failed = 0;
	const char *first = NULL;
	int err, first_err = 0;

	ctx_mode(x);
	for (i = x->rec.r.nr; i-- > 0;) {
		err = restore_entry(x, &x->rec.r.e[i]);
		if (!err)
			continue;
		if (!failed++) {
			first = x->rec.r.e[i].path;
			first_err = err;
		}
	}
	if (failed)
		calvin_err("cannot restore %u host setting%s of CPU isolation (first: %s: %s); "
			   "run 'calvin down' again",
			   failed, failed > 1 ? "s" : "", first, strerror(-first_err));
	return failed ? -EIO : 0;
}

static void print_summary(const struct isolate_ctx *x, unsigned int others, unsigned int steered)
{
	char iso[CALVIN_CPUS_TEXT_MAX], hk[CALVIN_CPUS_TEXT_MAX], irq[CALVIN_CPUS_TEXT_MAX];
	char other[CALVIN_ESCAPED_LEN(sizeof(x->foreign.first))];
	const char *how =
	    x->mode == CALVIN_ISOLATE_V2 ? "cgroup v2 isolated partition" : "cgroup v1 cpusets";
	unsigned int n = calvin_cpumask_count(&x->isolate);

	if (calvin_json)
		return;
	calvin_cpumask_list(&x->isolate, iso, sizeof(iso));
	calvin_cpumask_list(&x->housekeeping, hk, sizeof(hk));
	calvin_cpumask_list(&x->irq_cpus, irq, sizeof(irq));
	if (x->mode == CALVIN_ISOLATE_NONE)
		printf("isolation: cannot isolate CPU%s %s at run time: no cpuset controller in "
		       "cgroup v2 or v1 (boot with isolcpus=%s nohz_full=%s instead)",
		       n > 1 ? "s" : "", iso, iso, iso);
	else
		printf("isolation: CPU%s %s isolated at run time (%s%s%s)", n > 1 ? "s" : "", iso,
		       how, x->mode == CALVIN_ISOLATE_V1 && !x->exclusive ? ", not exclusive" : "",
		       others ? ", shared with other chains" : "");
	if (x->mode == CALVIN_ISOLATE_V1)
		printf(
		    "; %u tasks moved to housekeeping CPU%s %s, %u kernel threads could not move",
		    x->tasks_moved, calvin_cpumask_count(&x->housekeeping) > 1 ? "s" : "", hk,
		    x->kthreads_stuck);
	if (x->tasks_stuck)
		printf(", nor %u other tasks", x->tasks_stuck);
	if (x->foreign.first[0])
		printf("; another tool's cpuset %s spans CPU%s %s too (%u tasks%s)",
		       calvin_text_escape_str(x->foreign.first, other, sizeof(other)),
		       n > 1 ? "s" : "", iso, x->foreign.tasks,
		       x->foreign.balances ? ", load-balanced" : "");
	printf("; %u of %u IRQs on CPU%s %s", x->irqs_moved, x->irqs,
	       calvin_cpumask_count(&x->irq_cpus) > 1 ? "s" : "", irq);
	if (x->irqs_moved < x->irqs)
		printf(" (%u would not move)", x->irqs - x->irqs_moved);
	printf(", new IRQs %s, unbound workqueues %s", x->default_irq ? "too" : "not (refused)",
	       x->workqueue ? "too" : "not (refused)");
	if (steered)
		printf("; packet steering of %u queues moved", steered);
	printf("%s%s\n", x->note[0] ? "; " : "", x->note);
}

static int open_record(struct isolate_ctx *x)
{
	int err = hostrec_open(x->h, &x->rec);

	if (err)
		calvin_err("cannot open the host record of CPU isolation in %s: %s%s",
			   x->h->run_dir, strerror(-err),
			   err == -EBUSY ? " (another calvin holds it); try again" : "");
	return err;
}

/* Join the host record and make the host isolate what every joined chain
 * needs. A record that no deployed chain holds (its chains' journals were
 * removed by hand) is restored first. */
static int host_join(struct isolate_ctx *x, const struct isolate_request *req, unsigned int *others)
{
	struct calvin_hostrec_entry e[2] = { { .kind = HR_MODE }, { .kind = HR_CHAIN } };
	const char *names[MAX_CHAINS];
	unsigned int n = 0;
	int err;

	err = open_record(x);
	if (err)
		return err;
	*others = hostrec_live_chains(x->h, &x->rec, req->chain, names, MAX_CHAINS);
	if (!*others && x->rec.r.nr) {
		err = restore_all(x);
		hostrec_close(&x->rec, !err);
		if (!err)
			err = open_record(x);
		if (err)
			return err;
	}
	ctx_mode(x);
	if (!calvin_hostrec_mode(&x->rec.r, NULL) && x->mode != CALVIN_ISOLATE_NONE) {
		snprintf(e[0].path, sizeof(e[0].path), "%s",
			 x->mode == CALVIN_ISOLATE_V2 ? "v2" : "v1");
		snprintf(e[0].value, sizeof(e[0].value), "%s", x->root);
		n++;
	}
	snprintf(e[1].path, sizeof(e[1].path), "%s", req->chain);
	calvin_cpumask_list(&req->isolate, e[1].value, sizeof(e[1].value));
	e[n] = e[1];
	err = hostrec_append(&x->rec, e, n + 1);
	if (!err)
		err = ctx_targets(x, names, *others, &req->isolate);
	if (err == -ENOSPC) {
		calvin_err("%s: isolating CPUs %s would leave no CPU for housekeeping", req->chain,
			   e[1].value);
		x->said = true;
	}
	if (!err)
		err = cg_converge(x, req);
	if (!err)
		err = irq_converge(x);
	if (err && !x->said)
		calvin_err("%s: cannot isolate CPUs %s: %s; undoing what was done", req->chain,
			   e[1].value, strerror(-err));
	hostrec_close(&x->rec, false);
	return err;
}

int isolation_up(const struct isolate_host *h, const struct isolate_request *req,
		 struct chain_state *st)
{
	struct state_entry e = { .kind = ST_ISOLATE };
	unsigned int others = 0, steered = 0;
	struct isolate_ctx *x;
	int err = 0;

	if (req->policy != CALVIN_PLACE_ISOLATED || calvin_cpumask_empty(&req->isolate))
		return rt_apply(h, req, st);
	x = malloc(sizeof(*x));
	if (!x)
		return -ENOMEM;
	ctx_init(x, h);
	/* the chain's journal names the host record before it changes */
	if (!calvin_cpumask_list(&req->isolate, e.name, sizeof(e.name)))
		err = -ENAMETOOLONG;
	if (!err)
		err = state_append(st, &e);
	if (err)
		calvin_err("%s: cannot journal CPU isolation: %s", req->chain, strerror(-err));
	if (!err)
		err = host_join(x, req, &others);
	if (!err)
		err = netsysfs_steer(h, req, &x->isolate, &x->irq_cpus, st, &steered);
	if (!err)
		err = rt_apply(h, req, st);
	/* each step that fails says why in one line */
	if (!err)
		print_summary(x, others, steered);
	free(x);
	return err;
}

/* Leave the host record: the last chain restores the host, any other
 * makes it converge to what the rest still need. */
static int host_leave(struct isolate_ctx *x, const char *chain)
{
	const char *names[MAX_CHAINS];
	unsigned int live;
	int err;

	err = open_record(x);
	if (err)
		return err;
	live = hostrec_live_chains(x->h, &x->rec, chain, names, MAX_CHAINS);
	if (!live) {
		err = restore_all(x);
		hostrec_close(&x->rec, !err && x->rec.fd >= 0);
		return err;
	}
	if (calvin_hostrec_has_chain(&x->rec.r, chain, NULL)) {
		ctx_mode(x);
		err = ctx_targets(x, names, live, NULL);
		if (!err)
			err = cg_converge(x, NULL);
		if (!err)
			err = irq_converge(x);
		if (!err)
			err = hostrec_add(&x->rec, HR_LEAVE, chain, NULL);
	}
	hostrec_close(&x->rec, false);
	return err;
}

int isolation_down(const struct isolate_host *h, struct chain_state *st)
{
	struct isolate_ctx *x;
	bool joined = false;
	unsigned int i;
	int err;

	/* the chain's own settings go with its threads and namespaces anyway:
	 * restoring them is tidy, failing to is not worth a failed down */
	if (rt_restore(h, st) || netsysfs_restore(h, st))
		calvin_info("%s: some VNF thread or packet steering settings were not restored",
			    st->chain);
	for (i = 0; i < st->nr; i++)
		joined |= st->e[i].kind == ST_ISOLATE;
	if (!joined)
		return 0;
	x = malloc(sizeof(*x));
	if (!x)
		return -ENOMEM;
	ctx_init(x, h);
	err = host_leave(x, st->chain);
	free(x);
	return err;
}
