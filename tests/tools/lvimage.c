// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* lvimage: userspace/calvin/libvirt/storage.c from the command line, for
 * tests/multihost/test_lv_image.sh, until `calvin up` places VMs on
 * remote hosts itself:
 *
 *   lvimage put CHAIN URI FILE...  journal (CALVIN_RUN_DIR/CHAIN.state, as
 *                                  up starts one) and put each FILE into the
 *                                  pool at URI: prints "uploaded PATH" or
 *                                  "reused PATH", one a line
 *
 * `calvin down [--images] CHAIN` removes what it made, as for a deployed
 * chain. CALVIN_CRASH_AFTER=N kills it after the N-th journal entry. */
#include <stdio.h>
#include <string.h>

#include "libvirt/storage.h"
#include "journal_start.h"
#include "state.h"
#include "util.h"

static int put(const char *chain, const char *uri, char **files, int nr)
{
	static struct chain_state s;
	char path[4096];
	bool reused;
	int err, i;

	err = tool_journal_start(&s, chain);
	if (err)
		return err;
	for (i = 0; !err && i < nr; i++) {
		err = lv_image_put(&s, uri, files[i], path, sizeof(path), &reused);
		if (!err)
			printf("%s %s\n", reused ? "reused" : "uploaded", path);
	}
	state_close(&s, false);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "put"))
		return put(argv[2], argv[3], argv + 4, argc - 4);
	fprintf(stderr, "usage: lvimage put CHAIN URI FILE...\n");
	return 2;
}
