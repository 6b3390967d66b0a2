/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* What runs a VNF away from calvin, and what calvin says to it: a user
 * VNF's command line (vnf_argv.c), a kernel VNF's parameters as its loader
 * takes them (kvnf_spec.c), the line calvin-vnf writes once it
 * forwards (ready.c), how it waits for packets (wakeup.c), its counters'
 * answer (vnf_stats.c); a VNF's VM: names, MACs, the guest command line
 * and the domain XML (vm.c, vm_xml.c), and the protocol with calvin-agent
 * in it (agent_proto.c). Pure code. */
#ifndef CALVIN_LIB_GUEST_H
#define CALVIN_LIB_GUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "spec/spec.h"

/* ==== kvnf_spec.c ==== */

/* A chain spec's kernel VNF as its loader takes it (kernel/kvnf.h),
 * converted the same way wherever the VNF runs: by the netns backend on
 * the host, at a live update, by calvin-agent in a VM. Pure code: no I/O,
 * no allocation. */
struct calvin_kvnf;

/* The kernel VNF kind of a chain file's kind, or -EOPNOTSUPP for a kind
 * with no kernel implementation. */
int calvin_kvnf_kind_of(enum calvin_vnf_kind kind);

/* v's kind and parameters into k. -EOPNOTSUPP for a kind with no kernel
 * implementation, -E2BIG for more rules or routes than the program holds,
 * -EINVAL for a value with no equivalent there (an unknown address
 * family, action, via, scope, model or direction). What the program
 * cannot express within its own terms (a prefix longer than its family)
 * is the loader's to refuse. */
int calvin_kvnf_from_spec(const struct calvin_vnf_spec *v, struct calvin_kvnf *k);

/* ==== vnf_argv.c ==== */

/* calvin-vnf's command line for one user VNF of a chain spec, built the
 * same way wherever the VNF runs: by the netns backend on the host, by
 * calvin-agent in a VM. Pure code: no I/O, no allocation. */

/* What the node adds to the spec: where calvin-vnf is, its CPU, its ports. */
struct calvin_vnf_site {
	const char *bin;		    /* path of calvin-vnf */
	unsigned int vnf_id;		    /* index in spec->vnfs */
	int cpu;			    /* -1: any (placement shared) */
	const char *west, *east;	    /* interface names */
	uint8_t west_peer[6], east_peer[6]; /* far ends of the links */
	const char *wait;		    /* "busy", "wakeup"; NULL: calvin-vnf's default */
	/* encrypt, decrypt: the descriptor calvin-vnf reads its SAs' traffic
	 * keys from (codec/codec.h), inherited; never a key on the command line */
	int keys_fd;
	int ready_fd; /* -1: none; else argv gets --ready-fd and a slot for it */
};

struct calvin_vnf_argv {
	char *argv[64]; /* NULL-terminated */
	unsigned int argc;
	/* argv[ready_arg] is the --ready-fd value, set by the caller once the
	 * descriptor is known (after fork); 0 when there is none */
	unsigned int ready_arg;
	char ready_fd[12];
	char buf[6144]; /* what argv points into */
	unsigned int used;
};

/* Fill a for VNF site->vnf_id of s. 0, or -E2BIG if it does not fit,
 * -EINVAL for a VNF that is not in user space. */
int calvin_vnf_argv_build(struct calvin_vnf_argv *a, const struct calvin_chain_spec *s,
			  const struct calvin_vnf_site *site);

/* ==== ready.c ==== */

/* The line calvin-vnf writes on its ready fd once it forwards, and its
 * parser. It names the PMD each port really got, since af_xdp may have
 * fallen back to af_packet, and an af_packet port on a veth needs the
 * controller to do more (an XDP program, see kernel/pass.bpf.c):
 *
 *     ready west=af_xdp east=af_packet\n
 *
 * A side without a port is left out. Pure code: no I/O.
 */

enum calvin_ready_side { CALVIN_READY_WEST, CALVIN_READY_EAST, CALVIN_READY_SIDES };

/* pmd[side]: an enum calvin_pmd, or CALVIN_READY_NO_PORT */
#define CALVIN_READY_NO_PORT (-1)

/* Returns the line's length, or -ENOSPC if len is too small. */
int calvin_ready_format(char *buf, size_t len, const int pmd[CALVIN_READY_SIDES]);
/* Parses one line (the newline is optional); 0, or -EPROTO for anything
 * else than "ready" followed by known side=pmd words, each side at most
 * once. A bare "ready" (no sides named) is valid: every pmd is NO_PORT. */
