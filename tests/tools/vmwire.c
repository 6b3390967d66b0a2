// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* vmwire: Ethernet frames into and out of a qemu VM whose NICs are UDP
 * socket netdevs (-netdev socket,udp=127.0.0.1:HOST,localaddr=127.0.0.1:QEMU),
 * so a vm test needs no taps. Sends COUNT IPv4/UDP frames to DST-MAC into
 * one NIC and counts the frames that leave the other with WANT-DST as
 * their destination MAC.
 *
 *   vmwire IN-HOST IN-QEMU OUT-HOST DST-MAC WANT-DST COUNT [DUMP]
 *
 * IN-HOST/OUT-HOST: the ports qemu sends the two NICs' frames to (bound
 * here); IN-QEMU: the port qemu takes the ingress NIC's frames on. Prints
 * "sent N received M" and exits 0 when M == N within 20 s. DUMP: a file
 * that gets the UDP payload of each frame that came out, in hex, a line
 * each (what an encrypting VNF made of the frames). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int udp_bound(int port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fprintf(stderr, "vmwire: cannot bind 127.0.0.1:%d: %s\n", port, strerror(errno));
		exit(1);
	}
	return fd;
}

static void parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6], i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6) {
		fprintf(stderr, "vmwire: '%s' is not a MAC address\n", s);
		exit(2);
	}
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
}

static uint16_t ip_csum(const uint8_t *h, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i < len; i += 2)
		sum += (uint32_t)(h[i] << 8 | h[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* Ethernet + IPv4 (10.70.0.1 -> 10.70.0.2) + UDP to port 9, no UDP
 * checksum; seq in the payload. Returns the frame's length. */
static size_t build_frame(uint8_t *f, const uint8_t dst[6], uint32_t seq)
{
	static const uint8_t src[6] = {0x02, 0, 0, 0, 0, 0xaa};
	uint8_t *ip = f + 14, *udp = ip + 20;
	size_t payload = 64;
	uint16_t csum;

	memset(f, 0, 14 + 20 + 8 + payload);
	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	f[12] = 0x08;
	ip[0] = 0x45;
	ip[2] = (uint8_t)((20 + 8 + payload) >> 8);
	ip[3] = (uint8_t)(20 + 8 + payload);
	ip[8] = 64;
	ip[9] = 17;
	memcpy(ip + 12, (uint8_t[]){10, 70, 0, 1, 10, 70, 0, 2}, 8);
	csum = ip_csum(ip, 20);
	ip[10] = (uint8_t)(csum >> 8);
	ip[11] = (uint8_t)csum;
	udp[0] = 0x9c; /* source port 40000 */
	udp[1] = 0x40;
	udp[3] = 9;
	udp[4] = (uint8_t)((8 + payload) >> 8);
	udp[5] = (uint8_t)(8 + payload);
	memcpy(udp + 8, &seq, sizeof(seq));
	return 14 + 20 + 8 + payload;
}

static void dump(FILE *f, const uint8_t *frame, ssize_t n)
{
	ssize_t i;

	if (!f || n < 14 + 20 + 8)
		return;
	for (i = 14 + 20 + 8; i < n; i++)
		fprintf(f, "%02x", frame[i]);
	fputc('\n', f);
}

int main(int argc, char **argv)
{
	FILE *dumpf = NULL;
	struct sockaddr_in to = { .sin_family = AF_INET };
	uint8_t dst[6], want[6], frame[2048];
	int in, out, count, sent = 0, got = 0, i;
	struct pollfd p;
	time_t end;
	ssize_t n;
	size_t len;

	if (argc != 7 && argc != 8) {
		fprintf(stderr,
			"usage: vmwire IN-HOST IN-QEMU OUT-HOST DST-MAC WANT-DST COUNT [DUMP]\n");
		return 2;
	}
	if (argc == 8 && !(dumpf = fopen(argv[7], "w"))) {
		fprintf(stderr, "vmwire: %s: %s\n", argv[7], strerror(errno));
		return 2;
	}
	in = udp_bound(atoi(argv[1]));
	out = udp_bound(atoi(argv[3]));
	to.sin_port = htons((uint16_t)atoi(argv[2]));
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	parse_mac(argv[4], dst);
	parse_mac(argv[5], want);
	count = atoi(argv[6]);
	for (i = 0; i < count; i++) {
		len = build_frame(frame, dst, (uint32_t)i);
		if (sendto(in, frame, len, 0, (struct sockaddr *)&to, sizeof(to)) == (ssize_t)len)
			sent++;
		usleep(2000); /* an emulated NIC: no bursts it could drop */
	}
	p = (struct pollfd){.fd = out, .events = POLLIN};
	end = time(NULL) + 20;
	while (got < sent && time(NULL) < end) {
		if (poll(&p, 1, 500) <= 0)
			continue;
		n = recv(out, frame, sizeof(frame), 0);
		if (n >= 14 && !memcmp(frame, want, 6)) {
			got++;
			dump(dumpf, frame, n);
		}
	}
	if (dumpf)
		fclose(dumpf);
	printf("sent %d received %d\n", sent, got);
	close(in);
	close(out);
	return got == count ? 0 : 1;
}
