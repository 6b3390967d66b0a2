// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chains across hosts (issue 16), as far as this build takes them: what
 * runs where, said by validate and plan, and the refusal to deploy a
 * chain with a node on another host until its deployment exists. */
#include <json-c/json.h>
#include <stdio.h>

#include "backend.h"
#include "commands.h"
#include "hosts.h"
#include "jout.h"
#include "util/util.h"

void hosts_show(const struct calvin_chain_spec *spec)
{
	char where[1024];
	struct json_object *hosts, *h;
	unsigned int i;

	if (!spec->nr_hosts)
		return;
	calvin_spec_where(spec, where, sizeof(where));
	if (!calvin_json) {
		printf("hosts: %s; links between hosts: OVN logical switches in %s\n", where,
		       spec->ovn.nb);
		return;
	}
	hosts = json_object_new_array();
	for (i = 0; hosts && i < spec->nr_hosts; i++) {
		h = json_object_new_object();
		if (!h)
			break;
		jw_str(h, "name", spec->hosts[i].name);
		jw_str(h, "uri", spec->hosts[i].uri);
		jw_str(h, "chassis", spec->hosts[i].chassis);
		json_object_array_add(hosts, h);
	}
	json_object_object_add(jout(), "hosts", hosts);
	jw_str(jout(), "where", where);
	jw_str(jout(), "ovn_nb", spec->ovn.nb);
}

int hosts_check(const struct calvin_chain_spec *spec)
{
	unsigned int i;

	if (!calvin_spec_multihost(spec))
		return 0;
	for (i = 0; i < spec->nr_vnfs; i++)
		if (calvin_spec_host(spec, spec->vnfs[i].host))
			break;
	return host_cannot(spec,
			   "%s '%s' is on host '%s', and this build of calvin cannot deploy a "
			   "node on another host yet (issue 16: the chain file is parsed and "
			   "checked, the deployment across hosts is not built); put every node "
			   "on host local",
			   i < spec->nr_vnfs ? "VNF" : "server",
			   i < spec->nr_vnfs ? spec->vnfs[i].name : spec->server.name,
			   i < spec->nr_vnfs ? spec->vnfs[i].host : spec->server.host);
}
