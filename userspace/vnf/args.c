// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Command line of calvin-vnf: parsed before EAL init, since the EAL
 * arguments are built from it. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <calvin/nc.h>

#include "codec/codec.h"
#include "vnf.h"

enum {
	OPT_CHAIN = 256,
	OPT_NAME,
	OPT_VNF_ID,
	OPT_LCORE,
	OPT_BURST,
	OPT_RING,
	OPT_BUSY_BUDGET,
	OPT_PMD,
	OPT_WEST,
	OPT_EAST,
	OPT_WEST_PEER,
	OPT_EAST_PEER,
	OPT_PROBE_PORT,
	OPT_TRANSFORM,
	OPT_MEM_MB,
	OPT_READY_FD,
	OPT_LOCK_MEMORY,
	OPT_NC_K,
	OPT_NC_R,
	OPT_NC_FLUSH_NS,
	OPT_NC_FLUSH_EARLY,
	OPT_CIPHER,
	OPT_KEYS_FD,
	OPT_SPI,
	OPT_SPI_REV,
	OPT_DIRECTION,
	OPT_REPLAY_WINDOW,
	OPT_WAIT,
	OPT_YIELD_SCHED,
	OPT_YIELD_LEAVE,
	OPT_YIELD_WINDOW,
	OPT_CLOCK,
	OPT_NETNS,
	OPT_HELP,
};

static const struct option vnf_options[] = {
	{ "chain", required_argument, NULL, OPT_CHAIN },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "vnf-id", required_argument, NULL, OPT_VNF_ID },
	{ "lcore", required_argument, NULL, OPT_LCORE },
	{ "burst", required_argument, NULL, OPT_BURST },
	{ "ring", required_argument, NULL, OPT_RING },
	{ "busy-budget", required_argument, NULL, OPT_BUSY_BUDGET },
	{ "pmd", required_argument, NULL, OPT_PMD },
	{ "west", required_argument, NULL, OPT_WEST },
	{ "east", required_argument, NULL, OPT_EAST },
	{ "west-peer", required_argument, NULL, OPT_WEST_PEER },
	{ "east-peer", required_argument, NULL, OPT_EAST_PEER },
	{ "probe-port", required_argument, NULL, OPT_PROBE_PORT },
	{ "transform", required_argument, NULL, OPT_TRANSFORM },
	{ "mem-mb", required_argument, NULL, OPT_MEM_MB },
	{ "ready-fd", required_argument, NULL, OPT_READY_FD },
	{ "lock-memory", no_argument, NULL, OPT_LOCK_MEMORY },
	{ "nc-k", required_argument, NULL, OPT_NC_K },
	{ "nc-r", required_argument, NULL, OPT_NC_R },
	{ "nc-flush-ns", required_argument, NULL, OPT_NC_FLUSH_NS },
	{ "nc-flush-early", required_argument, NULL, OPT_NC_FLUSH_EARLY },
	{ "cipher", required_argument, NULL, OPT_CIPHER },
	{ "keys-fd", required_argument, NULL, OPT_KEYS_FD },
	{ "spi", required_argument, NULL, OPT_SPI },
	{ "spi-rev", required_argument, NULL, OPT_SPI_REV },
	{ "direction", required_argument, NULL, OPT_DIRECTION },
	{ "replay-window", required_argument, NULL, OPT_REPLAY_WINDOW },
	{ "wait", required_argument, NULL, OPT_WAIT },
	{ "yield-sched", required_argument, NULL, OPT_YIELD_SCHED },
	{ "yield-leave", required_argument, NULL, OPT_YIELD_LEAVE },
	{ "yield-window", required_argument, NULL, OPT_YIELD_WINDOW },
	{ "clock", required_argument, NULL, OPT_CLOCK },
	{ "netns", required_argument, NULL, OPT_NETNS },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

