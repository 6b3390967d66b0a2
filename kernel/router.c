// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the router VNF (router.bpf.c): routes into LPM tries, live route updates. */
#include <errno.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "loader_priv.h"
#include "router.skel.h"
#include "router_routes.h"

static int router_fill(const struct calvin_vnf *vnf, const void *arg)
{
	const struct calvin_xdp_router_cfg *cfg = arg;
	const struct router_bpf *skel = vnf->skel;
	int via = bpf_map__fd(skel->maps.router_via);
	struct calvin_port port;
	uint32_t key;
	int err;

	for (key = CALVIN_XDP_VIA_WEST; key <= CALVIN_XDP_VIA_EAST; key++) {
		err = calvin_port_entry(&cfg->fwd, key == CALVIN_XDP_VIA_EAST, &port);
		if (err)
			return err;
		if (bpf_map_update_elem(via, &key, &port, BPF_ANY))
			return -errno;
	}
	return calvin_router_write(bpf_map__fd(skel->maps.routes4), bpf_map__fd(skel->maps.routes6),
				   cfg->router);
}

int calvin_xdp_router_attach(const struct calvin_xdp_router_cfg *cfg)
{
	struct router_bpf *skel;
	struct calvin_vnf vnf;
	int err;

	if (!cfg || (cfg->fwd.node_count > 1 && cfg->fwd.node_index != cfg->fwd.node_count - 1))
		return -EINVAL;
	err = calvin_router_check(cfg->router);
	if (err)
		return err;
	calvin_loader_quiet();
	skel = router_bpf__open();
	if (!skel)
		return -errno;
	vnf = CALVIN_VNF_SKEL(skel, router, { skel->maps.routes4, CALVIN_PIN_ROUTES4 },
			      { skel->maps.routes6, CALVIN_PIN_ROUTES6 },
			      { skel->maps.router_via, CALVIN_PIN_ROUTER_VIA });
	vnf.fill = router_fill;
	err = calvin_vnf_attach(&cfg->fwd, &vnf, cfg);
	router_bpf__destroy(skel);
	return err;
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
