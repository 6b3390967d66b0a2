// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chains across hosts (issue 16): what runs where, said by validate and
 * plan, and each host's CPUs read for the planner. */
#include <json-c/json.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "commands.h"
#include "hosts.h"
#include "jout.h"
#include "libvirt/host.h"
#include "util.h"
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

static bool host_used(const struct calvin_chain_spec *spec, const char *host)
{
	unsigned int i;

	for (i = 0; i < spec->nr_vnfs; i++)
		if (!strcmp(spec->vnfs[i].host, host))
			return true;
	return !strcmp(spec->server.host, host);
}

/* One host's CPUs and the cores others hold there, through its libvirt. */
static int host_read(const struct calvin_chain_spec *spec, const struct calvin_host_spec *h,
		     struct calvin_topology *t)
{
	char why[CALVIN_ERR_MAX];
	int err;

	err = lv_host_topology(h->uri, spec->name, t, why, sizeof(why));
	if (err)
		calvin_err("host %s (%s): %s", h->name, h->uri, why);
	return err;
}

/* kept for the process: plan prints them after planning, up checks
 * against them after defining its VMs */
static struct calvin_topology *host_read_at[CALVIN_MAX_HOSTS];

int hosts_read(const struct calvin_chain_spec *spec, const struct calvin_topology **t)
{
	unsigned int i;

	for (i = 0; i < spec->nr_hosts; i++) {
		t[i + 1] = NULL;
		if (!host_used(spec, spec->hosts[i].name))
			continue;
		if (!host_read_at[i])
			host_read_at[i] = malloc(sizeof(*host_read_at[i]));
		if (!host_read_at[i]) {
			calvin_err("host %s: out of memory", spec->hosts[i].name);
			return CALVIN_EXIT_FAIL;
		}
		if (host_read(spec, &spec->hosts[i], host_read_at[i]))
			return CALVIN_EXIT_FAIL;
		t[i + 1] = host_read_at[i];
	}
	return 0;
}

int hosts_recheck(const struct calvin_chain_spec *spec, const struct calvin_vnf_place *v)
{
	const struct calvin_host_spec *host;
	const struct calvin_topology *then;
	const struct calvin_hold *h;
	struct calvin_topology *now;
	char why[CALVIN_ERR_MAX];
	int err;

	if (v->host < 1 || v->cpu < 0 || !host_read_at[v->host - 1])
		return 0;
	host = &spec->hosts[v->host - 1];
	then = host_read_at[v->host - 1];
	now = malloc(sizeof(*now));
	if (!now)
		return -ENOMEM;
	err = lv_host_topology(host->uri, spec->name, now, why, sizeof(why));
	if (err)
		calvin_err("host %s (%s): %s", host->name, host->uri, why);
	h = err ? NULL : calvin_hold_collision(then, now, v);
	if (h) {
		calvin_err("host %s: CPU %d, planned for chain %s, is now held by chain %s's %s too, "
			   "whose VM was defined there after this up read the host (another "
			   "controller planned it at the same time); run 'calvin up' again",
			   host->name, v->cpu, spec->name, h->chain, h->vnf);
		err = -EBUSY;
	}
	free(now);
	return err;
}
