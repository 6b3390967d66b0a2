// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* bench/testpmd.sh's tables: sockperf logs of configurations measured in
 * alternating rounds, compared with one reference configuration.
 *
 *   rounds_table REF < LIST
 *
 * LIST has one line per configuration and round, "CONFIG ROUND FILE
 * LABEL...", FILE a `sockperf ping-pong --full-rtt --full-log` log or
 * RTTs in ns, one per line (from calvin probe --raw). Prints
 * two Markdown tables on stdout: the pooled one of `calvin bench`
 * (bench/lib: p50 and p99 with block-bootstrap intervals, the ratios to
 * REF with theirs), and one of the rounds: the median over rounds of each
 * round's p50, p99 and p99.9 with a bootstrap interval of that median, and
 * the median over rounds of the round's p99 over REF's p99 of the same
 * round (REF ran beside it, so both saw that round's load). Exit 0, or 1
 * when a log does not parse (named on stderr), 2 for bad use.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/lib/bench_lib.h"

#define MAX_CONFIGS 32
#define MAX_ROUNDS 64

static const struct calvin_bootstrap pooled = {
	.reps = 1000, .level = 0.95, .block = 32, .seed = 1
};
/* the rounds' values are few and independent of each other */
static const struct calvin_bootstrap rounds = {
	.reps = 1000, .level = 0.95, .block = 1, .seed = 1
};

static struct calvin_bench_series series[MAX_CONFIGS];
static size_t nr_series;

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0) {
		rewind(f);
		text = malloc((size_t)n);
		if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
			free(text);
			text = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return text;
}

/* RTTs in ns, one per line: how many, or -EINVAL for a line that is not
 * one, -ENOMEM. */
static long ns_lines(const char *text, size_t len, struct calvin_bench_series *s, unsigned int r)
{
	const char *p = text, *end = text + len;
	long n = 0;
	char *e;
	double v;

	while (p < end) {
		v = strtod(p, &e);
		if (e == p || e >= end || *e != '\n' || v < 0)
			return -EINVAL;
		if (calvin_bench_series_add(s, v, r))
			return -ENOMEM;
		n++;
		p = e + 1;
	}
	return n;
}

static struct calvin_bench_series *series_of(const char *config, const char *label)
{
	size_t i;

	for (i = 0; i < nr_series; i++)
		if (!strcmp(series[i].config, config))
			return &series[i];
	if (nr_series == MAX_CONFIGS)
		return NULL;
	calvin_bench_series_init(&series[nr_series], config, label, "sockperf-rtt");
	series[nr_series].ordered = true;
	return &series[nr_series++];
}

static int read_list(FILE *in)
{
	char line[1024], config[CALVIN_BENCH_KEY_MAX], path[512], label[CALVIN_BENCH_LABEL_MAX];
	struct calvin_bench_series *s;
	unsigned int round;
	size_t len = 0;
	char *text;
	long got;

	while (fgets(line, sizeof(line), in)) {
		label[0] = 0;
		if (sscanf(line, "%47s %u %511s %95[^\n]", config, &round, path, label) < 3 ||
		    !round || round > MAX_ROUNDS) {
			fprintf(stderr, "rounds_table: bad list line '%s'\n", line);
			return 2;
		}
		s = series_of(config, label[0] ? label : config);
		if (!s)
			return 2;
		text = slurp(path, &len);
		got = text ? calvin_sockperf_log(text, len, s, round) : -EIO;
		if (got == -EINVAL)
			got = ns_lines(text, len, s, round);
		free(text);
		if (got <= 0) {
			fprintf(stderr,
				"rounds_table: %s: neither a sockperf full log nor RTTs (%ld)\n",
				path, got);
			return 1;
		}
	}
	return 0;
}

