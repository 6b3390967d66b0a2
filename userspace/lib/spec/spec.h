/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Chain spec: the parsed form of a chains/NAME.yaml file, its parser, and
 * what the rest of calvin derives from a spec alone: the words of each
 * value, the chain's nodes in path order, the roles of transform pairs,
 * the checks of the libvirt section, and what changed between two specs
 * of one chain.
 *
 * The parser is pure (text in, struct or one error line out, no I/O);
 * calvin_spec_load() adds the file read. Every error names
 * "path:line:column: what is wrong; what to do" in a single line. The
 * parser's own parts share spec_priv.h. */
#ifndef CALVIN_LIB_SPEC_H
#define CALVIN_LIB_SPEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include <calvin/telemetry.h> /* CALVIN_DIR_FWD, CALVIN_DIR_REV */

/* chain and node names: [a-z][a-z0-9-]*, at most this many characters;
 * short because they become parts of netns names, DPDK file prefixes and
 * bpffs paths */
#define CALVIN_NAME_MAX 24
/* Each VNF stamps two hop records (include/calvin/telemetry.h), and 64 of
 * them fill a probe a 1500-byte MTU carries. */
#define CALVIN_MAX_VNFS 32
#define CALVIN_ERR_MAX 512

/* What a VNF does. Kernel-space kinds are XDP programs (kernel/KIND.bpf.c),
 * user-space kinds are transforms of calvin-vnf (userspace/vnf/). forward
 * exists in both spaces; the others in one only (see calvin_kind_space()). */
enum calvin_vnf_kind {
	CALVIN_VNF_FORWARD, /* elementary: MAC rewrite + redirect */
	CALVIN_VNF_ACL, /* basic, kernel: ordered allow/deny rules */
	CALVIN_VNF_ROUTER, /* basic, kernel: longest-prefix match, TTL */
	CALVIN_VNF_RATELIMIT, /* basic, kernel: token bucket */
	CALVIN_VNF_IMPAIR, /* basic, kernel: loss and duplication, for experiments */
	CALVIN_VNF_NC_ENCODE, /* advanced, user: RLNC encoder */
	CALVIN_VNF_NC_DECODE, /* advanced, user: RLNC decoder */
	CALVIN_VNF_ENCRYPT, /* advanced, user: AEAD encapsulation */
	CALVIN_VNF_DECRYPT, /* advanced, user: AEAD decapsulation */
};

enum calvin_space {
	CALVIN_KERNEL = 0, /* == CALVIN_SPACE_KERNEL on the wire */
	CALVIN_USER = 1,
};

enum calvin_placement {
	CALVIN_PLACE_SHARED, /* no pinning: the baseline */
	CALVIN_PLACE_PINNED, /* dedicated cores, not necessarily isolated */
	CALVIN_PLACE_ISOLATED, /* dedicated isolated cores */
};

enum calvin_backend {
	CALVIN_BACKEND_NETNS,
	CALVIN_BACKEND_LIBVIRT,
};

/* What a chain's data path is built for. Latency: kernel VNFs in XDP,
 * endpoints checksum in software (CALVIN's design). Throughput: kernel
 * VNFs at tc ingress, so that their veth peers keep GSO/TSO (an XDP
 * program on a veth turns them off on its peer) and a TCP sender hands
 * whole 64 KB segments to the first hop; user VNFs as in latency mode
 * (their own burst:). netns backend only. */
enum calvin_chain_mode {
	CALVIN_MODE_LATENCY,
	CALVIN_MODE_THROUGHPUT,
};

/* How user VNFs of the chain that share a core with nothing else of
 * calvin's poll it (the planner's "shared" cores, netns backend): one
 * process polling them all in turn, run to completion (loop, the
 * default), or a process each, taking turns (yield: a VNF that crashes
 * does not take its neighbours with it). */
enum calvin_shared_core {
	CALVIN_SHARED_LOOP,
	CALVIN_SHARED_YIELD,
};

enum calvin_pmd {
	CALVIN_PMD_AF_XDP, /* preferred; falls back to af_packet with a warning */
	CALVIN_PMD_AF_PACKET,
};

enum calvin_server_kind {
	CALVIN_SERVER_ECHO, /* reflects probes (XDP_TX), passes the rest to the node's stack */
	CALVIN_SERVER_REFLECT, /* reflects every IP packet (addresses and ports swapped) */
};

