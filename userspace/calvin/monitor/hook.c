// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The breach hook: the chain file's argv, run as root without a shell,
 * the event JSON on its standard input, killed (its whole process group)
 * at its deadline, its end logged as an event. The chain file is root's
 * input, so the program is checked the way key files are (nobody but root
 * or us may have changed it or the folders that lead to it), and run from
 * the descriptor that was checked, never from its path again. */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "events/events.h"
#include "monitor/monitor.h"
#include "util.h"

/* Not root's, not ours, or writable by someone else: another user could
 * have put their program there. */
static int check_owner(const struct stat *st, const char *what, const char *path, char *why,
		       size_t len)
{
	if (st->st_uid != 0 && st->st_uid != geteuid()) {
		snprintf(why, len,
			 "hook %s: %s belongs to uid %u, who could change what root runs; use a "
			 "program and folders of root's",
			 path, what, (unsigned int)st->st_uid);
		return -EPERM;
	}
	return 0;
}

static int check_folders(const char *path, char *why, size_t len)
{
	char dir[PATH_MAX];
	struct stat st;
	char *slash;
	int err;

	snprintf(dir, sizeof(dir), "%s", path);
	while ((slash = strrchr(dir, '/'))) {
		slash[slash == dir] = 0; /* "/x" leaves "/" */
		if (lstat(dir, &st)) {
			snprintf(why, len, "hook %s: cannot check folder %s: %s", path, dir,
				 strerror(errno));
			return -errno;
		}
		err = check_owner(&st, dir, path, why, len);
		if (err)
			return err;
		/* a sticky folder (/tmp) keeps others from renaming ours */
		if ((st.st_mode & 022) && !(st.st_mode & S_ISVTX)) {
			snprintf(why, len,
				 "hook %s: folder %s may be written by %s, who could replace the "
				 "program; chmod go-w %s",
				 path, dir, st.st_mode & 002 ? "others" : "its group", dir);
			return -EPERM;
		}
		if (!strcmp(dir, "/"))
			break;
	}
	return 0;
}

static int check_program(int fd, const char *path, char *why, size_t len)
{
	struct stat st;
	int err;

	if (fstat(fd, &st))
		return -errno;
	/* O_PATH | O_NOFOLLOW opens a link itself rather than failing */
	if (S_ISLNK(st.st_mode)) {
		snprintf(why, len, "hook %s: a symbolic link; give the program itself", path);
		return -ELOOP;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, len, "hook %s: not a regular file; give the program itself", path);
		return -EPERM;
	}
	err = check_owner(&st, "the program", path, why, len);
	if (err)
		return err;
	if (st.st_mode & 022) {
		snprintf(why, len,
			 "hook %s: may be written by %s, who could change what root runs; chmod "
			 "go-w %s",
			 path, st.st_mode & 002 ? "others" : "its group", path);
		return -EPERM;
	}
	if (!(st.st_mode & S_IXUSR)) {
		snprintf(why, len, "hook %s: not executable; chmod u+x %s", path, path);
		return -EACCES;
	}
	return 0;
}

/* The checked program, open (O_PATH), or -errno with why. */
static int open_checked(const char *path, char *why, size_t len)
{
	int fd, err;

	if (path[0] != '/') {
		snprintf(why, len, "hook %s: not an absolute path; give the program's full path",
			 path);
		return -EINVAL;
	}
	fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(why, len, "hook %s: %s%s", path, strerror(errno),
			 errno == ELOOP ? " (a symbolic link: give the program itself)" : "");
		return err;
	}
	err = check_program(fd, path, why, len);
	if (!err)
		err = check_folders(path, why, len);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

int mon_hook_check(const char *path, char *why, size_t len)
{
	int fd = open_checked(path, why, len);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* In the child: its own session (so the deadline kills all it started),
 * the event on stdin, no descriptor of ours, default signals, a plain
 * environment; then the checked file itself. */
static void child(const struct calvin_monitor_spec *s, const char *chain, int prog, int in)
{
	char *argv[CALVIN_HOOK_MAX_ARGS + 1], env_chain[64];
	char *envp[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "CALVIN_EVENT=breach", env_chain,
			 NULL };
	sigset_t none;
	unsigned int i;
	int sig;

	setsid();
	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* its output joins the monitor's log, never the windows' lines */
	if (dup2(in, STDIN_FILENO) < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0 ||
	    dup2(prog, 3) < 0)
		_exit(126);
	syscall(SYS_close_range, 4U, ~0U, 0U);
	umask(077);
	snprintf(env_chain, sizeof(env_chain), "CALVIN_CHAIN=%s", chain);
	for (i = 0; i < s->nr_hook; i++)
		argv[i] = (char *)s->hook[i];
	argv[i] = NULL;
	/* fd 3 stays open (dup2 clears close-on-exec): a script's
	 * interpreter reads it as /dev/fd/3 */
	syscall(SYS_execveat, 3, "", argv, envp, AT_EMPTY_PATH);
	_exit(127);
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Wait for pid until the deadline; kill its group there. *killed says so. */
static int reap(pid_t pid, uint64_t timeout_ms, bool *killed)
{
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0), status = 0;
	struct pollfd p = { .fd = pfd, .events = POLLIN };
	uint64_t end = mono_ms() + timeout_ms, now;
	struct timespec nap = { .tv_sec = 0, .tv_nsec = 10000000 };

	*killed = false;
	while ((now = mono_ms()) < end) {
		if (pfd >= 0 ? poll(&p, 1, (int)(end - now)) > 0
			     : waitpid(pid, &status, WNOHANG) == pid)
			break;
		if (pfd < 0) /* no pidfd: look every 10 ms */
			nanosleep(&nap, NULL);
	}
	if (pfd >= 0 ? waitpid(pid, &status, WNOHANG) != pid : mono_ms() >= end) {
		/* still running at its deadline */
		*killed = kill(-pid, SIGKILL) == 0 || kill(pid, SIGKILL) == 0;
		waitpid(pid, &status, 0);
	}
	if (pfd >= 0)
		close(pfd);
	return status;
}

static void log_end(struct mon_hook *h, int status, bool killed, const char *why, uint64_t took_ms)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "program", json_object_new_string(h->spec->hook[0]));
	if (why) {
		json_object_object_add(o, "error", json_object_new_string(why));
	} else {
		if (WIFEXITED(status))
			json_object_object_add(o, "exit_status",
					       json_object_new_int(WEXITSTATUS(status)));
		if (WIFSIGNALED(status))
			json_object_object_add(o, "signal", json_object_new_int(WTERMSIG(status)));
		json_object_object_add(o, "killed_at_deadline", json_object_new_boolean(killed));
		json_object_object_add(o, "ms", json_object_new_uint64(took_ms));
	}
	events_append(h->chain, "hook", o);
	json_object_put(o);
	pthread_mutex_lock(&h->m->lock);
	h->m->hook_killed += killed;
	h->m->hook_failed += why || killed || !WIFEXITED(status) || WEXITSTATUS(status);
	pthread_mutex_unlock(&h->m->lock);
}

