// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* BPF_PROG_TEST_RUN tests of the reflector (kernel/reflect.bpf.c), echo and all modes, by table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "frames_l3.h"
#include "reflect.skel.h"

#define IFINDEX_LO 1 /* the kernel needs a real device behind ingress_ifindex */
#define MAX_HOPS 4   /* of every probe built here */

enum mode { ECHO, ALL, NR_MODES };
static const char *const mode_name[NR_MODES] = {"echo", "all"};

/* One object per mode, and the stats it should have counted so far. */
static struct {
	struct reflect_bpf *skel;
	int prog, stats;
	struct calvin_vnf_stats rx, tx; /* expected FWD and REV */
} M[NR_MODES];

/* What a row's frame carries after its headers. */
enum body {
	PROBE, /* a telemetry block, and the frame is a probe: counted when bounced */
	BLOCK, /* a telemetry block, but the frame is no probe */
	PLAIN, /* a few bytes */
};

enum tweak {
	TW_NONE,
	TW_BAD_MAGIC,	/* telemetry block without its magic, L4 checksum refilled */
	TW_ICMP_TYPE,	/* ICMP/ICMPv6 type set to val, checksum refilled */
	TW_GROUP_MAC,	/* destination MAC multicast */
	TW_BAD_VERSION, /* IP version of the other family */
	TW_IHL4,	/* IPv4 ihl below 5 */
	TW_LONG_IHL,	/* IPv4 ihl 15 in a frame ending after 20 bytes of header */
};

/* Verdicts, echo mode then all mode. */
enum outcome {
	TX,	 /* a probe: bounced in both modes */
	BOUNCED, /* passed in echo mode, bounced in all mode */
	PASSED,	 /* passed in both */
	DROPPED, /* malformed: dropped in both */
};

static int verdict_of(enum outcome o, enum mode m)
{
	switch (o) {
	case TX:
		return XDP_TX;
	case BOUNCED:
		return m == ALL ? XDP_TX : XDP_PASS;
	case PASSED:
		return XDP_PASS;
	default:
		return XDP_DROP;
	}
}

struct row {
	const char *name;
	struct frame_spec s;
	enum outcome out;
	enum body body;
	enum tweak tweak;
	uint8_t val;
};

#define V4 .family = 4, .src = {10, 70, 0, 1}, .dst = {10, 70, 0, 2}
#define V6                                                                                         \
	.family = 6, .src = {0x20, 0x01, 0x0d, 0xb8, [15] = 1},                                    \
	.dst = {0x20, 0x01, 0x0d, 0xb8, [15] = 2}
#define PRB .sport = 40000, .dport = TEST_PROBE_PORT
#define APP .sport = 40000, .dport = TEST_APP_PORT
#define TAG2 .nr_vlans = 2, .vlan_proto = {ETH_P_8021AD}
#define TCP .proto = IPPROTO_TCP
#define ICMP .proto = IPPROTO_ICMP
#define ICMP6 .proto = IPPROTO_ICMPV6
#define ROW(name, out, body, ...)                                                                  \
	{                                                                                          \
		name, {__VA_ARGS__}, out, body, TW_NONE, 0                                         \
	}
#define TWEAKED(name, out, body, tweak, val, ...)                                                  \
	{                                                                                          \
		name, {__VA_ARGS__}, out, body, tweak, val                                         \
	}

