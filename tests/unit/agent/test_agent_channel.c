// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the agent channel's deadlines (userspace/agent/channel.c,
 * client.c) over real sockets: a peer that never answers, one that stops
 * in the middle of a frame, one that never reads, a listener that never
 * accepts; each costs its deadline, never a hang. And a peer that answers
 * gets through, past answers an earlier host left behind. Needs no root. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "client.h"

#define SHORT_MS 300

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* It took its deadline, and not much more. */
static void assert_took(long long t0, int ms)
{
	long long took = now_ms() - t0;

	if (took < ms - 5 || took > ms + 700)
		fail_msg("took %lld ms, deadline %d ms", took, ms);
}

/* A channel on sv[0]; the test plays the peer on sv[1]. */
static void pair_open(struct calvin_channel *ch, int sv[2], int bufsize)
{
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	if (bufsize) {
		assert_int_equal(setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &bufsize, sizeof(int)),
				 0);
		assert_int_equal(setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &bufsize, sizeof(int)),
				 0);
	}
	assert_int_equal(calvin_channel_init(ch, sv[0]), 0);
}

static void pair_close(struct calvin_channel *ch, int sv[2])
{
	calvin_channel_free(ch);
	close(sv[0]);
	close(sv[1]);
}

static void test_recv_silent_peer(void **state)
{
	struct calvin_channel ch;
	struct calvin_agent_msg m;
	int sv[2];
	long long t0;

	pair_open(&ch, sv, 0);
	t0 = now_ms();
	assert_int_equal(calvin_channel_recv(&ch, &m, SHORT_MS), -ETIMEDOUT);
	assert_took(t0, SHORT_MS);
	pair_close(&ch, sv);
}

/* Waiting for ever is for a frame to begin; a begun one has frame_ms. */
static void test_recv_half_frame(void **state)
{
	static const uint8_t half[] = { CALVIN_AGENT_VERSION, CALVIN_AGENT_OK, 0, 0, 0, 0, 0, 0 };
	uint8_t hdr[8];
	struct calvin_channel ch;
	struct calvin_agent_msg m;
	int sv[2];
	long long t0;

	pair_open(&ch, sv, 0);
	ch.frame_ms = SHORT_MS;
	/* a whole empty frame first: it is read at once */
	assert_int_equal(write(sv[1], half, sizeof(half)), sizeof(half));
	assert_int_equal(calvin_channel_recv(&ch, &m, -1), 0);
	assert_int_equal(m.type, CALVIN_AGENT_OK);
	/* then the header of a 44-byte error payload, and 3 bytes of it */
	memcpy(hdr, half, sizeof(hdr));
	hdr[1] = CALVIN_AGENT_ERROR;
	hdr[7] = 44;
	assert_int_equal(write(sv[1], hdr, sizeof(hdr)), sizeof(hdr));
	assert_int_equal(write(sv[1], "\0\0\0", 3), 3);
	t0 = now_ms();
	assert_int_equal(calvin_channel_recv(&ch, &m, -1), -ETIMEDOUT);
	assert_took(t0, SHORT_MS);
	pair_close(&ch, sv);
}

/* The largest frame into a peer that never reads. */
static void test_send_peer_not_reading(void **state)
{
	struct calvin_agent_msg m = { .type = CALVIN_AGENT_COUNTERS };
	struct calvin_channel ch;
	int sv[2];
	char *text = calloc(1, CALVIN_AGENT_MAX_PAYLOAD / 2);
	long long t0;

	assert_non_null(text);
	memset(text, 'x', CALVIN_AGENT_MAX_PAYLOAD / 2);
	m.counters.telemetry = (struct calvin_agent_str){ text, CALVIN_AGENT_MAX_PAYLOAD / 2 };
	pair_open(&ch, sv, 4096);
	t0 = now_ms();
	assert_int_equal(calvin_channel_send(&ch, &m, SHORT_MS), -ETIMEDOUT);
	assert_took(t0, SHORT_MS);
	pair_close(&ch, sv);
	free(text);
}

