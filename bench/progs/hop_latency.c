// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* bench/kernel.sh's probe: hop latency across the node under test, from kernel timestamps.
 *
 *   hop-latency NETNS_A NETNS_B DST_IP PORT RATE SECONDS
 *
 * Sends telemetry probes (UDP to PORT, payload a calvin telemetry block)
 * from a socket in NETNS_A to DST_IP, receives them on a socket in NETNS_B,
 * one probe in flight at a time, RATE per second for SECONDS. For each
 * probe it takes A's kernel transmit timestamp and B's kernel receive
 * timestamp (SO_TIMESTAMPING, software; both the host's CLOCK_REALTIME, so
 * the difference is valid), and the first hop record's t_out - t_in when a
 * forwarder stamped one. Kernel timestamps keep the scheduler's wake-up
 * latency out of the figures. Prints one line of key=value pairs.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/errqueue.h>
#include <linux/net_tstamp.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "measure/measure.h"

#define PROBE_HOPS 4
#define PROBE_LEN CALVIN_TLM_LEN(PROBE_HOPS)
#define WAIT_MS 20 /* a probe not back by then counts as lost */

struct samples {
	uint64_t *v;
	size_t n, cap;
};

static void add(struct samples *s, uint64_t x)
{
	if (s->n < s->cap)
		s->v[s->n++] = x;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile; 0 when there are no samples. */
static uint64_t pct(const struct samples *s, unsigned int p)
{
	size_t rank;

	if (!s->n)
		return 0;
	rank = (s->n * p + 99) / 100;
	return s->v[rank ? rank - 1 : 0];
}

static uint64_t ts_ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000ull + (uint64_t)t->tv_nsec;
}

/* A socket in the network namespace at path; the namespace stays the
 * socket's after we move on. */
static int socket_in(const char *netns, int flags)
{
	int nsfd = open(netns, O_RDONLY | O_CLOEXEC), fd, val = flags;

	if (nsfd < 0)
		return -errno;
	if (setns(nsfd, CLONE_NEWNET)) {
		close(nsfd);
		return -errno;
	}
	close(nsfd);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &val, sizeof(val))) {
		close(fd);
		return -errno;
	}
	return fd;
}

static const struct scm_timestamping *find_ts(struct msghdr *m)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_TIMESTAMPING)
			return (const void *)CMSG_DATA(c);
	return NULL;
}

/* The transmit timestamp of probe id: the driver's (SND) if there is one,
 * else the one taken before the device queue (SCHED). 0 if none. Called
 * once the probe has arrived, when both are queued already. */