enum calvin_probe_mode {
	CALVIN_PROBE_PACED, /* send at a fixed rate, whatever comes back */
	CALVIN_PROBE_PINGPONG, /* send the next when the last came back (or timed out) */
};

/* Scheduling policy of user VNFs' polling threads. */
enum calvin_sched {
	CALVIN_SCHED_OTHER, /* the kernel's default (SCHED_OTHER) */
	CALVIN_SCHED_FIFO,  /* SCHED_FIFO at a priority */
};

/* Where a value came from in the file, for errors found after parsing. */
struct calvin_pos {
	int line; /* 1-based */
	int col; /* 1-based */
};

/* An IPv4 or IPv6 prefix; family 0 with len 0 matches any address. */
struct calvin_prefix {
	uint8_t family; /* AF_INET, AF_INET6, or 0 = any */
	uint8_t len; /* prefix length in bits */
	uint8_t addr[16]; /* network byte order; IPv4 in the first 4 bytes */
};

/* Inclusive port range; 0-65535 matches any port. */
struct calvin_port_range {
	uint16_t lo, hi;
};

#define CALVIN_ACL_MAX_RULES 64
#define CALVIN_ROUTER_MAX_ROUTES 256

enum calvin_acl_action {
	CALVIN_ACL_ALLOW,
	CALVIN_ACL_DENY,
};

/* acl: the first rule that matches decides; no match: default_action.
 * YAML: default: allow|deny; rules: [{action, proto: any|tcp|udp|icmp|icmpv6|N,
 * src: CIDR|any, dst: CIDR|any, sport: N|N-M, dport: N|N-M}] */
struct calvin_acl_rule {
	enum calvin_acl_action action;
	uint8_t proto; /* IPPROTO_*, 0 = any */
	struct calvin_prefix src, dst;
	struct calvin_port_range sport, dport; /* only for tcp/udp rules */
	struct calvin_pos pos;
};

struct calvin_acl_spec {
	enum calvin_acl_action default_action; /* default allow */
	unsigned int nr_rules;
	struct calvin_acl_rule rules[CALVIN_ACL_MAX_RULES];
};

/* router: a linear chain's router has two ports; a route sends a prefix out
 * of one of them, or drops it. No matching route: dropped, counted.
 * YAML: routes: [{prefix: CIDR, via: west|east|drop}] */
enum calvin_route_via {
	CALVIN_VIA_WEST,
	CALVIN_VIA_EAST,
	CALVIN_VIA_DROP,
};

struct calvin_route {
	struct calvin_prefix prefix;
	enum calvin_route_via via;
	struct calvin_pos pos;
};

struct calvin_router_spec {
	unsigned int nr_routes;
	struct calvin_route routes[CALVIN_ROUTER_MAX_ROUTES];
};

/* ratelimit: token buckets; 0 = no limit on that dimension.
 * YAML: pps: N; bytes-per-second: N; burst: N (packets, default pps/100 or 1);
 * burst-bytes: N (default bytes-per-second/100 or 1514); per: vnf|flow */
enum calvin_rl_scope {
	CALVIN_RL_PER_VNF,
	CALVIN_RL_PER_FLOW, /* 5-tuple */
};

struct calvin_ratelimit_spec {
	uint64_t pps;
	uint64_t bytes_per_sec;
	uint64_t burst_packets;
	uint64_t burst_bytes;
	enum calvin_rl_scope per;
};

/* impair: loss and duplication on the frames a node forwards.
 * YAML: model: uniform|gilbert-elliott; loss: P% (uniform); p: P%, r: P%,
 * loss-good: P%, loss-bad: P% (Gilbert-Elliott: p = good->bad, r = bad->good,
 * default loss-good 0%, loss-bad 100%); duplicate: P%; seed: N;
 * direction: both|fwd|rev. Percentages are parts per million inside. */
enum calvin_loss_model {
	CALVIN_LOSS_UNIFORM,
	CALVIN_LOSS_GILBERT_ELLIOTT,
};

enum calvin_direction {
	CALVIN_DIRS_BOTH,
	CALVIN_DIRS_FWD,
	CALVIN_DIRS_REV,
};

struct calvin_impair_spec {
	enum calvin_loss_model model;
	uint32_t loss_ppm;
	uint32_t ge_p_ppm, ge_r_ppm, ge_loss_good_ppm, ge_loss_bad_ppm;
	uint32_t duplicate_ppm;
	uint64_t seed; /* default 1: repeatable unless changed */
	enum calvin_direction direction;
};

