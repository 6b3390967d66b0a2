/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Rate-limiting VNF: types shared by ratelimit.bpf.c and its loader ratelimit.c; the loader's API.
 *
 * The bucket is a token bucket written as GCRA (virtual scheduling): per
 * dimension one time, tat, at which the bucket will be full again. A frame
 * costing c ns of the rate passes if max(tat, now) + c - now <= burst * (ns
 * per unit), and then moves tat there. One word per dimension is what lets
 * a flow's bucket be updated lock-free (see ratelimit.bpf.c).
 */
#ifndef CALVIN_RATELIMIT_H
#define CALVIN_RATELIMIT_H

#include <linux/types.h>

#define CALVIN_PIN_RL_CONFIG "rl_config"
#define CALVIN_PIN_RL_FLOWS "rl_flows"

/* Flows tracked at once in per-flow mode; the least recently used one is
 * forgotten beyond that (and starts again with a full bucket). */
#define CALVIN_RL_MAX_FLOWS 65536

/* One bucket for the VNF, or one per flow (5-tuple). */
#define CALVIN_XDP_RL_PER_VNF 0
#define CALVIN_XDP_RL_PER_FLOW 1

/* The one value of the rl_config array, and what the loader takes. A rate
 * of 0 leaves that dimension unlimited. Given to the loader, a burst of 0
 * is the default (rate / 100, at least 1 packet or 1514 bytes), which it
 * fills in: in the map the bursts are never 0 where the rate is set. Bytes
 * are Ethernet frame bytes (no FCS). */
struct calvin_rl_config {
	__u64 pps;
	__u64 bytes_per_sec;
	__u64 burst_packets;
	__u64 burst_bytes;
	__u32 per; /* CALVIN_XDP_RL_PER_* */
	__u32 pad;
};

/* Value of the per-flow LRU hash. */
struct calvin_rl_tat {
	__u64 pkt;  /* ns, CLOCK_MONOTONIC */
	__u64 byte; /* ns */
};

/* Key of the per-flow LRU hash: the 5-tuple. Ports are 0 for protocols
 * without them and for IPv4 fragments. IPv4 addresses fill word 0. */
struct calvin_rl_flow {
	__be32 src[4];
	__be32 dst[4];
	__be16 sport, dport;
	__u8 proto;
	__u8 family; /* CALVIN_FAMILY_IPV4 or _IPV6 */
	__u8 pad[2];
};

#ifndef __bpf__
#include "loader.h"

struct calvin_xdp_ratelimit_cfg {
	struct calvin_xdp_forward_cfg fwd; /* ports, ids, place in the node */
	const struct calvin_rl_config *rl;
};

/* Attach ratelimit.bpf.c like the forwarder, with the rates in its config
 * map before it forwards anything; also pins CALVIN_PIN_RL_*. -EINVAL for
 * no rate at all or an unknown per, -ERANGE for more than 10^9 pps or a
 * burst whose length in ns does not fit in 64 bits. */
int calvin_xdp_ratelimit_attach(const struct calvin_xdp_ratelimit_cfg *cfg);

/* Change the rates and bursts of a running ratelimit VNF with one map
 * write. Buckets are kept, not refilled: an empty bucket stays empty and
 * refills at the new rate; one owing more than the new burst is empty;
 * what a bucket owes is kept as time (ns until it is full again). Switching
 * rl->per between vnf and flow is allowed: the other kind of bucket
 * starts full. */
int calvin_xdp_ratelimit_update(const char *pin_dir, const struct calvin_rl_config *rl);
#endif

#endif /* CALVIN_RATELIMIT_H */
