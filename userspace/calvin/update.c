// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* `calvin up` of a chain that is already deployed: when only the
 * parameters of kernel VNFs changed (acl rules, routes, rates, impairments),
 * they are applied to the running programs through their pinned maps, and
 * traffic the change does not touch keeps flowing. The comparison is by
 * meaning (userspace/lib/chainspec_diff.h): an edit that only moves lines
 * changes nothing, and an acl keeps its hit counters. Anything else that
 * changed needs a `calvin down` first, and is refused in one line. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "chainspec_diff.h"
#include "commands.h"
#include "jout.h"
#include "jsonw.h"
#include "kvnf.h"
#include "util.h"

static bool updatable(const struct calvin_vnf_spec *v)
{
	return v->space == CALVIN_KERNEL && calvin_kvnf_updatable(v->kind);
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

/* Apply the changed parameters, naming each VNF on the line (or, under
 * -j, in names); returns how many VNFs changed, or -errno. */
static int apply(const struct calvin_chain_spec *spec, const struct calvin_spec_diff *d,
		 struct json_object *names)
{
	const struct calvin_vnf_spec *v;
	unsigned int i;
	int err = 0, n = 0;

	for (i = 0; i < spec->nr_vnfs; i++) {
		v = &spec->vnfs[i];
		if (!d->params[i])
			continue;
		err = backend_of(spec)->kernel_update(spec, i);
		if (err) {
			calvin_err("%s: Failed to update %s: %s", v->name,
				   calvin_vnf_kind_name(v->kind), strerror(-err));
			break;
		}
		if (names)
			jw_push(names, json_object_new_string(v->name));
		else
			printf("%s%s", n ? ", " : "", v->name);
		n++;
	}
	return err ? err : n;
}

/* The deployed copy of the file follows the new one, moved lines
 * included, so that `status` shows the rules' lines as they are now. It
 * is replaced whole (a reader never sees half of it), through the chain's
 * own directory, which `down` removes. */
static void refresh_copy(const struct calvin_chain_spec *spec, const char *copy)
{
	char tmp[PATH_MAX], why[CALVIN_ERR_MAX];

	if (state_file(tmp, sizeof(tmp), spec->name, ".d/spec.yaml") ||
	    calvin_spec_copy(spec->path, tmp, why, sizeof(why)) || rename(tmp, copy))
		calvin_err("cannot update %s; status shows the lines of the file as it was", copy);
}

/* Returns an exit code. */
static int update(const struct calvin_chain_spec *spec, const struct calvin_spec_diff *d)
{
	struct json_object *names = calvin_json ? jw_arr() : NULL;
	int n = 0;

	if (!calvin_json)
		printf("chain %s: updated ", spec->name);
	if (d->nr_params)
		n = apply(spec, d, names);
	/* -j: the VNFs updated, also those before one that failed */
	jw_str(jout(), "chain", spec->name);
	jw_add(jout(), "updated", names);
	jw_bool(jout(), "settings_updated", n >= 0 && d->settings);
	jw_bool(jout(), "up", true);
	if (calvin_json)
		return n < 0 ? CALVIN_EXIT_FAIL : 0;
	if (n >= 0 && d->settings)
		printf("%sbudget and probe defaults", n > 0 ? "; " : "");
	printf("\n");
	return n < 0 ? CALVIN_EXIT_FAIL : 0;
}

int chain_update(const struct calvin_chain_spec *spec)
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
	if (d.nr_params || d.settings)
		rc = update(spec, &d);
	/* moved lines alone are no change, but status shows the new lines */
	if (!rc)
		refresh_copy(spec, copy);
	state_close(&state, false);
	if (!rc && !d.nr_params && !d.settings) {
		calvin_err("chain '%s' is already deployed with the same parameters; to deploy it "
			   "anew, run 'calvin down %s' first",
			   spec->name, spec->name);
		rc = CALVIN_EXIT_USAGE;
	}
out:
	free(old);
	return rc;
}
