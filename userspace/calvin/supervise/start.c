// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Starting and stopping a chain's supervisor, and the key ring it gets
 * from `up` through an inherited pipe. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/close_range.h>

#include "backend.h"
#include "commands.h"
#include "jout.h"
#include "supervise.h"
#include "util.h"
#include "util/util.h"

#define SUPERVISOR_STOP_MS 2000

/* The ring as records of (path length, path, key), in a pipe the child
 * inherits; the whole ring is far below a pipe's capacity. */
static int keys_pipe(const struct calvin_keyring *keys)
{
	static uint8_t buf[CALVIN_KEYRING_MAX * (4 + PATH_MAX + CALVIN_KEY_LEN)];
	size_t n = 0, len;
	unsigned int i;
	int p[2], err = 0;

	for (i = 0; keys && i < keys->nr; i++) {
		len = strlen(keys->e[i].path);
		if (len >= PATH_MAX)
			return -ENAMETOOLONG;
		memcpy(buf + n, &(uint32_t){ (uint32_t)len }, 4);
		memcpy(buf + n + 4, keys->e[i].path, len);
		memcpy(buf + n + 4 + len, keys->e[i].key->key, CALVIN_KEY_LEN);
		n += 4 + len + CALVIN_KEY_LEN;
	}
	if (n > 65536)
		return -E2BIG;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	if (n && write(p[1], buf, n) != (ssize_t)n)
		err = -EIO;
	explicit_bzero(buf, n);
	close(p[1]);
	if (err) {
		close(p[0]);
		return err;
	}
	return p[0];
}

/* In the child: wait for the go (the journal names us by then), then
 * become `calvin supervise CHAIN`. EOF: the caller died first. */
static void supervisor_child(struct chain_state *s, int go, int keys, const char *log)
{
	char exe[PATH_MAX], fd[16], c;
	ssize_t n;

	close(s->fd);
	child_detach(log);
	if (read(go, &c, 1) != 1)
		_exit(1);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		_exit(127);
	exe[n] = '\0';
	snprintf(fd, sizeof(fd), "%d", keys);
	setenv(SUPERVISOR_KEYS_ENV, fd, 1);
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	fcntl(keys, F_SETFD, 0);
	execl(exe, "calvin", "supervise", s->chain, (char *)NULL);
	fprintf(stderr, "calvin: cannot run %s: %s\n", exe, strerror(errno));
	_exit(127);
}

bool supervise_off;

int supervise_start(struct chain_state *s, const struct calvin_keyring *keys)
{
	char log[PATH_MAX];
	int go[2], kfd, err;
	pid_t pid;

	/* journalled as unsupervised: a supervisor of PID 0, its "start" the
	 * journal's length, so a later mark is not taken for an earlier one
	 * (the journal holds an entry once) */
	if (supervise_off)
		return state_add(s, ST_SUPERVISOR, s->chain, NULL, 0, s->nr);
	err = state_file(log, sizeof(log), s->chain, ".d/" SUPERVISOR_LOG);
	if (err)
		return err;
	kfd = keys_pipe(keys);
	if (kfd < 0) {
		calvin_err("cannot hand the keys to the supervisor of %s: %s", s->chain,
			   strerror(-kfd));
		return kfd;
	}
	if (pipe2(go, O_CLOEXEC) < 0) {
		err = -errno;
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		goto out;
	}
	if (pid == 0) {
		close(go[1]);
		supervisor_child(s, go[0], kfd, log);
	}
	close(go[0]);
	err = state_add(s, ST_SUPERVISOR, s->chain, NULL, pid, proc_start_time(pid));
	if (err)
		kill(pid, SIGKILL);
	else if (write(go[1], "g", 1) != 1)
		err = -EIO;
	close(go[1]);
	if (err)
		calvin_err("cannot start the supervisor of %s: %s", s->chain, strerror(-err));
out:
	close(kfd);
	return err;
}

