// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin plan CHAIN.yaml: the CPU placement a deployment would use, and
 * what it was made from. */
#include <json-c/json.h>
#include <stdio.h>

#include "backend.h"
#include "commands.h"
#include "hosts.h"
#include "jout.h"
#include "util.h"

/* -j: the plan object, with what hosts_show() put (hosts, where, ovn_nb)
 * and each other host's part of the plan as remote_hosts. */
static void plan_json(const struct calvin_chain_spec *spec,
		      const struct calvin_topology *const *hosts, const struct calvin_plan *plan)
{
	struct json_object *shown = jout_take(), *o = calvin_plan_jobj(spec, hosts[0], plan);
	static const char *const keys[] = { "hosts", "where", "ovn_nb" };
	struct json_object *v;
	unsigned int i;

	for (i = 0; o && shown && i < sizeof(keys) / sizeof(keys[0]); i++)
		if (json_object_object_get_ex(shown, keys[i], &v))
			json_object_object_add(o, keys[i], json_object_get(v));
	json_object_put(shown);
	if (o && spec->nr_hosts)
		json_object_object_add(o, "remote_hosts",
				       calvin_plan_remote_jobj(spec, hosts, plan));
	jout_set(o);
}

static int plan_spec(const struct cmd_args *a, struct calvin_chain_spec *spec)
{
	const struct calvin_topology *const *hosts;
	struct calvin_plan plan;
	char line[512];
	int rc;

	rc = load_spec(a->arg[0], spec);
	if (!rc)
		hosts_show(spec);
	/* this host's CPUs, and each other host's through its libvirt */
	if (!rc)
		rc = make_plan(spec, &plan, &hosts);
	if (rc)
		return rc;
	if (calvin_json) {
		plan_json(spec, hosts, &plan);
		return 0;
	}
	calvin_plan_print_text(stdout, spec, hosts[0], &plan);
	calvin_plan_print_remote_text(stdout, spec, hosts, &plan);
	/* what the nodes are (VMs, and on which accelerator) */
	if (backend_describe(spec, line, sizeof(line)))
		printf("nodes: %s\n", line);
	return 0;
}

int cmd_plan(const struct cmd_args *a)
{
	return with_spec(plan_spec, a);
}
