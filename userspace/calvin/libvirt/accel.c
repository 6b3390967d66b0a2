// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* KVM or TCG for a host's VMs. /dev/kvm can be there and still never run a
 * guest (nested virtualisation of a kind that needs special guests: this
 * build machine's guests hang before their first line), so the answer is a
 * test boot: the guest image's kernel under KVM, with no root file system,
 * must reach the end of its boot (its "no root" panic) on the serial
 * console within a few seconds. Otherwise TCG, the emulator, which works
 * everywhere and whose timings say nothing about real hardware.
 *
 * The answer, and what was tried, is cached in the run dir (tmpfs: one
 * test per boot of the host). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lv.h"
#include "util.h"

#define KVM_BOOT_MS 10000
#define BOOT_DONE "Kernel panic"
#define EMULATOR "/usr/bin/qemu-system-x86_64"

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Read the guest's console from fd until BOOT_DONE (1), the deadline (0)
 * or the end of qemu's output (-1). */
static int boot_done(int fd, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;
	char buf[65536];
	size_t have = 0;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t n;

	while (now_ms() < end) {
		if (poll(&p, 1, (int)(end - now_ms())) <= 0)
			continue;
		n = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (n <= 0)
			return -1; /* qemu exited without getting there */
		have += (size_t)n;
		buf[have] = '\0';
		if (strstr(buf, BOOT_DONE))
			return 1;
		if (have > sizeof(buf) / 2) { /* keep the tail, where the marker may straddle */
			memmove(buf, buf + have - 64, 64);
			have = 64;
		}
	}
	return 0;
}

/* Boot kernel under KVM with the serial console on a pipe, as the user
 * libvirt runs QEMU as (the kernel may be a chain file's); see
 * boot_done() for the result. */
static int kvm_boots(const char *kernel, const struct lv_qemu_user *u)
{
	const char *argv[] = { EMULATOR,
			       "-accel",
			       "kvm",
			       "-cpu",
			       "host",
			       "-m",
			       "256",
			       "-nodefaults",
			       "-display",
			       "none",
			       "-no-reboot",
			       "-serial",
			       "stdio",
			       "-monitor",
			       "none",
			       "-kernel",
			       kernel,
			       "-append",
			       "console=ttyS0 quiet panic=-1",
			       NULL };
	int out[2], status, devnull, done = -1;
	pid_t pid;

	if (pipe2(out, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		devnull = open("/dev/null", O_RDWR);
		dup2(devnull, STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		dup2(devnull, STDERR_FILENO);
		if (lv_qemu_become(u))
			_exit(127);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(out[1]);
	if (pid > 0)
		done = boot_done(out[0], KVM_BOOT_MS);
	close(out[0]);
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	return done;
}

/* Decide, with a line saying why. */
static bool probe_kvm(const char *kernel, const struct lv_qemu_user *u, char *why, size_t len)
{
	long long t0 = now_ms();

	if (access("/dev/kvm", R_OK | W_OK)) {
		snprintf(why, len, "/dev/kvm is missing or not usable");
		return false;
	}
	switch (kvm_boots(kernel, u)) {
	case 1:
		snprintf(why, len, "a test boot under KVM finished in %lld ms", now_ms() - t0);
		return true;
	case 0:
		snprintf(why, len,
			 "a test boot under KVM printed no finished boot on the serial console "
			 "within %d s",
			 KVM_BOOT_MS / 1000);
		return false;
	default:
		snprintf(why, len,
			 "qemu -accel kvm -cpu host exited before the guest finished booting");
		return false;
	}
}

/* Cache: "kvm" or "tcg" on the first line, why on the second. */
static int cache_read(const char *path, bool *kvm, char *why, size_t len)
{
	char line[16];
	FILE *f = fopen(path, "re");
	int err = -ENOENT;

	if (!f)
		return err;
	if (fgets(line, sizeof(line), f) && fgets(why, (int)len, f)) {
		why[strcspn(why, "\n")] = '\0';
		*kvm = !strncmp(line, "kvm", 3);
		err = 0;
	}
	fclose(f);
	return err;
}

static void cache_write(const char *path, bool kvm, const char *why)
{
	char tmp[PATH_MAX + 8];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "we");
	if (!f)
		return;
	fprintf(f, "%s\n%s\n", kvm ? "kvm" : "tcg", why);
	if (fclose(f) == 0)
		rename(tmp, path);
}

int lv_accel(const struct calvin_chain_spec *s, bool *kvm, char *why, size_t len)
{
	char cache[PATH_MAX], dir[PATH_MAX], kernel[PATH_MAX + 16], tried[256];
	const struct lv_qemu_user *u;

	if (s->libvirt.accel != CALVIN_ACCEL_AUTO) {
		*kvm = s->libvirt.accel == CALVIN_ACCEL_KVM;
		snprintf(why, len, "the chain file asks for it");
		return 0;
	}
	snprintf(cache, sizeof(cache), "%s/accel", calvin_run_dir());
	if (!cache_read(cache, kvm, why, len))
		return 0;
	lv_image(s, dir, sizeof(dir));
	snprintf(kernel, sizeof(kernel), "%s/vmlinuz", dir);
	if (access(kernel, R_OK) || access(EMULATOR, X_OK)) {
		calvin_err("%s: cannot test KVM: %s missing; run 'make vm-image' (and 'make deps')",
			   s->path, access(EMULATOR, X_OK) ? EMULATOR : kernel);
		return CALVIN_EXIT_USAGE;
	}
	if (lv_qemu_user(s, true, &u))
		return CALVIN_EXIT_USAGE;
	if (u->refused) {
		calvin_err("%s: cannot test KVM: %s", s->path, u->why);
		return CALVIN_EXIT_USAGE;
	}
	*kvm = probe_kvm(kernel, u, tried, sizeof(tried));
	snprintf(why, len, "%s", tried);
	mkdir_p(calvin_run_dir(), 0700);
	cache_write(cache, *kvm, why);
	return 0;
}
