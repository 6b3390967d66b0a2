// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Rate-limiting VNF: a token bucket per VNF or per flow; over the rate, XDP_DROP; else forward.
 *
 * The bucket is GCRA (see ratelimit.h), in packets/s and/or bytes/s: with
 * both set, a frame passes only if both dimensions have room, and then
 * pays in both. Refill is continuous, from bpf_ktime_get_ns().
 *
 * - per vnf: one bucket for all traffic, in an array value under a
 *   bpf_spin_lock. Per-CPU buckets would multiply the rate by the number of
 *   CPUs the traffic lands on.
 * - per flow: one bucket per 5-tuple in an LRU hash. The kernel refuses a
 *   bpf_spin_lock in an LRU hash value (EOPNOTSUPP, measured on 6.18), so
 *   a flow's bucket is updated by compare-and-swap of its first limited
 *   word, retried RL_CAS_TRIES times (then the frame is dropped); with both
 *   dimensions, the byte word follows by compare-and-swap, or by an atomic
 *   add of the frame's cost if another CPU moved it meanwhile (the byte
 *   check then used a value a few ns old). A flow is normally handled on
 *   one CPU (one RX queue), so contention is the exception.
 *
 * Frames that are not IP are passed to the stack by the tail unlimited,
 * and malformed ones dropped before any bucket is touched (see
 * vnf_tail.bpf.h). Dropped frames take no tokens.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <xdp/xdp_helpers.h>

#include "parse.bpf.h"
#include "vnf_tail.bpf.h"
#include "ratelimit.h"

#define NSEC_PER_SEC 1000000000ULL
#define RL_CAS_TRIES 4
/* Another CPU may move the word between our reads: read it once, whole. */
#define READ_ONCE_TAT(x) (*(volatile __u64 *)&(x))

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct calvin_rl_config);
} calvin_rl_config SEC(".maps");

/* The per-VNF bucket. */
struct rl_shared {
	struct bpf_spin_lock lock;
	__u32 pad;
	__u64 tat_pkt;
	__u64 tat_byte;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rl_shared);
} calvin_rl_bucket SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, CALVIN_RL_MAX_FLOWS);
	__type(key, struct calvin_rl_flow);
	__type(value, struct calvin_rl_tat);
} calvin_rl_flows SEC(".maps");

struct {
	__uint(priority, 10);
	__uint(XDP_PASS, 1);
} XDP_RUN_CONFIG(ratelimit);

/* A bucket owing more than cap ns is empty. That happens only after the
 * rates changed (calvin_xdp_ratelimit_update()): the bucket then refills
 * at the new rate instead of paying off its old debt at it. */
static __always_inline __u64 clamp_debt(__u64 tat, __u64 now, __u64 cap)
{
	return tat > now + cap ? now + cap : tat;
}

/* One dimension: would a frame costing cost ns pass a bucket that is full
 * again at tat and holds cap ns? *next is tat after paying. */
static __always_inline bool gcra(__u64 tat, __u64 now, __u64 cost, __u64 cap, __u64 *next)
{
	__u64 t = (tat > now ? tat : now) + cost;

	*next = t;
	return t - now <= cap;
}

/* Both dimensions. On true, *pkt and *byte are the tats after paying; on
 * false, the tats as they were but for a clamped debt, to be stored too.
 * The per-frame divisions are cheap next to a map lookup, and keep the
 * config map the spec's own numbers. */
static __always_inline bool rl_admit(const struct calvin_rl_config *c, __u64 now, __u64 len,
				     __u64 *pkt, __u64 *byte)
{
	__u64 cost, cap, p = *pkt, b = *byte;

	if (c->pps) {
		cost = NSEC_PER_SEC / c->pps;
		cap = cost * c->burst_packets;
		*pkt = clamp_debt(*pkt, now, cap);
		if (!gcra(*pkt, now, cost, cap, &p))
			return false;
	}
	if (c->bytes_per_sec) {
		cost = len * NSEC_PER_SEC / c->bytes_per_sec;
		cap = c->burst_bytes * NSEC_PER_SEC / c->bytes_per_sec;
		*byte = clamp_debt(*byte, now, cap);
		if (!gcra(*byte, now, cost, cap, &b))
			return false;
	}
	*pkt = p;
	*byte = b;
	return true;
}

static __always_inline bool rl_admit_vnf(const struct calvin_rl_config *c, __u64 now, __u64 len)
{
	__u32 zero = 0;
	struct rl_shared *b = bpf_map_lookup_elem(&calvin_rl_bucket, &zero);
	__u64 pkt, byte;
	bool ok;

	if (!b)
		return false; /* cannot happen: an array has every index */
	bpf_spin_lock(&b->lock);
	pkt = b->tat_pkt;
	byte = b->tat_byte;
	ok = rl_admit(c, now, len, &pkt, &byte);
	b->tat_pkt = pkt;
	b->tat_byte = byte;
	bpf_spin_unlock(&b->lock);
	return ok;
}

