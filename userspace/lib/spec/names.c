// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec vocabulary: enum words, name rules and durations; no YAML here. */
#include <errno.h>
#include <string.h>

#include "spec_priv.h"

const char *const calvin_vnf_kind_words[] = {[CALVIN_VNF_FORWARD] = "forward",
					     [CALVIN_VNF_ACL] = "acl",
					     [CALVIN_VNF_ROUTER] = "router",
					     [CALVIN_VNF_RATELIMIT] = "ratelimit",
					     [CALVIN_VNF_IMPAIR] = "impair",
					     [CALVIN_VNF_NC_ENCODE] = "nc-encode",
					     [CALVIN_VNF_NC_DECODE] = "nc-decode",
					     [CALVIN_VNF_ENCRYPT] = "encrypt",
					     [CALVIN_VNF_DECRYPT] = "decrypt",
					     NULL};
const char *const calvin_space_words[] = {[CALVIN_KERNEL] = "kernel", [CALVIN_USER] = "user", NULL};
const char *const calvin_placement_words[] = {[CALVIN_PLACE_SHARED] = "shared",
					      [CALVIN_PLACE_PINNED] = "pinned",
					      [CALVIN_PLACE_ISOLATED] = "isolated",
					      NULL};
const char *const calvin_backend_words[] = {
    [CALVIN_BACKEND_NETNS] = "netns", [CALVIN_BACKEND_LIBVIRT] = "libvirt", NULL};
const char *const calvin_chain_mode_words[] = {
	[CALVIN_MODE_LATENCY] = "latency", [CALVIN_MODE_THROUGHPUT] = "throughput", NULL
};
const char *const calvin_shared_core_words[] = {
	[CALVIN_SHARED_LOOP] = "loop", [CALVIN_SHARED_YIELD] = "yield", NULL
};
const char *const calvin_pmd_words[] = {
    [CALVIN_PMD_AF_XDP] = "af_xdp", [CALVIN_PMD_AF_PACKET] = "af_packet", NULL};
const char *const calvin_server_kind_words[] = {[CALVIN_SERVER_ECHO] = "echo",
					       [CALVIN_SERVER_REFLECT] = "reflect", NULL};
const char *const calvin_probe_mode_words[] = {
    [CALVIN_PROBE_PACED] = "paced", [CALVIN_PROBE_PINGPONG] = "ping-pong", NULL};
const char *const calvin_sched_words[] = {
    [CALVIN_SCHED_OTHER] = "other", [CALVIN_SCHED_FIFO] = "fifo", NULL};
const char *const calvin_vm_links_words[] = {
    [CALVIN_LINKS_XDP] = "xdp", [CALVIN_LINKS_BRIDGE] = "bridge", NULL};
const char *const calvin_accel_words[] = {
    [CALVIN_ACCEL_AUTO] = "auto", [CALVIN_ACCEL_KVM] = "kvm", [CALVIN_ACCEL_TCG] = "tcg", NULL};

const char *const calvin_acl_action_words[] = {
    [CALVIN_ACL_ALLOW] = "allow", [CALVIN_ACL_DENY] = "deny", NULL};
const char *const calvin_route_via_words[] = {
    [CALVIN_VIA_WEST] = "west", [CALVIN_VIA_EAST] = "east", [CALVIN_VIA_DROP] = "drop", NULL};
const char *const calvin_rl_scope_words[] = {
    [CALVIN_RL_PER_VNF] = "vnf", [CALVIN_RL_PER_FLOW] = "flow", NULL};
const char *const calvin_loss_model_words[] = {
    [CALVIN_LOSS_UNIFORM] = "uniform", [CALVIN_LOSS_GILBERT_ELLIOTT] = "gilbert-elliott", NULL};
const char *const calvin_direction_words[] = {
    [CALVIN_DIRS_BOTH] = "both", [CALVIN_DIRS_FWD] = "fwd", [CALVIN_DIRS_REV] = "rev", NULL};
const char *const calvin_cipher_words[] = {[CALVIN_CIPHER_AES_256_GCM] = "aes-256-gcm",
					   [CALVIN_CIPHER_CHACHA20_POLY1305] =
					       "chacha20-poly1305",
					   NULL};

/* CALVIN: elementary and basic VNFs in the kernel, advanced ones in user
 * space; forward exists in both to compare the two. */
enum calvin_space calvin_kind_space(enum calvin_vnf_kind k)
{
	return k >= CALVIN_VNF_NC_ENCODE ? CALVIN_USER : CALVIN_KERNEL;
}

bool calvin_kind_allows_space(enum calvin_vnf_kind k, enum calvin_space s)
{
	return k == CALVIN_VNF_FORWARD || s == calvin_kind_space(k);
}

