// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Small helpers of the controller: errors, namespaces, files. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/close_range.h>
#include <linux/magic.h>

#include "jout.h"
#include "util.h"

bool calvin_verbose;
volatile sig_atomic_t calvin_quit;
static volatile sig_atomic_t reader_left;

static void on_quit(int sig)
{
	calvin_quit = sig;
}

/* No SA_RESTART: a wait (poll, a VNF's start) returns EINTR and its step
 * ends early. Handlers, unlike SIG_IGN, do not pass to the programs calvin
 * runs: exec resets them. A signal calvin was started with ignored stays
 * ignored (a shell's background job must not take the foreground's
 * Ctrl-C). */
void catch_quit_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	struct sigaction sa = { .sa_handler = on_quit }, old;
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
}

int quit_status(void)
{
	return 128 + calvin_quit;
}

static void on_sigpipe(int sig)
{
	reader_left = 1;
}

void catch_sigpipe(void)
{
	struct sigaction sa = { .sa_handler = on_sigpipe, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
}

int output_done(int rc)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	if (reader_left)
		return rc; /* nothing half-written matters to a reader that left */
	calvin_err("cannot write the output: %s", strerror(errno));
	return rc ? rc : CALVIN_EXIT_FAIL;
}

const char *calvin_run_dir(void)
{
	const char *d = getenv("CALVIN_RUN_DIR");

	return d && *d ? d : "/run/calvin";
}

/* Found from the binary itself, not from the environment: calvin runs as
 * root, and what it loads and starts should not be someone's variable. */
const char *calvin_lib_dir(void)
{
	static char dir[PATH_MAX];
	char vnf[PATH_MAX + 32];
	ssize_t n;
	char *slash;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n <= 0)
		return ".";
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	/* the build tree has calvin-vnf beside calvin; an installed calvin
	 * (PREFIX/sbin) finds it in PREFIX/lib/calvin */
	snprintf(vnf, sizeof(vnf), "%s/calvin-vnf", dir);
	if (access(vnf, X_OK) < 0 && strlen(dir) + sizeof("/../lib/calvin") <= sizeof(dir))
		strcat(dir, "/../lib/calvin");
	return dir;
}

void calvin_err(const char *fmt, ...)
{
	char line[CALVIN_ERR_LINE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "calvin: %s\n", line);
	jout_error(line);
}

void calvin_err_line(const char *line)
{
	fprintf(stderr, "%s\n", line);
	jout_error(line);
}

void calvin_info(const char *fmt, ...)
{
	va_list ap;

	if (!calvin_verbose)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

bool netns_exists(const char *name)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "/run/netns/%s", name);
	return access(p, F_OK) == 0;
}

int netns_sysfs_enter(const char *name)
{
	char p[PATH_MAX];
	int fd, err = 0;

	snprintf(p, sizeof(p), "/run/netns/%s", name);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    setns(fd, CLONE_NEWNET) < 0 ||
	    mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		err = -errno;
	close(fd);
	return err;
}

int netns_enter(const char *name, int *saved)
{
	char p[PATH_MAX];
	int fd, err = 0;

	snprintf(p, sizeof(p), "/run/netns/%s", name);
	*saved = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*saved < 0)
		return -errno;
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		goto close_saved;
	}
	if (setns(fd, CLONE_NEWNET) < 0)
		err = -errno;
	close(fd);
	if (!err)
		return 0;
close_saved:
	close(*saved);
	*saved = -1;
	return err;
}

int netns_leave(int saved)
{
	int err = 0;

	if (saved < 0)
		return 0;
	if (setns(saved, CLONE_NEWNET) < 0)
		err = -errno;
	close(saved);
	return err;
}

int if_index(const char *ifname)
{
	unsigned int i = if_nametoindex(ifname);

	return i ? (int)i : -errno;
}

int if_mac(const char *ifname, uint8_t mac[6])
{
	struct ifreq ifr = { 0 };
	int fd, err = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		err = -errno;
	else
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	close(fd);
	return err;
}

void mac_str(const uint8_t m[6], char out[18])
{
	snprintf(out, 18, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

unsigned long long proc_start_time(pid_t pid)
{
	char p[64], buf[1024], *s;
	unsigned long long st = 0;
	FILE *f;
	int field;

	snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
	f = fopen(p, "re");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return 0;
	}
	fclose(f);
	/* the command name may hold spaces and parentheses: skip past the last ')' */
	s = strrchr(buf, ')');
	if (!s)
		return 0;
	/* s+2 is field 3 (state); field 22 is starttime */
	s += 2;
	for (field = 3; field < 22 && s; field++) {
		s = strchr(s, ' ');
		if (s)
			s++;
	}
	if (s)
		st = strtoull(s, NULL, 10);
	return st;
}

bool proc_is(pid_t pid, unsigned long long st)
{
	unsigned long long now = proc_start_time(pid);
	char p[64], state[64] = "";
	FILE *f;

	if (!now || now != st)
		return false;
	/* a zombie that is not our child still shows in /proc: count it as gone */
	snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
	f = fopen(p, "re");
	if (f) {
		if (fscanf(f, "%*d (%*[^)]) %63s", state) != 1)
			state[0] = '\0';
		fclose(f);
	}
	return state[0] != 'Z';
}

void child_detach(const char *log)
{
	int fd;

	setsid();
	fd = open("/dev/null", O_RDONLY);
	dup2(fd, STDIN_FILENO);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
	}
}

bool proc_stop(pid_t pid, unsigned long long st, int timeout_ms)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int waited;

	if (pid <= 1 || !proc_is(pid, st))
		return false;
	kill(pid, SIGTERM);
	for (waited = 0; waited < timeout_ms; waited += 10) {
		waitpid(pid, NULL, WNOHANG); /* reap it if it was ours */
		if (!proc_is(pid, st))
			return true;
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	for (waited = 0; waited < 2000 && proc_is(pid, st); waited += 10) {
		waitpid(pid, NULL, WNOHANG);
		nanosleep(&ts, NULL);
	}
	return true;
}

int mkdir_p(const char *path, mode_t mode)
{
	char tmp[PATH_MAX], *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	if (remove(path) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

int rm_rf(const char *path)
{
	int err;

	if (!path_exists(path))
		return 0;
	err = nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return err < 0 ? -errno : err;
}

bool path_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

int ensure_bpffs(void)
{
	struct statfs fs;

	if (statfs("/sys/fs/bpf", &fs) == 0 && fs.f_type == BPF_FS_MAGIC)
		return 0;
	if (mkdir_p("/sys/fs/bpf", 0755) < 0 ||
	    mount("bpf", "/sys/fs/bpf", "bpf", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0700") < 0)
		return -errno;
	return 0;
}
