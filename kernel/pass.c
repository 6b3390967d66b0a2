// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the pass-everything program (pass.bpf.c) for the probe's interface. */
#include <errno.h>

#include "loader_priv.h"

int calvin_xdp_pass_attach(const char *obj_dir, int ifindex)
{
	struct xdp_program *prog;
	int err;

	calvin_loader_quiet();
	if (!obj_dir || ifindex <= 0)
		return -EINVAL;
	/* An af_packet port of a user VNF has calvin-vnf's hand-over program
	 * as a rule: an XDP program too, it makes the veth accept redirected
	 * frames just as this one would. */
	err = calvin_handover_attached(ifindex);
	if (err)
		return err < 0 ? err : 0;
	prog = calvin_open_prog(obj_dir, "pass", &err);
	if (!prog)
		return err;
	err = calvin_attach_native(prog, ifindex);
	xdp_program__close(prog);
	return err;
}
