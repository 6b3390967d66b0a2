// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Isolating CPUs with cpusets, without a reboot.
 *
 * cgroup v2 (where the cpuset controller is there): one cgroup,
 * calvin-isolated, made an isolated partition. The kernel then takes its
 * CPUs away from every other cgroup and from load balancing by itself.
 *
 * cgroup v1 (hybrid hosts, this build machine): two cpusets under the root,
 * calvin-isolated (the VNF cores, not load-balanced, exclusive where the
 * kernel allows it) and
 * calvin-housekeeping (every other CPU), every movable task of the root
 * moved into housekeeping, and the root's own load balancing off, so the
 * kernel builds scheduler domains from the children and leaves the VNF
 * cores out of them. Moving a task back to the root gives it back the
 * affinity it had asked for (the kernel keeps it), so undoing is moving. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "isolate_priv.h"
#include "plan/plan.h"
#include "util.h"

#define SWEEP_PASSES 8

static const char *members_of(enum calvin_isolate_mode mode)
{
	/* v1 moves threads one by one; v2 moves whole processes */
	return mode == CALVIN_ISOLATE_V2 ? "cgroup.procs" : "tasks";
}

static const char *members(const struct isolate_ctx *x)
{
	return members_of(x->mode);
}

static int move_task(const struct isolate_ctx *x, const char *to, pid_t tid)
{
	char path[PATH_MAX], id[16];
	int err;

	err = pathf(path, sizeof(path), "%s/%s", to, members(x));
	if (err)
		return err;
	snprintf(id, sizeof(id), "%d", (int)tid);
	return write_text(path, id);
}

/* The tasks of a cgroup, read whole. */
static int read_members(const struct isolate_ctx *x, const char *cg, pid_t **out, size_t *nr)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0, n = 0, max = 0;
	pid_t *ids = NULL, *grown;
	FILE *f;
	int err;

	*out = NULL;
	err = pathf(path, sizeof(path), "%s/%s", cg, members(x));
	if (err)
		return err;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		if (n == max) {
			max = max ? 2 * max : 256;
			grown = realloc(ids, max * sizeof(*ids));
			if (!grown) {
				err = -ENOMEM;
				break;
			}
			ids = grown;
		}
		if (atoi(line) > 0)
			ids[n++] = (pid_t)atoi(line);
	}
	free(line);
	fclose(f);
	*out = ids;
	*nr = n;
	return err;
}

static bool seen(const pid_t *ids, size_t nr, pid_t id)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* One task moved, or counted as one that would not move. */
static void sweep_one(struct isolate_ctx *x, const char *to, pid_t tid, bool count)
{
	int err = move_task(x, to, tid);

	if (!count || err == -ESRCH)
		return;
	if (!err)
		x->tasks_moved++;
	else if (is_kthread(x->h, tid))
		x->kthreads_stuck++; /* per-CPU kernel threads stay */
	else
		x->tasks_stuck++;
}

/* Tasks fork while we move them: read again until a pass finds no task
 * we have not tried. A task that would not move is tried once. */
int cg_sweep(struct isolate_ctx *x, const char *from, const char *to, bool count)
{
	pid_t *ids = NULL, *tried = NULL, *grown;
	size_t nr = 0, nr_tried = 0, i, fresh = 1;
	int pass, err = 0;

	for (pass = 0; !err && fresh && pass < SWEEP_PASSES; pass++) {
		err = read_members(x, from, &ids, &nr);
		if (err) {
			free(ids);
			return err == -ENOENT ? 0 : err; /* gone: nothing to move */
		}
		grown = realloc(tried, (nr_tried + nr + 1) * sizeof(*tried));
		if (!grown)
			err = -ENOMEM;
		else
			tried = grown;
		for (fresh = 0, i = 0; !err && i < nr; i++) {
			if (seen(tried, nr_tried, ids[i]))
				continue;
			tried[nr_tried++] = ids[i];
			fresh++;
			sweep_one(x, to, ids[i], count);
		}
		free(ids);
		ids = NULL;
	}
	free(tried);
	return err;
}

int cg_remove(struct isolate_ctx *x, const char *path)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	char parent[PATH_MAX], *slash;
	int tries, err = 0;

	if (pathf(parent, sizeof(parent), "%s", path))
		return -ENAMETOOLONG;
	slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return -EINVAL;
	*slash = '\0';
	for (tries = 0; tries < 50; tries++) {
		err = cg_sweep(x, path, parent, false);
		if (!err)
			err = cg_rmdir(x->h, path);
		if (err != -EBUSY)
			break;
		nanosleep(&ts, NULL); /* a task was being made in it */
	}
	return err == -ENOENT ? 0 : err;
}

