// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the forwarding VNF (forward.bpf.c): nothing beyond the common two-port attach. */
#include "loader_priv.h"

static const struct calvin_vnf_ops forward_ops = {
    .name = "forward",
};

int calvin_xdp_forward_attach(const struct calvin_xdp_forward_cfg *cfg)
{
	return calvin_vnf_attach(cfg, &forward_ops, NULL);
}
