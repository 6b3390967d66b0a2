// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the forwarding VNF (forward.bpf.c): nothing beyond the common two-port attach. */
#include <errno.h>

#include "forward.skel.h"
#include "loader_priv.h"

int calvin_xdp_forward_attach(const struct calvin_xdp_forward_cfg *cfg)
{
	struct forward_bpf *skel;
	int err;

	calvin_loader_quiet();
	skel = forward_bpf__open();
	if (!skel)
		return -errno;
	err = calvin_vnf_attach(cfg, &CALVIN_VNF_SKEL(skel, forward), NULL);
	forward_bpf__destroy(skel);
	return err;
}
