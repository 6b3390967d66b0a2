// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* BPF_PROG_TEST_RUN tests of a user VNF's hand-over program (kernel/handover.bpf.c):
 * the record it opens (and calvin-vnf closes), what it leaves alone, where
 * it hands frames (an AF_XDP socket, else the stack). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/if_xdp.h>

#include "frames_l3.h"
#include "handover.h"

#ifndef AF_XDP
#define AF_XDP 44
#endif
#ifndef SOL_XDP
#define SOL_XDP 283
#endif

#define VNF_ID 5
#define CLOCK 3
#define IFINDEX_LO 1 /* a real device behind ingress_ifindex, in every namespace */
#define UMEM_LEN (16 * 4096)

static const struct frame_spec to_server = { .family = 4,
					     .src = { 10, 70, 0, 1 },
					     .dst = { 10, 70, 0, 2 },
					     .sport = 40000,
					     .dport = TEST_PROBE_PORT };
static const struct frame_spec to_probe = { .family = 4,
					    .src = { 10, 70, 0, 2 },
					    .dst = { 10, 70, 0, 1 },
					    .sport = TEST_PROBE_PORT,
					    .dport = 40000 };

static struct {
	struct bpf_object *obj;
	int prog, cfg, stats, xsks;
} T;

/* The map called name, as calvin-vnf finds it on the program the af_xdp
 * PMD loaded from this same file: by name. */
static int map_fd_of(struct bpf_object *obj, const char *name)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, name);

	if (!map)
		abort();
	return bpf_map__fd(map);
}

static void configure(uint16_t probe_port, uint8_t dir)
{
	struct calvin_handover_cfg c = {
		.vnf_id = VNF_ID, .probe_port = probe_port, .dir = dir, .clock = CLOCK
	};
	uint32_t key = 0;

	assert_int_equal(bpf_map_update_elem(T.cfg, &key, &c, BPF_ANY), 0);
}

static int setup(void **state)
{
	int ncpu = libbpf_num_possible_cpus();
	struct calvin_vnf_stats *zero = calloc((size_t)ncpu, sizeof(*zero));
	uint32_t key = 0;

	configure(TEST_PROBE_PORT, CALVIN_DIR_FWD);
	bpf_map_delete_elem(T.xsks, &key);
	if (!zero || bpf_map_update_elem(T.stats, &key, zero, BPF_ANY))
		abort();
	free(zero);
	return 0;
}

/* The telemetry block of frame f built from s. */
static struct calvin_tlm decode(uint8_t *f, const struct frame_spec *s, size_t len)
{
	struct calvin_tlm t;
	unsigned int off = frame_payload_off(s);

	assert_int_equal(calvin_tlm_decode(f + off, len - off, &t), 0);
	return t;
}

/* Run a probe of s through the program configured for dir; its block
 * after. The verdict must be XDP_PASS (no socket) and the checksums valid. */
static struct calvin_tlm run_probe(uint8_t *f, const struct frame_spec *s, uint8_t dir, size_t *len)
{
	size_t out;

	*len = build_frame_probe(f, s, 4, 1);
	out = *len;
	configure(TEST_PROBE_PORT, dir);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &out), XDP_PASS);
	assert_int_equal(out, *len);
	assert_true(frame_csums_ok(f, s, *len));
	return decode(f, s, *len);
}

/* A probe, either way, with or without a UDP checksum: the next record is
 * opened as this VNF's (residence 0), the checksum stays valid, and nothing
 * else changes. */
static void check_opened(const struct frame_spec *s, uint8_t dir)
{
	uint8_t f[FRAME_MAX], before[FRAME_MAX];
	unsigned int pay = frame_payload_off(s),
		     rec = pay + CALVIN_TLM_HDR_LEN + CALVIN_TLM_HOP_LEN;
	struct calvin_tlm t;
	size_t len;

	build_frame_probe(before, s, 4, 1);
	t = run_probe(f, s, dir, &len);
	assert_int_equal(t.nr_hops, 2);
	assert_int_equal(t.hops[0].vnf_id, 99); /* the earlier hop's, untouched */
	assert_int_equal(t.hops[1].vnf_id, VNF_ID);
	assert_int_equal(t.hops[1].space, CALVIN_SPACE_USER);
	assert_int_equal(t.hops[1].clock, CLOCK);
	assert_int_equal(t.hops[1].dir, dir);
	assert_true(t.hops[1].t_in > 0);
	assert_int_equal(t.hops[1].t_out, t.hops[1].t_in); /* residence 0: open */
	/* only nr_hops, the record and the UDP checksum changed */
	memcpy(f + frame_csum_off(s), before + frame_csum_off(s), 2);
	memcpy(f + rec, before + rec, CALVIN_TLM_HOP_LEN);
	f[pay + 6] = before[pay + 6];
	assert_memory_equal(f, before, len);
}

