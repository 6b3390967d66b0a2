/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Types shared by the XDP VNFs (kernel/NAME.bpf.c) and their loader (kernel/loader.c). */
#ifndef CALVIN_XDP_H
#define CALVIN_XDP_H

#include <linux/types.h>
#include <calvin/telemetry.h>

/* Names of the pins under a VNF's pin dir (/sys/fs/bpf/calvin/CHAIN/VNF/).
 * The controller reads stats through these names, so they are part of the
 * interface, not a detail of the loader. */
#define CALVIN_PIN_STATS "stats"
#define CALVIN_PIN_PORTS "ports"
#define CALVIN_PIN_EGRESS "egress"
/* acl (kernel/acl.bpf.c) */
#define CALVIN_PIN_ACL_RULES "acl_rules"
#define CALVIN_PIN_ACL_SETS "acl_sets"
#define CALVIN_PIN_ACL_ACTIVE "acl_active"
#define CALVIN_PIN_ACL_HITS "acl_hits"
/* router (kernel/router.bpf.c) */
#define CALVIN_PIN_ROUTES4 "routes4"
#define CALVIN_PIN_ROUTES6 "routes6"
#define CALVIN_PIN_ROUTER_VIA "router_via"

/* Slots of the forwarder's egress devmap: a frame entering on west leaves
 * through the east slot and the other way round. */
#define CALVIN_SLOT_WEST 0
#define CALVIN_SLOT_EAST 1
#define CALVIN_EGRESS_SLOTS 8 /* room for more ports than a 2-port VNF needs */
#define CALVIN_MAX_PORTS 8

/* Value of the forwarder's port table, keyed by ingress ifindex. */
struct calvin_port {
	__u32 egress_slot; /* key into the egress devmap */
	__u8 dir;	   /* CALVIN_DIR_FWD or CALVIN_DIR_REV, for stats and hop records */
	__u8 pad;
	__u8 egress_mac[6]; /* the egress interface's own MAC: new source */
	__u8 peer_mac[6];   /* far end of the egress link: new destination */
	__u8 pad2[2];
};

/* Per-CPU, per-direction counters (index CALVIN_DIR_FWD / CALVIN_DIR_REV).
 * The reflector counts what it receives under FWD (rx_*, probes,
 * pass_other, drop_malformed) and what it sends back under REV (tx_*).
 * tx_* count frames handed on (XDP_REDIRECT or XDP_TX verdicts),
 * not frames the driver managed to transmit. */
struct calvin_vnf_stats {
	__u64 rx_packets;
	__u64 rx_bytes;
	__u64 tx_packets;
	__u64 tx_bytes;
	__u64 probes;	      /* telemetry blocks stamped (or reflected) */
	__u64 drop_malformed; /* cut Ethernet/VLAN header, bad IPv4/IPv6 header */
	__u64 drop_redirect;  /* not forwarded: no port entry, or empty devmap slot */
	__u64 pass_other;     /* handed to the node's own stack: not IP (reflector: not bounced) */
	__u64 tlm_overflow;   /* probe had no free hop record */
	/* acl and router (all XDP_DROP) */
	__u64 drop_acl;	     /* denied by a rule or by the default action */
	__u64 drop_no_route; /* router: no route for the destination */
	__u64 drop_route;    /* router: the route says via drop */
	__u64 drop_ttl;	     /* router: TTL / hop limit 0 or 1 on arrival */
	/* ratelimit and impair */
	__u64 drop_ratelimit; /* ratelimit: over the rate (XDP_DROP) */
	__u64 impair_loss;    /* impair: dropped by the loss model (XDP_DROP) */
	__u64 impair_dup;     /* impair: sent twice (broadcast redirect) */
};

#define CALVIN_NR_DIRS 2

/* Address families as the parser (parse.bpf.h) and the rule tables say them. */
#define CALVIN_FAMILY_ANY 0
#define CALVIN_FAMILY_IPV4 4
#define CALVIN_FAMILY_IPV6 6

/* acl: two rule sets of CALVIN_XDP_ACL_MAX_RULES entries each in one array
 * (set s, rule i at s * CALVIN_XDP_ACL_MAX_RULES + i); the set in use is
 * the one value of the acl_active array. No smaller than the chain spec's
 * CALVIN_ACL_MAX_RULES (checked where the spec is converted,
 * userspace/lib/kvnf_spec.c). */
#define CALVIN_XDP_ACL_MAX_RULES 64
#define CALVIN_XDP_ACL_SETS 2
/* Hit counters: set s, rule i at s * CALVIN_XDP_ACL_HIT_STRIDE + i; the
 * default action's at s * CALVIN_XDP_ACL_HIT_STRIDE + CALVIN_XDP_ACL_MAX_RULES. */
#define CALVIN_XDP_ACL_HIT_STRIDE (CALVIN_XDP_ACL_MAX_RULES + 1)

/* acl actions */
#define CALVIN_XDP_ACL_ALLOW 0
#define CALVIN_XDP_ACL_DENY 1

/* One compiled rule. Addresses are in network byte order, pre-masked, IPv4
 * in word 0; a zero mask matches anything. */
struct calvin_acl_entry {
	__be32 src[4], src_mask[4];
	__be32 dst[4], dst_mask[4];
	__u16 sport_lo, sport_hi; /* host order, inclusive */
	__u16 dport_lo, dport_hi;
	__u8 family; /* CALVIN_FAMILY_* */
	__u8 proto;  /* IPPROTO_*, 0 = any */
	__u8 action; /* CALVIN_XDP_ACL_* */
	__u8 ports;  /* 1: the port ranges must match, so only TCP/UDP with ports can */
};

struct calvin_acl_set {
	__u32 nr_rules;
	__u32 default_action; /* CALVIN_XDP_ACL_* */
};

/* router: LPM trie keys (prefix length in bits, then the address in network
 * byte order); the value is a __u32 CALVIN_XDP_VIA_*. */
struct calvin_lpm4_key {
	__u32 prefixlen;
	__u8 addr[4];
};

struct calvin_lpm6_key {
	__u32 prefixlen;
	__u8 addr[16];
};

/* Where a route sends a frame; WEST and EAST index the router_via array
 * (the port table entry a frame leaving that way uses). */
#define CALVIN_XDP_VIA_WEST 0
#define CALVIN_XDP_VIA_EAST 1
#define CALVIN_XDP_VIA_DROP 2

/* Routes of one router; its tries have room for twice as many, so that a
 * live update can write a whole new table before it deletes the old one. */
#define CALVIN_XDP_ROUTER_MAX_ROUTES 256

#endif /* CALVIN_XDP_H */