int calvin_ready_parse(const char *line, int pmd[CALVIN_READY_SIDES]);

/* ==== wakeup.c ==== */

/* How a user VNF waits for packets, and the pure decisions around it.
 *
 * A VNF that owns its core busy-polls: nothing is faster. Two busy-pollers
 * on one core take turns by scheduler slices (milliseconds), so a VNF that
 * shares its core waits in the kernel instead ("wakeup"): it sleeps in
 * poll() on its PMD's socket and the kernel wakes it when a frame lands in
 * the ring. Pure code: no I/O; calvin-vnf does the waiting. */

enum calvin_wait {
	CALVIN_WAIT_BUSY,   /* poll the rings without pause: a core of its own */
	CALVIN_WAIT_WAKEUP, /* sleep in the kernel until a frame or a deadline */
	/* poll, and give the core to a neighbour on every empty poll
	 * (sched_yield): VNFs that share a core with nothing but each other */
	CALVIN_WAIT_YIELD,
	/* one process, one polling loop, several VNFs: the co-located VNFs of
	 * a core run to completion in turn, each with its own ports and
	 * counters (calvin-vnf's --next) */
	CALVIN_WAIT_LOOP,
};

const char *calvin_wait_name(enum calvin_wait w);
/* "busy", "wakeup", "yield" or "loop"; 0 or -EINVAL. */
int calvin_wait_parse(const char *s, enum calvin_wait *w);

/* The controller's rule until the planner decides it: a VNF busy-polls
 * only on a core of its own (pinned, and the plan shares no core). */
enum calvin_wait calvin_wait_for(bool plan_shared, int cpu);

/* The one descriptor in after[] that is not in before[]: how calvin-vnf
 * finds the socket a PMD opened for a port (DPDK 22.11 gives no access to
 * it). Returns the fd, -ENOENT if none is new, -EEXIST if several are. */
int calvin_fd_new(const int *before, unsigned int nb, const int *after, unsigned int na);

/* The timeout of a wait that must end by deadline (CLOCK_MONOTONIC ns,
 * UINT64_MAX: none). Returns ts filled in, zero when the deadline has
 * passed, or NULL: wait without a timeout. */
struct timespec *calvin_wait_timeout(uint64_t now, uint64_t deadline, struct timespec *ts);

/* A leave that a frame may end early (calvin-vnf --yield-leave early):
 * co-located VNFs at real-time priority leave their core for a piece of
 * every period; ending pieces early on frames must not take from the
 * normal tasks on the core what the kernel keeps for them, or it takes 50
 * ms at once. Each VNF owes 7/8 of every piece it plans to leave; credit
 * is what it left beyond that so far (ns; it starts at 0), capped at four
 * pieces. The first part of a piece of planned ns, the returned pause, no
 * frame may end; the rest a frame may. */
uint64_t calvin_leave_pause(int64_t credit, uint64_t planned);
/* The credit after a piece of planned ns that lasted left ns; piece: the
 * full piece (--yield-window's LEAVE), for the cap. */
int64_t calvin_leave_credit(int64_t credit, uint64_t planned, uint64_t left, uint64_t piece);

/* ==== vnf_stats.c ==== */

/* A user VNF's counters as its DPDK telemetry socket answers the command
 * /calvin/stats: {"/calvin/stats": {"NAME": number or "string", ...}}.
 * The answer comes from outside calvin (a VNF process, or a VM's agent
 * that relays it) and is read as hostile: parsed by json-c, every name
 * and string escaped for a terminal, anything else refused. */

/* The telemetry command, and the one member of its answer. */
#define CALVIN_VNF_STATS_CMD "/calvin/stats"
/* Counters an answer may hold: calvin-vnf gives about 40. */
#define CALVIN_VNF_STATS_MAX 256

struct json_object;

/* The counters in answer[0..len): 0 and *out, a new JSON object of
 * {NAME: unsigned number or string}, names and strings escaped
 * (calvin_text_escape()); or -EBADMSG and why, in words (the caller
 * puts *out). */
int calvin_vnf_stats_parse(const char *answer, size_t len, struct json_object **out, char *why,
			   size_t whylen);
/* As `calvin -j status` shows a user VNF's counters: {"/calvin/stats":
 * counters}, which it owns. */
struct json_object *calvin_vnf_stats_jobj(struct json_object *counters);
/* As `calvin status` shows them, one line: each port's strings (its PMD,
 * where its hop records start), its packet counts, and every other
 * counter that is not zero. */
