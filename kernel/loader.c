// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the XDP VNFs, common part: attach through libxdp, pin, detach, read stats. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
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
#include <linux/if_link.h>

#include "loader_priv.h"

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
void calvin_loader_quiet(void)
{
	int debug = getenv("CALVIN_XDP_DEBUG") != NULL;

	libbpf_set_print(debug ? print_stderr : print_silent);
	libxdp_set_print(debug ? xdp_print_stderr : xdp_print_silent);
}

int calvin_mkdir_p(const char *path)
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

struct xdp_program *calvin_xdp_prog(struct bpf_object *obj, struct bpf_program *prog, int *err)
{
	DECLARE_LIBXDP_OPTS(xdp_program_opts, opts, .obj = obj,
			    .prog_name = bpf_program__name(prog));
	struct xdp_program *xdp_prog = xdp_program__create(&opts);

	*err = (int)libxdp_get_error(xdp_prog);
	return *err ? NULL : xdp_prog;
}

int calvin_attach_native(struct xdp_program *prog, int ifindex)
{
	return xdp_program__attach(prog, ifindex, XDP_MODE_NATIVE, 0);
}

void calvin_detach_native(struct xdp_program *prog, int ifindex)
{
	xdp_program__detach(prog, ifindex, XDP_MODE_NATIVE, 0);
}

void calvin_unpin_maps(const char *pin_dir, const struct calvin_pin *pins)
{
	char path[PATH_MAX];

	for (; pins->map; pins++)
		if (snprintf(path, sizeof(path), "%s/%s", pin_dir, pins->name) < (int)sizeof(path))
			unlink(path);
}

/* Pins left by a run that crashed are replaced, not an error. */
int calvin_pin_maps(const char *pin_dir, const struct calvin_pin *pins)
{
	const struct calvin_pin *p;
	char path[PATH_MAX];
	int err;

	for (p = pins; p->map; p++) {
		if (snprintf(path, sizeof(path), "%s/%s", pin_dir, p->name) >= (int)sizeof(path)) {
			err = -ENAMETOOLONG;
			goto unpin;
		}
		if (unlink(path) && errno != ENOENT) {
			err = -errno;
			goto unpin;
		}
		err = bpf_map__pin(p->map, path);
		if (err)
			goto unpin;
	}
	return 0;

unpin:
	calvin_unpin_maps(pin_dir, pins);
	return err;
}

int calvin_pinned_fd(const char *pin_dir, const char *name)
{
	char path[PATH_MAX];
	int fd;

	if (!pin_dir || snprintf(path, sizeof(path), "%s/%s", pin_dir, name) >= (int)sizeof(path))
		return -EINVAL;
	fd = bpf_obj_get(path);
	return fd < 0 ? -errno : fd;
}

int calvin_port_entry(const struct calvin_xdp_forward_cfg *cfg, bool east, struct calvin_port *port)
{
	memset(port, 0, sizeof(*port));
	port->egress_slot = east ? CALVIN_SLOT_EAST : CALVIN_SLOT_WEST;
	port->dir = east ? CALVIN_DIR_FWD : CALVIN_DIR_REV;
	memcpy(port->peer_mac, east ? cfg->east_peer_mac : cfg->west_peer_mac,
	       sizeof(port->peer_mac));
	return if_mac(east ? cfg->east_ifindex : cfg->west_ifindex, port->egress_mac);
}

/* One port: frames entering it leave through the other (east: entering west). */
static int add_port(const struct calvin_vnf *vnf, const struct calvin_xdp_forward_cfg *cfg,
		    bool east)
{
	uint32_t key = (uint32_t)(east ? cfg->west_ifindex : cfg->east_ifindex);
	uint32_t out = (uint32_t)(east ? cfg->east_ifindex : cfg->west_ifindex);
	struct calvin_port port;
	int err;

	err = calvin_port_entry(cfg, east, &port);
	if (err)
		return err;
	if (bpf_map_update_elem(bpf_map__fd(vnf->egress), &port.egress_slot, &out, BPF_ANY))
		return -errno;
	if (bpf_map_update_elem(bpf_map__fd(vnf->ports), &key, &port, BPF_ANY))
		return -errno;
	return 0;
}

/* Before load: which VNF this is, the probes' port, whether it forwards
 * (the node's last) and its hop records' clock. */
static void vnf_set_rodata(const struct calvin_vnf *vnf, const struct calvin_xdp_forward_cfg *cfg)
{
	*vnf->vnf_id = cfg->vnf_id;
	*vnf->probe_port = cfg->probe_port;
	*vnf->last = 0;
	if (cfg->node_count <= 1 || cfg->node_index == cfg->node_count - 1)
		*vnf->last = 1 << CALVIN_DIR_FWD | 1 << CALVIN_DIR_REV;
	*vnf->clock = cfg->clock;
}

