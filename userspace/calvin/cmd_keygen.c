// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin keygen FILE: a new random key file for encrypt/decrypt VNFs
 * (mode 0600, never overwrites): a long-term key, from which each
 * deployment derives its traffic keys. */
#include <stdio.h>

#include "codec/codec.h"
#include "commands.h"
#include "jout.h"
#include "util.h"
#include "util/util.h"

int cmd_keygen(const struct cmd_args *a)
{
	char err[CALVIN_ERR_MAX];

	jw_str(jout(), "file", a->arg[0]);
	if (calvin_keyfile_check_place(a->arg[0], err, sizeof(err)) ||
	    calvin_keyfile_generate(a->arg[0], err, sizeof(err))) {
		calvin_err_line(err);
		jw_bool(jout(), "created", false);
		return CALVIN_EXIT_USAGE;
	}
	jw_bool(jout(), "created", true);
	if (!calvin_json)
		printf("%s: new long-term key, mode 0600\n", a->arg[0]);
	return 0;
}
