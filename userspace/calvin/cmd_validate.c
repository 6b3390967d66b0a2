// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin validate CHAIN.yaml: parse and check a spec and its key files,
 * then whether this host can run it, with the checks `up` makes before it
 * creates anything; create nothing, need no root. Exit 0: valid (and
 * runnable here, as far as could be checked); 2: invalid; 4: valid, but
 * this host cannot run it. */
#include <stdio.h>

#include "chain/chain.h"
#include "commands.h"
#include "hosts.h"
#include "jout.h"
#include "util.h"
#include "util/util.h"

static int validate_spec(const struct cmd_args *a, struct calvin_chain_spec *spec)
{
	const char *path = a->arg[0];
	char unchecked[256];
	int rc;

	jw_str(jout(), "file", path);
	rc = load_spec(path, spec);
	if (!rc)
		hosts_show(spec);
	if (!rc)
		rc = chain_check(spec, true, NULL, unchecked, sizeof(unchecked));
	/* exit 4: the file is valid, this host is what falls short */
	jw_bool(jout(), "valid", !rc || rc == CALVIN_EXIT_HOST);
	if (rc == CALVIN_EXIT_HOST)
		jw_bool(jout(), "runnable", false);
	if (rc)
		return rc;
	if (calvin_json) {
		jw_bool(jout(), "runnable", true);
		jw_str(jout(), "chain", spec->name);
		jw_u64(jout(), "vnfs", spec->nr_vnfs);
		jw_u64(jout(), "budget_ns", spec->budget_ns);
		jw_str(jout(), "unchecked", unchecked);
	} else {
		printf("%s: chain %s is valid: %u VNF%s, budget %.3f us%s%s\n", path, spec->name,
		       spec->nr_vnfs, spec->nr_vnfs == 1 ? "" : "s", spec->budget_ns / 1e3,
		       unchecked[0] ? "; " : "", unchecked);
	}
	return 0;
}

int cmd_validate(const struct cmd_args *a)
{
	return with_spec(validate_spec, a);
}
