// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* libFuzzer harness: arbitrary bytes into the chain spec parser; what
 * parses keeps the spec's contract (limits, pairs, a libvirt uri that
 * names no program, socket or key file), and its copy with resolved
 * key-file paths parses to the same spec. */
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <calvin/telemetry.h>

#include "spec/spec_priv.h" /* the parameter values too */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Valid specs with one value per line; libyaml is not instrumented, so
 * raw bytes rarely get past it into the value checks. Putting the input
 * into one slot of one of these templates fuzzes those checks directly.
 * Three templates, because a chain holds at most 8 VNFs: the kernel kinds
 * with a user forward, the encrypt/decrypt and nc pairs, and a libvirt
 * chain. A slot's index counts through all three (the seeds' first
 * bytes). */
static const char *const kernel_slots[][2] = {
    {"name: ", "c"},
    {"budget: ", "1ms"},
    {"placement: ", "pinned"},
    {"allow-sharing: ", "true"},
    {"backend: ", "netns"},
    {"vnfs:\n  - name: ", "a"},
    {"    kind: ", "forward"},
    {"    space: ", "user"},
    {"    burst: ", "1"},
    {"    pmd: ", "af_xdp"},
    {"  - name: ", "f"},
    {"    kind: ", "acl"},
    {"    node: ", "e"},
    {"    default: ", "deny"},
    {"    rules:\n      - action: ", "allow"},
    {"        proto: ", "udp"},
    {"        src: ", "10.0.0.0/8"},
    {"        dst: ", "10.70.0.2"},
    {"        sport: ", "1-2"},
    {"        dport: ", "7357"},
    {"  - name: ", "r"},
    {"    kind: ", "router"},
    {"    node: ", "e"},
    {"    routes:\n      - prefix: ", "10.70.0.0/24"},
    {"        via: ", "east"},
    {"      - prefix: ", "2001:db8::/32"},
    {"        via: ", "drop"},
    {"  - name: ", "l"},
    {"    kind: ", "ratelimit"},
    {"    pps: ", "1000"},
    {"    bytes-per-second: ", "0x100000"},
    {"    burst: ", "10"},
    {"    burst-bytes: ", "9000"},
    {"    per: ", "flow"},
    {"  - name: ", "i"},
    {"    kind: ", "impair"},
    {"    loss: ", "5%"},
    {"    duplicate: ", "0.1%"},
    {"    seed: ", "42"},
    {"    direction: ", "fwd"},
    {"  - name: ", "g"},
    {"    kind: ", "impair"},
    {"    model: ", "gilbert-elliott"},
    {"    p: ", "1%"},
    {"    r: ", "30%"},
    {"    loss-good: ", "0.001%"},
    {"    loss-bad: ", "50%"},
    {"server:\n  name: ", "s"},
    {"  kind: ", "echo"},
    {"probe:\n  port: ", "7357"},
    {"  count: ", "1000"},
    {"  rate: ", "1000"},
    {"  mode: ", "paced"},
    {"  size: ", "256"},
};

/* An nc pair around an encrypt/decrypt pair; the decryptor's spi-rev is
 * the default, which must be what the encryptor gives. */
static const char *const pair_slots[][2] = {
    {"name: c\nbudget: 1ms\nvnfs:\n  - name: ", "n"},
    {"    kind: ", "nc-encode"},
    {"    k: ", "4"},
    {"    r: ", "2"},
    {"    flush: ", "1ms"},
    {"    direction: ", "both"},
    {"  - name: ", "e"},
    {"    kind: ", "encrypt"},
    {"    cipher: ", "aes-256-gcm"},
    {"    key-file: ", "k.key"},
    {"    spi: ", "0x100"},
    {"    spi-rev: ", "0x101"},
    {"    direction: ", "both"},
    {"  - name: ", "x"},
    {"    kind: ", "decrypt"},
    {"    cipher: ", "aes-256-gcm"},
    {"    key-file: ", "k.key"},
    {"    spi: ", "0x100"},
    {"    replay-window: ", "64"},
    {"  - name: ", "d"},
    {"    kind: ", "nc-decode"},
    {"    k: ", "4"},
    {"    r: ", "2"},
    {"    direction: ", "both"},
};

