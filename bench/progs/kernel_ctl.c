// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* bench/kernel.sh's helper: attach calvin's forwarder (real loader) and the sink, read the sink.
 *
 * Run inside the node's network namespace with nsenter --net (not ip netns
 * exec, which remounts sysfs and hides /sys/fs/bpf). Subcommands:
 *
 *   kernel-ctl fwd-attach PIN_DIR WEST EAST WEST_PEER_MAC EAST_PEER_MAC PROBE_PORT
 *   kernel-ctl sink-attach IFNAME PIN_PATH PROBE_PORT skb|xdp
 *
 * The forwarder is the loader's (its program built in); the sink is
 * bench/sink.bpf.c, built in through the skeleton bench/kernel.sh makes.
 *   kernel-ctl count PIN_PATH          prints the sink's frame count
 *   kernel-ctl detach IFNAME...        removes every XDP program (loader's detach_all)
 *                                      and tc's clsact hook (a sink_skb)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>

#include "loader.h"
#include "sink.skel.h"

static int parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}

static int if_index(const char *name)
{
	int idx = (int)if_nametoindex(name);

	return idx ? idx : -ENODEV;
}

/* How libxdp attached to ifindex: through its dispatcher, or as a single
 * program (its fallback where the kernel refuses the dispatcher's freplace). */
static const char *attach_kind(int ifindex)
{
	struct xdp_multiprog *mp = xdp_multiprog__get_from_ifindex(ifindex);
	const char *kind = "unknown";

	if (libxdp_get_error(mp) || !mp)
		return kind;
	kind = xdp_multiprog__is_legacy(mp) ? "single program" : "libxdp dispatcher";
	xdp_multiprog__close(mp);
	return kind;
}

/* The same call the controller makes for a kernel VNF; prints how
 * the program was attached. */
static int cmd_fwd_attach(char **argv)
{
	struct calvin_xdp_forward_cfg cfg = {
		.pin_dir = argv[0],
		.vnf_id = 0,
		.probe_port = (uint16_t)atoi(argv[5]),
		.west_ifindex = if_index(argv[1]),
		.east_ifindex = if_index(argv[2]),
	};
	int err;

	if (cfg.west_ifindex < 0 || cfg.east_ifindex < 0)
		return -ENODEV;
	if (parse_mac(argv[3], cfg.west_peer_mac) || parse_mac(argv[4], cfg.east_peer_mac))
		return -EINVAL;
	err = calvin_xdp_forward_attach(&cfg);
	if (!err)
		printf("%s\n", attach_kind(cfg.west_ifindex));
	return err;
}

/* sink_skb on tc ingress (a clsact hook of its own). */
static int tc_attach(int ifindex, int prog_fd)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex, .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .prog_fd = prog_fd);
	int err;

	err = bpf_tc_hook_create(&hook);
	if (err && err != -EEXIST)
		return err;
	return bpf_tc_attach(&hook, &opts);
}

static int tc_detach(int ifindex)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
		    .attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS);
	int err = bpf_tc_hook_destroy(&hook);

	return err == -ENOENT || err == -EINVAL ? 0 : err;
}

/* A single native XDP program (no libxdp dispatcher) or a tc program: the
 * sink should cost as little as possible where it counts (bench/progs/sink.bpf.c
 * says which counts alike). */
static int cmd_sink_attach(char **argv)
{
	int ifindex = if_index(argv[0]), err;
	bool skb = !strcmp(argv[3], "skb");
	struct bpf_program *prog;
	struct sink_bpf *skel;

	if (ifindex < 0)
		return ifindex;
	if (!skb && strcmp(argv[3], "xdp"))
		return -EINVAL;
	skel = sink_bpf__open();
	if (!skel)
		return -errno;
	skel->rodata->probe_port = (uint16_t)atoi(argv[2]);
	err = sink_bpf__load(skel);
	if (err)
		goto destroy;
	prog = skb ? skel->progs.sink_skb : skel->progs.sink_xdp;
	unlink(argv[1]);
	err = bpf_map__pin(skel->maps.bench_sink_count, argv[1]);
	if (err)
		goto destroy;
	if (skb)
		err = tc_attach(ifindex, bpf_program__fd(prog));
	else
		err = bpf_xdp_attach(ifindex, bpf_program__fd(prog), XDP_FLAGS_DRV_MODE, NULL);
	if (err)
		unlink(argv[1]);
destroy:
	sink_bpf__destroy(skel);
	return err;
}

static int cmd_count(char **argv)
{
	int ncpu = libbpf_num_possible_cpus(), fd, i, err = 0;
	unsigned long long sum = 0;
	uint32_t key = 0;
	uint64_t *v;

	if (ncpu <= 0)
		return -EINVAL;
	v = calloc((size_t)ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	fd = bpf_obj_get(argv[0]);
	if (fd < 0) {
		err = -errno;
		goto free;
	}
	if (bpf_map_lookup_elem(fd, &key, v)) {
		err = -errno;
		goto close;
	}
	for (i = 0; i < ncpu; i++)
		sum += v[i];
	printf("%llu\n", sum);
close:
	close(fd);
free:
	free(v);
	return err;
}

static int cmd_detach(char **argv)
{
	int err = 0, e, idx;

	for (; *argv; argv++) {
		idx = if_index(*argv);
		e = idx < 0 ? idx : calvin_xdp_detach_all(idx);
		if (!e)
			e = tc_detach(idx);
		if (e)
			err = e;
	}
	return err;
}

static const struct {
	const char *name;
	int nargs; /* at least */
	int (*fn)(char **argv);
} cmds[] = {
	{ "fwd-attach", 6, cmd_fwd_attach },
	{ "sink-attach", 4, cmd_sink_attach },
	{ "count", 1, cmd_count },
	{ "detach", 1, cmd_detach },
};

int main(int argc, char **argv)
{
	size_t i;
	int err;

	libbpf_set_print(NULL);
	for (i = 0; argc > 1 && i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		if (argc - 2 < cmds[i].nargs)
			break;
		err = cmds[i].fn(argv + 2);
		if (err)
			fprintf(stderr, "kernel-ctl %s: %s\n", argv[1], strerror(-err));
		return err ? 1 : 0;
	}
	fprintf(stderr, "usage: kernel-ctl fwd-attach|sink-attach|count|detach ARGS\n");
	return 2;
}
