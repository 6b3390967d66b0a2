// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin-relay: the user-space VNF and the server of the conventional
 * stack that `calvin bench` measures calvin against (bench/lib/stack_plan.c):
 * what a VNF does with the kernel's sockets instead of a poll-mode driver.
 *
 *   calvin-relay relay --listen ADDR --to ADDR --ports P[,P...] [--cpu N] [--ready-fd FD]
 *   calvin-relay echo --listen ADDR --ports P[,P...] [--cpu N] [--ready-fd FD]
 *
 * relay: receives UDP on ADDR:P, sends each datagram on to --to's P from an
 * upstream socket of the client's own, and sends what comes back on that
 * socket to the client. echo: sends every datagram back to its sender.
 * It waits for packets in epoll, as a conventional server does, and moves
 * up to 32 at a time with recvmmsg/sendmmsg. "ready" goes to --ready-fd
 * once every socket is bound. SIGTERM ends it. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "bench/lib/bench_lib.h"

#define BATCH 32
#define MSG_MAX 2048
#define PROG "calvin-relay"

struct relay {
	bool echo;
	struct in_addr listen, to;
	uint16_t ports[CALVIN_RELAY_MAX_PORTS];
	int nr_ports;
	int lfd[CALVIN_RELAY_MAX_PORTS]; /* listening sockets, by port index */
	int ep;
	struct calvin_relay_flows flows;
	/* one batch */
	struct mmsghdr msg[BATCH];
	struct iovec iov[BATCH];
	struct sockaddr_in from[BATCH];
	char buf[BATCH][MSG_MAX];
};

static struct relay R;

/* epoll data: a listening socket is its port index, an upstream socket
 * is its fd plus this, so the two never meet */
#define UPSTREAM_TAG 1000

static int udp_socket(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), big = 4 << 20;

	if (fd >= 0) {
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &big, sizeof(big));
	}
	return fd;
}

static int watch(int fd, uint64_t data)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = data };

	return epoll_ctl(R.ep, EPOLL_CTL_ADD, fd, &ev);
}

