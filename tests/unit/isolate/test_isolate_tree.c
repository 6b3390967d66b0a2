// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The isolation applier (userspace/calvin/isolate/) run against a fake tree
 * of the files it touches: /proc/irq, the workqueue mask, a cgroup v1
 * cpuset hierarchy or a cgroup v2 one. What it writes, that two chains
 * share the host-wide part, that a refused step undoes itself, and that
 * `down` puts every file back as it was, also after the controller was
 * killed at each journalled step. Membership files (tasks, cgroup.procs)
 * are plain files here, not the kernel's: the integration test checks real
 * tasks move; this one checks settings. Needs no root. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "commands.h"
#include "isolate/isolate.h"
#include "state.h"
#include "util.h"

/* short, so that every path under it fits */
static char root[256], self[PATH_MAX];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	slash = strrchr(path, '/');
	*slash = '\0';
	assert_int_equal(mkdir_p(path, 0755), 0);
	*slash = '/';
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *get(const char *rel)
{
	static char buf[4096];
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return buf;
}

/* A new cgroup comes with its files, as cgroupfs makes them. */
static const char *const cg_files[][2] = {
	{ "cpuset.cpus", "\n" },
	{ "cpuset.mems", "\n" },
	{ "cpuset.cpu_exclusive", "0\n" },
	{ "cpuset.sched_load_balance", "1\n" },
	{ "cpuset.cpus.partition", "member\n" },
	{ "tasks", "" },
	{ "cgroup.procs", "" },
};

static int fake_mkdir(const char *path)
{
	char file[PATH_MAX];
	size_t i;
	FILE *f;

	if (mkdir(path, 0755) < 0)
		return -errno;
	for (i = 0; i < sizeof(cg_files) / sizeof(cg_files[0]); i++) {
		snprintf(file, sizeof(file), "%s/%s", path, cg_files[i][0]);
		f = fopen(file, "w");
		if (!f)
			return -errno;
		fputs(cg_files[i][1], f);
		fclose(f);
	}
	/* a v2 partition the kernel refuses: its file takes no write */
	if (strstr(path, "tree-refuse/")) {
		snprintf(file, sizeof(file), "%s/cpuset.cpus.partition", path);
		unlink(file);
		mkdir(file, 0755);
	}
	return 0;
}

static int fake_rmdir(const char *path)
{
	char file[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(cg_files) / sizeof(cg_files[0]); i++) {
		snprintf(file, sizeof(file), "%s/%s", path, cg_files[i][0]);
		if (unlink(file) < 0 && errno == EISDIR)
			rmdir(file);
	}
	return rmdir(path) < 0 ? -errno : 0;
}

/* The applier's view of the tree at root. */
static void fake_host(struct isolate_host *h, bool v2)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->proc, sizeof(h->proc), "%s/proc", root);
	snprintf(h->sys, sizeof(h->sys), "%s/sys", root);
	if (v2)
		snprintf(h->v2, sizeof(h->v2), "%s/cg2", root);
	else
		snprintf(h->v1, sizeof(h->v1), "%s/cpuset", root);
	h->v2_cpuset = v2;
	snprintf(h->run_dir, sizeof(h->run_dir), "%s/run", root);
	h->mkdir = fake_mkdir;
	h->rmdir = fake_rmdir;
	setenv("CALVIN_RUN_DIR", h->run_dir, 1);
}

/* The host: 4 CPUs, three IRQs (one that cannot move), a VNF process 500
 * with a second thread 501, and either cgroup hierarchy. */
