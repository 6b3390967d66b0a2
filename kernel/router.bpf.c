// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Router VNF: longest-prefix match on the destination picks the egress port; TTL/hop limit
 * decremented.
 *
 * Verdicts, beyond the common ones (vnf_tail.bpf.h: malformed dropped,
 * non-IP passed to the stack and counted pass_other):
 * - no route for the destination: XDP_DROP, drop_no_route.
 * - a route via drop: XDP_DROP, drop_route.
 * - TTL (IPv4) or hop limit (IPv6) 0 or 1 on arrival: XDP_DROP, drop_ttl.
 *   No ICMP time exceeded is sent: building and sending one from XDP would
 *   need an address of our own, which a VNF node does not have, and
 *   traceroute through a chain is not something the chain is for.
 * - otherwise the TTL/hop limit is decremented (IPv4: header checksum
 *   updated incrementally, RFC 1624 eqn. 3, so a valid checksum stays
 *   valid and an invalid one stays invalid: it is not verified here) and
 *   the frame leaves through the port the route says, with that port's MACs,
 *   whichever port it came in on.
 * Fragments are routed like any packet: only the IP header is read.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <xdp/xdp_helpers.h>

#include "vnf_tail.bpf.h"

/* Room for two whole route tables: a live update adds the new routes
 * before it deletes the old ones. */
#define ROUTER_TRIE_SIZE (2 * CALVIN_XDP_ROUTER_MAX_ROUTES)

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, ROUTER_TRIE_SIZE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct calvin_lpm4_key);
	__type(value, __u32); /* CALVIN_XDP_VIA_* */
} routes4 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, ROUTER_TRIE_SIZE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct calvin_lpm6_key);
	__type(value, __u32);
} routes6 SEC(".maps");

/* The port entry a frame leaving west (index CALVIN_XDP_VIA_WEST) or east
 * uses: the forwarder's entry for the opposite ingress. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct calvin_port);
} router_via SEC(".maps");

struct {
	__uint(priority, 10);
	__uint(XDP_PASS, 1);
} XDP_RUN_CONFIG(router);

static __always_inline __u32 *route_lookup(const struct calvin_pkt *pkt)
{
	if (pkt->family == CALVIN_FAMILY_IPV4) {
		struct calvin_lpm4_key k = {.prefixlen = 32};

		__builtin_memcpy(k.addr, pkt->daddr, 4);
		return bpf_map_lookup_elem(&routes4, &k);
	} else {
		struct calvin_lpm6_key k = {.prefixlen = 128};

		__builtin_memcpy(k.addr, pkt->daddr, 16);
		return bpf_map_lookup_elem(&routes6, &k);
	}
}

/* Decrement the TTL or hop limit: 0, or -1 if it has run out. */
static __always_inline int hop_decrement(struct calvin_vnf *v)
{
	if (v->pkt.family == CALVIN_FAMILY_IPV4) {
		struct iphdr *ip = v->pkt.l3;
		__u16 old, new;
		__u32 sum;

		if ((void *)(ip + 1) > v->data_end || ip->ttl <= 1)
			return -1;
		/* TTL and protocol share a 16-bit word of the header. */
		old = *(__u16 *)&ip->ttl;
		ip->ttl--;
		new = *(__u16 *)&ip->ttl;
		sum = (__u16)~ip->check + (__u16)~old + new;
		sum = (sum & 0xffff) + (sum >> 16);
		sum = (sum & 0xffff) + (sum >> 16);
		ip->check = (__u16)~sum;
	} else {
		struct ipv6hdr *ip6 = v->pkt.l3;

		if ((void *)(ip6 + 1) > v->data_end || ip6->hop_limit <= 1)
			return -1;
		ip6->hop_limit--;
	}
	return 0;
}

SEC("xdp")
int router(struct xdp_md *ctx)
{
	struct calvin_port *out;
	struct calvin_vnf v;
	__u32 *via, idx;
	int verdict;

	if (calvin_vnf_begin(ctx, &v, &verdict))
		return verdict;
	via = route_lookup(&v.pkt);
	if (!via) {
		v.st->drop_no_route++;
		return XDP_DROP;
	}
	if (*via != CALVIN_XDP_VIA_WEST && *via != CALVIN_XDP_VIA_EAST) {
		v.st->drop_route++;
		return XDP_DROP;
	}
	idx = *via;
	out = bpf_map_lookup_elem(&router_via, &idx);
	if (!out) {
		v.st->drop_redirect++; /* cannot happen: an array has every index */
		return XDP_DROP;
	}
	if (hop_decrement(&v)) {
		v.st->drop_ttl++;
		return XDP_DROP;
	}
	return calvin_vnf_tail(&v, out);
}

char _license[] SEC("license") = "Dual BSD/GPL";
