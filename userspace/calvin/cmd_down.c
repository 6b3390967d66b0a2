// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin down CHAIN | --all: remove everything a deployment made. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "bench/calvin/bench.h"
#include "commands.h"
#include "isolate/isolate.h"
#include "jout.h"
#include "ovn/ovn.h"
#include "util.h"
#include "util/util.h"

int chain_undo(const struct node_backend *be, struct chain_state *s)
{
	struct isolate_host h;
	int err, e;

	/* host-wide isolation first: it matters to every task on the host,
	 * and is restored even where the backend cannot finish */
	err = isolate_host_detect(&h);
	if (!err)
		err = isolation_down(&h, s);
	e = be->destroy(s);
	/* links between hosts: another host's traffic, after the nodes */
	if (!e)
		e = ovn_links_destroy(s);
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
		calvin_err("chain '%s' was deployed by backend '%s', which this build lacks",
			   chain, state.e[0].name);
		state_close(&state, false);
		return CALVIN_EXIT_FAIL;
	}
	err = chain_undo(be, &state);
	/* a journal is only dropped once everything it names is gone */
	state_close(&state, err == 0);
	rmdir("/sys/fs/bpf/calvin");
	return err ? CALVIN_EXIT_FAIL : 0;
}

static int down_all(void)
{
	struct json_object *chains = calvin_json ? jw_arr() : NULL;
	struct dirent *de;
	int rc = 0, r;
	size_t n;
	DIR *dir;

	/* what a killed calvin bench started and deployed (a running one
	 * keeps its own: -EBUSY) */
	r = bench_journal_recover();
	if (r && r != -EBUSY)
		rc = CALVIN_EXIT_FAIL;
	dir = opendir(calvin_run_dir());
	while (dir && (de = readdir(dir))) {
		n = strlen(de->d_name);
		if (n <= 6 || strcmp(de->d_name + n - 6, ".state"))
			continue;
		de->d_name[n - 6] = '\0';
		if (!calvin_name_valid(de->d_name))
			continue; /* not a journal calvin wrote */
		jw_push(chains, json_object_new_string(de->d_name));
		r = chain_down(de->d_name);
		if (r)
			rc = r;
	}
	if (dir)
		closedir(dir);
	/* -j: {"chains": [what was deployed], "down": true when all is gone} */
	jw_add(jout(), "chains", chains);
	return rc;
}

const struct option down_options[] = {
	{ "all", no_argument, NULL, 'A' },
	{ NULL, 0, NULL, 0 },
};

int down_option(struct cmd_args *a, int c, const char *arg)
{
	a->all = true;
	return 0;
}

int cmd_down(const struct cmd_args *a)
{
	int rc;

	if (a->all == (a->nr == 1)) {
		calvin_err("usage: calvin down CHAIN | --all");
		return CALVIN_EXIT_USAGE;
	}
	rc = a->all ? 0 : check_name("chain", a->arg[0]);
	if (!rc)
		rc = need_root("calvin down");
	if (!rc)
		rc = state_dir_check(false);
	if (rc)
		return rc;
	if (!a->all)
		jw_str(jout(), "chain", a->arg[0]);
	rc = a->all ? down_all() : chain_down(a->arg[0]);
	jw_bool(jout(), "down", !rc);
	return rc;
}
