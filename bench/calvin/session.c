// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* What every mode of `calvin bench` does in a round: a variant of the
 * chain, deployed (journalled, so a killed bench leaves it to the next
 * calvin) and torn down; probes from its probe node; where the run is, on
 * a terminal. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/close_range.h>

#include "backend.h"
#include "bench.h"
#include "chain/chain.h"
#include "isolate/isolate.h"
#include "jout.h"
#include "probe.h"
#include "util.h"

int bench_variant(struct bench *b, const char *key, const struct calvin_spec_override *o,
		  struct calvin_chain_spec *out)
{
	char name[96], path[PATH_MAX + 96];
	size_t len;
	char *text;
	FILE *f;
	int err, fd;

	snprintf(name, sizeof(name), "%s.yaml", key);
	snprintf(path, sizeof(path), "%s/%s", b->deployed.path, name);
	err = calvin_spec_variant(b->text, b->len, &b->spec, o, &text, &len);
	if (err) {
		calvin_err("%s: cannot make its %s variant: %s", b->spec.path, key, strerror(-err));
		return CALVIN_EXIT_FAIL;
	}
	f = outdir_file(&b->deployed, name);
	if (f) {
		fprintf(f, "# %s as `calvin bench %s` ran it as configuration %s\n", b->spec.path,
			b->mode->name, key);
		fwrite(text, 1, len, f);
		err = fclose(f) ? -errno : 0;
		if (err)
			calvin_err("cannot write %s: %s", path, strerror(-err));
	}
	free(text);
	if (!f || err)
		return CALVIN_EXIT_FAIL;
	/* the report's copy is read from the deployed one, never back */
	fd = openat(b->deployed.fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	err = fd < 0 ? -errno : outdir_copy(&b->chains, name, fd);
	if (fd >= 0)
		close(fd);
	return err ? CALVIN_EXIT_FAIL : load_spec(path, out);
}

/* The text a variant was loaded from, read once more: it must still say
 * what bench loaded, or the round is refused. */
static int variant_text(const struct calvin_chain_spec *spec, struct calvin_spec_text *t)
{
	struct calvin_chain_spec *again = malloc(sizeof(*again));
	char err[CALVIN_ERR_MAX];
	int rc = CALVIN_EXIT_FAIL;

	if (!again)
		return rc;
	if (calvin_spec_load_text(spec->path, again, t, err, sizeof(err)))
		fprintf(stderr, "%s\n", err);
	else if (memcmp(again, spec, sizeof(*spec)))
		calvin_err("%s changed while calvin bench ran; run it again", spec->path);
	else
		rc = 0;
	if (rc)
		calvin_spec_text_free(t);
	free(again);
	return rc;
}

int bench_up(struct bench *b, const struct calvin_chain_spec *spec)
{
	struct calvin_spec_text text;
	struct json_object *doc;
	int saved, null, rc;

	if (bench_journal_chain(&b->journal, spec->name)) {
		calvin_err("cannot journal chain %s: %s", spec->name, strerror(errno));
		return CALVIN_EXIT_FAIL;
	}
	rc = variant_text(spec, &text);
	if (rc)
		return rc;
	/* `calvin up`'s own line, once per round, would bury the report;
	 * under -j, its members are not the bench's */
	doc = jout_take();
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved >= 0 && null >= 0 && !calvin_verbose)
		dup2(null, STDOUT_FILENO);
	rc = chain_up(spec, &text);
	calvin_spec_text_free(&text);
	jout_set(doc);
	fflush(stdout);
	if (saved >= 0) {
		dup2(saved, STDOUT_FILENO);
		close(saved);
	}
	if (null >= 0)
		close(null);
	return rc;
}

int bench_down(struct bench *b, const struct calvin_chain_spec *spec)
{
	int rc = chain_down(spec->name);

	if (!rc)
		bench_journal_chain_end(&b->journal, spec->name);
	return rc;
}

bool bench_stopped(void)
{
	return calvin_quit != 0;
}

int bench_rounds(struct bench *b, unsigned int n, bench_round_fn one, void *arg)
{
	unsigned int r, j;
	int rc = 0;

	for (r = 1; !rc && r <= b->rounds && !bench_stopped(); r++)
		for (j = 0; !rc && j < n && !bench_stopped(); j++)
			rc = one(b, (j + r - 1) % n, r, arg);
	return rc;
}

int bench_netns_only(const struct bench *b, const char *mode)
{
	if (b->spec.backend == CALVIN_BACKEND_NETNS)
		return 0;
	calvin_err("%s: calvin bench %s compares namespaces; use a chain with 'backend: netns'",
		   b->spec.path, mode);
	return CALVIN_EXIT_USAGE;
}

void bench_unpin(struct bench *b)
{
	sched_setaffinity(0, sizeof(b->affinity), &b->affinity);
}

void bench_housekeeping(const struct calvin_chain_spec *spec, struct calvin_cpumask *hk)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN), c;

	if (spec->placement != CALVIN_PLACE_SHARED && !chain_housekeeping(spec, hk))
		return;
	memset(hk, 0, sizeof(*hk));
	for (c = 0; c < n && c < CALVIN_MAX_CPUS; c++)
		calvin_cpumask_set(hk, (int)c);
}

