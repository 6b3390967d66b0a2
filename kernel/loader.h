/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Loader of the XDP VNFs (libxdp), linked into the calvin controller.
 *
 * The programs are built into it: each loader embeds its NAME.bpf.o as a
 * BPF skeleton (bpftool gen skeleton), so nothing here opens a file,
 * except the hand-over program's loader (see below) and the dispatcher
 * check, which opens libxdp's own object.
 *
 * The caller has entered the node's network namespace (setns) and bpffs is
 * mounted at /sys/fs/bpf. Every function returns 0 or -errno and prints
 * nothing: libbpf's and libxdp's own messages are silenced, and the caller
 * prints one line per failure from the function's name and strerror(-err),
 * e.g. "Failed to attach XDP program forward to west: Operation not
 * permitted". Set CALVIN_XDP_DEBUG=1 in the environment to get the
 * libraries' messages (verifier log included) on stderr instead.
 *
 * On failure nothing is left attached or pinned by the failed call.
 */
#ifndef CALVIN_LOADER_H
#define CALVIN_LOADER_H

#include <stdbool.h>
#include <stdint.h>

#include "calvin_xdp.h"

struct calvin_xdp_forward_cfg {
	const char *pin_dir; /* e.g. /sys/fs/bpf/calvin/CHAIN/VNF: created, maps pinned here */
	uint16_t vnf_id;
	uint16_t probe_port;
	int west_ifindex, east_ifindex;
	uint8_t west_peer_mac[6]; /* far end of the west link */
	uint8_t east_peer_mac[6]; /* far end of the east link */
	/* Kernel VNFs sharing this node's ports (run in order by libxdp's
	 * dispatcher): this one's index among them in chain order, and how many
	 * there are (0 or 1: alone, the default). A frame meets them in chain
	 * order whichever way it goes (a dispatcher priority is the program's,
	 * not the port's); the last one forwards, the others decide, stamp
	 * their hop record and XDP_PASS to the next. Only meaningful where
	 * calvin_xdp_dispatcher_available() says 1. */
	unsigned int node_index, node_count;
	/* The clock domain the node's hop records carry: 0, the host's
	 * (CALVIN_CLOCK_HOST_MONO), unless the node is a VM of its own. */
	uint8_t clock;
};

/* Every two-port kernel VNF (forward, acl, router, ratelimit, impair) takes
 * these fields; its own settings come beside them in its cfg. */

/* Attach forward.bpf.c to both ports (native mode, through libxdp: its
 * dispatcher where the kernel allows it, else a single legacy program),
 * fill its port table and devmap, and pin its maps (CALVIN_PIN_*) under
 * pin_dir. */
int calvin_xdp_forward_attach(const struct calvin_xdp_forward_cfg *cfg);

/* Throughput mode: attach forward_tc.bpf.c, the same forwarder on socket
 * buffers, to both ports' tc ingress (clsact), with the same maps and
 * pins, so that the ports' veth peers keep GSO/TSO (see forward_tc.bpf.c).
 * Several on a node run in chain order, by tc priority. The filters go
 * with the interfaces: nothing to detach but the namespace. */
int calvin_tc_forward_attach(const struct calvin_xdp_forward_cfg *cfg);

/* An IPv4 or IPv6 prefix, as the acl and router loaders take it. */
struct calvin_xdp_prefix {
	uint8_t family;	  /* CALVIN_FAMILY_*; ANY (length 0) matches any address */
	uint8_t len;	  /* prefix length in bits */
	uint8_t addr[16]; /* network byte order; IPv4 in the first 4 bytes; host bits ignored */
};

/* Inclusive port range; 0-65535 matches any port. */
struct calvin_xdp_port_range {
	uint16_t lo, hi;
};

/* One acl rule: the first rule that matches decides. A rule with a port
 * range narrower than 0-65535 only matches TCP and UDP. */
struct calvin_xdp_acl_rule {
	struct calvin_xdp_prefix src, dst; /* of one family, or either any */
	struct calvin_xdp_port_range sport, dport;
	uint8_t proto;	/* IPPROTO_*, 0 = any */
	uint8_t action; /* CALVIN_XDP_ACL_* */
};

