// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the pass-everything program (pass.bpf.c) for the probe's interface. */
#include <errno.h>

#include "loader_priv.h"
#include "pass.skel.h"

int calvin_xdp_pass_attach(int ifindex)
{
	struct xdp_program *prog;
	struct pass_bpf *skel;
	int err;

	calvin_loader_quiet();
	if (ifindex <= 0)
		return -EINVAL;
	/* An af_packet port of a user VNF has calvin-vnf's hand-over program
	 * as a rule: an XDP program too, it makes the veth accept redirected
	 * frames just as this one would. */
	err = calvin_handover_attached(ifindex);
	if (err)
		return err < 0 ? err : 0;
	skel = pass_bpf__open();
	if (!skel)
		return -errno;
	prog = calvin_xdp_prog(skel->obj, skel->progs.pass, &err);
	if (prog) {
		err = calvin_attach_native(prog, ifindex);
		xdp_program__close(prog);
	}
	pass_bpf__destroy(skel);
	return err;
}