/* A libvirt chain: its section's values, the uri above all (libvirt acts
 * on it as root). */
static const char *const libvirt_slots[][2] = {
    {"name: c\nbudget: 1ms\nbackend: libvirt\nvnfs:\n  - name: ", "a"},
    {"    kind: ", "forward"},
    {"libvirt:\n  uri: ", "qemu+ssh://edge/system?no_tty=1"},
    {"  links: ", "bridge"},
    {"  memory: ", "1GiB"},
    {"  image: ", "img"},
    {"  accel: ", "tcg"},
};

/* A chain across hosts: the hosts list (a uri libvirt acts on as root),
 * each node's host, the OVN database. */
static const char *const hosts_slots[][2] = {
    {"name: c\nbudget: 1ms\nbackend: libvirt\nhosts:\n  - name: ", "b"},
    {"    uri: ", "qemu+tcp://10.99.0.12/system"},
    {"    chassis: ", "b"},
    {"ovn:\n  nb: ", "tcp:10.99.0.2:6641"},
    {"vnfs:\n  - name: a\n    kind: forward\n    host: ", "b"},
    {"server:\n  host: ", "local"},
};

#define NR_KERNEL_SLOTS (sizeof(kernel_slots) / sizeof(kernel_slots[0]))
#define NR_PAIR_SLOTS (sizeof(pair_slots) / sizeof(pair_slots[0]))
#define NR_LIBVIRT_SLOTS (sizeof(libvirt_slots) / sizeof(libvirt_slots[0]))
#define NR_HOSTS_SLOTS (sizeof(hosts_slots) / sizeof(hosts_slots[0]))

/* What the parser lets through, checked without its code: one of the
 * allowed beginnings, and after '?' only no_tty and mode. */
static bool uri_ok(const char *uri)
{
	static const char *const starts[] = {"qemu:///", "qemu+ssh://", "qemu+tls://",
					     "qemu+tcp://"};
	const char *p;
	bool start = false;
	size_t i;

	for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		start |= !strncmp(uri, starts[i], strlen(starts[i]));
	if (!start || strpbrk(uri, "%# \t\n"))
		return false;
	for (p = strchr(uri, '?'); p; p = strpbrk(p + 1, "&;"))
		if (strncmp(p + 1, "no_tty=", 7) && strncmp(p + 1, "mode=", 5))
			return false;
	return true;
}

static bool prefix_ok(const struct calvin_prefix *p)
{
	struct calvin_prefix again;
	char buf[CALVIN_PREFIX_STR_MAX];

	if (p->family == 0)
		return p->len == 0;
	if ((p->family != AF_INET || p->len > 32) && (p->family != AF_INET6 || p->len > 128))
		return false;
	/* no host bits: it reads back as itself */
	return calvin_parse_prefix(calvin_prefix_str(p, buf, sizeof(buf)), &again) == 0 &&
	       !memcmp(&again, p, sizeof(again));
}

static bool rule_ok(const struct calvin_acl_rule *r)
{
	bool any_ports =
	    r->sport.lo == 0 && r->sport.hi == 65535 && r->dport.lo == 0 && r->dport.hi == 65535;

	return prefix_ok(&r->src) && prefix_ok(&r->dst) && r->sport.lo <= r->sport.hi &&
	       r->dport.lo <= r->dport.hi && r->action <= CALVIN_ACL_DENY &&
	       (any_ports || r->proto == IPPROTO_TCP || r->proto == IPPROTO_UDP) &&
	       (!r->src.family || !r->dst.family || r->src.family == r->dst.family);
}

