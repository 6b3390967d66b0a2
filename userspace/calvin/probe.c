// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Probe engine: sends telemetry probes through a chain and measures them. */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/errqueue.h>
#include <linux/net_tstamp.h>

#include "probe.h"
#include "util.h"

/* Software stamps on send (read back from the error queue, keyed by a
 * per-datagram counter, without the payload) and on receive. */
#define TS_FLAGS                                                                                   \
	(SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE | \
	 SOF_TIMESTAMPING_OPT_ID | SOF_TIMESTAMPING_OPT_TSONLY)
#define RX_BUF_LEN 65536
#define CTRL_LEN 512
#define NSEC 1000000000ULL

/* wait_until() stop conditions besides a sequence number */
#define WAIT_DEADLINE (-1) /* only the deadline */
#define WAIT_ALL (-2)	   /* every probe sent has come back */

struct probe_run {
	const struct calvin_probe_opts *o;
	struct calvin_probe_result *r;
	struct calvin_probe_acct acct;
	int fd;
	uint32_t session;
	uint64_t *tx_user; /* per seq: REALTIME just before send(); 0 = not sent */
	uint64_t *tx_kern; /* per seq: kernel send stamp (REALTIME); 0 = none yet */
	uint32_t *key_seq; /* SOF_TIMESTAMPING_OPT_ID key -> seq */
	uint32_t nr_keys;
	uint8_t *pkt;
	uint8_t *buf;
	bool stop; /* a signal interrupted a wait: the caller wants out */
	uint64_t t0, next_progress; /* CLOCK_MONOTONIC ns */
	bool progress_shown;
};

#define PROGRESS_AFTER_NS 1000000000ULL
#define PROGRESS_EVERY_NS 250000000ULL

/* One line on the terminal, rewritten in place: how far the run is. Only
 * for runs longer than a second, so a quick probe prints nothing extra. */
static void progress(struct probe_run *p, uint64_t now)
{
	if (!p->o->progress || now < p->next_progress)
		return;
	if (!p->next_progress) {
		p->next_progress = p->t0 + PROGRESS_AFTER_NS;
		return;
	}
	fprintf(stderr, "\r  probes: %" PRIu64 "/%u sent, %" PRIu64 " back, %.0f s", p->r->sent,
		p->o->count, p->r->received, (double)(now - p->t0) / 1e9);
	p->progress_shown = true;
	p->next_progress = now + PROGRESS_EVERY_NS;
}

static void progress_end(struct probe_run *p)
{
	if (p->progress_shown)
		fputs("\r\033[K", stderr);
}

static uint64_t now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * NSEC + (uint64_t)ts.tv_nsec;
}

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * NSEC + (uint64_t)ts->tv_nsec;
}

/* REALTIME - MONOTONIC from the tightest of a few (MONO, REAL, MONO)
 * readings; *unc is half that window. Both clocks come from one timekeeper,
 * so the offset moves only when the realtime clock is stepped. */
static void clock_offset(int64_t *off, uint64_t *unc)
{
	uint64_t m1, rt, m2, best = UINT64_MAX;
	int i;

	for (i = 0; i < 64; i++) {
		m1 = now_ns(CLOCK_MONOTONIC);
		rt = now_ns(CLOCK_REALTIME);
		m2 = now_ns(CLOCK_MONOTONIC);
		if (m2 - m1 < best) {
			best = m2 - m1;
			*off = (int64_t)rt - (int64_t)(m1 + best / 2);
		}
	}
	*unc = (best + 1) / 2;
}

static int check_opts(const struct calvin_probe_opts *o)
{
	if (o->max_hops < 1 || o->max_hops > CALVIN_TLM_MAX_HOPS) {
		calvin_err("probe: %u hop records is out of range: use 1 to %u", o->max_hops,
			   CALVIN_TLM_MAX_HOPS);
		return -EINVAL;
	}
	if (o->size < CALVIN_TLM_LEN(o->max_hops) || o->size > 65507) {
		calvin_err("probe: size %u does not fit %u hop records: use %u to 65507 bytes",
			   o->size, o->max_hops, CALVIN_TLM_LEN(o->max_hops));
		return -EINVAL;
	}
	if (o->count < 1) {
		calvin_err("probe: count is 0: send at least one probe");
		return -EINVAL;
	}
	if (o->mode == CALVIN_PROBE_PACED && o->rate < 1) {
		calvin_err("probe: rate is 0: give probes per second (at least 1)");
		return -EINVAL;
	}
	if (o->mode == CALVIN_PROBE_PINGPONG && o->timeout_ns == 0) {
		calvin_err("probe: ping-pong mode needs a timeout above 0");
		return -EINVAL;
	}
	return 0;
}

