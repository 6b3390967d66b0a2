// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin bench throughput CHAIN.yaml: the highest rate each configuration
 * carries with loss at most 0.001% (NFVbench's no-drop rate, searched by
 * calvin_ndr_* of bench/lib/stats.c), at 64- and 1400-byte frames: calvin with its
 * user VNFs in latency mode (burst 1) and throughput mode (burst 32), and
 * the same topology on the conventional stack (stack.c); then TCP goodput
 * (iperf3) through each, and through three TCP-only configurations: calvin
 * in `mode: throughput` (kernel VNFs at tc, senders keep GSO/TSO), and the
 * conventional stack with the same offloads, interface by interface, and
 * with Linux's default offloads. Frames come from gen.c in the probe node and are
 * counted at the server's interface (one way); each search starts with a
 * trial at the generator's own ceiling, so a figure the generator limits
 * is marked as such. Stacks alternate round by round; each is deployed
 * once per round for all its measurements. */
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

#define GEN_PORT 9 /* discard: the server holds a socket there it never reads */
#define IPERF_PORT 5201
#define IPERF_PORT_STR "5201"
#define NDR_RESOLUTION 0.02 /* of the generator's ceiling */
#define CEILING_SECONDS 0.5

static const unsigned int sizes[] = { 64, 1400 };
#define NR_SIZES (sizeof(sizes) / sizeof(sizes[0]))
#define MAX_STACKS 9

struct stack {
	const char *key, *label;
	unsigned int burst; /* 0: the conventional stack */
	int mode;	    /* enum calvin_chain_mode of its spec */
	bool default_offloads; /* the conventional stack with Linux's */
	bool tcp_only;	       /* no no-drop-rate search */
	unsigned int mtu;      /* the chain's mtu for it; 0: the file's */
	char label_buf[CALVIN_BENCH_LABEL_MAX];
	struct calvin_chain_spec spec;
};

struct tput {
	struct stack st[MAX_STACKS];
	unsigned int nr_stacks, nr_ndr;	   /* the first nr_ndr have NDR rows */
	int tput, tput_same, tput_default; /* mode: throughput's rows; -1: none */
	int big, big_same, big_default;	   /* the same at --tput-mtu; -1: none */
	struct calvin_stack_plan sp;
	char ports[32];
	struct calvin_bench_ndr rows[MAX_STACKS * NR_SIZES];
	struct calvin_bench_trial *trials;
	size_t nt, cap;
	struct calvin_bench_tcp tcp[MAX_STACKS];
	bool failed;
};

static int trial_add(struct tput *x, unsigned int row, unsigned int round, double rate,
		     const struct bench_gen_result *g)
{
	struct calvin_bench_trial *t;

	if (x->nt == x->cap) {
		t = realloc(x->trials, (x->cap ? 2 * x->cap : 64) * sizeof(*t));
		if (!t)
			return -ENOMEM;
		x->trials = t;
		x->cap = x->cap ? 2 * x->cap : 64;
	}
	x->trials[x->nt++] = (struct calvin_bench_trial){ .row = row,
							  .round = round,
							  .rate = rate,
							  .offered = g->offered_pps,
							  .sent = g->sent,
							  .received = g->received };
	return 0;
}

/* The no-drop-rate search of one row in one round. */
static int search(struct bench *b, struct tput *x, const struct calvin_chain_spec *spec,
		  const struct calvin_gen_flow *flow, unsigned int row, unsigned int round)
{
	struct calvin_bench_ndr *r = &x->rows[row];
	struct bench_gen_result g;
	struct calvin_ndr s;
	double rate, ceiling;
	int err;

	bench_progress(b, "round %u/%u: %s, %u B: the generator's ceiling", round, b->rounds,
		       r->label, r->frame_size);
	err = bench_gen_trial(spec, flow, r->frame_size, 0,
			      b->seconds < CEILING_SECONDS ? b->seconds : CEILING_SECONDS, &g);
	if (!err)
		err = trial_add(x, row, round, 0, &g);
	if (err)
		return err;
	ceiling = g.offered_pps;
	if (calvin_ndr_init(&s, ceiling / 256 > 100 ? ceiling / 256 : 100, ceiling,
			    ceiling * NDR_RESOLUTION, CALVIN_BENCH_NDR_LOSS))
		return -EIO;
	while (!err && calvin_ndr_next(&s, &rate) && !bench_stopped()) {
		bench_progress(b, "round %u/%u: %s, %u B: trial at %.0f frames/s", round, b->rounds,
			       r->label, r->frame_size, rate);
		err = bench_gen_trial(spec, flow, r->frame_size, rate, b->seconds, &g);
		if (!err)
			err = trial_add(x, row, round, rate, &g);
		if (!err)
			calvin_ndr_result(&s, rate, g.loss);
	}
	if (err || bench_stopped())
		return err;
	r->ndr[r->nr] = s.ndr;
	r->ceiling[r->nr] = ceiling;
	r->limited[r->nr] = s.ndr >= ceiling;
	r->nr++;
	return 0;
}

