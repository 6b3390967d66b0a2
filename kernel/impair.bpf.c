// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Impairment VNF: seeded random loss (uniform or Gilbert-Elliott) and duplication of frames.
 *
 * Stands in for netem, which this project cannot count on (the build host's
 * kernel has no modules). Verdicts, besides the common ones of
 * vnf_tail.bpf.h (malformed: XDP_DROP; not IP: XDP_PASS, never impaired):
 * - a direction not chosen in the config: forwarded untouched.
 * - lost: XDP_DROP, impair_loss. Loss is decided first; a lost frame is
 *   not also duplicated.
 * - duplicated: stamped and rewritten once, then XDP_REDIRECT through a
 *   devmap whose two entries both hold the egress port, with
 *   BPF_F_BROADCAST: XDP cannot clone a frame, but a broadcast redirect
 *   sends one copy per devmap entry. impair_dup, and tx_* count two frames.
 *   Only the node's last VNF for the frame's direction can do that (the
 *   others hand the one frame to the next program), so one that is not
 *   last forwards it once (not counted in impair_dup).
 * - otherwise forwarded like the forwarder does.
 *
 * The random numbers come from a per-CPU xorshift64* seeded by the loader
 * (see impair.h for what repeatable means), drawn only for probabilities
 * strictly between 0 and 100%, so 0% and 100% cost nothing and do not
 * move the sequence.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <xdp/xdp_helpers.h>

#include "parse.bpf.h"
#include "vnf_tail.bpf.h"
#include "impair.h"

enum impair_verdict {
	IMPAIR_FORWARD,
	IMPAIR_LOSE,
	IMPAIR_DUPLICATE,
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct calvin_impair_config);
} calvin_impair_config SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct calvin_impair_rng);
} calvin_impair_rng SEC(".maps");

/* Duplicate groups: both entries of each hold the same egress ifindex. */
struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} calvin_dup_east SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} calvin_dup_west SEC(".maps");

struct {
	__uint(priority, 10);
	__uint(XDP_PASS, 1);
} XDP_RUN_CONFIG(impair);

static __always_inline __u64 xorshift64star(struct calvin_impair_rng *g)
{
	__u64 x = g->state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	g->state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* True with probability ppm / 10^6. The high 32 bits are the best of
 * xorshift64*; scaling by multiply-and-shift keeps it free of division. */
static __always_inline bool chance(struct calvin_impair_rng *g, __u32 ppm)
{
	__u64 draw;

	if (ppm == 0)
		return false;
	if (ppm >= CALVIN_PPM)
		return true;
	draw = ((xorshift64star(g) >> 32) * CALVIN_PPM) >> 32;
	return draw < ppm;
}

/* Gilbert-Elliott: the loss decision uses the state the frame arrives in,
 * then the chain moves (good->bad with p, bad->good with r). */
static __always_inline bool ge_lost(const struct calvin_impair_config *c,
				    struct calvin_impair_rng *g)
{
	bool lost = chance(g, g->bad ? c->ge_loss_bad_ppm : c->ge_loss_good_ppm);

	if (g->bad) {
		if (chance(g, c->ge_r_ppm))
			g->bad = 0;
	} else if (chance(g, c->ge_p_ppm)) {
		g->bad = 1;
	}
	return lost;
}

static __always_inline enum impair_verdict impair_decide(__u32 dir)
{
	__u32 zero = 0;
	struct calvin_impair_config *c = bpf_map_lookup_elem(&calvin_impair_config, &zero);
	struct calvin_impair_rng *g = bpf_map_lookup_elem(&calvin_impair_rng, &zero);
	bool lost;

	if (!c || !g || !(c->dirs & (1U << dir)))
		return IMPAIR_FORWARD;
	if (c->model == CALVIN_IMPAIR_GILBERT_ELLIOTT)
		lost = ge_lost(c, g);
	else
		lost = chance(g, c->loss_ppm);
	if (lost)
		return IMPAIR_LOSE;
	return chance(g, c->duplicate_ppm) ? IMPAIR_DUPLICATE : IMPAIR_FORWARD;
}

/* calvin_vnf_tail() for two copies: the same stamp and rewrite, then a
 * broadcast redirect to the egress port's duplicate group. */
static __always_inline int impair_tail_twice(struct calvin_vnf *v)
{
	struct calvin_port *out = v->port;
	struct ethhdr *eth = v->pkt.eth;
	struct calvin_stamp stamp;
	int action;

	calvin_tlm_stamp(&v->pkt, v->data_end, probe_port, vnf_id, v->dir, v->t_in, v->st, &stamp);
	__builtin_memcpy(eth->h_source, out->egress_mac, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, out->peer_mac, ETH_ALEN);
	if (out->egress_slot == CALVIN_SLOT_EAST)
		action = bpf_redirect_map(&calvin_dup_east, 0, BPF_F_BROADCAST);
	else
		action = bpf_redirect_map(&calvin_dup_west, 0, BPF_F_BROADCAST);
	if (action != XDP_REDIRECT) {
		v->st->drop_redirect++;
		return action;
	}
	v->st->impair_dup++;
	v->st->tx_packets += 2;
	v->st->tx_bytes += 2 * (v->data_end - v->data);
	calvin_tlm_stamp_out(&stamp);
	return action;
}

SEC("xdp")
int impair(struct xdp_md *ctx)
{
	struct calvin_vnf v;
	int verdict;

	if (calvin_vnf_begin(ctx, &v, &verdict))
		return verdict;
	switch (impair_decide(v.dir)) {
	case IMPAIR_LOSE:
		v.st->impair_loss++;
		return XDP_DROP;
	case IMPAIR_DUPLICATE:
		if (calvin_last & (1 << v.dir))
			return impair_tail_twice(&v);
		break;
	case IMPAIR_FORWARD:
		break;
	}
	return calvin_vnf_tail(&v, v.port);
}

char _license[] SEC("license") = "Dual BSD/GPL";