static int probe_socket(const struct calvin_probe_opts *o, int *fdp)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(o->port)};
	int one = 1, flags = TS_FLAGS, rcvbuf = 4 << 20;
	int fd, err;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = -errno;
		calvin_err("Failed to open the probe socket: %s", strerror(errno));
		return err;
	}
	/* VNFs rewrite the payload in place: send checksum 0 (none) */
	if (setsockopt(fd, SOL_SOCKET, SO_NO_CHECK, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags))) {
		err = -errno;
		calvin_err("Failed to enable timestamps on the probe socket: %s", strerror(errno));
		goto close_fd;
	}
	/* best effort: room for replies and send stamps between drains */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	sa.sin_addr = o->dst;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		calvin_err("Failed to connect the probe socket to %s:%u: %s", inet_ntoa(o->dst),
			   o->port, strerror(errno));
		goto close_fd;
	}
	*fdp = fd;
	return 0;

close_fd:
	close(fd);
	return err;
}

/* Send stamps come back on the error queue, keyed in send order. */
static void drain_errqueue(struct probe_run *p)
{
	char ctrl[CTRL_LEN], dummy[16];
	struct iovec iov = {.iov_base = dummy, .iov_len = sizeof(dummy)};
	struct msghdr m;
	struct cmsghdr *c;

	for (;;) {
		const struct sock_extended_err *ee = NULL;
		uint64_t ts = 0;
		uint32_t seq;

		memset(&m, 0, sizeof(m));
		m.msg_iov = &iov;
		m.msg_iovlen = 1;
		m.msg_control = ctrl;
		m.msg_controllen = sizeof(ctrl);
		if (recvmsg(p->fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return;
		for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPING)
				ts = ts_ns(&((const struct scm_timestamping *)CMSG_DATA(c))->ts[0]);
			else if (c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVERR)
				ee = (const struct sock_extended_err *)CMSG_DATA(c);
		}
		if (!ts || !ee || ee->ee_origin != SO_EE_ORIGIN_TIMESTAMPING ||
		    ee->ee_data >= p->nr_keys)
			continue;
		seq = p->key_seq[ee->ee_data];
		/* a stamp before the send call would mean the keys slipped; of
		 * several, the first is the probe's own: a socket buffer that
		 * crosses kernel VNFs at tc (mode: throughput) keeps its socket
		 * and is stamped again by each veth it leaves */
		if (ts >= p->tx_user[seq] && (!p->tx_kern[seq] || ts < p->tx_kern[seq]))
			p->tx_kern[seq] = ts;
	}
}

/* The application bytes after the telemetry block: a pattern of the seq,
 * so a reply that a transforming VNF did not restore exactly is caught. */
static uint8_t app_byte(uint32_t seq, size_t i)
{
	return (uint8_t)(seq * 131 + i * 7 + 1);
}

static void app_fill(uint8_t *buf, size_t from, size_t to, uint32_t seq)
{
	size_t i;

	for (i = from; i < to; i++)
		buf[i] = app_byte(seq, i);
}

static bool app_intact(const uint8_t *buf, size_t from, size_t len, size_t want, uint32_t seq)
{
	size_t i;

	if (len != want)
		return false;
	for (i = from; i < len; i++)
		if (buf[i] != app_byte(seq, i))
			return false;
	return true;
}

static void write_raw(struct probe_run *p, const struct calvin_tlm *t, uint64_t tx, uint64_t rx)
{
	int64_t off = p->acct.offset_ns;
	unsigned int i;

	fprintf(p->o->raw, "%" PRIu32 " %" PRIu64 " %" PRIu64 " %u", t->seq,
		(uint64_t)((int64_t)tx - off), (uint64_t)((int64_t)rx - off), t->nr_hops);
	for (i = 0; i < t->nr_hops; i++)
		fprintf(p->o->raw, " %u %u %" PRIu64 " %" PRIu64, t->hops[i].vnf_id, t->hops[i].dir,
			t->hops[i].t_in, t->hops[i].t_out);
	fputc('\n', p->o->raw);
}