/* nc-encode / nc-decode: RLNC over GF(2^8), k source packets per generation,
 * r repair packets after each; a partial generation is flushed after flush_ns.
 * The pair codes both directions of the link between them unless
 * restricted (calvin_pair_role() below); an nc-decode needs an nc-encode
 * before it with the same k, r and direction.
 * YAML: k: N (1..64, default 4); r: N (0..64, default 1); flush: DURATION
 * (default 1ms; the encoder's, and the decoder's for what it codes back);
 * flush-early: BOOL (default true: a source closes its partial generation
 * when the flow's gaps say no other comes before the flush, codec.h);
 * direction: both|fwd|rev (default both) */
struct calvin_nc_spec {
	unsigned int k, r;
	uint64_t flush_ns;
	bool flush_early;
	enum calvin_direction direction;
};

/* encrypt / decrypt: AEAD per packet, a security association per direction
 * (calvin_pair_role() below); a decrypt needs an encrypt before it with the
 * same cipher, key file, SPIs and direction.
 * YAML: cipher: aes-256-gcm|chacha20-poly1305; key-file: PATH (relative to
 * the spec file's directory); spi: N (1..2^32-1, default 1: west -> east);
 * spi-rev: N (east -> west; default spi + 1, and never spi);
 * direction: both|fwd|rev (default both); replay-window: N (decrypt;
 * 32..4096, default 1024, for each direction it opens) */
enum calvin_cipher {
	CALVIN_CIPHER_AES_256_GCM,
	CALVIN_CIPHER_CHACHA20_POLY1305,
};

struct calvin_crypt_spec {
	enum calvin_cipher cipher;
	/* resolved against the spec file's directory; calvin_spec_load() makes
	 * it absolute, so a copy of the spec elsewhere names the same file */
	char key_file[4096];
	uint32_t spi;
	uint32_t spi_rev;
	enum calvin_direction direction;
	unsigned int replay_window;
};

/* Where a scalar was in the text: libyaml's character indexes of its first
 * character and of the one after it, quotes included. */
struct calvin_span {
	uint32_t start, end;
};

struct calvin_vnf_spec {
	char name[CALVIN_NAME_MAX + 1];
	/* The node the VNF runs on; default: a node of its own, named after the
	 * VNF. Consecutive kernel VNFs may share a node (run in order there). */
	char node[CALVIN_NAME_MAX + 1];
	/* The host it runs on: "local" (the default: where calvin runs) or
	 * a name under hosts: (calvin_spec_host()) */
	char host[CALVIN_NAME_MAX + 1];
	enum calvin_vnf_kind kind;
	enum calvin_space space; /* default: the kind's space (forward: kernel) */
	unsigned int burst; /* user space only: 1 = latency mode (default) */
	enum calvin_pmd pmd; /* user space only */
	union {
		struct calvin_acl_spec acl;
		struct calvin_router_spec router;
		struct calvin_ratelimit_spec ratelimit;
		struct calvin_impair_spec impair;
		struct calvin_nc_spec nc;
		struct calvin_crypt_spec crypt;
	};
	struct calvin_pos pos;
	/* Past the parameters, so that where a value is written never counts
	 * as a change of the VNF (see userspace/calvin/update.c). encrypt and
	 * decrypt: where key-file's value is. */
	struct calvin_pos key_file_pos;
	struct calvin_span key_file_span;
};

struct calvin_server_spec {
	char name[CALVIN_NAME_MAX + 1]; /* default "server" */
	enum calvin_server_kind kind;
	char host[CALVIN_NAME_MAX + 1]; /* default "local" */
};

struct calvin_probe_spec {
	unsigned int port; /* UDP port that marks probes; default 7357 */
	unsigned int count; /* probes per run; default 1000 */
	unsigned int rate; /* probes per second in paced mode; default 1000 */
	enum calvin_probe_mode mode; /* default paced */
	/* UDP payload bytes, telemetry block included; default 256, or what
	 * the chain's hop records need where that is more
	 * (calvin_probe_size_default()) */
	unsigned int size;
	struct calvin_pos size_pos; /* of the size value; line 0: the default */
};

/* realtime: per-chain options for user VNFs, applied at `up`.
 * YAML: sched: other|fifo (default other); priority: 1..98 (fifo only,
 * default 50; 99 is the kernel's own watchdogs); lock-memory: bool (default
 * false: a VNF's pages may be paged out or compacted under it) */
