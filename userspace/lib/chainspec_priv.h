/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Chain spec parser internals shared by chainspec.c (the walk) and
 * chainspec_values.c (scalar values); not for use outside the parser. */
#ifndef CALVIN_LIB_CHAINSPEC_PRIV_H
#define CALVIN_LIB_CHAINSPEC_PRIV_H

#include <yaml.h>

#include "chainspec.h"

#define SPEC_MAX_KEYS 8
#define SHOWN_MAX 40 /* user text quoted in an error line */

struct spec_ctx {
	yaml_document_t *doc;
	const char *path;
	char *err;
	size_t errlen;
	struct calvin_chain_spec *spec;
	/* where each node name was written, for the distinct-names check */
	yaml_node_t *vnf_name[CALVIN_MAX_VNFS];
	yaml_node_t *server_name; /* NULL: the default name */
};

/* The key and value node of each key of a mapping, indexed like its table. */
struct spec_seen {
	yaml_node_t *key[SPEC_MAX_KEYS];
	yaml_node_t *val[SPEC_MAX_KEYS];
};

enum key_type { KEY_NAME, KEY_DURATION, KEY_BOOL, KEY_WORD, KEY_UINT, KEY_SECTION, KEY_VNFS };

struct spec_key {
	const char *name;
	enum key_type type;
	size_t off;		     /* of the field in the struct the mapping fills */
	const char *const *words;    /* KEY_WORD */
	unsigned int min, max;	     /* KEY_UINT */
	const struct spec_key *keys; /* KEY_SECTION */
	/* KEY_SECTION: checks that need the whole section */
	int (*after)(struct spec_ctx *c, void *obj, struct spec_seen *seen);
	const char *required; /* how to add the key if missing; NULL: optional */
};

__attribute__((format(printf, 3, 4))) int calvin_spec_err(struct spec_ctx *c, yaml_mark_t m,
							  const char *fmt, ...);
const char *calvin_spec_shown(const char *s, char buf[SHOWN_MAX + 4]);
void calvin_spec_join_words(const char *const *words, char *buf, size_t size);
int calvin_spec_scalar(struct spec_ctx *c, yaml_node_t *n, const char *key, const char **s);
int calvin_spec_set_name(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, char *out);
int calvin_spec_set_duration(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			     uint64_t *out);
int calvin_spec_set_bool(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, bool *out);
int calvin_spec_set_word(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, int *out);
int calvin_spec_set_uint(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			 unsigned int *out);

#endif /* CALVIN_LIB_CHAINSPEC_PRIV_H */
