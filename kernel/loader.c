// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the XDP VNFs: attach through libxdp, fill and pin the maps, detach, read stats. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>

#include "bpf_rodata.h"
#include "loader.h"

/* The maps each program pins, by BPF name and pin name. */
struct pin {
	const char *map;
	const char *name;
};

static const struct pin forward_pins[] = {
    {"calvin_stats", CALVIN_PIN_STATS},
    {"calvin_ports", CALVIN_PIN_PORTS},
    {"calvin_egress", CALVIN_PIN_EGRESS},
    {NULL, NULL},
};

static const struct pin reflect_pins[] = {
    {"calvin_stats", CALVIN_PIN_STATS},
    {NULL, NULL},
};

static int print_silent(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static int print_stderr(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return vfprintf(stderr, fmt, ap);
}

static int xdp_print_silent(enum libxdp_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static int xdp_print_stderr(enum libxdp_print_level level, const char *fmt, va_list ap)
{
	return vfprintf(stderr, fmt, ap);
}

/* The caller owns error messages (see loader.h); the libraries speak only
 * when asked to with CALVIN_XDP_DEBUG. */
static void loader_quiet(void)
{
	int debug = getenv("CALVIN_XDP_DEBUG") != NULL;

	libbpf_set_print(debug ? print_stderr : print_silent);
	libxdp_set_print(debug ? xdp_print_stderr : xdp_print_silent);
}

static int mkdir_p(const char *path)
{
	char buf[PATH_MAX], *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0700) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

/* The interface's own MAC, as seen in the current network namespace. */
static int if_mac(int ifindex, uint8_t mac[6])
{
	struct ifreq ifr = {0};
	int fd, err = 0;

	if (!if_indextoname(ifindex, ifr.ifr_name))
		return -errno;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr))
		err = -errno;
	else
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	close(fd);
	return err;
}

static struct xdp_program *open_prog(const char *obj_dir, const char *name, int *err)
{
	struct xdp_program *prog;
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s.bpf.o", obj_dir, name) >= (int)sizeof(path)) {
		*err = -ENAMETOOLONG;
		return NULL;
	}
	prog = xdp_program__open_file(path, NULL, NULL);
	*err = (int)libxdp_get_error(prog);
	return *err ? NULL : prog;
}

static void unpin_maps(const char *pin_dir, const struct pin *pins)
{
	char path[PATH_MAX];

	for (; pins->map; pins++)
		if (snprintf(path, sizeof(path), "%s/%s", pin_dir, pins->name) < (int)sizeof(path))
			unlink(path);
}

/* Pins left by a run that crashed are replaced, not an error. */
static int pin_maps(struct bpf_object *obj, const char *pin_dir, const struct pin *pins)
{
	const struct pin *p;
	char path[PATH_MAX];
	struct bpf_map *map;
	int err;

	for (p = pins; p->map; p++) {
		map = bpf_object__find_map_by_name(obj, p->map);
		if (!map) {
			err = -ENOENT;
			goto unpin;
		}
		if (snprintf(path, sizeof(path), "%s/%s", pin_dir, p->name) >= (int)sizeof(path)) {
			err = -ENAMETOOLONG;
			goto unpin;
		}
		if (unlink(path) && errno != ENOENT) {
			err = -errno;
			goto unpin;
		}
		err = bpf_map__pin(map, path);
		if (err)
			goto unpin;
	}
	return 0;

unpin:
	unpin_maps(pin_dir, pins);
	return err;
}

static int map_fd(struct bpf_object *obj, const char *name)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, name);

	return map ? bpf_map__fd(map) : -ENOENT;
}

/* One port: frames entering on ifindex leave through slot out_slot. */
static int add_port(struct bpf_object *obj, int ifindex, uint32_t out_slot, int out_ifindex,
		    uint8_t dir, const uint8_t *peer_mac)
{
	int ports = map_fd(obj, "calvin_ports"), egress = map_fd(obj, "calvin_egress");
	struct calvin_port port = {.egress_slot = out_slot, .dir = dir};
	uint32_t key = (uint32_t)ifindex, out = (uint32_t)out_ifindex;
	int err;

	if (ports < 0 || egress < 0)
		return -ENOENT;
	err = if_mac(out_ifindex, port.egress_mac);
	if (err)
		return err;
	memcpy(port.peer_mac, peer_mac, sizeof(port.peer_mac));
	if (bpf_map_update_elem(egress, &out_slot, &out, BPF_ANY))
		return -errno;
	if (bpf_map_update_elem(ports, &key, &port, BPF_ANY))
		return -errno;
	return 0;
}

static int set_forward_rodata(struct bpf_object *obj, const struct calvin_xdp_forward_cfg *cfg)
{
	int err;

	err = calvin_bpf_set_rodata(obj, "vnf_id", &cfg->vnf_id, sizeof(cfg->vnf_id));
	if (err)
		return err;
	return calvin_bpf_set_rodata(obj, "probe_port", &cfg->probe_port, sizeof(cfg->probe_port));
}