static void make_tree(struct isolate_host *h, const char *name, bool v2)
{
	char cmd[PATH_MAX + 16];

	snprintf(root, sizeof(root), "%s/tree-%s", getenv("TREE_BASE"), name);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
	put("proc/irq/24/smp_affinity_list", "0-3\n");
	put("proc/irq/25/smp_affinity_list", "0-3\n");
	put("proc/irq/26/smp_affinity_list/x", ""); /* a directory: refuses writes */
	put("proc/irq/default_smp_affinity", "f\n");
	put("proc/500/stat", "500 (calvin-vnf) R 1 500 500 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 2 0 "
			     "777 1 1 1 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0\n");
	put("proc/500/status", "Name:\tcalvin-vnf\nVmLck:\t  100 kB\nCpus_allowed_list:\t1\n");
	put("proc/500/cgroup", v2 ? "0::/calvin-isolated\n" : "3:cpuset:/calvin-isolated\n");
	/* a per-CPU kernel thread of CPU 1, which no cpuset moves */
	put("proc/22/stat", "22 (ksoftirqd/1) S 2 0 0 0 -1 69238880 0 0 0 0 0 0 0 0 20 0 1 0 3 0 0 1 "
			    "1 1 1 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0\n");
	put("proc/22/status", "Name:\tksoftirqd/1\nCpus_allowed_list:\t1\n");
	put("proc/22/cgroup", v2 ? "0::/\n" : "3:cpuset:/\n");
	put("proc/22/task/22/stat", "");
	put("proc/500/task/500/stat", "");
	put("proc/500/task/501/stat", "");
	put("sys/devices/system/cpu/online", "0-3\n");
	put("sys/devices/system/cpu/isolated", "\n");
	put("sys/devices/virtual/workqueue/cpumask", "f\n");
	put("sys/devices/virtual/workqueue/cpumask_requested", "f\n");
	if (v2) {
		put("cg2/cgroup.controllers", "cpuset cpu io memory\n");
		put("cg2/cgroup.subtree_control", "memory\n");
		put("cg2/cgroup.procs", "1\n2\n");
	} else {
		put("cpuset/cpuset.cpus", "0-3\n");
		put("cpuset/cpuset.mems", "0\n");
		put("cpuset/cpuset.cpu_exclusive", "1\n");
		put("cpuset/cpuset.sched_load_balance", "1\n");
		put("cpuset/tasks", "1\n2\n3\n500\n501\n");
	}
	put("run/.keep", "");
	fake_host(h, v2);
}

/* Every setting in the tree, as "path=content" lines; membership files and
 * calvin's own run directory are not settings. */
static void snap_dir(const char *dir, FILE *out)
{
	char path[PATH_MAX], buf[4096];
	struct dirent **de;
	struct stat st;
	int n, i;
	FILE *f;

	n = scandir(dir, &de, NULL, alphasort);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, de[i]->d_name);
		if (de[i]->d_name[0] == '.' || !strcmp(de[i]->d_name, "tasks") ||
		    !strcmp(de[i]->d_name, "cgroup.procs") ||
		    !strcmp(de[i]->d_name, "cgroup.subtree_control") ||
		    !strcmp(de[i]->d_name, "run"))
			goto next;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			fprintf(out, "%s/\n", path + strlen(root));
			snap_dir(path, out);
		} else if ((f = fopen(path, "r"))) {
			buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
			fclose(f);
			/* as the kernel reads them back: one newline at the end */
			buf[strcspn(buf, "\n")] = '\0';
			fprintf(out, "%s=%s\n", path + strlen(root), buf);
		}
	next:
		free(de[i]);
	}
	free(de);
}

static char *snapshot(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	snap_dir(root, out);
	fclose(out);
	return text;
}

/* On a difference, show it as a diff: a snapshot is long. */
static void same(const char *before, const char *after)
{
	char a[PATH_MAX], b[PATH_MAX], cmd[3 * PATH_MAX];
	FILE *f;

	if (!strcmp(before, after))
		return;
	snprintf(a, sizeof(a), "%s/before", getenv("TREE_BASE"));
	snprintf(b, sizeof(b), "%s/after", getenv("TREE_BASE"));
	f = fopen(a, "w");
	fputs(before, f);
	fclose(f);
	f = fopen(b, "w");
	fputs(after, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "diff %s %s >&2", a, b);
	if (system(cmd))
		fail_msg("the tree differs after down from before up (diff above)");
}

