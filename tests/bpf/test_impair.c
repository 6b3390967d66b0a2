// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* BPF_PROG_TEST_RUN tests of kernel/impair.bpf.c: loss rates, repeatability, duplication.
 *
 * The process is pinned to one CPU, because the PRNG state is per CPU and
 * a test run executes on the CPU that asked for it.
 */
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <cmocka.h>

#include "frames.h"
#include "impair.h"
#include "impair.skel.h"

#define VNF_ID 4
#define IFINDEX_LO 1
#define BOTH_DIRS (1U << CALVIN_DIR_FWD | 1U << CALVIN_DIR_REV)
#define PCT(x) ((uint32_t)((x)*10000)) /* percent to ppm */

static const struct udp_spec app = {
    .saddr = 0x0a460001, .daddr = 0x0a460002, .sport = 40000, .dport = TEST_APP_PORT, .ihl = 5};

struct vnf {
	struct impair_bpf *skel;
	int prog, ports, stats, config, rng;
};

static struct vnf T;

/* Load a fresh impair.bpf.o with lo in every devmap slot; 77 if it cannot. */
static int open_vnf(struct vnf *v)
{
	struct bpf_map *devmaps[3];
	size_t i;

	SKEL_OPEN_LOAD_VNF(v->skel, impair, VNF_ID);
	v->prog = bpf_program__fd(v->skel->progs.impair);
	v->ports = bpf_map__fd(v->skel->maps.calvin_ports);
	v->stats = bpf_map__fd(v->skel->maps.calvin_stats);
	v->config = bpf_map__fd(v->skel->maps.calvin_impair_config);
	v->rng = bpf_map__fd(v->skel->maps.calvin_impair_rng);
	devmaps[0] = v->skel->maps.calvin_egress;
	devmaps[1] = v->skel->maps.calvin_dup_east;
	devmaps[2] = v->skel->maps.calvin_dup_west;
	for (i = 0; i < sizeof(devmaps) / sizeof(devmaps[0]); i++)
		devmap_lo_or_skip(bpf_map__fd(devmaps[i]), 2);
	return 0;
}

static void set_port(const struct vnf *v, uint8_t dir)
{
	struct calvin_port port = {.dir = dir};
	uint32_t key = IFINDEX_LO;

	port.egress_slot = dir == CALVIN_DIR_FWD ? CALVIN_SLOT_EAST : CALVIN_SLOT_WEST;
	memcpy(port.egress_mac, mac_vnf_w, ETH_ALEN);
	memcpy(port.peer_mac, mac_probe, ETH_ALEN);
	assert_int_equal(bpf_map_update_elem(v->ports, &key, &port, BPF_ANY), 0);
}

/* What the loader does: config, every CPU's PRNG from the seed. */
static void configure(const struct vnf *v, const struct calvin_impair_config *c)
{
	int ncpu = libbpf_num_possible_cpus(), cpu;
	struct calvin_impair_rng *g = calloc((size_t)ncpu, sizeof(*g));
	uint32_t zero = 0;

	assert_non_null(g);
	for (cpu = 0; cpu < ncpu; cpu++)
		g[cpu].state = calvin_impair_seed_state(c->seed, (unsigned int)cpu);
	assert_int_equal(bpf_map_update_elem(v->rng, &zero, g, BPF_ANY), 0);
	assert_int_equal(bpf_map_update_elem(v->config, &zero, c, BPF_ANY), 0);
	free(g);
	reset_stats(v->stats);
	set_port(v, CALVIN_DIR_FWD);
}

/* Run a plain UDP frame n times in one call (the kernel's repeat count); the
 * stats say what happened. Returns the last verdict. */
static int run_repeat(const struct vnf *v, unsigned int n)
{
	uint8_t f[FRAME_MAX], out[FRAME_MAX + 256], payload[32] = {0};
	size_t len = build_udp(f, &app, payload, sizeof(payload));
	struct xdp_md ctx = {.data_end = (uint32_t)len, .ingress_ifindex = IFINDEX_LO};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = f, .data_size_in = (uint32_t)len,
		    .data_out = out, .data_size_out = sizeof(out), .ctx_in = &ctx,
		    .ctx_size_in = sizeof(ctx), .repeat = n);

	assert_int_equal(bpf_prog_test_run_opts(v->prog, &opts), 0);
	return (int)opts.retval;
}