int cg_ctrl_restore(struct isolate_ctx *x, const char *path, const char *controller)
{
	char file[PATH_MAX], text[64];
	int err;

	err = pathf(file, sizeof(file), "%s/cgroup.subtree_control", path);
	if (!err)
		err = pathf(text, sizeof(text), "-%s", controller);
	return err ? err : write_text(file, text);
}

/* What a cgroup and the cgroups below it hold. */
struct holdings {
	enum calvin_isolate_mode mode;
	unsigned int tasks, below;
};

static void count_holdings(const char *dir, void *arg)
{
	struct holdings *hd = arg;
	char file[PATH_MAX];

	if (!pathf(file, sizeof(file), "%s/%s", dir, members_of(hd->mode)))
		hd->tasks += count_lines(file);
}

static void count_below(const char *dir, void *arg)
{
	((struct holdings *)arg)->below++;
	count_holdings(dir, arg);
}

int cg_taken(const struct calvin_hostrec *r, enum calvin_isolate_mode mode, const char *path)
{
	struct holdings hd = { mode, 0, 0 };

	if (calvin_hostrec_made(r, path))
		return 0;
	count_holdings(path, &hd);
	cg_walk(path, count_below, &hd);
	if (!hd.tasks && !hd.below)
		return 0;
	calvin_err(
	    "cgroup %s holds %u task%s and %u cgroup%s, and calvin did not make it; calvin "
	    "neither uses nor removes another's cgroup: empty it (or remove it) and try again",
	    path, hd.tasks, hd.tasks == 1 ? "" : "s", hd.below, hd.below == 1 ? "" : "s");
	return -EBUSY;
}

/* A cgroup of calvin's name that calvin did not make: journalled as found
 * first (so no restore ever removes it), then used only if it holds no
 * task, whose CPUs it would otherwise change under them. */
static int found_cgroup(struct isolate_ctx *x, const char *path)
{
	int err = 0;

	if (!calvin_hostrec_has(&x->rec.r, HR_FOUND, path, NULL))
		err = hostrec_add(&x->rec, HR_FOUND, path, NULL);
	if (!err)
		err = cg_taken(&x->rec.r, x->mode, path);
	x->said |= err == -EBUSY;
	return err;
}

/* One of calvin's cgroups: journalled before it is made, unless it is
 * there already and calvin did not make it (another tool's, or calvin's
 * own from a host record removed by hand). */
static int ensure_cgroup(struct isolate_ctx *x, const char *path)
{
	bool made = calvin_hostrec_made(&x->rec.r, path);
	int err;

	if (path_exists(path))
		return made ? 0 : found_cgroup(x, path);
	if (!made) {
		err = hostrec_add(&x->rec, HR_MKDIR, path, NULL);
		if (err)
			return err;
	}
	err = cg_mkdir(x->h, path);
	/* someone made it between the two: the found line after the mkdir
	 * line keeps every restore from removing it */
	return err == -EEXIST ? found_cgroup(x, path) : err;
}

/* A file of one of calvin's cgroups: in one calvin made it goes with the
 * cgroup; in one calvin found, its old value is journalled and restored. */
static int cg_write(struct isolate_ctx *x, const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX];
	int err = pathf(path, sizeof(path), "%s/%s", dir, file);

	if (err)
		return err;
	return calvin_hostrec_made(&x->rec.r, dir) ? write_text(path, text)
						   : rec_write(x, path, text);
}

/* Write a cgroup's CPU list if it differs (an empty list is not written:
 * cpuset files take none). */
static int set_cpus(struct isolate_ctx *x, const char *dir, const struct calvin_cpumask *want)
{
	char path[PATH_MAX], text[CALVIN_CPUS_TEXT_MAX];
	struct calvin_cpumask now;
	int err;

	err = pathf(path, sizeof(path), "%s/cpuset.cpus", dir);
	if (err)
		return err;
	read_cpulist(path, &now);
	if (calvin_cpumask_equal(&now, want) || calvin_cpumask_empty(want))
		return 0;
	if (!calvin_cpumask_list(want, text, sizeof(text)))
		return -ENAMETOOLONG;
	return cg_write(x, dir, "cpuset.cpus", text);
}