/* The tree as before (a snapshot taken then), freeing it. */
static void restored(char *before)
{
	char *after = snapshot();

	same(before, after);
	free(before);
	free(after);
}

static void request(struct isolate_request *req, const char *chain, const char *cpus, pid_t pid)
{
	memset(req, 0, sizeof(*req));
	snprintf(req->chain, sizeof(req->chain), "%s", chain);
	req->policy = CALVIN_PLACE_ISOLATED;
	assert_int_equal(calvin_cpumask_parse_list(cpus, &req->isolate), 0);
	calvin_cpumask_set(&req->housekeeping, 0);
	if (pid) {
		req->nr_vnfs = 1;
		strcpy(req->vnf[0].name, "fwd-u");
		req->vnf[0].pid = pid;
		req->vnf[0].start = 777;
		req->vnf[0].cpu = calvin_cpumask_isset(&req->isolate, 1) ? 1 : 2;
	}
}

/* `up` of a chain: its journal, then isolation. */
static int up(const struct isolate_host *h, const char *chain, const char *cpus, pid_t pid)
{
	struct isolate_request req;
	struct chain_state *st = malloc(sizeof(*st));
	char ns[64];
	int err;

	assert_non_null(st);
	request(&req, chain, cpus, pid);
	assert_int_equal(state_create(st, chain), 0);
	/* the VNF's process, as the backend journals it */
	snprintf(ns, sizeof(ns), "calvin-%s.fwd-u", chain);
	if (pid)
		assert_int_equal(state_add(st, ST_PROC, ns, NULL, pid, 777), 0);
	err = isolation_up(h, &req, st);
	state_close(st, false);
	free(st);
	return err;
}

static int down(const struct isolate_host *h, const char *chain)
{
	struct chain_state *st = malloc(sizeof(*st));
	int err;

	assert_non_null(st);
	err = state_open(st, chain);
	if (err == -ENOENT) {
		free(st);
		return 0;
	}
	assert_int_equal(err, 0);
	err = isolation_down(h, st);
	state_close(st, !err);
	free(st);
	return err;
}

/* `calvin status` of chain a, as text. */
static char *status(const struct isolate_host *h)
{
	static struct calvin_chain_spec spec;
	static char out[4096];
	FILE *f = fmemopen(out, sizeof(out), "w");
	struct calvin_cpumask hk;

	assert_non_null(f);
	memset(&spec, 0, sizeof(spec));
	strcpy(spec.name, "a");
	spec.nr_vnfs = 1;
	strcpy(spec.vnfs[0].name, "fwd-u");
	spec.vnfs[0].space = CALVIN_USER;
	/* what the planner gives a 4-CPU host with the VNF on CPU 1 */
	assert_int_equal(calvin_cpumask_parse_list("0,2-3", &hk), 0);
	isolation_status(f, h, &spec, &hk, false);
	fclose(f);
	return out;
}