static bool params_ok(const struct calvin_vnf_spec *v)
{
	const struct calvin_impair_spec *im = &v->impair;
	unsigned int i;

	switch (v->kind) {
	case CALVIN_VNF_FORWARD:
		return true;
	case CALVIN_VNF_ACL:
		for (i = 0; i < v->acl.nr_rules; i++)
			if (!rule_ok(&v->acl.rules[i]))
				return false;
		return v->acl.nr_rules <= CALVIN_ACL_MAX_RULES;
	case CALVIN_VNF_ROUTER:
		for (i = 0; i < v->router.nr_routes; i++)
			if (!prefix_ok(&v->router.routes[i].prefix) ||
			    v->router.routes[i].via > CALVIN_VIA_DROP)
				return false;
		return v->router.nr_routes >= 1 && v->router.nr_routes <= CALVIN_ROUTER_MAX_ROUTES;
	case CALVIN_VNF_RATELIMIT:
		return (v->ratelimit.pps || v->ratelimit.bytes_per_sec) &&
		       !v->ratelimit.pps == !v->ratelimit.burst_packets &&
		       !v->ratelimit.bytes_per_sec == !v->ratelimit.burst_bytes;
	case CALVIN_VNF_IMPAIR:
		return im->loss_ppm <= 1000000 && im->ge_p_ppm <= 1000000 &&
		       im->ge_r_ppm <= 1000000 && im->ge_loss_good_ppm <= 1000000 &&
		       im->ge_loss_bad_ppm <= 1000000 && im->duplicate_ppm <= 1000000;
	case CALVIN_VNF_NC_ENCODE:
	case CALVIN_VNF_NC_DECODE:
		return v->nc.k >= 1 && v->nc.k <= 64 && v->nc.r <= 64 && v->nc.flush_ns > 0 &&
		       v->nc.direction <= CALVIN_DIRS_REV;
	case CALVIN_VNF_ENCRYPT:
	case CALVIN_VNF_DECRYPT:
		return v->crypt.spi >= 1 && v->crypt.spi_rev >= 1 &&
		       v->crypt.spi != v->crypt.spi_rev && v->crypt.direction <= CALVIN_DIRS_REV &&
		       v->crypt.key_file[0] &&
		       memchr(v->crypt.key_file, 0, sizeof(v->crypt.key_file));
	}
	return false;
}

static bool pair_matches(const struct calvin_vnf_spec *h, const struct calvin_vnf_spec *t)
{
	if (calvin_pair_closer(h->kind) != t->kind)
		return false;
	if (t->kind == CALVIN_VNF_NC_DECODE)
		return h->nc.k == t->nc.k && h->nc.r == t->nc.r &&
		       h->nc.direction == t->nc.direction;
	return h->crypt.spi == t->crypt.spi && h->crypt.spi_rev == t->crypt.spi_rev &&
	       h->crypt.cipher == t->crypt.cipher && h->crypt.direction == t->crypt.direction &&
	       !strcmp(h->crypt.key_file, t->crypt.key_file);
}

/* Pairs nest and match: each tail closes the last head still open. */
static bool pairs_ok(const struct calvin_chain_spec *spec)
{
	const struct calvin_vnf_spec *open[CALVIN_MAX_VNFS], *v;
	unsigned int n = 0, i;

	for (i = 0; i < spec->nr_vnfs; i++) {
		v = &spec->vnfs[i];
		if (calvin_pair_head(v->kind))
			open[n++] = v;
		else if (calvin_pair_tail(v->kind) && (!n || !pair_matches(open[--n], v)))
			return false;
	}
	return n == 0;
}

/* The copy the controller keeps: the same spec, its key files replaced by
 * the paths it gives them, every VNF on the line it was. */