static const struct row rows[] = {
    ROW("v4 probe", TX, PROBE, V4, PRB),
    ROW("v4 probe, 4 bytes of options", TX, PROBE, V4, PRB, .ihl = 6),
    ROW("v4 probe, 40 bytes of options", TX, PROBE, V4, PRB, .ihl = 15),
    ROW("v4 probe, no UDP checksum", TX, PROBE, V4, PRB, .no_csum = 1),
    ROW("v6 probe", TX, PROBE, V6, PRB),
    ROW("v4 probe, 802.1Q", TX, PROBE, V4, PRB, .nr_vlans = 1),
    ROW("v4 probe, 802.1ad+802.1Q, options", TX, PROBE, V4, PRB, TAG2, .ihl = 7),
    ROW("v6 probe, 802.1ad+802.1Q", TX, PROBE, V6, PRB, TAG2),
    ROW("v6 probe, 802.1Q+802.1Q", TX, PROBE, V6, PRB, .nr_vlans = 2),
    /* Fragments are never probes; all mode bounces them consistently. */
    ROW("v4 probe, first fragment", BOUNCED, BLOCK, V4, PRB, .frag_off = 0x2000),
    ROW("v4 probe, later fragment", BOUNCED, BLOCK, V4, PRB, .frag_off = 0x0003),
    ROW("v4 later fragment, tagged", BOUNCED, PLAIN, V4, PRB, TAG2, .frag_off = 0x2001),
    /* Not probes: the server's stack gets them in echo mode. */
    ROW("v4 UDP to an app port", BOUNCED, PLAIN, V4, APP),
    ROW("v4 telemetry to an app port", BOUNCED, BLOCK, V4, APP),
    ROW("v4 probe from the probe port", BOUNCED, BLOCK, V4, .sport = TEST_PROBE_PORT, .dport = 1),
    TWEAKED("v4 probe, bad magic", BOUNCED, BLOCK, TW_BAD_MAGIC, 0, V4, PRB),
    TWEAKED("v6 probe, bad magic", BOUNCED, BLOCK, TW_BAD_MAGIC, 0, V6, PRB),
    ROW("v6 UDP to an app port, 802.1Q", BOUNCED, PLAIN, V6, APP, .nr_vlans = 1),
    ROW("v6 UDP, no checksum", BOUNCED, PLAIN, V6, APP, .no_csum = 1),
    ROW("v4 TCP", BOUNCED, PLAIN, V4, APP, TCP),
    ROW("v6 TCP to the probe port", BOUNCED, BLOCK, V6, PRB, TCP),
    ROW("v4 TCP, options, tagged", BOUNCED, PLAIN, V4, APP, TAG2, .ihl = 8, TCP),
    ROW("ICMP echo request", BOUNCED, PLAIN, V4, ICMP),
    ROW("ICMP echo request, options, tagged", BOUNCED, PLAIN, V4, TAG2, .ihl = 6, ICMP),
    TWEAKED("ICMP echo reply", BOUNCED, PLAIN, TW_ICMP_TYPE, 0, V4, ICMP),
    TWEAKED("ICMP unreachable", BOUNCED, PLAIN, TW_ICMP_TYPE, 3, V4, ICMP),
    ROW("ICMPv6 echo request", BOUNCED, PLAIN, V6, ICMP6),
    ROW("ICMPv6 echo request, 802.1Q", BOUNCED, PLAIN, V6, .nr_vlans = 1, ICMP6),
    TWEAKED("ICMPv6 echo reply", BOUNCED, PLAIN, TW_ICMP_TYPE, 129, V6, ICMP6),
    TWEAKED("ICMPv6 unicast NS", BOUNCED, PLAIN, TW_ICMP_TYPE, 135, V6, ICMP6),
    ROW("v6 with ICMP's number", BOUNCED, PLAIN, V6, ICMP),
    ROW("v4 GRE", BOUNCED, PLAIN, V4, .proto = 47),
    ROW("v6 no next header", BOUNCED, PLAIN, V6, .proto = 59),
    ROW("v6 fragment header", BOUNCED, BLOCK, V6, .proto = 44),
    /* Never bounced. */
    TWEAKED("v4 probe to a group MAC", PASSED, PROBE, TW_GROUP_MAC, 0, V4, PRB),
    TWEAKED("v6 UDP to a group MAC", PASSED, PLAIN, TW_GROUP_MAC, 0, V6, APP),
    ROW("ARP", PASSED, PLAIN, .family = 0),
    ROW("v4 probe, three tags", PASSED, PROBE, V4, PRB, .nr_vlans = 3),
    TWEAKED("v4 ethertype, version 6", DROPPED, PROBE, TW_BAD_VERSION, 0, V4, PRB),
    TWEAKED("v6 ethertype, version 4", DROPPED, PROBE, TW_BAD_VERSION, 0, V6, PRB, .nr_vlans = 1),
    TWEAKED("IPv4 ihl 4", DROPPED, PROBE, TW_IHL4, 0, V4, PRB),
    TWEAKED("IPv4 options past the frame", DROPPED, PROBE, TW_LONG_IHL, 0, V4, PRB),
};

static bool l4_has_csum(const struct frame_spec *s)
{
	return frame_proto(s) == IPPROTO_ICMP || frame_proto(s) == IPPROTO_ICMPV6;
}

