/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Chain spec: the parsed form of a chains/*.yaml file, and its parser.
 *
 * The parser is pure (text in, struct or one error line out, no I/O);
 * calvin_spec_load() adds the file read. Every error names
 * "path:line:column: what is wrong; what to do" in a single line. */
#ifndef CALVIN_LIB_CHAINSPEC_H
#define CALVIN_LIB_CHAINSPEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* chain and node names: [a-z][a-z0-9-]*, at most this many characters;
 * short because they become parts of netns names, DPDK file prefixes and
 * bpffs paths */
#define CALVIN_NAME_MAX 24
#define CALVIN_MAX_VNFS 8
#define CALVIN_ERR_MAX 512

enum calvin_vnf_kind {
	CALVIN_VNF_FORWARD,
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

enum calvin_pmd {
	CALVIN_PMD_AF_XDP, /* preferred; falls back to af_packet with a warning */
	CALVIN_PMD_AF_PACKET,
};

enum calvin_server_kind {
	CALVIN_SERVER_ECHO, /* reflects probes (XDP_TX), passes the rest to the node's stack */
};

enum calvin_probe_mode {
	CALVIN_PROBE_PACED, /* send at a fixed rate, whatever comes back */
	CALVIN_PROBE_PINGPONG, /* send the next when the last came back (or timed out) */
};

/* Where a value came from in the file, for errors found after parsing. */
struct calvin_pos {
	int line; /* 1-based */
	int col; /* 1-based */
};

struct calvin_vnf_spec {
	char name[CALVIN_NAME_MAX + 1];
	enum calvin_vnf_kind kind;
	enum calvin_space space;
	unsigned int burst; /* user space only: 1 = latency mode (default) */
	enum calvin_pmd pmd; /* user space only */
	struct calvin_pos pos;
};

struct calvin_server_spec {
	char name[CALVIN_NAME_MAX + 1]; /* default "server" */
	enum calvin_server_kind kind;
};

struct calvin_probe_spec {
	unsigned int port; /* UDP port that marks probes; default 7357 */
	unsigned int count; /* probes per run; default 1000 */
	unsigned int rate; /* probes per second in paced mode; default 1000 */
	enum calvin_probe_mode mode; /* default paced */
	unsigned int size; /* UDP payload bytes, telemetry block included; default 256 */
};

struct calvin_chain_spec {
	char name[CALVIN_NAME_MAX + 1];
	char path[4096]; /* the file it came from */
	uint64_t budget_ns; /* RTT budget of the MEC part */
	enum calvin_placement placement; /* default pinned */
	bool allow_sharing; /* a plan that cannot dedicate cores may share them */
	enum calvin_backend backend; /* default netns */
	unsigned int nr_vnfs;
	struct calvin_vnf_spec vnfs[CALVIN_MAX_VNFS];
	struct calvin_server_spec server;
	struct calvin_probe_spec probe;
};

/* Parse a chain spec from text (len bytes, need not be NUL-terminated).
 * path is only used in error messages and copied into spec->path.
 * Returns 0, or -EINVAL with one line in err ("path:line:col: ..."). */
int calvin_spec_parse(const char *text, size_t len, const char *path,
		      struct calvin_chain_spec *spec, char *err, size_t errlen);

/* Read and parse the file at path. A file that cannot be read gives
 * "path: cannot read: <strerror>" and -errno. */
int calvin_spec_load(const char *path, struct calvin_chain_spec *spec, char *err, size_t errlen);

/* "350us"-style durations: an integer or decimal with a unit ns, us, ms or s.
 * Returns 0, or -EINVAL (no unit, unknown unit, not a number, overflow). */
int calvin_parse_duration(const char *s, uint64_t *ns);

const char *calvin_vnf_kind_name(enum calvin_vnf_kind k);
const char *calvin_space_name(enum calvin_space s);
const char *calvin_placement_name(enum calvin_placement p);

#endif /* CALVIN_LIB_CHAINSPEC_H */
