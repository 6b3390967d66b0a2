// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The conventional stack of `calvin bench baseline` and `throughput`: the
 * chain's own topology (the same namespaces and veths, made by the netns
 * backend) with Linux IP forwarding in kernel-VNF nodes, calvin-relay (a
 * UDP socket relay) in user-VNF nodes and calvin-relay's echo at the
 * server (bench/lib/stack_plan.c says who gets which address and route).
 *
 * It is deployed as a chain of the netns backend: the same journal,
 * RUN_DIR/CHAIN.state, names its namespaces, processes and files before
 * they exist, so `calvin down CHAIN` (and the bench journal's recovery)
 * removes it like any chain. It takes no CPU isolation: a relay is pinned
 * to the core the plan gives the VNF it stands for, or not pinned. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/close_range.h>

#include "backend.h"
#include "bench.h"
#include "bench/lib/bench_lib.h"
#include "chain/chain.h"
#include "nodes/nodes.h"
#include "nl/nl.h"
#include "util.h"

#define READY_TIMEOUT_MS 10000

static const char *ifname(bool east)
{
	return east ? IF_EAST : IF_WEST;
}

/* One side of node i: its address, and its neighbour, static (no ARP, as
 * in calvin's chains). */
static int side_setup(const struct deploy *d, const struct calvin_stack_plan *sp, unsigned int i,
		      bool east)
{
	const struct calvin_stack_node *n = &sp->node[i];
	const char *peer_node = d->nodes[east ? i + 1 : i - 1].name;
	char ns[128], cidr[32];
	uint8_t mac[6];
	int err;

	node_netns(ns, sizeof(ns), d->spec->name, d->nodes[i].name);
	err = node_mac_of(d->spec->name, peer_node, ifname(!east), mac);
	if (err)
		return err;
	snprintf(cidr, sizeof(cidr), "%s/%d", east ? n->east : n->west, CALVIN_STACK_PREFIXLEN);
	err = nl_addr_add(ns, ifname(east), cidr);
	return err ? err
		   : nl_neigh_permanent(ns, ifname(east), east ? n->east_peer : n->west_peer, mac);
}

static int node_setup(const struct deploy *d, const struct calvin_stack_plan *sp, unsigned int i)
{
	const struct calvin_stack_node *n = &sp->node[i];
	char ns[128];
	unsigned int r;
	int err = 0;

	node_netns(ns, sizeof(ns), d->spec->name, d->nodes[i].name);
	if (n->west[0])
		err = side_setup(d, sp, i, false);
	if (!err && n->east[0])
		err = side_setup(d, sp, i, true);
	for (r = 0; !err && r < n->nr_routes; r++)
		err = nl_route_add(ns, n->routes[r].prefix, n->routes[r].via,
				   ifname(n->routes[r].east));
	if (err)
		return err;
	if (n->role == CALVIN_STACK_ROUTER || n->role == CALVIN_STACK_RELAY)
		return nsnode_sysctl(ns, "/proc/sys/net/ipv4/ip_forward", "1");
	/* the endpoints as calvin's chains have them: checksums in software */
	return nl_tx_csum_off(ns, ifname(n->role == CALVIN_STACK_PROBE));
}

/* In the child: wait for the go (we are journalled by then), into the
 * node, exec; only the ready fd goes on. */
static void proc_child(int go, int ready, const char *ns, const char *log, char *const argv[])
{
	int saved;
	char c;

	child_detach(log);
	if (read(go, &c, 1) != 1 || netns_enter(ns, &saved) < 0)
		_exit(1);
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	fcntl(ready, F_SETFD, 0);
	execv(argv[0], argv);
	_exit(127);
}

/* calvin-relay (relay or echo) in node i, journalled before it runs,
 * ready once it said so. */
static int relay_start(struct deploy *d, unsigned int i, char **argv)
{
	char ns[128], dir[PATH_MAX], log[PATH_MAX + 64], fdnum[16], buf[16];
	struct pollfd p;
	int go[2], ready[2], err, k;
	pid_t pid;

	node_netns(ns, sizeof(ns), d->spec->name, d->nodes[i].name);
	state_file(dir, sizeof(dir), d->spec->name, ".d");
	snprintf(log, sizeof(log), "%s/%s.relay.log", dir, d->nodes[i].name);
	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(ready, O_CLOEXEC) < 0) {
		err = -errno;
		goto close_go;
	}
	snprintf(fdnum, sizeof(fdnum), "%d", ready[1]);
	for (k = 0; argv[k]; k++)
		if (!strcmp(argv[k], "READY"))
			argv[k] = fdnum;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		goto close_ready;
	}
	if (pid == 0)
		proc_child(go[0], ready[1], ns, log, argv);
	close(ready[1]);
	ready[1] = -1;
	err = state_add(d->state, ST_PROC, ns, NULL, pid, proc_start_time(pid));
	if (err)
		kill(pid, SIGKILL);
	else if (write(go[1], "g", 1) != 1)
		err = -EIO;
	p = (struct pollfd){ .fd = ready[0], .events = POLLIN };
	if (!err && (poll(&p, 1, READY_TIMEOUT_MS) != 1 || read(ready[0], buf, sizeof(buf)) <= 0)) {
		calvin_err("%s: calvin-relay did not start (see %s)", d->nodes[i].name, log);
		err = -EIO;
	}
