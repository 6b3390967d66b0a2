// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* `calvin up` of a chain that is already deployed: when only the
 * parameters of kernel VNFs changed (acl rules, routes, rates, impairments),
 * they are applied to the running programs through their pinned maps, and
 * traffic the change does not touch keeps flowing. Anything else needs a
 * `calvin down` first. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "commands.h"
#include "kvnf.h"
#include "util.h"

/* The bytes of a VNF spec's parameter union. */
#define PARAMS_LEN (offsetof(struct calvin_vnf_spec, pos) - offsetof(struct calvin_vnf_spec, acl))

static bool updatable(const struct calvin_vnf_spec *v)
{
	return v->space == CALVIN_KERNEL && calvin_kvnf_updatable(v->kind);
}

/* The same VNFs, nodes, kinds and ports: the deployment itself stands.
 * Names the first difference in why. */
static bool same_layout(const struct calvin_chain_spec *a, const struct calvin_chain_spec *b,
			char *why, size_t len)
{
	const struct calvin_vnf_spec *x, *y;
	unsigned int i;

	if (a->nr_vnfs != b->nr_vnfs || strcmp(a->server.name, b->server.name) ||
	    a->probe.port != b->probe.port || a->placement != b->placement ||
	    a->realtime.sched != b->realtime.sched ||
	    a->realtime.priority != b->realtime.priority ||
	    a->realtime.lock_memory != b->realtime.lock_memory) {
		snprintf(why, len,
			 "its VNF list, server, probe port, placement or realtime options");
		return false;
	}
	for (i = 0; i < a->nr_vnfs; i++) {
		x = &a->vnfs[i];
		y = &b->vnfs[i];
		if (strcmp(x->name, y->name) || strcmp(calvin_vnf_node(x), calvin_vnf_node(y)) ||
		    x->kind != y->kind || x->space != y->space || x->burst != y->burst ||
		    x->pmd != y->pmd) {
			snprintf(why, len, "VNF %s", y->name);
			return false;
		}
		if (!updatable(x) && memcmp(&x->acl, &y->acl, PARAMS_LEN)) {
			snprintf(why, len, "the parameters of %s, which cannot change live", y->name);
			return false;
		}
	}
	return true;
}

static bool changed(const struct calvin_chain_spec *old, const struct calvin_chain_spec *new,
		    unsigned int i)
{
	return updatable(&new->vnfs[i]) &&
	       memcmp(&old->vnfs[i].acl, &new->vnfs[i].acl, PARAMS_LEN);
}

/* Apply the changed parameters; returns how many VNFs changed, or -errno. */
static int apply(const struct calvin_chain_spec *old, const struct calvin_chain_spec *new)
{
	const struct calvin_vnf_spec *v;
	unsigned int i;
	int err, n = 0;

	for (i = 0; i < new->nr_vnfs; i++) {
		v = &new->vnfs[i];
		if (!changed(old, new, i))
			continue;
		err = backend_of(new)->kernel_update(new, i);
		if (err) {
			calvin_err("%s: Failed to update %s: %s", v->name,
				   calvin_vnf_kind_name(v->kind), strerror(-err));
			return err;
		}
		printf("%s%s", n ? ", " : "", v->name);
		n++;
	}
	return n;
}

int chain_update(const struct calvin_chain_spec *spec)
{
	struct calvin_chain_spec *old = calloc(1, sizeof(*old));
	struct chain_state state;
	char why[256], copy[PATH_MAX];
	int rc = CALVIN_EXIT_USAGE, n;
	unsigned int i;

	if (!old)
		return CALVIN_EXIT_FAIL;
	state_file(copy, sizeof(copy), spec->name, ".yaml");
	if (calvin_spec_load(copy, old, why, sizeof(why))) {
		/* a deployment that was interrupted before its spec was saved */
		calvin_err("chain '%s' is already deployed; run 'calvin down %s' first", spec->name,
			   spec->name);
		goto out;
	}
	if (!same_layout(old, spec, why, sizeof(why))) {
		calvin_err("chain '%s' is deployed with a different %s; run 'calvin down %s' "
			   "first",
			   spec->name, why, spec->name);
		goto out;
	}
	for (i = 0, n = 0; i < spec->nr_vnfs; i++)
		n += changed(old, spec, i);
	if (n == 0) {
		calvin_err("chain '%s' is already deployed; run 'calvin down %s' first", spec->name,
			   spec->name);
		goto out;
	}
	if (state_open(&state, spec->name)) {
		calvin_err("chain '%s' is being changed by another calvin; try again", spec->name);
		goto out;
	}
	printf("chain %s: updated ", spec->name);
	n = apply(old, spec);
	printf("\n");
	rc = n < 0 ? CALVIN_EXIT_FAIL : 0;
	if (n > 0 && copy_file(spec->path, copy))
		calvin_err("cannot update %s; the next update compares with the old spec", copy);
	state_close(&state, false);
out:
	free(old);
	return rc;
}
