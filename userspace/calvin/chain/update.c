// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* `calvin up` of a chain that is already deployed: when only the
 * parameters of kernel VNFs changed (acl rules, routes, rates, impairments),
 * they are applied to the running programs through their pinned maps, and
 * traffic the change does not touch keeps flowing. The comparison is by
 * meaning (userspace/lib/spec/spec.h): an edit that only moves lines
 * changes nothing, and an acl keeps its hit counters; an `up` that
 * changes nothing says so and succeeds. Anything else that changed needs
 * a `calvin down` first, and is refused in one line. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "chain/chain.h"
#include "commands.h"
#include "guest/guest.h"
#include "jout.h"
#include "kvnf.h"
#include "spec/spec.h"
#include "supervise/supervise.h"
#include "util.h"
#include "util/util.h"

static bool updatable(const struct calvin_vnf_spec *v)
{
	int kind = calvin_kvnf_kind_of(v->kind);

	return v->space == CALVIN_KERNEL && kind >= 0 && calvin_kvnf_updatable(kind);
}

/* One line for what the running chain cannot take; 0 if it can take it all. */
static int refuse(const struct calvin_chain_spec *spec, const struct calvin_spec_diff *d)
{
	const struct calvin_vnf_spec *v;
	unsigned int i;

	if (d->refused[0]) {
		calvin_err("chain '%s' is deployed with another %s; run 'calvin down %s' first",
			   spec->name, d->refused, spec->name);
		return CALVIN_EXIT_USAGE;
	}
	for (i = 0; i < spec->nr_vnfs; i++) {
		v = &spec->vnfs[i];
		if (!d->params[i] || updatable(v))
			continue;
		calvin_err("chain '%s': the parameters of %s VNF %s (%s) cannot change while it "
			   "runs; run 'calvin down %s' first",
			   spec->name, calvin_space_name(v->space), v->name,
			   calvin_vnf_kind_name(v->kind), spec->name);
		return CALVIN_EXIT_USAGE;
	}
	return 0;
}

/* Apply the changed parameters; 0 or -errno after one line. */
static int apply(const struct calvin_chain_spec *spec, const struct calvin_spec_diff *d)
{
	const struct calvin_vnf_spec *v;
	unsigned int i;
	int err;

	for (i = 0; i < spec->nr_vnfs; i++) {
		v = &spec->vnfs[i];
		if (!d->params[i])
			continue;
		err = backend_of(spec)->kernel_update(spec, i);
		if (err) {
			calvin_err("%s: Failed to update %s: %s", v->name,
				   calvin_vnf_kind_name(v->kind), strerror(-err));
			return err;
		}
	}
	return 0;
}

/* What `up` did to the deployed chain, in one line (or, under -j, in the
 * command's document): the VNFs updated, the settings taken, or nothing. */
static void print_update(const struct calvin_chain_spec *spec, const struct calvin_spec_diff *d)
{
	struct json_object *names = calvin_json ? jw_arr() : NULL;
	const char *what = "";
	unsigned int i, n = 0;

	if (!calvin_json && !d->nr_params && !d->settings)
		printf("chain %s is up and unchanged", spec->name);
	else if (!calvin_json)
		printf("chain %s: updated ", spec->name);
	for (i = 0; i < spec->nr_vnfs; i++) {
		if (!d->params[i])
			continue;
		if (names)
			jw_push(names, json_object_new_string(spec->vnfs[i].name));
		else
			printf("%s%s", n ? ", " : "", spec->vnfs[i].name);
		n++;
	}
	jw_str(jout(), "chain", spec->name);
	jw_bool(jout(), "up", true);
	jw_bool(jout(), "unchanged", !d->nr_params && !d->settings);
	jw_add(jout(), "updated", names);
	jw_bool(jout(), "settings", d->settings);
	if (d->supervise)
		what = "settings (restart limits: a new supervisor)";
	else if (d->settings)
		what = "budget and probe defaults";
	if (!calvin_json)
		printf("%s%s\n", d->settings && n ? "; " : "", what);
}

/* The deployed copy of the file follows the new one, moved lines
 * included, so that `status` shows the rules' lines as they are now. It
 * is replaced whole (a reader never sees half of it), through the chain's
 * own directory, which `down` removes. */
static void refresh_copy(const struct calvin_spec_text *text, const char *name, const char *copy)
{
	char tmp[PATH_MAX], why[CALVIN_ERR_MAX];

	if (state_file(tmp, sizeof(tmp), name, ".d/spec.yaml") ||
	    calvin_spec_text_write(text, copy, tmp, why, sizeof(why)))
		calvin_err("cannot update %s; status shows the lines of the file as it was", copy);
}

/* New restart limits: the running supervisor has the old ones, so it
 * goes (unlocked, as it may be journalling a restart), and up's
 * supervise_attach() starts one that reads the new copy. The data path
 * stays as it is. */
static void supervisor_retire(const char *chain)
{
	struct chain_state *st = malloc(sizeof(*st));

	if (st && !state_peek(st, chain))
		supervise_stop(st);
	free(st);
}

int chain_update(const struct calvin_chain_spec *spec, const struct calvin_spec_text *text)
{
	struct calvin_chain_spec *old = calloc(1, sizeof(*old));
	struct calvin_spec_diff d;
	struct chain_state state;
	char err[CALVIN_ERR_MAX], copy[PATH_MAX];
	int rc = CALVIN_EXIT_USAGE;

	if (!old)
		return CALVIN_EXIT_FAIL;
	if (state_file(copy, sizeof(copy), spec->name, ".yaml") ||
	    calvin_spec_load(copy, old, err, sizeof(err))) {
		/* a deployment that was interrupted before its spec was saved */
		calvin_err("chain '%s' is already deployed; run 'calvin down %s' first", spec->name,
			   spec->name);
		goto out;
	}
	calvin_spec_diff(old, spec, &d);
	rc = refuse(spec, &d);
	if (rc)
		goto out;
	if (state_open(&state, spec->name)) {
		calvin_err("chain '%s' is being changed by another calvin; try again", spec->name);
		rc = CALVIN_EXIT_USAGE;
		goto out;
	}
	rc = apply(spec, &d) ? CALVIN_EXIT_FAIL : 0;
	/* moved lines alone are no change, but status shows the new lines */
	if (!rc) {
		refresh_copy(text, spec->name, copy);
		print_update(spec, &d);
	}
	state_close(&state, false);
	if (!rc && d.supervise)
		supervisor_retire(spec->name);
out:
	free(old);
	return rc;
}