static void test_v1(void **unused)
{
	struct isolate_host h;
	char *before;

	make_tree(&h, "v1", false);
	before = snapshot();
	assert_int_equal(up(&h, "a", "1", 500), 0);
	assert_string_equal(get("cpuset/calvin-isolated/cpuset.cpus"), "1");
	assert_string_equal(get("cpuset/calvin-isolated/cpuset.mems"), "0");
	assert_string_equal(get("cpuset/calvin-isolated/cpuset.sched_load_balance"), "0");
	assert_string_equal(get("cpuset/calvin-isolated/cpuset.cpu_exclusive"), "1");
	assert_string_equal(get("cpuset/calvin-isolated/tasks"), "500");
	/* the VNF's other thread, then the root's tasks, went to housekeeping */
	assert_string_equal(get("cpuset/calvin-housekeeping/cpuset.cpus"), "0,2-3");
	assert_string_equal(get("cpuset/calvin-housekeeping/tasks"), "501");
	assert_string_equal(get("cpuset/cpuset.sched_load_balance"), "0");
	assert_string_equal(get("proc/irq/24/smp_affinity_list"), "0,2-3");
	assert_string_equal(get("proc/irq/25/smp_affinity_list"), "0,2-3");
	assert_string_equal(get("proc/irq/default_smp_affinity"), "d");
	assert_string_equal(get("sys/devices/virtual/workqueue/cpumask"), "d");
	assert_non_null(strstr(get("run/a.state"), "isolate 1"));
	assert_non_null(strstr(get("run/isolation.host"), "chain a 1"));
	/* status reads it all back */
	assert_string_equal(
	    status(&h),
	    "  isolation: CPUs isolated now: 1; housekeeping CPUs 0,2-3 hold 2 of 2 IRQs "
	    "and 1 tasks; isolated at run time for chains a; besides VNFs, 1 threads may run "
	    "on CPU 1 (1 kernel threads)\n"
	    "  placement (read back from the kernel):\n"
	    "  fwd-u        pid 500  cpus 1  last ran on 1  other  cpuset /calvin-isolated  "
	    "isolated (cgroup v1 cpusets, no load balancing)  locked 100 kB\n");
	assert_int_equal(down(&h, "a"), 0);
	assert_null(get("run/isolation.host"));
	/* twice is harmless */
	assert_int_equal(down(&h, "a"), 0);
	restored(before);
}

/* Two chains share the host-wide part; the first to leave gives back only
 * its own CPUs, the last restores everything. */
static void test_two_chains(void **unused)
{
	struct isolate_host h;
	char *before;

	make_tree(&h, "two", false);
	before = snapshot();
	assert_int_equal(up(&h, "a", "1", 500), 0);
	assert_int_equal(up(&h, "b", "2", 0), 0);
	assert_string_equal(get("cpuset/calvin-isolated/cpuset.cpus"), "1-2");
	assert_string_equal(get("cpuset/calvin-housekeeping/cpuset.cpus"), "0,3");
	assert_string_equal(get("proc/irq/24/smp_affinity_list"), "0,3");
	assert_int_equal(down(&h, "a"), 0);
	assert_string_equal(get("cpuset/calvin-isolated/cpuset.cpus"), "2");
	assert_string_equal(get("cpuset/calvin-housekeeping/cpuset.cpus"), "0-1,3");
	assert_string_equal(get("proc/irq/24/smp_affinity_list"), "0-1,3");
	assert_string_equal(get("cpuset/cpuset.sched_load_balance"), "0");
	assert_non_null(strstr(get("run/isolation.host"), "mode v1"));
	assert_int_equal(down(&h, "b"), 0);
	restored(before);
}

/* A record no deployed chain holds any more is restored by the next up. */
static void test_stale_record(void **unused)
{
	struct isolate_host h;
	char *before, line[1024];

	make_tree(&h, "stale", false);
	before = snapshot();
	snprintf(line, sizeof(line),
		 "mode v1 %s/cpuset\nchain ghost 3\nfile %s/proc/irq/25/"
		 "smp_affinity_list 0-3\n",
		 root, root);
	put("run/isolation.host", line);
	put("proc/irq/25/smp_affinity_list", "0\n");
	assert_int_equal(up(&h, "a", "1", 0), 0);
	assert_null(strstr(get("run/isolation.host"), "ghost"));
	assert_string_equal(get("cpuset/calvin-isolated/cpuset.cpus"), "1");
	assert_int_equal(down(&h, "a"), 0);
	restored(before);
}

/* Another tool's cpusets (libvirt's /machine here) stay as they are; what
 * they hold on the isolated CPU is said, and the kernel, balancing them
 * there, does not count the CPU as isolated. */
