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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "report.h"
#include "report_files.h"
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

static FILE *open_in(const char *dir, const char *name, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "we");
	if (!f)
		calvin_err("cannot write %s: %s", path, strerror(errno));
	return f;
}

int report_gnuplot_run(const char *dir, const char *script)
{
	int status, null;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			if (!calvin_verbose)
				dup2(null, STDERR_FILENO);
		}
		if (chdir(dir) < 0)
			_exit(126);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

static int write_reports(const char *dir, const struct calvin_chain_spec *spec,
			 const struct calvin_probe_result *r, FILE *raw,
			 struct calvin_report_meta *meta)
{
	char path[PATH_MAX];
	long rows;
	FILE *f;

	if (!(f = open_in(dir, "report.txt", path, sizeof(path))))
		return -EIO;
	calvin_report_text(f, spec, r);
	fclose(f);
	if (!(f = open_in(dir, "report.json", path, sizeof(path))))
		return -EIO;
	calvin_report_json(f, spec, r);
	fclose(f);
	if (!(f = open_in(dir, "samples.csv", path, sizeof(path))))
		return -EIO;
	rewind(raw);
	rows = calvin_raw_to_csv(raw, f, spec, r);
	fclose(f);
	if (rows < 0) {
		calvin_err("cannot convert the probe's records to %s", path);
		return -EIO;
	}
	if (!(f = open_in(dir, "plot.gp", path, sizeof(path))))
		return -EIO;
	calvin_report_gnuplot(f, spec, r);
	fclose(f);
	meta->pictures = rows > 0 && report_gnuplot_run(dir, "plot.gp") == 0;
	if (rows > 0 && !meta->pictures)
		calvin_err("gnuplot could not draw the pictures in %s (is it installed?); the "
			   "report and samples are there",
			   dir);
	if (!(f = open_in(dir, "report.md", path, sizeof(path))))
		return -EIO;
	calvin_report_markdown(f, spec, r, meta);
	return fclose(f) ? -errno : 0;
}

int report_dir_write(const char *dir, const struct calvin_chain_spec *spec,
		     const struct calvin_probe_result *r, FILE *raw, const char *placement,
		     const char *command)
{
	struct calvin_report_meta meta = { .placement = placement, .command = command };
	char date[32], host[512];
	time_t now = time(NULL);
	struct tm tm;
	int err;

	err = mkdir_p(dir, 0755);
	if (err) {
		calvin_err("cannot create report directory %s: %s", dir, strerror(-err));
		return err;
	}
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	report_host_line(host, sizeof(host));
	meta.date = date;
	meta.host = host;
	return write_reports(dir, spec, r, raw, &meta);
}