static void handle_reply(struct probe_run *p, size_t len, uint64_t rx, unsigned int flags)
{
	struct calvin_tlm t;
	uint64_t tx;
	int err;

	err = calvin_tlm_decode(p->buf, len, &t);
	if (err) {
		p->r->bad_replies++;
		if (!p->r->bad_why[0])
			calvin_tlm_why(p->buf, len, err, p->r->bad_why, sizeof(p->r->bad_why));
		return;
	}
	if (t.session != p->session) {
		p->r->foreign++;
		return;
	}
	if (t.seq >= p->o->count || !p->tx_user[t.seq]) {
		p->r->bad_replies++;
		if (!p->r->bad_why[0])
			snprintf(p->r->bad_why, sizeof(p->r->bad_why),
				 "sequence number %" PRIu32 " was never sent", t.seq);
		return;
	}
	if (!app_intact(p->buf, CALVIN_TLM_LEN(t.max_hops), len, p->o->size, t.seq)) {
		p->r->corrupt++;
		return;
	}
	if (!p->tx_kern[t.seq])
		drain_errqueue(p);
	tx = p->tx_kern[t.seq];
	if (!tx) {
		tx = p->tx_user[t.seq];
		flags |= CALVIN_ACCT_TX_USER;
	}
	if (calvin_probe_account(&p->acct, tx, rx, &t, flags) == 0 && p->o->raw)
		write_raw(p, &t, tx, rx);
}

static void drain_replies(struct probe_run *p)
{
	char ctrl[CTRL_LEN];
	struct iovec iov = {.iov_base = p->buf, .iov_len = RX_BUF_LEN};
	struct msghdr m;
	struct cmsghdr *c;
	unsigned int flags;
	uint64_t rx;
	ssize_t n;

	for (;;) {
		memset(&m, 0, sizeof(m));
		m.msg_iov = &iov;
		m.msg_iovlen = 1;
		m.msg_control = ctrl;
		m.msg_controllen = sizeof(ctrl);
		n = recvmsg(p->fd, &m, MSG_DONTWAIT);
		if (n < 0) {
			/* ECONNREFUSED: an ICMP error from a missing server, not a reply */
			if (errno == EINTR || errno == ECONNREFUSED)
				continue;
			return;
		}
		rx = 0;
		flags = 0;
		for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPING)
				rx = ts_ns(&((const struct scm_timestamping *)CMSG_DATA(c))->ts[0]);
		if (!rx) {
			rx = now_ns(CLOCK_REALTIME);
			flags |= CALVIN_ACCT_RX_USER;
		}
		handle_reply(p, (size_t)n, rx, flags);
	}
}

static bool seq_seen(const struct probe_run *p, uint32_t seq)
{
	return p->acct.seen[seq / 8] & (1u << (seq % 8));
}

/* Take in replies and send stamps until deadline (CLOCK_MONOTONIC ns) or
 * until the condition `until` (a seq, WAIT_ALL or WAIT_DEADLINE) holds. */
static void wait_until(struct probe_run *p, uint64_t deadline, int64_t until)
{
	struct pollfd pfd = {.fd = p->fd, .events = POLLIN};
	struct timespec ts;
	uint64_t now, left;

	for (;;) {
		drain_errqueue(p);
		drain_replies(p);
		if (until >= 0 && seq_seen(p, (uint32_t)until))
			return;
		if (until == WAIT_ALL && p->r->received >= p->r->sent)
			return;
		/* SIGINT or SIGTERM (catch_quit_signals()): stop, with what we have */
		if (calvin_quit) {
			p->stop = p->r->interrupted = true;
			return;
		}
		now = now_ns(CLOCK_MONOTONIC);
		progress(p, now);
		if (now >= deadline)
			return;
		left = deadline - now;
		ts.tv_sec = (time_t)(left / NSEC);
		ts.tv_nsec = (long)(left % NSEC);
		/* a signal ends the wait early (EINTR); the check above says
		 * whether it asked us to stop */
		ppoll(&pfd, 1, &ts, NULL);
	}
}

static bool probe_send(struct probe_run *p, uint32_t seq)
{
	const struct calvin_probe_opts *o = p->o;

	calvin_tlm_init(p->pkt, o->size, o->max_hops, seq, p->session);
	app_fill(p->pkt, CALVIN_TLM_LEN(o->max_hops), o->size, seq);
	p->tx_user[seq] = now_ns(CLOCK_REALTIME);
	if (send(p->fd, p->pkt, o->size, MSG_DONTWAIT) < 0) {
		p->tx_user[seq] = 0;
		p->r->send_errors++;
		return false;
	}
	p->key_seq[p->nr_keys++] = seq;
	p->r->sent++;
	return true;
}