static int run_once(const struct vnf *v)
{
	uint8_t f[FRAME_MAX], payload[32] = {0};
	size_t len = build_udp(f, &app, payload, sizeof(payload));

	return run_xdp(v->prog, IFINDEX_LO, f, &len);
}

static void loss_none(void **state)
{
	struct calvin_impair_config c = {.dirs = BOTH_DIRS, .seed = 1};
	struct calvin_vnf_stats st;

	configure(&T, &c);
	assert_int_equal(run_repeat(&T, 1000), XDP_REDIRECT);
	st = read_stats(T.stats, CALVIN_DIR_FWD);
	assert_int_equal(st.tx_packets, 1000);
	assert_int_equal(st.impair_loss, 0);
	assert_int_equal(st.impair_dup, 0);
}

static void loss_all(void **state)
{
	struct calvin_impair_config c = {.loss_ppm = CALVIN_PPM, .dirs = BOTH_DIRS, .seed = 1};
	struct calvin_vnf_stats st;

	configure(&T, &c);
	assert_int_equal(run_repeat(&T, 1000), XDP_DROP);
	st = read_stats(T.stats, CALVIN_DIR_FWD);
	assert_int_equal(st.tx_packets, 0);
	assert_int_equal(st.impair_loss, 1000);
}

/* Within 5 standard deviations of the binomial mean. */
static void assert_fraction(uint64_t hits, uint64_t n, double p, double sd_factor)
{
	double mean = (double)n * p, sd = sqrt((double)n * p * (1 - p)) * sd_factor;

	print_message("%llu of %llu (%.4f, expected %.4f +- %.4f)\n", (unsigned long long)hits,
		      (unsigned long long)n, (double)hits / (double)n, p, 5 * sd / (double)n);
	assert_true(fabs((double)hits - mean) <= 5 * sd);
}

static void loss_uniform_5pct(void **state)
{
	struct calvin_impair_config c = {.loss_ppm = PCT(5), .dirs = BOTH_DIRS, .seed = 1};
	struct calvin_vnf_stats st;

	configure(&T, &c);
	run_repeat(&T, 100000);
	st = read_stats(T.stats, CALVIN_DIR_FWD);
	assert_int_equal(st.impair_loss + st.tx_packets, 100000);
	assert_fraction(st.impair_loss, 100000, 0.05, 1);
}

/* Mean loss near the chain's stationary value. Losses come in bursts, so
 * the spread is wider than a binomial's: about sqrt((2 - p - r) / (p + r))
 * times for a two-state chain. */
static void check_gilbert_elliott(double p, double r, double good, double bad)
{
	struct calvin_impair_config c = {.model = CALVIN_IMPAIR_GILBERT_ELLIOTT,
					 .ge_p_ppm = PCT(p),
					 .ge_r_ppm = PCT(r),
					 .ge_loss_good_ppm = PCT(good),
					 .ge_loss_bad_ppm = PCT(bad),
					 .dirs = BOTH_DIRS,
					 .seed = 7};
	double pb = p / (p + r), mean = pb * bad / 100 + (1 - pb) * good / 100;
	struct calvin_vnf_stats st;

	configure(&T, &c);
	run_repeat(&T, 1000000);
	st = read_stats(T.stats, CALVIN_DIR_FWD);
	assert_fraction(st.impair_loss, 1000000, mean, sqrt((200 - p - r) / (p + r)));
}

static void loss_gilbert_elliott(void **state)
{
	check_gilbert_elliott(1, 10, 0, 100);
	check_gilbert_elliott(5, 20, 1, 50);
}

/* Same seed, fresh load, same CPU: the same verdicts; another seed: not. */
static void repeatable_across_loads(void **state)
{
	struct calvin_impair_config c = {
	    .loss_ppm = PCT(30), .duplicate_ppm = PCT(20), .dirs = BOTH_DIRS};
	static const uint64_t seeds[] = {42, 42, 43};
	int verdicts[3][300];
	struct vnf v;
	int i, k;

	for (k = 0; k < 3; k++) {
		assert_int_equal(open_vnf(&v), 0);
		c.seed = seeds[k];
		configure(&v, &c);
		for (i = 0; i < 300; i++)
			verdicts[k][i] = run_once(&v);
		impair_bpf__destroy(v.skel);
	}
	assert_memory_equal(verdicts[0], verdicts[1], sizeof(verdicts[0]));
	assert_memory_not_equal(verdicts[0], verdicts[2], sizeof(verdicts[0]));
}

