// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the rate-limiting VNF (ratelimit.bpf.c): two-port attach plus its config map. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "loader_priv.h"
#include "ratelimit.h"

#define NSEC_PER_SEC 1000000000ULL

static const struct calvin_pin ratelimit_pins[] = {
    {"calvin_rl_config", CALVIN_PIN_RL_CONFIG},
    {"calvin_rl_flows", CALVIN_PIN_RL_FLOWS},
    {NULL, NULL},
};

static uint64_t at_least(uint64_t v, uint64_t min)
{
	return v > min ? v : min;
}

/* The rates as the program reads them: the default bursts filled in (see
 * ratelimit.h), and checked so the program's 64-bit arithmetic cannot
 * overflow. */
static int ratelimit_config(const struct calvin_rl_config *s, struct calvin_rl_config *c)
{
	memset(c, 0, sizeof(*c));
	if (!s || (!s->pps && !s->bytes_per_sec))
		return -EINVAL;
	if (s->per != CALVIN_XDP_RL_PER_VNF && s->per != CALVIN_XDP_RL_PER_FLOW)
		return -EINVAL;
	/* Beyond 10^9 pps a packet costs less than the clock's 1 ns. */
	if (s->pps > NSEC_PER_SEC)
		return -ERANGE;
	c->pps = s->pps;
	c->bytes_per_sec = s->bytes_per_sec;
	c->burst_packets = s->burst_packets ? s->burst_packets : at_least(s->pps / 100, 1);
	c->burst_bytes = s->burst_bytes ? s->burst_bytes : at_least(s->bytes_per_sec / 100, 1514);
	if (c->burst_packets > UINT64_MAX / NSEC_PER_SEC ||
	    c->burst_bytes > UINT64_MAX / NSEC_PER_SEC)
		return -ERANGE;
	c->per = s->per;
	return 0;
}

static int write_config(int fd, const struct calvin_rl_config *c)
{
	uint32_t zero = 0;

	return bpf_map_update_elem(fd, &zero, c, BPF_ANY) ? -errno : 0;
}

static int ratelimit_fill(struct bpf_object *obj, const void *arg)
{
	struct calvin_rl_config c;
	int fd = calvin_map_fd(obj, "calvin_rl_config");
	int err;

	if (fd < 0)
		return fd;
	err = ratelimit_config(arg, &c);
	return err ? err : write_config(fd, &c);
}

static const struct calvin_vnf_ops ratelimit_ops = {
    .name = "ratelimit",
    .pins = ratelimit_pins,
    .fill = ratelimit_fill,
};

int calvin_xdp_ratelimit_attach(const struct calvin_xdp_ratelimit_cfg *cfg)
{
	struct calvin_rl_config c;
	int err;

	if (!cfg)
		return -EINVAL;
	/* Check before anything is attached, not only in fill. */
	err = ratelimit_config(cfg->rl, &c);
	if (err)
		return err;
	return calvin_vnf_attach(&cfg->fwd, &ratelimit_ops, cfg->rl);
}

int calvin_xdp_ratelimit_update(const char *pin_dir, const struct calvin_rl_config *rl)
{
	struct calvin_rl_config c;
	int fd, err;

	calvin_loader_quiet();
	err = ratelimit_config(rl, &c);
	if (err)
		return err;
	fd = calvin_pinned_fd(pin_dir, CALVIN_PIN_RL_CONFIG);
	if (fd < 0)
		return fd;
	err = write_config(fd, &c);
	close(fd);
	return err;
}
