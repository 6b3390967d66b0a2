// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin bench MODE CHAIN.yaml: the benchmarks users run to decide how to
 * deploy a latency-critical chain. Each mode (bench/calvin/: baseline,
 * pinning, wakeup, throughput) runs its configurations in alternating
 * rounds in one session and writes a report directory. Whatever it starts
 * or deploys is journalled first (bench/calvin/journal.c) and gone when it
 * ends, on Ctrl-C too; after a SIGKILL the next `calvin bench` or `calvin
 * down --all` removes it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/calvin/bench.h"
#include "jout.h"
#include "state.h"
#include "util.h"
#include "util/util.h"

static const struct bench_mode modes[] = {
	{ .name = "baseline", .rounds = 3, .count = 1000, .seconds = 2, .run = bench_baseline },
	{ .name = "pinning",
	  .rounds = 3,
	  .count = 1000,
	  .seconds = 1,
	  .vms = true,
	  .run = bench_pinning },
	{ .name = "wakeup",
	  .rounds = 2,
	  .count = 0,
	  .seconds = 5,
	  .vms = true,
	  .run = bench_wakeup },
	{ .name = "throughput",
	  .rounds = 2,
	  .count = 0,
	  .seconds = 1,
	  .run = bench_throughput,
	  .plot = bench_throughput_plot,
	  .files = "- `trials.csv`: every trial of the no-drop-rate searches (offered rate, "
		   "frames sent and received)\n- `tcp.csv`: iperf3's TCP goodput per round\n" },
};

const struct option bench_options[] = {
	{ "rounds", required_argument, NULL, 'n' },
	{ "count", required_argument, NULL, 'c' },
	{ "time", required_argument, NULL, 't' },
	{ "output", required_argument, NULL, 'o' },
	{ "tput-mtu", required_argument, NULL, BENCH_OPT_TPUT_MTU },
	{ NULL, 0, NULL, 0 },
};

static int parse_count(const char *opt, const char *s, unsigned int hi, unsigned int *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || v < 1 || v > hi) {
		calvin_err("option %s: '%s' is not a number from 1 to %u", opt, s, hi);
		return CALVIN_EXIT_USAGE;
	}
	*out = (unsigned int)v;
	return 0;
}

static int parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || !(v >= 0.1 && v <= 3600)) {
		calvin_err("option -t: '%s' is not a number of seconds from 0.1 to 3600", s);
		return CALVIN_EXIT_USAGE;
	}
	*out = v;
	return 0;
}

static int parse_mtu(const char *s, unsigned int *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || *s == '-' || v < CALVIN_MTU_MIN || v > CALVIN_MTU_MAX) {
		calvin_err("option --tput-mtu: '%s' is not an MTU from %u to %u (the chain key "
			   "mtu's range)",
			   s, CALVIN_MTU_MIN, CALVIN_MTU_MAX);
		return CALVIN_EXIT_USAGE;
	}
	*out = (unsigned int)v;
	return 0;
}

/* Command-line settings of `calvin bench` (0 or NULL: the mode's default). */
static struct bench_args {
	unsigned int rounds; /* -n: rounds of every configuration */
	unsigned int count;  /* -c: probes per configuration and round */
	double seconds;	     /* -t: seconds of each measurement that runs for a time */
	const char *outdir;  /* -o: the report directory */
	unsigned int tput_mtu; /* --tput-mtu: throughput's mode: throughput rows again at it */
} given;

int bench_option(int c, const char *arg)
{
	struct bench_args *a = &given;

	switch (c) {
	case 'n':
		return parse_count("-n", arg, 1000, &a->rounds);
	case 'c':
		return parse_count("-c", arg, 1000000, &a->count);
	case 't':
		return parse_seconds(arg, &a->seconds);
	case 'o':
		a->outdir = arg;
		return 0;
	case BENCH_OPT_TPUT_MTU:
		return parse_mtu(arg, &a->tput_mtu);
	}
	return CALVIN_EXIT_USAGE;
}

static const struct bench_mode *find_mode(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(modes[i].name, name))
			return &modes[i];
	calvin_err("no bench mode '%s'; use baseline, pinning, wakeup or throughput", name);
	return NULL;
}

static int read_text(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "re");
	size_t cap = 0;

	*text = NULL;
	*len = 0;
	if (!f)
		return -errno;
	for (;;) {
		char *t = realloc(*text, cap + 4096);

		if (!t) {
			fclose(f);
			return -ENOMEM;
		}
		*text = t;
		*len += fread(*text + *len, 1, 4096, f);
		cap += 4096;
		if (*len < cap)
			break;
	}
	fclose(f);
	return 0;
}

/* A chain calvin bench deploys itself must not be deployed already:
 * `calvin up` would change the deployed one instead. */
static int not_deployed(const char *chain)
{
	char path[PATH_MAX];

	if (state_file(path, sizeof(path), chain, ".state") || access(path, F_OK) < 0)
		return 0;
	calvin_err("chain %s is deployed; calvin bench deploys it itself: take it down first "
		   "('calvin down %s')",
		   chain, chain);
	return CALVIN_EXIT_USAGE;
}