static void test_foreign_cpuset(void **unused)
{
	struct isolate_host h;
	char *before;

	make_tree(&h, "foreign", false);
	put("cpuset/machine/cpuset.cpus", "0-3\n");
	put("cpuset/machine/cpuset.sched_load_balance", "1\n");
	put("cpuset/machine/tasks", "700\n701\n");
	put("cpuset/machine/vm/cpuset.cpus", "1\n");
	put("cpuset/machine/vm/cpuset.sched_load_balance", "1\n");
	put("cpuset/machine/vm/tasks", "702\n");
	put("cpuset/other/cpuset.cpus", "2\n");
	put("cpuset/other/tasks", "800\n");
	before = snapshot();
	assert_int_equal(up(&h, "a", "1", 500), 0);
	assert_string_equal(get("cpuset/machine/tasks"), "700\n701");
	assert_non_null(strstr(status(&h), "CPUs isolated now: none; housekeeping CPUs 0,2-3"));
	assert_non_null(strstr(status(&h),
			       "; another tool's cpuset /machine spans them too (3 "
			       "tasks, load-balanced); isolated at run time for chains a; "));
	assert_int_equal(down(&h, "a"), 0);
	restored(before);
}

static void test_v2(void **unused)
{
	struct isolate_host h;
	char *before;

	make_tree(&h, "v2", true);
	before = snapshot();
	assert_int_equal(up(&h, "a", "1", 500), 0);
	assert_string_equal(get("cg2/cgroup.subtree_control"), "+cpuset");
	assert_string_equal(get("cg2/calvin-isolated/cpuset.cpus"), "1");
	assert_string_equal(get("cg2/calvin-isolated/cpuset.cpus.partition"), "isolated");
	assert_string_equal(get("cg2/calvin-isolated/cgroup.procs"), "500");
	/* no housekeeping cgroup, no task moved: the partition does that */
	assert_null(get("cg2/calvin-housekeeping/cpuset.cpus"));
	assert_string_equal(get("proc/irq/24/smp_affinity_list"), "0,2-3");
	assert_non_null(strstr(get("run/isolation.host"), "ctrl"));
	assert_int_equal(down(&h, "a"), 0);
	/* the controller calvin enabled is disabled again */
	assert_string_equal(get("cg2/cgroup.subtree_control"), "-cpuset");
	restored(before);
}

/* The kernel refuses the partition: up fails, and down (what a failed up
 * runs) leaves nothing. */
static void test_v2_refused(void **unused)
{
	struct isolate_host h;
	char *before;

	make_tree(&h, "refuse", true);
	before = snapshot();
	assert_int_not_equal(up(&h, "a", "1", 500), 0);
	assert_int_equal(down(&h, "a"), 0);
	restored(before);
}

/* The attack: cgroups of calvin's names made before `up`. Empty ones are
 * used (their old values journalled), never journalled as made, and `down`
 * leaves them as they were; one that holds a task is another's: `up`
 * refuses it, and neither touches it. */
static void found(const char *dir, const char *cpus, const char *tasks)
{
	char rel[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(cg_files) / sizeof(cg_files[0]); i++) {
		snprintf(rel, sizeof(rel), "%s/%s", dir, cg_files[i][0]);
		put(rel, cg_files[i][1]);
	}
	snprintf(rel, sizeof(rel), "%s/cpuset.cpus", dir);
	put(rel, cpus);
	snprintf(rel, sizeof(rel), "%s/tasks", dir);
	put(rel, tasks);
}

static void test_found_cgroups(void **unused)
{
	struct isolate_host h;
	char *before;

	make_tree(&h, "found", false);
	found("cpuset/calvin-isolated", "3\n", "");
	found("cpuset/calvin-housekeeping", "0-3\n", "");
	before = snapshot();
	assert_int_equal(up(&h, "a", "1", 500), 0);
	assert_string_equal(get("cpuset/calvin-isolated/cpuset.cpus"), "1");
	assert_string_equal(get("cpuset/calvin-housekeeping/cpuset.cpus"), "0,2-3");
	assert_null(strstr(get("run/isolation.host"), "mkdir"));
	assert_non_null(strstr(get("run/isolation.host"), "found "));
	assert_int_equal(down(&h, "a"), 0);
	/* still there, holding what they held */
	assert_string_equal(get("cpuset/calvin-isolated/cpuset.cpus"), "3");
	restored(before);
}

