// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The report directory of `calvin bench`: report.md, samples.csv, the
 * gnuplot script MODE.gp and its pictures (PNG and SVG), and the machine
 * the figures were measured on. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "bench.h"
#include "util.h"

/* The intervals of the latency tables: 1000 resamples, circular blocks
 * of 32 probes (32 ms at 1000/s: a slow spell of the machine spans
 * several probes), 95% */
static const struct calvin_bootstrap bench_bootstrap = {
	.reps = 1000, .level = 0.95, .block = 32, .seed = 1
};

/* The first line of a file, "" when there is none. */
static void first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

void bench_describe_machine(struct bench *b)
{
	char iso[256], nohz[256], rec[PATH_MAX];
	enum calvin_placement given = b->spec.placement;
	struct calvin_plan plan;
	char cpus[64] = "";

	first_line("/sys/devices/system/cpu/isolated", iso, sizeof(iso));
	first_line("/sys/devices/system/cpu/nohz_full", nohz, sizeof(nohz));
	snprintf(rec, sizeof(rec), "%s/isolation.host", calvin_run_dir());
	b->spec.placement = CALVIN_PLACE_ISOLATED;
	if (!make_plan(&b->spec, &plan, NULL) && !calvin_cpumask_empty(&plan.isolate))
		calvin_cpumask_list(&plan.isolate, cpus, sizeof(cpus));
	b->spec.placement = given;
	snprintf(b->isolation, sizeof(b->isolation),
		 "isolcpus= %.64s, nohz_full= %.64s at boot; calvin's run-time isolation %s at "
		 "start%s%s%s",
		 iso[0] ? iso : "none", nohz[0] ? nohz : "none",
		 access(rec, F_OK) == 0 ? "active (another chain's)" : "not active",
		 cpus[0] ? "; placement isolated isolates CPU " : "", cpus,
		 cpus[0] ? " at run time, for its rounds" : "");
	first_line("/proc/loadavg", b->load0, sizeof(b->load0));
	if (b->spec.backend == CALVIN_BACKEND_NETNS) {
		snprintf(b->accel, sizeof(b->accel),
			 "network namespaces on the host (no VMs, no accelerator)");
	} else if (!backend_describe(&b->spec, b->accel, sizeof(b->accel))) {
		snprintf(b->accel, sizeof(b->accel), "VMs (accelerator unknown)");
	}
	/* the libvirt backend's line says "under TCG" for the emulator */
	b->emulated = strstr(b->accel, "under TCG") != NULL;
}

void bench_md_header(struct bench *b, FILE *f, const char *settings)
{
	char date[32], host[512], load[160], now[64];
	struct calvin_bench_meta m = { 0 };
	time_t t = time(NULL);
	struct tm tm;

	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	report_host_line(host, sizeof(host));
	first_line("/proc/loadavg", now, sizeof(now));
	snprintf(load, sizeof(load),
		 "%.14s at start, %.14s at the end (1, 5, 15 minutes; a "
		 "shared machine: read medians and ratios)",
		 b->load0, now);
	m.mode = b->mode->name;
	m.chain = b->spec.name;
	m.date = date;
	m.command = b->command;
	m.host = host;
	m.isolation = b->isolation;
	m.accel = b->accel;
	m.emulated = b->emulated;
	m.rounds = b->rounds;
	m.settings = settings;
	m.load = load;
	calvin_bench_md_header(f, &m);
}

int bench_report_open(struct bench *b)
{
	int rc = outdir_open(&b->dir, b->outdir);

	return rc ? rc : outdir_sub(&b->dir, "chains", &b->chains);
}