void calvin_vnf_stats_text(FILE *f, const char *vnf, struct json_object *counters);

/* ==== vm.c, vm_xml.c ==== */

/* What the libvirt backend derives from a chain spec and its plan, as pure
 * code: names of domains, taps and bridges, the MACs of every port, clock
 * domains, the guest kernel's command line and the domain XML. The backend
 * (userspace/calvin/libvirt/) does the I/O; calvin-agent in the guest can
 * derive the same clock domain and MACs from the same spec.
 *
 * Ports: node i of the chain (calvin_chain_nodes(): 0 the probe, then the
 * VNF nodes, the server last) has a west and an east side. A VNF node's sides are its VM's
 * two NICs, each a tap on the host; the probe's east and the server's west
 * are veths whose other end lies on the host. Consecutive nodes are linked
 * on the host between i's east port and i+1's west port. */

enum calvin_side {
	CALVIN_WEST,
	CALVIN_EAST,
};

/* The name of the virtio-serial port the agent listens on. */
#define CALVIN_AGENT_PORT "org.calvin.agent.0"
/* IFNAMSIZ less its NUL */
#define CALVIN_IFNAME_MAX 15

/* The host-side port of node's side: "cvHHHHHHHH-Ns" (H: a hash of the
 * chain's name, N: node, s: w or e), 14 characters at most, so it fits
 * IFNAMSIZ however long the chain's name is. Two ports of one chain never
 * share a name; two chains might (a 32-bit hash), which the backend
 * catches by refusing a name that exists. */
int calvin_vm_port_name(char out[CALVIN_IFNAME_MAX + 1], const char *chain, unsigned int node,
			enum calvin_side side);
/* The two ends of the veth by which a VM of this host reaches this host's
 * Open vSwitch on a link between hosts (its tap and the veth's near end
 * joined by the XDP link program): the port name followed by 'v' (near
 * end) or 'o' (the end on the switch), 15 characters at most. */
int calvin_vm_ovs_port_name(char out[CALVIN_IFNAME_MAX + 1], const char *chain, unsigned int node,
			    enum calvin_side side, char end);
/* The bridge of the link from node to node + 1 (links: bridge). */
int calvin_vm_bridge_name(char out[CALVIN_IFNAME_MAX + 1], const char *chain, unsigned int node);

/* A locally administered unicast MAC for node's side, unique in the chain
 * (the links are point to point, so only the chain's own ports meet). */
void calvin_vm_mac(uint8_t mac[6], const char *chain, unsigned int node, enum calvin_side side);

/* The clock domain a VNF's hop records carry (include/calvin/telemetry.h):
 * the host's under the netns backend; under libvirt, its VM's, numbered
 * by the VM's node (1..). */
uint8_t calvin_vnf_clock(const struct calvin_chain_spec *spec, unsigned int vnf);

/* What a VNF's VM is. */
struct calvin_vm_desc {
	const char *name; /* the domain's */
	bool kvm;	  /* else TCG: domain type qemu, the emulator's maximum CPU model */
	unsigned int memory_mib;
	bool hugepages;	      /* back the guest with the host's hugepages */
	bool locked;	      /* lock the guest's memory in host RAM */
	int housekeeping_cpu; /* vCPU 0 and the emulator threads; -1: not pinned */
	int vnf_cpu;	      /* vCPU 1, the VNF's; -1: not pinned */
	bool fifo;	      /* vCPU 1 SCHED_FIFO */
	const char *emulator; /* qemu-system-x86_64's path */
	const char *kernel, *initrd;
	const char *console_log;  /* the serial console goes to this file */
	const char *agent_socket; /* the host end of the agent's port */
	const char *port[2];	  /* tap names, by enum calvin_side */
	/* A side on a link between hosts: the OVN logical switch port (a
	 * UUID) its NIC joins, through libvirt's openvswitch virtualport on
	 * the host's integration bridge ovs_bridge; NULL: the tap port[side] */
	const char *ovn_port[2];
	const char *ovs_bridge;
	uint8_t mac[2][6];	  /* the guest's NICs, by enum calvin_side */
	/* QEMU's user and group: libvirt's unprivileged ones (its DAC base
	 * label); both 0: root */
	unsigned int qemu_uid, qemu_gid;
	/* the host's libvirt has no DAC security model (security_driver
	 * "none"): no seclabel, which it would refuse */
	bool no_dac;
};

