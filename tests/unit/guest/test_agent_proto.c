// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the host-agent protocol codec: round trips of every type,
 * every truncation, unknown versions and types, oversize lengths, garbage. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "codec/codec.h"
#include "guest/guest.h"

static uint8_t buf[CALVIN_AGENT_MAX_FRAME + 64];
static struct calvin_agent_msg in, out;

static const char spec_text[] = "name: vm\nvnfs:\n  - {name: fwd-k, kind: forward}\n";

static void fill_configure(struct calvin_agent_msg *m)
{
	static const uint8_t w[6] = { 2, 0, 0, 0, 0, 1 }, e[6] = { 2, 0, 0, 0, 0, 2 };

	memset(m, 0, sizeof(*m));
	m->type = CALVIN_AGENT_CONFIGURE;
	m->configure.cpu = 1;
	memcpy(m->configure.west_peer, w, 6);
	memcpy(m->configure.east_peer, e, 6);
	m->configure.west_mtu = 1500;
	m->configure.east_mtu = 1600;
	m->configure.vnf = calvin_agent_str("fwd-k");
	m->configure.spec = calvin_agent_str(spec_text);
}

static void fill_counters(struct calvin_agent_msg *m)
{
	static const char *const names[] = {"fwd.rx_packets", "fwd.tx_packets", "rev.probes"};
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->type = CALVIN_AGENT_COUNTERS;
	m->counters.state = CALVIN_AGENT_RUNNING;
	m->counters.space = 0;
	m->counters.nr_counters = 3;
	for (i = 0; i < 3; i++) {
		m->counters.counters[i].name = calvin_agent_str(names[i]);
		m->counters.counters[i].value = 0x0102030405060708ull * (i + 1);
	}
	m->counters.telemetry = calvin_agent_str("{\"/calvin/stats\": {}}");
}

static void assert_str_equal(struct calvin_agent_str a, struct calvin_agent_str b)
{
	assert_int_equal(a.len, b.len);
	if (a.len)
		assert_memory_equal(a.ptr, b.ptr, a.len);
}

/* Encode m, decode it back, and check that re-encoding what was decoded
 * gives the same bytes: the layout has one encoding per message. */
static ssize_t round_trip(const struct calvin_agent_msg *m)
{
	static uint8_t again[sizeof(buf)];
	ssize_t n = calvin_agent_encode(m, buf, sizeof(buf));

	assert_true(n >= CALVIN_AGENT_HDR_LEN);
	assert_int_equal(calvin_agent_frame_len(buf, (size_t)n), n);
	assert_int_equal(calvin_agent_decode(buf, (size_t)n, &out), n);
	assert_int_equal(out.type, m->type);
	assert_int_equal(calvin_agent_encode(&out, again, sizeof(again)), n);
	assert_memory_equal(again, buf, (size_t)n);
	return n;
}

static void test_round_trip_empty_types(void **state)
{
	static const enum calvin_agent_type types[] = {
	    CALVIN_AGENT_START,	   CALVIN_AGENT_STATUS, CALVIN_AGENT_STOP,
	    CALVIN_AGENT_SHUTDOWN, CALVIN_AGENT_OK,
	};
	unsigned int i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		memset(&in, 0, sizeof(in));
		in.type = types[i];
		assert_int_equal(round_trip(&in), CALVIN_AGENT_HDR_LEN);
		assert_int_equal(buf[0], CALVIN_AGENT_VERSION);
		assert_int_equal(buf[1], types[i]);
	}
}

static void test_round_trip_hello(void **state)
{
	memset(&in, 0, sizeof(in));
	in.type = CALVIN_AGENT_HELLO;
	in.hello.version = CALVIN_AGENT_VERSION;
	in.hello.who = calvin_agent_str("calvin-agent on Linux 6.1.0, 2 CPUs");
	round_trip(&in);
	assert_int_equal(out.hello.version, CALVIN_AGENT_VERSION);
	assert_str_equal(out.hello.who, in.hello.who);
}

