// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* What several subcommands share: loading specs, root, placement. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "commands.h"
#include "hosts.h"
#include "plan/plan.h"
#include "state.h"
#include "util.h"

#ifdef CALVIN_FRAME_MAX
_Static_assert(sizeof(struct calvin_chain_spec) > CALVIN_FRAME_MAX,
	       "the chain spec fits under the Makefile's FRAME_MAX: lower it, or a spec on a stack "
	       "goes unseen");
#endif

struct calvin_chain_spec *spec_new(void)
{
	struct calvin_chain_spec *spec = calloc(1, sizeof(*spec));

	if (!spec)
		calvin_err("out of memory for a chain spec");
	return spec;
}

int with_spec(int (*fn)(const struct cmd_args *a, struct calvin_chain_spec *spec),
	      const struct cmd_args *a)
{
	struct calvin_chain_spec *spec = spec_new();
	int rc;

	if (!spec)
		return CALVIN_EXIT_FAIL;
	rc = fn(a, spec);
	free(spec);
	return rc;
}

int load_spec(const char *path, struct calvin_chain_spec *spec)
{
	char err[CALVIN_ERR_MAX];

	if (calvin_spec_load(path, spec, err, sizeof(err))) {
		calvin_err_line(err);
		return CALVIN_EXIT_USAGE;
	}
	return 0;
}

int load_spec_text(const char *path, struct calvin_chain_spec *spec, struct calvin_spec_text *text)
{
	char err[CALVIN_ERR_MAX];

	if (calvin_spec_load_text(path, spec, text, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return CALVIN_EXIT_USAGE;
	}
	return 0;
}

int check_name(const char *what, const char *name)
{
	char err[CALVIN_ERR_MAX];

	if (!calvin_name_check(what, name, err, sizeof(err)))
		return 0;
	calvin_err("%s", err);
	return CALVIN_EXIT_USAGE;
}

/* A check of a spec's files that writes its one line into err. */
static int spec_files_check(int (*check)(const struct calvin_chain_spec *, char *, size_t),
			    const struct calvin_chain_spec *spec)
{
	char err[CALVIN_ERR_MAX];

	if (!check(spec, err, sizeof(err)))
		return 0;
	calvin_err_line(err);
	return CALVIN_EXIT_USAGE;
}

int check_key_files(const struct calvin_chain_spec *spec)
{
	return spec_files_check(calvin_spec_check_key_files, spec);
}

int need_root(const char *what)
{
	if (geteuid() == 0)
		return 0;
	calvin_err("%s needs root (network namespaces, XDP, bpffs); run it as root", what);
	return CALVIN_EXIT_USAGE;
}

/* The host to plan for: "/", or a tree that looks like one (tests). */
static const char *host_root(void)
{
	const char *r = getenv("CALVIN_HOST_ROOT");

	return r && *r ? r : "/";
}

static int read_host(const char *chain, struct calvin_topology *t)
{
	struct calvin_host_source src = { host_root(), calvin_run_dir(), chain };
	char err[CALVIN_ERR_MAX];

	if (!calvin_host_read(&src, t, err, sizeof(err)))
		return 0;
	calvin_err("%s", err);
	return CALVIN_EXIT_FAIL;
}

int make_plan(const struct calvin_chain_spec *spec, struct calvin_plan *plan,
	      const struct calvin_topology *const **hosts)
{
	static struct calvin_topology t;
	static const struct calvin_topology *all[1 + CALVIN_MAX_HOSTS];
	char err[CALVIN_ERR_MAX], line[sizeof(spec->path) + CALVIN_ERR_MAX + 2];
	int rc;

	rc = read_host(spec->name, &t);
	if (!rc)
		rc = hosts_read(spec, all);
	if (rc)
		return rc;
	all[0] = &t;
	if (hosts)
		*hosts = all;
	/* the NUMA node of a veth is unknown: no NIC nodes */
	if (calvin_plan_make_hosts(spec, all, NULL, plan, err, sizeof(err))) {
		snprintf(line, sizeof(line), "%s: %s", spec->path, err);
		calvin_err_line(line);
		return CALVIN_EXIT_USAGE;
	}
	return 0;
}

int chain_housekeeping(const struct calvin_chain_spec *spec, struct calvin_cpumask *hk)
{
	static struct calvin_topology t;
	struct calvin_plan plan;
	char path[4096];
	int rc;

	state_file(path, sizeof(path), spec->name, ".plan");
	if (calvin_plan_record_housekeeping(path, hk)) {
		rc = make_plan(spec, &plan, NULL);
		if (rc)
			return rc;
		*hk = plan.housekeeping;
	}
	rc = read_host(spec->name, &t);
	if (!rc)
		calvin_plan_housekeeping_now(&t, hk);
	return rc;
}

unsigned int chain_degraded(const char *chain, struct calvin_degraded *d)
{
	char path[4096];
	int n;

	if (state_file(path, sizeof(path), chain, ".plan"))
		return 0;
	n = calvin_plan_record_degraded_read(path, d, CALVIN_MAX_VNFS);
	return n > 0 ? (unsigned int)n : 0;
}

int deployed_spec(const char *chain, struct calvin_chain_spec *spec)
{
	char path[4096], err[CALVIN_ERR_MAX];
	int rc;

	rc = check_name("chain", chain);
	if (!rc)
		rc = state_dir_check(false);
	if (rc)
		return rc;
	if (state_file(path, sizeof(path), chain, ".yaml") || access(path, F_OK) < 0) {
		calvin_err("chain '%s' is not deployed; bring it up with 'calvin up CHAIN.yaml'",
			   chain);
		return CALVIN_EXIT_USAGE;
	}
	if (calvin_spec_load(path, spec, err, sizeof(err))) {
		calvin_err_line(err);
		return CALVIN_EXIT_FAIL;
	}
	if (!backend_of(spec)) {
		calvin_err("chain '%s' uses backend %s, which this build lacks", chain,
			   calvin_backend_name(spec->backend));
		return CALVIN_EXIT_FAIL;
	}
	return 0;
}

int check_probe_size(const struct calvin_chain_spec *spec, unsigned int size)
{
	unsigned int need = calvin_probe_size_needed(spec);

	if (size + 28 > spec->mtu) {
		calvin_err("probe size %u (-s) does not fit chain %s's MTU of %u with 28 bytes of "
			   "IP and UDP headers; give at most %u",
			   size, spec->name, spec->mtu, spec->mtu - 28);
		return CALVIN_EXIT_USAGE;
	}
	if (size >= need)
		return 0;
	calvin_err("probe size %u (-s) is too small for the %u hop records of chain %s's %u "
		   "VNFs; give at least %u, or leave -s out",
		   size, 2 * spec->nr_vnfs, spec->name, spec->nr_vnfs, need);
	return CALVIN_EXIT_USAGE;
}
