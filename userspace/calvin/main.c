// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin: deploy and measure low-latency service function chains. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "jout.h"
#include "util.h"
#include "util/util.h"

static int cmd_help(const struct cmd_args *a);

#define PROBE_OPTIONS_USAGE                                                                        \
	"  -c, --count N     probes to send\n"                                                     \
	"  -r, --rate RATE   probes per second, paced mode\n"                                      \
	"  -p, --ping-pong   send each probe when the one before came back (or timed out)\n"       \
	"  -s, --size BYTES  UDP payload bytes, telemetry block included\n"                        \
	"      --raw FILE    write one line per reply to FILE: seq, times, hop records\n"          \
	"  -o, --output DIR  also write the report as files: report.md with pictures,\n"           \
	"                    samples.csv, report.txt, report.json, plot.gp; DIR is made\n"         \
	"                    (0700) or must be yours, written by nobody else\n"                    \
	"      --check       exit 3 when the chain is not within budget (or lost probes)\n"        \
	"The chain file's probe section gives what is not given here.\n"

/* One entry per subcommand, with its usage text: `calvin --help` lists
 * synopsis and summary, `calvin help NAME` prints the usage text, and
 * README.md's Commands section and doc/calvin.8 say the same. */
static const struct calvin_cmd cmds[] = {
	{ .name = "validate",
	  .run = cmd_validate,
	  .min_args = 1,
	  .max_args = 1,
	  .synopsis = "CHAIN.yaml",
	  .summary = "check a spec and its key files, create nothing",
	  .usage = "Parse and check a chain file; every error names file:line:column and what to\n"
		   "do (exit 2). Then whether this host can run it, as 'calvin up' checks\n"
		   "before it creates anything: a valid chain it cannot run exits 4 with one\n"
		   "line saying why. Needs no root (it says what it could not check without)\n"
		   "and creates nothing.\n" },
	{ .name = "plan",
	  .run = cmd_plan,
	  .min_args = 1,
	  .max_args = 1,
	  .synopsis = "CHAIN.yaml",
	  .summary = "show the CPU placement",
	  .usage = "Show which CPU each node of the chain would get on this host, and the\n"
		   "housekeeping CPU of the probe and the controller. Deploys nothing.\n" },
	{ .name = "up",
	  .run = cmd_up,
	  .min_args = 1,
	  .max_args = 1,
	  .synopsis = "CHAIN.yaml [--admit] [--monitor] [--no-supervise] [-c N] [-r RATE] [-p] "
		      "[-s BYTES]",
	  .summary = "deploy (--admit: only if it meets its budget)",
	  .usage =
	      "Deploy a chain: its nodes, links, kernel and user VNFs, and server. Everything\n"
	      "is journalled before it is created; a failure or Ctrl-C removes it all.\n"
	      "On a deployed chain, applies changed acl, router, ratelimit and impair\n"
	      "parameters in place (a chain whose file means the same is up and\n"
	      "unchanged: exit 0); any other change needs 'calvin down' first.\n\n"
	      "      --admit       admission by budget: probe the new chain briefly (200\n"
	      "                    paced probes) and keep it only if its p99 RTT is within\n"
	      "                    its budget and no probe was lost; otherwise print the\n"
	      "                    report, naming the hop or link with the largest share of\n"
	      "                    the p99, take the chain down and exit 3\n"
	      "      --monitor     have the supervisor run 'calvin monitor' for the chain,\n"
	      "                    as a monitor section in its file would\n"
	      "      --no-supervise  start no supervisor (nor monitor): a VNF that dies stays\n"
	      "                    dead; on a deployed chain, stop its supervisor. A later\n"
	      "                    'up' without it attaches one\n"
	      "  -c, --count N     admission probes to send\n"
	      "  -r, --rate RATE   admission probes per second\n"
	      "  -p, --ping-pong   send each admission probe when the one before came back\n"
	      "  -s, --size BYTES  UDP payload bytes of the admission probes\n",
	  .opts = up_options,
	  .shortopts = UP_SHORTOPTS,
	  .opt = up_option },
	{ .name = "probe",
	  .run = cmd_probe,
	  .min_args = 1,
	  .max_args = 1,
	  .synopsis = "CHAIN [-c N] [-r RATE] [-p] [-s BYTES] [--raw FILE] [-o DIR] [--check]",
	  .summary = "measure RTT and per-hop latency",
	  .usage = "Send probes through a deployed chain from its probe node and print the\n"
		   "report: RTT and per-hop latency against the chain's budget. Ctrl-C stops\n"
		   "the probes and prints what they measured so far.\n\n" PROBE_OPTIONS_USAGE,
	  .opts = probe_options,
	  .shortopts = PROBE_SHORTOPTS,
	  .opt = probe_option },
	{ .name = "status",
	  .run = cmd_status,
	  .min_args = 0,
	  .max_args = 1,
	  .synopsis = "[CHAIN]",
	  .summary = "live per-VNF counters",
	  .usage = "Show every deployed chain (or one) and the live counters of each VNF: per\n"
		   "direction for kernel VNFs, with the hits of each acl rule; from its\n"
		   "telemetry socket for user VNFs. A VNF the placement gave less than it\n"
		   "asked for gets a line saying what it asked, what it got and why. A VNF\n"
		   "that does not answer within 2 s gets the line 'NAME: not answering (2 s)',\n"
		   "the others are shown all the same, and status exits 1. What a VNF answers\n"
		   "is shown escaped: its control characters as \\xNN.\n" },
	{ .name = "monitor",
	  .run = cmd_monitor,
	  .min_args = 1,
	  .max_args = 1,
	  .synopsis = "CHAIN [--listen ADDR:PORT] [--allow-remote] [--rate N] [--window S]",
	  .summary = "probe without end, serve Prometheus metrics",
	  .usage = "Probe a deployed chain continuously until SIGTERM (the supervisor runs it\n"
		   "when the chain file has a monitor section or 'up --monitor' was given).\n"
		   "Each window gives one line (-j: one JSON object per line); a window whose\n"
		   "p99 RTT exceeds the budget or that lost probes is a breach: an event in\n"
		   "the chain's log, with the report's largest-share line, and the chain's\n"
		   "hook. GET /metrics serves RTT, per-hop residence and per-link histograms,\n"
		   "the VNFs' counters, breaches and the supervisor's health to Prometheus.\n\n"
		   "      --listen ADDR:PORT  where /metrics is served (default 127.0.0.1:9357;\n"
		   "                    port 0: any free port, see CHAIN.d/monitor.json)\n"
		   "      --allow-remote  allow a listen address that is not loopback\n"
		   "      --rate N      probes per second (default 10)\n"
		   "      --window S    window length in seconds, or a duration (default 10)\n"
		   "The chain file's monitor section gives what is not given here.\n",
	  .opts = monitor_options,
	  .opt = monitor_option },
	{ .name = "supervise",
	  .run = cmd_supervise,
	  .min_args = 1,
	  .max_args = 1,
	  .synopsis = "CHAIN",
	  .summary = "watch and heal a deployed chain (up starts it)",
	  .usage = "Watch a deployed chain's user VNFs and heal them until SIGTERM: a VNF that\n"
		   "dies is restarted on its planned cores at once, then with backoff (100 ms\n"
		   "doubling to 5 s), and marked failed after 5 starts within 60 s; both ends\n"
		   "of an encrypt/decrypt pair restart under a new epoch of keys, both ends of\n"
		   "an nc pair with fresh generations; a stopped VNF is reported stalled, never\n"
		   "killed. 'calvin up' starts one per chain (journalled; 'calvin down' stops\n"
		   "it first); run by hand or by systemd it reads the chain's key files again.\n"
		   "It writes RUN_DIR/CHAIN.d/supervisor.json and the chain's events.\n" },
	{ .name = "exec",
	  .run = cmd_exec,
	  .min_args = 2,
	  .max_args = 2,
	  .tail = true,
	  .synopsis = "CHAIN NODE -- CMD [ARG...]",
	  .summary = "run a command inside a node",
	  .usage = "Run CMD in the network of a node of a deployed chain: probe, a VNF, or the\n"
		   "server (e.g. your own MEC server). Everything after '--' belongs to CMD.\n"
		   "CMD runs on the chain's housekeeping CPUs (where the probe runs), off the\n"
		   "cores of its VNFs; it may move itself (taskset) where isolation allows.\n" },
	{ .name = "down",
	  .run = cmd_down,
	  .min_args = 0,
	  .max_args = 1,
	  .synopsis = "CHAIN | --all [--images]",
	  .summary = "tear down (idempotent)",
	  .usage = "Remove everything a deployment of CHAIN created, as its journal names it,\n"
		   "also after a crash at any point of 'calvin up'. Harmless to repeat.\n\n"
		   "      --all         every deployed chain, and what a killed 'calvin bench'\n"
		   "                    started and deployed\n"
		   "      --images      also the guest images kept on remote hosts as a\n"
		   "                    cache (pool calvin), and the pool once empty\n",
	  .opts = down_options,
	  .opt = down_option },
	{ .name = "run",
	  .run = cmd_run,
	  .min_args = 1,
	  .max_args = 1,
	  .synopsis = "CHAIN.yaml [-c N] [-r RATE] [-p] [-s BYTES] [--raw FILE] [-o DIR] [--check]",
	  .summary = "up + probe + report + down",
	  .usage = "Deploy the chain, probe it, print the report and tear it down, whatever\n"
		   "happens after it came up. Ctrl-C stops the probes, prints what they\n"
		   "measured so far and tears the chain down.\n\n" PROBE_OPTIONS_USAGE,
	  .opts = probe_options,
	  .shortopts = PROBE_SHORTOPTS,
	  .opt = run_option },
	{ .name = "bench",
	  .run = cmd_bench,
	  .min_args = 2,
	  .max_args = 2,
	  .synopsis = "MODE CHAIN.yaml [-n ROUNDS] [-c N] [-t SECONDS] [-o DIR] [--tput-mtu N]",
	  .summary = "benchmarks: baseline, pinning, wakeup, throughput",
	  .usage =
	      "Deploy the chain in several configurations, in alternating rounds, measure\n"
	      "them side by side and write a report directory: report.md with tables and\n"
	      "pictures, samples.csv, the gnuplot script, each configuration's chain file.\n"
	      "MODE is one of:\n"
	      "  baseline    the chain as calvin deploys it against the same topology on the\n"
	      "              conventional stack (Linux forwarding, a UDP socket relay, a UDP\n"
	      "              echo server): RTT by calvin's probe and by sockperf\n"
	      "  pinning     placement shared, pinned and isolated, each idle and under\n"
	      "              stress-ng: RTT percentiles, jitter, variability against shared\n"
	      "  wakeup      cyclictest on the VNFs' cores under the same conditions\n"
	      "  throughput  the no-drop rate (loss <= 0.001%) at 64 and 1400 bytes, burst 1\n"
	      "              and 32, against the conventional stack; TCP goodput (iperf3),\n"
	      "              and in mode: throughput against the same and default offloads\n"
	      "Chains in VMs (backend libvirt) take pinning and wakeup only.\n"
	      "What a bench starts and deploys is gone when it ends, on Ctrl-C too; after a\n"
	      "SIGKILL, the next 'calvin bench' or 'calvin down --all' removes it.\n\n"
	      "  -n, --rounds N    rounds; each runs every configuration once\n"
	      "  -c, --count N     probes per configuration and round (baseline, pinning)\n"
	      "  -t, --time S      seconds per measurement (decimals allowed): sockperf\n"
	      "                    (baseline), cyclictest (wakeup), each trial and iperf3\n"
	      "                    (throughput); tools that count whole seconds get at least 1\n"
	      "  -o, --output DIR  the report directory (default bench/results/MODE-CHAIN-DATE),\n"
	      "                    made (0700) or yours, written by nobody else\n"
	      "  --tput-mtu N      throughput: the mode: throughput rows again with the chain's\n"
	      "                    mtu N (576..3406), in all three stacks\n",
	  .opts = bench_options,
	  .shortopts = BENCH_SHORTOPTS,
	  .opt = bench_option },
	{ .name = "keygen",
	  .run = cmd_keygen,
	  .min_args = 1,
	  .max_args = 1,
	  .synopsis = "FILE",
	  .summary = "a new key file (long-term key) for encrypt/decrypt VNFs",
	  .usage = "Write a new random key file (mode 0600) for encrypt and decrypt VNFs; an\n"
		   "existing file is never overwritten, and a folder that others may write is\n"
		   "refused (calvin up would refuse a key there).\n" },
	{ .name = "help",
	  .run = cmd_help,
	  .min_args = 0,
	  .max_args = 1,
	  .synopsis = "[COMMAND]",
	  .summary = "what calvin or one command does",
	  .usage = "Describe calvin's commands, or one of them (as 'calvin COMMAND --help').\n" },
};
#define NR_CMDS (sizeof(cmds) / sizeof(cmds[0]))

