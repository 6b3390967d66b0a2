/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The node backend interface: everything a chain needs from the place its
 * nodes live. Every subcommand reaches nodes through it, never around it.
 * Each backend is a folder of its own: netns/ (namespaces and veths, the
 * default) and libvirt/ (one VM per VNF). */
#ifndef CALVIN_BACKEND_H
#define CALVIN_BACKEND_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "codec/codec.h"
#include "loader.h"
#include "plan/plan.h"
#include "spec/spec.h"
#include "state.h"

/* Every node names its interface toward the probe "west" and toward the
 * server "east"; the probe has only east, the server only west. */
#define IF_WEST "west"
#define IF_EAST "east"

/* Endpoint addresses inside the chain's own nodes. */
#define PROBE_ADDR "10.70.0.1"
#define SERVER_ADDR "10.70.0.2"
#define CHAIN_PREFIXLEN "24"
/* MTU of links between two VNF VMs: 1500 plus room for a few transforms'
 * headers and tags (NC adds 18 bytes, AEAD 32); netns chains take theirs
 * from the chain's mtu (calvin_inner_mtu()) */
#define INNER_MTU (CALVIN_MTU_DEFAULT + CALVIN_INNER_MTU_EXTRA)

/* The probe node's name; the server's comes from the spec. */
#define PROBE_NODE "probe"

/* One deployment in progress: the spec, its journal, the placement. */
struct deploy {
	const struct calvin_chain_spec *spec;
	/* the bytes spec was parsed from, resolved: what VMs get */
	const struct calvin_spec_text *text;
	struct chain_state *state;
	const struct calvin_plan *plan;
	/* the key files of its encrypt/decrypt VNFs, read once by `up` */
	const struct calvin_keyring *keys;
	/* fresh for each `up`: the salt of the traffic keys of its
	 * encrypt/decrypt pairs (userspace/lib/pair.h); also in the chain's
	 * state directory, CHAIN.d/deploy-random */
	uint8_t deploy_random[CALVIN_DEPLOY_RANDOM_LEN];
	unsigned int nr_nodes;
	struct calvin_node nodes[CALVIN_MAX_NODES];
};

/* What `calvin status` shows of a kernel VNF: per-direction counters and,
 * for an acl, the hits of each rule and of the default action. */
struct kvnf_counters {
	struct calvin_vnf_stats dir[CALVIN_NR_DIRS];
	unsigned int nr_rules;
	uint64_t rule_hits[CALVIN_ACL_MAX_RULES];
	uint64_t default_hits;
};

/* How long calvin waits for a VNF's answer to a status query, from asking
 * to the last byte (its DPDK telemetry socket, a VM's agent): a wedged VNF
 * or guest agent is -ETIMEDOUT after this, and `calvin status` says
 * "NAME: not answering (2 s)" and goes on with the others. */
#define VNF_ANSWER_TIMEOUT_MS 2000
/* The largest answer of a user VNF (DPDK telemetry's own limit). */
#define CALVIN_VNF_ANSWER_MAX 16384

/* Every operation returns 0 or -errno and prints its own one-line error
 * (kernel_stats and user_stats: but -ETIMEDOUT, which status prints). */
struct node_backend {
	const char *name;
	/* Can this host run the chain at all? Runs before anything is created,
	 * by `up` and, offline (no root needed, nothing started or connected
	 * to), by `validate`. Returns an exit code after one line:
	 * CALVIN_EXIT_USAGE for what the user can fix in the file,
	 * CALVIN_EXIT_HOST (host_cannot()) for a valid chain this host cannot
	 * run. */
	int (*check)(const struct calvin_chain_spec *spec, bool offline);
	/* One line about the nodes that plan, up and every report must show
	 * (VMs under an emulator: timings are emulated), in buf; NULL: none.
	 * May be NULL. */
	const char *(*describe)(const struct calvin_chain_spec *spec, char *buf, size_t len);

	/* deployment, in this order; each step journals before it creates */
	int (*node_create)(struct deploy *d, unsigned int node);
	int (*link_create)(struct deploy *d, unsigned int west_node, unsigned int east_node);
	/* addresses, neighbours and offloads of the probe and the server */
	int (*endpoints_setup)(struct deploy *d);
	/* the kernel VNFs of one node, in chain order */
	int (*kernel_node)(struct deploy *d, unsigned int node);
	int (*server)(struct deploy *d);
	int (*user_vnf)(struct deploy *d, unsigned int vnf);