/* Absolute schedule: probe i leaves at start + i/rate, however long the
 * previous wait took, so the rate does not drift. */
static void run_paced(struct probe_run *p)
{
	const struct calvin_probe_opts *o = p->o;
	uint64_t start = now_ns(CLOCK_MONOTONIC), at = start;
	uint32_t seq;

	for (seq = 0; seq < o->count && !p->stop; seq++) {
		at = start + (uint64_t)seq * NSEC / o->rate;
		wait_until(p, at, WAIT_DEADLINE);
		if (!p->stop)
			probe_send(p, seq);
	}
	if (!p->stop)
		wait_until(p, at + o->timeout_ns, WAIT_ALL);
}

static void run_pingpong(struct probe_run *p)
{
	uint64_t at;
	uint32_t seq;

	for (seq = 0; seq < p->o->count && !p->stop; seq++) {
		at = now_ns(CLOCK_MONOTONIC);
		if (probe_send(p, seq))
			wait_until(p, at + p->o->timeout_ns, seq);
	}
	/* stamps of the last probes may still be queued */
	drain_errqueue(p);
}

static int probe_alloc(struct probe_run *p)
{
	unsigned int n = p->o->count;

	p->tx_user = calloc(n, sizeof(*p->tx_user));
	p->tx_kern = calloc(n, sizeof(*p->tx_kern));
	p->key_seq = calloc(n, sizeof(*p->key_seq));
	p->pkt = calloc(1, p->o->size);
	p->buf = malloc(RX_BUF_LEN);
	if (p->tx_user && p->tx_kern && p->key_seq && p->pkt && p->buf)
		return 0;
	calvin_err("probe: out of memory for %u probes", n);
	return -ENOMEM;
}

static void probe_free(struct probe_run *p)
{
	free(p->tx_user);
	free(p->tx_kern);
	free(p->key_seq);
	free(p->pkt);
	free(p->buf);
}

static void result_setup(const struct calvin_probe_opts *o, struct calvin_probe_result *r,
			 uint32_t session)
{
	unsigned int i;

	calvin_probe_result_init(r);
	r->count = o->count;
	r->rate = o->rate;
	r->size = o->size;
	r->mode = o->mode;
	r->max_hops = o->max_hops;
	r->session = session;
	r->ts_source = CALVIN_TS_KERNEL;
	for (i = 0; i < o->nr_refs; i++)
		if (calvin_clock_ref_add(r, &o->refs[i]))
			calvin_err(
			    "probe: clock offset %u of %u not used (one pair twice, or more than "
			    "%u)",
			    i + 1, o->nr_refs, CALVIN_MAX_CLOCK_REFS);
}

int calvin_probe_run(const struct calvin_probe_opts *o, struct calvin_probe_result *r)
{
	struct probe_run p = {.o = o, .r = r, .fd = -1};
	int64_t off0, off1;
	uint64_t unc0, unc1, t0;
	int err, slack;

	err = check_opts(o);
	if (err)
		return err;
	if (getrandom(&p.session, sizeof(p.session), GRND_NONBLOCK) != sizeof(p.session))
		p.session = (uint32_t)(now_ns(CLOCK_MONOTONIC) ^ ((uint64_t)getpid() << 16));
	result_setup(o, r, p.session);
	err = probe_alloc(&p);
	if (err)
		goto free_run;
	err = probe_socket(o, &p.fd);
	if (err)
		goto free_run;

	clock_offset(&off0, &unc0);
	err = calvin_probe_acct_init(&p.acct, r, o->count, off0);
	if (err)
		goto close_socket;
	/* wake up on time for the next send, not up to 50us late */
	slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0);

	t0 = now_ns(CLOCK_MONOTONIC);
	p.t0 = t0;
	if (o->mode == CALVIN_PROBE_PINGPONG)
		run_pingpong(&p);
	else
		run_paced(&p);
	r->elapsed_ns = now_ns(CLOCK_MONOTONIC) - t0;
	progress_end(&p);

	if (slack > 0)
		prctl(PR_SET_TIMERSLACK, slack, 0, 0, 0);
	clock_offset(&off1, &unc1);
	calvin_probe_finish(&p.acct, off1, unc0 > unc1 ? unc0 : unc1);
	if (r->received && r->tx_fallback == r->received && r->rx_fallback == r->received)
		r->ts_source = CALVIN_TS_USER;
	calvin_probe_acct_free(&p.acct);
close_socket:
	close(p.fd);
free_run:
	probe_free(&p);
	return err;
}
