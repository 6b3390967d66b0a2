// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the impairment VNF (impair.bpf.c): config, PRNG seeds and duplicate groups. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "impair.h"
#include "loader_priv.h"

static const struct calvin_pin impair_pins[] = {
    {"calvin_impair_config", CALVIN_PIN_IMPAIR_CONFIG},
    {"calvin_impair_rng", CALVIN_PIN_IMPAIR_RNG},
    {NULL, NULL},
};

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
static int fill_dup_group(struct bpf_object *obj, const char *map, int ifindex)
{
	int fd = calvin_map_fd(obj, map);
	uint32_t key, val = (uint32_t)ifindex;

	if (fd < 0)
		return fd;
	for (key = 0; key < 2; key++)
		if (bpf_map_update_elem(fd, &key, &val, BPF_ANY))
			return -errno;
	return 0;
}

static int impair_fill(struct bpf_object *obj, const void *arg)
{
	const struct calvin_xdp_impair_cfg *cfg = arg;
	int config = calvin_map_fd(obj, "calvin_impair_config");
	int rng = calvin_map_fd(obj, "calvin_impair_rng");
	struct calvin_impair_config c;
	uint32_t zero = 0;
	int err;

	if (config < 0 || rng < 0)
		return -ENOENT;
	err = impair_config(cfg->imp, &c);
	if (!err)
		err = seed_rngs(rng, c.seed);
	if (!err)
		err = fill_dup_group(obj, "calvin_dup_east", cfg->fwd.east_ifindex);
	if (!err)
		err = fill_dup_group(obj, "calvin_dup_west", cfg->fwd.west_ifindex);
	if (err)
		return err;
	return bpf_map_update_elem(config, &zero, &c, BPF_ANY) ? -errno : 0;
}

static const struct calvin_vnf_ops impair_ops = {
    .name = "impair",
    .pins = impair_pins,
    .fill = impair_fill,
};

int calvin_xdp_impair_attach(const struct calvin_xdp_impair_cfg *cfg)
{
	struct calvin_impair_config c;
	int err;

	if (!cfg)
		return -EINVAL;
	err = impair_config(cfg->imp, &c);
	if (err)
		return err;
	return calvin_vnf_attach(&cfg->fwd, &impair_ops, cfg);
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