/* A socket at the server's discard port that is never read: frames that
 * reach it need no ICMP answer (which would load the way back). */
static int sink_open(const struct calvin_chain_spec *spec, const char *addr, int *fd)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(GEN_PORT) };
	int saved, err;

	inet_pton(AF_INET, addr, &sa.sin_addr);
	err = backend_of(spec)->node_enter(spec, spec->server.name, &saved);
	if (err)
		return err;
	*fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	err = *fd < 0 || bind(*fd, (struct sockaddr *)&sa, sizeof(sa)) ? -errno : 0;
	node_leave(saved);
	return err;
}

/* iperf3 from the probe node to the server: TCP goodput, bits/s. */
static int iperf(struct bench *b, const struct calvin_chain_spec *spec, const char *server,
		 double *bps)
{
	char secs[16], *text = NULL, why[256];
	char *srv[] = { "iperf3", "-s", "-1", "-B", (char *)server, "-p", IPERF_PORT_STR, NULL };
	char *cli[] = {
		"iperf3", "-c", (char *)server, "-p", IPERF_PORT_STR, "-t", secs, "-J", NULL
	};
	FILE *out = tmpfile();
	struct in_addr at;
	pid_t pid = 0;
	long len;
	int err;

	if (!out)
		return -errno;
	inet_pton(AF_INET, server, &at);
	snprintf(secs, sizeof(secs), "%u", 2 * b->tool_seconds);
	err = bench_node_spawn(spec, spec->server.name, srv, -1, &pid);
	if (!err)
		err = bench_port_wait(spec, spec->server.name, at, IPERF_PORT, SOCK_STREAM, 10000);
	if (!err)
		err = bench_node_run(spec, PROBE_NODE, cli, fileno(out),
				     (int)(2 * b->tool_seconds + 30) * 1000) >= 0
			  ? 0
			  : -EIO;
	len = ftell(out);
	if (!err && len > 0 && (text = malloc((size_t)len)) && !fseek(out, 0, SEEK_SET) &&
	    fread(text, 1, (size_t)len, out) == (size_t)len)
		err = calvin_iperf3_goodput(text, (size_t)len, bps, why, sizeof(why));
	else if (!err)
		err = -EIO;
	if (err && !bench_stopped())
		calvin_err("iperf3 through chain %s failed%s%s", spec->name, text ? ": " : "",
			   text ? why : "");
	free(text);
	fclose(out);
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
	return err;
}

/* What one stack is measured on in a round, once it is up. */
static int measure(struct bench *b, struct tput *x, unsigned int k, unsigned int round)
{
	struct stack *st = &x->st[k];
	const char *src = st->burst ? PROBE_ADDR : x->sp.node[0].east;
	const char *dst = st->burst ? SERVER_ADDR : x->sp.entry;
	const char *server = st->burst ? SERVER_ADDR : x->sp.server;
	struct calvin_gen_flow flow;
	unsigned int s;
	double bps = 0;
	int err = 0, sink = -1;

	if (!st->tcp_only)
		err = sink_open(&st->spec, server, &sink);
	if (!err && !st->tcp_only)
		err = bench_gen_flow(&st->spec, src, dst, GEN_PORT, &flow);
	for (s = 0; !err && !st->tcp_only && s < NR_SIZES && !bench_stopped(); s++)
		err = search(b, x, &st->spec, &flow, k * NR_SIZES + s, round);
	if (sink >= 0)
		close(sink);
	if (!err && !bench_stopped() && tool_path("iperf3")) {
		bench_progress(b, "round %u/%u: %s: iperf3", round, b->rounds, st->label);
		if (!iperf(b, &st->spec, server, &bps)) {
			x->tcp[k].bps[x->tcp[k].nr++] = bps;
		} else if (!bench_stopped()) {
			x->failed = true;
			if (!x->tcp[k].failed++)
				snprintf(x->tcp[k].why, sizeof(x->tcp[k].why),
					 "iperf3 failed in round %u (calvin's message said why)",
					 round);
		}
	}
	return err;
}