static void duplicate_all(void **state)
{
	struct calvin_impair_config c = {.duplicate_ppm = CALVIN_PPM, .dirs = BOTH_DIRS, .seed = 1};
	struct calvin_vnf_stats st;

	configure(&T, &c);
	assert_int_equal(run_once(&T), XDP_REDIRECT);
	set_port(&T, CALVIN_DIR_REV);
	assert_int_equal(run_once(&T), XDP_REDIRECT);
	st = read_stats(T.stats, CALVIN_DIR_FWD);
	assert_int_equal(st.impair_dup, 1);
	assert_int_equal(st.tx_packets, 2);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_REV).impair_dup, 1);
}

static void duplicate_some(void **state)
{
	struct calvin_impair_config c = {.duplicate_ppm = PCT(10), .dirs = BOTH_DIRS, .seed = 3};
	struct calvin_vnf_stats st;

	configure(&T, &c);
	run_repeat(&T, 100000);
	st = read_stats(T.stats, CALVIN_DIR_FWD);
	assert_int_equal(st.tx_packets, 100000 + st.impair_dup);
	assert_fraction(st.impair_dup, 100000, 0.10, 1);
}

/* A direction not chosen is forwarded untouched. */
static void only_chosen_direction(void **state)
{
	struct calvin_impair_config c = {
	    .loss_ppm = CALVIN_PPM, .dirs = 1U << CALVIN_DIR_REV, .seed = 1};

	configure(&T, &c);
	assert_int_equal(run_once(&T), XDP_REDIRECT);
	set_port(&T, CALVIN_DIR_REV);
	assert_int_equal(run_once(&T), XDP_DROP);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).impair_loss, 0);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_REV).impair_loss, 1);
}

/* Not IP: passed to the stack, never lost; truncated: dropped as
 * malformed, not counted as loss. */
static void other_frames(void **state)
{
	struct calvin_impair_config c = {.loss_ppm = CALVIN_PPM, .dirs = BOTH_DIRS, .seed = 1};
	uint8_t f[FRAME_MAX], payload[8] = {0};
	size_t len, n;
	struct calvin_vnf_stats st;

	configure(&T, &c);
	len = build_arp(f);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &len), XDP_PASS);
	for (n = ETH_HLEN; n < ETH_HLEN + sizeof(struct iphdr); n++) {
		len = build_udp(f, &app, payload, sizeof(payload));
		len = n;
		assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &len), XDP_DROP);
	}
	st = read_stats(T.stats, CALVIN_DIR_FWD);
	assert_int_equal(st.pass_other, 1);
	assert_int_equal(st.drop_malformed, sizeof(struct iphdr));
	assert_int_equal(st.impair_loss, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(loss_none),
	    cmocka_unit_test(loss_all),
	    cmocka_unit_test(loss_uniform_5pct),
	    cmocka_unit_test(loss_gilbert_elliott),
	    cmocka_unit_test(repeatable_across_loads),
	    cmocka_unit_test(duplicate_all),
	    cmocka_unit_test(duplicate_some),
	    cmocka_unit_test(only_chosen_direction),
	    cmocka_unit_test(other_frames),
	};
	cpu_set_t cpus;
	int cpu, err;

	/* The PRNGs are per CPU: stay on one, the same one every time (the
	 * first we may use), so that runs print the same figures. */
	if (sched_getaffinity(0, sizeof(cpus), &cpus)) {
		printf("cannot read the CPU affinity: %s\n", strerror(errno));
		return 77;
	}
	for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &cpus); cpu++)
		;
	CPU_ZERO(&cpus);
	CPU_SET(cpu, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		printf("cannot pin to one CPU: %s\n", strerror(errno));
		return 77;
	}
	err = open_vnf(&T);
	if (err)
		return err;
	err = cmocka_run_group_tests(tests, NULL, NULL);
	impair_bpf__destroy(T.skel);
	return err;
}
