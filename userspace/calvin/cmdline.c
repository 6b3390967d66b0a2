// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Subcommand command lines: options anywhere among the positional
 * arguments (`calvin probe CHAIN -c 10` and `calvin probe -c 10 CHAIN`),
 * the global -j and -v after the command too, -h/--help on every command,
 * and "--" before the command `calvin exec` runs. */
#include <string.h>

#include "commands.h"
#include "util.h"

#define MAX_LONGOPTS 16
#define MAX_SHORTOPTS 64

static const struct option common_options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, 'j' },
	{ "verbose", no_argument, NULL, 'v' },
};
#define NR_COMMON (sizeof(common_options) / sizeof(common_options[0]))

/* The command's options and everyone's, in getopt's form. A leading '-'
 * returns positional arguments in order (as option 1) rather than
 * permuting argv, whatever POSIXLY_CORRECT says; ':' tells a missing value
 * from an unknown option. */
static void build_options(const struct calvin_cmd *cmd, struct option *lo, char *so)
{
	size_t n = 0, i;

	for (i = 0; cmd->opts && cmd->opts[i].name && n < MAX_LONGOPTS - NR_COMMON - 1; i++)
		lo[n++] = cmd->opts[i];
	for (i = 0; i < NR_COMMON; i++)
		lo[n++] = common_options[i];
	memset(&lo[n], 0, sizeof(lo[n]));
	snprintf(so, MAX_SHORTOPTS, "-:hjv%s", cmd->shortopts ? cmd->shortopts : "");
}

static int bad_option(const struct calvin_cmd *cmd, int c, const char *given)
{
	char opt[3] = { '-', (char)optopt, '\0' };
	const char *what = optopt ? opt : given;

	if (c == ':')
		calvin_err("option '%s' of 'calvin %s' needs a value; see 'calvin help %s'", what,
			   cmd->name, cmd->name);
	else
		calvin_err("'calvin %s' has no option '%s'; see 'calvin help %s'", cmd->name, what,
			   cmd->name);
	return CALVIN_EXIT_USAGE;
}

static int positional(const struct calvin_cmd *cmd, struct cmd_args *a, char *arg)
{
	if (a->nr >= cmd->max_args || a->nr >= CMD_MAX_ARGS) {
		calvin_err("unexpected argument '%s'; usage: calvin %s %s", arg, cmd->name,
			   cmd->synopsis);
		return CALVIN_EXIT_USAGE;
	}
	a->arg[a->nr++] = arg;
	return 0;
}

static bool asks_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
}

/* exec: everything after the first "--" is the command, options included. */
static int split_tail(const struct calvin_cmd *cmd, int *argc, char **argv, struct cmd_args *a)
{
	int i;

	for (i = 1; i < *argc; i++)
		if (!strcmp(argv[i], "--"))
			break;
	if (i + 1 < *argc) {
		a->tail = argv + i + 1;
		*argc = i;
		return 0;
	}
	/* `calvin exec --help` has no "--" and needs none */
	if (i == *argc && asks_help(*argc, argv)) {
		a->help = true;
		return 0;
	}
	calvin_err("give the command to run after '--'; usage: calvin %s %s", cmd->name,
		   cmd->synopsis);
	return CALVIN_EXIT_USAGE;
}

int cmd_parse(const struct calvin_cmd *cmd, int argc, char **argv, struct cmd_args *a)
{
	struct option lo[MAX_LONGOPTS];
	char so[MAX_SHORTOPTS];
	int c, rc = 0;

	build_options(cmd, lo, so);
	if (cmd->tail && split_tail(cmd, &argc, argv, a))
		return CALVIN_EXIT_USAGE;
	optind = 0; /* a fresh scan, also of getopt's own state */
	opterr = 0;
	while (!rc && (c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		switch (c) {
		case 1:
			rc = positional(cmd, a, optarg);
			break;
		case 'h':
			a->help = true;
			break;
		case 'j':
			calvin_json = true;
			break;
		case 'v':
			calvin_verbose = true;
			break;
		case ':':
		case '?':
			rc = bad_option(cmd, c, argv[optind - 1]);
			break;
		default:
			rc =
			    cmd->opt ? cmd->opt(c, optarg) : bad_option(cmd, '?', argv[optind - 1]);
		}
	}
	/* after a "--" that ends the options: positional, even if they start with '-' */
	for (; !rc && optind < argc; optind++)
		rc = positional(cmd, a, argv[optind]);
	if (rc || a->help || a->nr >= cmd->min_args)
		return rc;
	calvin_err("usage: calvin %s %s", cmd->name, cmd->synopsis);
	return CALVIN_EXIT_USAGE;
}

void cmd_usage(const struct calvin_cmd *cmd, FILE *f)
{
	fprintf(f, "usage: calvin %s %s\n\n%s", cmd->name, cmd->synopsis, cmd->usage);
	fprintf(f, "\n  -j, --json     JSON output\n"
		   "  -v, --verbose  show each operation and command\n"
		   "  -h, --help     this text\n");
}