/* The summary starts in this column, or on a line of its own. */
#define SUMMARY_COL 32

static void usage(FILE *f)
{
	char line[160];
	size_t i;

	fprintf(f, "usage: calvin [-j] [-v] COMMAND [ARGS]\n\n");
	for (i = 0; i < NR_CMDS; i++) {
		snprintf(line, sizeof(line), "calvin %s %s", cmds[i].name, cmds[i].synopsis);
		if (strlen(line) < SUMMARY_COL)
			fprintf(f, "  %-*s%s\n", SUMMARY_COL, line, cmds[i].summary);
		else
			fprintf(f, "  %s\n  %*s%s\n", line, SUMMARY_COL, "", cmds[i].summary);
	}
	fprintf(f, "\n  -j, --json     JSON output\n"
		   "  -v, --verbose  show each operation and command, and what they say (stderr)\n"
		   "Options go before or after the command and its arguments. 'calvin help\n"
		   "COMMAND' or 'calvin COMMAND --help' describes one command.\n");
}

static const struct calvin_cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < NR_CMDS; i++)
		if (!strcmp(name, cmds[i].name))
			return &cmds[i];
	return NULL;
}

/* -j help: the commands as data, one object each. */
static struct json_object *cmd_jobj(const struct calvin_cmd *cmd, bool usage_text)
{
	struct json_object *o = jw_obj();