#define CALVIN_FIFO_PRIORITY_DEFAULT 50
#define CALVIN_FIFO_PRIORITY_MAX 98
struct calvin_realtime_spec {
	enum calvin_sched sched;
	unsigned int priority;
	bool lock_memory;
	struct calvin_pos sched_pos; /* of the sched value, for errors found at `up` */
};

/* The libvirt backend: how its VMs are made and linked.
 * YAML: libvirt: {uri: URI, links: xdp|bridge, fifo: BOOL, memory: SIZE,
 * image: DIR, accel: auto|kvm|tcg} */
enum calvin_vm_links {
	CALVIN_LINKS_XDP, /* calvin's XDP program redirects each frame to the partner port */
	CALVIN_LINKS_BRIDGE, /* a Linux bridge of two ports per link */
};

enum calvin_accel {
	CALVIN_ACCEL_AUTO, /* KVM where a test boot works, else TCG */
	CALVIN_ACCEL_KVM,
	CALVIN_ACCEL_TCG,
};

#define CALVIN_URI_MAX 256

struct calvin_libvirt_spec {
	char uri[CALVIN_URI_MAX]; /* default qemu:///system */
	enum calvin_vm_links links; /* default xdp */
	bool fifo; /* the VNF's vCPU SCHED_FIFO (vcpusched); default false */
	unsigned int memory_mib; /* per VM; default 512 */
	char image[4096]; /* directory of vmlinuz and initramfs.img; "": the build's */
	struct calvin_pos image_pos; /* of the image value; line 0: not written */
	enum calvin_accel accel;
	struct calvin_pos pos; /* of the section's key; line 0: not written */
};

/* monitor: continuous probing of a deployed chain (`calvin monitor`,
 * started by the supervisor). YAML: monitor: {rate: N (default 10/s),
 * window: DURATION (1s..1h, default 10s), listen: ADDR:PORT (default
 * 127.0.0.1:9357; port 0: any free port), allow-remote: BOOL (a listen
 * address that is not loopback; default false), hook: [PROG, ARG...]
 * (absolute path, run without a shell on a breach), hook-timeout:
 * DURATION (default 5s)}. */
#define CALVIN_LISTEN_MAX 64
#define CALVIN_HOOK_MAX_ARGS 16
#define CALVIN_HOOK_ARG_MAX 256
#define CALVIN_MONITOR_PORT 9357
struct calvin_listen {
	int family; /* AF_INET or AF_INET6 */
	uint8_t addr[16];
	uint16_t port; /* host byte order; 0: any free port */
};
struct calvin_monitor_spec {
	bool on;	   /* the file has a monitor section */
	unsigned int rate; /* probes per second */
	uint64_t window_ns;
	char listen_text[CALVIN_LISTEN_MAX];
	struct calvin_listen listen;
	bool allow_remote;
	unsigned int nr_hook; /* 0: no hook */
	char hook[CALVIN_HOOK_MAX_ARGS][CALVIN_HOOK_ARG_MAX];
	struct calvin_pos hook_pos; /* of the program's path, for errors found later */
	uint64_t hook_timeout_ns;
};

/* supervise: the supervisor's restart rule for the chain's user VNFs and
 * its monitor (supervise.c). YAML: supervise: {restarts: N (1..100,
 * default 5): starts within `within` after which a VNF that keeps dying
 * is failed; within: DURATION (1s..1h, default 60s); backoff: FIRST..LONGEST
 * (each 10ms..60s, FIRST <= LONGEST; default 100ms..5s): a dead VNF starts
 * again at once, then after FIRST, doubling up to LONGEST while it keeps dying
 * within `within`}. */
#define CALVIN_RESTARTS_MAX 100
struct calvin_supervise_spec {
	unsigned int restarts;
	uint64_t within_ns;
	uint64_t backoff_min_ns, backoff_max_ns;
};

/* Hosts a chain spans (hosts.c). The host calvin runs on is "local",
 * never listed; every other host is reached through its libvirt daemon
 * (a URI calvin_libvirt_uri_check() allows, and not the local daemon),
 * and its OVS joins OVN as a chassis of its own. Links between hosts are
 * OVN logical switches, so hosts: needs an ovn: section.
 * YAML: hosts: [{name: NAME, uri: URI, chassis: NAME}]
 *       ovn: {nb: tcp:IP:PORT | ssl:IP:PORT | unix:/PATH,
 *             private-key: /PATH, certificate: /PATH, ca-cert: /PATH,
 *             underlay-mtu: N (default 1500)}
 * (the three files for ssl only, and then all three) */