static int one(struct bench *b, unsigned int k, unsigned int round, void *arg)
{
	struct tput *x = arg;
	struct stack *st = &x->st[k];
	int rc, err, down;

	bench_progress(b, "round %u/%u: %s: deploying", round, b->rounds, st->label);
	rc = st->burst ? bench_up(b, &st->spec)
		       : bench_stack_up(b, &st->spec, x->ports, st->default_offloads, &x->sp);
	if (rc) {
		x->failed = !bench_stopped();
		return 0;
	}
	err = measure(b, x, k, round);
	if (err && !bench_stopped()) {
		calvin_err("%s: a throughput trial failed: %s", st->label, strerror(-err));
		x->failed = true;
	}
	down = bench_down(b, &st->spec);
	if (down)
		calvin_err("chain %s would not go down; stopping the bench", st->spec.name);
	return down;
}

static bool has_user_vnf(const struct calvin_chain_spec *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_vnfs; i++)
		if (s->vnfs[i].space == CALVIN_USER)
			return true;
	return false;
}

/* mode: throughput has a tc program for the forwarder only. */
static bool tc_capable(const struct calvin_chain_spec *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_vnfs; i++)
		if (s->vnfs[i].space == CALVIN_KERNEL && s->vnfs[i].kind != CALVIN_VNF_FORWARD)
			return false;
	return true;
}

static struct stack *stack_add(struct tput *x, const char *key, const char *label,
			       unsigned int burst, int mode, int ref)
{
	struct stack *st = &x->st[x->nr_stacks];

	st->key = key;
	st->label = label;
	st->burst = burst;
	st->mode = mode;
	st->tcp_only = x->nr_ndr < x->nr_stacks || mode == CALVIN_MODE_THROUGHPUT;
	if (!st->tcp_only)
		x->nr_ndr++;
	x->tcp[x->nr_stacks].ref = ref;
	x->nr_stacks++;
	return st;
}

/* mode: throughput's three at mtu (every link of both stacks): their
 * keys and labels say so. */
static void stacks_mtu(struct tput *x, unsigned int mtu, bool user)
{
	static const char *const keys[] = { "calvin-tput-mtu", "linux-tput-mtu",
					    "linux-default-mtu" };
	static const char *const labels[] = { "calvin, mode: throughput (tc, GSO; burst 32)",
					      "conventional stack, offloads of mode: throughput",
					      "conventional stack, default offloads" };
	unsigned int i;

	x->big = (int)x->nr_stacks;
	x->big_same = x->big + 1;
	x->big_default = x->big + 2;
	for (i = 0; i < 3; i++) {
		struct stack *st = &x->st[x->nr_stacks];

		snprintf(st->label_buf, sizeof(st->label_buf), "%s, mtu %u", labels[i], mtu);
		stack_add(x, keys[i], st->label_buf, i ? 0 : user ? 32 : 1, CALVIN_MODE_THROUGHPUT,
			  i ? -1 : x->big_same);
		st->mtu = mtu;
		st->default_offloads = i == 2;
	}
}

/* calvin-b1, calvin-b32 and linux with their NDR searches, then the
 * TCP-only ones: calvin-tput against linux-tput (the same offloads) and
 * linux-default; the same three again at mtu, if given. */
static void stacks_choose(const struct calvin_chain_spec *spec, unsigned int mtu,
			  struct tput *x)
{
	bool user = has_user_vnf(spec);
	int linux_k = user ? 2 : 1;

