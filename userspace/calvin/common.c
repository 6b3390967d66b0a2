// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* What several subcommands share: loading specs, root, placement. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <calvin/telemetry.h>

#include "commands.h"
#include "state.h"
#include "util.h"

int load_spec(const char *path, struct calvin_chain_spec *spec)
{
	char err[CALVIN_ERR_MAX];

	if (calvin_spec_load(path, spec, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return CALVIN_EXIT_USAGE;
	}
	return 0;
}

int check_key_files(const struct calvin_chain_spec *spec)
{
	char err[CALVIN_ERR_MAX];

	if (!calvin_spec_check_key_files(spec, err, sizeof(err)))
		return 0;
	fprintf(stderr, "%s\n", err);
	return CALVIN_EXIT_USAGE;
}

int need_root(const char *what)
{
	if (geteuid() == 0)
		return 0;
	calvin_err("%s needs root (network namespaces, XDP, bpffs); run it as root", what);
	return CALVIN_EXIT_USAGE;
}

static int read_cpulist(const char *path, bool set[CALVIN_MAX_CPUS])
{
	char buf[4096] = "";
	FILE *f = fopen(path, "re");

	if (!f)
		return calvin_cpulist_parse("", set);
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return calvin_cpulist_parse(buf, set);
}

int make_plan(const struct calvin_chain_spec *spec, struct calvin_plan *plan)
{
	static struct calvin_topology t;
	char err[CALVIN_ERR_MAX];
	int c;

	if (read_cpulist("/sys/devices/system/cpu/online", t.online) ||
	    read_cpulist("/sys/devices/system/cpu/isolated", t.isolated) ||
	    read_cpulist("/sys/devices/system/cpu/nohz_full", t.nohz_full)) {
		calvin_err("cannot read the CPU topology from /sys/devices/system/cpu");
		return CALVIN_EXIT_FAIL;
	}
	t.nr_cpus = 0;
	for (c = 0; c < CALVIN_MAX_CPUS; c++)
		if (t.online[c])
			t.nr_cpus = (unsigned int)c + 1;
	if (calvin_plan_make(spec, &t, plan, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", spec->path, err);
		return CALVIN_EXIT_USAGE;
	}
	return 0;
}

int deployed_spec(const char *chain, struct calvin_chain_spec *spec)
{
	char path[4096], err[CALVIN_ERR_MAX];

	state_file(path, sizeof(path), chain, ".yaml");
	if (access(path, F_OK) < 0) {
		calvin_err("chain '%s' is not deployed; bring it up with 'calvin up CHAIN.yaml'",
			   chain);
		return CALVIN_EXIT_USAGE;
	}
	if (calvin_spec_load(path, spec, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return CALVIN_EXIT_FAIL;
	}
	return 0;
}

int check_probe_size(const struct calvin_chain_spec *spec, unsigned int size)
{
	unsigned int need = CALVIN_TLM_LEN(2 * spec->nr_vnfs);

	if (size >= need)
		return 0;
	calvin_err("%s: probe size %u is too small for the %u hop records of %u VNFs; set "
		   "probe size to at least %u",
		   spec->path, size, 2 * spec->nr_vnfs, spec->nr_vnfs, need);
	return CALVIN_EXIT_USAGE;
}
