/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The subcommands of calvin, one file each, and what they share. */
#ifndef CALVIN_COMMANDS_H
#define CALVIN_COMMANDS_H

#include <stdbool.h>

#include "chainspec.h"
#include "plan.h"

struct calvin_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *args;
	const char *help;
};

int cmd_validate(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_up(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_down(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_keygen(int argc, char **argv);

/* -j on any subcommand */
extern bool calvin_json;

/* Load and check a spec file; prints the one error line itself. */
int load_spec(const char *path, struct calvin_chain_spec *spec);
/* Refuse politely unless root. */
int need_root(const char *what);
/* The placement for spec on this host; prints the error line itself. */
int make_plan(const struct calvin_chain_spec *spec, struct calvin_plan *plan);
/* Is a probe of size bytes big enough for every hop record of the chain?
 * Prints the error line itself. */
int check_probe_size(const struct calvin_chain_spec *spec, unsigned int size);
/* Deploy (returns an exit code; on failure nothing is left behind). */
int chain_up(const struct calvin_chain_spec *spec);
/* Apply changed kernel VNF parameters to a deployed chain (re-up). */
int chain_update(const struct calvin_chain_spec *spec);
int copy_file(const char *from, const char *to);
/* Tear a chain down (returns an exit code; harmless when not deployed). */
int chain_down(const char *chain);
struct node_backend;
struct chain_state;
/* Undo what a journal names: isolation, then the backend's resources.
 * 0 or -errno. */
int chain_undo(const struct node_backend *be, struct chain_state *s);
/* The spec a deployed chain was brought up with. */
int deployed_spec(const char *chain, struct calvin_chain_spec *spec);

/* Command-line overrides of a spec's probe section (0 = not given). */
struct probe_args {
	struct calvin_probe_spec p;
	const char *raw; /* per-probe records to this file */
	bool check; /* exit CALVIN_EXIT_OVER_BUDGET when the verdict is not within budget */
};

/* `probe --check` and `run --check`: the chain missed its budget (or lost
 * probes), distinct from a failure to measure. */
#define CALVIN_EXIT_OVER_BUDGET 3

/* Probe options of `probe` and `run`; the one positional argument is left
 * at argv[argc - 1]. Returns 0 or an exit code. */
int probe_parse_args(int argc, char **argv, struct probe_args *a);
/* The spec's probe section with the overrides applied. */
void probe_args_apply(const struct calvin_chain_spec *spec, const struct probe_args *a,
		      struct probe_args *out);
/* Probe a deployed chain and print the report; returns an exit code. */
int chain_probe(const struct calvin_chain_spec *spec, const struct probe_args *a);

#endif /* CALVIN_COMMANDS_H */
