// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* ACL VNF: ordered allow/deny rules on protocol, address prefixes and ports; first match wins.
 *
 * The loader compiles the chain spec's rules into acl_rules (two sets, see
 * calvin_xdp.h) and flips acl_active last, so a packet reads the active
 * index once and then sees one whole set. A rule matches when every field
 * it sets matches: family (a prefix of one family never matches the other),
 * protocol, both prefixes, and both port ranges; a rule with a port range
 * matches only TCP and UDP packets whose ports are in the frame, so never a
 * later IPv4 fragment nor an IPv6 packet with extension headers (see
 * parse.bpf.h). No rule matches: the set's default action.
 *
 * Denied: XDP_DROP, drop_acl. Allowed: the common tail (vnf_tail.bpf.h),
 * which also lists what happens to malformed and non-IP frames (those never
 * reach the rules: non-IP is passed to the stack, not filtered). Each rule's
 * hits, and the default's, are per-CPU counters in acl_hits.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <xdp/xdp_helpers.h>

#include "vnf_tail.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CALVIN_XDP_ACL_SETS *CALVIN_XDP_ACL_MAX_RULES);
	__type(key, __u32);
	__type(value, struct calvin_acl_entry);
} acl_rules SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CALVIN_XDP_ACL_SETS);
	__type(key, __u32);
	__type(value, struct calvin_acl_set);
} acl_sets SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32); /* the set in use */
} acl_active SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CALVIN_XDP_ACL_SETS *CALVIN_XDP_ACL_HIT_STRIDE);
	__type(key, __u32);
	__type(value, __u64);
} acl_hits SEC(".maps");

struct {
	__uint(priority, 10);
	__uint(XDP_PASS, 1);
} XDP_RUN_CONFIG(acl);

static __always_inline bool prefix_match(const __be32 *addr, const __be32 *net, const __be32 *mask)
{
	return (addr[0] & mask[0]) == net[0] && (addr[1] & mask[1]) == net[1] &&
	       (addr[2] & mask[2]) == net[2] && (addr[3] & mask[3]) == net[3];
}

/* What one pass over the rules needs and finds; bpf_loop() hands it to each
 * step, so the verifier checks one rule once instead of 64 times. */
struct acl_walk {
	__be32 saddr[4], daddr[4];
	__u16 sport, dport;
	__u8 family, l4_proto, has_ports, action;
	__u32 set;     /* first rule's index in acl_rules */
	__u32 matched; /* index of the matching rule in its set, or ~0 */
};

static __always_inline bool rule_match(const struct calvin_acl_entry *r, const struct acl_walk *w)
{
	if (r->family != CALVIN_FAMILY_ANY && r->family != w->family)
		return false;
	if (r->proto && r->proto != w->l4_proto)
		return false;
	if (!prefix_match(w->saddr, r->src, r->src_mask) ||
	    !prefix_match(w->daddr, r->dst, r->dst_mask))
		return false;
	if (!r->ports)
		return true;
	return w->has_ports && w->sport >= r->sport_lo && w->sport <= r->sport_hi &&
	       w->dport >= r->dport_lo && w->dport <= r->dport_hi;
}

static long acl_step(__u64 i, void *ctx)
{
	struct acl_walk *w = ctx;
	__u32 key = w->set + (__u32)i;
	const struct calvin_acl_entry *r = bpf_map_lookup_elem(&acl_rules, &key);

	if (!r || !rule_match(r, w))
		return 0;
	w->matched = (__u32)i;
	w->action = r->action;
	return 1; /* first match wins: stop */
}

/* The action for the packet, counting the hit. */
static __always_inline __u32 acl_decide(const struct calvin_pkt *pkt)
{
	const struct calvin_acl_set *set;
	struct acl_walk w = {0};
	__u32 zero = 0, s, nr, key;
	__u32 *active;
	__u64 *hits;

	active = bpf_map_lookup_elem(&acl_active, &zero);
	s = active ? *active & 1 : 0;
	set = bpf_map_lookup_elem(&acl_sets, &s);
	if (!set)
		return CALVIN_XDP_ACL_DENY; /* cannot happen: an array has every index */
	nr = set->nr_rules;
	if (nr > CALVIN_XDP_ACL_MAX_RULES)
		nr = CALVIN_XDP_ACL_MAX_RULES;
	__builtin_memcpy(w.saddr, pkt->saddr, sizeof(w.saddr));
	__builtin_memcpy(w.daddr, pkt->daddr, sizeof(w.daddr));
	w.sport = pkt->sport;
	w.dport = pkt->dport;
	w.family = pkt->family;
	w.l4_proto = pkt->l4_proto;
	w.has_ports = pkt->has_ports;
	w.set = s * CALVIN_XDP_ACL_MAX_RULES;
	w.matched = ~0U;
	w.action = (__u8)set->default_action;
	bpf_loop(nr, acl_step, &w, 0);
	key = s * CALVIN_XDP_ACL_HIT_STRIDE +
	      (w.matched < CALVIN_XDP_ACL_MAX_RULES ? w.matched : CALVIN_XDP_ACL_MAX_RULES);
	hits = bpf_map_lookup_elem(&acl_hits, &key);
	if (hits)
		(*hits)++;
	return w.action;
}

SEC("xdp")
int acl(struct xdp_md *ctx)
{
	struct calvin_vnf v;
	int verdict;

	if (calvin_vnf_begin(ctx, &v, &verdict))
		return verdict;
	if (acl_decide(&v.pkt) != CALVIN_XDP_ACL_ALLOW) {
		v.st->drop_acl++;
		return XDP_DROP;
	}
	return calvin_vnf_tail(&v, v.port);
}

char _license[] SEC("license") = "Dual BSD/GPL";