	stack_add(x, "calvin-b1",
		  user ? "calvin, burst 1 (latency mode)" : "calvin (no user VNFs: no burst)", 1,
		  CALVIN_MODE_LATENCY, linux_k);
	if (user)
		stack_add(x, "calvin-b32", "calvin, burst 32 (throughput mode)", 32,
			  CALVIN_MODE_LATENCY, linux_k);
	stack_add(x, "linux", "conventional stack", 0, CALVIN_MODE_LATENCY, -1);
	x->tput = x->tput_same = x->tput_default = -1;
	x->big = x->big_same = x->big_default = -1;
	if (!tc_capable(spec))
		return;
	x->tput = (int)x->nr_stacks;
	x->tput_same = x->tput + 1;
	x->tput_default = x->tput + 2;
	stack_add(x, "calvin-tput", "calvin, mode: throughput (tc, GSO; burst 32)", user ? 32 : 1,
		  CALVIN_MODE_THROUGHPUT, x->tput_same);
	stack_add(x, "linux-tput", "conventional stack, offloads of mode: throughput", 0,
		  CALVIN_MODE_THROUGHPUT, -1);
	stack_add(x, "linux-default", "conventional stack, default offloads", 0,
		  CALVIN_MODE_THROUGHPUT, -1)
	    ->default_offloads = true;
	if (mtu)
		stacks_mtu(x, mtu, user);
}

static int stacks(struct bench *b, struct tput *x)
{
	struct calvin_spec_override o = CALVIN_SPEC_OVERRIDE_NONE;
	unsigned int k, s;
	int rc;

	stacks_choose(&b->spec, b->tput_mtu, x);
	for (k = 0; k < x->nr_stacks; k++) {
		o.burst = x->st[k].burst ? x->st[k].burst : 1;
		o.mode = x->st[k].mode;
		o.mtu = x->st[k].mtu;
		rc = bench_variant(b, x->st[k].key, &o, &x->st[k].spec);
		if (rc)
			return rc;
		snprintf(x->tcp[k].label, sizeof(x->tcp[k].label), "%s", x->st[k].label);
		/* the no-drop rates are measured without it */
		if (!tool_path("iperf3"))
			tool_missing("iperf3", x->tcp[k].why, sizeof(x->tcp[k].why));
		for (s = 0; !x->st[k].tcp_only && s < NR_SIZES; s++) {
			struct calvin_bench_ndr *r = &x->rows[k * NR_SIZES + s];

			snprintf(r->config, sizeof(r->config), "%s-%u", x->st[k].key, sizes[s]);
			snprintf(r->label, sizeof(r->label), "%s", x->st[k].label);
			snprintf(r->stack, sizeof(r->stack), "%s",
				 x->st[k].burst ? "calvin" : "linux");
			r->burst = x->st[k].burst;
			r->frame_size = sizes[s];
		}
	}
	return 0;
}

/* What was not measured in every round: said in the tables, and calvin
 * bench exits 1. */
static void incomplete(struct bench *b, struct tput *x)
{
	unsigned int i;

	for (i = 0; i < x->nr_ndr * NR_SIZES; i++) {
		if (x->rows[i].nr == b->rounds)
			continue;
		b->incomplete = true;
		if (!x->rows[i].why[0])
			snprintf(
			    x->rows[i].why, sizeof(x->rows[i].why),
			    "its search failed in %u of %u rounds (calvin's messages said why)",
			    b->rounds - x->rows[i].nr, b->rounds);
	}
	for (i = 0; i < x->nr_stacks; i++)
		if (x->tcp[i].nr != b->rounds)
			b->incomplete = true;
}

void bench_throughput_plot(struct bench *b, FILE *f)
{
	struct tput *x = b->priv;

	calvin_bench_ndr_gnuplot(f, x->rows, x->nr_ndr * NR_SIZES, x->trials, x->nt);
}