void vnf_usage(FILE *out)
{
	fprintf(out, "usage: " VNF_PROG " --chain CHAIN --name VNF --vnf-id N --lcore CPU|any"
		     " [--wait busy|wakeup|yield|loop] [--yield-sched fifo|normal]"
		     " [--yield-leave spin|early|timer|socket] [--yield-window 256,24]"
		     " [--burst 1] [--pmd af_xdp|af_packet] --west IFNAME [--east IFNAME]"
		     " [--west-peer MAC] [--east-peer MAC] --probe-port PORT"
		     " [--transform forward|echo|nc-encode|nc-decode|encrypt|decrypt]"
		     " [--mem-mb 64] [--ready-fd FD] [--lock-memory] [--clock 0]"
		     " [--ring 512] [--busy-budget 0] [--netns PATH]"
		     " [--next OPTIONS OF ANOTHER VNF ...]\n"
		     "  nc-encode, nc-decode: [--nc-k 4] [--nc-r 1] [--nc-flush-ns 1000000]"
		     " (0: never flush) [--nc-flush-early 1] [--direction both|fwd|rev]\n"
		     "  encrypt, decrypt: --keys-fd FD (the traffic keys of its SAs, from calvin)"
		     " [--cipher aes-256-gcm|chacha20-poly1305] [--spi 1] [--spi-rev SPI+1]"
		     " [--direction both|fwd|rev] [--replay-window 1024]\n"
		     "  --wait: busy-poll (default with --lcore CPU), sleep in the kernel between"
		     " frames (default with --lcore any), or poll and yield the core to a"
		     " neighbour whenever a poll finds nothing; loop: one process polls the"
		     " VNFs given one after another, their command lines joined by --next, in"
		     " one loop (all --wait loop, one --chain and --lcore)\n"
		     "  --netns: open the ports in this network namespace (a file such as"
		     " /run/netns/NAME)\n"
		     "  --yield-sched: a yielding VNF or a loop polls at real-time priority"
		     " (fifo, the default) or at nice -20 under the fair scheduler (normal);"
		     " at real-time priority it leaves the core LEAVE us of every PERIOD us"
		     " (--yield-window PERIOD,LEAVE), sleeping all of that time with a process"
		     " spinning on the core at SCHED_IDLE meanwhile (spin), the"
		     " same but a frame ends the leave once the VNF has left the core at least"
		     " 7/8 of LEAVE per PERIOD on average (early, the default); all of it without"
		     " the spinning process (timer); or until a frame comes (socket)\n"
		     "  --ring: descriptors per rx and tx queue (a power of two, 64..4096);"
		     " --busy-budget: af_xdp's preferred busy polling, frames per busy poll"
		     " (0: off; the PMD's own default is 64)\n");
}

static int bad_arg(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, VNF_PROG ": --%s '%s': %s\n", opt, val, why);
	return -EINVAL;
}

/* --yield-window PERIOD,LEAVE in us: the leave at least 1/16 of the period
 * (the kernel keeps 5% of each CPU from real-time tasks) and shorter than
 * it. */
static int parse_window(const char *arg, struct vnf_config *cfg)
{
	unsigned long period, leave;
	char *end;

	errno = 0;
	period = strtoul(arg, &end, 10);
	if (errno || end == arg || *end != ',' || arg[0] == '-')
		return bad_arg("yield-window", arg, "expected PERIOD,LEAVE in us");
	leave = strtoul(end + 1, &end, 10);
	if (errno || *end || period < 16 || period > 100000 || leave * 16 < period ||
	    leave >= period)
		return bad_arg("yield-window", arg,
			       "expected PERIOD 16..100000 us, LEAVE from PERIOD/16 to below PERIOD");
	cfg->yield_period_us = (uint32_t)period;
	cfg->yield_leave_us = (uint32_t)leave;
	return 0;
}

static int parse_uint(const char *opt, const char *s, unsigned long min, unsigned long max,
		      unsigned long *out)
{
	char buf[64];
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-' || *out < min || *out > max) {
		snprintf(buf, sizeof(buf), "expected a number in %lu..%lu", min, max);
		return bad_arg(opt, s, buf);
	}
	return 0;
}

/* Names become part of a file prefix and of telemetry output. */
static int parse_name(const char *opt, const char *s, const char **out)
{
	size_t i, len = strlen(s);

	if (len == 0 || len > VNF_NAME_MAX)
		return bad_arg(opt, s, "expected 1 to 32 characters");
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '_' || c == '.'))
			return bad_arg(opt, s, "use only letters, digits, '-', '_' and '.'");
	}
	*out = s;
	return 0;
}

static int parse_ifname(const char *opt, const char *s, const char **out)
{
	/* IFNAMSIZ is 16 with the terminating NUL; ',' and '=' would break devargs */
	if (strlen(s) == 0 || strlen(s) > 15 || strpbrk(s, ",= /"))
		return bad_arg(opt, s, "not an interface name");
	*out = s;
	return 0;
}

static int parse_mac(const char *opt, const char *s, struct rte_ether_addr *mac, bool *has)
{
	if (rte_ether_unformat_addr(s, mac) < 0)
		return bad_arg(opt, s, "expected a MAC address like 02:00:00:00:00:01");
	*has = true;
	return 0;
}