/* The bounds were checked by calvin_parse(), but the verifier forgets them
 * once the header pointer has been through the stack: check again. */
static __always_inline int rl_flow_key(const struct calvin_pkt *p, void *data_end,
				       struct calvin_rl_flow *k)
{
	__builtin_memset(k, 0, sizeof(*k));
	k->family = p->family;
	k->proto = p->l4_proto;
	if (p->has_ports) {
		k->sport = bpf_htons(p->sport);
		k->dport = bpf_htons(p->dport);
	}
	if (p->family == CALVIN_FAMILY_IPV4) {
		struct iphdr *ip = p->l3;

		if ((void *)(ip + 1) > data_end)
			return -1;
		k->src[0] = ip->saddr;
		k->dst[0] = ip->daddr;
	} else {
		struct ipv6hdr *ip6 = p->l3;

		if ((void *)(ip6 + 1) > data_end)
			return -1;
		__builtin_memcpy(k->src, &ip6->saddr, sizeof(k->src));
		__builtin_memcpy(k->dst, &ip6->daddr, sizeof(k->dst));
	}
	return 0;
}

static __always_inline struct calvin_rl_tat *rl_flow_bucket(const struct calvin_pkt *p,
							    void *data_end)
{
	struct calvin_rl_tat *t, full = {0};
	struct calvin_rl_flow k;

	if (rl_flow_key(p, data_end, &k))
		return NULL;
	t = bpf_map_lookup_elem(&calvin_rl_flows, &k);
	if (t)
		return t;
	/* A new flow starts with a full bucket; losing a race to insert it is
	 * fine, the lookup then finds the winner's. */
	bpf_map_update_elem(&calvin_rl_flows, &k, &full, BPF_NOEXIST);
	return bpf_map_lookup_elem(&calvin_rl_flows, &k);
}

static __always_inline bool rl_admit_flow(const struct calvin_rl_config *c,
					  const struct calvin_pkt *p, void *data_end, __u64 now,
					  __u64 len)
{
	struct calvin_rl_tat *t = rl_flow_bucket(p, data_end);
	__u64 old_pkt, old_byte, pkt, byte;
	int i;

	if (!t)
		return true; /* could not track it: do not punish the flow for that */
	for (i = 0; i < RL_CAS_TRIES; i++) {
		old_pkt = pkt = READ_ONCE_TAT(t->pkt);
		old_byte = byte = READ_ONCE_TAT(t->byte);
		if (!rl_admit(c, now, len, &pkt, &byte)) {
			/* Best effort: only a clamped debt changes here. */
			if (pkt != old_pkt)
				__sync_val_compare_and_swap(&t->pkt, old_pkt, pkt);
			if (byte != old_byte)
				__sync_val_compare_and_swap(&t->byte, old_byte, byte);
			return false;
		}
		if (c->pps) {
			if (__sync_val_compare_and_swap(&t->pkt, old_pkt, pkt) != old_pkt)
				continue;
			/* Whoever moved the byte word meanwhile also counted
			 * the refill up to now: adding our cost is exact. */
			if (c->bytes_per_sec &&
			    __sync_val_compare_and_swap(&t->byte, old_byte, byte) != old_byte)
				__sync_fetch_and_add(&t->byte,
						     len * NSEC_PER_SEC / c->bytes_per_sec);
			return true;
		}
		if (__sync_val_compare_and_swap(&t->byte, old_byte, byte) == old_byte)
			return true;
	}
	return false;
}

/* XDP_DROP if over the rate, else -1: go on to the tail. */
static __always_inline int ratelimit_decide(struct calvin_vnf *v)
{
	__u64 len = v->data_end - v->data;
	__u32 zero = 0;
	struct calvin_rl_config *c = bpf_map_lookup_elem(&calvin_rl_config, &zero);
	bool ok;

	if (!c || (!c->pps && !c->bytes_per_sec))
		return -1;
	if (c->per == CALVIN_XDP_RL_PER_FLOW)
		ok = rl_admit_flow(c, &v->pkt, v->data_end, calvin_vnf_now(v), len);
	else
		ok = rl_admit_vnf(c, calvin_vnf_now(v), len);
	if (ok)
		return -1;
	v->st->drop_ratelimit++;
	return XDP_DROP;
}

SEC("xdp")
int ratelimit(struct xdp_md *ctx)
{
	struct calvin_vnf v;
	int verdict;

	if (calvin_vnf_begin(ctx, &v, &verdict))
		return verdict;
	verdict = ratelimit_decide(&v);
	if (verdict >= 0)
		return verdict;
	return calvin_vnf_tail(&v, v.port);
}

char _license[] SEC("license") = "Dual BSD/GPL";
