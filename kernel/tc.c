// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the kernel VNFs at tc ingress (throughput mode): clsact filters in direct action. */
#include <errno.h>
#include <bpf/libbpf.h>

#include "forward_tc.skel.h"
#include "loader_priv.h"

/* Filters of one VNF: one handle, its priority on the node. */
#define TC_HANDLE 1

static int tc_attach_port(int ifindex, int prog_fd, unsigned int prio)
{
	DECLARE_LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex, .attach_point = BPF_TC_INGRESS);
	DECLARE_LIBBPF_OPTS(bpf_tc_opts, opts, .prog_fd = prog_fd, .handle = TC_HANDLE,
			    .priority = prio);
	int err;

	/* the clsact qdisc is the port's: a second VNF on the node finds it */
	err = bpf_tc_hook_create(&hook);
	if (err && err != -EEXIST)
		return err;
	return bpf_tc_attach(&hook, &opts);
}

static void tc_detach_port(int ifindex, unsigned int prio)
{
	DECLARE_LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex, .attach_point = BPF_TC_INGRESS);
	DECLARE_LIBBPF_OPTS(bpf_tc_opts, opts, .handle = TC_HANDLE, .priority = prio);

	bpf_tc_detach(&hook, &opts);
}

int calvin_tc_vnf_attach(const struct calvin_xdp_forward_cfg *cfg, const struct calvin_vnf *vnf)
{
	const struct calvin_pin pins[] = CALVIN_VNF_PINS(vnf);
	unsigned int prio = 1 + (cfg ? cfg->node_index : 0);
	int err, fd;

	err = calvin_vnf_prepare(cfg, vnf);
	if (!err)
		err = bpf_object__load(vnf->obj);
	if (err)
		return err;
	fd = bpf_program__fd(vnf->prog);
	/* Until the port table is filled, the program passes every frame to
	 * the stack (see vnf_tail.bpf.h), as the XDP attach does. */
	err = tc_attach_port(cfg->west_ifindex, fd, prio);
	if (err)
		return err;
	err = tc_attach_port(cfg->east_ifindex, fd, prio);
	if (err)
		goto detach_west;
	err = calvin_vnf_fill_ports(vnf, cfg);
	if (!err)
		err = calvin_pin_maps(cfg->pin_dir, pins);
	if (!err)
		return 0;
	tc_detach_port(cfg->east_ifindex, prio);
detach_west:
	tc_detach_port(cfg->west_ifindex, prio);
	return err;
}

int calvin_tc_forward_attach(const struct calvin_xdp_forward_cfg *cfg)
{
	struct forward_tc_bpf *skel;
	int err;

	calvin_loader_quiet();
	skel = forward_tc_bpf__open();
	if (!skel)
		return -errno;
	err = calvin_tc_vnf_attach(cfg, &CALVIN_VNF_SKEL(skel, forward_tc));
	forward_tc_bpf__destroy(skel);
	return err;
}