static int parse_pmd(const char *s, struct vnf_config *cfg)
{
	if (!strcmp(s, "af_xdp"))
		cfg->pmd = VNF_PMD_AF_XDP;
	else if (!strcmp(s, "af_packet"))
		cfg->pmd = VNF_PMD_AF_PACKET;
	else
		return bad_arg("pmd", s, "expected af_xdp or af_packet");
	cfg->pmd_forced = true;
	return 0;
}

static int parse_ready_fd(const char *s, int *fd)
{
	unsigned long v;
	int err;

	err = parse_uint("ready-fd", s, 0, INT_MAX, &v);
	if (err)
		return err;
	if (fcntl((int)v, F_GETFD) < 0)
		return bad_arg("ready-fd", s, "not an open file descriptor");
	*fd = (int)v;
	return 0;
}

static int parse_transform(const char *s, struct vnf_config *cfg)
{
	cfg->transform = vnf_transform_find(s);
	if (!cfg->transform) {
		fprintf(stderr, VNF_PROG ": --transform '%s': unknown; known:", s);
		vnf_transforms_list(stderr);
		return -EINVAL;
	}
	return 0;
}

static int parse_cipher(const char *s, struct vnf_config *cfg)
{
	if (!strcmp(s, calvin_cipher_name(CALVIN_CIPHER_AES_256_GCM)))
		cfg->crypt.cipher = CALVIN_CIPHER_AES_256_GCM;
	else if (!strcmp(s, calvin_cipher_name(CALVIN_CIPHER_CHACHA20_POLY1305)))
		cfg->crypt.cipher = CALVIN_CIPHER_CHACHA20_POLY1305;
	else
		return bad_arg("cipher", s, "expected aes-256-gcm or chacha20-poly1305");
	return 0;
}

static int parse_direction(const char *s, struct vnf_config *cfg)
{
	int d = calvin_word_lookup(calvin_direction_words, s);

	if (d < 0)
		return bad_arg("direction", s, "expected both, fwd or rev");
	cfg->nc.direction = (enum calvin_direction)d;
	cfg->crypt.direction = (enum calvin_direction)d;
	return 0;
}

/* Options of the network-coding and encryption transforms. */
static int parse_xform(int opt, const char *arg, struct vnf_config *cfg)
{
	unsigned long v;
	int err;

	switch (opt) {
	case OPT_NC_K:
		err = parse_uint("nc-k", arg, 1, CALVIN_NC_MAX_K, &v);
		cfg->nc.k = (unsigned int)v;
		return err;
	case OPT_NC_R:
		err = parse_uint("nc-r", arg, 0, CALVIN_NC_MAX_R, &v);
		cfg->nc.r = (unsigned int)v;
		return err;
	case OPT_NC_FLUSH_NS:
		err = parse_uint("nc-flush-ns", arg, 0, 10000000000UL, &v);
		cfg->nc.flush_ns = v;
		return err;
	case OPT_NC_FLUSH_EARLY:
		err = parse_uint("nc-flush-early", arg, 0, 1, &v);
		cfg->nc.flush_early = v == 1;
		return err;
	case OPT_CIPHER:
		return parse_cipher(arg, cfg);
	case OPT_KEYS_FD:
		err = parse_uint("keys-fd", arg, 0, INT32_MAX, &v);
		cfg->keys_fd = (int)v;
		return err;
	case OPT_SPI:
		err = parse_uint("spi", arg, 1, UINT32_MAX, &v);
		cfg->crypt.spi = (uint32_t)v;
		return err;
	case OPT_SPI_REV:
		err = parse_uint("spi-rev", arg, 1, UINT32_MAX, &v);
		cfg->crypt.spi_rev = (uint32_t)v;
		return err;
	case OPT_DIRECTION:
		return parse_direction(arg, cfg);
	case OPT_REPLAY_WINDOW:
		err = parse_uint("replay-window", arg, CALVIN_REPLAY_MIN, CALVIN_REPLAY_MAX, &v);
		cfg->crypt.replay_window = (unsigned int)v;
		return err;
	}
	return -EINVAL;
}