/* Has the VM a NIC on side (a tap or an OVN port)? A server's VM has west
 * alone: its one link. */
bool calvin_vm_has_nic(const struct calvin_vm_desc *d, enum calvin_side side);

/* The guest kernel's command line: serial console, vCPU 1 isolated
 * (isolcpus, nohz_full, rcu_nocbs; IRQs on vCPU 0), which NIC is west and
 * which east, the agent's port. -ENOSPC if len is too short. */
int calvin_vm_cmdline(const struct calvin_vm_desc *d, char *buf, size_t len);

/* The user and group libvirt runs QEMU as, from its capabilities XML
 * (virConnectGetCapabilities()): the DAC security model's base label for
 * domains of type kvm, or qemu (TCG). 0, or -ENOENT where it names none
 * (no DAC model: an unprivileged libvirt). */
int calvin_vm_dac_label(const char *caps, bool kvm, unsigned int *uid, unsigned int *gid);

/* The domain XML for libvirt. -ENOSPC if len is too short, -EINVAL for an
 * ovn_port that is not a UUID or one without ovs_bridge. */
int calvin_vm_xml(const struct calvin_vm_desc *d, char *buf, size_t len);

/* ==== agent_proto.c ==== */

/* The protocol between calvin on the host and calvin-agent in a VNF's VM,
 * spoken over a virtio-serial port: versioned, length-prefixed frames, and
 * their encoder and decoder. Pure code: no I/O, no allocation.
 *
 * A frame is an 8-byte header, big-endian,
 *
 *     u8 version   CALVIN_AGENT_VERSION
 *     u8 type      enum calvin_agent_type
 *     u16 zero     reserved, must be 0
 *     u32 length   of the payload, at most CALVIN_AGENT_MAX_PAYLOAD
 *
 * and the payload of its type (below). A reader knows from the header alone
 * how much more to read, or that it must not (unknown version, oversize).
 * Inside payloads, integers are big-endian; a string is a u32 length and
 * that many bytes (no NUL); a counter name is a u8 length and the name.
 * A payload must be used up exactly: trailing bytes are an error.
 *
 * The host speaks first and the agent answers every frame with one frame:
 * hello with hello, status with counters, the rest with ok or error.
 *
 * Keys: the guest never gets the key file's long-term key, nor the
 * deployment's random value. An encrypt or decrypt VNF's agent gets the
 * traffic keys of that VNF's own SAs in one epoch (keys, codec/codec.h), keeps
 * them in memory, hands them to calvin-vnf at start and wipes them. A
 * start needs keys of an epoch later than any it started with: a stop and
 * a start without fresh keys is refused, so no (key, nonce) pair repeats.
 * Version 2 took the seed and the key file out of configure and added keys;
 * version 3 added configure's role (a VM may run the chain's server).
 */

#define CALVIN_AGENT_VERSION 3
#define CALVIN_AGENT_HDR_LEN 8
/* Room for the largest chain spec a parser accepts (an acl of 64 rules and
 * a router of 256 routes fit many times over). */
#define CALVIN_AGENT_MAX_PAYLOAD (256u * 1024)
#define CALVIN_AGENT_MAX_FRAME (CALVIN_AGENT_HDR_LEN + CALVIN_AGENT_MAX_PAYLOAD)
/* What a one-line error or a hello's self-description may hold. */
#define CALVIN_AGENT_LINE_MAX 1024
#define CALVIN_AGENT_MAX_COUNTERS 256
#define CALVIN_AGENT_COUNTER_NAME_MAX 63

enum calvin_agent_type {
	CALVIN_AGENT_HELLO = 1, /* both ways: the version spoken, who speaks */
	CALVIN_AGENT_CONFIGURE, /* host: what the VNF is and what its node needs */
	CALVIN_AGENT_START,	/* host: deploy the configured VNF; empty */
	CALVIN_AGENT_STATUS,	/* host: send me the VNF's counters; empty */
	CALVIN_AGENT_STOP,	/* host: undo start; empty */
	CALVIN_AGENT_SHUTDOWN,	/* host: stop, then power the VM off; empty */
	CALVIN_AGENT_OK,	/* agent: done; empty */
	CALVIN_AGENT_ERROR,	/* agent: one line for the user */
	CALVIN_AGENT_COUNTERS,	/* agent: the answer to status */
	CALVIN_AGENT_KEYS,	/* host: the traffic keys of the VNF's SAs (codec/codec.h) */
	CALVIN_AGENT_TYPE_END,
};