/* Recompute the L4 checksum of frame f (len bytes) in full. */
static void refill_l4_csum(uint8_t *f, const struct frame_spec *s, size_t len)
{
	unsigned int l4 = frame_l4_off(s), coff = frame_csum_off(s);
	uint16_t c;

	f[coff] = f[coff + 1] = 0;
	c = csum_fold(csum_add(frame_pseudo_sum(f, s, len - l4), f + l4, len - l4));
	if (!c && frame_proto(s) == IPPROTO_UDP)
		c = 0xffff;
	f[coff] = (uint8_t)(c >> 8);
	f[coff + 1] = (uint8_t)c;
}

static size_t build_row(uint8_t *f, const struct row *r)
{
	static const char plain[] = "hello, reflector";
	size_t len = r->body != PLAIN ? build_frame_probe(f, &r->s, MAX_HOPS, 1)
				      : build_frame(f, &r->s, plain, sizeof(plain));
	uint8_t *l3 = f + frame_l3_off(&r->s);

	switch (r->tweak) {
	case TW_NONE:
		break;
	case TW_BAD_MAGIC:
		f[frame_payload_off(&r->s)] ^= 0x80;
		refill_l4_csum(f, &r->s, len);
		break;
	case TW_ICMP_TYPE:
		f[frame_l4_off(&r->s)] = r->val;
		refill_l4_csum(f, &r->s, len);
		break;
	case TW_GROUP_MAC:
		memcpy(f, "\x33\x33\x00\x00\x00\x02", ETH_ALEN);
		break;
	case TW_BAD_VERSION:
		l3[0] = (uint8_t)((l3[0] & 0x0f) | (r->s.family == 6 ? 0x40 : 0x60));
		break;
	case TW_IHL4:
		l3[0] = 0x44;
		break;
	case TW_LONG_IHL:
		l3[0] = 0x4f;
		len = frame_l3_off(&r->s) + 20;
		break;
	}
	return len;
}

/* What bouncing the n-byte prefix of frame in (len bytes, built from s) must
 * give: MACs and addresses swapped; ports swapped and an echo request
 * turned into a reply (checksum recomputed in full over the whole frame)
 * only if the first 4 bytes of the L4 header are in the prefix. */
static void expect_bounced(uint8_t *want, const uint8_t *in, size_t len, size_t n,
			   const struct frame_spec *s)
{
	unsigned int l4 = frame_l4_off(s), alen = s->family == 6 ? 16 : 4;
	unsigned int a = frame_l3_off(s) + (s->family == 6 ? 8 : 12);
	bool has_l4 = s->family == 6 || !(s->frag_off & 0x1fff);
	uint8_t *h = want + l4, req = s->family == 6 ? 128 : ICMP_ECHO;
	uint8_t icmp = s->family == 6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP;

	memcpy(want, in, len);
	memcpy(want, in + ETH_ALEN, ETH_ALEN);
	memcpy(want + ETH_ALEN, in, ETH_ALEN);
	memcpy(want + a, in + a + alen, alen);
	memcpy(want + a + alen, in + a, alen);
	if (!has_l4 || n < l4 + 4)
		return;
	if (frame_proto(s) == IPPROTO_UDP || frame_proto(s) == IPPROTO_TCP) {
		memcpy(h, in + l4 + 2, 2);
		memcpy(h + 2, in + l4, 2);
	} else if (frame_proto(s) == icmp && h[0] == req) {
		h[0] = s->family == 6 ? 129 : ICMP_ECHOREPLY;
		refill_l4_csum(want, s, len);
	}
}

static void count(enum mode m, int verdict, size_t n, bool probe)
{
	M[m].rx.rx_packets++;
	M[m].rx.rx_bytes += n;
	if (verdict == XDP_TX) {
		M[m].tx.tx_packets++;
		M[m].tx.tx_bytes += n;
		M[m].rx.probes += probe;
	} else if (verdict == XDP_PASS) {
		M[m].rx.pass_other++;
	} else if (verdict == XDP_DROP) {
		M[m].rx.drop_malformed++;
	}
}

/* Run the n-byte prefix of frame in (len bytes, built from s) through mode
 * m's program and check the verdict, the bytes out and the checksums. */