int bench_deployed_open(struct bench *b)
{
	struct outdir *d = &b->deployed;
	int err;

	/* '_' is in no chain's name, so no chain's state file meets it */
	snprintf(d->path, sizeof(d->path), "%s/bench_chains", calvin_run_dir());
	d->uid = geteuid();
	d->gid = getegid();
	/* a killed bench's files are of no use: start empty */
	err = rm_rf(d->path);
	if (!err && mkdir(d->path, 0700) < 0)
		err = -errno;
	d->fd = err ? -1 : open(d->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (!err && d->fd < 0)
		err = -errno;
	if (err) {
		calvin_err("cannot make %s: %s", d->path, strerror(-err));
		return CALVIN_EXIT_FAIL;
	}
	return 0;
}

void bench_folders_close(struct bench *b)
{
	outdir_close(&b->chains);
	outdir_close(&b->dir);
	if (b->deployed.fd >= 0) {
		outdir_close(&b->deployed);
		rm_rf(b->deployed.path);
	}
}

static bool any_samples(const struct bench *b)
{
	size_t i;

	for (i = 0; i < b->nr_series; i++)
		if (b->series[i].n)
			return true;
	return false;
}

int bench_files(struct bench *b, const char *plot_title,
		void (*write_md)(struct bench *b, FILE *f, bool pictures), bool interrupted)
{
	bool pictures = false, samples = any_samples(b);
	char script[64];
	FILE *f;
	size_t i;

	for (i = 0; i < b->nr_series; i++) {
		if (b->series[i].n)
			continue;
		calvin_bench_series_why(&b->series[i], "%s",
					interrupted
					    ? "interrupted before it was measured"
					    : "no round measured it (calvin's messages said "
					      "why)");
		b->incomplete = true;
	}

	snprintf(script, sizeof(script), "%s.gp", b->mode->name);
	/* throughput's trials are rates, in CSV files of its own */
	if (samples) {
		if (!(f = outdir_file(&b->dir, "samples.csv")))
			return CALVIN_EXIT_FAIL;
		calvin_bench_csv(f, b->series, b->nr_series);
		fclose(f);
	}
	if (samples || b->mode->plot) {
		if (!(f = tmpfile()))
			return CALVIN_EXIT_FAIL;
		calvin_bench_gnuplot(f, b->mode->name, plot_title, b->series, b->nr_series);
		if (b->mode->plot)
			b->mode->plot(b, f);
		pictures = gnuplot_report(&b->dir, script, f, NULL, 0) > 0;
		fclose(f);
		if (!pictures)
			calvin_err("gnuplot could not draw the pictures in %s (-v shows its "
				   "messages)",
				   b->outdir);
	}
	if (!(f = outdir_file(&b->dir, "report.md")))
		return CALVIN_EXIT_FAIL;
	if (interrupted)
		fputs("**Interrupted**: the figures are of the rounds that finished.\n\n", f);
	write_md(b, f, pictures);
	fputs("\n## Files\n\n- `report.md`: this report\n", f);
	if (samples)
		fputs("- `samples.csv`: every sample (config, round, metric, value in ns, count)\n",
		      f);
	fprintf(f,
		"- `%s`: the gnuplot script of the pictures (`gnuplot %s` here)\n- `chains/`: "
		"the chain file of each configuration, as deployed\n",
		script, script);
	if (b->mode->files)
		fputs(b->mode->files, f);
	return fclose(f) ? CALVIN_EXIT_FAIL : 0;
}

void bench_md_results(struct bench *b, FILE *f, bool pictures, enum calvin_bench_compare cmp,
		      const char *what)
{
	char name[64], caption[160];

	if (b->emulated)
		fprintf(f, "%s\n\n", calvin_bench_tcg_warning);
	calvin_bench_latency_table(f, b->series, b->nr_series, cmp, &bench_bootstrap);
	fputc('\n', f);
	if (pictures) {
		snprintf(name, sizeof(name), "%s-cdf", b->mode->name);
		snprintf(caption, sizeof(caption), "%s: CDF per configuration", what);
		calvin_bench_md_picture(f, name, caption);
		snprintf(name, sizeof(name), "%s-box", b->mode->name);
		snprintf(caption, sizeof(caption), "%s per configuration", what);
		calvin_bench_md_picture(f, name, caption);
	}
	fputs(calvin_bench_context(b->mode->name), f);
}