#define CALVIN_MAX_HOSTS 8
#define CALVIN_LOCAL_HOST "local"
#define CALVIN_CHASSIS_MAX 64

struct calvin_host_spec {
	char name[CALVIN_NAME_MAX + 1];
	char uri[CALVIN_URI_MAX];
	char chassis[CALVIN_URI_MAX]; /* OVN's Chassis name: at most CALVIN_CHASSIS_MAX */
	struct calvin_pos pos; /* of its name */
};

/* Geneve's cost on the underlay: outer IPv4 20, UDP 8, Geneve 8, OVN's
 * option 8, the inner Ethernet header 14 (tests/multihost/README.md) */
#define CALVIN_GENEVE_OVERHEAD 58
#define CALVIN_UNDERLAY_MTU_DEFAULT 1500

struct calvin_ovn_spec {
	char nb[CALVIN_URI_MAX]; /* the northbound database's remote */
	/* the hosts' network between them; a link between hosts gets
	 * underlay_mtu - CALVIN_GENEVE_OVERHEAD (calvin_link_mtu()) */
	unsigned int underlay_mtu;
	char private_key[CALVIN_URI_MAX]; /* ssl: absolute paths */
	char certificate[CALVIN_URI_MAX];
	char ca_cert[CALVIN_URI_MAX];
	struct calvin_pos pos; /* of the section's key; line 0: not written */
};

/* Chain key mtu: the MTU of the probe's and the server's links (default
 * 1500). Links between two VNFs carry what transforms add to a packet
 * (NC 18 bytes, AEAD 32), so they get CALVIN_INNER_MTU_EXTRA more. The
 * ceiling is an XDP program's on a veth, which every netns chain has (the
 * hand-over program of a user VNF, the server's reflector, kernel VNFs in
 * latency mode): a frame must fit one page with XDP's headroom and the
 * skb's shared info, 3506 bytes on 4 KB pages (drivers/net/veth.c; `ip
 * link set mtu 3507` is refused once a program is attached). DPDK's
 * af_xdp umem chunks are pages too, and hold the same 3506. */
#define CALVIN_MTU_DEFAULT 1500
#define CALVIN_MTU_MIN 576
#define CALVIN_INNER_MTU_EXTRA 100
#define CALVIN_MTU_XDP_MAX 3506
#define CALVIN_MTU_MAX (CALVIN_MTU_XDP_MAX - CALVIN_INNER_MTU_EXTRA)

struct calvin_chain_spec {
	char name[CALVIN_NAME_MAX + 1];
	char path[4096]; /* the file it came from */
	uint64_t budget_ns; /* RTT budget of the MEC part */
	enum calvin_placement placement; /* default pinned */
	bool allow_sharing; /* a plan that cannot dedicate cores may share them */
	enum calvin_shared_core shared_core; /* default loop */
	enum calvin_backend backend; /* default netns */
	enum calvin_chain_mode mode; /* default latency */
	struct calvin_pos mode_pos;  /* of the mode value; line 0: not written */
	/* the endpoints' links; links between two VNFs get
	 * CALVIN_INNER_MTU_EXTRA more (calvin_inner_mtu()) */
	unsigned int mtu;
	struct calvin_pos mtu_pos; /* of the mtu value; line 0: not written */
	unsigned int nr_vnfs;
	struct calvin_vnf_spec vnfs[CALVIN_MAX_VNFS];
	struct calvin_server_spec server;
	struct calvin_probe_spec probe;
	struct calvin_realtime_spec realtime;
	struct calvin_libvirt_spec libvirt;
	struct calvin_monitor_spec monitor;
	struct calvin_supervise_spec supervise;
	unsigned int nr_hosts; /* 0: every node on the local host */
	struct calvin_host_spec hosts[CALVIN_MAX_HOSTS];
	struct calvin_ovn_spec ovn;
};

/* ==== parse.c, load.c, text.c: a chain file read and parsed ==== */

/* The bytes of the telemetry block a probe of spec needs: two hop records
 * per VNF. */
unsigned int calvin_probe_size_needed(const struct calvin_chain_spec *spec);

