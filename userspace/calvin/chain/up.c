// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A chain's deployment (`calvin up`, `run`, `bench`): the checks before
 * anything exists, then every resource journalled before it is made; a
 * failure undoes everything, a crash leaves the journal for `calvin down`. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "chain/chain.h"
#include "commands.h"
#include "hosts.h"
#include "isolate/isolate.h"
#include "jout.h"
#include "loader.h"
#include "monitor/monitor.h"
#include "supervise/supervise.h"
#include "util.h"
#include "util/util.h"

/* The plan record: other chains' plans keep off this chain's cores, and
 * its probe finds its housekeeping cores there. */
static int write_plan_record(const char *path, const struct deploy *d)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -errno;
	calvin_plan_record_write(f, d->spec, d->plan);
	if (ferror(f)) {
		fclose(f);
		return -EIO;
	}
	return fclose(f) ? -errno : 0;
}

/* The chain's own files: plan record, spec copy, log dir, deployment random,
 * bpffs pin root. `probe`, `status` and `down` need what was deployed,
 * whatever happens to the file afterwards: the copy is the bytes `up`
 * read and checked, and names the same key files. */
static int chain_files(struct deploy *d)
{
	const char *name = d->spec->name;
	char path[PATH_MAX], why[CALVIN_ERR_MAX];
	int err;

	err = state_file(path, sizeof(path), name, ".plan");
	if (!err)
		err = state_add(d->state, ST_PATH, path, NULL, 0, 0);
	if (!err)
		err = write_plan_record(path, d);
	if (err)
		return err;

	err = state_file(path, sizeof(path), name, ".yaml");
	if (!err)
		err = state_add(d->state, ST_PATH, path, NULL, 0, 0);
	if (err)
		return err;
	err = calvin_spec_text_write(d->text, path, NULL, why, sizeof(why));
	if (err) {
		calvin_err_line(why);
		return err;
	}
	err = state_file(path, sizeof(path), name, ".d");
	if (!err)
		err = state_add(d->state, ST_PATH, path, NULL, 0, 0);
	if (!err)
		err = mkdir_p(path, 0700);
	if (!err)
		err = deploy_random_make(d, path);
	if (err)
		return err;
	err = chain_pin_dir(path, sizeof(path), name);
	if (!err)
		err = state_add(d->state, ST_PATH, path, NULL, 0, 0);
	return err ? err : mkdir_p(path, 0700);
}

/* A step's result, or -EINTR when a signal asked to stop: each resource
 * is journalled (state_add() stops there too), so stopping between any
 * two steps leaves nothing the rollback does not know. */
static int step(int err)
{
	return err ? err : calvin_quit ? -EINTR : 0;
}

/* The journal's first entries and the chain's files, the plan record
 * among them: other chains plan around it from now on. */
static int record(struct deploy *d, const struct node_backend *be)
{
	int err;

	err = state_add(d->state, ST_BACKEND, be->name, NULL, 0, 0);
	return err ? err : step(chain_files(d));
}

static int deploy(struct deploy *d, const struct node_backend *be)
{
	const struct calvin_chain_spec *s = d->spec;
	unsigned int n = d->nr_nodes, i;
	int err = 0;

	for (i = 0; !err && i < n; i++)
		err = step(be->node_create(d, i));
	for (i = 0; !err && i + 1 < n; i++)
		err = step(be->link_create(d, i, i + 1));
	if (!err)
		err = step(be->endpoints_setup(d));
	for (i = 1; !err && i + 1 < n; i++)
		if (d->nodes[i].space == CALVIN_KERNEL)
			err = step(be->kernel_node(d, i));
	if (!err)
		err = step(be->server(d));
	/* user VNFs last: their veth peers must already have XDP programs */
	for (i = 0; !err && i < s->nr_vnfs; i++)
		if (s->vnfs[i].space == CALVIN_USER)
			err = step(be->user_vnf(d, i));
	return err;
}

/* Isolation and realtime options, once the VNFs run: what the plan asked
 * of the host, journalled before each change. */
static int isolate(struct deploy *d)
{
	struct isolate_request req;
	struct isolate_host h;
	int err;

	err = isolate_host_detect(&h);
	if (!err)
		err = isolation_request(d, &req);
	return err ? err : isolation_up(&h, &req, d->state);
}