static int listen_all(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr = R.listen };
	int i;

	for (i = 0; i < R.nr_ports; i++) {
		R.lfd[i] = udp_socket();
		sa.sin_port = htons(R.ports[i]);
		if (R.lfd[i] < 0 || bind(R.lfd[i], (struct sockaddr *)&sa, sizeof(sa)) ||
		    watch(R.lfd[i], (uint64_t)i)) {
			fprintf(stderr, PROG ": cannot listen on %s:%u: %s\n", inet_ntoa(R.listen),
				R.ports[i], strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Up to BATCH datagrams from fd into the batch; how many. */
static int take(int fd)
{
	int i, n;

	for (i = 0; i < BATCH; i++) {
		R.iov[i].iov_base = R.buf[i];
		R.iov[i].iov_len = MSG_MAX;
		memset(&R.msg[i].msg_hdr, 0, sizeof(R.msg[i].msg_hdr));
		R.msg[i].msg_hdr.msg_iov = &R.iov[i];
		R.msg[i].msg_hdr.msg_iovlen = 1;
		R.msg[i].msg_hdr.msg_name = &R.from[i];
		R.msg[i].msg_hdr.msg_namelen = sizeof(R.from[i]);
	}
	n = recvmmsg(fd, R.msg, BATCH, MSG_DONTWAIT, NULL);
	for (i = 0; i < n; i++)
		R.iov[i].iov_len = R.msg[i].msg_len;
	return n;
}

/* Send msg[from..to) on fd: on a connected socket (to NULL), to dst, or
 * (echo) each back to its sender. */
enum give_to { TO_PEER, TO_DST, TO_SENDER };

static void give(int fd, int from, int to, enum give_to how, const struct sockaddr_in *dst)
{
	int i, sent;

	for (i = from; i < to; i++) {
		struct msghdr *h = &R.msg[i].msg_hdr;

		h->msg_name = how == TO_PEER ? NULL : how == TO_DST ? (void *)dst : &R.from[i];
		h->msg_namelen = how == TO_PEER ? 0 : sizeof(struct sockaddr_in);
	}
	/* a full socket buffer drops the rest, as a conventional server would */
	while (from < to && (sent = sendmmsg(fd, R.msg + from, (unsigned int)(to - from), 0)) > 0)
		from += sent;
}

static int upstream(struct calvin_relay_flow *f)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr = R.to };
	int fd = udp_socket();

	sa.sin_port = htons(R.ports[f->port]);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    watch(fd, UPSTREAM_TAG + (uint64_t)fd)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Datagrams from clients on listening port p: echo them, or send each
 * on through its client's upstream socket (a run of one client's at once). */
static void from_clients(int p)
{
	struct calvin_relay_flow *f, *cur = NULL;
	int n = take(R.lfd[p]), i, start = 0;
	bool fresh;

	if (R.echo && n > 0) {
		give(R.lfd[p], 0, n, TO_SENDER, NULL);
		return;
	}
	for (i = 0; i < n; i++) {
		f = calvin_relay_flow_get(&R.flows, &R.from[i], (unsigned int)p, &fresh);
		if (fresh) {
			if (f->fd >= 0)
				close(f->fd); /* the evicted client's */
			f->fd = upstream(f);
		}
		if (f != cur && cur && cur->fd >= 0)
			give(cur->fd, start, i, TO_PEER, NULL);
		if (f != cur)
			start = i;
		cur = f;
	}
	if (cur && cur->fd >= 0)
		give(cur->fd, start, n, TO_PEER, NULL);
}

/* Replies on a client's upstream socket: back to the client. */
static void from_upstream(int fd)
{
	struct calvin_relay_flow *f = calvin_relay_flow_by_fd(&R.flows, fd);
	int n = take(fd);

	if (f && n > 0)
		give(R.lfd[f->port], 0, n, TO_DST, &f->client);
}

static int usage(void)
{
	fprintf(stderr, "usage: " PROG " relay --listen ADDR --to ADDR --ports P[,P...] [--cpu N] "
			"[--ready-fd FD]\n       " PROG " echo --listen ADDR --ports P[,P...] "
			"[--cpu N] [--ready-fd FD]\n");
	return 2;
}

static int parse(int argc, char **argv, int *cpu, int *ready)
{
	static const struct option lo[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "to", required_argument, NULL, 't' },
		{ "ports", required_argument, NULL, 'p' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "ready-fd", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	bool to = false;
	int c;

	if (argc < 2 || (strcmp(argv[1], "relay") && strcmp(argv[1], "echo")))
		return -1;
	R.echo = !strcmp(argv[1], "echo");
	optind = 2;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (c == 'l' && inet_pton(AF_INET, optarg, &R.listen) == 1)
			continue;
		if (c == 't' && inet_pton(AF_INET, optarg, &R.to) == 1 && (to = true))
			continue;
		if (c == 'p' && (R.nr_ports = calvin_relay_parse_ports(optarg, R.ports)) > 0)
			continue;
		if (c == 'c')
			*cpu = atoi(optarg);
		else if (c == 'r')
			*ready = atoi(optarg);
		else
			return -1;
	}
	return optind == argc && R.nr_ports > 0 && R.listen.s_addr && (R.echo || to) ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct epoll_event ev[16];
	int cpu = -1, ready = -1, n, i;
	cpu_set_t set;

	if (parse(argc, argv, &cpu, &ready))
		return usage();
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			fprintf(stderr, PROG ": cannot pin to CPU %d: %s\n", cpu, strerror(errno));
	}
	calvin_relay_flows_init(&R.flows);
	R.ep = epoll_create1(EPOLL_CLOEXEC);
	if (R.ep < 0 || listen_all())
		return 1;
	if (ready >= 0) {
		if (write(ready, "ready\n", 6) != 6)
			return 1;
		close(ready);
	}
	for (;;) {
		n = epoll_wait(R.ep, ev, 16, -1);
		for (i = 0; i < n; i++) {
			if (ev[i].data.u64 < UPSTREAM_TAG)
				from_clients((int)ev[i].data.u64);
			else
				from_upstream((int)(ev[i].data.u64 - UPSTREAM_TAG));
		}
		if (n < 0 && errno != EINTR)
			return 1;
	}
}