int calvin_word_lookup(const char *const *words, const char *s)
{
	int i;

	for (i = 0; words[i]; i++)
		if (!strcmp(words[i], s))
			return i;
	return -1;
}

/* Bounds-checked table read, so a corrupt enum prints "?" instead of crashing. */
static const char *word_of(const char *const *words, unsigned int v)
{
	unsigned int i;

	for (i = 0; words[i]; i++)
		if (i == v)
			return words[i];
	return "?";
}

const char *calvin_vnf_kind_name(enum calvin_vnf_kind k)
{
	return word_of(calvin_vnf_kind_words, k);
}

const char *calvin_space_name(enum calvin_space s)
{
	return word_of(calvin_space_words, s);
}

const char *calvin_placement_name(enum calvin_placement p)
{
	return word_of(calvin_placement_words, p);
}

const char *calvin_backend_name(enum calvin_backend b)
{
	return word_of(calvin_backend_words, b);
}

const char *calvin_chain_mode_name(enum calvin_chain_mode m)
{
	return word_of(calvin_chain_mode_words, m);
}

const char *calvin_shared_core_name(enum calvin_shared_core c)
{
	return word_of(calvin_shared_core_words, c);
}

const char *calvin_chain_mode_text(const struct calvin_chain_spec *spec)
{
	if (spec->mode == CALVIN_MODE_THROUGHPUT)
		return "kernel VNFs at tc ingress, endpoints keep GSO/TSO where their hop is at tc";
	return "kernel VNFs in XDP, endpoints checksum in software";
}

const char *calvin_pmd_name(enum calvin_pmd p)
{
	return word_of(calvin_pmd_words, p);
}

const char *calvin_server_kind_name(enum calvin_server_kind k)
{
	return word_of(calvin_server_kind_words, k);
}

const char *calvin_probe_mode_name(enum calvin_probe_mode m)
{
	return word_of(calvin_probe_mode_words, m);
}

const char *calvin_sched_name(enum calvin_sched s)
{
	return word_of(calvin_sched_words, s);
}

const char *calvin_vm_links_name(enum calvin_vm_links l)
{
	return word_of(calvin_vm_links_words, l);
}

const char *calvin_accel_name(enum calvin_accel a)
{
	return word_of(calvin_accel_words, a);
}

const char *calvin_acl_action_name(enum calvin_acl_action a)
{
	return word_of(calvin_acl_action_words, a);
}

const char *calvin_route_via_name(enum calvin_route_via v)
{
	return word_of(calvin_route_via_words, v);
}

const char *calvin_rl_scope_name(enum calvin_rl_scope s)
{
	return word_of(calvin_rl_scope_words, s);
}

const char *calvin_loss_model_name(enum calvin_loss_model m)
{
	return word_of(calvin_loss_model_words, m);
}

const char *calvin_direction_name(enum calvin_direction d)
{
	return word_of(calvin_direction_words, d);
}

const char *calvin_cipher_name(enum calvin_cipher c)
{
	return word_of(calvin_cipher_words, c);
}

bool calvin_name_valid(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > CALVIN_NAME_MAX || s[0] < 'a' || s[0] > 'z')
		return false;
	for (i = 1; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return false;
	return true;
}

static const struct {
	const char *unit;
	uint64_t ns;
} duration_units[] = {
    {"ns", 1},
    {"us", 1000},
    {"ms", 1000000},
    {"s", 1000000000},
};

/* Decimals are computed in integers, so "0.35ms" is exactly 350000 ns;
 * fractions of a nanosecond round to the nearest. */
int calvin_parse_duration(const char *s, uint64_t *ns)
{
	unsigned __int128 frac_num = 0, frac_den = 1;
	uint64_t whole = 0, scale = 0, frac_ns, v;
	const char *p = s;
	size_t i;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++)
		if (__builtin_mul_overflow(whole, 10, &whole) ||
		    __builtin_add_overflow(whole, (uint64_t)(*p - '0'), &whole))
			return -EINVAL;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		/* digits past the 19th cannot change the rounded nanoseconds */
		for (; *p >= '0' && *p <= '9'; p++) {
			if (frac_den < 10000000000000000000ull) {
				frac_num = frac_num * 10 + (unsigned int)(*p - '0');
				frac_den *= 10;
			}
		}
	}
	for (i = 0; i < sizeof(duration_units) / sizeof(duration_units[0]); i++)
		if (!strcmp(p, duration_units[i].unit))
			scale = duration_units[i].ns;
	if (!scale)
		return -EINVAL;
	frac_ns = (uint64_t)((frac_num * scale + frac_den / 2) / frac_den);
	if (__builtin_mul_overflow(whole, scale, &v) || __builtin_add_overflow(v, frac_ns, &v))
		return -EINVAL;
	*ns = v;
	return 0;
}