static void print_up(const struct deploy *d)
{
	const struct calvin_chain_spec *s = d->spec;
	char line[512];
	unsigned int i;

	if (calvin_json) {
		jw_str(jout(), "chain", s->name);
		jw_bool(jout(), "up", true);
		return;
	}
	printf("chain %s is up: probe", s->name);
	for (i = 0; i < s->nr_vnfs; i++) {
		printf(" -> %s (%s", s->vnfs[i].name, calvin_space_name(s->vnfs[i].space));
		if (d->plan->vnf[i].cpu >= 0)
			printf(", cpu %d%s", d->plan->vnf[i].cpu,
			       d->plan->vnf[i].owns ? "" : " shared");
		if (d->plan->vnf[i].host > 0)
			printf(" on host %s", s->hosts[d->plan->vnf[i].host - 1].name);
		printf(")");
	}
	printf(" -> %s", s->server.name);
	if (calvin_spec_host(s, s->server.host))
		printf(" (VM on host %s)", s->server.host);
	printf("\n");
	if (backend_describe(s, line, sizeof(line)))
		printf("nodes: %s\n", line);
	if (calvin_spec_multihost(s))
		printf("on other hosts: %s\n", calvin_remote_not_done);
	/* `calvin run | tee`: the chain is up before the report comes */
	fflush(stdout);
}

/* Several kernel VNFs on one node need libxdp's multi-program dispatcher;
 * find out before anything is created. Loading it needs root: offline
 * without root, what was not checked goes to unchecked. */
static int check_shared_nodes(const struct calvin_chain_spec *spec, bool offline, char *unchecked,
			      size_t len)
{
	struct calvin_node nodes[CALVIN_MAX_NODES];
	unsigned int n = calvin_chain_nodes(spec, nodes), i;

	for (i = 1; i + 1 < n; i++) {
		if (nodes[i].nr_vnfs < 2)
			continue;
		if (offline && geteuid() != 0) {
			snprintf(unchecked, len,
				 "whether this kernel loads libxdp's dispatcher, which node '%s' "
				 "needs, is checked as root only",
				 nodes[i].name);
			return 0;
		}
		if (calvin_xdp_dispatcher_available())
			continue;
		return host_cannot(spec,
				   "node '%s' (line %d) holds %u kernel VNFs, and this kernel "
				   "cannot load libxdp's multi-program dispatcher; give each VNF "
				   "a node of its own",
				   nodes[i].name, spec->vnfs[nodes[i].first_vnf + 1].pos.line,
				   nodes[i].nr_vnfs);
	}
	return 0;
}

/* The paths `up` will journal under the state directory and bpffs,
 * derived now: one that does not fit a journal entry is refused before
 * anything exists (the backend checks its own names in its check()). */
static int check_journal_names(const struct calvin_chain_spec *spec)
{
	static const char *const files[] = { ".state", ".plan", ".yaml", ".d" };
	char path[PATH_MAX];
	unsigned int i;
	int err = 0;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		err = state_file(path, sizeof(path), spec->name, files[i]);
		if (err || !state_name_fits(path)) {
			calvin_err(
			    "state directory %.64s... is too long for the journal of chain %s "
			    "(at most %d characters per path); use a shorter CALVIN_RUN_DIR",
			    calvin_run_dir(), spec->name, STATE_NAME_MAX);
			return CALVIN_EXIT_USAGE;
		}
	}
	err = chain_pin_dir(path, sizeof(path), spec->name);
	for (i = 0; !err && i < spec->nr_vnfs; i++)
		err = vnf_pin_dir(path, sizeof(path), spec->name, spec->vnfs[i].name);
	if (!err)
		err = vnf_pin_dir(path, sizeof(path), spec->name, spec->server.name);
	if (err || !state_name_fits(path)) {
		calvin_err("chain %s: bpffs path %.64s... is too long for the journal; shorten the "
			   "chain's names",
			   spec->name, path);
		return CALVIN_EXIT_USAGE;
	}
	return 0;
}

int chain_check(const struct calvin_chain_spec *spec, bool offline, struct calvin_keyring *keys,
		char *unchecked, size_t len)
{
	const struct node_backend *be = backend_of(spec);
	int rc;

	unchecked[0] = '\0';
	/* what is wrong with the file first: a host limit is about valid ones;
	 * up reads the key files here, once, and keeps their keys */
	rc = keys ? deploy_keys_load(spec, keys) : check_key_files(spec);
	if (!rc)
		rc = monitor_check_hook(spec);
	if (!rc)
		rc = check_journal_names(spec);
	if (rc)
		return rc;
	if (!be)
		return host_cannot(spec,
				   "backend %s is not available in this build of calvin; "
				   "use 'backend: netns'",
				   calvin_backend_name(spec->backend));
	rc = be->check(spec, offline);
	return rc ? rc : check_shared_nodes(spec, offline, unchecked, len);
}