/* A byte string inside a frame: not NUL-terminated. */
struct calvin_agent_str {
	const char *ptr;
	uint32_t len;
};

/* u32 version, string who (at most CALVIN_AGENT_LINE_MAX bytes). */
struct calvin_agent_hello {
	uint32_t version;
	struct calvin_agent_str who;
};

/* What a VM's agent runs: a VNF of the chain, or its server (the XDP
 * reflector on the NIC west, in the kind the spec's server: says). */
enum calvin_agent_role {
	CALVIN_AGENT_ROLE_VNF,
	CALVIN_AGENT_ROLE_SERVER,
	CALVIN_AGENT_ROLE_END,
};

/* u8 role, i32 cpu, 6 bytes west peer MAC, 6 bytes east peer MAC, u16 west
 * MTU, u16 east MTU, then the strings vnf and spec. */
struct calvin_agent_configure {
	uint8_t role;			    /* enum calvin_agent_role */
	int32_t cpu;			    /* the vCPU the VNF runs on; -1: any */
	uint8_t west_peer[6], east_peer[6]; /* far ends of the node's links */
	uint16_t west_mtu, east_mtu;	    /* 0: leave the NIC's own */
	struct calvin_agent_str vnf;	    /* the VNF's name in spec, or the server's */
	struct calvin_agent_str spec;	    /* the whole chain spec, YAML */
};

enum calvin_agent_state {
	CALVIN_AGENT_IDLE, /* not configured */
	CALVIN_AGENT_CONFIGURED,
	CALVIN_AGENT_RUNNING,
	CALVIN_AGENT_STATE_END,
};

struct calvin_agent_counter {
	struct calvin_agent_str name; /* 1..CALVIN_AGENT_COUNTER_NAME_MAX of [a-z0-9_.-] */
	uint64_t value;
};

/* counters: u8 state, u8 space (enum calvin_space), u16 n, n counters (name, u64),
 * string telemetry. Kernel VNFs' counters are named DIR.FIELD ("fwd.rx_packets");
 * a user VNF's are in telemetry, the JSON its DPDK telemetry socket gave. */
struct calvin_agent_counters {
	uint8_t state;
	uint8_t space;
	uint16_t nr_counters;
	struct calvin_agent_counter counters[CALVIN_AGENT_MAX_COUNTERS];
	struct calvin_agent_str telemetry;
};

struct calvin_agent_msg {
	enum calvin_agent_type type;
	union {
		struct calvin_agent_hello hello;
		struct calvin_agent_configure configure;
		struct calvin_agent_counters counters;
		struct calvin_agent_str
		    error; /* 1..CALVIN_AGENT_LINE_MAX bytes, no control characters */
		/* the bytes of a calvin_sa_set (codec/codec.h), CALVIN_SA_SET_HDR_LEN to
		 * CALVIN_SA_SET_MAX of them; whoever holds the frame wipes it */
		struct calvin_agent_str keys;
	};
};

/* The total length of the frame that starts at buf (header and payload),
 * from its header alone. -EAGAIN: fewer than CALVIN_AGENT_HDR_LEN bytes;
 * -EPROTO: a version this code does not speak; -EBADMSG: reserved bits set
 * or an unknown type; -EMSGSIZE: a payload longer than
 * CALVIN_AGENT_MAX_PAYLOAD. */
ssize_t calvin_agent_frame_len(const void *buf, size_t len);

/* Decode the frame at the start of buf (len bytes available). Strings of
 * out point into buf. Returns the frame's length; -EAGAIN when buf holds
 * only part of it; the errors of calvin_agent_frame_len(); -EBADMSG for a
 * payload that does not follow its type's layout. */
ssize_t calvin_agent_decode(const void *buf, size_t len, struct calvin_agent_msg *out);

/* Encode m into buf. Returns the frame's length; -ENOSPC if buf is too
 * short; -EINVAL for a message the decoder would refuse (unknown type, a
 * string or counter list too long, an error line with a newline...). */
ssize_t calvin_agent_encode(const struct calvin_agent_msg *m, void *buf, size_t len);

/* "hello", "configure", ...; "unknown" for anything else. */
const char *calvin_agent_type_name(int type);
const char *calvin_agent_state_name(int state);

/* A string of the protocol from a C string (NULL: empty). */
struct calvin_agent_str calvin_agent_str(const char *s);

#endif /* CALVIN_LIB_GUEST_H */
