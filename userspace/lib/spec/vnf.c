// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec VNF list: one key table per VNF kind, its defaults, and the
 * checks that need a whole VNF (space, limits, loss models). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "spec_priv.h"

#define V(field) offsetof(struct calvin_vnf_spec, field)

/* Every kind's table starts with these, so the indices hold for all. */
enum { VNF_NAME, VNF_KIND, VNF_SPACE, VNF_NODE, VNF_HOST, VNF_BURST, VNF_PMD, VNF_USER_END };
#define KERNEL_PARAMS VNF_BURST /* kernel kinds' own keys start here */

#define COMMON_KEYS                                                                                \
	[VNF_NAME] = {.name = "name",                                                              \
		      .type = KEY_NAME,                                                            \
		      .off = V(name),                                                              \
		      .required = "a name, e.g. 'name: fwd-k'"},                                   \
	[VNF_KIND] = {.name = "kind",                                                              \
		      .type = KEY_WORD,                                                            \
		      .off = V(kind),                                                              \
		      .words = calvin_vnf_kind_words},                                             \
	[VNF_SPACE] = {.name = "space",                                                            \
		       .type = KEY_WORD,                                                           \
		       .off = V(space),                                                            \
		       .words = calvin_space_words},                                               \
	[VNF_NODE] = {.name = "node", .type = KEY_NAME, .off = V(node)},                            \
	[VNF_HOST] = {.name = "host", .type = KEY_NAME, .off = V(host)}

#define USER_KEYS                                                                                  \
	[VNF_BURST] = {.name = "burst", .type = KEY_UINT, .off = V(burst), .min = 1, .max = 512},  \
	[VNF_PMD] = {.name = "pmd", .type = KEY_WORD, .off = V(pmd), .words = calvin_pmd_words}

static const struct spec_key forward_keys[] = {COMMON_KEYS, USER_KEYS, {NULL}};

enum { ACL_DEFAULT = KERNEL_PARAMS, ACL_RULES, ACL_END };
static const struct spec_key acl_keys[] = {
    COMMON_KEYS,
    [ACL_DEFAULT] = {.name = "default",
		     .type = KEY_WORD,
		     .off = V(acl.default_action),
		     .words = calvin_acl_action_words},
    [ACL_RULES] = {.name = "rules",
		   .type = KEY_RULES,
		   .off = V(acl),
		   .set = calvin_spec_set_rules},
    [ACL_END] = {NULL},
};

enum { ROUTER_ROUTES = KERNEL_PARAMS, ROUTER_END };
static const struct spec_key router_keys[] = {
    COMMON_KEYS,
    [ROUTER_ROUTES] = {.name = "routes",
		       .type = KEY_ROUTES,
		       .off = V(router),
		       .set = calvin_spec_set_routes,
		       .required = "a list of routes, e.g. '- {prefix: 10.70.0.0/24, via: east}'"},
    [ROUTER_END] = {NULL},
};

enum { RL_PPS = KERNEL_PARAMS, RL_BPS, RL_BURST, RL_BURST_BYTES, RL_PER, RL_END };
static const struct spec_key ratelimit_keys[] = {
    COMMON_KEYS,
    [RL_PPS] =
	{.name = "pps", .type = KEY_U64, .off = V(ratelimit.pps), .min = 1, .max64 = 1000000000ull},
    [RL_BPS] = {.name = "bytes-per-second",
		.type = KEY_U64,
		.off = V(ratelimit.bytes_per_sec),
		.min = 1,
		.max64 = 1000000000000ull},
    [RL_BURST] = {.name = "burst",
		  .type = KEY_U64,
		  .off = V(ratelimit.burst_packets),
		  .min = 1,
		  .max64 = 1000000000ull},
    [RL_BURST_BYTES] = {.name = "burst-bytes",
			.type = KEY_U64,
			.off = V(ratelimit.burst_bytes),
			.min = 1,
			.max64 = 1000000000000ull},
    [RL_PER] = {.name = "per",
		.type = KEY_WORD,
		.off = V(ratelimit.per),
		.words = calvin_rl_scope_words},
    [RL_END] = {NULL},
};