/* st of the samples of round r (0: none), into *out. */
static int round_stat(const struct calvin_bench_series *s, unsigned int r, enum calvin_stat st,
		      double *buf, double *scratch, double *out)
{
	size_t i, n = 0;

	for (i = 0; i < s->n; i++)
		if (s->round[i] == r)
			buf[n++] = s->v[i];
	if (!n)
		return 0;
	*out = calvin_stat(st, buf, n, scratch);
	return 1;
}

/* "12.3us [11.9, 12.8]" of the median of the rounds' values. */
static void median_ci(char *out, size_t len, const double *v, size_t n, bool ns)
{
	struct calvin_ci ci;

	if (!n || calvin_bootstrap_ci(&rounds, CALVIN_STAT_P50, v, n, &ci)) {
		snprintf(out, len, "-");
		return;
	}
	if (ns)
		calvin_bench_fmt_ci_ns(out, len, &ci);
	else
		calvin_bench_fmt_ci_ratio(out, len, &ci, false);
}

static int rounds_row(const struct calvin_bench_series *s, const struct calvin_bench_series *ref,
		      double *buf, double *scratch)
{
	static const enum calvin_stat st[] = { CALVIN_STAT_P50, CALVIN_STAT_P99, CALVIN_STAT_P999 };
	double v[3][MAX_ROUNDS], ratio[MAX_ROUNDS], x, y;
	char cell[4][96];
	size_t n[3] = { 0 }, nr = 0, k;
	unsigned int r;

	for (r = 1; r <= MAX_ROUNDS; r++) {
		for (k = 0; k < 3; k++)
			if (round_stat(s, r, st[k], buf, scratch, &x))
				v[k][n[k]++] = x;
		if (ref && round_stat(s, r, CALVIN_STAT_P99, buf, scratch, &x) &&
		    round_stat(ref, r, CALVIN_STAT_P99, buf, scratch, &y) && y > 0)
			ratio[nr++] = x / y;
	}
	for (k = 0; k < 3; k++)
		median_ci(cell[k], sizeof(cell[k]), v[k], n[k], true);
	median_ci(cell[3], sizeof(cell[3]), ratio, nr, false);
	printf("| %s | %zu | %s | %s | %s | %s |\n", s->label, n[0], cell[0], cell[1], cell[2],
	       ref ? cell[3] : "(reference)");
	return 0;
}

int main(int argc, char **argv)
{
	struct calvin_bench_series *ref = NULL;
	double *buf, *scratch;
	size_t i, most = 0;
	int rc;

	if (argc != 2) {
		fprintf(stderr,
			"usage: rounds_table REF < LIST (lines: CONFIG ROUND FILE LABEL)\n");
		return 2;
	}
	rc = read_list(stdin);
	if (rc)
		return rc;
	for (i = 0; i < nr_series; i++) {
		if (!strcmp(series[i].config, argv[1]))
			ref = &series[i];
		most = series[i].n > most ? series[i].n : most;
	}
	if (!ref) {
		fprintf(stderr, "rounds_table: no samples of the reference '%s'\n", argv[1]);
		return 1;
	}
	for (i = 0; i < nr_series; i++)
		series[i].ref = &series[i] == ref ? -1 : (int)(ref - series);
	if (calvin_bench_latency_table(stdout, series, nr_series, CALVIN_BENCH_RATIO, &pooled))
		return 1;
	buf = malloc((most + 1) * sizeof(*buf));
	scratch = malloc((most + 1) * sizeof(*scratch));
	if (!buf || !scratch)
		return 1;
	printf("\n| configuration | rounds | p50, median of rounds [95%% CI] | p99, median "
	       "of rounds [95%% CI] | p99.9, median of rounds [95%% CI] | p99 / %s's p99 of the "
	       "same round, median [95%% CI] |\n|---|---:|---:|---:|---:|---:|\n",
	       ref->config);
	for (i = 0; i < nr_series; i++)
		rounds_row(&series[i], &series[i] == ref ? NULL : ref, buf, scratch);
	free(buf);
	free(scratch);
	for (i = 0; i < nr_series; i++)
		calvin_bench_series_free(&series[i]);
	return 0;
}