static void test_round_trip_configure(void **state)
{
	fill_configure(&in);
	round_trip(&in);
	assert_int_equal(out.configure.cpu, 1);
	assert_memory_equal(out.configure.west_peer, in.configure.west_peer, 6);
	assert_memory_equal(out.configure.east_peer, in.configure.east_peer, 6);
	assert_int_equal(out.configure.west_mtu, 1500);
	assert_int_equal(out.configure.east_mtu, 1600);
	assert_str_equal(out.configure.vnf, in.configure.vnf);
	assert_str_equal(out.configure.spec, in.configure.spec);

	in.configure.cpu = -1; /* any CPU */
	round_trip(&in);
	assert_int_equal(out.configure.cpu, -1);
	assert_int_equal(out.configure.role, CALVIN_AGENT_ROLE_VNF);
	in.configure.role = CALVIN_AGENT_ROLE_SERVER; /* a VM that runs the server */
	in.configure.vnf = calvin_agent_str("server");
	round_trip(&in);
	assert_int_equal(out.configure.role, CALVIN_AGENT_ROLE_SERVER);
	assert_str_equal(out.configure.vnf, in.configure.vnf);
}

/* configure carries no key material (since version 2): its payload is
 * exactly the fields the header names, and a version 1 frame (which had
 * the seed and the key file) or a version 2 one (no role) is not read. */
static void test_configure_has_no_keys(void **state)
{
	ssize_t n;

	fill_configure(&in);
	n = calvin_agent_encode(&in, buf, sizeof(buf));
	assert_int_equal(n, CALVIN_AGENT_HDR_LEN + 1 + 4 + 6 + 6 + 2 + 2 + 4 + 5 + 4 +
				(ssize_t)strlen(spec_text));
	buf[0] = 1;
	assert_int_equal(calvin_agent_decode(buf, (size_t)n, &out), -EPROTO);
	buf[0] = 2;
	assert_int_equal(calvin_agent_decode(buf, (size_t)n, &out), -EPROTO);
}

/* keys: the bytes of an SA set, as long as one can be; nothing else. */
static void test_round_trip_keys(void **state)
{
	static uint8_t set[CALVIN_SA_SET_MAX + 1];
	size_t len;

	for (len = 0; len < sizeof(set); len++)
		set[len] = (uint8_t)(len * 13 + 5);
	memset(&in, 0, sizeof(in));
	in.type = CALVIN_AGENT_KEYS;
	for (len = CALVIN_SA_SET_HDR_LEN; len <= CALVIN_SA_SET_MAX; len += CALVIN_SA_LEN) {
		in.keys = (struct calvin_agent_str){ (const char *)set, (uint32_t)len };
		assert_int_equal(round_trip(&in), CALVIN_AGENT_HDR_LEN + (ssize_t)len);
		assert_str_equal(out.keys, in.keys);
	}
	in.keys.len = CALVIN_SA_SET_MAX + 1;
	assert_int_equal(calvin_agent_encode(&in, buf, sizeof(buf)), -EINVAL);
	in.keys.len = CALVIN_SA_SET_HDR_LEN - 1;
	assert_int_equal(calvin_agent_encode(&in, buf, sizeof(buf)), -EINVAL);
	/* the same lengths, made by hand, do not decode either */
	in.keys.len = CALVIN_SA_SET_HDR_LEN;
	assert_int_equal(calvin_agent_encode(&in, buf, sizeof(buf)),
			 CALVIN_AGENT_HDR_LEN + CALVIN_SA_SET_HDR_LEN);
	buf[7] = CALVIN_SA_SET_HDR_LEN - 1;
	assert_int_equal(
	    calvin_agent_decode(buf, CALVIN_AGENT_HDR_LEN + CALVIN_SA_SET_HDR_LEN - 1, &out),
	    -EBADMSG);
	buf[7] = CALVIN_SA_SET_MAX + 1;
	memset(buf + CALVIN_AGENT_HDR_LEN, 0, CALVIN_SA_SET_MAX + 1);
	assert_int_equal(
	    calvin_agent_decode(buf, CALVIN_AGENT_HDR_LEN + CALVIN_SA_SET_MAX + 1, &out), -EBADMSG);
}

static void test_round_trip_counters(void **state)
{
	unsigned int i;

	fill_counters(&in);
	round_trip(&in);
	assert_int_equal(out.counters.state, CALVIN_AGENT_RUNNING);
	assert_int_equal(out.counters.nr_counters, 3);
	for (i = 0; i < 3; i++) {
		assert_str_equal(out.counters.counters[i].name, in.counters.counters[i].name);
		assert_int_equal(out.counters.counters[i].value, in.counters.counters[i].value);
	}
	assert_str_equal(out.counters.telemetry, in.counters.telemetry);
}

