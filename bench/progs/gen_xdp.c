// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* bench/kernel.sh's packet generator: 64-byte UDP frames out of a veth, by XDP live frames.
 *
 *   gen-xdp IFNAME DST_MAC SRC_MAC SRC_IP DST_IP
 *
 * Runs bench/progs/gen.bpf.c (built in: the skeleton bench/kernel.sh makes) with BPF_PROG_RUN and
 * BPF_F_TEST_XDP_LIVE_FRAMES in a loop until SIGINT or SIGTERM. The frames leave as xdp_frames, so
 * the generator costs little per packet and the veth peer sees them the way an XDP program sees a
 * NIC's frames. Everything runs on the calling CPU (pin it with taskset), the peer's NAPI poll
 * included unless the peer has threaded NAPI. Prints the number of frames sent in whole calls on
 * exit (count at the receiver for rates). xdp-trafficgen does the same, but the Debian 12 build
 * fails to load on newer kernels (a renamed tracepoint).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "gen.skel.h"

#define FRAME_LEN 60   /* 64 on the wire with the FCS */
#define GEN_HDR_LEN 34 /* restored before each send: see gen.bpf.c */
/* Each BPF_PROG_RUN call swaps the program in and out of the kernel's XDP
 * dispatcher, which waits for an RCU grace period: milliseconds when the
 * other CPU is busy forwarding, so short calls left the generator asleep
 * half of the time. A signal ends a call early, so long calls cost nothing. */
#define RUNS_PER_CALL (1U << 24)

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static int parse_mac(const char *s, unsigned char mac[ETH_ALEN])
{
	unsigned int b[ETH_ALEN];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6)
		return -EINVAL;
	for (i = 0; i < ETH_ALEN; i++)
		mac[i] = (unsigned char)b[i];
	return 0;
}

static __u16 ip_checksum(const void *hdr, size_t len)
{
	const __u16 *w = hdr;
	__u32 sum = 0;

	for (; len > 1; len -= 2)
		sum += *w++;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

/* Ethernet + IPv4 + UDP (checksum 0: none, as IPv4 allows) + zero payload. */
static int build_frame(unsigned char *f, char **argv)
{
	struct ethhdr *eth = (void *)f;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *udp = (void *)(ip + 1);

	memset(f, 0, FRAME_LEN);
	if (parse_mac(argv[0], eth->h_dest) || parse_mac(argv[1], eth->h_source))
		return -EINVAL;
	eth->h_proto = htons(ETH_P_IP);
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->tot_len = htons(FRAME_LEN - sizeof(*eth));
	if (inet_pton(AF_INET, argv[2], &ip->saddr) != 1 ||
	    inet_pton(AF_INET, argv[3], &ip->daddr) != 1)
		return -EINVAL;
	ip->check = ip_checksum(ip, sizeof(*ip));
	udp->source = htons(4000);
	udp->dest = htons(9);
	udp->len = htons(FRAME_LEN - sizeof(*eth) - sizeof(*ip));
	return 0;
}

static int load(__u32 ifindex, const unsigned char *frame, struct gen_bpf **skelp)
{
	struct gen_bpf *skel = gen_bpf__open();
	int err;

	if (!skel)
		return -errno;
	skel->rodata->out_ifindex = ifindex;
	memcpy(skel->rodata->frame_hdr, frame, GEN_HDR_LEN);
	err = gen_bpf__load(skel);
	if (err) {
		gen_bpf__destroy(skel);
		return err;
	}
	*skelp = skel;
	return bpf_program__fd(skel->progs.gen);
}

int main(int argc, char **argv)
{
	unsigned char frame[FRAME_LEN];
	unsigned long long sent = 0;
	struct gen_bpf *skel = NULL;
	__u32 ifindex;
	int fd, err;

	if (argc != 6) {
		fprintf(stderr, "usage: gen-xdp IFNAME DST_MAC SRC_MAC SRC_IP DST_IP\n");
		return 2;
	}
	ifindex = if_nametoindex(argv[1]);
	if (!ifindex || build_frame(frame, argv + 2)) {
		fprintf(stderr, "gen-xdp: bad interface, MAC or address in the arguments\n");
		return 2;
	}
	libbpf_set_print(NULL);
	fd = load(ifindex, frame, &skel);
	if (fd < 0) {
		fprintf(stderr, "gen-xdp: Failed to load bench/gen.bpf.c: %s\n", strerror(-fd));
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	/* Each call transmits up to RUNS_PER_CALL frames, in batches of 64
	 * with a flush after each; a signal interrupts it (EINTR). */
	while (!stop) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame,
			    .data_size_in = sizeof(frame), .repeat = RUNS_PER_CALL,
			    .flags = BPF_F_TEST_XDP_LIVE_FRAMES);

		err = bpf_prog_test_run_opts(fd, &opts);
		if (err && errno != EINTR) {
			fprintf(stderr, "gen-xdp: Failed to run the generator: %s\n",
				strerror(errno));
			break;
		}
		if (!err)
			sent += RUNS_PER_CALL;
	}
	printf("%llu frames sent in whole calls (not counting the interrupted one)\n", sent);
	gen_bpf__destroy(skel);
	return stop ? 0 : 1;
}
