/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Internals shared by the loader's common part (loader.c) and the per-VNF loaders (KIND.c). */
#ifndef CALVIN_LOADER_PRIV_H
#define CALVIN_LOADER_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>

#include "loader.h"

/* A map a program pins: its BPF name and its name under the pin dir. */
struct calvin_pin {
	const char *map;
	const char *name;
};

/* What a two-port VNF (one that forwards west<->east through the common
 * tail, kernel/vnf_tail.bpf.h) adds to the common attach sequence. */
struct calvin_vnf_ops {
	const char *name; /* object NAME.bpf.o, program NAME */
	/* Its own maps to pin besides stats, ports and egress; NULL-terminated,
	 * or NULL for none. */
	const struct calvin_pin *pins;
	/* Before load: set its own read-only globals. May be NULL. */
	int (*configure)(struct bpf_object *obj, const void *arg);
	/* After load, before the port table is filled (so before it forwards
	 * anything): fill its own maps. May be NULL. */
	int (*fill)(struct bpf_object *obj, const void *arg);
};

/* Silence libbpf and libxdp unless CALVIN_XDP_DEBUG is set (see loader.h). */
void calvin_loader_quiet(void);

int calvin_mkdir_p(const char *path);

/* Open OBJ_DIR/NAME.bpf.o; NULL and *err set on failure. */
struct xdp_program *calvin_open_prog(const char *obj_dir, const char *name, int *err);

/* Attach in native mode; the one place that decides how we attach. */
int calvin_attach_native(struct xdp_program *prog, int ifindex);
void calvin_detach_native(struct xdp_program *prog, int ifindex);

/* Pin the maps of pins (NULL-terminated) under pin_dir, replacing stale
 * pins; on failure none of them stays pinned. */
int calvin_pin_maps(struct bpf_object *obj, const char *pin_dir, const struct calvin_pin *pins);
void calvin_unpin_maps(const char *pin_dir, const struct calvin_pin *pins);

/* fd of a loaded object's map, or -ENOENT. */
int calvin_map_fd(struct bpf_object *obj, const char *name);

/* fd of the map pinned as PIN_DIR/NAME (close it), or -errno. */
int calvin_pinned_fd(const char *pin_dir, const char *name);

/* Set the common read-only globals of a two-port VNF: vnf_id, probe_port,
 * calvin_last, calvin_clock. */
int calvin_vnf_set_rodata(struct bpf_object *obj, const struct calvin_xdp_forward_cfg *cfg);

/* The port table entry of frames leaving through east (FWD) if east, else
 * through west (REV): egress slot, direction, the MACs to write. */
int calvin_port_entry(const struct calvin_xdp_forward_cfg *cfg, bool east,
		      struct calvin_port *port);

/* The whole attach of a two-port VNF: open ops->name, configure, attach to
 * both ports, fill, fill the port table and devmap, pin. arg goes to the
 * ops' callbacks. */
int calvin_vnf_attach(const struct calvin_xdp_forward_cfg *cfg, const struct calvin_vnf_ops *ops,
		      const void *arg);

/* Sum the per-CPU values of key, each n __u64 counters, into out[n]. */
int calvin_percpu_sum(int fd, uint32_t key, __u64 *out, unsigned int n);

#endif /* CALVIN_LOADER_PRIV_H */