static void test_round_trip_error(void **state)
{
	memset(&in, 0, sizeof(in));
	in.type = CALVIN_AGENT_ERROR;
	in.error = calvin_agent_str("fwd-k: Failed to attach XDP program forward: Device busy");
	round_trip(&in);
	assert_str_equal(out.error, in.error);
}

/* Every prefix of a frame is "more, please", never an error or a message. */
static void assert_every_truncation(const struct calvin_agent_msg *m)
{
	ssize_t n = calvin_agent_encode(m, buf, sizeof(buf)), i;

	assert_true(n > 0);
	for (i = 0; i < n; i++)
		assert_int_equal(calvin_agent_decode(buf, (size_t)i, &out), -EAGAIN);
	for (i = 0; i < CALVIN_AGENT_HDR_LEN; i++)
		assert_int_equal(calvin_agent_frame_len(buf, (size_t)i), -EAGAIN);
}

static void test_truncations(void **state)
{
	fill_configure(&in);
	assert_every_truncation(&in);
	fill_counters(&in);
	assert_every_truncation(&in);
	memset(&in, 0, sizeof(in));
	in.type = CALVIN_AGENT_HELLO;
	in.hello.who = calvin_agent_str("x");
	assert_every_truncation(&in);
}

/* Encoding into every buffer shorter than the frame is -ENOSPC. */
static void test_encode_no_space(void **state)
{
	ssize_t n, i;

	fill_configure(&in);
	n = calvin_agent_encode(&in, buf, sizeof(buf));
	for (i = 0; i < n; i++)
		assert_int_equal(calvin_agent_encode(&in, buf, (size_t)i), -ENOSPC);
}

static void test_unknown_version(void **state)
{
	memset(&in, 0, sizeof(in));
	in.type = CALVIN_AGENT_OK;
	assert_int_equal(calvin_agent_encode(&in, buf, sizeof(buf)), CALVIN_AGENT_HDR_LEN);
	buf[0] = CALVIN_AGENT_VERSION + 1;
	assert_int_equal(calvin_agent_decode(buf, CALVIN_AGENT_HDR_LEN, &out), -EPROTO);
	/* known from the first byte alone, so a reader stops at once */
	assert_int_equal(calvin_agent_frame_len(buf, 1), -EPROTO);
	buf[0] = 0;
	assert_int_equal(calvin_agent_decode(buf, CALVIN_AGENT_HDR_LEN, &out), -EPROTO);
}

static void test_unknown_type_and_reserved(void **state)
{
	static const uint8_t bad_types[] = {0, CALVIN_AGENT_TYPE_END, 0x7f, 0xff};
	unsigned int i;

	memset(&in, 0, sizeof(in));
	in.type = CALVIN_AGENT_OK;
	calvin_agent_encode(&in, buf, sizeof(buf));
	for (i = 0; i < sizeof(bad_types); i++) {
		buf[1] = bad_types[i];
		assert_int_equal(calvin_agent_decode(buf, CALVIN_AGENT_HDR_LEN, &out), -EBADMSG);
	}
	buf[1] = CALVIN_AGENT_OK;
	buf[3] = 1;
	assert_int_equal(calvin_agent_decode(buf, CALVIN_AGENT_HDR_LEN, &out), -EBADMSG);
	in.type = 0;
	assert_int_equal(calvin_agent_encode(&in, buf, sizeof(buf)), -EINVAL);
	in.type = CALVIN_AGENT_TYPE_END;
	assert_int_equal(calvin_agent_encode(&in, buf, sizeof(buf)), -EINVAL);
}

static void test_oversize(void **state)
{
	uint8_t hdr[CALVIN_AGENT_HDR_LEN] = {CALVIN_AGENT_VERSION, CALVIN_AGENT_ERROR, 0, 0};
	uint32_t len = CALVIN_AGENT_MAX_PAYLOAD + 1;

	hdr[4] = (uint8_t)(len >> 24);
	hdr[5] = (uint8_t)(len >> 16);
	hdr[6] = (uint8_t)(len >> 8);
	hdr[7] = (uint8_t)len;
	/* refused from the header, before the payload is read */
	assert_int_equal(calvin_agent_frame_len(hdr, sizeof(hdr)), -EMSGSIZE);
	assert_int_equal(calvin_agent_decode(hdr, sizeof(hdr), &out), -EMSGSIZE);
	memset(hdr + 4, 0xff, 4);
	assert_int_equal(calvin_agent_decode(hdr, sizeof(hdr), &out), -EMSGSIZE);
	/* the largest frame is fine */
	len = CALVIN_AGENT_MAX_PAYLOAD;
	hdr[4] = (uint8_t)(len >> 24);
	hdr[5] = (uint8_t)(len >> 16);
	hdr[6] = (uint8_t)(len >> 8);
	hdr[7] = (uint8_t)len;
	assert_int_equal(calvin_agent_frame_len(hdr, sizeof(hdr)), CALVIN_AGENT_MAX_FRAME);
}