enum {
	IMP_MODEL = KERNEL_PARAMS,
	IMP_LOSS,
	IMP_P,
	IMP_R,
	IMP_LOSS_GOOD,
	IMP_LOSS_BAD,
	IMP_DUPLICATE,
	IMP_SEED,
	IMP_DIRECTION,
	IMP_END
};
static const struct spec_key impair_keys[] = {
    COMMON_KEYS,
    [IMP_MODEL] = {.name = "model",
		   .type = KEY_WORD,
		   .off = V(impair.model),
		   .words = calvin_loss_model_words},
    [IMP_LOSS] = {.name = "loss", .type = KEY_PPM, .off = V(impair.loss_ppm)},
    [IMP_P] = {.name = "p", .type = KEY_PPM, .off = V(impair.ge_p_ppm)},
    [IMP_R] = {.name = "r", .type = KEY_PPM, .off = V(impair.ge_r_ppm)},
    [IMP_LOSS_GOOD] = {.name = "loss-good", .type = KEY_PPM, .off = V(impair.ge_loss_good_ppm)},
    [IMP_LOSS_BAD] = {.name = "loss-bad", .type = KEY_PPM, .off = V(impair.ge_loss_bad_ppm)},
    [IMP_DUPLICATE] = {.name = "duplicate", .type = KEY_PPM, .off = V(impair.duplicate_ppm)},
    [IMP_SEED] = {.name = "seed", .type = KEY_U64, .off = V(impair.seed), .max64 = UINT64_MAX},
    [IMP_DIRECTION] = {.name = "direction",
		       .type = KEY_WORD,
		       .off = V(impair.direction),
		       .words = calvin_direction_words},
    [IMP_END] = {NULL},
};

enum { NC_K = VNF_USER_END, NC_R, NC_FLUSH, NC_FLUSH_EARLY, NC_DIRECTION, NC_END };
static const struct spec_key nc_keys[] = {
    COMMON_KEYS,
    USER_KEYS,
    [NC_K] = {.name = "k", .type = KEY_UINT, .off = V(nc.k), .min = 1, .max = 64},
    [NC_R] = {.name = "r", .type = KEY_UINT, .off = V(nc.r), .min = 0, .max = 64},
    [NC_FLUSH] = {.name = "flush",
		  .type = KEY_DURATION,
		  .off = V(nc.flush_ns),
		  .hint = "the flush timeout of a partial generation, e.g. 1ms"},
    [NC_FLUSH_EARLY] = {.name = "flush-early", .type = KEY_BOOL, .off = V(nc.flush_early)},
    [NC_DIRECTION] = {.name = "direction",
		      .type = KEY_WORD,
		      .off = V(nc.direction),
		      .words = calvin_direction_words},
    [NC_END] = {NULL},
};

enum { CR_CIPHER = VNF_USER_END, CR_KEY_FILE, CR_SPI, CR_SPI_REV, CR_DIRECTION, CR_REPLAY, CR_END };
#define CRYPT_KEYS                                                                                 \
	COMMON_KEYS, USER_KEYS,                                                                    \
	    [CR_CIPHER] = {.name = "cipher",                                                       \
			   .type = KEY_WORD,                                                       \
			   .off = V(crypt.cipher),                                                 \
			   .words = calvin_cipher_words},                                          \
	    [CR_KEY_FILE] = {.name = "key-file",                                                   \
			     .type = KEY_PATH,                                                     \
			     .off = V(crypt.key_file),                                             \
			     .required = "the key file, e.g. 'key-file: CHAIN.key'"},              \
	    [CR_SPI] = {.name = "spi",                                                             \
			.type = KEY_U32,                                                           \
			.off = V(crypt.spi),                                                       \
			.min = 1,                                                                  \
			.max64 = 0xffffffffull},                                                   \
	    [CR_SPI_REV] = {.name = "spi-rev",                                                     \
			    .type = KEY_U32,                                                       \
			    .off = V(crypt.spi_rev),                                               \
			    .min = 1,                                                              \
			    .max64 = 0xffffffffull},                                               \
	    [CR_DIRECTION] = {.name = "direction",                                                 \
			      .type = KEY_WORD,                                                    \
			      .off = V(crypt.direction),                                           \
			      .words = calvin_direction_words}