/* The probe is housekeeping, as `calvin probe` runs it. */
static void pin_probe(const struct calvin_chain_spec *spec)
{
	struct calvin_cpumask hk;
	cpu_set_t set;
	int c;

	isolation_join_housekeeping();
	if (spec->placement == CALVIN_PLACE_SHARED)
		return;
	bench_housekeeping(spec, &hk);
	CPU_ZERO(&set);
	for (c = 0; c < CALVIN_MAX_CPUS && c < CPU_SETSIZE; c++)
		if (calvin_cpumask_isset(&hk, c))
			CPU_SET(c, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* RTTs of the probe's raw records (seq tx rx ...) into s. */
static int raw_rtts(FILE *raw, struct calvin_bench_series *s, unsigned int round)
{
	unsigned long long seq, tx, rx;
	char line[4096];
	int err = 0;

	rewind(raw);
	while (!err && fgets(line, sizeof(line), raw))
		if (sscanf(line, "%llu %llu %llu", &seq, &tx, &rx) == 3 && rx >= tx)
			err = calvin_bench_series_add(s, (double)(rx - tx), round);
	return err;
}

int bench_probe(struct bench *b, const struct calvin_chain_spec *spec, struct in_addr dst,
		struct calvin_bench_series *s, unsigned int round)
{
	struct calvin_probe_opts o = { .dst = dst };
	struct calvin_probe_result *r;
	int err, saved;
	FILE *raw;

	o.port = (uint16_t)spec->probe.port;
	o.count = b->count;
	o.rate = spec->probe.rate;
	o.mode = spec->probe.mode;
	o.size = spec->probe.size;
	o.max_hops = (uint8_t)(2 * spec->nr_vnfs);
	o.timeout_ns = 1000ULL * 1000 * 1000;
	raw = tmpfile();
	r = calloc(1, sizeof(*r));
	o.raw = raw;
	err = raw && r ? 0 : -ENOMEM;
	if (!err) {
		pin_probe(spec);
		err = backend_of(spec)->node_enter(spec, PROBE_NODE, &saved);
	}
	if (!err) {
		err = calvin_probe_run(&o, r);
		node_leave(saved);
		bench_unpin(b);
	}
	if (!err) {
		fflush(raw);
		err = raw_rtts(raw, s, round);
		s->sent += r->sent;
		s->lost += r->lost;
	}
	free(r);
	if (raw)
		fclose(raw);
	return err;
}

struct calvin_bench_series *bench_series_new(struct bench *b, const char *config, const char *label,
					     const char *metric)
{
	struct calvin_bench_series *s;

	s = realloc(b->series, (b->nr_series + 1) * sizeof(*s));
	if (!s)
		return NULL;
	b->series = s;
	s = &b->series[b->nr_series++];
	calvin_bench_series_init(s, config, label, metric);
	return s;
}

void bench_progress(struct bench *b, const char *fmt, ...)
{
	va_list ap;

	if (!b->progress)
		return;
	fputs("\r\033[K  ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

int bench_node_spawn(const struct calvin_chain_spec *spec, const char *node, char *const argv[],
		     int out_fd, pid_t *pid)
{
	const char *path = argv[0][0] == '/' ? argv[0] : tool_need(argv[0]);
	char *av[BENCH_MAX_ARGS + 1];
	size_t n;

	for (n = 0; argv[n] && n < BENCH_MAX_ARGS; n++)
		av[n] = argv[n];
	if (!path || argv[n])
		return path ? -E2BIG : -ENOENT;
	av[n] = NULL;
	/* by its absolute path: node_exec would look a bare name up in PATH */
	av[0] = (char *)path;
	fflush(stdout);
	*pid = fork();
	if (*pid < 0)
		return -errno;
	if (*pid)
		return 0;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	bench_child_stdio(out_fd);
	_exit(backend_of(spec)->node_exec(spec, node, av));
}

void bench_child_stdio(int out_fd)
{
	int null = open("/dev/null", O_RDWR);

	dup2(null, STDIN_FILENO);
	dup2(out_fd >= 0 ? out_fd : null, STDOUT_FILENO);
	if (!calvin_verbose)
		dup2(null, STDERR_FILENO);
	/* a lock whoever ran calvin holds (flock(1)) must not live on in it */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
}

int bench_node_run(const struct calvin_chain_spec *spec, const char *node, char *const argv[],
		   int out_fd, int timeout_ms)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int status, waited, err;
	pid_t pid;

	err = bench_node_spawn(spec, node, argv, out_fd, &pid);
	if (err)
		return err;
	for (waited = 0; waited < timeout_ms && !calvin_quit; waited += 10) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return calvin_quit ? -EINTR : -ETIMEDOUT;
}

/* Is addr:port (UDP or TCP: type) taken in the current network namespace? */
static bool port_taken(struct in_addr addr, uint16_t port, int type)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr = addr,
				  .sin_port = htons(port) };
	int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);
	bool taken;

	if (fd < 0)
		return false;
	taken = bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 && errno == EADDRINUSE;
	close(fd);
	return taken;
}

int bench_port_wait(const struct calvin_chain_spec *spec, const char *node, struct in_addr addr,
		    uint16_t port, int type, int timeout_ms)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int saved, waited, err;
	bool taken = false;

	err = backend_of(spec)->node_enter(spec, node, &saved);
	if (err)
		return err;
	for (waited = 0; waited < timeout_ms && !calvin_quit; waited += 20) {
		taken = port_taken(addr, port, type);
		if (taken)
			break;
		nanosleep(&ts, NULL);
	}
	node_leave(saved);
	return taken ? 0 : -ETIMEDOUT;
}