/* Set the payload length of the frame in buf. */
static void set_len(uint32_t len)
{
	buf[4] = (uint8_t)(len >> 24);
	buf[5] = (uint8_t)(len >> 16);
	buf[6] = (uint8_t)(len >> 8);
	buf[7] = (uint8_t)len;
}

static void test_garbage_payloads(void **state)
{
	ssize_t n;

	/* a payload on a type that has none */
	memset(&in, 0, sizeof(in));
	in.type = CALVIN_AGENT_START;
	calvin_agent_encode(&in, buf, sizeof(buf));
	buf[CALVIN_AGENT_HDR_LEN] = 0;
	set_len(1);
	assert_int_equal(calvin_agent_decode(buf, CALVIN_AGENT_HDR_LEN + 1, &out), -EBADMSG);

	/* trailing bytes after a whole configure */
	fill_configure(&in);
	n = calvin_agent_encode(&in, buf, sizeof(buf));
	buf[n] = 'x';
	set_len((uint32_t)(n + 1 - CALVIN_AGENT_HDR_LEN));
	assert_int_equal(calvin_agent_decode(buf, (size_t)n + 1, &out), -EBADMSG);

	/* a string that claims more than the payload holds */
	n = calvin_agent_encode(&in, buf, sizeof(buf));
	buf[CALVIN_AGENT_HDR_LEN + 21] = 0x7f; /* vnf name's length: 1 + 4 + 12 + 4 bytes in */
	assert_int_equal(calvin_agent_decode(buf, (size_t)n, &out), -EBADMSG);

	/* cpu below -1 */
	n = calvin_agent_encode(&in, buf, sizeof(buf));
	buf[CALVIN_AGENT_HDR_LEN + 4] = 0xfe;
	memset(buf + CALVIN_AGENT_HDR_LEN + 1, 0xff, 3);
	assert_int_equal(calvin_agent_decode(buf, (size_t)n, &out), -EBADMSG);

	/* a role this agent does not know */
	n = calvin_agent_encode(&in, buf, sizeof(buf));
	buf[CALVIN_AGENT_HDR_LEN] = CALVIN_AGENT_ROLE_END;
	assert_int_equal(calvin_agent_decode(buf, (size_t)n, &out), -EBADMSG);

	/* counters: a name with a capital, a state out of range */
	fill_counters(&in);
	n = calvin_agent_encode(&in, buf, sizeof(buf));
	buf[CALVIN_AGENT_HDR_LEN + 5] = 'F';
	assert_int_equal(calvin_agent_decode(buf, (size_t)n, &out), -EBADMSG);
	n = calvin_agent_encode(&in, buf, sizeof(buf));
	buf[CALVIN_AGENT_HDR_LEN] = CALVIN_AGENT_STATE_END;
	assert_int_equal(calvin_agent_decode(buf, (size_t)n, &out), -EBADMSG);
}

static void test_error_is_one_line(void **state)
{
	ssize_t n;

	memset(&in, 0, sizeof(in));
	in.type = CALVIN_AGENT_ERROR;
	in.error = calvin_agent_str("two\nlines");
	assert_int_equal(calvin_agent_encode(&in, buf, sizeof(buf)), -EINVAL);
	in.error = calvin_agent_str("");
	assert_int_equal(calvin_agent_encode(&in, buf, sizeof(buf)), -EINVAL);
	in.error = calvin_agent_str("one line");
	n = calvin_agent_encode(&in, buf, sizeof(buf));
	buf[n - 1] = '\r';
	assert_int_equal(calvin_agent_decode(buf, (size_t)n, &out), -EBADMSG);
}

