// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin up CHAIN.yaml: deploy a chain. Every resource is journalled before
 * it is made; a failure undoes everything, a crash leaves the journal for
 * `calvin down`. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "commands.h"
#include "keyfile.h"
#include "loader.h"
#include "util.h"

/* Keep a copy of the spec: `probe`, `status` and `down` need what was deployed,
 * whatever happens to the file afterwards. */
int copy_file(const char *from, const char *to)
{
	char buf[8192];
	int in, out, err = 0;
	ssize_t n;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0) {
		err = -errno;
		goto close_in;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			err = -EIO;
			break;
		}
	if (n < 0)
		err = -errno;
	close(out);
close_in:
	close(in);
	return err;
}

/* The chain's own files: spec copy, log dir, bpffs pin root. */
static int chain_files(struct deploy *d)
{
	const char *name = d->spec->name;
	char path[PATH_MAX];
	int err;

	state_file(path, sizeof(path), name, ".yaml");
	err = state_add(d->state, ST_PATH, path, NULL, 0, 0);
	if (!err)
		err = copy_file(d->spec->path, path);
	if (err)
		return err;
	state_file(path, sizeof(path), name, ".d");
	err = state_add(d->state, ST_PATH, path, NULL, 0, 0);
	if (!err)
		err = mkdir_p(path, 0700);
	if (err)
		return err;
	err = chain_pin_dir(path, sizeof(path), name);
	if (!err)
		err = state_add(d->state, ST_PATH, path, NULL, 0, 0);
	return err ? err : mkdir_p(path, 0700);
}

static int deploy(struct deploy *d, const struct node_backend *be)
{
	const struct calvin_chain_spec *s = d->spec;
	unsigned int n = d->nr_nodes, i;
	int err;

	err = state_add(d->state, ST_BACKEND, be->name, NULL, 0, 0);
	if (!err)
		err = chain_files(d);
	for (i = 0; !err && i < n; i++)
		err = be->node_create(d, i);
	for (i = 0; !err && i + 1 < n; i++)
		err = be->link_create(d, i, i + 1);
	if (!err)
		err = be->endpoints_setup(d);
	for (i = 1; !err && i + 1 < n; i++)
		if (d->nodes[i].space == CALVIN_KERNEL)
			err = be->kernel_node(d, i);
	if (!err)
		err = be->server(d);
	/* user VNFs last: their veth peers must already have XDP programs */
	for (i = 0; !err && i < s->nr_vnfs; i++)
		if (s->vnfs[i].space == CALVIN_USER)
			err = be->user_vnf(d, i);
	return err;
}

static void print_up(const struct deploy *d)
{
	const struct calvin_chain_spec *s = d->spec;
	char line[512];
	unsigned int i;

	if (calvin_json) {
		printf("{\"chain\":\"%s\",\"up\":true}\n", s->name);
		return;
	}
	printf("chain %s is up: probe", s->name);
	for (i = 0; i < s->nr_vnfs; i++) {
		printf(" -> %s (%s", s->vnfs[i].name, calvin_space_name(s->vnfs[i].space));
		if (d->plan.vnf_cpu[i] >= 0)
			printf(", cpu %d", d->plan.vnf_cpu[i]);
		printf(")");
	}
	printf(" -> %s\n", s->server.name);
	if (backend_describe(s, line, sizeof(line)))
		printf("nodes: %s\n", line);
}

/* Several kernel VNFs on one node need libxdp's multi-program dispatcher;
 * find out before anything is created. */
static int check_shared_nodes(const struct calvin_chain_spec *spec)
{
	struct calvin_node nodes[CALVIN_MAX_NODES];
	unsigned int n = calvin_chain_nodes(spec, nodes), i;

	for (i = 1; i + 1 < n; i++) {
		if (nodes[i].nr_vnfs < 2 || calvin_xdp_dispatcher_available())
			continue;
		calvin_err("%s:%d:%d: node '%s' holds %u kernel VNFs, but this kernel cannot "
			   "load libxdp's multi-program dispatcher; give each VNF a node of its own",
			   spec->path, spec->vnfs[nodes[i].first_vnf + 1].pos.line,
			   spec->vnfs[nodes[i].first_vnf + 1].pos.col, nodes[i].name,
			   nodes[i].nr_vnfs);
		return CALVIN_EXIT_USAGE;
	}
	return 0;
}

/* Key files of encrypt/decrypt VNFs: readable only by their owner, and
 * well-formed, before anything is created (calvin-vnf checks again). */
static int check_key_files(const struct calvin_chain_spec *spec)
{
	char err[CALVIN_ERR_MAX];
	struct calvin_key *k;
	unsigned int i;
	int rc = 0;

	for (i = 0; !rc && i < spec->nr_vnfs; i++) {
		if (spec->vnfs[i].kind != CALVIN_VNF_ENCRYPT &&
		    spec->vnfs[i].kind != CALVIN_VNF_DECRYPT)
			continue;
		k = calvin_key_new();
		if (!k)
			return CALVIN_EXIT_FAIL;
		if (calvin_keyfile_load(spec->vnfs[i].crypt.key_file, k, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			rc = CALVIN_EXIT_USAGE;
		}
		calvin_key_free(k);
	}
	return rc;
}

int chain_up(const struct calvin_chain_spec *spec)
{
	const struct node_backend *be = backend_of(spec);
	struct chain_state state;
	struct deploy d = { .spec = spec, .state = &state };
	int rc, err;

	rc = need_root("calvin up");
	if (rc)
		return rc;
	if (!be) {
		calvin_err("%s: backend %s is not available in this build; use 'backend: netns'",
			   spec->path, calvin_backend_name(spec->backend));
		return CALVIN_EXIT_USAGE;
	}
	err = ensure_bpffs();
	if (err) {
		calvin_err("cannot mount bpffs on /sys/fs/bpf: %s; XDP maps need it", strerror(-err));
		return CALVIN_EXIT_USAGE;
	}
	rc = check_probe_size(spec, spec->probe.size);
	if (!rc)
		rc = be->check(spec);
	if (!rc)
		rc = make_plan(spec, &d.plan);
	if (!rc)
		rc = check_shared_nodes(spec);
	if (!rc)
		rc = check_key_files(spec);
	if (rc)
		return rc;
	d.nr_nodes = calvin_chain_nodes(spec, d.nodes);
	err = state_create(&state, spec->name);
	if (err == -EEXIST)
		return chain_update(spec);
	if (err == -EBUSY) {
		calvin_err("chain '%s' is being changed by another calvin; try again", spec->name);
		return CALVIN_EXIT_USAGE;
	} else if (err) {
		calvin_err("cannot create the state of chain '%s' in %s: %s", spec->name,
			   calvin_run_dir(), strerror(-err));
		return CALVIN_EXIT_FAIL;
	}
	err = deploy(&d, be);
	if (err) {
		/* nothing half-created: undo what the journal says was started */
		be->destroy(&state);
		state_close(&state, true);
		return err == -EOPNOTSUPP ? CALVIN_EXIT_USAGE : CALVIN_EXIT_FAIL;
	}
	state_close(&state, false);
	print_up(&d);
	return 0;
}

int cmd_up(int argc, char **argv)
{
	struct calvin_chain_spec spec;
	int rc;

	if (argc != 2) {
		calvin_err("usage: calvin up CHAIN.yaml");
		return CALVIN_EXIT_USAGE;
	}
	rc = load_spec(argv[1], &spec);
	return rc ? rc : chain_up(&spec);
}
