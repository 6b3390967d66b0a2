/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* calvin-agent, the agent in a VNF's VM: what its files share. One agent
 * runs one VNF: the kernel VNF's XDP program on the NICs west and east,
 * or calvin-vnf (DPDK) on them, as the host configures it; or the chain's
 * server (server.c) on its one NIC west. */
#ifndef CALVIN_AGENT_H
#define CALVIN_AGENT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "codec/codec.h"
#include "guest/guest.h"
#include "spec/spec.h"

#define AGENT_PROG "calvin-agent"
#define AGENT_WEST "west"
#define AGENT_EAST "east"

struct agent {
	enum calvin_agent_state state;
	char lib_dir[2048]; /* where calvin-vnf and kernel/ are: our own directory */
	/* the configuration */
	struct calvin_chain_spec spec;
	unsigned int vnf_id;
	bool server; /* the role configure gave: the server, not VNF vnf_id */
	int cpu;
	uint8_t west_peer[6], east_peer[6];
	uint16_t west_mtu, east_mtu;
	/* encrypt, decrypt: the traffic keys of its SAs, from the host's keys
	 * message, in memory only, until start hands them to calvin-vnf */
	struct calvin_sa_set keys;
	bool has_keys;
	uint32_t last_epoch; /* of the keys the last start used: never again */
	/* what start made */
	pid_t vnf_pid;	   /* user VNF: calvin-vnf; 0 if none */
	int vnf_exit;	   /* its wait status once it exited (reaped); -1 while it runs */
	char pin_dir[256]; /* kernel VNF */
	/* counter names point here while a counters answer is built */
	char names[CALVIN_AGENT_MAX_COUNTERS][CALVIN_AGENT_COUNTER_NAME_MAX + 1];
	char telemetry[16384];
};

/* The handlers of the messages that change or read the VNF: 0, or -errno
 * with one line for the user in err. */
int agent_configure(struct agent *a, const struct calvin_agent_configure *c, char *err,
		    size_t errlen);
int agent_keys(struct agent *a, const struct calvin_agent_str *keys, char *err, size_t errlen);
int agent_start(struct agent *a, char *err, size_t errlen);
int agent_stop(struct agent *a, char *err, size_t errlen);
int agent_counters(struct agent *a, struct calvin_agent_counters *out, char *err, size_t errlen);

/* What the agent runs: the VNF's name, or the server's. */
static inline const char *agent_name(const struct agent *a)
{
	return a->server ? a->spec.server.name : a->spec.vnfs[a->vnf_id].name;
}

/* vnf.c: a NIC's MTU (0: leave it). 0 or -errno. */
int agent_set_mtu(const char *ifname, unsigned int mtu);

/* server.c: the role server; configure checks the name is the spec's
 * server, start attaches the reflector. 0, or -errno with a line in err. */
int agent_server_configure(struct agent *a, const struct calvin_agent_configure *c, char *err,
			   size_t errlen);
int agent_server_start(struct agent *a, char *err, size_t errlen);

/* proc.c: the user VNF's process. Does calvin-vnf still run (an exited one
 * is reaped and its status kept in vnf_exit)? */
bool agent_vnf_running(struct agent *a);
/* Its facts as values of a counters answer: vnf.pid (0: none), vnf.exit
 * (its wait status, once it exited), and while it runs vnf.last_cpu,
 * vnf.policy, vnf.priority, vnf.cpus (the guest CPUs 0-63 it may run on,
 * a mask), vnf.locked_kb and vnf.isolated (1: all of them are isolated in
 * the guest). Returns whether it runs. */
bool agent_vnf_values(struct agent *a, struct calvin_agent_counters *out);

#endif /* CALVIN_AGENT_H */