/* An acl's rules, and its action where none matches. */
struct calvin_xdp_acl {
	uint32_t default_action; /* CALVIN_XDP_ACL_* */
	uint32_t nr_rules;
	struct calvin_xdp_acl_rule rules[CALVIN_XDP_ACL_MAX_RULES];
};

struct calvin_xdp_acl_cfg {
	struct calvin_xdp_forward_cfg fwd; /* ports, ids, place on the node */
	const struct calvin_xdp_acl *acl;
};

/* Attach acl.bpf.c like the forwarder, with the rules compiled into its maps
 * before it forwards anything; also pins CALVIN_PIN_ACL_*. -E2BIG for more
 * than CALVIN_XDP_ACL_MAX_RULES rules, -EINVAL for a rule the program
 * cannot express (a prefix longer than its family allows, src and dst of
 * two families, a range whose lo is above its hi) or an unknown action. */
int calvin_xdp_acl_attach(const struct calvin_xdp_acl_cfg *cfg);

/* Replace the rules of a running acl VNF. The new set is written beside the
 * one in use and switched to with one 4-byte write, so every packet sees
 * either the whole old set or the whole new one. Hit counters of the new set
 * start at 0. Two updates must not race each other (one controller). */
int calvin_xdp_acl_update(const char *pin_dir, const struct calvin_xdp_acl *acl);

/* Hits of the rule set in use, summed over CPUs: hits[i] for rule i (n at
 * most CALVIN_ACL_MAX_RULES; rules past the set's end read 0) and the
 * packets decided by the default action. Either pointer may be NULL. */
int calvin_xdp_acl_read_hits(const char *pin_dir, uint64_t *hits, unsigned int n,
			     uint64_t *default_hits);

/* A route sends a prefix out of one of the router's two ports, or drops
 * it; the longest prefix that matches decides, and none: dropped. */
struct calvin_xdp_route {
	struct calvin_xdp_prefix prefix; /* family any: the default route of both families */
	uint32_t via;			 /* CALVIN_XDP_VIA_* */
};

struct calvin_xdp_routes {
	uint32_t nr_routes;
	struct calvin_xdp_route routes[CALVIN_XDP_ROUTER_MAX_ROUTES];
};

struct calvin_xdp_router_cfg {
	struct calvin_xdp_forward_cfg fwd; /* must be the node's last: see below */
	const struct calvin_xdp_routes *router;
};

/* Attach router.bpf.c with the routes loaded into its LPM tries; also pins
 * CALVIN_PIN_ROUTES4/6 and CALVIN_PIN_ROUTER_VIA. A router picks the egress
 * port itself, so it must be the node's last kernel VNF (the one that
 * forwards): otherwise -EINVAL. -E2BIG beyond CALVIN_XDP_ROUTER_MAX_ROUTES
 * routes, -EINVAL for a bad prefix or via. */
int calvin_xdp_router_attach(const struct calvin_xdp_router_cfg *cfg);

/* Replace the routes of a running router: new and changed prefixes are
 * written first, then prefixes no longer among the routes are deleted, so
 * a prefix present before and after never misses. */
int calvin_xdp_router_update(const char *pin_dir, const struct calvin_xdp_routes *routes);

struct calvin_xdp_reflect_cfg {
	const char *pin_dir;
	uint16_t probe_port;
	int ifindex;
	/* false: bounce only probes, pass the rest to the node's stack (the
	 * echo server); true: bounce every IPv4/IPv6 frame (see
	 * kernel/reflect.bpf.c). */
	bool all;
};

/* Attach reflect.bpf.c to ifindex in the mode cfg->all says and pin its
 * stats under pin_dir. */
int calvin_xdp_reflect_attach(const struct calvin_xdp_reflect_cfg *cfg);

/* Attach pass.bpf.c to ifindex (see kernel/pass.bpf.c for why); nothing if
 * a hand-over program is there already, which does the same. */
int calvin_xdp_pass_attach(int ifindex);

