/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Types shared by the files of calvin-vnf, the DPDK user-space VNF runtime.
 *
 * One process runs one VNF on one node: a port "west" (toward the probe)
 * and, for transforms that need it, a port "east" (toward the server). One
 * lcore polls them and hands each received burst to the transform chosen
 * on the command line (see transforms.c): it busy-polls on a core of its
 * own, and sleeps in the kernel between frames on a shared one (wait.c).
 * With --wait loop, one process runs the co-located VNFs of a core (one
 * command line each, joined by --next): one EAL, each VNF's ports opened
 * in its own node's namespace (--netns), one loop polling them in turn.
 */
#ifndef CALVIN_VNF_H
#define CALVIN_VNF_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <time.h>

#include <rte_common.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "guest/guest.h"     /* enum calvin_wait */
#include "measure/measure.h" /* the telemetry codec, and the wire format it includes */
#include "spec/spec.h"       /* struct calvin_nc_spec, calvin_crypt_spec */

#define VNF_PROG "calvin-vnf"
#define VNF_MAX_BURST 64
/* Descriptors per rx and tx queue: small, since in latency mode a deep
 * ring only hides queueing (--ring). */
#define VNF_RING_DEFAULT 512
#define VNF_RING_MIN 64
#define VNF_RING_MAX 4096
#define VNF_BUSY_BUDGET_MAX 1024
#define VNF_NAME_MAX 32 /* chain and VNF names: they end up in the file prefix */
#define VNF_GROUP_MAX 8 /* VNFs of one --wait loop process */

/* CLOCK_MONOTONIC is what bpf_ktime_get_ns() reads, so user-space and
 * kernel hop records of one host can be compared. Read through the vDSO. */
static inline uint64_t vnf_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

enum vnf_side { VNF_WEST = 0, VNF_EAST = 1, VNF_SIDES };

static inline enum vnf_side vnf_other_side(enum vnf_side s)
{
	return s == VNF_WEST ? VNF_EAST : VNF_WEST;
}

/* Frames that come in on the west go toward the server (CALVIN_DIR_FWD). */
static inline unsigned int vnf_side_dir(enum vnf_side in)
{
	return in == VNF_WEST ? CALVIN_DIR_FWD : CALVIN_DIR_REV;
}

enum vnf_pmd { VNF_PMD_AF_XDP, VNF_PMD_AF_PACKET };

struct vnf_transform;

/* Co-located VNFs polling at real-time priority leave their core for
 * VNF_YIELD_LEAVE_US of every VNF_YIELD_PERIOD_US (--yield-window; loop.c) */
#define VNF_YIELD_PERIOD_US 256
#define VNF_YIELD_LEAVE_US 24

/* --yield-leave: sleep all of the leave (timer), the same with a process at
 * SCHED_IDLE spinning on the core meanwhile (spin), spin but let a frame end
 * the leave once the VNF has left enough of the core (early), or until a
 * frame comes (socket) */
enum vnf_leave { VNF_LEAVE_TIMER, VNF_LEAVE_SPIN, VNF_LEAVE_EARLY, VNF_LEAVE_SOCKET };

struct vnf_config {
	const char *chain;
	const char *name;
	const char *netns;  /* --netns: the node's namespace its ports live in; NULL: ours */
	unsigned int index; /* of this VNF in its process (--next), 0 alone */
	uint16_t vnf_id;
	unsigned int lcore;
	bool unpinned;	       /* --lcore any: run on any CPU of our affinity (shared placement) */
	enum calvin_wait wait; /* busy-poll, or sleep between frames (a shared core) */
	bool yield_fair;       /* --yield-sched normal: yield under the fair scheduler */
	enum vnf_leave leave;  /* --yield-leave: how a yielding VNF leaves its core (loop.c) */
	uint32_t yield_period_us, yield_leave_us; /* --yield-window PERIOD,LEAVE */
	uint16_t burst;
	uint16_t ring;	      /* descriptors of each rx and tx queue (--ring) */
	uint16_t busy_budget; /* af_xdp's preferred busy polling (--busy-budget; 0: off) */
	enum vnf_pmd pmd;		       /* preferred; af_packet also when af_xdp fails */
	bool pmd_forced;		       /* --pmd given: no fallback */
	const char *ifname[VNF_SIDES];	       /* NULL: side not used */
	struct rte_ether_addr peer[VNF_SIDES]; /* MAC at the far end of each link */
	bool has_peer[VNF_SIDES];
	uint16_t probe_port;
	uint8_t clock; /* the clock domain hop records carry (--clock; 0: the host's) */
	const struct vnf_transform *transform;
	unsigned int mem_mb;
	int ready_fd;			/* -1: none */
	bool lock_memory;		/* mlockall once set up: no page faults while polling */
	/* --direction sets the direction of both */
	struct calvin_nc_spec nc;	/* nc-encode, nc-decode */
	struct calvin_crypt_spec crypt; /* encrypt, decrypt; key_file unused */
	/* encrypt, decrypt: where the traffic keys of its SAs come from
	 * (codec/codec.h), read once at setup; -1: none */
	int keys_fd;
};