close_ready:
	close(ready[0]);
	if (ready[1] >= 0)
		close(ready[1]);
close_go:
	close(go[0]);
	close(go[1]);
	return err;
}

/* Relays carry every port of the list; the echo answers only the first
 * (the probe's): other servers (sockperf's) listen on the rest. */
static int relays_start(struct deploy *d, const struct calvin_stack_plan *sp, const char *ports)
{
	char bin[PATH_MAX], cpu[16], probe_port[8];
	unsigned int i;
	int v, err = 0;

	snprintf(bin, sizeof(bin), "%s/calvin-relay", calvin_lib_dir());
	snprintf(probe_port, sizeof(probe_port), "%.*s", (int)strcspn(ports, ","), ports);
	for (i = 1; !err && i < sp->nr_nodes; i++) {
		const struct calvin_stack_node *n = &sp->node[i];
		char *relay[] = { bin,		"relay",
				  "--listen",	(char *)n->west,
				  "--to",	(char *)n->relay_to,
				  "--ports",	(char *)ports,
				  "--ready-fd", "READY",
				  "--cpu",	cpu,
				  NULL };
		char *echo[] = { bin,	    "echo",	"--listen",   (char *)n->west,
				 "--ports", probe_port, "--ready-fd", "READY",
				 NULL };

		if (n->role == CALVIN_STACK_SERVER) {
			err = relay_start(d, i, echo);
			continue;
		}
		if (n->role != CALVIN_STACK_RELAY)
			continue;
		v = (int)d->nodes[i].first_vnf;
		snprintf(cpu, sizeof(cpu), "%d", d->plan->vnf[v].cpu);
		if (d->plan->vnf[v].cpu < 0)
			relay[10] = NULL; /* not pinned: no --cpu */
		err = relay_start(d, i, relay);
	}
	return err;
}

static int deploy(struct deploy *d, const struct calvin_stack_plan *sp, const char *ports)
{
	char path[PATH_MAX];
	unsigned int i;
	int err;

	err = state_add(d->state, ST_BACKEND, BACKEND_NETNS, NULL, 0, 0);
	if (!err)
		err = state_file(path, sizeof(path), d->spec->name, ".d");
	if (!err)
		err = state_add(d->state, ST_PATH, path, NULL, 0, 0);
	if (!err)
		err = mkdir_p(path, 0700);
	for (i = 0; !err && i < d->nr_nodes; i++)
		err = nsnode_create(d, i);
	for (i = 0; !err && i + 1 < d->nr_nodes; i++)
		err = nsnode_link(d, i, i + 1);
	for (i = 0; !err && i < d->nr_nodes; i++)
		err = node_setup(d, sp, i);
	if (!err)
		err = relays_start(d, sp, ports);
	return err ? err : calvin_quit ? -EINTR : 0;
}

int bench_stack_up(struct bench *b, const struct calvin_chain_spec *spec, const char *ports,
		   struct calvin_stack_plan *sp)
{
	struct chain_state state;
	struct calvin_plan plan;
	struct deploy d = { .spec = spec, .state = &state, .plan = &plan };
	bool left;
	int rc, err;

	rc = make_plan(spec, &plan, NULL);
	if (rc)
		return rc;
	d.nr_nodes = calvin_chain_nodes(spec, d.nodes);
	if (calvin_stack_plan(d.nodes, d.nr_nodes, sp)) {
		calvin_err("chain %s: too many nodes for the conventional stack", spec->name);
		return CALVIN_EXIT_USAGE;
	}
	if (bench_journal_chain(&b->journal, spec->name))
		return CALVIN_EXIT_FAIL;
	err = state_create(&state, spec->name);
	if (err) {
		calvin_err("cannot create the state of chain %s: %s", spec->name, strerror(-err));
		return CALVIN_EXIT_FAIL;
	}
	err = deploy(&d, sp, ports);
	if (!err) {
		state_close(&state, false);
		return 0;
	}
	left = chain_undo(backend_of_state(&state), &state) != 0;
	state_close(&state, !left);
	if (!left)
		bench_journal_chain_end(&b->journal, spec->name);
	if (err != -EINTR)
		calvin_err("chain %s on the conventional stack did not come up: %s", spec->name,
			   strerror(-err));
	return CALVIN_EXIT_FAIL;
}
