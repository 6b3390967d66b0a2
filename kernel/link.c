// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the host-side link (link.bpf.c): one program on two ports,
 * each the other's partner. */
#include <errno.h>
#include <bpf/bpf.h>

#include "loader_priv.h"

/* Each port's partner, both ways. */
static int link_fill(struct xdp_program *prog, int a, int b)
{
	int fd = calvin_map_fd(xdp_program__bpf_obj(prog), "calvin_link_peer");
	__u32 ka = (__u32)a, kb = (__u32)b;

	if (fd < 0)
		return fd;
	if (bpf_map_update_elem(fd, &ka, &kb, BPF_ANY) ||
	    bpf_map_update_elem(fd, &kb, &ka, BPF_ANY))
		return -errno;
	return 0;
}

int calvin_xdp_link_attach(const char *obj_dir, int a_ifindex, int b_ifindex)
{
	struct xdp_program *prog;
	int err;

	calvin_loader_quiet();
	if (!obj_dir || a_ifindex <= 0 || b_ifindex <= 0 || a_ifindex == b_ifindex)
		return -EINVAL;
	prog = calvin_open_prog(obj_dir, "link", &err);
	if (!prog)
		return err;
	/* until the map is filled, frames go to the host's stack, as before */
	err = calvin_attach_native(prog, a_ifindex);
	if (err)
		goto close;
	err = calvin_attach_native(prog, b_ifindex);
	if (err)
		goto detach_a;
	err = link_fill(prog, a_ifindex, b_ifindex);
	if (!err)
		goto close;
	calvin_detach_native(prog, b_ifindex);
detach_a:
	calvin_detach_native(prog, a_ifindex);
close:
	xdp_program__close(prog);
	return err;
}
