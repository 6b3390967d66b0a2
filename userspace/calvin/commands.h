/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The subcommands of calvin, one file each, and what they share. */
#ifndef CALVIN_COMMANDS_H
#define CALVIN_COMMANDS_H

#include <getopt.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdio.h>

#include "plan/plan.h"
#include "spec/spec.h"

/* Most positional arguments a subcommand takes (exec: CHAIN NODE; bench: MODE CHAIN). */
#define CMD_MAX_ARGS 2

/* A subcommand's command line, parsed (cmdline.c). */
struct cmd_args {
	unsigned int nr; /* positional arguments, in the order given */
	char *arg[CMD_MAX_ARGS];
	char **tail; /* exec: CMD [ARG...] after "--", NULL-terminated */
	bool help;   /* -h, --help: print the usage, do nothing else */
};

/* A subcommand: the dispatch table in main.c holds one per command, with
 * its usage text beside it. */
struct calvin_cmd {
	const char *name;
	int (*run)(const struct cmd_args *a);
	const char *synopsis;		 /* its arguments, as `calvin --help` lists them */
	const char *summary;		 /* what it does, in the list */
	const char *usage;		 /* `calvin help NAME`: what it does, its options */
	unsigned int min_args, max_args; /* positional arguments */
	bool tail;			 /* takes "-- CMD [ARG...]" after its arguments */
	/* its own options (-j, -v and -h are everyone's), and what takes
	 * them: each command keeps what they say in its own file */
	const struct option *opts;
	const char *shortopts;
	int (*opt)(int c, const char *arg);
};

/* Parse argv (argv[0] is the command's name): options before, between and
 * after the positional arguments; "--" ends the options (exec: what follows
 * is the command to run). Returns 0 or an exit code, after one line. */
int cmd_parse(const struct calvin_cmd *cmd, int argc, char **argv, struct cmd_args *a);
/* The usage text of one command. */
void cmd_usage(const struct calvin_cmd *cmd, FILE *f);

int cmd_validate(const struct cmd_args *a);
int cmd_plan(const struct cmd_args *a);
int cmd_up(const struct cmd_args *a);
int cmd_probe(const struct cmd_args *a);
int cmd_status(const struct cmd_args *a);
int cmd_down(const struct cmd_args *a);
int cmd_run(const struct cmd_args *a);
int cmd_exec(const struct cmd_args *a);
int cmd_keygen(const struct cmd_args *a);
int cmd_bench(const struct cmd_args *a);
int cmd_monitor(const struct cmd_args *a);
int cmd_supervise(const struct cmd_args *a);

/* Each command's options, and what takes them (cmd_NAME.c): probe's
 * (which run and up --admit share), up's, down's --all, bench's. */
extern const struct option probe_options[];
#define PROBE_SHORTOPTS "c:r:ps:o:"
int probe_option(int c, const char *arg);
int run_option(int c, const char *arg);
extern const struct option up_options[];
#define UP_SHORTOPTS "c:r:ps:"
int up_option(int c, const char *arg);
extern const struct option down_options[];
int down_option(int c, const char *arg);
extern const struct option monitor_options[];
int monitor_option(int c, const char *arg);
extern const struct option bench_options[];
#define BENCH_SHORTOPTS "n:c:t:o:"
/* bench_options' long-only ones */
#define BENCH_OPT_TPUT_MTU 256
int bench_option(int c, const char *arg);
/* A probe option (probe_options) into a; 0 or an exit code after one line. */
struct probe_args;
int probe_args_option(struct probe_args *a, int c, const char *arg);

/* -j on any subcommand */
extern bool calvin_json;

/* A zeroed spec on the heap (free() it), or NULL after one line. */
struct calvin_chain_spec *spec_new(void);
/* fn with a zeroed spec on the heap (268 KiB: never a local variable, see
 * FRAME_MAX in the Makefile); 1 after one line when there is no memory. */
int with_spec(int (*fn)(const struct cmd_args *a, struct calvin_chain_spec *spec),
	      const struct cmd_args *a);
/* Load and check a spec file; prints the one error line itself. */
int load_spec(const char *path, struct calvin_chain_spec *spec);
/* The same, and the bytes it was parsed from (resolved: key files named by
 * absolute paths) into text, for what deploys them; free it with
 * calvin_spec_text_free() when the exit code is 0. */
int load_spec_text(const char *path, struct calvin_chain_spec *spec, struct calvin_spec_text *text);
/* A chain or node name from the command line, checked like one in a chain
 * file (what: "chain", "node"); prints the one error line itself. */
int check_name(const char *what, const char *name);
/* The key files of a spec's encrypt/decrypt VNFs are there, safe and
 * well-formed; prints the error line itself. Needs no root. */
int check_key_files(const struct calvin_chain_spec *spec);
/* Refuse politely unless root. */
int need_root(const char *what);
/* The placement for spec on this host (CALVIN_HOST_ROOT: a fake host for
 * tests) and on each other host a VNF is on (read through its libvirt),
 * and the hosts as read when hosts is not NULL (see
 * calvin_plan_make_hosts()); prints the error line itself. */
int make_plan(const struct calvin_chain_spec *spec, struct calvin_plan *plan,
	      const struct calvin_topology *const **hosts);
/* The housekeeping cores of a deployed chain, from its plan record, less
 * what chains deployed since hold; prints the error line itself. */
int chain_housekeeping(const struct calvin_chain_spec *spec, struct calvin_cpumask *hk);
/* The host-wide planning lock (plan_lock.c), held by `up` from reading
 * other chains' plan records to writing its own. 0 and *fd, -EINTR when
 * SIGINT or SIGTERM stopped the wait, or -errno after one line. */
int plan_lock(int *fd);
/* Release it; harmless when *fd is -1. */
void plan_unlock(int *fd);
/* Is a probe of size bytes big enough for every hop record of the chain?
 * Prints the error line itself. */
int check_probe_size(const struct calvin_chain_spec *spec, unsigned int size);
/* What the plan of a deployed chain degraded, as its plan record says,
 * into d (CALVIN_MAX_VNFS entries): how many (0 without a record). */
unsigned int chain_degraded(const char *chain, struct calvin_degraded *d);
/* The spec a deployed chain was brought up with. */
int deployed_spec(const char *chain, struct calvin_chain_spec *spec);

/* Write the report of a probe run into d (outdir.c); raw holds the run's
 * per-probe records. placement and command may be NULL. */
struct calvin_probe_result;
struct outdir;
int report_dir_write(const struct outdir *d, const struct calvin_chain_spec *spec,
		     const struct calvin_probe_result *r, FILE *raw, const char *placement,
		     const char *command);
/* "2 CPUs online, AMD EPYC, Linux 6.18": the machine, for reports. */
void report_host_line(char *buf, size_t len);

#endif /* CALVIN_COMMANDS_H */
