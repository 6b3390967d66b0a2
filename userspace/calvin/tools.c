// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The programs calvin runs (gnuplot, stress-ng, cyclictest, iperf3,
 * sockperf; network configuration is spoken in-process, nl/): found in
 * the system's own folders by an absolute path, once, never through PATH.
 * calvin runs as root, and PATH is whoever started it: a folder of theirs
 * early in it would run their "iperf3" as root. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static const char *const tool_dirs[] = { "/usr/sbin", "/usr/bin", "/sbin", "/bin" };
#define NR_TOOL_DIRS (sizeof(tool_dirs) / sizeof(tool_dirs[0]))

/* The Debian package of each, for the line that says it is missing. */
static const struct {
	const char *name, *package;
} packages[] = {
	{ "gnuplot", "gnuplot-nox" }, { "stress-ng", "stress-ng" }, { "cyclictest", "rt-tests" },
	{ "iperf3", "iperf3" },	      { "sockperf", "sockperf" },
};

#define MAX_TOOLS 16

static struct {
	char name[32];
	char path[64]; /* "": in none of tool_dirs */
} found[MAX_TOOLS];
static unsigned int nr_found;

/* A regular file someone may execute; root's access(X_OK) says yes to
 * any file with an x bit, which is what exec wants too. */
static bool executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static void resolve(const char *name, char *path, size_t len)
{
	size_t i;

	for (i = 0; i < NR_TOOL_DIRS; i++) {
		snprintf(path, len, "%s/%s", tool_dirs[i], name);
		if (executable(path))
			return;
	}
	path[0] = '\0';
}

const char *tool_path(const char *name)
{
	static char uncached[64];
	unsigned int i;

	if (strchr(name, '/') || strlen(name) >= sizeof(found[0].name))
		return NULL;
	for (i = 0; i < nr_found; i++)
		if (!strcmp(found[i].name, name))
			return found[i].path[0] ? found[i].path : NULL;
	if (nr_found == MAX_TOOLS) { /* more tools than calvin has: look, do not keep */
		resolve(name, uncached, sizeof(uncached));
		return uncached[0] ? uncached : NULL;
	}
	snprintf(found[nr_found].name, sizeof(found[0].name), "%s", name);
	resolve(name, found[nr_found].path, sizeof(found[0].path));
	return found[nr_found++].path[0] ? found[nr_found - 1].path : NULL;
}

const char *tool_package(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(packages) / sizeof(packages[0]); i++)
		if (!strcmp(packages[i].name, name))
			return packages[i].package;
	return name;
}

void tool_missing(const char *name, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%s is not installed: it is in none of /usr/sbin, /usr/bin, /sbin, /bin (Debian "
		 "package %s; make installs it)",
		 name, tool_package(name));
}

const char *tool_need(const char *name)
{
	const char *path = tool_path(name);
	char why[256];

	if (!path) {
		tool_missing(name, why, sizeof(why));
		calvin_err("%s", why);
	}
	return path;
}