static int listener(const char *path, int backlog)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	unlink(path);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(fd, backlog), 0);
	return fd;
}

/* A listener that never accepts (a qemu serving another client): first
 * with room in its backlog (the hello goes unanswered), then with none
 * (a blocking connect would wait for ever). */
static void test_ask_listener_never_accepts(void **state)
{
	struct calvin_agent_msg req = { .type = CALVIN_AGENT_STATUS }, reply;
	char path[64], err[256];
	struct calvin_channel ch;
	int l, filler[8], i, nr = 0;
	long long t0;

	snprintf(path, sizeof(path), "/tmp/calvin-chantest-%d.sock", (int)getpid());
	l = listener(path, 1);
	t0 = now_ms();
	assert_int_equal(calvin_agent_ask(&ch, path, &req, &reply, SHORT_MS, err, sizeof(err)),
			 -ETIMEDOUT);
	assert_took(t0, SHORT_MS);
	assert_non_null(strstr(err, "did not answer hello within"));
	/* fill the backlog with connections nobody accepts */
	for (i = 0; i < 8; i++) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };

		filler[nr] = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
		if (connect(filler[nr], (struct sockaddr *)&sa, sizeof(sa))) {
			close(filler[nr]);
			break;
		}
		nr++;
	}
	assert_true(i < 8);
	t0 = now_ms();
	assert_int_equal(calvin_agent_ask(&ch, path, &req, &reply, SHORT_MS, err, sizeof(err)),
			 -ETIMEDOUT);
	assert_took(t0, SHORT_MS);
	while (nr--)
		close(filler[nr]);
	close(l);
	unlink(path);
}

/* An agent of a few lines that answers hello and status, after answers
 * an earlier host left behind: a counters frame at once, and a hello
 * before the counters. */
static void fake_agent(int l)
{
	struct calvin_agent_msg m, reply = { .type = CALVIN_AGENT_COUNTERS };
	struct calvin_channel ch;
	int fd = accept(l, NULL, NULL);

	if (fd < 0 || calvin_channel_init(&ch, fd))
		_exit(1);
	reply.counters.state = CALVIN_AGENT_IDLE;
	if (calvin_channel_send(&ch, &reply, 5000))
		_exit(1);
	while (!calvin_channel_recv(&ch, &m, 5000)) {
		memset(&reply, 0, sizeof(reply));
		reply.type = CALVIN_AGENT_HELLO;
		reply.hello.version = CALVIN_AGENT_VERSION;
		if (m.type == CALVIN_AGENT_STATUS) {
			if (calvin_channel_send(&ch, &reply, 5000))
				_exit(1);
			memset(&reply, 0, sizeof(reply));
			reply.type = CALVIN_AGENT_COUNTERS;
			reply.counters.state = CALVIN_AGENT_RUNNING;
		}
		if (calvin_channel_send(&ch, &reply, 5000))
			_exit(1);
	}
	_exit(0);
}

/* The answers to this host's requests get through; an earlier host's are
 * skipped. */
static void test_ask_answered(void **state)
{
	struct calvin_agent_msg req = { .type = CALVIN_AGENT_STATUS }, reply;
	char path[64], err[256] = "";
	struct calvin_channel ch;
	int l, status;
	pid_t pid;

	snprintf(path, sizeof(path), "/tmp/calvin-chantest-%d.sock", (int)getpid());
	l = listener(path, 1);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		fake_agent(l);
	if (calvin_agent_ask(&ch, path, &req, &reply, 5000, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(reply.type, CALVIN_AGENT_COUNTERS);
	assert_int_equal(reply.counters.state, CALVIN_AGENT_RUNNING);
	calvin_agent_close(&ch);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(l);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recv_silent_peer),
		cmocka_unit_test(test_recv_half_frame),
		cmocka_unit_test(test_send_peer_not_reading),
		cmocka_unit_test(test_ask_listener_never_accepts),
		cmocka_unit_test(test_ask_answered),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
