/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* ACL rules (struct calvin_xdp_acl, loader.h) to acl.bpf.c's maps: compile, check, write a set
 * and flip to it.
 *
 * Header-only so the BPF tests (which do not link the loader) put rules in
 * the maps exactly as the loader does.
 */
#ifndef CALVIN_ACL_RULES_H
#define CALVIN_ACL_RULES_H

#include <errno.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "calvin_xdp.h"
#include "loader.h"

/* The maps of one acl VNF, by fd. */
struct calvin_acl_maps {
	int rules, sets, active, hits;
};

/* A prefix as network and mask words; family any leaves both zero. */
static inline int acl_compile_prefix(const struct calvin_xdp_prefix *p, __be32 net[4],
				     __be32 mask[4])
{
	unsigned int bytes = p->family == CALVIN_FAMILY_IPV4 ? 4 : 16, i;
	uint8_t n[16] = {0}, m[16] = {0};

	if (p->family == CALVIN_FAMILY_ANY)
		return 0;
	if ((p->family != CALVIN_FAMILY_IPV4 && p->family != CALVIN_FAMILY_IPV6) ||
	    p->len > bytes * 8)
		return -EINVAL;
	for (i = 0; i < bytes; i++) {
		unsigned int bits = p->len > i * 8 ? p->len - i * 8 : 0;

		m[i] = bits >= 8 ? 0xff : (uint8_t)(0xff00 >> bits);
		n[i] = p->addr[i] & m[i];
	}
	memcpy(net, n, 16);
	memcpy(mask, m, 16);
	return 0;
}

static inline int calvin_acl_compile_rule(const struct calvin_xdp_acl_rule *r,
					  struct calvin_acl_entry *e)
{
	int src = r->src.family, dst = r->dst.family, err;

	memset(e, 0, sizeof(*e));
	if (src && dst && src != dst)
		return -EINVAL;
	if (r->sport.lo > r->sport.hi || r->dport.lo > r->dport.hi ||
	    (r->action != CALVIN_XDP_ACL_ALLOW && r->action != CALVIN_XDP_ACL_DENY))
		return -EINVAL;
	err = acl_compile_prefix(&r->src, e->src, e->src_mask);
	if (!err)
		err = acl_compile_prefix(&r->dst, e->dst, e->dst_mask);
	if (err)
		return err;
	e->family = (uint8_t)(src ? src : dst);
	e->proto = r->proto;
	e->action = r->action;
	e->sport_lo = r->sport.lo;
	e->sport_hi = r->sport.hi;
	e->dport_lo = r->dport.lo;
	e->dport_hi = r->dport.hi;
	e->ports = r->sport.lo > 0 || r->sport.hi < 65535 || r->dport.lo > 0 || r->dport.hi < 65535;
	return 0;
}

static inline int calvin_acl_check(const struct calvin_xdp_acl *acl)
{
	struct calvin_acl_entry e;
	unsigned int i;
	int err;

	if (!acl)
		return -EINVAL;
	if (acl->nr_rules > CALVIN_XDP_ACL_MAX_RULES)
		return -E2BIG;
	if (acl->default_action != CALVIN_XDP_ACL_ALLOW &&
	    acl->default_action != CALVIN_XDP_ACL_DENY)
		return -EINVAL;
	for (i = 0; i < acl->nr_rules; i++) {
		err = calvin_acl_compile_rule(&acl->rules[i], &e);
		if (err)
			return err;
	}
	return 0;
}

/* Zero the hit counters of set s (all CPUs). */
static inline int acl_clear_hits(int fd, uint32_t s)
{
	int ncpu = libbpf_num_possible_cpus();
	__u64 zeros[256] = {0};
	uint32_t key, i;

	if (ncpu < 0)
		return ncpu;
	if (ncpu > 256)
		return -E2BIG;
	for (i = 0; i < CALVIN_XDP_ACL_HIT_STRIDE; i++) {
		key = s * CALVIN_XDP_ACL_HIT_STRIDE + i;
		if (bpf_map_update_elem(fd, &key, zeros, BPF_ANY))
			return -errno;
	}
	return 0;
}

/* Write acl into the set not in use, then make it the one in use: the flip
 * is the last write, so a packet sees the old set or the new one, whole. */
static inline int calvin_acl_write(const struct calvin_acl_maps *m,
				   const struct calvin_xdp_acl *acl)
{
	struct calvin_acl_set set = { .nr_rules = acl->nr_rules,
				      .default_action = acl->default_action };
	struct calvin_acl_entry e;
	uint32_t zero = 0, active, next, key, i;
	int err;

	err = calvin_acl_check(acl);
	if (err)
		return err;
	if (bpf_map_lookup_elem(m->active, &zero, &active))
		return -errno;
	next = !(active & 1);
	for (i = 0; i < acl->nr_rules; i++) {
		calvin_acl_compile_rule(&acl->rules[i], &e); /* checked above */
		key = next * CALVIN_XDP_ACL_MAX_RULES + i;
		if (bpf_map_update_elem(m->rules, &key, &e, BPF_ANY))
			return -errno;
	}
	err = acl_clear_hits(m->hits, next);
	if (err)
		return err;
	if (bpf_map_update_elem(m->sets, &next, &set, BPF_ANY))
		return -errno;
	if (bpf_map_update_elem(m->active, &zero, &next, BPF_ANY))
		return -errno;
	return 0;
}

#endif /* CALVIN_ACL_RULES_H */
