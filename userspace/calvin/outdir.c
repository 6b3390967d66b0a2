// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* `calvin probe -o DIR` and `calvin run -o DIR`: the report as files people
 * can look at: report.md (with pictures), report.txt, report.json,
 * samples.csv and plot.gp, the pictures drawn by gnuplot as PNG and SVG. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "measure/measure.h"
#include "outdir.h"
#include "util.h"

/* "2 CPUs, AMD EPYC 7B13, Linux 6.18.44": what a reader needs to weigh
 * the figures. */
void report_host_line(char *buf, size_t len)
{
	char line[256], model[128] = "unknown CPU";
	struct utsname u;
	FILE *f;
	char *p;

	f = fopen("/proc/cpuinfo", "re");
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) || !(p = strchr(line, ':')))
			continue;
		snprintf(model, sizeof(model), "%s", p + 2);
		model[strcspn(model, "\n")] = '\0';
		break;
	}
	if (f)
		fclose(f);
	if (uname(&u) < 0)
		snprintf(u.release, sizeof(u.release), "?");
	snprintf(buf, len, "%ld CPUs online, %s, Linux %s", sysconf(_SC_NPROCESSORS_ONLN), model,
		 u.release);
}

/* samples.csv goes to the folder and beside gnuplot (its CDF reads it). */
static int write_pictures(const struct outdir *d, const struct calvin_chain_spec *spec,
			  const struct calvin_probe_result *r, FILE *csv, long rows)
{
	struct gnuplot_input in = { "samples.csv", fileno(csv) };
	FILE *gp = tmpfile();
	int n = -ENOMEM;

	if (gp) {
		calvin_report_gnuplot(gp, spec, r);
		n = gnuplot_report(d, "plot.gp", gp, &in, 1);
		fclose(gp);
	}
	if (rows > 0 && n <= 0)
		calvin_err("gnuplot could not draw the pictures in %s (-v shows its messages); the "
			   "report and samples are there",
			   d->path);
	return rows > 0 && n > 0;
}

static int write_reports(const struct outdir *d, const struct calvin_chain_spec *spec,
			 const struct calvin_probe_result *r, FILE *raw,
			 struct calvin_report_meta *meta)
{
	FILE *f, *csv;
	long rows;

	if (!(f = outdir_file(d, "report.txt")))
		return -EIO;
	calvin_report_text(f, spec, r);
	fclose(f);
	if (!(f = outdir_file(d, "report.json")))
		return -EIO;
	calvin_report_json(f, spec, r);
	fclose(f);
	if (!(csv = tmpfile()))
		return -errno;
	rewind(raw);
	rows = calvin_raw_to_csv(raw, csv, spec, r);
	if (rows < 0 || fflush(csv) || outdir_copy(d, "samples.csv", fileno(csv))) {
		if (rows < 0)
			calvin_err("cannot convert the probe's records to %s/samples.csv", d->path);
		fclose(csv);
		return -EIO;
	}
	meta->pictures = write_pictures(d, spec, r, csv, rows);
	fclose(csv);
	if (!(f = outdir_file(d, "report.md")))
		return -EIO;
	calvin_report_markdown(f, spec, r, meta);
	return fclose(f) ? -errno : 0;
}

int report_dir_write(const struct outdir *d, const struct calvin_chain_spec *spec,
		     const struct calvin_probe_result *r, FILE *raw, const char *placement,
		     const char *command)
{
	struct calvin_report_meta meta = { .placement = placement, .command = command };
	char date[32], host[512];
	time_t now = time(NULL);
	struct tm tm;
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	report_host_line(host, sizeof(host));
	meta.date = date;
	meta.host = host;
	return write_reports(d, spec, r, raw, &meta);
}