static const struct spec_key encrypt_keys[] = {CRYPT_KEYS, [CR_REPLAY] = {NULL}};
static const struct spec_key decrypt_keys[] = {
    CRYPT_KEYS,
    [CR_REPLAY] = {.name = "replay-window",
		   .type = KEY_UINT,
		   .off = V(crypt.replay_window),
		   .min = 32,
		   .max = 4096},
    [CR_END] = {NULL},
};

static int ratelimit_after(struct spec_ctx *c, struct calvin_vnf_spec *vnf, struct spec_seen *seen)
{
	struct calvin_ratelimit_spec *rl = &vnf->ratelimit;
	char label[64];

	if (!seen->key[RL_PPS] && !seen->key[RL_BPS])
		return calvin_spec_err(c, c->vnf_mark,
				       "%s has no limit; add 'pps: N' or 'bytes-per-second: N'",
				       calvin_spec_vnf_label(c, label, sizeof(label)));
	if (seen->key[RL_BURST] && !seen->key[RL_PPS])
		return calvin_spec_err(c, seen->key[RL_BURST]->start_mark,
				       "burst sizes the pps bucket; add 'pps: N' or remove burst");
	if (seen->key[RL_BURST_BYTES] && !seen->key[RL_BPS])
		return calvin_spec_err(c, seen->key[RL_BURST_BYTES]->start_mark,
				       "burst-bytes sizes the bytes-per-second bucket; add "
				       "'bytes-per-second: N' or remove burst-bytes");
	/* a hundredth of a second of traffic, and at least one full frame */
	if (rl->pps && !seen->key[RL_BURST])
		rl->burst_packets = rl->pps / 100 ? rl->pps / 100 : 1;
	if (rl->bytes_per_sec && !seen->key[RL_BURST_BYTES])
		rl->burst_bytes = rl->bytes_per_sec / 100 > 1514 ? rl->bytes_per_sec / 100 : 1514;
	return 0;
}

/* Keys of the other loss model are errors, not silently ignored. */
static int impair_after(struct spec_ctx *c, struct calvin_vnf_spec *vnf, struct spec_seen *seen)
{
	static const int ge_only[] = {IMP_P, IMP_R, IMP_LOSS_GOOD, IMP_LOSS_BAD};
	bool ge = vnf->impair.model == CALVIN_LOSS_GILBERT_ELLIOTT;
	char label[64];
	unsigned int i;

	if (ge && seen->key[IMP_LOSS])
		return calvin_spec_err(c, seen->key[IMP_LOSS]->start_mark,
				       "loss is for model uniform; with gilbert-elliott use p, r, "
				       "loss-good and loss-bad, or set 'model: uniform'");
	for (i = 0; !ge && i < sizeof(ge_only) / sizeof(ge_only[0]); i++)
		if (seen->key[ge_only[i]])
			return calvin_spec_err(c, seen->key[ge_only[i]]->start_mark,
					       "%s is for model gilbert-elliott; set 'model: "
					       "gilbert-elliott' or remove %s",
					       impair_keys[ge_only[i]].name,
					       impair_keys[ge_only[i]].name);
	calvin_spec_vnf_label(c, label, sizeof(label));
	if (ge && (!seen->key[IMP_P] || !seen->key[IMP_R]))
		return calvin_spec_err(c, c->vnf_mark,
				       "%s uses gilbert-elliott without %s; add p (good to bad) "
				       "and r (bad to good), e.g. 'p: 1%%' and 'r: 30%%'",
				       label, seen->key[IMP_P] ? "r" : "p");
	if (!ge && !seen->key[IMP_LOSS] && !seen->key[IMP_DUPLICATE])
		return calvin_spec_err(c, c->vnf_mark,
				       "%s does nothing; add 'loss: P%%' or 'duplicate: P%%', or "
				       "'model: gilbert-elliott' with p and r",
				       label);
	return 0;
}

/* Each direction is a security association of its own: never one SPI for both. */
static int crypt_after(struct spec_ctx *c, struct calvin_vnf_spec *vnf, struct spec_seen *seen)
{
	struct calvin_crypt_spec *cr = &vnf->crypt;
	yaml_node_t *at = seen->val[CR_SPI_REV] ? seen->val[CR_SPI_REV] : seen->val[CR_SPI];

	if (!seen->key[CR_SPI_REV])
		cr->spi_rev = calvin_spi_rev_default(cr->spi);
	if (cr->spi_rev == cr->spi)
		return calvin_spec_err(c, at->start_mark,
				       "spi-rev 0x%x is the same as spi; each direction needs an "
				       "SPI of its own, e.g. 'spi-rev: 0x%x'",
				       cr->spi, calvin_spi_rev_default(cr->spi));
	return 0;
}

