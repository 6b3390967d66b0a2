// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Loader of the rate-limiting VNF (ratelimit.bpf.c): two-port attach plus its config map. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "loader_priv.h"
#include "ratelimit.h"
#include "ratelimit.skel.h"

#define NSEC_PER_SEC 1000000000ULL

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

static int ratelimit_fill(const struct calvin_vnf *vnf, const void *arg)
{
	const struct ratelimit_bpf *skel = vnf->skel;

	return write_config(bpf_map__fd(skel->maps.calvin_rl_config), arg);
}

int calvin_xdp_ratelimit_attach(const struct calvin_xdp_ratelimit_cfg *cfg)
{
	struct ratelimit_bpf *skel;
	struct calvin_rl_config c;
	struct calvin_vnf vnf;
	int err;

	if (!cfg)
		return -EINVAL;
	/* Checked and completed before anything is attached. */
	err = ratelimit_config(cfg->rl, &c);
	if (err)
		return err;
	calvin_loader_quiet();
	skel = ratelimit_bpf__open();
	if (!skel)
		return -errno;
	vnf =
	    CALVIN_VNF_SKEL(skel, ratelimit, { skel->maps.calvin_rl_config, CALVIN_PIN_RL_CONFIG },
			    { skel->maps.calvin_rl_flows, CALVIN_PIN_RL_FLOWS });
	vnf.fill = ratelimit_fill;
	err = calvin_vnf_attach(&cfg->fwd, &vnf, &c);
	ratelimit_bpf__destroy(skel);
	return err;
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
