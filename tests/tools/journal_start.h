/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The test tools that drive one module of a deployment (ovnlink, lvimage)
 * start a chain's journal as `calvin up` does, so `calvin down CHAIN`
 * removes what they made. */
#ifndef CALVIN_TOOLS_JOURNAL_START_H
#define CALVIN_TOOLS_JOURNAL_START_H

#include <string.h>

#include "state.h"
#include "util.h"

/* backend: the one whose tear-down `down` runs (netns: it meets nothing
 * of a module's own entries and reaches no libvirt; libvirt: it removes
 * journalled domains). 0, or an exit code with the error said. */
static inline int tool_journal_start(struct chain_state *s, const char *chain, const char *backend)
{
	int err;

	if (state_dir_check(true))
		return 2;
	err = state_create(s, chain);
	if (!err)
		err = state_add(s, ST_BACKEND, backend, NULL, 0, 0);
	if (err) {
		calvin_err("cannot journal chain %s: %s", chain, strerror(-err));
		return 1;
	}
	return 0;
}

#endif /* CALVIN_TOOLS_JOURNAL_START_H */