	jw_str(o, "name", cmd->name);
	jw_str(o, "synopsis", cmd->synopsis);
	jw_str(o, "summary", cmd->summary);
	if (usage_text)
		jw_str(o, "usage", cmd->usage);
	return o;
}

static void help(const struct calvin_cmd *cmd)
{
	struct json_object *a;
	size_t i;

	if (!calvin_json) {
		if (cmd)
			cmd_usage(cmd, stdout);
		else
			usage(stdout);
		return;
	}
	if (cmd) {
		jout_set(cmd_jobj(cmd, true));
		return;
	}
	a = jw_arr();
	for (i = 0; i < NR_CMDS; i++)
		jw_push(a, cmd_jobj(&cmds[i], false));
	jw_add(jout(), "commands", a);
}

static int cmd_help(const struct cmd_args *a)
{
	const struct calvin_cmd *cmd = NULL;

	if (a->nr) {
		cmd = find_cmd(a->arg[0]);
		if (!cmd) {
			calvin_err("no command '%s'; see 'calvin help'", a->arg[0]);
			return CALVIN_EXIT_USAGE;
		}
	}
	help(cmd);
	return 0;
}

/* Global flags before the command; returns how many there were, or -1. */
static int global_flags(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			calvin_json = true;
		} else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			calvin_verbose = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			return 0;
		} else {
			calvin_err("unknown option '%s'; see 'calvin help'", argv[i]);
			return -1;
		}
	}
	return i - 1;
}

