// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the ACL VNF (acl.bpf.c): compile its rules into its maps, live updates, hits. */
#include <errno.h>
#include <unistd.h>

#include "acl.skel.h"
#include "acl_rules.h"
#include "loader_priv.h"

static int acl_fill(const struct calvin_vnf *vnf, const void *arg)
{
	const struct acl_bpf *skel = vnf->skel;
	struct calvin_acl_maps m = {
		.rules = bpf_map__fd(skel->maps.acl_rules),
		.sets = bpf_map__fd(skel->maps.acl_sets),
		.active = bpf_map__fd(skel->maps.acl_active),
		.hits = bpf_map__fd(skel->maps.acl_hits),
	};

	return calvin_acl_write(&m, arg);
}

int calvin_xdp_acl_attach(const struct calvin_xdp_acl_cfg *cfg)
{
	struct calvin_vnf vnf;
	struct acl_bpf *skel;
	int err;

	if (!cfg)
		return -EINVAL;
	/* Refuse bad rules before anything is attached. */
	err = calvin_acl_check(cfg->acl);
	if (err)
		return err;
	calvin_loader_quiet();
	skel = acl_bpf__open();
	if (!skel)
		return -errno;
	vnf = CALVIN_VNF_SKEL(skel, acl, { skel->maps.acl_rules, CALVIN_PIN_ACL_RULES },
			      { skel->maps.acl_sets, CALVIN_PIN_ACL_SETS },
			      { skel->maps.acl_active, CALVIN_PIN_ACL_ACTIVE },
			      { skel->maps.acl_hits, CALVIN_PIN_ACL_HITS });
	vnf.fill = acl_fill;
	err = calvin_vnf_attach(&cfg->fwd, &vnf, cfg->acl);
	acl_bpf__destroy(skel);
	return err;
}

static void close_maps(struct calvin_acl_maps *m)
{
	if (m->rules >= 0)
		close(m->rules);
	if (m->sets >= 0)
		close(m->sets);
	if (m->active >= 0)
		close(m->active);
	if (m->hits >= 0)
		close(m->hits);
}

static int open_maps(const char *pin_dir, struct calvin_acl_maps *m)
{
	m->rules = calvin_pinned_fd(pin_dir, CALVIN_PIN_ACL_RULES);
	m->sets = calvin_pinned_fd(pin_dir, CALVIN_PIN_ACL_SETS);
	m->active = calvin_pinned_fd(pin_dir, CALVIN_PIN_ACL_ACTIVE);
	m->hits = calvin_pinned_fd(pin_dir, CALVIN_PIN_ACL_HITS);
	if (m->rules >= 0 && m->sets >= 0 && m->active >= 0 && m->hits >= 0)
		return 0;
	close_maps(m);
	return m->rules < 0    ? m->rules
	       : m->sets < 0   ? m->sets
	       : m->active < 0 ? m->active
			       : m->hits;
}

int calvin_xdp_acl_update(const char *pin_dir, const struct calvin_xdp_acl *acl)
{
	struct calvin_acl_maps m;
	int err;

	err = calvin_acl_check(acl);
	if (err)
		return err;
	err = open_maps(pin_dir, &m);
	if (err)
		return err;
	err = calvin_acl_write(&m, acl);
	close_maps(&m);
	return err;
}

int calvin_xdp_acl_read_hits(const char *pin_dir, uint64_t *hits, unsigned int n,
			     uint64_t *default_hits)
{
	struct calvin_acl_set set;
	uint32_t zero = 0, s, i;
	struct calvin_acl_maps m;
	__u64 sum;
	int err;

	if (n > CALVIN_XDP_ACL_MAX_RULES)
		return -EINVAL;
	err = open_maps(pin_dir, &m);
	if (err)
		return err;
	if (bpf_map_lookup_elem(m.active, &zero, &s) || bpf_map_lookup_elem(m.sets, &s, &set)) {
		err = -errno;
		goto close;
	}
	s &= 1;
	for (i = 0; hits && !err && i < n; i++) {
		sum = 0;
		if (i < set.nr_rules)
			err = calvin_percpu_sum(m.hits, s * CALVIN_XDP_ACL_HIT_STRIDE + i, &sum, 1);
		hits[i] = sum;
	}
	if (!err && default_hits) {
		err = calvin_percpu_sum(
		    m.hits, s * CALVIN_XDP_ACL_HIT_STRIDE + CALVIN_XDP_ACL_MAX_RULES, &sum, 1);
		*default_hits = sum;
	}
close:
	close_maps(&m);
	return err;
}