static int parse_one(int opt, const char *arg, struct vnf_config *cfg)
{
	unsigned long v;
	int err;

	switch (opt) {
	case OPT_CHAIN:
		return parse_name("chain", arg, &cfg->chain);
	case OPT_NAME:
		return parse_name("name", arg, &cfg->name);
	case OPT_VNF_ID:
		/* a hop record has a byte for it */
		err = parse_uint("vnf-id", arg, 0, UINT8_MAX, &v);
		cfg->vnf_id = (uint16_t)v;
		return err;
	case OPT_LCORE:
		/* "any": not pinned, the baseline of placement "shared" */
		cfg->unpinned = !strcmp(arg, "any");
		if (cfg->unpinned)
			return 0;
		err = parse_uint("lcore", arg, 0, RTE_MAX_LCORE - 1, &v);
		cfg->lcore = (unsigned int)v;
		return err;
	case OPT_BURST:
		err = parse_uint("burst", arg, 1, VNF_MAX_BURST, &v);
		cfg->burst = (uint16_t)v;
		return err;
	case OPT_RING:
		/* AF_XDP rings are powers of two */
		err = parse_uint("ring", arg, VNF_RING_MIN, VNF_RING_MAX, &v);
		if (!err && (v & (v - 1)))
			return bad_arg("ring", arg, "expected a power of two");
		cfg->ring = (uint16_t)v;
		return err;
	case OPT_BUSY_BUDGET:
		err = parse_uint("busy-budget", arg, 0, VNF_BUSY_BUDGET_MAX, &v);
		cfg->busy_budget = (uint16_t)v;
		return err;
	case OPT_PMD:
		return parse_pmd(arg, cfg);
	case OPT_WEST:
		return parse_ifname("west", arg, &cfg->ifname[VNF_WEST]);
	case OPT_EAST:
		return parse_ifname("east", arg, &cfg->ifname[VNF_EAST]);
	case OPT_WEST_PEER:
		return parse_mac("west-peer", arg, &cfg->peer[VNF_WEST], &cfg->has_peer[VNF_WEST]);
	case OPT_EAST_PEER:
		return parse_mac("east-peer", arg, &cfg->peer[VNF_EAST], &cfg->has_peer[VNF_EAST]);
	case OPT_PROBE_PORT:
		err = parse_uint("probe-port", arg, 1, UINT16_MAX, &v);
		cfg->probe_port = (uint16_t)v;
		return err;
	case OPT_TRANSFORM:
		return parse_transform(arg, cfg);
	case OPT_CLOCK:
		/* the VM's clock domain (see include/calvin/telemetry.h) */
		err = parse_uint("clock", arg, 0, UINT8_MAX, &v);
		cfg->clock = (uint8_t)v;
		return err;
	case OPT_MEM_MB:
		err = parse_uint("mem-mb", arg, 16, 65536, &v);
		cfg->mem_mb = (unsigned int)v;
		return err;
	case OPT_READY_FD:
		return parse_ready_fd(arg, &cfg->ready_fd);
	case OPT_WAIT:
		if (calvin_wait_parse(arg, &cfg->wait))
			return bad_arg("wait", arg, "expected busy, wakeup, yield or loop");
		return 0;
	case OPT_YIELD_SCHED:
		if (strcmp(arg, "fifo") && strcmp(arg, "normal"))
			return bad_arg("yield-sched", arg, "expected fifo or normal");
		cfg->yield_fair = !strcmp(arg, "normal");
		return 0;
	case OPT_YIELD_LEAVE:
		if (!strcmp(arg, "timer"))
			cfg->leave = VNF_LEAVE_TIMER;
		else if (!strcmp(arg, "spin"))
			cfg->leave = VNF_LEAVE_SPIN;
		else if (!strcmp(arg, "early"))
			cfg->leave = VNF_LEAVE_EARLY;
		else if (!strcmp(arg, "socket"))
			cfg->leave = VNF_LEAVE_SOCKET;
		else
			return bad_arg("yield-leave", arg, "expected spin, early, timer or socket");
		return 0;
	case OPT_YIELD_WINDOW:
		return parse_window(arg, cfg);
	case OPT_LOCK_MEMORY:
		cfg->lock_memory = true;
		return 0;
	case OPT_NETNS:
		if (arg[0] != '/' || strlen(arg) >= PATH_MAX)
			return bad_arg("netns", arg,
				       "expected an absolute path such as /run/netns/NAME");
		cfg->netns = arg;
		return 0;
	}
	return parse_xform(opt, arg, cfg);
}

static int missing(const char *what)
{
	fprintf(stderr, VNF_PROG ": %s is required\n", what);
	return -EINVAL;
}