static void check_frame(enum mode m, const char *name, const uint8_t *in, size_t len, size_t n,
			const struct frame_spec *s, int verdict, bool probe)
{
	uint8_t got[FRAME_MAX], want[FRAME_MAX];
	size_t out_len = n;
	unsigned int coff = frame_csum_off(s);
	int rc;

	memcpy(got, in, n);
	rc = run_xdp(M[m].prog, IFINDEX_LO, got, &out_len);
	if (rc == -EINVAL && n < ETH_HLEN)
		return; /* BPF_PROG_TEST_RUN refuses runts itself */
	if (rc != verdict)
		fail_msg("%s, %zu of %zu bytes, %s mode: verdict %d, want %d", name, n, len,
			 mode_name[m], rc, verdict);
	assert_int_equal(out_len, n);
	count(m, verdict, n, probe);
	if (verdict != XDP_TX) {
		memcpy(want, in, n);
	} else {
		expect_bounced(want, in, len, n, s);
		/* 0 and 0xffff are the same one's-complement number. */
		if (l4_has_csum(s) && n >= coff + 2 && (want[coff] | want[coff + 1]) == 0 &&
		    got[coff] == 0xff && got[coff + 1] == 0xff)
			want[coff] = want[coff + 1] = 0xff;
		if (n == len && !frame_csums_ok(got, s, n))
			fail_msg("%s, %s mode: checksum broken", name, mode_name[m]);
	}
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i])
			fail_msg("%s, %zu of %zu bytes, %s mode: byte %zu is %#x, want %#x", name,
				 n, len, mode_name[m], i, got[i], want[i]);
}

static void check_stats(enum mode m)
{
	struct calvin_vnf_stats rx = read_stats(M[m].stats, CALVIN_DIR_FWD);
	struct calvin_vnf_stats tx = read_stats(M[m].stats, CALVIN_DIR_REV);
	struct calvin_vnf_stats none = {0};

	assert_int_equal(rx.rx_packets, M[m].rx.rx_packets);
	assert_int_equal(rx.rx_bytes, M[m].rx.rx_bytes);
	assert_int_equal(rx.probes, M[m].rx.probes);
	assert_int_equal(rx.pass_other, M[m].rx.pass_other);
	assert_int_equal(rx.drop_malformed, M[m].rx.drop_malformed);
	assert_int_equal(tx.tx_packets, M[m].tx.tx_packets);
	assert_int_equal(tx.tx_bytes, M[m].tx.tx_bytes);
	/* Nothing else counted either way. */
	rx.rx_packets = rx.rx_bytes = rx.probes = rx.pass_other = rx.drop_malformed = 0;
	tx.tx_packets = tx.tx_bytes = 0;
	assert_memory_equal(&rx, &none, sizeof(none));
	assert_memory_equal(&tx, &none, sizeof(none));
}

static int setup(void **state)
{
	int m;

	for (m = 0; m < NR_MODES; m++) {
		reset_stats(M[m].stats);
		memset(&M[m].rx, 0, sizeof(M[m].rx));
		memset(&M[m].tx, 0, sizeof(M[m].tx));
	}
	return 0;
}

static void table(void **state)
{
	uint8_t f[FRAME_MAX];
	size_t i, len;
	int m;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		len = build_row(f, &rows[i]);
		for (m = 0; m < NR_MODES; m++)
			check_frame(m, rows[i].name, f, len, len, &rows[i].s,
				    verdict_of(rows[i].out, m), rows[i].body == PROBE);
	}
	check_stats(ECHO);
	check_stats(ALL);
	assert_true(M[ECHO].rx.probes >= 9);
	assert_int_equal(M[ALL].rx.probes, M[ECHO].rx.probes);
}

/* Every prefix of a frame: cut in the Ethernet header, a tag or the IP
 * header (options included) it is dropped; after that it is bounced as far
 * as it goes (all mode), and in echo mode only once the whole telemetry
 * block is in (IP and UDP lengths are not checked against the frame). */