struct vnf_port {
	bool used; /* the side has an interface */
	bool started;
	uint16_t port_id;
	enum vnf_pmd pmd;	    /* the one actually in use */
	char devname[48];	    /* DPDK device name, e.g. net_af_xdp_west */
	struct rte_ether_addr mac;  /* our own */
	struct rte_ether_addr peer; /* far end of the link */
	uint8_t dir_in;		    /* CALVIN_DIR_* of frames received here */
	int wait_fd;		    /* --wait wakeup: the PMD's socket, polled when idle */
	bool handover;		    /* its hand-over program opens our hop records */
};

/* Counters of one port, seen from the polling lcore. rx counts what the port
 * received (direction dir_in), tx what was sent out of it; drops and probe
 * counters are charged to the port the frame came in on. */
struct vnf_port_stats {
	uint64_t rx_packets;
	uint64_t rx_bytes;
	uint64_t tx_packets;
	uint64_t tx_bytes;
	uint64_t tx_failed; /* not taken by tx_burst, freed */
	uint64_t probes_stamped;
	uint64_t probes_handover; /* of those, records the hand-over program opened */
	uint64_t probes_full;	 /* no free hop record: overflow flag set */
	uint64_t probes_invalid; /* probe port, but no telemetry block we know */
	uint64_t drop_not_ip;
	uint64_t drop_truncated;
};

/* Counters of the transforming VNFs (nc-*, encrypt, decrypt), for the
 * packets they transform, both directions together: a VNF seals (encodes)
 * one way and opens (decodes) the other, so each counter belongs to one
 * direction of a pair that transforms both. */
struct vnf_xform_stats {
	uint64_t untouched; /* not IPv4 UDP: forwarded as it came */
	uint64_t too_big;   /* would exceed the east MTU or the codec's limit: dropped */
	uint64_t no_mbuf;   /* pool empty: a repair or recovered frame not sent */
	uint64_t nc_source;
	uint64_t nc_repair_sent;
	uint64_t nc_forwarded;
	uint64_t nc_recovered;
	uint64_t nc_unrecoverable;
	uint64_t nc_duplicate;
	uint64_t nc_stale;
	uint64_t nc_malformed;
	uint64_t nc_repair_unused;
	uint64_t nc_resync; /* decoder restarted after a run of stale packets */
	uint64_t crypt_sealed;
	uint64_t crypt_opened;
	uint64_t crypt_bad_tag;
	uint64_t crypt_replay;
	uint64_t crypt_bad_spi;
	uint64_t crypt_truncated;  /* shorter than header + tag */
	uint64_t crypt_bad_header; /* unknown version or reserved bits */
	uint64_t crypt_failed;	   /* a local failure (sequence numbers used up, OpenSSL) */
};

/* Written only by the lcore that owns it; read by the telemetry thread. */
struct vnf_lcore_stats {
	struct vnf_port_stats port[VNF_SIDES];
	struct vnf_xform_stats xf;
	uint64_t sleeps; /* --wait wakeup, yield: times the lcore slept in the kernel */
} __rte_cache_aligned;

struct vnf {
	struct vnf_lcore_stats stats; /* written by the polling lcore only */
	struct vnf_config cfg;
	struct rte_mempool *pool;
	struct vnf_port port[VNF_SIDES];
	void *transform_priv; /* state of the transform, if it keeps any */
	/* MTU of each interface, read at setup by the transforms that grow
	 * frames (a veth drops what exceeds it, silently); 0: unknown */
	unsigned int mtu[VNF_SIDES];
};

/* What the parser learnt about a frame (offsets from the frame start). */
struct vnf_pkt {
	uint16_t l3_off;
	uint16_t l4_off;     /* 0: no L4 header we handle (fragment, other protocol) */
	uint16_t ether_type; /* host order: RTE_ETHER_TYPE_IPV4 or _IPV6 */
	uint8_t l4_proto;    /* IPPROTO_* when l4_off != 0 */
	bool probe;	     /* IPv4 UDP to or from the probe port, not a fragment */
};

