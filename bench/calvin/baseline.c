// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin bench baseline CHAIN.yaml: the chain as calvin deploys it against
 * the same topology on the conventional stack (stack.c: Linux IP
 * forwarding in kernel-VNF nodes, calvin-relay's UDP socket relay in
 * user-VNF nodes, its echo at the server), rounds in alternation. Both
 * carry calvin's probes and sockperf (ping-pong, its server beside the
 * echo): RTT percentiles with bootstrap intervals, and calvin's over the
 * conventional stack's. The conventional path stamps no hop records, so
 * only RTTs are compared. */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend.h"
#include "bench.h"
#include "bench/lib/bench_lib.h"
#include "util.h"

#define SOCKPERF_PORT 11111
#define SOCKPERF_PORT_STR "11111"

enum { CALVIN, LINUX, NR_STACKS };
/* series: probe RTT of each stack, then sockperf's */
enum { S_RTT = 0, S_SOCKPERF = NR_STACKS };

struct baseline {
	struct calvin_chain_spec spec; /* as calvin deploys it */
	struct calvin_stack_plan sp;
	char ports[32];
	bool failed[NR_STACKS];
};

/* sockperf ping-pong from the probe node to dst: its full log, read. */
static int sockperf(struct bench *b, const struct calvin_chain_spec *spec, const char *dst,
		    struct calvin_bench_series *s, unsigned int round)
{
	char log[] = "/tmp/calvin-bench-sockperf.XXXXXX", secs[16], size[16], *text;
	char *argv[] = { "sockperf",   "ping-pong",  "-i", (char *)dst, "-p",	 SOCKPERF_PORT_STR,
			 "-t",	       secs,	     "-m", size,	"--mps", "1000",
			 "--full-rtt", "--full-log", log,  NULL };
	int fd = mkstemp(log), rc;
	long len;
	FILE *f;

	if (fd < 0)
		return -errno;
	close(fd);
	snprintf(secs, sizeof(secs), "%u", b->tool_seconds);
	snprintf(size, sizeof(size), "%u", spec->probe.size);
	rc = bench_node_run(spec, PROBE_NODE, argv, -1, (int)(b->tool_seconds + 20) * 1000);
	f = fopen(log, "re");
	unlink(log);
	if (!f)
		return -EIO;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = len > 0 ? malloc((size_t)len) : NULL;
	if (rc == 0 && text && fread(text, 1, (size_t)len, f) == (size_t)len)
		rc = calvin_sockperf_log(text, (size_t)len, s, round) > 0 ? 0 : -EIO;
	else if (!rc)
		rc = -EIO;
	if (rc)
		calvin_err("sockperf through chain %s failed (%d); -v shows its messages",
			   spec->name, rc);
	free(text);
	fclose(f);
	return rc;
}

/* One stack in one round: up, sockperf's server, probes, sockperf, down. */
static int one(struct bench *b, unsigned int stack, unsigned int round, void *arg)
{
	struct baseline *x = arg;
	int k = (int)stack;
	const struct calvin_chain_spec *spec = &x->spec;
	const char *server = k == CALVIN ? SERVER_ADDR : x->sp.server;
	const char *entry = k == CALVIN ? SERVER_ADDR : x->sp.entry;
	char *srv[] = { "sockperf", "server", "-i", (char *)server, "-p", SOCKPERF_PORT_STR, NULL };
	struct in_addr dst, at;
	int rc, err = 0, down;
	pid_t pid = 0;

	bench_progress(b, "round %u/%u: %s: deploying", round, b->rounds,
		       k == CALVIN ? "calvin" : "conventional stack");
	rc = k == CALVIN ? bench_up(b, spec) : bench_stack_up(b, spec, x->ports, &x->sp);
	if (rc) {
		x->failed[k] = !bench_stopped();
		b->incomplete |= x->failed[k];
		return 0;
	}
	inet_pton(AF_INET, entry, &dst);
	inet_pton(AF_INET, server, &at);
	if (!b->series[S_SOCKPERF + k].why[0])
		err = bench_node_spawn(spec, spec->server.name, srv, -1, &pid);
	if (!err && pid)
		err =
		    bench_port_wait(spec, spec->server.name, at, SOCKPERF_PORT, SOCK_DGRAM, 10000);
	if (!err && !bench_stopped()) {
		bench_progress(b, "round %u/%u: %s: probes", round, b->rounds,
			       k == CALVIN ? "calvin" : "conventional stack");
		err = bench_probe(b, spec, dst, &b->series[S_RTT + k], round);
	}
	if (!err && pid && !bench_stopped()) {
		bench_progress(b, "round %u/%u: %s: sockperf", round, b->rounds,
			       k == CALVIN ? "calvin" : "conventional stack");
		err = sockperf(b, spec, entry, &b->series[S_SOCKPERF + k], round);
	}
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
	down = bench_down(b, spec);
	if (err && !bench_stopped())
		x->failed[k] = b->incomplete = true;
	if (down)
		calvin_err("chain %s would not go down; stopping the bench", spec->name);
	return down;
}

