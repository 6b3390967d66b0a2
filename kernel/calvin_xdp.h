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
 * The reflector counts what it receives under FWD and what it sends back
 * under REV. tx_* count frames handed on (XDP_REDIRECT or XDP_TX verdicts),
 * not frames the driver managed to transmit. */
struct calvin_vnf_stats {
	__u64 rx_packets;
	__u64 rx_bytes;
	__u64 tx_packets;
	__u64 tx_bytes;
	__u64 probes;	      /* telemetry blocks stamped (or reflected) */
	__u64 drop_malformed; /* runt Ethernet frame or bad IPv4 header */
	__u64 drop_redirect;  /* not forwarded: no port entry, or empty devmap slot */
	__u64 pass_other;     /* not IP: handed to the node's own stack */
	__u64 tlm_overflow;   /* probe had no free hop record */
};

#define CALVIN_NR_DIRS 2

#endif /* CALVIN_XDP_H */
