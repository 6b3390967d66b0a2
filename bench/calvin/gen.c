// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The throughput generator of `calvin bench throughput`: UDP frames of one
 * size at a fixed rate into a deployed chain from its probe node, counted
 * where they reach the server. An AF_PACKET socket that bypasses the
 * qdisc sends batches with sendmmsg, paced on CLOCK_MONOTONIC (sleeping
 * for long gaps, spinning the last stretch); what reaches the server is
 * the server interface's receive counter (getifaddrs in its namespace),
 * so nothing in user space has to keep up with the rate to count it. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>

#include "backend.h"
#include "bench.h"
#include "bench/lib/bench_lib.h"
#include "util.h"

#define MAX_BATCH 64
#define SLEEP_MARGIN_NS 150000ULL /* wake this early, spin the rest */
#define DRAIN_STEP_NS 20000000ULL
#define DRAIN_MAX_STEPS 50

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* An interface's counters in the current namespace (32-bit: a trial's
 * deltas fit). */
static int if_counters(const char *ifname, uint32_t *rx, uint32_t *tx)
{
	struct ifaddrs *ifa, *i;
	int err = -ENOENT;

	if (getifaddrs(&ifa) < 0)
		return -errno;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_PACKET || !i->ifa_data ||
		    strcmp(i->ifa_name, ifname))
			continue;
		*rx = ((const struct rtnl_link_stats *)i->ifa_data)->rx_packets;
		*tx = ((const struct rtnl_link_stats *)i->ifa_data)->tx_packets;
		err = 0;
		break;
	}
	freeifaddrs(ifa);
	return err;
}

static int node_counters(const struct calvin_chain_spec *spec, const char *node, const char *ifname,
			 uint32_t *rx, uint32_t *tx)
{
	int saved, err;

	err = backend_of(spec)->node_enter(spec, node, &saved);
	if (err)
		return err;
	err = if_counters(ifname, rx, tx);
	node_leave(saved);
	return err;
}

/* Frames in flight (a VNF's rings) arrive after the last send: wait until
 * the server's counter stops moving, at most a second. */
static uint32_t drain(const struct calvin_chain_spec *spec, uint32_t rx)
{
	struct timespec ts = { 0, (long)DRAIN_STEP_NS };
	uint32_t now, tx;
	int i;

	for (i = 0; i < DRAIN_MAX_STEPS; i++) {
		nanosleep(&ts, NULL);
		if (node_counters(spec, spec->server.name, IF_WEST, &now, &tx) || now == rx)
			break;
		rx = now;
	}
	return rx;
}

static int packet_socket(int *fdp)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	int fd, one = 1, big = 8 << 20;

	sll.sll_ifindex = (int)if_nametoindex(IF_EAST);
	if (!sll.sll_ifindex)
		return -errno;
	/* protocol 0: send only, nothing received is queued to us */
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &big, sizeof(big));
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		close(fd);
		return -errno;
	}
	*fdp = fd;
	return 0;
}

static void wait_until(uint64_t t)
{
	struct timespec ts;
	uint64_t now = now_ns(), s;

	if (t > now + SLEEP_MARGIN_NS) {
		s = t - SLEEP_MARGIN_NS;
		ts.tv_sec = (time_t)(s / 1000000000ULL);
		ts.tv_nsec = (long)(s % 1000000000ULL);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	while (now_ns() < t)
		;
}

/* Send for seconds at rate (0: as fast as it can); sent frames in *sent. */
static int send_paced(int fd, const uint8_t *frame, int len, double rate, double seconds,
		      uint64_t *sent, uint64_t *elapsed)
{
	struct mmsghdr msg[MAX_BATCH];
	struct iovec iov = { .iov_base = (void *)frame, .iov_len = (size_t)len };
	uint64_t t0 = now_ns(), end = t0 + (uint64_t)(seconds * 1e9), k = 0;
	unsigned int batch, i;
	double gap;
	int n;

	memset(msg, 0, sizeof(msg));
	for (i = 0; i < MAX_BATCH; i++) {
		msg[i].msg_hdr.msg_iov = &iov;
		msg[i].msg_hdr.msg_iovlen = 1;
	}
	calvin_gen_pacing(rate, MAX_BATCH, &batch, &gap);
	*sent = 0;
	for (;;) {
		/* an absolute schedule: a late batch does not shift the rest */
		uint64_t at = t0 + (uint64_t)((double)k * gap);

		if (at >= end || now_ns() >= end || calvin_quit)
			break;
		if (gap > 0)
			wait_until(at);
		n = sendmmsg(fd, msg, batch, 0);
		if (n > 0)
			*sent += (uint64_t)n;
		k++;
	}
	*elapsed = now_ns() - t0;
	return calvin_quit ? -EINTR : 0;
}

int bench_gen_trial(const struct calvin_chain_spec *spec, const struct calvin_gen_flow *flow,
		    unsigned int frame_size, double rate, double seconds,
		    struct bench_gen_result *r)
{
	uint8_t frame[CALVIN_GEN_MAX_FRAME];
	uint32_t rx0, rx1, tx;
	uint64_t elapsed;
	int len, fd = -1, saved, err;

	memset(r, 0, sizeof(*r));
	len = calvin_gen_frame(frame, sizeof(frame), flow, frame_size);
	if (len < 0)
		return len;
	err = node_counters(spec, spec->server.name, IF_WEST, &rx0, &tx);
	if (err)
		return err;
	err = backend_of(spec)->node_enter(spec, PROBE_NODE, &saved);
	if (err)
		return err;
	err = packet_socket(&fd);
	if (!err)
		err = send_paced(fd, frame, len, rate, seconds, &r->sent, &elapsed);
	if (fd >= 0)
		close(fd);
	node_leave(saved);
	if (err)
		return err;
	rx1 = drain(spec, rx0);
	r->received = (uint32_t)(rx1 - rx0);
	r->offered_pps = elapsed ? (double)r->sent * 1e9 / (double)elapsed : 0;
	r->loss = r->sent ? 1 - (double)r->received / (double)r->sent : 1;
	if (r->loss < 0)
		r->loss = 0; /* the server's counter saw other frames too */
	return 0;
}

int bench_gen_flow(const struct calvin_chain_spec *spec, const char *src, const char *dst,
		   uint16_t dport, struct calvin_gen_flow *flow)
{
	struct calvin_node nodes[CALVIN_MAX_NODES];
	int saved, err;

	memset(flow, 0, sizeof(*flow));
	calvin_chain_nodes(spec, nodes);
	err = backend_of(spec)->node_enter(spec, PROBE_NODE, &saved);
	if (err)
		return err;
	err = if_mac(IF_EAST, flow->src_mac);
	node_leave(saved);
	if (!err)
		err = backend_of(spec)->node_enter(spec, nodes[1].name, &saved);
	if (!err) {
		err = if_mac(IF_WEST, flow->dst_mac);
		node_leave(saved);
	}
	flow->sport = 4000;
	flow->dport = dport;
	if (!err &&
	    (inet_pton(AF_INET, dst, &flow->dst) != 1 || inet_pton(AF_INET, src, &flow->src) != 1))
		err = -EINVAL;
	return err;
}