/* The hand-over program of a user VNF's port (kernel/handover.bpf.c,
 * handover.h), for calvin-vnf: unlike the functions above, these use libbpf
 * alone and need no bpffs. Its object stays a file, handover.bpf.o: DPDK's
 * af_xdp PMD loads it by path, and the af_packet ports attach the same file,
 * so that both kinds of port always run the same program. */
struct calvin_handover_cfg;

/* Attach the program of obj_path (a handover.bpf.o) to ifindex in native
 * mode, configured with cfg: an af_packet port. -EEXIST or -EBUSY if an
 * XDP program is attached already. */
int calvin_handover_attach(const char *obj_path, int ifindex,
			   const struct calvin_handover_cfg *cfg);
/* Configure the hand-over program attached to ifindex: an af_xdp port,
 * whose PMD loaded and attached it. -ENOENT if what is attached there is
 * no hand-over program. */
int calvin_handover_configure(int ifindex, const struct calvin_handover_cfg *cfg);
/* 1 if ifindex runs a hand-over program, 0 if it runs another or none. */
int calvin_handover_attached(int ifindex);
/* Detach ifindex's hand-over program, if it still has one; 0 if not. */
int calvin_handover_detach(int ifindex);

/* Link two ports on the host (libvirt backend): attach link.bpf.c to both,
 * in the current network namespace, so that every frame arriving on one
 * leaves by the other. Removed with calvin_xdp_detach_all() on each. */
int calvin_xdp_link_attach(int a_ifindex, int b_ifindex);

/* Can several XDP programs share an interface here (libxdp's dispatcher)?
 * 1 or 0, probed once the way libxdp does (load an extension program,
 * BPF_PROG_TYPE_EXT, of the dispatcher's compat_test function) and cached.
 *
 * On this project's build host (kernel 6.18, lockdown "integrity", LSMs
 * lockdown,capability,landlock,bpfdisp) it is 0: loading any program that
 * attaches to a BTF function (EXT, and fentry/TRACING too) fails with
 * EPERM, as root with every capability, while XDP and kprobe programs load;
 * the LSM named bpfdisp is the likely refuser. libxdp then falls back to one
 * legacy XDP program per interface, and attaching a second program to an
 * interface that holds one fails with -EBUSY ("Existing program is not
 * using a dispatcher, can't replace; unload first"). So the controller
 * must give each kernel VNF a node of its own where this says 0. */
int calvin_xdp_dispatcher_available(void);

/* Remove every XDP program from ifindex (libxdp dispatcher, or a legacy
 * single program such as DPDK's), and libxdp's bpffs pins for it. 0 if none. */
int calvin_xdp_detach_all(int ifindex);

/* A reference on the program attached to ifindex in native mode (libxdp's
 * dispatcher where it uses one): an fd that keeps the program, and with
 * it its maps and their state, alive if someone detaches it; its id in
 * *id. -ENOENT when none is attached. */
int calvin_xdp_hold(int ifindex, uint32_t *id);
/* The id of the program attached to ifindex in native mode now (0:
 * none). 0 or -errno. */
int calvin_xdp_native_id(int ifindex, uint32_t *id);
/* Attach the program prog_fd holds to ifindex again, in native mode,
 * replacing what is there: the same program with the same maps, so
 * nothing is loaded or filled anew. */
int calvin_xdp_reattach(int ifindex, int prog_fd);

/* Sum the per-CPU stats pinned under pin_dir, per direction
 * (out[CALVIN_DIR_FWD], out[CALVIN_DIR_REV]). */
int calvin_xdp_read_stats(const char *pin_dir, struct calvin_vnf_stats out[2]);

/* The counters of struct calvin_vnf_stats by name, in the order status
 * shows them; the first four are always shown, the rest when not 0. */
struct calvin_xdp_stat_field {
	const char *name;
	unsigned int offset; /* of its __u64 in struct calvin_vnf_stats */
};
extern const struct calvin_xdp_stat_field calvin_xdp_stat_fields[];
extern const unsigned int calvin_xdp_nr_stat_fields;
/* The value of field i of s. */
uint64_t calvin_xdp_stat(const struct calvin_vnf_stats *s, unsigned int i);

#endif /* CALVIN_LOADER_H */