int calvin_vnf_fill_ports(const struct calvin_vnf *vnf, const struct calvin_xdp_forward_cfg *cfg)
{
	int err;

	err = add_port(vnf, cfg, true);
	if (err)
		return err;
	return add_port(vnf, cfg, false);
}

int calvin_vnf_prepare(const struct calvin_xdp_forward_cfg *cfg, const struct calvin_vnf *vnf)
{
	int err;

	if (!cfg || !cfg->pin_dir || cfg->west_ifindex <= 0 || cfg->east_ifindex <= 0 ||
	    cfg->west_ifindex == cfg->east_ifindex ||
	    (cfg->node_count > 1 && cfg->node_index >= cfg->node_count))
		return -EINVAL;
	err = calvin_mkdir_p(cfg->pin_dir);
	if (!err)
		vnf_set_rodata(vnf, cfg);
	return err;
}

int calvin_vnf_attach(const struct calvin_xdp_forward_cfg *cfg, const struct calvin_vnf *vnf,
		      const void *arg)
{
	const struct calvin_pin vnf_pins[] = CALVIN_VNF_PINS(vnf);
	struct xdp_program *prog;
	int err;

	err = calvin_vnf_prepare(cfg, vnf);
	if (err)
		return err;
	prog = calvin_xdp_prog(vnf->obj, vnf->prog, &err);
	if (!prog)
		return err;
	/* The dispatcher runs lower priorities first. A priority belongs to the
	 * program, not to the interface, and cannot change once the program
	 * is loaded (at the first attach): so the order is chain order on
	 * both ports, for frames going either way. */
	err = xdp_program__set_run_prio(prog, 10 + cfg->node_index);
	if (err)
		goto close;

	/* Until the port table is filled below, the program passes every
	 * frame on (see vnf_tail.bpf.h), so the ports are never half-forwarding
	 * and never forward before the VNF's own maps are filled. */
	err = calvin_attach_native(prog, cfg->west_ifindex);
	if (err)
		goto close;
	err = calvin_attach_native(prog, cfg->east_ifindex);
	if (err)
		goto detach_west;
	err = vnf->fill ? vnf->fill(vnf, arg) : 0;
	if (!err)
		err = calvin_vnf_fill_ports(vnf, cfg);
	if (!err)
		err = calvin_pin_maps(cfg->pin_dir, vnf_pins);
	if (err)
		goto detach_east;
	err = calvin_pin_maps(cfg->pin_dir, vnf->pins);
	if (err)
		goto unpin;
	goto close;

unpin:
	calvin_unpin_maps(cfg->pin_dir, vnf_pins);
detach_east:
	calvin_detach_native(prog, cfg->east_ifindex);
detach_west:
	calvin_detach_native(prog, cfg->west_ifindex);
close:
	/* Attached programs stay: the kernel (or libxdp's dispatcher) holds
	 * them. The object is the skeleton's, which its caller destroys. */
	xdp_program__close(prog);
	return err;
}

/* Where libxdp looks for its dispatcher object: LIBXDP_OBJECT_PATH, else
 * its build-time directory, which is one of these on Debian-like systems. */
static int dispatcher_obj_path(char *buf, size_t len)
{
	static const char *const dirs[] = {"/usr/lib/x86_64-linux-gnu/bpf",
					   "/usr/lib/aarch64-linux-gnu/bpf", "/usr/lib/bpf",
					   "/usr/local/lib/bpf", NULL};
	const char *env = getenv("LIBXDP_OBJECT_PATH");
	const char *const *d;

	if (env && snprintf(buf, len, "%s/xdp-dispatcher.o", env) < (int)len && !access(buf, R_OK))
		return 0;
	for (d = dirs; *d; d++)
		if (snprintf(buf, len, "%s/xdp-dispatcher.o", *d) < (int)len && !access(buf, R_OK))
			return 0;
	return -ENOENT;
}

/* What libxdp checks before it uses its dispatcher: can a program be
 * loaded as an extension (BPF_PROG_TYPE_EXT, freplace) of the dispatcher's
 * compat_test function? The dispatcher object serves as both target and
 * extension, since any BTF-described XDP function fits compat_test. */