	/* a deployed chain */
	/* Run the calling thread in a node's network (the probe runs in the
	 * probe node); *saved is for node_leave(). */
	int (*node_enter)(const struct calvin_chain_spec *s, const char *node, int *saved);
	/* Replace this process by argv run inside the node; returns only on
	 * failure, with an exit code. */
	int (*node_exec)(const struct calvin_chain_spec *s, const char *node, char *const argv[]);
	int (*kernel_stats)(const struct calvin_chain_spec *s, unsigned int vnf,
			    struct kvnf_counters *out);
	/* a user VNF's counters, as the JSON its telemetry answers: up to
	 * CALVIN_VNF_ANSWER_MAX bytes, untrusted (userspace/lib/guest/guest.h reads
	 * it). Both stats give up after VNF_ANSWER_TIMEOUT_MS with
	 * -ETIMEDOUT: a wedged VNF or guest never hangs `calvin status`. */
	int (*user_stats)(const struct calvin_chain_spec *s, unsigned int vnf, char *json,
			  size_t len);
	/* Where a user VNF runs, read from the node that runs it (a VM's
	 * agent); 0, -ETIMEDOUT (unprinted) or -errno. NULL: a process of
	 * the host's own, found through the journal (isolate/status.c). */
	int (*vnf_placement)(const struct calvin_chain_spec *s, unsigned int vnf,
			     struct calvin_vnf_placement *p);
	/* new parameters for a running kernel VNF (live update) */
	int (*kernel_update)(const struct calvin_chain_spec *s, unsigned int vnf);
	/* `calvin bench wakeup` where the VNF's cores are not the host's (a
	 * VM): cyclictest for seconds on the CPU VNF vnf runs on, its
	 * histogram output (bench/lib/cyclictest.c) into out. NULL: the bench runs
	 * cyclictest on the host's cores itself. */
	int (*guest_cyclictest)(const struct calvin_chain_spec *s, unsigned int vnf,
				unsigned int seconds, char *out, size_t len);

	/* Undo everything the journal names; harmless to call twice, and
	 * after a crash at any point of a deployment. */
	int (*destroy)(struct chain_state *s);
};

/* The netns backend's name, as journals record it (the bench's
 * conventional stack is journalled as one). */
#define BACKEND_NETNS "netns"

extern const struct node_backend netns_backend;
extern const struct node_backend libvirt_backend;

/* A valid chain this host cannot run: one line, "FILE: chain NAME is
 * valid, but this host cannot run it: WHY", and CALVIN_EXIT_HOST. */
int host_cannot(const struct calvin_chain_spec *spec, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The backend a spec asks for. */
const struct node_backend *backend_of(const struct calvin_chain_spec *spec);
/* The backend that made a journal (its first entry names it). */
const struct node_backend *backend_of_state(const struct chain_state *s);
/* Leave what node_enter() entered. */
int node_leave(int saved);
/* The backend's line about the nodes, or NULL (see describe above). */
const char *backend_describe(const struct calvin_chain_spec *spec, char *buf, size_t len);

/* Names derived from the chain and node names. Chain and node names hold
 * only [a-z0-9-], so a '.' between them makes the pair unambiguous: chain
 * "edge" with node "a-fw" and chain "edge-a" with node "fw" never meet. */
int node_netns(char *out, size_t len, const char *chain, const char *node);
int vnf_pin_dir(char *out, size_t len, const char *chain, const char *vnf);
int chain_pin_dir(char *out, size_t len, const char *chain);
/* DPDK's --file-prefix of a user VNF (calvin-vnf derives the same). */
int vnf_file_prefix(char *out, size_t len, const char *chain, const char *vnf);

/* The node on the far end of VNF i's west and east links. */
const char *west_of(const struct deploy *d, unsigned int i);
const char *east_of(const struct deploy *d, unsigned int i);
/* keys.c: this deployment's random value, made and kept in dir. */
int deploy_random_make(struct deploy *d, const char *dir);
/* The key files of spec, each read once into ring; an exit code after one
 * line. */
int deploy_keys_load(const struct calvin_chain_spec *spec, struct calvin_keyring *ring);
/* The traffic keys of user VNF vnf's SAs in epoch (1 at `up`, more for a
 * restart of its pair); 0 or -errno after one line. Wipe out after use. */
int deploy_sa_set(const struct deploy *d, unsigned int vnf, uint32_t epoch,
		  struct calvin_sa_set *out);

/* Index of a node by name, or -1. */
int node_index(const struct calvin_node *nodes, unsigned int nr, const char *name);

#endif /* CALVIN_BACKEND_H */
