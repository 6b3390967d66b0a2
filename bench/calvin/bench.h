/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* `calvin bench MODE CHAIN.yaml`: the controller's side of the benchmarks.
 * One file per mode (baseline.c, pinning.c, wakeup.c, throughput.c) on
 * what they share:
 *
 *   journal.c   the bench journal: processes it starts and chains it
 *               deploys, written before they exist, so the next calvin
 *               cleans up after a killed bench
 *   load.c      interference (stress-ng) and cyclictest, as journalled
 *               process groups
 *   session.c   a run: variants of the chain, a round's deploy and
 *               tear-down, probes, progress
 *   files.c     the report directory: the machine, CSV, pictures
 *   stack.c     the same topology on the conventional stack (Linux
 *               forwarding, calvin-relay)
 *   gen.c       the fixed-rate UDP generator of the throughput mode
 *
 * Statistics and report text are pure code in bench/lib/
 * (bench/lib/bench_lib.h). */
#ifndef CALVIN_BENCH_H
#define CALVIN_BENCH_H

#include <limits.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "bench/lib/bench_lib.h"
#include "commands.h"
#include "outdir.h"
#include "plan/plan.h"
#include "spec/spec.h"

/* ---- journal.c ---- */

/* RUN_DIR/bench.journal: a chain's files are NAME.state and the like, and
 * names hold no '.', so it never meets a chain's. */
#define BENCH_JOURNAL "bench.journal"

struct bench_journal {
	int fd; /* open and locked while the bench runs; -1: none */
	char path[PATH_MAX];
};

/* Clean up after a bench that was killed: stop the process groups its
 * journal names and take down its chains, then remove the journal. A
 * bench that still runs is left alone (busy: -EBUSY). Quiet when there is
 * nothing to do; one line when there was. 0 or -errno. */
int bench_journal_recover(void);
/* Start this bench's journal (after recovering a killed one's). Returns
 * 0 or an exit code, with its one line printed. */
int bench_journal_open(struct bench_journal *j);
/* Entries, synced before what they name exists: a process group (its
 * leader's PID and start time, and its command name), a chain about to
 * be deployed; and their ends. 0 or -errno. */
int bench_journal_proc(struct bench_journal *j, pid_t pgid, unsigned long long start,
		       const char *comm);
int bench_journal_proc_end(struct bench_journal *j, pid_t pgid);
int bench_journal_chain(struct bench_journal *j, const char *chain);
int bench_journal_chain_end(struct bench_journal *j, const char *chain);
/* The run is over: with clean (everything it named is gone), remove the
 * journal; else leave it for the next calvin. */
void bench_journal_close(struct bench_journal *j, bool clean);
/* Stop a process group the journal names: SIGTERM, then SIGKILL; only
 * processes of that group started no earlier than start and named comm*.
 * Returns how many processes it found. */
int bench_group_stop(pid_t pgid, unsigned long long start, const char *comm);

/* ---- load.c ---- */

/* A journalled process group: started in a session of its own, killed
 * with calvin (PR_SET_PDEATHSIG) and by whoever finds the journal. */
struct bench_proc {
	pid_t pid; /* 0: none */
	unsigned long long start;
	char comm[16];
};

/* Run argv as a journalled process group on cpus (NULL: anywhere), its
 * output to out_fd (-1: /dev/null); before it may run, before_go(pid,
 * arg) (may be NULL: e.g. put it in a cpuset). 0 or -errno (one line). */
int bench_spawn(struct bench_journal *j, char *const argv[], const struct calvin_cpumask *cpus,
		int out_fd, int (*before_go)(pid_t pid, void *arg), void *arg,
		struct bench_proc *p);
/* Stop it (SIGTERM to the group, then SIGKILL), reap it and journal the
 * end; *status gets its exit status when not NULL (-1: killed). */
void bench_reap(struct bench_journal *j, struct bench_proc *p, int *status);
/* Wait for it to exit by itself until timeout_ms; 0, or -ETIMEDOUT, or
 * -EINTR on Ctrl-C. */
int bench_wait(struct bench_proc *p, int timeout_ms, int *status);

/* Interference: stress-ng's cpu, vm (memory) and cache stressors, one of
 * each per CPU of cpus, for at most seconds (a safety net; it is stopped
 * when the round ends). */
int bench_stress_start(struct bench_journal *j, const struct calvin_cpumask *cpus,
		       unsigned int seconds, struct bench_proc *p);

/* ---- session.c ---- */

struct bench;