/* What the options say together: each transform needs its ports and peers. */
static int check_config(const struct vnf_config *cfg, bool have_id, bool have_lcore)
{
	if (!cfg->chain)
		return missing("--chain");
	if (!cfg->name)
		return missing("--name");
	if (!have_id)
		return missing("--vnf-id");
	if (!have_lcore)
		return missing("--lcore");
	if (!cfg->ifname[VNF_WEST])
		return missing("--west");
	if (!cfg->probe_port)
		return missing("--probe-port");
	if (cfg->wait == CALVIN_WAIT_LOOP && cfg->unpinned) {
		fprintf(stderr, VNF_PROG ": --wait loop needs --lcore CPU (the core it polls)\n");
		return -EINVAL;
	}
	if (cfg->transform->needs_east) {
		if (!cfg->ifname[VNF_EAST]) {
			fprintf(stderr, VNF_PROG ": --east is required for --transform %s\n",
				cfg->transform->name);
			return -EINVAL;
		}
		if (!cfg->has_peer[VNF_WEST] || !cfg->has_peer[VNF_EAST]) {
			fprintf(stderr,
				VNF_PROG ": --west-peer and --east-peer are required for"
					 " --transform %s\n",
				cfg->transform->name);
			return -EINVAL;
		}
	}
	if ((cfg->transform->counters & VNF_CNT_CRYPT) && cfg->keys_fd < 0) {
		/* keys come from calvin, fresh for each start: never a file */
		fprintf(stderr, VNF_PROG ": --keys-fd is required for --transform %s\n",
			cfg->transform->name);
		return -EINVAL;
	}
	if (cfg->crypt.spi_rev == cfg->crypt.spi) {
		fprintf(stderr,
			VNF_PROG ": --spi-rev 0x%x is the same as --spi; each direction"
				 " needs an SPI of its own\n",
			cfg->crypt.spi);
		return -EINVAL;
	}
	if (cfg->ifname[VNF_EAST] && !strcmp(cfg->ifname[VNF_WEST], cfg->ifname[VNF_EAST])) {
		fprintf(stderr, VNF_PROG ": --west and --east name the same interface '%s'\n",
			cfg->ifname[VNF_WEST]);
		return -EINVAL;
	}
	return 0;
}

/* Returns 0, 1 when help was asked for, or -EINVAL (message printed). */
int vnf_args_parse(int argc, char **argv, struct vnf_config *cfg)
{
	bool have_id = false, have_lcore = false, have_spi_rev = false, have_wait = false;
	int opt, err;

	memset(cfg, 0, sizeof(*cfg));
	cfg->burst = 1;
	cfg->ring = VNF_RING_DEFAULT;
	cfg->pmd = VNF_PMD_AF_XDP;
	cfg->mem_mb = 64;
	cfg->ready_fd = -1;
	cfg->keys_fd = -1;
	cfg->leave = VNF_LEAVE_EARLY;
	cfg->yield_period_us = VNF_YIELD_PERIOD_US;
	cfg->yield_leave_us = VNF_YIELD_LEAVE_US;
	cfg->transform = vnf_transform_find("forward");
	/* the chain spec's defaults (userspace/lib/spec/spec.h) */
	cfg->nc.k = 4;
	cfg->nc.r = 1;
	cfg->nc.flush_ns = 1000000;
	cfg->nc.flush_early = true;
	cfg->crypt.cipher = CALVIN_CIPHER_AES_256_GCM;
	cfg->crypt.spi = 1;
	cfg->crypt.replay_window = 1024;

	opterr = 0;
	optind = 0; /* getopt starts over: one command line per VNF (--next) */
	while ((opt = getopt_long(argc, argv, "", vnf_options, NULL)) != -1) {
		if (opt == OPT_HELP)
			return 1;
		if (opt == '?' || opt == ':') {
			fprintf(stderr, VNF_PROG ": unknown option or missing value: '%s'\n",
				argv[optind - 1]);
			return -EINVAL;
		}
		err = parse_one(opt, optarg, cfg);
		if (err)
			return err;
		have_id |= opt == OPT_VNF_ID;
		have_lcore |= opt == OPT_LCORE;
		have_spi_rev |= opt == OPT_SPI_REV;
		have_wait |= opt == OPT_WAIT;
	}
	if (optind < argc) {
		fprintf(stderr, VNF_PROG ": unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	if (!have_spi_rev)
		cfg->crypt.spi_rev = calvin_spi_rev_default(cfg->crypt.spi);
	/* busy-poll only on a core of our own, unless told */
	if (!have_wait)
		cfg->wait = calvin_wait_for(false, cfg->unpinned ? -1 : (int)cfg->lcore);
	return check_config(cfg, have_id, have_lcore);
}