static void acl_defaults(struct calvin_vnf_spec *vnf)
{
	vnf->acl.default_action = CALVIN_ACL_ALLOW;
}

static void ratelimit_defaults(struct calvin_vnf_spec *vnf)
{
	vnf->ratelimit.per = CALVIN_RL_PER_VNF;
}

static void impair_defaults(struct calvin_vnf_spec *vnf)
{
	vnf->impair.model = CALVIN_LOSS_UNIFORM;
	vnf->impair.ge_loss_bad_ppm = 1000000;
	vnf->impair.seed = 1;
	vnf->impair.direction = CALVIN_DIRS_BOTH;
}

static void nc_defaults(struct calvin_vnf_spec *vnf)
{
	vnf->nc.k = 4;
	vnf->nc.r = 1;
	vnf->nc.flush_ns = 1000000;
	vnf->nc.flush_early = true;
	vnf->nc.direction = CALVIN_DIRS_BOTH;
}

static void crypt_defaults(struct calvin_vnf_spec *vnf)
{
	vnf->crypt.cipher = CALVIN_CIPHER_AES_256_GCM;
	vnf->crypt.spi = 1;
	vnf->crypt.direction = CALVIN_DIRS_BOTH;
	if (vnf->kind == CALVIN_VNF_DECRYPT)
		vnf->crypt.replay_window = 1024;
}

static const struct {
	const struct spec_key *keys;
	void (*defaults)(struct calvin_vnf_spec *vnf);
	int (*after)(struct spec_ctx *c, struct calvin_vnf_spec *vnf, struct spec_seen *seen);
} kinds[] = {
    [CALVIN_VNF_FORWARD] = {forward_keys},
    [CALVIN_VNF_ACL] = {acl_keys, acl_defaults},
    [CALVIN_VNF_ROUTER] = {router_keys},
    [CALVIN_VNF_RATELIMIT] = {ratelimit_keys, ratelimit_defaults, ratelimit_after},
    [CALVIN_VNF_IMPAIR] = {impair_keys, impair_defaults, impair_after},
    [CALVIN_VNF_NC_ENCODE] = {nc_keys, nc_defaults},
    [CALVIN_VNF_NC_DECODE] = {nc_keys, nc_defaults},
    [CALVIN_VNF_ENCRYPT] = {encrypt_keys, crypt_defaults, crypt_after},
    [CALVIN_VNF_DECRYPT] = {decrypt_keys, crypt_defaults, crypt_after},
};

_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == CALVIN_VNF_DECRYPT + 1,
	       "a key table for every kind");

static int vnf_after(struct spec_ctx *c, struct calvin_vnf_spec *vnf, struct spec_seen *seen)
{
	static const int user_only[] = {VNF_BURST, VNF_PMD};
	const char *kind = calvin_vnf_kind_name(vnf->kind);
	unsigned int i;
	int k;

	if (seen->key[VNF_SPACE] && !calvin_kind_allows_space(vnf->kind, vnf->space))
		return calvin_spec_err(c, seen->val[VNF_SPACE]->start_mark,
				       "%s runs in %s space only; remove 'space: %s'", kind,
				       calvin_space_name(calvin_kind_space(vnf->kind)),
				       calvin_space_name(vnf->space));
	if (vnf->kind != CALVIN_VNF_FORWARD || vnf->space == CALVIN_USER)
		return 0;
	/* only forward has burst and pmd in a kernel-space table */
	for (i = 0; i < sizeof(user_only) / sizeof(user_only[0]); i++) {
		k = user_only[i];
		if (seen->key[k])
			return calvin_spec_err(
			    c, seen->key[k]->start_mark,
			    "%s applies to user-space VNFs only; remove it or set 'space: user'",
			    forward_keys[k].name);
	}
	return 0;
}

/* The kind decides which keys are valid, so it is read before the others. */
static int read_kind(struct spec_ctx *c, yaml_node_t *map, unsigned int i,
		     enum calvin_vnf_kind *kind)
{
	char list[SPEC_LIST_MAX];
	yaml_node_pair_t *pair;
	yaml_node_t *kn, *vn;
	int word, err;