/* A mode: its name, its defaults, and what it runs. */
struct bench_mode {
	const char *name;
	unsigned int rounds, count; /* defaults of -n, -c */
	double seconds;		    /* and -t */
	/* takes chains in VMs: the conventional stack is namespaces only, so
	 * baseline and throughput would compare VMs with namespaces */
	bool vms;
	int (*run)(struct bench *b);
	/* pictures of its own, added to its gnuplot script (may be NULL) */
	void (*plot)(struct bench *b, FILE *f);
	/* its own files, as Markdown list items (may be NULL) */
	const char *files;
};

struct bench {
	const struct bench_mode *mode;
	struct calvin_chain_spec spec; /* the chain file as given */
	char *text;		       /* its text */
	size_t len;
	char outdir[PATH_MAX];
	struct outdir dir;    /* the report folder (-o), taken before anything ran */
	struct outdir chains; /* its chains/: copies of the chain files, for people */
	/* RUN_DIR/bench_chains (root's, 0700): the chain files deployed */
	struct outdir deployed;
	char command[1024];
	unsigned int rounds, count;
	double seconds;		   /* -t */
	unsigned int tool_seconds; /* -t for tools that count whole seconds: at least 1 */
	unsigned int tput_mtu;	   /* --tput-mtu (throughput); 0: not given */
	struct bench_journal journal;
	bool progress; /* a terminal: show where the run is */
	bool emulated; /* VMs under TCG */
	char accel[512];
	char isolation[512];
	char load0[64];
	cpu_set_t affinity; /* calvin's own, given back after each round */
	/* the series of the report, filled by the mode */
	struct calvin_bench_series *series;
	size_t nr_series;
	void *priv; /* the mode's own, for its report */
	/* why no configuration can be measured here (a program missing), set
	 * by the mode before its rounds; "": they can */
	char cannot[CALVIN_BENCH_WHY_MAX];
	/* a figure was not measured (its report says "not measured: WHY"),
	 * or not in every round: calvin bench exits 1 */
	bool incomplete;
};

/* Chain variants: KEY.yaml in RUN_DIR/bench_chains, loaded into *out
 * and deployed from there, where only root can write; a copy in the
 * report folder's chains/ for people. Returns 0 or an exit code (one
 * line). */
int bench_variant(struct bench *b, const char *key, const struct calvin_spec_override *o,
		  struct calvin_chain_spec *out);
/* Deploy for a round (journalled; stdout quiet) and tear down. Exit codes. */
int bench_up(struct bench *b, const struct calvin_chain_spec *spec);
int bench_down(struct bench *b, const struct calvin_chain_spec *spec);
/* Probes through a deployed chain from its probe node to dst (the server
 * of calvin's chain, or the conventional stack's entry), b->count at the
 * chain's probe rate; RTTs into s. 0 or -errno. */
int bench_probe(struct bench *b, const struct calvin_chain_spec *spec, struct in_addr dst,
		struct calvin_bench_series *s, unsigned int round);
/* The series of the report; NULL on no memory. */
struct calvin_bench_series *bench_series_new(struct bench *b, const char *config, const char *label,
					     const char *metric);
