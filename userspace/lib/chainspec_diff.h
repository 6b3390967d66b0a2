/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* What changed between the chain file a chain was deployed with and a new
 * one, by meaning: each kind's parameters field by field, never where they
 * were written (a comment line that moves an acl's rules down changes
 * nothing), never padding or the unused bytes of the parameter union. Pure:
 * `calvin up` of a deployed chain (userspace/calvin/update.c) decides from
 * it what to update in place and what to refuse. */
#ifndef CALVIN_LIB_CHAINSPEC_DIFF_H
#define CALVIN_LIB_CHAINSPEC_DIFF_H

#include <stdbool.h>

#include "chainspec.h"

#define CALVIN_DIFF_WHAT_MAX 160

struct calvin_spec_diff {
	/* A change to the deployment itself (backend, placement, probe port,
	 * server, the VNF list, a VNF's node, space, burst or PMD), in words
	 * for one line, e.g. "server kind (deployed: echo, file: reflect)";
	 * empty when there is none. Only the first one found is named. */
	char refused[CALVIN_DIFF_WHAT_MAX];
	/* VNFs, by index, whose kind's parameters changed */
	bool params[CALVIN_MAX_VNFS];
	unsigned int nr_params;
	/* the budget or the probe defaults changed: nothing deployed uses them */
	bool settings;
};

/* Compare the deployed spec old with new. When refused is set, params and
 * settings are not filled in. */
void calvin_spec_diff(const struct calvin_chain_spec *old, const struct calvin_chain_spec *new,
		      struct calvin_spec_diff *d);

/* Do two VNFs of the same kind have the same parameters? */
bool calvin_vnf_params_equal(const struct calvin_vnf_spec *a, const struct calvin_vnf_spec *b);

#endif /* CALVIN_LIB_CHAINSPEC_DIFF_H */
