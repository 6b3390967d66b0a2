// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the impairment VNF (impair.bpf.c): config, PRNG seeds and duplicate groups. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "impair.h"
#include "impair.skel.h"
#include "loader_priv.h"

/* What the program reads: the settings given, checked. */
static int impair_config(const struct calvin_impair_config *s, struct calvin_impair_config *c)
{
	const __u32 both = 1U << CALVIN_DIR_FWD | 1U << CALVIN_DIR_REV;

	memset(c, 0, sizeof(*c));
	if (!s || !s->dirs || (s->dirs & ~both))
		return -EINVAL;
	if (s->model != CALVIN_IMPAIR_UNIFORM && s->model != CALVIN_IMPAIR_GILBERT_ELLIOTT)
		return -EINVAL;
	if (s->loss_ppm > CALVIN_PPM || s->ge_p_ppm > CALVIN_PPM || s->ge_r_ppm > CALVIN_PPM ||
	    s->ge_loss_good_ppm > CALVIN_PPM || s->ge_loss_bad_ppm > CALVIN_PPM ||
	    s->duplicate_ppm > CALVIN_PPM)
		return -EINVAL;
	*c = *s;
	return 0;
}

/* Every CPU's PRNG from the seed, Gilbert-Elliott state good. */
static int seed_rngs(int fd, uint64_t seed)
{
	struct calvin_impair_rng *v;
	int ncpu = libbpf_num_possible_cpus(), cpu, err = 0;
	uint32_t zero = 0;

	if (ncpu < 0)
		return ncpu;
	v = calloc((size_t)ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (cpu = 0; cpu < ncpu; cpu++)
		v[cpu].state = calvin_impair_seed_state(seed, (unsigned int)cpu);
	if (bpf_map_update_elem(fd, &zero, v, BPF_ANY))
		err = -errno;
	free(v);
	return err;
}

/* Both entries of a duplicate group name the same port. */
static int fill_dup_group(struct bpf_map *map, int ifindex)
{
	uint32_t key, val = (uint32_t)ifindex;
	int fd = bpf_map__fd(map);

	for (key = 0; key < 2; key++)
		if (bpf_map_update_elem(fd, &key, &val, BPF_ANY))
			return -errno;
	return 0;
}

static int impair_fill(const struct calvin_vnf *vnf, const void *arg)
{
	const struct calvin_xdp_impair_cfg *cfg = arg;
	const struct impair_bpf *skel = vnf->skel;
	struct calvin_impair_config c;
	uint32_t zero = 0;
	int err;

	err = impair_config(cfg->imp, &c);
	if (!err)
		err = seed_rngs(bpf_map__fd(skel->maps.calvin_impair_rng), c.seed);
	if (!err)
		err = fill_dup_group(skel->maps.calvin_dup_east, cfg->fwd.east_ifindex);
	if (!err)
		err = fill_dup_group(skel->maps.calvin_dup_west, cfg->fwd.west_ifindex);
	if (err)
		return err;
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.calvin_impair_config), &zero, &c, BPF_ANY))
		return -errno;
	return 0;
}

int calvin_xdp_impair_attach(const struct calvin_xdp_impair_cfg *cfg)
{
	struct calvin_impair_config c;
	struct impair_bpf *skel;
	struct calvin_vnf vnf;
	int err;

	if (!cfg)
		return -EINVAL;
	err = impair_config(cfg->imp, &c);
	if (err)
		return err;
	calvin_loader_quiet();
	skel = impair_bpf__open();
	if (!skel)
		return -errno;
	vnf = CALVIN_VNF_SKEL(skel, impair,
			      { skel->maps.calvin_impair_config, CALVIN_PIN_IMPAIR_CONFIG },
			      { skel->maps.calvin_impair_rng, CALVIN_PIN_IMPAIR_RNG });
	vnf.fill = impair_fill;
	err = calvin_vnf_attach(&cfg->fwd, &vnf, cfg);
	impair_bpf__destroy(skel);
	return err;
}

int calvin_xdp_impair_update(const char *pin_dir, const struct calvin_impair_config *imp)
{
	struct calvin_impair_config c, old;
	int config, rng, err;
	uint32_t zero = 0;

	calvin_loader_quiet();
	err = impair_config(imp, &c);
	if (err)
		return err;
	config = calvin_pinned_fd(pin_dir, CALVIN_PIN_IMPAIR_CONFIG);
	if (config < 0)
		return config;
	rng = calvin_pinned_fd(pin_dir, CALVIN_PIN_IMPAIR_RNG);
	if (rng < 0) {
		err = rng;
		goto close_config;
	}
	if (bpf_map_lookup_elem(config, &zero, &old)) {
		err = -errno;
		goto close_rng;
	}
	if (old.seed != c.seed) {
		err = seed_rngs(rng, c.seed);
		if (err)
			goto close_rng;
	}
	if (bpf_map_update_elem(config, &zero, &c, BPF_ANY))
		err = -errno;
close_rng:
	close(rng);
close_config:
	close(config);
	return err;
}