	for (pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++) {
		kn = yaml_document_get_node(c->doc, pair->key);
		vn = yaml_document_get_node(c->doc, pair->value);
		if (!kn || !vn || kn->type != YAML_SCALAR_NODE ||
		    strcmp((char *)kn->data.scalar.value, "kind") || kn->data.scalar.length != 4)
			continue;
		err = calvin_spec_set_word(c, &forward_keys[VNF_KIND], vn, &word);
		*kind = (enum calvin_vnf_kind)word;
		return err;
	}
	calvin_spec_join_words(calvin_vnf_kind_words, list, sizeof(list));
	return calvin_spec_err(
	    c, map->start_mark,
	    "missing required key 'kind' in VNF %u; add 'kind: KIND', one of: %s", i + 1, list);
}

static int set_vnf(struct spec_ctx *c, yaml_node_t *in, unsigned int i)
{
	struct calvin_vnf_spec *vnf = &c->spec->vnfs[i];
	enum calvin_vnf_kind kind = CALVIN_VNF_FORWARD;
	struct spec_seen seen;
	char what[48];
	int err;

	vnf->pos.line = (int)in->start_mark.line + 1;
	vnf->pos.col = (int)in->start_mark.column + 1;
	err = read_kind(c, in, i, &kind);
	if (err)
		return err;
	vnf->kind = kind;
	vnf->space = calvin_kind_space(kind);
	vnf->burst = 1;
	vnf->pmd = CALVIN_PMD_AF_XDP;
	strcpy(vnf->host, CALVIN_LOCAL_HOST);
	if (kinds[kind].defaults)
		kinds[kind].defaults(vnf);
	c->vnf = vnf;
	c->vnf_index = i;
	c->vnf_mark = in->start_mark;
	snprintf(what, sizeof(what), "%s VNF %u", calvin_vnf_kind_name(kind), i + 1);
	err = calvin_spec_walk_mapping(c, in, what, kinds[kind].keys, vnf, &seen);
	if (!err)
		err = vnf_after(c, vnf, &seen);
	if (!err && kinds[kind].after)
		err = kinds[kind].after(c, vnf, &seen);
	/* values of sections after the VNFs belong to no VNF */
	c->vnf = NULL;
	if (err)
		return err;
	c->vnf_name[i] = seen.val[VNF_NAME];
	c->vnf_node[i] = seen.val[VNF_NODE];
	c->vnf_host[i] = seen.val[VNF_HOST];
	if (!seen.key[VNF_NODE])
		strcpy(vnf->node, vnf->name);
	return 0;
}

int calvin_spec_set_vnfs(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			 void *field)
{
	yaml_node_item_t *item;
	yaml_node_t *in;
	unsigned int i;
	int err;

	if (n->type != YAML_SEQUENCE_NODE)
		return calvin_spec_err(
		    c, n->start_mark,
		    "vnfs must be a list of 1 to %d VNFs; write one '- name: ...' item per VNF",
		    CALVIN_MAX_VNFS);
	if (n->data.sequence.items.start == n->data.sequence.items.top)
		return calvin_spec_err(c, n->start_mark,
				       "vnfs is empty; list 1 to %d VNFs, probe side first",
				       CALVIN_MAX_VNFS);
	for (item = n->data.sequence.items.start, i = 0; item < n->data.sequence.items.top;
	     item++, i++) {
		in = yaml_document_get_node(c->doc, *item);
		if (!in)
			return calvin_spec_err(c, n->start_mark,
					       "broken YAML document; report a bug");
		if (i >= CALVIN_MAX_VNFS)
			return calvin_spec_err(c, in->start_mark,
					       "too many VNFs: a chain holds at most %d; remove "
					       "some or split the chain",
					       CALVIN_MAX_VNFS);
		if (in->type != YAML_MAPPING_NODE)
			return calvin_spec_err(
			    c, in->start_mark,
			    "VNF %u must be a mapping; write '- name: ...' with its kind", i + 1);
		err = set_vnf(c, in, i);
		if (err)
			return err;
		c->spec->nr_vnfs = i + 1;
	}
	return 0;
}