static int probe_dispatcher(void)
{
	struct bpf_object *target, *ext = NULL;
	struct bpf_program *prog;
	char path[PATH_MAX];
	int ok = 0;

	if (dispatcher_obj_path(path, sizeof(path)))
		return 0;
	target = bpf_object__open_file(path, NULL);
	if (libbpf_get_error(target))
		return 0;
	prog = bpf_object__find_program_by_name(target, "xdp_dispatcher");
	if (!prog || bpf_object__load(target))
		goto close_target;
	ext = bpf_object__open_file(path, NULL);
	if (libbpf_get_error(ext)) {
		ext = NULL;
		goto close_target;
	}
	/* Only the extension is of interest in the second copy. */
	prog = bpf_object__find_program_by_name(ext, "xdp_pass");
	if (prog)
		bpf_program__set_autoload(prog, false);
	prog = bpf_object__find_program_by_name(ext, "xdp_dispatcher");
	if (!prog || bpf_program__set_type(prog, BPF_PROG_TYPE_EXT) ||
	    bpf_program__set_expected_attach_type(prog, 0) ||
	    bpf_program__set_attach_target(
		prog, bpf_program__fd(bpf_object__find_program_by_name(target, "xdp_dispatcher")),
		"compat_test"))
		goto close_ext;
	ok = bpf_object__load(ext) == 0;
close_ext:
	bpf_object__close(ext);
close_target:
	bpf_object__close(target);
	return ok;
}

int calvin_xdp_dispatcher_available(void)
{
	static int cached = -1;

	calvin_loader_quiet();
	if (cached < 0)
		cached = probe_dispatcher();
	return cached;
}

int calvin_xdp_detach_all(int ifindex)
{
	struct xdp_multiprog *mp;
	int err, round;

	calvin_loader_quiet();
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

int calvin_xdp_native_id(int ifindex, uint32_t *id)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	int err;

	calvin_loader_quiet();
	err = bpf_xdp_query(ifindex, XDP_FLAGS_DRV_MODE, &q);
	if (!err)
		*id = q.drv_prog_id;
	return err;
}

int calvin_xdp_hold(int ifindex, uint32_t *id)
{
	int fd, err;

	err = calvin_xdp_native_id(ifindex, id);
	if (err)
		return err;
	if (!*id)
		return -ENOENT;
	fd = bpf_prog_get_fd_by_id(*id);
	return fd < 0 ? -errno : fd;
}

int calvin_xdp_reattach(int ifindex, int prog_fd)
{
	calvin_loader_quiet();
	return bpf_xdp_attach(ifindex, prog_fd, XDP_FLAGS_DRV_MODE, NULL);
}

int calvin_percpu_sum(int fd, uint32_t key, __u64 *out, unsigned int n)
{
	int ncpu = libbpf_num_possible_cpus(), cpu;
	unsigned int i;
	__u64 *percpu;

	if (ncpu < 0)
		return ncpu;
	/* Per-CPU values are padded to 8 bytes each; ours are __u64 arrays. */
	percpu = calloc((size_t)ncpu * n, sizeof(*percpu));
	if (!percpu)
		return -ENOMEM;
	if (bpf_map_lookup_elem(fd, &key, percpu)) {
		free(percpu);
		return -errno;
	}
	memset(out, 0, n * sizeof(*out));
	for (cpu = 0; cpu < ncpu; cpu++)
		for (i = 0; i < n; i++)
			out[i] += percpu[(size_t)cpu * n + i];
	free(percpu);
	return 0;
}

int calvin_xdp_read_stats(const char *pin_dir, struct calvin_vnf_stats out[2])
{
	int fd, err = 0;
	__u32 dir;

	_Static_assert(sizeof(*out) % sizeof(__u64) == 0, "stats are all __u64 counters");
	fd = calvin_pinned_fd(pin_dir, CALVIN_PIN_STATS);
	if (fd < 0)
		return fd;
	for (dir = 0; !err && dir < CALVIN_NR_DIRS; dir++)
		err = calvin_percpu_sum(fd, dir, (__u64 *)&out[dir], sizeof(*out) / sizeof(__u64));
	close(fd);
	return err;
}

#define STAT(f)                                                                                    \
	{                                                                                          \
#f, offsetof(struct calvin_vnf_stats, f)                                           \
	}
const struct calvin_xdp_stat_field calvin_xdp_stat_fields[] = {
    STAT(rx_packets),	STAT(rx_bytes),	      STAT(tx_packets),	   STAT(tx_bytes),
    STAT(probes),	STAT(drop_malformed), STAT(drop_redirect), STAT(pass_other),
    STAT(tlm_overflow), STAT(drop_acl),	      STAT(drop_no_route), STAT(drop_route),
    STAT(drop_ttl),	STAT(drop_ratelimit), STAT(impair_loss),   STAT(impair_dup),
};
const unsigned int calvin_xdp_nr_stat_fields =
    sizeof(calvin_xdp_stat_fields) / sizeof(calvin_xdp_stat_fields[0]);

uint64_t calvin_xdp_stat(const struct calvin_vnf_stats *s, unsigned int i)
{
	return *(const __u64 *)((const char *)s + calvin_xdp_stat_fields[i].offset);
}