static void resolved_checked(const char *text, size_t size, struct calvin_chain_spec *spec)
{
	static struct calvin_chain_spec again;
	unsigned int i, n = 0;
	char *out = NULL, *key;
	size_t len = 0;

	for (i = 0; i < spec->nr_vnfs; i++) {
		key = spec->vnfs[i].crypt.key_file;
		if (spec->vnfs[i].kind != CALVIN_VNF_ENCRYPT &&
		    spec->vnfs[i].kind != CALVIN_VNF_DECRYPT)
			continue;
		/* as calvin_spec_load() makes it absolute */
		if (strlen(key) + 6 >= sizeof(spec->vnfs[i].crypt.key_file))
			return;
		memmove(key + 5, key, strlen(key) + 1);
		memcpy(key, "/abs/", 5);
		n++;
	}
	if (!n)
		return;
	if (calvin_spec_text_resolved(text, size, spec, &out, &len) ||
	    calvin_spec_parse(out, len, "f.yaml", &again, NULL, 0) ||
	    again.nr_vnfs != spec->nr_vnfs)
		abort();
	for (i = 0; i < spec->nr_vnfs; i++)
		if (strcmp(again.vnfs[i].crypt.key_file, spec->vnfs[i].crypt.key_file) ||
		    again.vnfs[i].pos.line != spec->vnfs[i].pos.line)
			abort();
	free(out);
}

/* Its space fits its kind, and a shared node holds neighbours in kernel space. */
static bool vnf_ok(const struct calvin_chain_spec *spec, unsigned int i)
{
	const struct calvin_vnf_spec *v = &spec->vnfs[i];
	unsigned int j;

	if (!calvin_name_valid(v->node) || !calvin_kind_allows_space(v->kind, v->space) ||
	    !strcmp(v->node, "probe") || !strcmp(v->node, spec->server.name))
		return false;
	for (j = i; j-- > 0;)
		if (!strcmp(spec->vnfs[j].node, v->node))
			return j == i - 1 && v->space == CALVIN_KERNEL &&
			       spec->vnfs[j].space == CALVIN_KERNEL && params_ok(v);
	return params_ok(v);
}

/* Every host is remote, reached by an allowed URI, and every node's host
 * is listed; another host needs VMs and an OVN database. */
static bool hosts_ok(const struct calvin_chain_spec *spec)
{
	char why[256];
	unsigned int i;

	if (!spec->nr_hosts != !spec->ovn.nb[0] || spec->nr_hosts > CALVIN_MAX_HOSTS ||
	    (spec->nr_hosts && calvin_ovn_remote_check(spec->ovn.nb, why, sizeof(why))))
		return false;
	for (i = 0; i < spec->nr_hosts; i++)
		if (!uri_ok(spec->hosts[i].uri) || calvin_libvirt_uri_local(spec->hosts[i].uri) ||
		    !strcmp(spec->hosts[i].name, CALVIN_LOCAL_HOST) || !spec->hosts[i].chassis[0])
			return false;
	for (i = 0; i < spec->nr_vnfs; i++)
		if (strcmp(spec->vnfs[i].host, CALVIN_LOCAL_HOST) &&
		    !calvin_spec_host(spec, spec->vnfs[i].host))
			return false;
	if (strcmp(spec->server.host, CALVIN_LOCAL_HOST) &&
	    !calvin_spec_host(spec, spec->server.host))
		return false;
	/* a probe crosses Geneve whole */
	return !calvin_spec_multihost(spec) ||
	       (spec->backend == CALVIN_BACKEND_LIBVIRT &&
		spec->probe.size + 28 <= calvin_link_mtu(spec));
}

/* The restart rule the supervisor divides by and shifts with. */
static bool supervise_ok(const struct calvin_supervise_spec *r)
{
	return r->restarts >= 1 && r->restarts <= CALVIN_RESTARTS_MAX &&
	       r->within_ns >= 1000000000ULL && r->within_ns <= 3600000000000ULL &&
	       r->backoff_min_ns >= 10000000ULL && r->backoff_min_ns <= r->backoff_max_ns &&
	       r->backoff_max_ns <= 60000000000ULL;
}

/* Beyond memory safety, check the contract: a spec that parses is within
 * its limits, and an error is one line that starts with the path. */