static uint64_t tx_stamp(int fd, uint32_t id, int *kind)
{
	char ctl[512], buf[64];
	uint64_t sched = 0;
	int tries = 0;
	struct pollfd p = {.fd = fd, .events = POLLERR};

	for (;;) {
		struct iovec iov = {buf, sizeof(buf)};
		struct msghdr m = {.msg_iov = &iov,
				   .msg_iovlen = 1,
				   .msg_control = ctl,
				   .msg_controllen = sizeof(ctl)};
		const struct scm_timestamping *ts;
		struct sock_extended_err *ee = NULL;
		struct cmsghdr *c;

		if (recvmsg(fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
			if (sched || tries++ >= 5 || poll(&p, 1, 1) < 0)
				break;
			continue;
		}
		ts = find_ts(&m);
		for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
			if (c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVERR)
				ee = (void *)CMSG_DATA(c);
		if (!ts || !ee || ee->ee_origin != SO_EE_ORIGIN_TIMESTAMPING || ee->ee_data != id)
			continue;
		if (ee->ee_info == SCM_TSTAMP_SND) {
			*kind |= 1;
			return ts_ns(&ts->ts[0]);
		}
		if (ee->ee_info == SCM_TSTAMP_SCHED)
			sched = ts_ns(&ts->ts[0]);
	}
	if (sched)
		*kind |= 2;
	return sched;
}

struct run {
	int tx, rx;
	uint32_t session;
	unsigned int sent, received;
	int tx_kind;
	struct samples lat, res;
	struct calvin_tlm tlm; /* the last reply, decoded */
};

/* Wait for probe seq at the receiver: 0 and its stamps, or -1 if lost. */
static int rx_probe(struct run *r, uint32_t seq, uint64_t *rx_ns, uint64_t *res_ns)
{
	uint8_t buf[2048], ctl[512];
	struct pollfd p = {.fd = r->rx, .events = POLLIN};

	*res_ns = 0;
	while (poll(&p, 1, WAIT_MS) > 0) {
		struct iovec iov = {buf, sizeof(buf)};
		struct msghdr m = {.msg_iov = &iov,
				   .msg_iovlen = 1,
				   .msg_control = ctl,
				   .msg_controllen = sizeof(ctl)};
		const struct scm_timestamping *ts;
		ssize_t n = recvmsg(r->rx, &m, MSG_DONTWAIT);

		if (n < 0 || calvin_tlm_decode(buf, (size_t)n, &r->tlm) ||
		    r->tlm.session != r->session || r->tlm.seq != seq)
			continue; /* a late one, or not ours */
		ts = find_ts(&m);
		*rx_ns = ts ? ts_ns(&ts->ts[0]) : 0;
		if (r->tlm.nr_hops >= 1)
			*res_ns = r->tlm.hops[0].t_out - r->tlm.hops[0].t_in;
		return 0;
	}
	return -1;
}

static void send_probe(struct run *r, uint32_t seq)
{
	uint8_t buf[PROBE_LEN];
	uint64_t tx_ns, rx_ns, res_ns;

	calvin_tlm_init(buf, sizeof(buf), PROBE_HOPS, seq, r->session);
	if (send(r->tx, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf))
		return;
	r->sent++;
	if (rx_probe(r, seq, &rx_ns, &res_ns))
		return;
	r->received++;
	tx_ns = tx_stamp(r->tx, seq, &r->tx_kind);
	if (tx_ns && rx_ns > tx_ns)
		add(&r->lat, rx_ns - tx_ns);
	if (res_ns)
		add(&r->res, res_ns);
}

static int open_sockets(struct run *r, char **argv)
{
	int txf = SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_TX_SCHED |
		  SOF_TIMESTAMPING_SOFTWARE | SOF_TIMESTAMPING_OPT_ID | SOF_TIMESTAMPING_OPT_TSONLY;
	int rxf = SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;
	struct sockaddr_in dst = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[3]))};
	struct sockaddr_in any = dst;

	any.sin_addr.s_addr = htonl(INADDR_ANY);
	if (inet_pton(AF_INET, argv[2], &dst.sin_addr) != 1)
		return -EINVAL;
	r->tx = socket_in(argv[0], txf);
	if (r->tx < 0)
		return r->tx;
	if (connect(r->tx, (struct sockaddr *)&dst, sizeof(dst)))
		return -errno;
	r->rx = socket_in(argv[1], rxf);
	if (r->rx < 0)
		return r->rx;
	if (bind(r->rx, (struct sockaddr *)&any, sizeof(any)))
		return -errno;
	return 0;
}

static const char *tx_kind_name(int kind)
{
	static const char *const names[] = {"none", "driver", "sched", "mixed"};

	return names[kind & 3];
}

int main(int argc, char **argv)
{
	struct run r = {.session = (uint32_t)getpid()};
	struct timespec start, next;
	double rate, secs;
	uint64_t gap, end;
	uint32_t seq;
	int err;

	if (argc != 7) {
		fprintf(stderr, "usage: hop-latency NETNS_A NETNS_B DST_IP PORT RATE SECONDS\n");
		return 2;
	}
	rate = atof(argv[5]);
	secs = atof(argv[6]);
	if (rate <= 0 || secs <= 0)
		return 2;
	r.lat.cap = r.res.cap = (size_t)(rate * secs) + 1;
	r.lat.v = calloc(r.lat.cap, sizeof(uint64_t));
	r.res.v = calloc(r.res.cap, sizeof(uint64_t));
	if (!r.lat.v || !r.res.v)
		return 1;
	err = open_sockets(&r, argv + 1);
	if (err) {
		fprintf(stderr, "hop-latency: Failed to open probe sockets: %s\n", strerror(-err));
		return 1;
	}

	/* Send on a fixed schedule; a slow or lost probe delays the next. */
	gap = (uint64_t)(1e9 / rate);
	clock_gettime(CLOCK_MONOTONIC, &start);
	end = ts_ns(&start) + (uint64_t)(secs * 1e9);
	next = start;
	for (seq = 0; ts_ns(&next) < end; seq++) {
		send_probe(&r, seq);
		next.tv_nsec += (long)gap;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}

	qsort(r.lat.v, r.lat.n, sizeof(uint64_t), cmp_u64);
	qsort(r.res.v, r.res.n, sizeof(uint64_t), cmp_u64);
	printf("sent=%u received=%u tx_stamp=%s lat_n=%zu lat_p50=%llu lat_p99=%llu "
	       "res_n=%zu res_p50=%llu res_p99=%llu\n",
	       r.sent, r.received, tx_kind_name(r.tx_kind), r.lat.n,
	       (unsigned long long)pct(&r.lat, 50), (unsigned long long)pct(&r.lat, 99), r.res.n,
	       (unsigned long long)pct(&r.res, 50), (unsigned long long)pct(&r.res, 99));
	return 0;
}