/* Tasks calvin moves into cgroup to (from the root): journalled first, so
 * a restore moves them back before it gives to's files their old values
 * (a v1 cpuset with tasks takes no empty CPU list) or removes it. */
static int journal_moved(struct isolate_ctx *x, const char *to)
{
	if (calvin_hostrec_has(&x->rec.r, HR_MOVED, x->root, to))
		return 0;
	return hostrec_add(&x->rec, HR_MOVED, x->root, to);
}

/* Each VNF's polling thread (its main thread) onto the isolated cpuset
 * when its CPU is isolated; its other threads (DPDK's interrupt, telemetry
 * and IPC threads) are housekeeping. v2 moves whole processes. */
static int place_vnfs(struct isolate_ctx *x, const struct isolate_request *req, const char *iso,
		      const char *hk)
{
	struct calvin_procstat st;
	unsigned int i;
	pid_t tid;
	int err;

	for (i = 0; req && i < req->nr_vnfs; i++) {
		const struct isolate_vnf *v = &req->vnf[i];

		if (v->pid <= 0 || task_stat(x->h, v->pid, &st) || st.start != v->start ||
		    !calvin_cpumask_isset(&x->isolate, v->cpu))
			continue;
		err = move_task(x, iso, v->pid);
		if (err) {
			calvin_err("%s: cannot move the VNF (pid %d) to the isolated cpuset %s: %s",
				   v->name, (int)v->pid, iso, strerror(-err));
			x->said = true;
			return err;
		}
		for (tid = 0; hk && next_thread(x->h, v->pid, &tid);)
			move_task(x, hk, tid);
	}
	return 0;
}

static int converge_v1(struct isolate_ctx *x, const struct isolate_request *req)
{
	char iso[PATH_MAX], hk[PATH_MAX], path[PATH_MAX], mems[256];
	struct calvin_cpumask cur, keep;
	int err;

	if (pathf(iso, sizeof(iso), "%s/%s", x->root, CG_ISOLATED) ||
	    pathf(hk, sizeof(hk), "%s/%s", x->root, CG_HOUSEKEEPING) ||
	    pathf(path, sizeof(path), "%s/cpuset.mems", x->root))
		return -ENAMETOOLONG;
	err = read_text(path, mems, sizeof(mems));
	if (!err)
		err = ensure_cgroup(x, hk);
	if (!err)
		err = cg_write(x, hk, "cpuset.mems", mems);
	if (!err)
		err = ensure_cgroup(x, iso);
	if (!err)
		err = cg_write(x, iso, "cpuset.mems", mems);
	if (err)
		return err;
	/* housekeeping gives up CPUs before the isolated set takes them:
	 * an exclusive cpuset may not overlap its sibling */
	pathf(path, sizeof(path), "%s/cpuset.cpus", hk);
	read_cpulist(path, &cur);
	calvin_cpumask_and(&keep, &cur, &x->housekeeping);
	err = set_cpus(x, hk, &keep);
	if (!err)
		err = set_cpus(x, iso, &x->isolate);
	if (!err)
		err = set_cpus(x, hk, &x->housekeeping);
	if (!err)
		err = cg_write(x, iso, "cpuset.sched_load_balance", "0");
	if (err)
		return err;
	x->exclusive = !cg_write(x, iso, "cpuset.cpu_exclusive", "1");
	err = journal_moved(x, hk);
	if (!err && !calvin_hostrec_made(&x->rec.r, iso))
		err = journal_moved(x, iso);
	if (!err)
		err = place_vnfs(x, req, iso, hk);
	if (!err)
		err = cg_sweep(x, x->root, hk, true);
	/* other tools' cpusets (libvirt's, docker's) are theirs: say they
	 * still hold tasks that may run on the isolated CPUs */
	cg_foreign(x->root, &x->isolate, &x->foreign);
	if (!err && !pathf(path, sizeof(path), "%s/cpuset.sched_load_balance", x->root))
		err = rec_write(x, path, "0");
	return err;
}