/* The one line of an interrupted `up`. */
static int interrupted(const struct calvin_chain_spec *spec, bool left)
{
	calvin_err("interrupted by SIG%s; chain %s was not deployed, and %s",
		   sigabbrev_np(calvin_quit), spec->name,
		   left ? "some of it is left: run 'calvin down' for it" : "nothing of it is left");
	return quit_status();
}

/* Under the planning lock: the plan, and the journal of a new deployment
 * (-EEXIST: the chain is deployed). Returns 0, -EEXIST or an exit code. */
static int plan_and_journal(struct deploy *d, struct calvin_plan *plan)
{
	const struct calvin_chain_spec *spec = d->spec;
	int rc, err;

	rc = make_plan(spec, plan, NULL);
	if (!rc)
		rc = isolation_check(spec, plan);
	if (rc)
		return rc;
	err = state_create(d->state, spec->name);
	if (!err || err == -EEXIST)
		return err;
	if (err == -EBUSY) {
		calvin_err("chain '%s' is being changed by another calvin; try again", spec->name);
		return CALVIN_EXIT_USAGE;
	}
	calvin_err("cannot create the state of chain '%s' in %s: %s", spec->name, calvin_run_dir(),
		   strerror(-err));
	return CALVIN_EXIT_FAIL;
}

static int chain_up_keyed(const struct calvin_chain_spec *spec, const struct calvin_spec_text *text,
			  struct calvin_keyring *keys, struct chain_state *state)
{
	const struct node_backend *be = backend_of(spec);
	struct calvin_plan plan;
	struct deploy d = {
		.spec = spec, .text = text, .state = state, .plan = &plan, .keys = keys
	};
	char unchecked[256];
	int rc, err, lock;
	bool left;

	rc = need_root("calvin up");
	if (!rc)
		rc = chain_check(spec, false, keys, unchecked, sizeof(unchecked));
	if (rc)
		return rc;
	err = ensure_bpffs();
	if (err) {
		calvin_err("cannot mount bpffs on /sys/fs/bpf: %s; XDP maps need it",
			   strerror(-err));
		return CALVIN_EXIT_USAGE;
	}
	rc = state_dir_check(true);
	if (rc)
		return rc;
	if (calvin_quit)
		return interrupted(spec, false);
	d.nr_nodes = calvin_chain_nodes(spec, d.nodes);
	err = plan_lock(&lock);
	if (err)
		return err == -EINTR ? interrupted(spec, false) : CALVIN_EXIT_FAIL;
	rc = plan_and_journal(&d, &plan);
	if (rc) {
		plan_unlock(&lock);
		if (rc != -EEXIST)
			return rc;
		/* deployed: its update, and a new supervisor if its own died */
		rc = chain_update(spec, text);
		return rc ? rc : supervise_attach(spec, keys);
	}
	err = step(record(&d, be));
	plan_unlock(&lock);
	if (!err)
		err = step(deploy(&d, be));
	if (!err)
		err = step(isolate(&d));
	/* last, so it watches a chain that is whole */
	if (!err)
		err = step(supervise_start(state, keys));
	if (err) {
		/* nothing half-created: undo what the journal says was started,
		 * and keep the journal for `down` if some of it would not go */
		left = chain_undo(be, state) != 0;
		state_close(state, !left);
		if (calvin_quit)
			return interrupted(spec, left);
		return err == -EOPNOTSUPP ? CALVIN_EXIT_USAGE : CALVIN_EXIT_FAIL;
	}
	state_close(state, false);
	print_up(&d);
	return 0;
}

int chain_up(const struct calvin_chain_spec *spec, const struct calvin_spec_text *text)
{
	struct calvin_keyring keys = { 0 };
	/* the journal is most of a quarter megabyte: not on the stack */
	struct chain_state *state = calloc(1, sizeof(*state));
	int rc;

	if (!state) {
		calvin_err("out of memory for the journal of chain %s", spec->name);
		return CALVIN_EXIT_FAIL;
	}
	rc = chain_up_keyed(spec, text, &keys, state);
	calvin_keyring_clear(&keys);
	free(state);
	return rc;
}
