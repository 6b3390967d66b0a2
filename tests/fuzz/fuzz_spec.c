// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* libFuzzer harness: arbitrary bytes into the chain spec parser. */
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <calvin/telemetry.h>

#include "chainspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A valid spec with one value per line; libyaml is not instrumented, so
 * raw bytes rarely get past it into the value checks. Putting the input
 * into one slot of this template fuzzes those checks directly. */
static const char *const slots[][2] = {
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
    {"  - name: ", "n"},
    {"    kind: ", "nc-encode"},
    {"    k: ", "4"},
    {"    r: ", "2"},
    {"    flush: ", "1ms"},
    {"  - name: ", "x"},
    {"    kind: ", "decrypt"},
    {"    cipher: ", "aes-256-gcm"},
    {"    key-file: ", "k.key"},
    {"    spi: ", "0x100"},
    {"    replay-window: ", "64"},
    {"server:\n  name: ", "s"},
    {"  kind: ", "echo"},
    {"probe:\n  port: ", "7357"},
    {"  count: ", "1000"},
    {"  rate: ", "1000"},
    {"  mode: ", "paced"},
    {"  size: ", "256"},
};
#define NR_SLOTS (sizeof(slots) / sizeof(slots[0]))

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
	bool any_ports = r->sport.lo == 0 && r->sport.hi == 65535 && r->dport.lo == 0 &&
			 r->dport.hi == 65535;

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
		return v->nc.k >= 1 && v->nc.k <= 64 && v->nc.r <= 64 && v->nc.flush_ns > 0;
	case CALVIN_VNF_ENCRYPT:
	case CALVIN_VNF_DECRYPT:
		return v->crypt.spi >= 1 && v->crypt.key_file[0] &&
		       memchr(v->crypt.key_file, 0, sizeof(v->crypt.key_file));
	}
	return false;
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
	free(text);
	if (ret) {
		if ((ret != -EINVAL && ret != -ENOMEM) || strncmp(err, "f.yaml:", 7) ||
		    strchr(err, '\n'))
			abort();
		return;
	}
	if (!calvin_name_valid(spec.name) || spec.budget_ns == 0 || spec.nr_vnfs < 1 ||
	    spec.nr_vnfs > CALVIN_MAX_VNFS || !calvin_name_valid(spec.server.name) ||
	    spec.probe.port < 1 || spec.probe.port > 65535 || spec.probe.size > 1472 ||
	    spec.probe.size < CALVIN_TLM_LEN(CALVIN_MAX_VNFS) || spec.probe.count < 1 ||
	    spec.probe.count > 10000000 || spec.probe.rate < 1 || spec.probe.rate > 1000000)
		abort();
	for (i = 0; i < spec.nr_vnfs; i++)
		if (!calvin_name_valid(spec.vnfs[i].name) || spec.vnfs[i].burst < 1 ||
		    spec.vnfs[i].burst > 512 || !strcmp(spec.vnfs[i].name, spec.server.name) ||
		    (spec.vnfs[i].space == CALVIN_KERNEL && spec.vnfs[i].burst != 1) ||
		    !vnf_ok(&spec, i))
			abort();
}

/* The first byte picks a slot, the rest is its value. */
static void parse_in_template(const uint8_t *data, size_t size)
{
	size_t slot, i, len = 0, cap = size;
	char *text;

	if (size < 1)
		return;
	for (i = 0; i < NR_SLOTS; i++)
		cap += strlen(slots[i][0]) + strlen(slots[i][1]) + 1;
	text = malloc(cap);
	if (!text)
		return;
	slot = data[0] % NR_SLOTS;
	for (i = 0; i < NR_SLOTS; i++) {
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
