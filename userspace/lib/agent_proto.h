/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
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
 * traffic keys of that VNF's own SAs in one epoch (keys, sa_set.h), keeps
 * them in memory, hands them to calvin-vnf at start and wipes them. A
 * start needs keys of an epoch later than any it started with: a stop and
 * a start without fresh keys is refused, so no (key, nonce) pair repeats.
 * Version 2 took the seed and the key file out of configure and added keys.
 */
#ifndef CALVIN_LIB_AGENT_PROTO_H
#define CALVIN_LIB_AGENT_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CALVIN_AGENT_VERSION 2
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
	CALVIN_AGENT_KEYS,	/* host: the traffic keys of the VNF's SAs (sa_set.h) */
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

/* i32 cpu, 6 bytes west peer MAC, 6 bytes east peer MAC, u16 west MTU,
 * u16 east MTU, then the strings vnf and spec. */
struct calvin_agent_configure {
	int32_t cpu;			    /* the vCPU the VNF runs on; -1: any */
	uint8_t west_peer[6], east_peer[6]; /* far ends of the node's links */
	uint16_t west_mtu, east_mtu;	    /* 0: leave the NIC's own */
	struct calvin_agent_str vnf;	    /* the VNF's name in spec */
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
		/* the bytes of a calvin_sa_set (sa_set.h), CALVIN_SA_SET_HDR_LEN to
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

#endif /* CALVIN_LIB_AGENT_PROTO_H */
