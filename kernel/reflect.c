// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the echo server stand-in (reflect.bpf.c): one port, its mode, stats pinned. */
#include <errno.h>

#include "bpf_rodata.h"
#include "loader_priv.h"

static const struct calvin_pin reflect_pins[] = {
    {"calvin_stats", CALVIN_PIN_STATS},
    {NULL, NULL},
};

int calvin_xdp_reflect_attach(const struct calvin_xdp_reflect_cfg *cfg)
{
	struct xdp_program *prog;
	struct bpf_object *obj;
	__u8 all;
	int err;

	calvin_loader_quiet();
	if (!cfg || !cfg->obj_dir || !cfg->pin_dir || cfg->ifindex <= 0)
		return -EINVAL;
	err = calvin_mkdir_p(cfg->pin_dir);
	if (err)
		return err;
	prog = calvin_open_prog(cfg->obj_dir, "reflect", &err);
	if (!prog)
		return err;
	obj = xdp_program__bpf_obj(prog);
	all = cfg->all;
	err = calvin_bpf_set_rodata(obj, "probe_port", &cfg->probe_port, sizeof(cfg->probe_port));
	if (!err)
		err = calvin_bpf_set_rodata(obj, "reflect_all", &all, sizeof(all));
	if (err)
		goto close;
	err = calvin_attach_native(prog, cfg->ifindex);
	if (err)
		goto close;
	err = calvin_pin_maps(obj, cfg->pin_dir, reflect_pins);
	if (err)
		goto detach;
	goto close;

detach:
	calvin_detach_native(prog, cfg->ifindex);
close:
	xdp_program__close(prog);
	return err;
}
