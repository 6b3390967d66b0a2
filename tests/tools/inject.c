// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Test tool: send one crafted Ethernet/IPv4/UDP frame on an interface of the
 * current network namespace, for integration tests that attack a link
 * (tampered ciphertext, unknown SPI). Run it inside a node with calvin exec.
 *
 *   inject IFNAME DST_MAC SRC_IP DST_IP SPORT DPORT HEX_PAYLOAD */
#include <arpa/inet.h>
#include <errno.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <netpacket/packet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static uint16_t ip_csum(const void *p, size_t len)
{
	const uint16_t *w = p;
	uint32_t sum = 0;

	for (; len > 1; len -= 2)
		sum += *w++;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static int hex_bytes(const char *hex, uint8_t *out, size_t cap)
{
	size_t n = strlen(hex) / 2, i;
	unsigned int b;

	if (strlen(hex) % 2 || n > cap)
		return -1;
	for (i = 0; i < n; i++) {
		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (uint8_t)b;
	}
	return (int)n;
}

int main(int argc, char **argv)
{
	uint8_t frame[1600] = { 0 };
	struct ether_header *eth = (void *)frame;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *udp = (void *)(ip + 1);
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct ifreq ifr = { 0 };
	int fd, n;

	if (argc != 8) {
		fprintf(stderr, "usage: inject IFNAME DST_MAC SRC_IP DST_IP SPORT DPORT HEX\n");
		return 2;
	}
	n = hex_bytes(argv[7], (uint8_t *)(udp + 1), sizeof(frame) - 42);
	if (n < 0 || sscanf(argv[2], "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &eth->ether_dhost[0],
			    &eth->ether_dhost[1], &eth->ether_dhost[2], &eth->ether_dhost[3],
			    &eth->ether_dhost[4], &eth->ether_dhost[5]) != 6 ||
	    inet_pton(AF_INET, argv[3], &ip->saddr) != 1 ||
	    inet_pton(AF_INET, argv[4], &ip->daddr) != 1) {
		fprintf(stderr, "inject: bad MAC, address or hex payload\n");
		return 2;
	}
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", argv[1]);
	if (fd < 0 || ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
		fprintf(stderr, "inject: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	memcpy(eth->ether_shost, ifr.ifr_hwaddr.sa_data, 6);
	eth->ether_type = htons(ETHERTYPE_IP);
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->tot_len = htons((uint16_t)(28 + n));
	ip->check = ip_csum(ip, 20);
	udp->source = htons((uint16_t)atoi(argv[5]));
	udp->dest = htons((uint16_t)atoi(argv[6]));
	udp->len = htons((uint16_t)(8 + n));
	sll.sll_ifindex = (int)if_nametoindex(argv[1]);
	sll.sll_halen = 6;
	memcpy(sll.sll_addr, eth->ether_dhost, 6);
	if (sendto(fd, frame, 42 + (size_t)n, 0, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		fprintf(stderr, "inject: send on %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}