static void test_encode_rejects(void **state)
{
	static char big[CALVIN_AGENT_LINE_MAX + 2];

	fill_counters(&in);
	in.counters.nr_counters = CALVIN_AGENT_MAX_COUNTERS + 1;
	assert_int_equal(calvin_agent_encode(&in, buf, sizeof(buf)), -EINVAL);
	fill_counters(&in);
	in.counters.counters[1].name = calvin_agent_str("");
	assert_int_equal(calvin_agent_encode(&in, buf, sizeof(buf)), -EINVAL);
	fill_configure(&in);
	memset(big, 'a', sizeof(big) - 1);
	in.configure.vnf = calvin_agent_str(big);
	assert_int_equal(calvin_agent_encode(&in, buf, sizeof(buf)), -EINVAL);
	fill_configure(&in);
	in.configure.cpu = -2;
	assert_int_equal(calvin_agent_encode(&in, buf, sizeof(buf)), -EINVAL);
	fill_configure(&in);
	in.configure.role = CALVIN_AGENT_ROLE_END;
	assert_int_equal(calvin_agent_encode(&in, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(calvin_agent_encode(NULL, buf, sizeof(buf)), -EINVAL);
}

/* A stream of frames decodes one at a time, each from where the last ended. */
static void test_back_to_back(void **state)
{
	ssize_t a, b;

	fill_configure(&in);
	a = calvin_agent_encode(&in, buf, sizeof(buf));
	memset(&in, 0, sizeof(in));
	in.type = CALVIN_AGENT_START;
	b = calvin_agent_encode(&in, buf + a, sizeof(buf) - (size_t)a);
	assert_int_equal(calvin_agent_decode(buf, (size_t)(a + b), &out), a);
	assert_int_equal(out.type, CALVIN_AGENT_CONFIGURE);
	assert_int_equal(calvin_agent_decode(buf + a, (size_t)b, &out), b);
	assert_int_equal(out.type, CALVIN_AGENT_START);
}

/* Random bytes behind a valid header: refused or decoded, and what decodes
 * encodes back to the same bytes. */
static void test_random_garbage(void **state)
{
	static uint8_t again[4096];
	unsigned int seed = 1, round, i, len;
	ssize_t n;

	for (round = 0; round < 20000; round++) {
		len = CALVIN_AGENT_HDR_LEN + (unsigned int)(rand_r(&seed) % 64);
		for (i = 0; i < len; i++)
			buf[i] = (uint8_t)rand_r(&seed);
		buf[0] = CALVIN_AGENT_VERSION;
		buf[1] = (uint8_t)(1 + rand_r(&seed) % (CALVIN_AGENT_TYPE_END - 1));
		buf[2] = buf[3] = 0;
		set_len(len - CALVIN_AGENT_HDR_LEN);
		n = calvin_agent_decode(buf, len, &out);
		if (n < 0) {
			assert_int_equal(n, -EBADMSG);
			continue;
		}
		assert_int_equal(n, len);
		assert_int_equal(calvin_agent_encode(&out, again, sizeof(again)), n);
		assert_memory_equal(again, buf, (size_t)n);
	}
}

static void test_names(void **state)
{
	assert_string_equal(calvin_agent_type_name(CALVIN_AGENT_CONFIGURE), "configure");
	assert_string_equal(calvin_agent_type_name(CALVIN_AGENT_COUNTERS), "counters");
	assert_string_equal(calvin_agent_type_name(0), "unknown");
	assert_string_equal(calvin_agent_type_name(CALVIN_AGENT_TYPE_END), "unknown");
	assert_string_equal(calvin_agent_state_name(CALVIN_AGENT_RUNNING), "running");
	assert_string_equal(calvin_agent_state_name(-1), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_empty_types),
		cmocka_unit_test(test_round_trip_hello),
		cmocka_unit_test(test_round_trip_configure),
		cmocka_unit_test(test_configure_has_no_keys),
		cmocka_unit_test(test_round_trip_keys),
		cmocka_unit_test(test_round_trip_counters),
		cmocka_unit_test(test_round_trip_error),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_encode_no_space),
		cmocka_unit_test(test_unknown_version),
		cmocka_unit_test(test_unknown_type_and_reserved),
		cmocka_unit_test(test_oversize),
		cmocka_unit_test(test_garbage_payloads),
		cmocka_unit_test(test_error_is_one_line),
		cmocka_unit_test(test_encode_rejects),
		cmocka_unit_test(test_back_to_back),
		cmocka_unit_test(test_random_garbage),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
