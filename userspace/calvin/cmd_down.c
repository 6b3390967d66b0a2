// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin down CHAIN | --all: remove everything a deployment made. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "bench/calvin/bench.h"
#include "chain/chain.h"
#include "commands.h"
#include "isolate/isolate.h"
#include "jout.h"
#include "util.h"
#include "util/util.h"

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
	{ "images", no_argument, NULL, 'I' },
	{ NULL, 0, NULL, 0 },
};

/* down's own: --all, --images */
static bool all;

int down_option(int c, const char *arg)
{
	if (c == 'I')
		chain_down_images = true;
	else
		all = true;
	return 0;
}

int cmd_down(const struct cmd_args *a)
{
	int rc;

	if (all == (a->nr == 1)) {
		calvin_err("usage: calvin down CHAIN | --all [--images]");
		return CALVIN_EXIT_USAGE;
	}
	rc = all ? 0 : check_name("chain", a->arg[0]);
	if (!rc)
		rc = need_root("calvin down");
	if (!rc)
		rc = state_dir_check(false);
	if (rc)
		return rc;
	if (!all)
		jw_str(jout(), "chain", a->arg[0]);
	rc = all ? down_all() : chain_down(a->arg[0]);
	jw_bool(jout(), "down", !rc);
	return rc;
}
