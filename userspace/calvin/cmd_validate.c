// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin validate CHAIN.yaml: parse and check a spec and its key files;
 * create nothing, need no root. */
#include <inttypes.h>
#include <stdio.h>

#include "commands.h"
#include "util.h"

int cmd_validate(const struct cmd_args *a)
{
	const char *path = a->arg[0];
	struct calvin_chain_spec spec;
	int rc;

	rc = load_spec(path, &spec);
	if (!rc)
		rc = check_key_files(&spec);
	if (!rc)
		rc = check_vm_image(&spec);
	if (rc)
		return rc;
	if (calvin_json)
		printf("{\"file\":\"%s\",\"valid\":true,\"chain\":\"%s\",\"vnfs\":%u,"
		       "\"budget_ns\":%" PRIu64 "}\n",
		       path, spec.name, spec.nr_vnfs, spec.budget_ns);
	else
		printf("%s: chain %s is valid: %u VNF%s, budget %.3f us\n", path, spec.name,
		       spec.nr_vnfs, spec.nr_vnfs == 1 ? "" : "s", spec.budget_ns / 1e3);
	return 0;
}
