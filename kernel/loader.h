/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Loader of the XDP VNFs (libxdp), linked into the calvin controller.
 *
 * The caller has entered the node's network namespace (setns) and bpffs is
 * mounted at /sys/fs/bpf. Every function returns 0 or -errno and prints
 * nothing: libbpf's and libxdp's own messages are silenced, and the caller
 * prints one line per failure from the function's name and strerror(-err),
 * e.g. "Failed to attach XDP program forward to west: Operation not
 * permitted". Set CALVIN_XDP_DEBUG=1 in the environment to get the
 * libraries' messages (verifier log included) on stderr instead.
 *
 * On failure nothing is left attached or pinned by the failed call.
 */
#ifndef CALVIN_LOADER_H
#define CALVIN_LOADER_H

#include <stdint.h>

#include "calvin_xdp.h"

struct calvin_xdp_forward_cfg {
	const char *obj_dir; /* directory holding forward.bpf.o etc. (build/kernel) */
	const char *pin_dir; /* e.g. /sys/fs/bpf/calvin/CHAIN/VNF: created, maps pinned here */
	uint16_t vnf_id;
	uint16_t probe_port;
	int west_ifindex, east_ifindex;
	uint8_t west_peer_mac[6]; /* far end of the west link */
	uint8_t east_peer_mac[6]; /* far end of the east link */
};

/* Attach forward.bpf.o to both ports (native mode, through libxdp's
 * dispatcher), fill its port table and devmap, and pin its maps
 * (CALVIN_PIN_*) under pin_dir. */
int calvin_xdp_forward_attach(const struct calvin_xdp_forward_cfg *cfg);

struct calvin_xdp_reflect_cfg {
	const char *obj_dir, *pin_dir;
	uint16_t probe_port;
	int ifindex;
};

/* Attach reflect.bpf.o to ifindex and pin its stats under pin_dir. */
int calvin_xdp_reflect_attach(const struct calvin_xdp_reflect_cfg *cfg);

/* Attach pass.bpf.o to ifindex (see kernel/pass.bpf.c for why). */
int calvin_xdp_pass_attach(const char *obj_dir, int ifindex);

/* Remove every XDP program from ifindex (libxdp dispatcher, or a legacy
 * single program such as DPDK's), and libxdp's bpffs pins for it. 0 if none. */
int calvin_xdp_detach_all(int ifindex);

/* Sum the per-CPU stats pinned under pin_dir, per direction
 * (out[CALVIN_DIR_FWD], out[CALVIN_DIR_REV]). */
int calvin_xdp_read_stats(const char *pin_dir, struct calvin_vnf_stats out[2]);

#endif /* CALVIN_LOADER_H */