static void truncated_everywhere(void **state)
{
	static const struct row cut[] = {
	    ROW("v4 probe cut", TX, PROBE, V4, PRB, TAG2, .ihl = 6),
	    ROW("v6 probe cut", TX, PROBE, V6, PRB, .nr_vlans = 1),
	    ROW("v4 TCP cut", BOUNCED, PLAIN, V4, APP, TCP),
	    ROW("ICMP echo cut", BOUNCED, PLAIN, V4, .nr_vlans = 1, ICMP),
	    ROW("ICMPv6 echo cut", BOUNCED, PLAIN, V6, TAG2, ICMP6),
	};
	uint8_t f[FRAME_MAX];
	size_t i, n, len, l4, block_end;
	int m, verdict;
	bool probe;

	for (i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		len = build_row(f, &cut[i]);
		l4 = frame_l4_off(&cut[i].s);
		block_end = frame_payload_off(&cut[i].s) + CALVIN_TLM_LEN(MAX_HOPS);
		for (n = 0; n <= len; n++) {
			probe = cut[i].body == PROBE && n >= block_end;
			for (m = 0; m < NR_MODES; m++) {
				verdict = XDP_DROP;
				if (n >= l4)
					verdict = m == ALL || probe ? XDP_TX : XDP_PASS;
				check_frame(m, cut[i].name, f, len, n, &cut[i].s, verdict, probe);
			}
		}
	}
	check_stats(ECHO);
	check_stats(ALL);
	assert_true(M[ALL].rx.drop_malformed >= 5 * 30);
}

/* The echo type change is the one incremental checksum update: try many
 * messages, so the sums fall every which way, the wrap included. */
static void icmp_checksums_many(void **state)
{
	struct frame_spec s4 = {V4, ICMP}, s6 = {V6, ICMP6};
	uint8_t f[FRAME_MAX], payload[8];
	size_t len;
	int i, j;

	for (i = 0; i < 600; i++) {
		for (j = 0; j < 8; j++)
			payload[j] = (uint8_t)(i * (j + 3) + (i >> 3));
		s4.src[3] = s6.src[15] = (uint8_t)i;
		s6.src[14] = (uint8_t)(i * 37);
		len = build_frame(f, &s4, payload, sizeof(payload));
		check_frame(ALL, "ICMP many", f, len, len, &s4, XDP_TX, false);
		len = build_frame(f, &s6, payload, sizeof(payload));
		check_frame(ALL, "ICMPv6 many", f, len, len, &s6, XDP_TX, false);
	}
	check_stats(ALL);
}

/* The checks above are only as good as the test's own checksum code: it
 * must catch a corrupted byte, and agree that a swap is neutral. */
static void checksum_helpers(void **state)
{
	static const struct frame_spec specs[] = {
	    {V4, PRB, .ihl = 6}, {V6, PRB}, {V4, ICMP}, {V6, ICMP6}, {V6, APP, TCP},
	};
	uint8_t f[FRAME_MAX], g[FRAME_MAX];
	unsigned int coff;
	size_t i, len;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		len = build_frame_probe(f, &specs[i], MAX_HOPS, 0);
		assert_true(frame_csums_ok(f, &specs[i], len));
		coff = frame_csum_off(&specs[i]);
		assert_int_not_equal(f[coff] | f[coff + 1], 0);
		expect_bounced(g, f, len, len, &specs[i]);
		assert_true(frame_csums_ok(g, &specs[i], len));
		f[len - 1] ^= 0x10;
		assert_false(frame_csums_ok(f, &specs[i], len));
		f[len - 1] ^= 0x10;
		f[frame_l4_off(&specs[i])] ^= 0x80; /* the ICMP type, or a port */
		assert_false(frame_csums_ok(f, &specs[i], len));
	}
}

/* Open and load reflect.bpf.o in mode m; exits 77 with the reason if BPF
 * cannot be loaded here. */
static void load_mode(enum mode m)
{
	SKEL_OPEN(M[m].skel, reflect);
	M[m].skel->rodata->probe_port = TEST_PROBE_PORT;
	M[m].skel->rodata->reflect_all = m == ALL;
	SKEL_LOAD(M[m].skel, reflect);
	M[m].prog = bpf_program__fd(M[m].skel->progs.reflect);
	M[m].stats = bpf_map__fd(M[m].skel->maps.calvin_stats);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(checksum_helpers),
	    cmocka_unit_test_setup(table, setup),
	    cmocka_unit_test_setup(truncated_everywhere, setup),
	    cmocka_unit_test_setup(icmp_checksums_many, setup),
	};
	int err, m;

	for (m = 0; m < NR_MODES; m++)
		load_mode(m);
	err = cmocka_run_group_tests(tests, NULL, NULL);
	for (m = 0; m < NR_MODES; m++)
		reflect_bpf__destroy(M[m].skel);
	return err;
}