static int converge_v2(struct isolate_ctx *x, const struct isolate_request *req)
{
	char iso[PATH_MAX], path[PATH_MAX], text[256];
	int err;

	if (pathf(iso, sizeof(iso), "%s/%s", x->root, CG_ISOLATED) ||
	    pathf(path, sizeof(path), "%s/cgroup.subtree_control", x->root))
		return -ENAMETOOLONG;
	err = read_text(path, text, sizeof(text));
	if (!err && !has_word(text, "cpuset", ' ')) {
		err = hostrec_add(&x->rec, HR_CTRL, x->root, "cpuset");
		if (!err)
			err = write_text(path, "+cpuset");
	}
	if (!err)
		err = ensure_cgroup(x, iso);
	if (err && x->said)
		return err;
	if (!err)
		err = set_cpus(x, iso, &x->isolate);
	if (!err)
		err = pathf(path, sizeof(path), "%s/cpuset.cpus.partition", iso);
	if (!err && (read_text(path, text, sizeof(text)) || strcmp(text, "isolated")))
		err = cg_write(x, iso, "cpuset.cpus.partition", "isolated");
	if (!err)
		err = read_text(path, text, sizeof(text));
	/* the kernel says "isolated invalid (why)" when it cannot */
	if (!err && strcmp(text, "isolated"))
		err = -EINVAL;
	if (err) {
		calvin_err("cgroup v2 refused the isolated partition %s: %s", iso,
			   err == -EINVAL ? text : strerror(-err));
		x->said = true;
		return err;
	}
	if (!calvin_hostrec_made(&x->rec.r, iso))
		err = journal_moved(x, iso);
	return err ? err : place_vnfs(x, req, iso, NULL);
}

int cg_converge(struct isolate_ctx *x, const struct isolate_request *req)
{
	switch (x->mode) {
	case CALVIN_ISOLATE_V1:
		return converge_v1(x, req);
	case CALVIN_ISOLATE_V2:
		return converge_v2(x, req);
	default:
		return 0;
	}
}

struct foreign {
	size_t root_len;
	const struct calvin_cpumask *cpus;
	struct cg_foreign *out;
};

static void foreign_one(const char *dir, void *arg)
{
	struct foreign *f = arg;
	const char *rel = dir + f->root_len;
	struct calvin_cpumask cpus;
	char path[PATH_MAX], lb[8] = "";
	unsigned int n;

	if (!strncmp(rel, "/" CG_ISOLATED, strlen(CG_ISOLATED) + 1) ||
	    !strncmp(rel, "/" CG_HOUSEKEEPING, strlen(CG_HOUSEKEEPING) + 1) ||
	    pathf(path, sizeof(path), "%s/cpuset.cpus", dir))
		return;
	read_cpulist(path, &cpus);
	calvin_cpumask_and(&cpus, &cpus, f->cpus);
	if (calvin_cpumask_empty(&cpus) || pathf(path, sizeof(path), "%s/tasks", dir))
		return;
	n = count_lines(path);
	f->out->tasks += n;
	if (!pathf(path, sizeof(path), "%s/cpuset.sched_load_balance", dir))
		read_text(path, lb, sizeof(lb));
	f->out->balances |= !strcmp(lb, "1");
	/* name the cgroup at the top, where its owner (libvirt, docker) is */
	if ((n || !strcmp(lb, "1")) && !f->out->first[0])
		snprintf(f->out->first, sizeof(f->out->first), "%.*s",
			 (int)strcspn(rel + 1, "/") + 1, rel);
}

void cg_foreign(const char *root, const struct calvin_cpumask *cpus, struct cg_foreign *out)
{
	struct foreign f = { strlen(root), cpus, out };

	memset(out, 0, sizeof(*out));
	cg_walk(root, foreign_one, &f);
}

int cg_of(const struct isolate_host *h, enum calvin_isolate_mode mode, pid_t pid, char *out,
	  size_t len)
{
	char path[PATH_MAX], line[PATH_MAX + 64], *ctl, *cg;
	int err = -ENOENT;
	FILE *f;

	if (pathf(path, sizeof(path), "%s/%d/cgroup", h->proc, (int)pid))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* "ID:CONTROLLERS:PATH"; v2's line is "0::PATH" */
	while (err && fgets(line, sizeof(line), f)) {
		ctl = strchr(line, ':');
		cg = ctl ? strchr(ctl + 1, ':') : NULL;
		if (!cg)
			continue;
		*cg++ = '\0';
		cg[strcspn(cg, "\n")] = '\0';
		if (mode == CALVIN_ISOLATE_V2 ? !strcmp(ctl + 1, "")
					      : has_word(ctl + 1, "cpuset", ','))
			err = pathf(out, len, "%s", cg);
	}
	fclose(f);
	return err;
}
