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

int netns_user_stats(const struct calvin_chain_spec *s, unsigned int vnf, char *json, size_t len)
{
	char prefix[128];
	int err;

	err = vnf_file_prefix(prefix, sizeof(prefix), s->name, s->vnfs[vnf].name);
	return err ? err
		   : dpdk_query(prefix, CALVIN_VNF_STATS_CMD, json, len, VNF_ANSWER_TIMEOUT_MS);
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