/* One line on the terminal, rewritten: where the run is (printf-style). */
void bench_progress(struct bench *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Give calvin its own CPUs back after a round pinned it to housekeeping. */
void bench_unpin(struct bench *b);
/* The housekeeping CPUs of a deployed chain (its plan record); all online
 * CPUs for placement shared. */
void bench_housekeeping(const struct calvin_chain_spec *spec, struct calvin_cpumask *hk);
/* Stop when Ctrl-C came: true after it, and the round's steps return. */
bool bench_stopped(void);
/* What one configuration k does in one round: 0, or non-zero to stop
 * the rounds (returned by bench_rounds()). */
typedef int (*bench_round_fn)(struct bench *b, unsigned int k, unsigned int round, void *arg);
/* b->rounds rounds of n configurations, each round starting one
 * configuration later than the one before, so none is always measured
 * first (right after the machine was quiet); stops on Ctrl-C. 0, or what
 * one stopped with. */
int bench_rounds(struct bench *b, unsigned int n, bench_round_fn one, void *arg);
/* The modes that compare calvin with the conventional stack build both
 * in namespaces: 0, or CALVIN_EXIT_USAGE after the line that says so. */
int bench_netns_only(const struct bench *b, const char *mode);
/* Run a command inside a node of a deployed chain as a child (not
 * journalled: it dies with the chain's namespaces), output to out_fd.
 * argv[0] is a system program (tool_path()) or an absolute path, argv at
 * most BENCH_MAX_ARGS long. 0, or -ENOENT when it is not installed (one
 * line), or -errno. */
#define BENCH_MAX_ARGS 32
int bench_node_spawn(const struct calvin_chain_spec *spec, const char *node, char *const argv[],
		     int out_fd, pid_t *pid);

/* In a child about to exec: stdin /dev/null, stdout to out_fd (-1:
 * /dev/null), stderr to /dev/null unless -v, no descriptor but these. */
void bench_child_stdio(int out_fd);
/* Run a command in a node to its end, at most timeout_ms (then killed):
 * its exit status, or -errno (-EINTR: Ctrl-C). */
int bench_node_run(const struct calvin_chain_spec *spec, const char *node, char *const argv[],
		   int out_fd, int timeout_ms);
/* Wait until a server has bound addr:port (type SOCK_DGRAM or
 * SOCK_STREAM) in a node; 0 or -ETIMEDOUT. */
int bench_port_wait(const struct calvin_chain_spec *spec, const char *node, struct in_addr addr,
		    uint16_t port, int type, int timeout_ms);

/* ---- stack.c ---- */

struct calvin_stack_plan;
/* Deploy spec's topology on the conventional stack (Linux forwarding,
 * calvin-relay) as chain spec->name, relaying UDP ports (a list, e.g.
 * "7357,11111"; the echo at the server answers the first, the probe's);
 * *sp says its addresses (the probe's entry). Its interfaces checksum in
 * software (so segment too) where calvin's in spec's mode would
 * (calvin_port_sw_csum()), or nowhere with default_offloads. Journalled
 * like a chain: bench_down() and `calvin down` remove it. Exit code. */
int bench_stack_up(struct bench *b, const struct calvin_chain_spec *spec, const char *ports,
		   bool default_offloads, struct calvin_stack_plan *sp);

/* ---- gen.c ---- */

struct calvin_gen_flow;
struct bench_gen_result {
	uint64_t sent;	    /* frames the generator handed to the probe's interface */
	uint64_t received;  /* frames the server's interface received meanwhile */
	double offered_pps; /* sent per second of sending */
	double loss;	    /* 1 - received / sent */
};
/* The generator's flow through a deployed chain: from its probe node's
 * address src to dst:dport, MACs read from the nodes. 0 or -errno. */
int bench_gen_flow(const struct calvin_chain_spec *spec, const char *src, const char *dst,
		   uint16_t dport, struct calvin_gen_flow *flow);
/* One trial: frames of frame_size bytes (FCS included) at rate per second
 * (0: as fast as the generator goes) for seconds. 0 or -errno. */
int bench_gen_trial(const struct calvin_chain_spec *spec, const struct calvin_gen_flow *flow,
		    unsigned int frame_size, double rate, double seconds,
		    struct bench_gen_result *r);

/* ---- files.c ---- */

/* The report folder (-o DIR, or bench/results/MODE-CHAIN-DATE, in
 * b->outdir) and its chains/, taken before anything runs. 0 or an exit
 * code (one line). */
int bench_report_open(struct bench *b);
/* RUN_DIR/bench_chains, made afresh: once this bench holds its journal
 * (the one bench that may use it). 0 or an exit code (one line). */
int bench_deployed_open(struct bench *b);
/* Close all three; RUN_DIR/bench_chains removed. */
void bench_folders_close(struct bench *b);

/* The report directory: report.md (from write_md), samples.csv, the
 * gnuplot script NAME.gp and its pictures. */
int bench_files(struct bench *b, const char *plot_title,
		void (*write_md)(struct bench *b, FILE *f, bool pictures), bool interrupted);
/* The header every report starts with. */
void bench_md_header(struct bench *b, FILE *f, const char *settings);
/* The latency table (compared as cmp), the pictures of what was measured,
 * the published figures of the mode, and under TCG the warning. */
void bench_md_results(struct bench *b, FILE *f, bool pictures, enum calvin_bench_compare cmp,
		      const char *what);
/* What the header says of the machine, read at the start of a run: its
 * isolation, the accelerator of the chain's nodes, the load. */
void bench_describe_machine(struct bench *b);

/* ---- the modes ---- */

int bench_baseline(struct bench *b);
int bench_pinning(struct bench *b);
int bench_wakeup(struct bench *b);
int bench_throughput(struct bench *b);
void bench_throughput_plot(struct bench *b, FILE *f);

#endif /* CALVIN_BENCH_H */