/* Parse a chain spec from text (len bytes, need not be NUL-terminated).
 * path is only used in error messages and copied into spec->path.
 * Returns 0, or -EINVAL with one line in err ("path:line:col: ..."). */
int calvin_spec_parse(const char *text, size_t len, const char *path,
		      struct calvin_chain_spec *spec, char *err, size_t errlen);

/* Read and parse the file at path, and make its key-file paths absolute
 * (against the working directory once the parser resolved them against the
 * spec's directory). A file that cannot be read gives
 * "path: cannot read: <strerror>" and -errno. */
int calvin_spec_load(const char *path, struct calvin_chain_spec *spec, char *err, size_t errlen);

/* A chain file's text as calvin keeps it: with each key-file value
 * replaced by its absolute path, double-quoted, every line where it was. */
struct calvin_spec_text {
	char *text; /* malloc'd, NUL-terminated */
	size_t len;
};

/* calvin_spec_load(), and into out (NULL: not wanted) the resolved text of
 * the very bytes parsed: the file is read once, so what is deployed (the
 * state directory's copy, what a VM's agent gets) is what was checked,
 * whatever happens to the file meanwhile. */
int calvin_spec_load_text(const char *path, struct calvin_chain_spec *spec,
			  struct calvin_spec_text *out, char *err, size_t errlen);
void calvin_spec_text_free(struct calvin_spec_text *t);

/* Write t to a new file to (mode 0600; not through a link), or, with tmp,
 * to the new file tmp renamed to to, replacing it whole. Returns 0 or
 * -errno with one line in err. */
int calvin_spec_text_write(const struct calvin_spec_text *t, const char *to, const char *tmp,
			   char *err, size_t errlen);

/* The text (len bytes) that spec was parsed from, with each key-file value
 * replaced by spec's path for it: *out is malloc'd and NUL-terminated.
 * Returns 0, -ENOMEM, or -EINVAL when spec's positions do not fit text.
 * Pure. */
int calvin_spec_text_resolved(const char *text, size_t len, const struct calvin_chain_spec *spec,
			      char **out, size_t *out_len);

/* ==== names.c, values.c, net.c: the words and values of a chain file ==== */

/* "350us"-style durations: an integer or decimal with a unit ns, us, ms or s.
 * Returns 0, or -EINVAL (no unit, unknown unit, not a number, overflow). */
int calvin_parse_duration(const char *s, uint64_t *ns);

const char *calvin_vnf_kind_name(enum calvin_vnf_kind k);
const char *calvin_space_name(enum calvin_space s);
const char *calvin_placement_name(enum calvin_placement p);
const char *calvin_backend_name(enum calvin_backend b);
const char *calvin_chain_mode_name(enum calvin_chain_mode m);
const char *calvin_shared_core_name(enum calvin_shared_core c);
/* What the chain's mode does to its data path, in one phrase. */
const char *calvin_chain_mode_text(const struct calvin_chain_spec *spec);
const char *calvin_pmd_name(enum calvin_pmd p);
const char *calvin_server_kind_name(enum calvin_server_kind k);
const char *calvin_probe_mode_name(enum calvin_probe_mode m);
const char *calvin_sched_name(enum calvin_sched s);
const char *calvin_vm_links_name(enum calvin_vm_links l);
const char *calvin_accel_name(enum calvin_accel a);

/* The words a spec uses for each enum value, indexed by the value and
 * NULL-terminated: one table for the parser, the *_name() functions and
 * usage texts (the parser's other tables, and its parameter values, are in
 * spec_priv.h). */
extern const char *const calvin_vnf_kind_words[];
extern const char *const calvin_pmd_words[];
extern const char *const calvin_direction_words[];

/* "127.0.0.1:9357", "[::1]:9357" into l: 0 or -EINVAL (pure). */
int calvin_parse_listen(const char *s, struct calvin_listen *l);
/* A loopback address (127.0.0.0/8, ::1)? */
bool calvin_listen_is_local(const struct calvin_listen *l);

/* Index of s in a words table, or -1. */
int calvin_word_lookup(const char *const *words, const char *s);

/* Is s a valid chain or node name: [a-z][a-z0-9-]*, 1..CALVIN_NAME_MAX chars? */
bool calvin_name_valid(const char *s);
/* The same, with the reason in err when it is not (what: "name", "chain",
 * ...): the one check for names in chain files and on the command line.
 * Returns 0 or -EINVAL. */
int calvin_name_check(const char *what, const char *s, char *err, size_t errlen);

