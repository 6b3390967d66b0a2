// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A chain's tear-down: everything its journal names, its supervisor
 * first, then isolation, then what its backend made; harmless when it is not deployed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "chain/chain.h"
#include "commands.h"
#include "isolate/isolate.h"
#include "supervise/supervise.h"
#include "libvirt/storage.h"
#include "ovn/ovn.h"
#include "util.h"

bool chain_down_images;

int chain_undo(const struct node_backend *be, struct chain_state *s)
{
	struct isolate_host h;
	int err, e;

	/* the supervisor first: it must not heal what goes now */
	supervise_stop(s);
	/* host-wide isolation next: it matters to every task on the host,
	 * and is restored even where the backend cannot finish */
	err = isolate_host_detect(&h);
	if (!err)
		err = isolation_down(&h, s);
	e = be->destroy(s);
	/* this host's ports on its Open vSwitch, then the links between
	 * hosts: another host's traffic, after the nodes */
	if (!e)
		e = ovs_ports_destroy(s);
	if (!e)
		e = ovn_links_destroy(s);
	/* guest images on remote hosts: kept as a cache unless asked */
	if (!e)
		e = lv_images_down(s, chain_down_images);
	return err ? err : e;
}

int chain_down(const char *chain)
{
	const struct node_backend *be;
	struct chain_state state;
	int err;

	if (check_name("chain", chain))
		return CALVIN_EXIT_USAGE;
	err = state_open(&state, chain);
	if (err == -ENOENT)
		return 0; /* not deployed, or already down */
	if (err == -EBUSY) {
		calvin_err("chain '%s' is being changed by another calvin; try again", chain);
		return CALVIN_EXIT_FAIL;
	}
	if (err) {
		calvin_err("cannot read the state of chain '%s': %s", chain, strerror(-err));
		return CALVIN_EXIT_FAIL;
	}
	be = backend_of_state(&state);
	if (!be) {
		calvin_err("chain '%s' was deployed by backend '%s', which this build lacks", chain,
			   state.e[0].name);
		state_close(&state, false);
		return CALVIN_EXIT_FAIL;
	}
	err = chain_undo(be, &state);
	/* a journal is only dropped once everything it names is gone */
	state_close(&state, err == 0);
	rmdir("/sys/fs/bpf/calvin");
	return err ? CALVIN_EXIT_FAIL : 0;
}
