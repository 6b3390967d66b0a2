// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Test tool: capture the IPv4 UDP frames an interface of the current
 * network namespace receives, for integration tests that check what a link
 * carries (ciphertext, not plaintext). Run it inside a node with calvin exec.
 *
 *   capture IFNAME SECONDS [PATTERN_STEP]
 *
 * One line per frame received, for SECONDS:
 *
 *   SPORT DPORT plain|opaque APP_HEX
 *
 * APP_HEX is the UDP payload after a probe's telemetry block (the whole
 * payload when there is none), so the bytes an encrypt VNF protects.
 * "plain" when they hold a run of 16 bytes each PATTERN_STEP (default 7)
 * above the last, modulo 256: the pattern calvin's probe writes into its
 * application bytes (userspace/calvin/probe.c), which ciphertext matches by
 * chance with a probability of 2^-120 per place. The line "capturing" goes
 * to stderr once the socket is bound. */
#include <arpa/inet.h>
#include <errno.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <netpacket/packet.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "measure/measure.h"

#define RUN_LEN 16

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static bool has_run(const uint8_t *p, size_t len, uint8_t step)
{
	size_t i, run = 1;

	for (i = 1; i < len; i++) {
		run = (uint8_t)(p[i] - p[i - 1]) == step ? run + 1 : 1;
		if (run >= RUN_LEN)
			return true;
	}
	return false;
}

static void frame_print(const uint8_t *f, size_t len, uint8_t step)
{
	const struct ether_header *eth = (const void *)f;
	const struct iphdr *ip = (const void *)(eth + 1);
	const struct udphdr *udp;
	const uint8_t *app;
	size_t l4, end, skip, i;

	if (len < sizeof(*eth) + sizeof(*ip) || ntohs(eth->ether_type) != ETHERTYPE_IP ||
	    ip->protocol != IPPROTO_UDP || ip->ihl < 5)
		return;
	l4 = sizeof(*eth) + ip->ihl * 4u;
	end = sizeof(*eth) + ntohs(ip->tot_len);
	if (end > len || l4 + sizeof(*udp) > end)
		return;
	udp = (const void *)(f + l4);
	app = f + l4 + sizeof(*udp);
	skip = calvin_tlm_block_len(app, end - l4 - sizeof(*udp));
	app += skip;
	len = end - l4 - sizeof(*udp) - skip;
	printf("%u %u %s ", ntohs(udp->source), ntohs(udp->dest),
	       has_run(app, len, step) ? "plain" : "opaque");
	for (i = 0; i < len; i++)
		printf("%02x", app[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	struct sockaddr_ll sll = {.sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL)};
	socklen_t sll_len = sizeof(sll);
	uint8_t frame[2048], step = 7;
	uint64_t end;
	struct pollfd p;
	ssize_t n;
	int fd;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: capture IFNAME SECONDS [PATTERN_STEP]\n");
		return 2;
	}
	if (argc == 4)
		step = (uint8_t)atoi(argv[3]);
	sll.sll_ifindex = (int)if_nametoindex(argv[1]);
	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (fd < 0 || !sll.sll_ifindex || bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		fprintf(stderr, "capture: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	fprintf(stderr, "capturing\n");
	end = now_ms() + (uint64_t)atoi(argv[2]) * 1000;
	p = (struct pollfd){.fd = fd, .events = POLLIN};
	while (now_ms() < end) {
		if (poll(&p, 1, (int)(end - now_ms())) <= 0)
			continue;
		sll_len = sizeof(sll);
		n = recvfrom(fd, frame, sizeof(frame), 0, (struct sockaddr *)&sll, &sll_len);
		if (n > 0 && sll.sll_pkttype != PACKET_OUTGOING)
			frame_print(frame, (size_t)n, step);
	}
	fflush(stdout);
	close(fd);
	return 0;
}