static void parse_checked(const char *data, size_t size)
{
	struct calvin_chain_spec spec;
	char err[CALVIN_ERR_MAX];
	unsigned int i;
	char *text;
	int ret;

	/* an exact-size copy, so reading past size is caught by ASan */
	text = malloc(size ? size : 1);
	if (!text)
		return;
	memcpy(text, data, size);
	ret = calvin_spec_parse(text, size, "f.yaml", &spec, err, sizeof(err));
	if (ret) {
		free(text);
		if ((ret != -EINVAL && ret != -ENOMEM) || strncmp(err, "f.yaml:", 7) ||
		    strchr(err, '\n'))
			abort();
		return;
	}
	if (!pairs_ok(&spec) || !uri_ok(spec.libvirt.uri) || !hosts_ok(&spec) ||
	    !supervise_ok(&spec.supervise))
		abort();
	resolved_checked(text, size, &spec);
	free(text);
	if (!calvin_name_valid(spec.name) || spec.budget_ns == 0 || spec.nr_vnfs < 1 ||
	    spec.nr_vnfs > CALVIN_MAX_VNFS || !calvin_name_valid(spec.server.name) ||
	    spec.probe.port < 1 || spec.probe.port > 65535 || spec.probe.size > 1472 ||
	    spec.probe.size < CALVIN_TLM_LEN(2 * spec.nr_vnfs) || spec.probe.count < 1 ||
	    spec.probe.count > 10000000 || spec.probe.rate < 1 || spec.probe.rate > 1000000)
		abort();
	for (i = 0; i < spec.nr_vnfs; i++)
		if (!calvin_name_valid(spec.vnfs[i].name) || spec.vnfs[i].burst < 1 ||
		    spec.vnfs[i].burst > 512 || !strcmp(spec.vnfs[i].name, spec.server.name) ||
		    (spec.vnfs[i].space == CALVIN_KERNEL && spec.vnfs[i].burst != 1) ||
		    !vnf_ok(&spec, i))
			abort();
}

/* The first byte picks a slot of one template, the rest is its value. */
static void parse_in_template(const uint8_t *data, size_t size)
{
	const char *const(*slots)[2] = kernel_slots;
	size_t nr = NR_KERNEL_SLOTS, slot, i, len = 0, cap = size;
	char *text;

	if (size < 1)
		return;
	slot = data[0] % (NR_KERNEL_SLOTS + NR_PAIR_SLOTS + NR_LIBVIRT_SLOTS + NR_HOSTS_SLOTS);
	if (slot >= NR_KERNEL_SLOTS + NR_PAIR_SLOTS + NR_LIBVIRT_SLOTS) {
		slots = hosts_slots;
		nr = NR_HOSTS_SLOTS;
		slot -= NR_KERNEL_SLOTS + NR_PAIR_SLOTS + NR_LIBVIRT_SLOTS;
	} else if (slot >= NR_KERNEL_SLOTS + NR_PAIR_SLOTS) {
		slots = libvirt_slots;
		nr = NR_LIBVIRT_SLOTS;
		slot -= NR_KERNEL_SLOTS + NR_PAIR_SLOTS;
	} else if (slot >= NR_KERNEL_SLOTS) {
		slots = pair_slots;
		nr = NR_PAIR_SLOTS;
		slot -= NR_KERNEL_SLOTS;
	}
	for (i = 0; i < nr; i++)
		cap += strlen(slots[i][0]) + strlen(slots[i][1]) + 1;
	text = malloc(cap);
	if (!text)
		return;
	for (i = 0; i < nr; i++) {
		len += (size_t)snprintf(text + len, cap - len, "%s", slots[i][0]);
		if (i == slot) {
			memcpy(text + len, data + 1, size - 1);
			len += size - 1;
		} else {
			len += (size_t)snprintf(text + len, cap - len, "%s", slots[i][1]);
		}
		text[len++] = '\n';
	}
	parse_checked(text, len);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	parse_checked((const char *)data, size);
	parse_in_template(data, size);
	return 0;
}