static void write_md(struct bench *b, FILE *f, bool pictures)
{
	struct tput *x = b->priv;
	char settings[640];

	snprintf(settings, sizeof(settings),
		 "per stack and round, for each frame size: the generator's ceiling (%.1f s "
		 "unpaced), then a no-drop-rate search (loss at most 0.001%%, trials of %g s, "
		 "resolution %.0f%% of the ceiling), UDP frames from the probe node counted at the "
		 "server's interface; then iperf3 TCP for %u s",
		 CEILING_SECONDS, b->seconds, NDR_RESOLUTION * 100, 2 * b->tool_seconds);
	bench_md_header(b, f, settings);
	if (x->failed)
		fputs("**Some measurements failed**: calvin's messages said why; the figures are "
		      "of those that worked.\n\n",
		      f);
	fputs("Configurations: calvin with every user VNF at burst 1 (latency mode, CALVIN's "
	      "choice) and at burst 32 (throughput mode: the chain file's `burst:`), and the "
	      "same topology on the conventional stack (Linux IP forwarding in kernel-VNF "
	      "nodes, calvin-relay, a UDP socket relay, in user-VNF nodes; TCP is forwarded by "
	      "the kernel in every middle node). Frame sizes are Ethernet frames with the FCS "
	      "(RFC 2544); Mbit/s counts the frames' bits.\n\n"
	      "The generator: an AF_PACKET socket in the probe node (qdisc bypassed, sendmmsg "
	      "batches of about 50 us, paced on the monotonic clock). On veth the first hop's "
	      "receive runs in the sender's softirq, so the generator's ceiling is that of "
	      "generator and first hop together, given per configuration.\n\n"
	      "## No-drop rate\n\n",
	      f);
	calvin_bench_ndr_table(f, x->rows, x->nr_ndr * NR_SIZES);
	fputs("\nDoes throughput mode carry at least what the conventional per-packet chain "
	      "carries?\n\n",
	      f);
	calvin_bench_ndr_verdict(f, x->rows, x->nr_ndr * NR_SIZES);
	fputs("\n## TCP goodput (iperf3, one stream)\n\n", f);
	calvin_bench_tcp_table(f, x->tcp, x->nr_stacks);
	if (x->tput >= 0) {
		fputs("\nDoes `mode: throughput` carry one TCP stream at least as fast as the "
		      "conventional stack with the same offloads (tx checksumming, so TSO/GSO, off "
		      "on the same interfaces: where the next hop runs XDP)?\n\n",
		      f);
		calvin_bench_tcp_verdict(f, x->tcp, (size_t)x->tput, (size_t)x->tput_same,
					 (size_t)x->tput_default);
	}
	if (x->big >= 0) {
		fprintf(f,
			"\nThe same at mtu %u (`--tput-mtu`: every link of all three stacks, the "
			"conventional ones' too; links between VNFs %u):\n\n",
			x->st[x->big].mtu, x->st[x->big].mtu + CALVIN_INNER_MTU_EXTRA);
		calvin_bench_tcp_verdict(f, x->tcp, (size_t)x->big, (size_t)x->big_same,
					 (size_t)x->big_default);
	}
	fputc('\n', f);
	if (pictures) {
		calvin_bench_md_picture(f, "throughput-ndr", "no-drop rate per configuration");
		calvin_bench_md_picture(f, "throughput-loss", "loss against offered rate");
	}
	fputs(calvin_bench_context("throughput"), f);
}

static int write_csvs(struct bench *b, struct tput *x)
{
	FILE *f;

	f = outdir_file(&b->dir, "trials.csv");
	if (!f)
		return CALVIN_EXIT_FAIL;
	calvin_bench_trials_csv(f, x->rows, x->trials, x->nt);
	fclose(f);
	f = outdir_file(&b->dir, "tcp.csv");
	if (!f)
		return CALVIN_EXIT_FAIL;
	calvin_bench_tcp_csv(f, x->tcp, x->nr_stacks);
	return fclose(f) ? CALVIN_EXIT_FAIL : 0;
}

int bench_throughput(struct bench *b)
{
	struct tput *x = calloc(1, sizeof(*x));
	int rc, files;

	if (!x)
		return CALVIN_EXIT_FAIL;
	b->priv = x;
	rc = bench_netns_only(b, "throughput");
	if (!rc && b->rounds > CALVIN_BENCH_MAX_ROUNDS) {
		calvin_err("calvin bench throughput runs at most %d rounds; give -n %d or fewer",
			   CALVIN_BENCH_MAX_ROUNDS, CALVIN_BENCH_MAX_ROUNDS);
		rc = CALVIN_EXIT_USAGE;
	}
	snprintf(x->ports, sizeof(x->ports), "%u,%u", b->spec.probe.port, GEN_PORT);
	if (!rc)
		rc = stacks(b, x);
	if (!rc)
		rc = bench_rounds(b, x->nr_stacks, one, x);
	if (!bench_stopped())
		incomplete(b, x);
	if (!rc || bench_stopped()) {
		files = write_csvs(b, x);
		if (!files)
			files = bench_files(b, "throughput", write_md, bench_stopped());
		rc = rc ? rc : files;
	}
	free(x->trials);
	free(x);
	b->priv = NULL;
	return rc;
}
