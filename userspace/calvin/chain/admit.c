// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Admission by budget (`calvin up --admit`). The chain is deployed, probed
 * briefly, and kept only if its p99 RTT is within its budget and no probe
 * was lost; otherwise it is torn down again and the report says which hop
 * or link spent the budget. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "chain/chain.h"
#include "commands.h"
#include "jout.h"
#include "state.h"
#include "util.h"
#include "util/util.h"

/* A short paced run unless -c, -r, -p, -s say otherwise: a fifth of a
 * second at the haptic rate, enough for a p99 of 200 samples. */
#define ADMIT_COUNT 200

/* The last line: the chain stays up, or is down again (or, when the
 * tear-down failed, what to do). */
static void admit_say(const struct calvin_chain_spec *spec, bool admitted, int down)
{
	if (calvin_json) {
		/* the members of up's and probe's, and the outcome */
		jw_str(jout(), "chain", spec->name);
		jw_bool(jout(), "admitted", admitted);
		jw_bool(jout(), "up", admitted || down);
	} else if (admitted) {
		printf("admitted: chain %s is within its budget and stays up\n", spec->name);
	} else {
		printf("not admitted: chain %s is %s\n", spec->name,
		       down ? "not fully down: run 'calvin down' for it" : "down again");
	}
}

int chain_admit(const struct calvin_chain_spec *spec, const struct probe_args *given)
{
	struct probe_args a;
	int rc, down;

	probe_args_apply(spec, given, &a);
	a.p.count = given->p.count ? given->p.count : ADMIT_COUNT;
	a.p.mode = given->p.mode ? given->p.mode : CALVIN_PROBE_PACED;
	a.check = true;
	rc = calvin_quit ? CALVIN_EXIT_FAIL : chain_probe(spec, &a);
	fflush(stdout);
	if (!rc && !calvin_quit) {
		admit_say(spec, true, 0);
		return 0;
	}
	down = chain_down(spec->name);
	if (calvin_quit) {
		jw_bool(jout(), "admitted", false);
		jw_bool(jout(), "up", down);
		calvin_err("interrupted; chain %s was not admitted, and is %s", spec->name,
			   down ? "not fully down: run 'calvin down' again" : "down");
		return quit_status();
	}
	admit_say(spec, false, down);
	return rc ? rc : CALVIN_EXIT_FAIL;
}