/* Which spaces a kind runs in: its default space (forward: kernel), and
 * whether it can run in s (forward runs in both, the others in one). */
enum calvin_space calvin_kind_space(enum calvin_vnf_kind k);
bool calvin_kind_allows_space(enum calvin_vnf_kind k, enum calvin_space s);

const char *calvin_acl_action_name(enum calvin_acl_action a);
const char *calvin_route_via_name(enum calvin_route_via v);
const char *calvin_rl_scope_name(enum calvin_rl_scope s);
const char *calvin_loss_model_name(enum calvin_loss_model m);
const char *calvin_direction_name(enum calvin_direction d);
const char *calvin_cipher_name(enum calvin_cipher c);

/* ==== topo.c ==== */

/* A chain's nodes in path order: the probe, the nodes the VNFs run on
 * (consecutive VNFs may share one), the server. */
#define CALVIN_MAX_NODES (CALVIN_MAX_VNFS + 2)

struct calvin_node {
	const char *name;
	unsigned int first_vnf; /* index in spec->vnfs */
	unsigned int nr_vnfs; /* 0 for the probe and the server */
	enum calvin_space space; /* of its VNFs */
};

/* The name of the node VNF v runs on. */
const char *calvin_vnf_node(const struct calvin_vnf_spec *v);
/* Fill out[] with the nodes in path order; returns how many. */
unsigned int calvin_chain_nodes(const struct calvin_chain_spec *spec,
				struct calvin_node out[CALVIN_MAX_NODES]);
/* Index in out[] of the node VNF i runs on. */
unsigned int calvin_node_of(const struct calvin_node *nodes, unsigned int nr, unsigned int vnf);

/* Whether node i's east (else west) interface runs an XDP program in the
 * chain's mode, and whether it must checksum in software (see topo.c). */
bool calvin_port_has_xdp(const struct calvin_chain_spec *spec, const struct calvin_node *nodes,
			 unsigned int nr, unsigned int i, bool east);
bool calvin_port_sw_csum(const struct calvin_chain_spec *spec, const struct calvin_node *nodes,
			 unsigned int nr, unsigned int i, bool east);

/* ==== pairs.c ==== */

/* Transform pairs: an encrypt/decrypt or an nc-encode/nc-decode pair.
 *
 * A pair protects the link between its two VNFs in both directions unless
 * its VNFs are restricted to one (direction: fwd | rev in the chain file).
 * The head of a pair (encrypt, nc-encode, nearer the probe) applies its
 * transform to what goes west -> east (CALVIN_DIR_FWD) and undoes it on
 * the way back; the tail (decrypt, nc-decode) undoes west -> east and
 * applies east -> west. So the head seals/encodes forward and opens/decodes
 * backward, and the tail the other way round.
 *
 * Each direction of an encrypt/decrypt pair is a security association
 * (codec/codec.h). */
enum calvin_pair_role {
	CALVIN_ROLE_NONE,  /* the direction passes untouched */
	CALVIN_ROLE_APPLY, /* seal, encode */
	CALVIN_ROLE_UNDO,  /* open, decode */
};

/* encrypt and nc-encode open a pair, decrypt and nc-decode close one. */
bool calvin_pair_head(enum calvin_vnf_kind k);
bool calvin_pair_tail(enum calvin_vnf_kind k);
/* The kind that closes the pair head k opens (encrypt: decrypt). */
enum calvin_vnf_kind calvin_pair_closer(enum calvin_vnf_kind head);

/* What a VNF of kind k, restricted to dirs, does with frames going dir
 * (CALVIN_DIR_FWD or CALVIN_DIR_REV). NONE for kinds that are not in a
 * pair. */
enum calvin_pair_role calvin_pair_role(enum calvin_vnf_kind k, enum calvin_direction dirs,
				       unsigned int dir);

/* spi-rev when the chain file gives none: spi + 1 (1 after 0xffffffff). */
uint32_t calvin_spi_rev_default(uint32_t spi);
/* The SPI of the security association of direction dir. */
uint32_t calvin_sa_spi(const struct calvin_crypt_spec *c, unsigned int dir);

/* ==== libvirt_uri.c, image.c: the libvirt section's URI and guest image ==== */