static void probes_opened(void **state)
{
	struct frame_spec bare = to_server;

	check_opened(&to_server, CALVIN_DIR_FWD);
	check_opened(&to_probe, CALVIN_DIR_REV);
	bare.no_csum = true;
	check_opened(&bare, CALVIN_DIR_FWD);
	assert_int_equal(read_stats(T.stats, 0).probes, 3);
}

/* The record the program opens is the one calvin-vnf closes (userspace/vnf/pkt.c):
 * t_in the program's, t_out calvin-vnf's. */
static void opened_record_closes(void **state)
{
	struct calvin_hop h = { .vnf_id = VNF_ID,
				.space = CALVIN_SPACE_USER,
				.clock = CLOCK,
				.dir = CALVIN_DIR_REV,
				.t_out = 1 };
	unsigned int pay = frame_payload_off(&to_probe);
	uint8_t f[FRAME_MAX];
	struct calvin_tlm t;
	uint64_t t_in;
	size_t len;

	t_in = run_probe(f, &to_probe, CALVIN_DIR_REV, &len).hops[1].t_in;
	h.t_out = t_in + 1000;
	assert_int_equal(calvin_tlm_close_hop(f + pay, len - pay, &h), 1);
	t = decode(f, &to_probe, len);
	assert_int_equal(t.nr_hops, 2);
	assert_int_equal(t.hops[1].t_in, t_in);
	assert_int_equal(t.hops[1].t_out, t_in + 1000);
	/* another VNF's close, or the other direction's, finds nothing open */
	run_probe(f, &to_probe, CALVIN_DIR_REV, &len);
	h.dir = CALVIN_DIR_FWD;
	assert_int_equal(calvin_tlm_close_hop(f + pay, len - pay, &h), -ENOENT);
	h.dir = CALVIN_DIR_REV;
	h.vnf_id++;
	assert_int_equal(calvin_tlm_close_hop(f + pay, len - pay, &h), -ENOENT);
}

/* Frames calvin-vnf does not take for probes are handed over untouched:
 * another UDP port, IPv6, a VLAN tag, a fragment, ARP; and every frame
 * before calvin-vnf has configured the program (probe_port 0). */
static void others_untouched(void **state)
{
	static const uint8_t app[] = "app bytes";
	struct frame_spec s[5] = { to_server, to_server, to_server, to_server, { .family = 0 } };
	uint8_t f[FRAME_MAX], before[FRAME_MAX];
	size_t len, out;
	unsigned int i;

	s[0].dport = TEST_APP_PORT;
	s[1].family = 6;
	s[2].nr_vlans = 1;
	s[3].frag_off = 0x2000; /* more fragments, offset 0 */
	for (i = 0; i < 6; i++) {
		if (i == 5)
			configure(0, CALVIN_DIR_FWD);
		len = build_frame_probe(f, &s[i % 5], 4, 1);
		memcpy(before, f, len);
		out = len;
		assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &out), XDP_PASS);
		assert_int_equal(out, len);
		assert_memory_equal(f, before, len);
	}
	len = build_frame(f, &to_server, app, sizeof(app)); /* a block-less "probe" */
	memcpy(before, f, len);
	out = len;
	configure(TEST_PROBE_PORT, CALVIN_DIR_FWD);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &out), XDP_PASS);
	assert_memory_equal(f, before, len);
	assert_int_equal(read_stats(T.stats, 0).probes, 0);
}

/* A block with no free record: the overflow flag, as a kernel VNF sets it,
 * checksum still valid, no record changed. */
