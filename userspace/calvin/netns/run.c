// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A deployed netns chain: entering and running commands in its nodes,
 * reading its VNFs' counters, updating kernel VNFs in place. Kernel VNFs'
 * per-CPU counters are read from their pinned maps; user VNFs answer on
 * their DPDK telemetry socket. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dpdk_query.h"
#include "guest/guest.h"
#include "kvnf.h"
#include "netns.h"
#include "plan/plan.h"
#include "state.h"
#include "util.h"

int netns_kernel_stats(const struct calvin_chain_spec *s, unsigned int vnf,
		       struct kvnf_counters *out)
{
	const struct calvin_vnf_spec *v = &s->vnfs[vnf];
	char pin[PATH_MAX];
	int err;

	memset(out, 0, sizeof(*out));
	err = vnf_pin_dir(pin, sizeof(pin), s->name, v->name);
	if (!err)
		err = calvin_xdp_read_stats(pin, out->dir);
	if (err || v->kind != CALVIN_VNF_ACL)
		return err;
	out->nr_rules = v->acl.nr_rules;
	return calvin_xdp_acl_read_hits(pin, out->rule_hits, out->nr_rules, &out->default_hits);
}

/* The VNF whose process runs VNF vnf, as up deployed it (the plan
 * record's wait lines): the first of a loop, or vnf itself. */
static unsigned int deployed_leader(const struct calvin_chain_spec *s, unsigned int vnf)
{
	static struct calvin_plan p;
	char path[PATH_MAX];

	memset(&p, 0, sizeof(p));
	p.nr_vnfs = s->nr_vnfs;
	if (state_file(path, sizeof(path), s->name, ".plan") ||
	    calvin_plan_record_places(path, s, &p))
		return vnf;
	return calvin_plan_loop_leader(&p, vnf);
}

int netns_user_stats(const struct calvin_chain_spec *s, unsigned int vnf, char *json, size_t len)
{
	unsigned int leader = deployed_leader(s, vnf);
	char prefix[128], cmd[CALVIN_NAME_MAX + 32];
	int err;

	/* the process of a loop answers for each of its VNFs by name */
	snprintf(cmd, sizeof(cmd), "%s%s%s", CALVIN_VNF_STATS_CMD, leader == vnf ? "" : ",",
		 leader == vnf ? "" : s->vnfs[vnf].name);
	err = vnf_file_prefix(prefix, sizeof(prefix), s->name, s->vnfs[leader].name);
	return err ? err : dpdk_query(prefix, cmd, json, len, VNF_ANSWER_TIMEOUT_MS);
}

int netns_kernel_update(const struct calvin_chain_spec *s, unsigned int vnf)
{
	struct calvin_kvnf k;
	char pin[PATH_MAX];
	int err;

	err = vnf_pin_dir(pin, sizeof(pin), s->name, s->vnfs[vnf].name);
	if (!err)
		err = calvin_kvnf_from_spec(&s->vnfs[vnf], &k);
	return err ? err : calvin_kvnf_update(pin, &k);
}