/* May calvin hand uri to virConnectOpen()? Driver qemu only; the local
 * daemon (qemu:///system, qemu:///session) or a host's over ssh, tls or
 * tcp (tcp: unauthenticated, for tests), [user@]host[:port]/system or
 * /session; of the query parameters only no_tty=0|1 and
 * mode=auto|legacy|direct, since others name a program, socket or key
 * file libvirt would use as root, or turn off a check. 0, or -EINVAL with
 * one sentence in why that says what is wrong and what to write. */
int calvin_libvirt_uri_check(const char *uri, char *why, size_t len);
/* Does uri reach this host's daemon (qemu:///...)? */
bool calvin_libvirt_uri_local(const char *uri);

/* A guest image is a folder of these two files (vm-images/mkimage.sh). */
#define CALVIN_VM_KERNEL "vmlinuz"
#define CALVIN_VM_INITRD "initramfs.img"

/* The guest image a libvirt chain names (image: DIR): a folder holding a
 * Linux kernel (bzImage) named vmlinuz and an initramfs named
 * initramfs.img, readable and not empty. 0 where the chain names none;
 * else 0 or -ENOENT with one line in err at the image value, naming what
 * is missing. */
int calvin_spec_check_image(const struct calvin_chain_spec *spec, char *err, size_t errlen);
/* The same check of any folder (the build's default image included): 0,
 * or -ENOENT with "DIR/vmlinuz (the guest kernel) is missing"-style text
 * in why. */
int calvin_vm_image_check(const char *dir, char *why, size_t len);

/* ==== hosts.c: the hosts a chain spans ==== */

/* The remote host named name, or NULL for "local" (and for a name the
 * spec does not list, which the parser refuses). */
const struct calvin_host_spec *calvin_spec_host(const struct calvin_chain_spec *spec,
						const char *name);
/* Does the chain put any node on another host than calvin's? */
bool calvin_spec_multihost(const struct calvin_chain_spec *spec);
/* An OVSDB remote calvin may hand ovn-nbctl: tcp:IP:PORT or ssl:IP:PORT
 * (IPv4, or IPv6 in brackets; port 1..65535) or unix:/PATH. 0, or
 * -EINVAL with a sentence in why saying what to write. */
int calvin_ovn_remote_check(const char *remote, char *why, size_t len);
/* The MTU of a link between hosts: the underlay's less Geneve's cost. */
unsigned int calvin_link_mtu(const struct calvin_chain_spec *spec);
/* The MTU of a link between two VNFs: spec->mtu + CALVIN_INNER_MTU_EXTRA. */
unsigned int calvin_inner_mtu(const struct calvin_chain_spec *spec);
/* What runs where, one line: "local: probe, fwd-k; b (chassis b,
 * qemu+tcp://10.99.0.12/system): fwd-u, server". */
void calvin_spec_where(const struct calvin_chain_spec *spec, char *buf, size_t len);

/* ==== diff.c ==== */

/* What changed between the chain file a chain was deployed with and a new
 * one, by meaning: each kind's parameters field by field, never where they
 * were written (a comment line that moves an acl's rules down changes
 * nothing), never padding or the unused bytes of the parameter union. Pure:
 * `calvin up` of a deployed chain (userspace/calvin/update.c) decides from
 * it what to update in place and what to refuse. */

#define CALVIN_DIFF_WHAT_MAX 160

struct calvin_spec_diff {
	/* A change to the deployment itself (backend, placement, probe port,
	 * server, the VNF list, a VNF's node, space, burst or PMD), in words
	 * for one line, e.g. "server kind (deployed: echo, file: reflect)";
	 * empty when there is none. Only the first one found is named. */
	char refused[CALVIN_DIFF_WHAT_MAX];
	/* VNFs, by index, whose kind's parameters changed */
	bool params[CALVIN_MAX_VNFS];
	unsigned int nr_params;
	/* the budget, the probe defaults, monitor: or supervise: changed:
	 * nothing deployed uses them */
	bool settings;
	/* supervise: changed (a settings change too): the running supervisor
	 * has the old limits, so `up` replaces it */
	bool supervise;
};

/* Compare the deployed spec old with new. When refused is set, params and
 * settings are not filled in. */
void calvin_spec_diff(const struct calvin_chain_spec *old, const struct calvin_chain_spec *new,
		      struct calvin_spec_diff *d);

/* Do two VNFs of the same kind have the same parameters? */
bool calvin_vnf_params_equal(const struct calvin_vnf_spec *a, const struct calvin_vnf_spec *b);

#endif /* CALVIN_LIB_SPEC_H */
