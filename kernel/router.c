// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the router VNF (router.bpf.c): routes into LPM tries, live route updates. */
#include <errno.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "loader_priv.h"
#include "router_routes.h"

static const struct calvin_pin router_pins[] = {
    {"routes4", CALVIN_PIN_ROUTES4},
    {"routes6", CALVIN_PIN_ROUTES6},
    {"router_via", CALVIN_PIN_ROUTER_VIA},
    {NULL, NULL},
};

static int router_fill(struct bpf_object *obj, const void *arg)
{
	const struct calvin_xdp_router_cfg *cfg = arg;
	int via = calvin_map_fd(obj, "router_via");
	struct calvin_port port;
	uint32_t key;
	int err;

	if (via < 0)
		return via;
	for (key = CALVIN_XDP_VIA_WEST; key <= CALVIN_XDP_VIA_EAST; key++) {
		err = calvin_port_entry(&cfg->fwd, key == CALVIN_XDP_VIA_EAST, &port);
		if (err)
			return err;
		if (bpf_map_update_elem(via, &key, &port, BPF_ANY))
			return -errno;
	}
	return calvin_router_write(calvin_map_fd(obj, "routes4"), calvin_map_fd(obj, "routes6"),
				   cfg->router);
}

static const struct calvin_vnf_ops router_ops = {
    .name = "router",
    .pins = router_pins,
    .fill = router_fill,
};

int calvin_xdp_router_attach(const struct calvin_xdp_router_cfg *cfg)
{
	int err;

	if (!cfg || (cfg->fwd.node_count > 1 && cfg->fwd.node_index != cfg->fwd.node_count - 1))
		return -EINVAL;
	err = calvin_router_check(cfg->router);
	if (err)
		return err;
	return calvin_vnf_attach(&cfg->fwd, &router_ops, cfg);
}

int calvin_xdp_router_update(const char *pin_dir, const struct calvin_xdp_routes *routes)
{
	int fd4, fd6, err;

	err = calvin_router_check(routes);
	if (err)
		return err;
	fd4 = calvin_pinned_fd(pin_dir, CALVIN_PIN_ROUTES4);
	if (fd4 < 0)
		return fd4;
	fd6 = calvin_pinned_fd(pin_dir, CALVIN_PIN_ROUTES6);
	if (fd6 < 0) {
		err = fd6;
		goto close4;
	}
	err = calvin_router_write(fd4, fd6, routes);
	close(fd6);
close4:
	close(fd4);
	return err;
}