static int setup(struct bench *b, const struct cmd_args *a)
{
	const struct bench_args *o = &given;
	char date[32];
	time_t t = time(NULL);
	struct tm tm;
	int rc, err;

	rc = load_spec(a->arg[1], &b->spec);
	if (!rc && b->spec.backend == CALVIN_BACKEND_LIBVIRT && !b->mode->vms) {
		calvin_err("%s: chain %s runs in VMs (backend libvirt); calvin bench %s compares "
			   "namespaces with the conventional stack only: use pinning or wakeup",
			   a->arg[1], b->spec.name, b->mode->name);
		rc = CALVIN_EXIT_USAGE;
	}
	if (!rc && o->tput_mtu && strcmp(b->mode->name, "throughput")) {
		calvin_err("option --tput-mtu applies to calvin bench throughput only");
		rc = CALVIN_EXIT_USAGE;
	}
	if (!rc)
		rc = need_root("calvin bench");
	if (!rc)
		rc = state_dir_check(false);
	/* a killed bench's chain is not the user's: take it down first */
	if (!rc && bench_journal_recover() == -EBUSY) {
		calvin_err("another calvin bench is running; wait for it to finish");
		rc = CALVIN_EXIT_USAGE;
	}
	if (!rc)
		rc = not_deployed(b->spec.name);
	if (rc)
		return rc;
	err = read_text(a->arg[1], &b->text, &b->len);
	if (err) {
		calvin_err("%s: cannot read: %s", a->arg[1], strerror(-err));
		return CALVIN_EXIT_USAGE;
	}
	b->rounds = o->rounds ? o->rounds : b->mode->rounds;
	b->count = o->count ? o->count : b->mode->count;
	b->seconds = o->seconds > 0 ? o->seconds : b->mode->seconds;
	b->tool_seconds = b->seconds < 1 ? 1 : (unsigned int)(b->seconds + 0.999);
	/* VMs under an emulator boot in seconds and run slowly: short rounds */
	if (b->spec.backend == CALVIN_BACKEND_LIBVIRT) {
		b->rounds = o->rounds ? o->rounds : 1;
		b->count = o->count ? o->count : b->count / 5;
	}
	strftime(date, sizeof(date), "%Y%m%d-%H%M%S", localtime_r(&t, &tm));
	b->tput_mtu = o->tput_mtu;
	if (o->outdir)
		snprintf(b->outdir, sizeof(b->outdir), "%s", o->outdir);
	else
		snprintf(b->outdir, sizeof(b->outdir), "bench/results/%s-%s-%s", b->mode->name,
			 b->spec.name, date);
	rc = bench_report_open(b);
	if (rc)
		return rc;
	snprintf(b->command, sizeof(b->command),
		 "calvin bench %s %.256s -n %u%s%.0u -t %g -o %.512s", b->mode->name, a->arg[1],
		 b->rounds, b->count ? " -c " : "", b->count, b->seconds, b->outdir);
	b->progress = isatty(STDERR_FILENO);
	sched_getaffinity(0, sizeof(b->affinity), &b->affinity);
	return 0;
}

/* The last line, or under -j the document: where the report is. */
static void bench_say(const struct bench *b)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/report.md", b->outdir);
	if (!calvin_json) {
		printf("calvin bench %s: report in %s\n", b->mode->name, path);
		return;
	}
	jw_str(jout(), "mode", b->mode->name);
	jw_str(jout(), "chain", b->spec.name);
	jw_str(jout(), "dir", b->outdir);
	jw_str(jout(), "report", path);
}

int cmd_bench(const struct cmd_args *a)
{
	struct bench *b = calloc(1, sizeof(*b));
	size_t i;
	int rc;

	if (!b)
		return CALVIN_EXIT_FAIL;
	b->journal.fd = -1;
	b->dir.fd = b->chains.fd = b->deployed.fd = -1;
	b->mode = find_mode(a->arg[0]);
	rc = b->mode ? setup(b, a) : CALVIN_EXIT_USAGE;
	if (rc)
		goto out;
	catch_quit_signals();
	rc = bench_journal_open(&b->journal);
	if (!rc)
		rc = bench_deployed_open(b);
	if (rc)
		goto out;
	bench_describe_machine(b);
	rc = b->mode->run(b);
	if (b->progress)
		fputs("\r\033[K", stderr);
	/* every process and chain of the run is gone unless a tear-down failed */
	bench_journal_close(&b->journal, rc != CALVIN_EXIT_FAIL);
	bench_say(b);
	if (!rc && b->incomplete) {
		calvin_err("calvin bench %s: some figures were not measured; %s/report.md says why",
			   b->mode->name, b->outdir);
		rc = CALVIN_EXIT_FAIL;
	}
	if (calvin_quit)
		rc = quit_status();
out:
	bench_folders_close(b);
	for (i = 0; i < b->nr_series; i++)
		calvin_bench_series_free(&b->series[i]);
	free(b->series);
	free(b->text);
	free(b);
	return rc;
}