int supervise_attach(const struct calvin_chain_spec *spec, const struct calvin_keyring *keys)
{
	struct chain_state *st;
	int err;

	st = malloc(sizeof(*st));
	if (!st)
		return CALVIN_EXIT_FAIL;
	err = supervise_off ? state_peek(st, spec->name) : 0;
	if (!err && supervise_off && supervise_running(st)) {
		/* unlocked: the supervisor may be journalling a restart */
		supervise_stop(st);
		if (!calvin_json)
			printf("chain %s: its supervisor is stopped\n", spec->name);
		jw_bool(jout(), "supervisor_stopped", true);
	}
	if (!err)
		err = state_open(st, spec->name);
	if (!err && supervise_off) {
		if (!supervise_unwanted(st))
			err = supervise_start(st, keys);
	} else if (!err && !supervise_running(st)) {
		/* the data path is left alone: the VNFs keep running */
		err = supervise_start(st, keys);
		if (!err && !calvin_json)
			printf("chain %s: a new supervisor watches it\n", spec->name);
		jw_bool(jout(), "supervisor_attached", !err);
	}
	state_close(st, false);
	free(st);
	return err ? CALVIN_EXIT_FAIL : 0;
}

bool supervise_unwanted(const struct chain_state *s)
{
	unsigned int i;

	for (i = s->nr; i-- > 0;)
		if (s->e[i].kind == ST_SUPERVISOR)
			return !s->e[i].pid;
	return false;
}

pid_t supervise_running(const struct chain_state *s)
{
	unsigned int i;

	for (i = s->nr; i-- > 0;)
		if (s->e[i].kind == ST_SUPERVISOR)
			return proc_is(s->e[i].pid, s->e[i].start) ? s->e[i].pid : 0;
	return 0;
}

void supervise_stop(const struct chain_state *s)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (s->e[i].kind == ST_SUPERVISOR)
			proc_stop(s->e[i].pid, s->e[i].start, SUPERVISOR_STOP_MS);
}

static int keys_from_fd(int fd, struct calvin_keyring *ring)
{
	static uint8_t buf[CALVIN_KEYRING_MAX * (4 + PATH_MAX + CALVIN_KEY_LEN)];
	size_t n = 0, at = 0;
	uint32_t len;
	ssize_t r;
	int err = 0;

	while ((r = read(fd, buf + n, sizeof(buf) - n)) > 0)
		n += (size_t)r;
	close(fd);
	while (!err && at + 4 <= n) {
		memcpy(&len, buf + at, 4);
		if (len >= PATH_MAX || at + 4 + len + CALVIN_KEY_LEN > n ||
		    ring->nr == CALVIN_KEYRING_MAX) {
			err = -EINVAL;
			break;
		}
		ring->e[ring->nr].path = strndup((char *)buf + at + 4, len);
		ring->e[ring->nr].key = calvin_key_new();
		if (!ring->e[ring->nr].path || !ring->e[ring->nr].key) {
			free(ring->e[ring->nr].path);
			calvin_key_free(ring->e[ring->nr].key);
			err = -ENOMEM;
			break;
		}
		memcpy(ring->e[ring->nr].key->key, buf + at + 4 + len, CALVIN_KEY_LEN);
		ring->nr++;
		at += 4 + len + CALVIN_KEY_LEN;
	}
	explicit_bzero(buf, n);
	if (err)
		calvin_keyring_clear(ring);
	return err;
}

int supervise_keys_read(const struct calvin_chain_spec *spec, struct calvin_keyring *ring)
{
	const char *fd = getenv(SUPERVISOR_KEYS_ENV);
	int err;

	if (!fd)
		return deploy_keys_load(spec, ring);
	unsetenv(SUPERVISOR_KEYS_ENV);
	err = keys_from_fd(atoi(fd), ring);
	if (err) {
		calvin_err("cannot read the keys `up` handed over: %s", strerror(-err));
		return CALVIN_EXIT_FAIL;
	}
	return 0;
}