enum vnf_verdict { VNF_PKT_OK, VNF_PKT_NOT_IP, VNF_PKT_TRUNCATED };

/* Probes of one burst, stamped by vnf_tx() just before they leave. */
struct vnf_probes {
	uint64_t t_in;
	enum vnf_side in;
	uint16_t nb;
	struct rte_mbuf *pkts[VNF_MAX_BURST];
	uint16_t l4_off[VNF_MAX_BURST];
};

/* Frames on their way out of one side, sent when full or flushed. */
struct vnf_out {
	enum vnf_side side;
	uint16_t n;
	struct rte_mbuf *pkts[VNF_MAX_BURST];
	struct vnf_probes probes;
};

/* Where the application bytes of an IPv4 UDP frame are: the UDP payload
 * after the probe's telemetry block, if any, up to the end of the frame
 * (Ethernet padding trimmed). Offsets from the frame start. */
struct vnf_app {
	uint16_t l3_off;
	uint16_t l4_off;
	uint16_t off;
	uint16_t len;
	bool probe; /* a telemetry block we know precedes the bytes */
};

/* Header room a template of Ethernet + IPv4 (with options) + UDP needs. */
#define VNF_TMPL_MAX 96

/* Groups of transform counters shown by /calvin/stats. */
#define VNF_CNT_XFORM 0x1
#define VNF_CNT_NC 0x2
#define VNF_CNT_CRYPT 0x4

/* A packet transform: what the lcore does with each received burst.
 * process() owns the burst: every mbuf must be sent (vnf_tx) or freed.
 * It runs in the hot loop: no allocation, no logging, no syscalls but
 * those of the PMD. setup() and teardown() run before and after the loop,
 * for transforms that keep state (keys, coding windows); setup() prints
 * its own one-line error. poll(), if set, runs on every turn of the loop,
 * received or not (got: the frames this turn received), for work due at a
 * deadline (flushing a generation) or left for a quiet moment (the repairs
 * of a generation a lone source closed); deadline() says when that is
 * (CLOCK_MONOTONIC ns, UINT64_MAX: nothing due), so a VNF that sleeps
 * between frames wakes up for it. */
struct vnf_transform {
	const char *name;
	const char *help;
	bool needs_east; /* forwards between two ports */
	int (*setup)(struct vnf *vnf);
	void (*teardown)(struct vnf *vnf);
	void (*process)(struct vnf *vnf, struct vnf_lcore_stats *st, enum vnf_side in,
			struct rte_mbuf **pkts, uint16_t n, uint64_t t_in);
	void (*poll)(struct vnf *vnf, struct vnf_lcore_stats *st, unsigned int got);
	uint64_t (*deadline)(const struct vnf *vnf);
	unsigned int counters; /* VNF_CNT_* */
};

/* args.c */
int vnf_args_parse(int argc, char **argv, struct vnf_config *cfg);
void vnf_usage(FILE *out);

/* ports.c */
int vnf_ports_open(struct vnf *vnf);
int vnf_ports_wait_link(struct vnf *vnf, unsigned int timeout_ms);
void vnf_ports_close(struct vnf *vnf);
const char *vnf_pmd_name(enum vnf_pmd pmd);

/* The VNFs one process runs: one, or a core's co-located VNFs (--wait loop). */
struct vnf_group {
	unsigned int n;
	struct vnf vnf[VNF_GROUP_MAX];
};

/* group.c */
int vnf_group_parse(int argc, char **argv, struct vnf_group *g);
int vnf_netns_enter(const struct vnf *vnf);

/* loop.c */
extern volatile sig_atomic_t vnf_quit; /* set by the SIGINT and SIGTERM handler */
/* argv[1] of calvin-vnf as the spinning process of a yielding VNF */
#define VNF_SPIN_ARG "--spin-for"
int vnf_spin_main(const char *cpu, const char *parent);
int vnf_loop(void *arg);	       /* arg: the struct vnf_group */
void vnf_tx(struct vnf *vnf, struct vnf_lcore_stats *st, enum vnf_side out, struct rte_mbuf **pkts,
	    uint16_t n, struct vnf_probes *probes);

/* wait.c */
/* The lowest real-time priority: above every normal task, below the
 * kernel's threaded interrupts. Yielding VNFs (loop.c) take it too: equal
 * priority is what makes sched_yield() hand the core to each other. */
