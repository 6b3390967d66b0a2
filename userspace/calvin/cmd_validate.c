// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin validate CHAIN.yaml: parse and check a spec and its key files,
 * then whether this host can run it, with the checks `up` makes before it
 * creates anything; create nothing, need no root. Exit 0: valid (and
 * runnable here, as far as could be checked); 2: invalid; 4: valid, but
 * this host cannot run it. */
#include <inttypes.h>
#include <stdio.h>

#include "commands.h"
#include "util.h"

int cmd_validate(const struct cmd_args *a)
{
	const char *path = a->arg[0];
	struct calvin_chain_spec spec;
	char unchecked[256];
	int rc;

	rc = load_spec(path, &spec);
	if (!rc)
		rc = chain_check(&spec, true, NULL, unchecked, sizeof(unchecked));
	if (rc)
		return rc;
	if (calvin_json)
		printf("{\"file\":\"%s\",\"valid\":true,\"chain\":\"%s\",\"vnfs\":%u,"
		       "\"budget_ns\":%" PRIu64 ",\"unchecked\":\"%s\"}\n",
		       path, spec.name, spec.nr_vnfs, spec.budget_ns, unchecked);
	else
		printf("%s: chain %s is valid: %u VNF%s, budget %.3f us%s%s\n", path, spec.name,
		       spec.nr_vnfs, spec.nr_vnfs == 1 ? "" : "s", spec.budget_ns / 1e3,
		       unchecked[0] ? "; " : "", unchecked);
	return 0;
}