int calvin_xdp_forward_attach(const struct calvin_xdp_forward_cfg *cfg)
{
	struct xdp_program *prog;
	struct bpf_object *obj;
	int err;

	loader_quiet();
	if (!cfg || !cfg->obj_dir || !cfg->pin_dir || cfg->west_ifindex <= 0 ||
	    cfg->east_ifindex <= 0 || cfg->west_ifindex == cfg->east_ifindex)
		return -EINVAL;
	err = mkdir_p(cfg->pin_dir);
	if (err)
		return err;
	prog = open_prog(cfg->obj_dir, "forward", &err);
	if (!prog)
		return err;
	obj = xdp_program__bpf_obj(prog);
	err = set_forward_rodata(obj, cfg);
	if (err)
		goto close;

	/* Until the port table is filled below, the program passes every
	 * frame on (see forward.bpf.c), so the ports are never half-forwarding. */
	err = xdp_program__attach(prog, cfg->west_ifindex, XDP_MODE_NATIVE, 0);
	if (err)
		goto close;
	err = xdp_program__attach(prog, cfg->east_ifindex, XDP_MODE_NATIVE, 0);
	if (err)
		goto detach_west;
	err = add_port(obj, cfg->west_ifindex, CALVIN_SLOT_EAST, cfg->east_ifindex, CALVIN_DIR_FWD,
		       cfg->east_peer_mac);
	if (err)
		goto detach_east;
	err = add_port(obj, cfg->east_ifindex, CALVIN_SLOT_WEST, cfg->west_ifindex, CALVIN_DIR_REV,
		       cfg->west_peer_mac);
	if (err)
		goto detach_east;
	err = pin_maps(obj, cfg->pin_dir, forward_pins);
	if (err)
		goto detach_east;
	goto close;

detach_east:
	xdp_program__detach(prog, cfg->east_ifindex, XDP_MODE_NATIVE, 0);
detach_west:
	xdp_program__detach(prog, cfg->west_ifindex, XDP_MODE_NATIVE, 0);
close:
	/* Attached programs stay: libxdp pinned them with their dispatcher. */
	xdp_program__close(prog);
	return err;
}

int calvin_xdp_reflect_attach(const struct calvin_xdp_reflect_cfg *cfg)
{
	struct xdp_program *prog;
	struct bpf_object *obj;
	int err;

	loader_quiet();
	if (!cfg || !cfg->obj_dir || !cfg->pin_dir || cfg->ifindex <= 0)
		return -EINVAL;
	err = mkdir_p(cfg->pin_dir);
	if (err)
		return err;
	prog = open_prog(cfg->obj_dir, "reflect", &err);
	if (!prog)
		return err;
	obj = xdp_program__bpf_obj(prog);
	err = calvin_bpf_set_rodata(obj, "probe_port", &cfg->probe_port, sizeof(cfg->probe_port));
	if (err)
		goto close;
	err = xdp_program__attach(prog, cfg->ifindex, XDP_MODE_NATIVE, 0);
	if (err)
		goto close;
	err = pin_maps(obj, cfg->pin_dir, reflect_pins);
	if (err)
		goto detach;
	goto close;

detach:
	xdp_program__detach(prog, cfg->ifindex, XDP_MODE_NATIVE, 0);
close:
	xdp_program__close(prog);
	return err;
}

int calvin_xdp_pass_attach(const char *obj_dir, int ifindex)
{
	struct xdp_program *prog;
	int err;

	loader_quiet();
	if (!obj_dir || ifindex <= 0)
		return -EINVAL;
	prog = open_prog(obj_dir, "pass", &err);
	if (!prog)
		return err;
	err = xdp_program__attach(prog, ifindex, XDP_MODE_NATIVE, 0);
	xdp_program__close(prog);
	return err;
}

int calvin_xdp_detach_all(int ifindex)
{
	struct xdp_multiprog *mp;
	int err, round;

	loader_quiet();
	if (ifindex <= 0)
		return -EINVAL;
	/* One detach removes the offloaded and the driver or generic program
	 * together; go round again in case someone attached meanwhile. */
	for (round = 0; round < 3; round++) {
		mp = xdp_multiprog__get_from_ifindex(ifindex);
		err = (int)libxdp_get_error(mp);
		if (err == -ENOENT || (!err && !mp))
			return 0;
		if (err)
			return err;
		err = xdp_multiprog__detach(mp);
		xdp_multiprog__close(mp);
		if (err)
			return err;
	}
	return -EBUSY;
}

static void stats_add(struct calvin_vnf_stats *sum, const struct calvin_vnf_stats *v)
{
	const __u64 *src = (const __u64 *)v;
	__u64 *dst = (__u64 *)sum;
	size_t i;

	_Static_assert(sizeof(*v) % sizeof(__u64) == 0, "stats are all __u64 counters");
	for (i = 0; i < sizeof(*v) / sizeof(__u64); i++)
		dst[i] += src[i];
}

int calvin_xdp_read_stats(const char *pin_dir, struct calvin_vnf_stats out[2])
{
	struct calvin_vnf_stats *percpu;
	char path[PATH_MAX];
	int fd, ncpu, cpu, err = 0;
	__u32 dir;

	if (snprintf(path, sizeof(path), "%s/%s", pin_dir, CALVIN_PIN_STATS) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	ncpu = libbpf_num_possible_cpus();
	if (ncpu < 0)
		return ncpu;
	fd = bpf_obj_get(path);
	if (fd < 0)
		return -errno;
	percpu = calloc((size_t)ncpu, sizeof(*percpu));
	if (!percpu) {
		err = -ENOMEM;
		goto close_fd;
	}
	memset(out, 0, 2 * sizeof(*out));
	for (dir = 0; dir < CALVIN_NR_DIRS; dir++) {
		if (bpf_map_lookup_elem(fd, &dir, percpu)) {
			err = -errno;
			break;
		}
		for (cpu = 0; cpu < ncpu; cpu++)
			stats_add(&out[dir], &percpu[cpu]);
	}
	free(percpu);
close_fd:
	close(fd);
	return err;
}
