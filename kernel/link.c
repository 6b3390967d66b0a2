// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the host-side link (link.bpf.c): one program on two ports,
 * each the other's partner. */
#include <errno.h>
#include <bpf/bpf.h>

#include "link.skel.h"
#include "loader_priv.h"

/* Each port's partner, both ways. */
static int link_fill(const struct link_bpf *skel, int a, int b)
{
	int fd = bpf_map__fd(skel->maps.calvin_link_peer);
	__u32 ka = (__u32)a, kb = (__u32)b;

	if (bpf_map_update_elem(fd, &ka, &kb, BPF_ANY) ||
	    bpf_map_update_elem(fd, &kb, &ka, BPF_ANY))
		return -errno;
	return 0;
}

static int link_attach(const struct link_bpf *skel, int a_ifindex, int b_ifindex)
{
	struct xdp_program *prog;
	int err;

	prog = calvin_xdp_prog(skel->obj, skel->progs.link, &err);
	if (!prog)
		return err;
	/* until the map is filled, frames go to the host's stack, as before */
	err = calvin_attach_native(prog, a_ifindex);
	if (err)
		goto close;
	err = calvin_attach_native(prog, b_ifindex);
	if (err)
		goto detach_a;
	err = link_fill(skel, a_ifindex, b_ifindex);
	if (!err)
		goto close;
	calvin_detach_native(prog, b_ifindex);
detach_a:
	calvin_detach_native(prog, a_ifindex);
close:
	xdp_program__close(prog);
	return err;
}

int calvin_xdp_link_attach(int a_ifindex, int b_ifindex)
{
	struct link_bpf *skel;
	int err;

	calvin_loader_quiet();
	if (a_ifindex <= 0 || b_ifindex <= 0 || a_ifindex == b_ifindex)
		return -EINVAL;
	skel = link_bpf__open();
	if (!skel)
		return -errno;
	err = link_attach(skel, a_ifindex, b_ifindex);
	link_bpf__destroy(skel);
	return err;
}
