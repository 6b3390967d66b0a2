/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* A chain's lifecycle: what the subcommands call to bring a chain up,
 * change it in place, probe it, admit it by budget and take it down. */
#ifndef CALVIN_CHAIN_H
#define CALVIN_CHAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "spec/spec.h"

struct calvin_keyring;
struct chain_state;
struct node_backend;
struct outdir;

/* Command-line overrides of a spec's probe section (0 = not given). */
struct probe_args {
	struct calvin_probe_spec p;
	const char *raw;	  /* per-probe records to this file */
	const char *outdir;	  /* -o: the report as files (report.md, samples.csv, pictures) */
	const struct outdir *dir; /* that folder, taken (outdir.h) before anything ran */
	bool check; /* exit CALVIN_EXIT_OVER_BUDGET when the verdict is not within budget */
};

/* Everything `up` checks before the first resource exists, but the plan:
 * the file's key files and names, then whether this host can run it (the
 * backend's check, libxdp's dispatcher). offline (`validate`): no root
 * needed, nothing started or connected to; what that leaves unchecked
 * goes to unchecked ("" if nothing). keys (`up`): the key files are read
 * into it, once, for the deployment; NULL: checked and forgotten. Returns
 * an exit code after one line. */
int chain_check(const struct calvin_chain_spec *spec, bool offline, struct calvin_keyring *keys,
		char *unchecked, size_t len);
/* Deploy spec, parsed from text (returns an exit code; on failure nothing
 * is left behind). The key files are read once, here. */
int chain_up(const struct calvin_chain_spec *spec, const struct calvin_spec_text *text);
/* Apply changed kernel VNF parameters to a deployed chain (re-up). */
int chain_update(const struct calvin_chain_spec *spec, const struct calvin_spec_text *text);

/* Tear a chain down (returns an exit code; harmless when not deployed). */
int chain_down(const char *chain);
/* `calvin down --images`: a tear-down removes the guest images it keeps
 * on remote hosts as a cache (libvirt/storage.h) too. */
extern bool chain_down_images;
/* Undo what a journal names: isolation, then the backend's resources.
 * 0 or -errno. */
int chain_undo(const struct node_backend *be, struct chain_state *s);

/* `probe --check` and `run --check`: the chain missed its budget (or lost
 * probes), distinct from a failure to measure. */
#define CALVIN_EXIT_OVER_BUDGET 3

/* The spec's probe section with the overrides applied. */
void probe_args_apply(const struct calvin_chain_spec *spec, const struct probe_args *a,
		      struct probe_args *out);
/* Keep the calling thread (and the threads it makes) on the chain's
 * housekeeping CPUs, off the busy-polling VNFs' cores. */
void chain_pin_housekeeping(const struct calvin_chain_spec *spec);
/* Probe a deployed chain and print the report; returns an exit code. */
int chain_probe(const struct calvin_chain_spec *spec, const struct probe_args *a);
/* up --admit, once the chain is up: probe it briefly (ADMIT_COUNT paced
 * probes unless given says otherwise) and keep it if it is within budget;
 * tear it down otherwise. 0 when admitted, CALVIN_EXIT_OVER_BUDGET when
 * it missed its budget or lost probes, 1 when it could not be measured. */
int chain_admit(const struct calvin_chain_spec *spec, const struct probe_args *given);

#endif /* CALVIN_CHAIN_H */
