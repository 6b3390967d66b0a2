// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the hand-over program (handover.bpf.c), for calvin-vnf's ports.
 *
 * Plain libbpf, no libxdp: calvin-vnf runs where bpffs may not be mounted,
 * and the af_xdp PMD attaches its copy of the program as a single one too.
 * A hand-over program is known by its name and its config map, whoever
 * loaded it.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "handover.h"
#include "loader.h"

/* fd of the program attached to ifindex, if it is a hand-over program;
 * -ENOENT if none is attached or it is another one. */
static int handover_prog_fd(int ifindex)
{
	struct bpf_prog_info info;
	__u32 id = 0, len = sizeof(info);
	int fd, err;

	err = bpf_xdp_query_id(ifindex, 0, &id);
	if (err)
		return err;
	if (!id)
		return -ENOENT;
	fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0)
		return -errno;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		err = -errno;
		goto close_fd;
	}
	if (strcmp(info.name, CALVIN_HANDOVER_PROG)) {
		err = -ENOENT;
		goto close_fd;
	}
	return fd;
close_fd:
	close(fd);
	return err;
}

/* fd of the map called name among those of program prog_fd, or -ENOENT. */
static int prog_map_fd(int prog_fd, const char *name)
{
	struct bpf_prog_info info;
	struct bpf_map_info minfo;
	__u32 ids[8], len = sizeof(info), mlen, i;
	int fd;

	memset(&info, 0, sizeof(info));
	info.nr_map_ids = sizeof(ids) / sizeof(ids[0]);
	info.map_ids = (__u64)(unsigned long)ids;
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return -errno;
	for (i = 0; i < info.nr_map_ids && i < sizeof(ids) / sizeof(ids[0]); i++) {
		fd = bpf_map_get_fd_by_id(ids[i]);
		if (fd < 0)
			continue;
		memset(&minfo, 0, sizeof(minfo));
		mlen = sizeof(minfo);
		if (!bpf_obj_get_info_by_fd(fd, &minfo, &mlen) && !strcmp(minfo.name, name))
			return fd;
		close(fd);
	}
	return -ENOENT;
}

static int cfg_write(int map_fd, const struct calvin_handover_cfg *cfg)
{
	__u32 key = 0;

	return bpf_map_update_elem(map_fd, &key, cfg, BPF_ANY) ? -errno : 0;
}

int calvin_handover_configure(int ifindex, const struct calvin_handover_cfg *cfg)
{
	int prog_fd, map_fd, err;

	prog_fd = handover_prog_fd(ifindex);
	if (prog_fd < 0)
		return prog_fd;
	map_fd = prog_map_fd(prog_fd, CALVIN_HANDOVER_CFG_MAP);
	close(prog_fd);
	if (map_fd < 0)
		return map_fd;
	err = cfg_write(map_fd, cfg);
	close(map_fd);
	return err;
}

/* Configured before it is attached, so the first probe it sees is stamped. */
int calvin_handover_attach(const char *obj_path, int ifindex, const struct calvin_handover_cfg *cfg)
{
	struct bpf_program *prog;
	struct bpf_object *obj;
	struct bpf_map *map;
	int err;

	obj = bpf_object__open_file(obj_path, NULL);
	err = (int)libbpf_get_error(obj);
	if (err)
		return err;
	err = bpf_object__load(obj);
	if (err)
		goto close_obj;
	prog = bpf_object__find_program_by_name(obj, CALVIN_HANDOVER_PROG);
	map = bpf_object__find_map_by_name(obj, CALVIN_HANDOVER_CFG_MAP);
	if (!prog || !map) {
		err = -ENOENT;
		goto close_obj;
	}
	err = cfg_write(bpf_map__fd(map), cfg);
	if (err)
		goto close_obj;
	err = bpf_xdp_attach(ifindex, bpf_program__fd(prog),
			     XDP_FLAGS_DRV_MODE | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL);
close_obj:
	/* an attached program keeps itself and its maps */
	bpf_object__close(obj);
	return err;
}

int calvin_handover_attached(int ifindex)
{
	int fd = handover_prog_fd(ifindex);

	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	close(fd);
	return 1;
}

/* Only if it is still the one attached: the kernel compares. */
int calvin_handover_detach(int ifindex)
{
	LIBBPF_OPTS(bpf_xdp_attach_opts, opts);
	int fd, err;

	fd = handover_prog_fd(ifindex);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	opts.old_prog_fd = fd;
	err = bpf_xdp_detach(ifindex, XDP_FLAGS_DRV_MODE, &opts);
	close(fd);
	return err;
}