static void run_one(struct mon_hook *h, const char *event)
{
	uint64_t t0 = mono_ms();
	int prog, in[2], status;
	char why[512];
	bool killed;
	pid_t pid;

	pthread_mutex_lock(&h->m->lock);
	h->m->hook_runs++;
	pthread_mutex_unlock(&h->m->lock);
	prog = open_checked(h->spec->hook[0], why, sizeof(why));
	if (prog < 0) {
		calvin_err("%s", why);
		log_end(h, 0, false, why, 0);
		return;
	}
	if (pipe2(in, O_CLOEXEC)) {
		close(prog);
		return;
	}
	pid = fork();
	if (pid == 0)
		child(h->spec, h->chain, prog, in[0]);
	close(prog);
	close(in[0]);
	/* SIGPIPE is ignored: a hook that does not read costs it its input */
	if (pid > 0 && write(in[1], event, strlen(event)) >= 0)
		(void)!write(in[1], "\n", 1);
	close(in[1]);
	if (pid < 0) {
		snprintf(why, sizeof(why), "hook %s: cannot fork: %s", h->spec->hook[0],
			 strerror(errno));
		log_end(h, 0, false, why, 0);
		return;
	}
	status = reap(pid, h->spec->hook_timeout_ns / 1000000, &killed);
	log_end(h, status, killed, NULL, mono_ms() - t0);
}

static void *hook_thread(void *arg)
{
	struct mon_hook *h = arg;
	char *event;

	pthread_mutex_lock(&h->lock);
	for (;;) {
		while (!h->pending && !h->stop)
			pthread_cond_wait(&h->cond, &h->lock);
		if (h->stop)
			break;
		event = h->pending;
		h->pending = NULL;
		h->busy = true;
		pthread_mutex_unlock(&h->lock);
		run_one(h, event);
		free(event);
		pthread_mutex_lock(&h->lock);
		h->busy = false;
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

int mon_hook_start(struct mon_hook *h, const char *chain, const struct calvin_monitor_spec *spec,
		   struct mon_metrics *m)
{
	memset(h, 0, sizeof(*h));
	h->spec = spec;
	h->chain = chain;
	h->m = m;
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->cond, NULL);
	if (!spec->nr_hook)
		return 0;
	if (pthread_create(&h->thread, NULL, hook_thread, h))
		return -EAGAIN;
	h->running = true;
	return 0;
}

bool mon_hook_fire(struct mon_hook *h, const char *event)
{
	bool taken = false;

	if (!h->running)
		return false;
	pthread_mutex_lock(&h->lock);
	if (!h->busy && !h->pending) {
		h->pending = strdup(event);
		taken = h->pending != NULL;
		pthread_cond_signal(&h->cond);
	}
	pthread_mutex_unlock(&h->lock);
	if (!taken) {
		pthread_mutex_lock(&h->m->lock);
		h->m->hook_skipped++;
		pthread_mutex_unlock(&h->m->lock);
	}
	return taken;
}

/* A hook that runs is given until its deadline, then killed: stopping
 * waits at most that long. */
void mon_hook_stop(struct mon_hook *h)
{
	if (h->running) {
		pthread_mutex_lock(&h->lock);
		h->stop = true;
		pthread_cond_signal(&h->cond);
		pthread_mutex_unlock(&h->lock);
		pthread_join(h->thread, NULL);
	}
	free(h->pending);
	pthread_mutex_destroy(&h->lock);
	pthread_cond_destroy(&h->cond);
}

int monitor_check_hook(const struct calvin_chain_spec *spec)
{
	const struct calvin_monitor_spec *m = &spec->monitor;
	char why[512];

	if (!m->nr_hook || !mon_hook_check(m->hook[0], why, sizeof(why)))
		return 0;
	calvin_err("%s:%d:%d: %s", spec->path, m->hook_pos.line, m->hook_pos.col, why);
	return CALVIN_EXIT_USAGE;
}
