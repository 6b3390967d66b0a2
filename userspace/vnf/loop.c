// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The polling loop: one lcore busy-polls every port of the VNF and hands
 * each received burst to the transform. Nothing here logs or allocates. */
#include <time.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "vnf.h"

volatile sig_atomic_t vnf_quit;

/* CLOCK_MONOTONIC is what bpf_ktime_get_ns() reads, so user-space and
 * kernel hop records of one host can be compared. Read through the vDSO. */
uint64_t vnf_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Send n frames out of one port; probes (if any) are stamped as late as
 * possible before the hand-off. What the PMD does not take is freed and
 * counted: holding it back would only add latency to the next burst. */
void vnf_tx(struct vnf *vnf, struct vnf_lcore_stats *st, enum vnf_side out, struct rte_mbuf **pkts,
	    uint16_t n, struct vnf_probes *probes)
{
	struct vnf_port_stats *ps = &st->port[out];
	uint16_t sent, i;
	uint64_t bytes = 0;

	if (!n)
		return;
	for (i = 0; i < n; i++)
		bytes += rte_pktmbuf_pkt_len(pkts[i]);
	if (probes && probes->nb)
		vnf_probes_stamp(vnf, st, probes, vnf_now_ns());
	sent = rte_eth_tx_burst(vnf->port[out].port_id, 0, pkts, n);
	if (unlikely(sent < n)) {
		for (i = sent; i < n; i++) {
			bytes -= rte_pktmbuf_pkt_len(pkts[i]);
			rte_pktmbuf_free(pkts[i]);
		}
		ps->tx_failed += n - sent;
	}
	ps->tx_packets += sent;
	ps->tx_bytes += bytes;
}

static void count_rx(struct vnf_port_stats *ps, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i;

	ps->rx_packets += n;
	for (i = 0; i < n; i++)
		ps->rx_bytes += rte_pktmbuf_pkt_len(pkts[i]);
}

int vnf_loop(void *arg)
{
	struct vnf *vnf = arg;
	struct vnf_lcore_stats *st = &vnf_stats[rte_lcore_id()];
	void (*process)(struct vnf *, struct vnf_lcore_stats *, enum vnf_side, struct rte_mbuf **,
			uint16_t, uint64_t) = vnf->cfg.transform->process;
	void (*poll)(struct vnf *, struct vnf_lcore_stats *) = vnf->cfg.transform->poll;
	struct rte_mbuf *pkts[VNF_MAX_BURST];
	const uint16_t burst = vnf->cfg.burst;
	uint16_t port_id[VNF_SIDES];
	unsigned int nb_sides = vnf->port[VNF_EAST].used ? 2 : 1;
	unsigned int side;
	uint64_t t_in;
	uint16_t n;

	for (side = 0; side < nb_sides; side++)
		port_id[side] = vnf->port[side].port_id;

	while (!vnf_quit) {
		for (side = 0; side < nb_sides; side++) {
			n = rte_eth_rx_burst(port_id[side], 0, pkts, burst);
			if (!n)
				continue;
			t_in = vnf_now_ns();
			count_rx(&st->port[side], pkts, n);
			process(vnf, st, (enum vnf_side)side, pkts, n, t_in);
		}
		if (poll)
			poll(vnf, st);
	}
	return 0;
}