static void full_block_flagged(void **state)
{
	uint8_t f[FRAME_MAX], before[FRAME_MAX];
	unsigned int pay = frame_payload_off(&to_server);
	size_t len = build_frame_probe(f, &to_server, 2, 2), out = len;

	memcpy(before, f, len);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &out), XDP_PASS);
	assert_true(frame_csums_ok(f, &to_server, len));
	assert_int_equal(f[pay + 7], CALVIN_TLM_F_OVERFLOW);
	f[pay + 7] = before[pay + 7];
	memcpy(f + frame_csum_off(&to_server), before + frame_csum_off(&to_server), 2);
	assert_memory_equal(f, before, len);
	assert_int_equal(read_stats(T.stats, 0).tlm_overflow, 1);
}

/* An AF_XDP socket bound to lo's queue 0 in copy mode, with just the rings
 * the kernel wants of a socket that receives; -errno if this kernel will
 * not have it. */
static int xsk_open(void **umem)
{
	struct xdp_umem_reg reg = { .len = UMEM_LEN, .chunk_size = 4096 };
	struct sockaddr_xdp sxdp = { .sxdp_family = AF_XDP,
				     .sxdp_ifindex = IFINDEX_LO,
				     .sxdp_flags = XDP_COPY };
	int fd, size = 64, err = 0;

	*umem = mmap(NULL, UMEM_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*umem == MAP_FAILED)
		return -errno;
	reg.addr = (__u64)(unsigned long)*umem;
	fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_XDP, XDP_UMEM_REG, &reg, sizeof(reg)) ||
	    setsockopt(fd, SOL_XDP, XDP_UMEM_FILL_RING, &size, sizeof(size)) ||
	    setsockopt(fd, SOL_XDP, XDP_UMEM_COMPLETION_RING, &size, sizeof(size)) ||
	    setsockopt(fd, SOL_XDP, XDP_RX_RING, &size, sizeof(size)) ||
	    bind(fd, (struct sockaddr *)&sxdp, sizeof(sxdp)))
		err = -errno;
	if (err && fd >= 0)
		close(fd);
	return err ? err : fd;
}

/* With a socket on the frame's receive queue (what the af_xdp PMD puts in
 * xsks_map), every frame goes to it, probes stamped first. */
static void socket_gets_frames(void **state)
{
	uint8_t f[FRAME_MAX];
	uint32_t key = 0;
	size_t len, out;
	void *umem;
	int fd;

	fd = xsk_open(&umem);
	if (fd < 0) {
		printf("no AF_XDP socket on lo here (%s): the redirect is not tested\n",
		       strerror(-fd));
		skip();
	}
	assert_int_equal(bpf_map_update_elem(T.xsks, &key, &fd, BPF_ANY), 0);
	len = build_frame_probe(f, &to_server, 4, 1);
	out = len;
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &out), XDP_REDIRECT);
	assert_int_equal(decode(f, &to_server, len).nr_hops, 2);
	len = build_arp(f);
	out = len;
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &out), XDP_REDIRECT);
	bpf_map_delete_elem(T.xsks, &key);
	close(fd);
	munmap(umem, UMEM_LEN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(probes_opened, setup),
		cmocka_unit_test_setup(opened_record_closes, setup),
		cmocka_unit_test_setup(others_untouched, setup),
		cmocka_unit_test_setup(full_block_flagged, setup),
		cmocka_unit_test_setup(socket_gets_frames, setup),
	};
	char path[] = "build/kernel/" CALVIN_HANDOVER_OBJ;
	int err;

	libbpf_set_print(print_silent);
	if (geteuid() != 0) {
		printf("needs root to load BPF programs (BPF_PROG_TEST_RUN)\n");
		return 77;
	}
	T.obj = bpf_object__open_file(path, NULL);
	if (!T.obj) {
		printf("cannot open %s: %s (run make build)\n", path, strerror(errno));
		return 1;
	}
	err = bpf_object__load(T.obj);
	if (err) {
		printf("cannot load BPF program handover here: %s\n", strerror(-err));
		return 77;
	}
	T.prog = bpf_program__fd(bpf_object__find_program_by_name(T.obj, CALVIN_HANDOVER_PROG));
	T.cfg = map_fd_of(T.obj, CALVIN_HANDOVER_CFG_MAP);
	T.stats = map_fd_of(T.obj, CALVIN_HANDOVER_STATS_MAP);
	T.xsks = map_fd_of(T.obj, CALVIN_HANDOVER_XSKS_MAP);
	err = cmocka_run_group_tests(tests, NULL, NULL);
	bpf_object__close(T.obj);
	return err;
}