static void test_found_busy(void **unused)
{
	struct isolate_host h;
	char *before;

	make_tree(&h, "busy", false);
	found("cpuset/calvin-housekeeping", "0-3\n", "4242\n");
	before = snapshot();
	assert_int_equal(up(&h, "a", "1", 500), -EBUSY);
	assert_int_equal(down(&h, "a"), 0);
	assert_string_equal(get("cpuset/calvin-housekeeping/tasks"), "4242");
	restored(before);
	/* no task, but a cgroup of someone's below it */
	make_tree(&h, "busy1", false);
	found("cpuset/calvin-isolated", "3\n", "");
	found("cpuset/calvin-isolated/theirs", "3\n", "");
	before = snapshot();
	assert_int_equal(up(&h, "a", "1", 500), -EBUSY);
	assert_int_equal(down(&h, "a"), 0);
	assert_non_null(get("cpuset/calvin-isolated/theirs/cpuset.cpus"));
	restored(before);
	/* the same in v2, where the isolated partition is the one cgroup */
	make_tree(&h, "busy2", true);
	found("cg2/calvin-isolated", "2\n", "");
	put("cg2/calvin-isolated/cgroup.procs", "4242\n");
	before = snapshot();
	assert_int_equal(up(&h, "a", "1", 500), -EBUSY);
	assert_int_equal(down(&h, "a"), 0);
	assert_string_equal(get("cg2/calvin-isolated/cgroup.procs"), "4242");
	restored(before);
}

/* `up` killed right after each journalled step (CALVIN_CRASH_AFTER=N, in a
 * process of its own: this binary with "up"), then `down`. */
static void test_crash_each_step(void **unused)
{
	char *before, *after, env[16];
	struct isolate_host h;
	int n, status;
	pid_t pid;

	make_tree(&h, "crash", false);
	before = snapshot();
	for (n = 1; n < 100; n++) {
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			snprintf(env, sizeof(env), "%d", n);
			setenv("CALVIN_CRASH_AFTER", env, 1);
			execl(self, self, "up", root, (char *)NULL);
			_exit(127);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_int_equal(down(&h, "a"), 0);
		after = snapshot();
		same(before, after);
		free(after);
		if (WIFEXITED(status)) {
			assert_int_equal(WEXITSTATUS(status), 0);
			break; /* n is past the last step: up finished */
		}
		assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	}
	print_message("up journals %d steps\n", n - 1);
	assert_true(n > 5 && n < 100);
	free(before);
}

/* The child of test_crash_each_step. */
static int child_up(const char *tree)
{
	struct isolate_host h;

	snprintf(root, sizeof(root), "%s", tree);
	fake_host(&h, false);
	return up(&h, "a", "1", 500) ? 1 : 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v1),
		cmocka_unit_test(test_two_chains),
		cmocka_unit_test(test_stale_record),
		cmocka_unit_test(test_foreign_cpuset),
		cmocka_unit_test(test_v2),
		cmocka_unit_test(test_v2_refused),
		cmocka_unit_test(test_crash_each_step),
		cmocka_unit_test(test_found_cgroups),
		cmocka_unit_test(test_found_busy),
	};
	char base[] = "/tmp/calvin-isolate-tree.XXXXXX", cmd[64];
	ssize_t n;
	int rc;

	if (argc == 3 && !strcmp(argv[1], "up"))
		return child_up(argv[2]);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0 || !mkdtemp(base))
		return 1;
	self[n] = '\0';
	setenv("TREE_BASE", base, 1);
	rc = cmocka_run_group_tests_name("isolate_tree", tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", base);
	if (system(cmd))
		rc = 1;
	return rc;
}
