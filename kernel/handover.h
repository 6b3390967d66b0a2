/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The hand-over program of a user VNF's port (handover.bpf.c): what it
 * shares with its loader (handover.c) and calvin-vnf.
 *
 * calvin-vnf puts it on each of its ports: the af_xdp PMD loads it itself
 * (its xdp_prog devarg), so its settings cannot be read-only globals set
 * before load; they are the one entry of a map, written once the program
 * is attached and before calvin-vnf says it is ready. Until then
 * probe_port is 0 and the program opens no hop record.
 */
#ifndef CALVIN_HANDOVER_H
#define CALVIN_HANDOVER_H

#include <linux/types.h>

/* The object, in the directory of the XDP objects, and its program. */
#define CALVIN_HANDOVER_OBJ "handover.bpf.o"
#define CALVIN_HANDOVER_PROG "handover"
/* Map names the loader looks up on a program the af_xdp PMD loaded;
 * xsks_map is the name DPDK 22.11's af_xdp PMD requires of a custom program. */
#define CALVIN_HANDOVER_CFG_MAP "handover_cfg"
#define CALVIN_HANDOVER_STATS_MAP "handover_stats"
#define CALVIN_HANDOVER_XSKS_MAP "xsks_map"
/* AF_XDP sockets it can hand frames to: one per receive queue. */
#define CALVIN_HANDOVER_MAX_QUEUES 64

struct calvin_handover_cfg {
	__u16 vnf_id;
	__u16 probe_port; /* 0: not configured yet, open no record */
	__u8 dir;	  /* CALVIN_DIR_* of the frames this port receives */
	__u8 clock;	  /* clock domain of the node (CALVIN_CLOCK_*) */
	__u8 pad[2];
};

#endif /* CALVIN_HANDOVER_H */