static void stack_md(FILE *f, const struct bench *b, const struct baseline *x)
{
	struct calvin_node nodes[CALVIN_MAX_NODES];
	unsigned int n = calvin_chain_nodes(&x->spec, nodes), i;
	static const char *const what[] = {
		[CALVIN_STACK_PROBE] = "probe",
		[CALVIN_STACK_ROUTER] = "Linux IP forwarding (routes, static neighbours, no XDP)",
		[CALVIN_STACK_RELAY] =
		    "calvin-relay: a UDP socket relay (epoll, recvmmsg/sendmmsg) "
		    "on its west address, on to the next relay or the server",
		[CALVIN_STACK_SERVER] = "calvin-relay's UDP echo (socket) and sockperf's server",
	};

	fprintf(f, "Two configurations, alternating: **calvin** (the chain as `calvin up` "
		   "deploys it) and the **conventional stack**, the same namespaces and veths "
		   "with, node by node:\n\n");
	for (i = 0; i < n; i++)
		fprintf(f, "- %s (%s): %s\n", nodes[i].name,
			x->sp.node[i].west[0] ? x->sp.node[i].west : x->sp.node[i].east,
			what[x->sp.node[i].role]);
	fprintf(f,
		"\nA relay ends UDP, as a socket-based VNF must: the probe sends to the first "
		"relay (%s), each relay on to the next, replies back the same way; other "
		"traffic (TCP) is forwarded by the kernel in every middle node. Relays are "
		"pinned to the cores the plan gives the VNFs they stand for; the conventional "
		"stack takes no CPU isolation. Both endpoints compute checksums in software "
		"(`ethtool -K tx off`), as in calvin's chains. The conventional relays carry "
		"the packets, not the VNFs' function (no coding, no encryption, no ACL): what "
		"is compared is the path a packet takes, XDP and DPDK against the kernel's "
		"stack and sockets. The conventional path stamps no hop records: RTT only.\n\n",
		x->sp.entry);
	(void)b;
}

static void write_md(struct bench *b, FILE *f, bool pictures)
{
	struct baseline *x = b->priv;
	char settings[512];

	snprintf(settings, sizeof(settings),
		 "per stack and round: %u calvin probes paced at %u/s (%u-byte UDP payload), then "
		 "sockperf ping-pong for %u s at 1000 messages/s, %u-byte messages",
		 b->count, x->spec.probe.rate, x->spec.probe.size, b->tool_seconds,
		 x->spec.probe.size);
	bench_md_header(b, f, settings);
	stack_md(f, b, x);
	if (x->failed[CALVIN] || x->failed[LINUX])
		fprintf(f,
			"**Some rounds failed** (%s%s%s): calvin's messages said why; the "
			"figures are of the rounds that worked.\n\n",
			x->failed[CALVIN] ? "calvin" : "",
			x->failed[CALVIN] && x->failed[LINUX] ? ", " : "",
			x->failed[LINUX] ? "the conventional stack" : "");
	fputs("## RTT\n\n"
	      "Every sample of every round, pooled: calvin's probe (kernel timestamps) and "
	      "sockperf's (its own clock, `--full-rtt`). The ratio columns are calvin's over the "
	      "conventional stack's, per tool (below 1: calvin answers sooner). Intervals: "
	      "percentile bootstrap, 1000 resamples of circular blocks of 32 consecutive samples "
	      "(an eighth of a series at most).\n\n",
	      f);
	bench_md_results(b, f, pictures, CALVIN_BENCH_RATIO, "RTT");
}

static int series(struct bench *b)
{
	static const char *const key[] = { "calvin", "linux" };
	static const char *const label[] = { "calvin", "conventional stack" };
	char k[64], l[96];
	int i;

	for (i = 0; i < NR_STACKS; i++)
		if (!bench_series_new(b, key[i], label[i], "rtt"))
			return CALVIN_EXIT_FAIL;
	for (i = 0; i < NR_STACKS; i++) {
		snprintf(k, sizeof(k), "%s", key[i]);
		snprintf(l, sizeof(l), "%s, sockperf", label[i]);
		if (!bench_series_new(b, k, l, "sockperf-rtt"))
			return CALVIN_EXIT_FAIL;
	}
	b->series[S_RTT + CALVIN].ref = S_RTT + LINUX;
	b->series[S_SOCKPERF + CALVIN].ref = S_SOCKPERF + LINUX;
	/* calvin's own probe measures without it */
	if (!tool_path("sockperf"))
		for (i = 0; i < NR_STACKS; i++)
			tool_missing("sockperf", b->series[S_SOCKPERF + i].why,
				     sizeof(b->series[0].why));
	return 0;
}

int bench_baseline(struct bench *b)
{
	struct calvin_spec_override none = CALVIN_SPEC_OVERRIDE_NONE;
	struct baseline *x = calloc(1, sizeof(*x));
	int rc, files;

	if (!x)
		return CALVIN_EXIT_FAIL;
	b->priv = x;
	rc = bench_netns_only(b, "baseline");
	if (rc)
		goto out;
	snprintf(x->ports, sizeof(x->ports), "%u,%u", b->spec.probe.port, SOCKPERF_PORT);
	rc = bench_variant(b, "calvin", &none, &x->spec);
	if (!rc)
		rc = series(b);
	if (!rc)
		rc = bench_rounds(b, NR_STACKS, one, x);
	if (!rc || bench_stopped()) {
		files = bench_files(b, "RTT", write_md, bench_stopped());
		rc = rc ? rc : files;
	}
out:
	free(x);
	b->priv = NULL;
	return rc;
}
