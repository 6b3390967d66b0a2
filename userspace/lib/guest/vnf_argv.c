// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin-vnf's command line from a chain spec (guest.h). The options
 * are calvin-vnf's own (userspace/vnf/args.c); keep the two in step. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "guest/guest.h"

/* mode: throughput's rx and tx rings per port (calvin-vnf's --ring; 512
 * otherwise). With 512 the AF_XDP socket of a user VNF dropped one TCP
 * segment in 20 to 50 (the veth's rx_queue_0_drops, each one a
 * retransmission) whenever the VNF's core was taken from it for a few
 * milliseconds: the sender's 64 KB GSO packets arrive as bursts of 45
 * segments. 2048 absorbs that; in latency mode a deep ring only hides
 * queueing. The memory is the pool that fills those rings (about 40 MB
 * of mbufs at 2048, over calvin-vnf's default of 64 MB with its own). */
#define TPUT_RING 2048
#define TPUT_MEM_MB 128

struct builder {
	struct calvin_vnf_argv *a;
	bool full;
};

static void arg(struct builder *b, char *s)
{
	if (b->a->argc + 1 >= sizeof(b->a->argv) / sizeof(b->a->argv[0])) {
		b->full = true;
		return;
	}
	b->a->argv[b->a->argc++] = s;
}

/* An option and its formatted value. */
static void argf(struct builder *b, const char *opt, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void argf(struct builder *b, const char *opt, const char *fmt, ...)
{
	struct calvin_vnf_argv *a = b->a;
	size_t room = sizeof(a->buf) - a->used;
	char *v = a->buf + a->used;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(v, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		b->full = true;
		return;
	}
	a->used += (unsigned int)n + 1;
	arg(b, (char *)opt);
	arg(b, v);
}

static void mac_arg(struct builder *b, const char *opt, const uint8_t m[6])
{
	argf(b, opt, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

/* The transform and its parameters, per kind. */
static void transform_args(struct builder *b, const struct calvin_vnf_spec *v,
			   const struct calvin_vnf_site *site)
{
	argf(b, "--transform", "%s", calvin_vnf_kind_name(v->kind));
	switch (v->kind) {
	case CALVIN_VNF_NC_ENCODE:
	case CALVIN_VNF_NC_DECODE:
		argf(b, "--nc-k", "%u", v->nc.k);
		argf(b, "--nc-r", "%u", v->nc.r);
		argf(b, "--nc-flush-ns", "%llu", (unsigned long long)v->nc.flush_ns);
		argf(b, "--nc-flush-early", "%u", v->nc.flush_early ? 1u : 0u);
		argf(b, "--direction", "%s", calvin_direction_name(v->nc.direction));
		break;
	case CALVIN_VNF_ENCRYPT:
	case CALVIN_VNF_DECRYPT:
		argf(b, "--cipher", "%s", calvin_cipher_name(v->crypt.cipher));
		argf(b, "--keys-fd", "%d", site->keys_fd);
		argf(b, "--spi", "%u", v->crypt.spi);
		argf(b, "--spi-rev", "%u", v->crypt.spi_rev);
		argf(b, "--direction", "%s", calvin_direction_name(v->crypt.direction));
		if (v->kind == CALVIN_VNF_DECRYPT)
			argf(b, "--replay-window", "%u", v->crypt.replay_window);
		break;
	default:
		break;
	}
}

int calvin_vnf_argv_build(struct calvin_vnf_argv *a, const struct calvin_chain_spec *s,
			  const struct calvin_vnf_site *site)
{
	struct builder b = {.a = a};
	const struct calvin_vnf_spec *v;

	memset(a, 0, sizeof(*a));
	if (site->vnf_id >= s->nr_vnfs || s->vnfs[site->vnf_id].space != CALVIN_USER)
		return -EINVAL;
	v = &s->vnfs[site->vnf_id];
	arg(&b, (char *)site->bin);
	argf(&b, "--chain", "%s", s->name);
	argf(&b, "--name", "%s", v->name);
	argf(&b, "--vnf-id", "%u", site->vnf_id);
	if (site->cpu < 0)
		argf(&b, "--lcore", "any");
	else
		argf(&b, "--lcore", "%d", site->cpu);
	if (site->wait)
		argf(&b, "--wait", "%s", site->wait);
	argf(&b, "--burst", "%u", v->burst);
	if (s->mode == CALVIN_MODE_THROUGHPUT) {
		argf(&b, "--ring", "%u", TPUT_RING);
		argf(&b, "--mem-mb", "%u", TPUT_MEM_MB);
	}
	/* af_xdp is a preference: calvin-vnf falls back to af_packet where it
	 * fails, and says so on its ready line */
	if (v->pmd == CALVIN_PMD_AF_PACKET)
		argf(&b, "--pmd", "%s", "af_packet");
	argf(&b, "--west", "%s", site->west);
	argf(&b, "--east", "%s", site->east);
	mac_arg(&b, "--west-peer", site->west_peer);
	mac_arg(&b, "--east-peer", site->east_peer);
	argf(&b, "--probe-port", "%u", s->probe.port);
	/* a VM's VNF stamps the VM's clock domain; on the host, the default */
	if (calvin_vnf_clock(s, site->vnf_id))
		argf(&b, "--clock", "%u", calvin_vnf_clock(s, site->vnf_id));
	if (s->realtime.lock_memory)
		arg(&b, "--lock-memory");
	transform_args(&b, v, site);
	if (site->ready_fd >= 0) {
		snprintf(a->ready_fd, sizeof(a->ready_fd), "%d", site->ready_fd);
		arg(&b, "--ready-fd");
		a->ready_arg = a->argc;
		arg(&b, a->ready_fd);
	}
	if (b.full)
		return -E2BIG;
	a->argv[a->argc] = NULL;
	return 0;
}
