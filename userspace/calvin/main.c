// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin: deploy and measure low-latency service function chains. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "util.h"

bool calvin_json;

static const struct calvin_cmd cmds[] = {
	{ "validate", cmd_validate, "CHAIN.yaml", "check a chain spec, create nothing" },
	{ "plan", cmd_plan, "CHAIN.yaml", "show the CPU placement, deploy nothing" },
	{ "up", cmd_up, "CHAIN.yaml", "deploy a chain" },
	{ "probe", cmd_probe, "CHAIN [-c N] [-r RATE] [-p] [-s BYTES] [--raw FILE] [-o DIR] [--check]",
	  "measure RTT and per-hop latency" },
	{ "status", cmd_status, "[CHAIN]", "deployed chains and their per-VNF counters" },
	{ "down", cmd_down, "CHAIN | --all", "tear down (harmless to repeat)" },
	{ "run", cmd_run, "CHAIN.yaml [probe options]", "up, probe, report, down" },
	{ "exec", cmd_exec, "CHAIN NODE -- CMD [ARG...]", "run a command inside a node" },
	{ "keygen", cmd_keygen, "FILE", "write a new key file for encrypt/decrypt VNFs" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: calvin [-j] [-v] COMMAND [ARGS]\n\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  calvin %-8s %-58s %s\n", cmds[i].name, cmds[i].args, cmds[i].help);
	fprintf(f, "\n  -j  JSON output    -v  show what is run\n");
}

int main(int argc, char **argv)
{
	size_t i;

	/* global flags come before the command */
	while (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "-j")) {
			calvin_json = true;
		} else if (!strcmp(argv[1], "-v")) {
			calvin_verbose = true;
		} else if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			usage(stdout);
			return 0;
		} else {
			calvin_err("unknown option '%s'; see 'calvin --help'", argv[1]);
			return CALVIN_EXIT_USAGE;
		}
		argv++;
		argc--;
	}
	if (argc < 2) {
		usage(stderr);
		return CALVIN_EXIT_USAGE;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].run(argc - 1, argv + 1);
	calvin_err("unknown command '%s'; see 'calvin --help'", argv[1]);
	return CALVIN_EXIT_USAGE;
}