static int dispatch(int argc, char **argv)
{
	const struct calvin_cmd *cmd;
	struct cmd_args a = { 0 };
	int n, rc;

	n = global_flags(argc, argv);
	if (n < 0)
		return CALVIN_EXIT_USAGE;
	argc -= n;
	argv += n;
	if (argc < 2) {
		usage(stderr);
		jout_error("no command given; see 'calvin help'");
		return CALVIN_EXIT_USAGE;
	}
	if (argv[1][0] == '-') {
		help(NULL);
		return 0;
	}
	cmd = find_cmd(argv[1]);
	if (!cmd) {
		calvin_err("unknown command '%s'; see 'calvin help'", argv[1]);
		return CALVIN_EXIT_USAGE;
	}
	rc = cmd_parse(cmd, argc - 1, argv + 1, &a);
	if (rc)
		return rc;
	if (a.help) {
		help(cmd);
		return 0;
	}
	return cmd->run(&a);
}

int main(int argc, char **argv)
{
	int rc;

	/* a reader that goes away (`calvin status | head -1`) costs the
	 * output, not the process: tear-downs and rollbacks still finish */
	catch_sigpipe();
	rc = dispatch(argc, argv);
	/* under -j, the command's one document, whatever happened */
	rc = jout_done(rc);
	return output_done(rc);
}