#define VNF_RT_PRIO 1
#define VNF_FDSET_MAX 64
struct vnf_fdset {
	unsigned int n;
	int fd[VNF_FDSET_MAX];
};
struct vnf_wait {
	struct pollfd fds[VNF_SIDES * VNF_GROUP_MAX];
	nfds_t nfds;
	sigset_t mask; /* the lcore's mask while it sleeps: SIGTERM, SIGINT let in */
};
int vnf_sockets(enum vnf_pmd pmd, struct vnf_fdset *set);
int vnf_port_socket(enum vnf_pmd pmd, const struct vnf_fdset *before);
/* n: how many VNFs, in an array from vnf, it sleeps for (--wait loop) */
void vnf_wait_init(struct vnf_wait *w, const struct vnf *vnf, unsigned int n);
void vnf_wait_fini(struct vnf_wait *w);
void vnf_wait_sleep(struct vnf_wait *w, uint64_t deadline);
void vnf_wait_pause(struct vnf_wait *w, uint64_t until);
int vnf_rt_priority(void);

/* pkt.c */
enum vnf_verdict vnf_pkt_parse(const struct rte_mbuf *m, uint16_t probe_port, struct vnf_pkt *p);
void vnf_probes_stamp(const struct vnf *vnf, struct vnf_lcore_stats *st, struct vnf_probes *probes,
		      uint64_t t_out);

/* payload.c: what the transforming VNFs share */
void vnf_out_init(struct vnf_out *o, enum vnf_side side, enum vnf_side in, uint64_t t_in);
void vnf_out_add(struct vnf *vnf, struct vnf_lcore_stats *st, struct vnf_out *o, struct rte_mbuf *m,
		 bool probe, uint16_t l4_off);
void vnf_out_flush(struct vnf *vnf, struct vnf_lcore_stats *st, struct vnf_out *o);
uint16_t vnf_tlm_len(const uint8_t *payload, uint16_t len);
int vnf_app_prepare(struct vnf *vnf, struct vnf_lcore_stats *st, enum vnf_side in,
		    struct rte_mbuf *m, struct vnf_app *a, struct vnf_out *o);
void vnf_mtu_read(struct vnf *vnf);
/* What a transform does to one prepared frame: transform it and
 * vnf_out_add() it, or count it and free it. priv is the state of the
 * direction's transform. */
typedef void (*vnf_app_fn)(struct vnf *vnf, struct vnf_lcore_stats *st, void *priv,
			   struct rte_mbuf *m, struct vnf_app *a, struct vnf_out *o);
void vnf_app_burst(struct vnf *vnf, struct vnf_lcore_stats *st, enum vnf_side in,
		   struct rte_mbuf **pkts, uint16_t n, uint64_t t_in, vnf_app_fn fn, void *priv);
int vnf_app_grow(struct rte_mbuf *m, struct vnf_app *a, uint16_t head, uint16_t tail,
		 unsigned int mtu);
void vnf_app_shrink(struct rte_mbuf *m, struct vnf_app *a, uint16_t head, uint16_t tail);
struct rte_mbuf *vnf_frame_build(struct rte_mempool *pool, const uint8_t *tmpl,
				 const struct vnf_app *a, const void *bytes, uint16_t len);

/* nc.c, crypt.c: entries of the transform table */
extern const struct vnf_transform vnf_nc_encode, vnf_nc_decode;
extern const struct vnf_transform vnf_encrypt, vnf_decrypt;

/* forward.c: the transforms that only readdress */
extern const struct vnf_transform vnf_forward, vnf_echo;
void vnf_forward_process(struct vnf *vnf, struct vnf_lcore_stats *st, enum vnf_side in,
			 struct rte_mbuf **pkts, uint16_t n, uint64_t t_in);

/* transforms.c */
const struct vnf_transform *vnf_transform_find(const char *name);
void vnf_transforms_list(FILE *out);

/* stats.c */
int vnf_stats_register(const struct vnf_group *g);

/* handover.c */
const char *vnf_handover_obj(void);
void vnf_handover_start(struct vnf *vnf, enum vnf_side side);
void vnf_handover_stop(struct vnf *vnf, enum vnf_side side);

/* xdp_query.c */
int vnf_xdp_attached(unsigned int ifindex);

/* log.c: one line on stderr, "calvin-vnf: NAME: ..." */
void vnf_err_name(const char *name);
void vnf_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vnf_log_capture(void);
const char *vnf_log_first(void);
void vnf_log_release(void);

#endif /* CALVIN_VNF_H */
