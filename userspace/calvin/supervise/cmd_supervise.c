// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin supervise CHAIN: watch and heal a deployed chain until SIGTERM
 * (`calvin down` sends it, before it removes anything). `up` starts it;
 * systemd's calvin-supervise@.service can too. */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "events/events.h"
#include "sup.h"
#include "util.h"

static void said(const struct sup *s, const char *kind)
{
	struct json_object *f = json_object_new_object();

	if (f)
		json_object_object_add(f, "pid", json_object_new_int(getpid()));
	events_append(s->spec.name, kind, f);
	json_object_put(f);
}

int cmd_supervise(const struct cmd_args *a)
{
	static struct sup s;
	int rc;

	rc = check_name("chain", a->arg[0]);
	if (!rc)
		rc = need_root("calvin supervise");
	if (rc)
		return rc;
	catch_quit_signals();
	rc = sup_load(&s, a->arg[0]);
	if (rc)
		return rc;
	s.exits = sup_exits_open();
	if (s.exits < 0)
		fprintf(stderr,
			"calvin: the exit causes of VNFs up started are unknown: process "
			"events connector: %s\n",
			strerror(-s.exits));
	rc = sup_links_open(&s);
	if (rc) {
		fprintf(stderr, "calvin: the links of chain %s are not watched: %s\n", a->arg[0],
			strerror(-rc));
		sup_links_close(&s);
	}
	said(&s, "supervisor-started");
	rc = sup_watch(&s) ? CALVIN_EXIT_FAIL : 0;
	said(&s, "supervisor-stopped");
	sup_vm_close(&s);
	sup_links_close(&s);
	calvin_keyring_clear(&s.keys);
	return rc;
}
