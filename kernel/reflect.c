// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the echo server stand-in (reflect.bpf.c): one port, its mode, stats pinned. */
#include <errno.h>

#include "loader_priv.h"
#include "reflect.skel.h"

/* Attached, and its stats pinned; nothing of it left on failure. */
static int reflect_attach(struct reflect_bpf *skel, const struct calvin_xdp_reflect_cfg *cfg)
{
	const struct calvin_pin pins[] = {
		{ skel->maps.calvin_stats, CALVIN_PIN_STATS },
		{ NULL, NULL },
	};
	struct xdp_program *prog;
	int err;

	prog = calvin_xdp_prog(skel->obj, skel->progs.reflect, &err);
	if (!prog)
		return err;
	err = calvin_attach_native(prog, cfg->ifindex);
	if (err)
		goto close;
	err = calvin_pin_maps(cfg->pin_dir, pins);
	if (err)
		calvin_detach_native(prog, cfg->ifindex);
close:
	xdp_program__close(prog);
	return err;
}

int calvin_xdp_reflect_attach(const struct calvin_xdp_reflect_cfg *cfg)
{
	struct reflect_bpf *skel;
	int err;

	calvin_loader_quiet();
	if (!cfg || !cfg->pin_dir || cfg->ifindex <= 0)
		return -EINVAL;
	err = calvin_mkdir_p(cfg->pin_dir);
	if (err)
		return err;
	skel = reflect_bpf__open();
	if (!skel)
		return -errno;
	skel->rodata->probe_port = cfg->probe_port;
	skel->rodata->reflect_all = cfg->all;
	err = reflect_attach(skel, cfg);
	reflect_bpf__destroy(skel);
	return err;
}
