// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec parser: the walk of one YAML mapping by its table of keys
 * (struct spec_key), in file order, each value set by its type; sections
 * are walked again here, lists through their keys' setters. */
#include <string.h>

#include "spec_priv.h"

void calvin_spec_join_keys(const struct spec_key *keys, char *buf, size_t size)
{
	const char *words[SPEC_MAX_KEYS + 1];
	int i;

	for (i = 0; keys[i].name && i < SPEC_MAX_KEYS; i++)
		words[i] = keys[i].name;
	words[i] = NULL;
	calvin_spec_join_words(words, buf, size);
}

static int set_section(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, void *obj)
{
	struct spec_seen seen;
	char list[SPEC_LIST_MAX];
	int err;

	/* "server:" with nothing under it means all defaults */
	if (n->type == YAML_SCALAR_NODE && (!strcmp((char *)n->data.scalar.value, "") ||
					    !strcmp((char *)n->data.scalar.value, "~") ||
					    !strcmp((char *)n->data.scalar.value, "null")))
		return 0;
	if (n->type != YAML_MAPPING_NODE) {
		calvin_spec_join_keys(k->keys, list, sizeof(list));
		return calvin_spec_err(c, n->start_mark,
				       "%s must be a mapping; give it keys among: %s", k->name,
				       list);
	}
	err = calvin_spec_walk_mapping(c, n, k->name, k->keys, obj, &seen);
	if (!err && k->after)
		err = k->after(c, obj, &seen);
	return err;
}

/* Enums are stored through memcpy of an int: the tables are untyped. */
_Static_assert(sizeof(enum calvin_placement) == sizeof(int), "enums are int-sized");

static int set_value(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, void *obj)
{
	void *field = (char *)obj + k->off;
	int err, word;

	/* lists of mappings walk each item again: their setters live above
	 * the walk, with their key tables */
	if (k->set)
		return k->set(c, k, n, field);
	switch (k->type) {
	case KEY_NAME:
		return calvin_spec_set_name(c, k, n, field);
	case KEY_DURATION:
		return calvin_spec_set_duration(c, k, n, field);
	case KEY_BOOL:
		return calvin_spec_set_bool(c, k, n, field);
	case KEY_WORD:
		err = calvin_spec_set_word(c, k, n, &word);
		if (!err)
			memcpy(field, &word, sizeof(word));
		return err;
	case KEY_UINT:
		return calvin_spec_set_uint(c, k, n, field);
	case KEY_SECTION:
		return set_section(c, k, n, field);
	default:
		return calvin_spec_set_param(c, k, n, field);
	}
}

int calvin_spec_key_index(const struct spec_key *keys, const char *name)
{
	int i;

	for (i = 0; keys[i].name; i++)
		if (!strcmp(keys[i].name, name))
			return i;
	return -1;
}

/* Applies each key of map in file order (so the first error in the file is
 * the one reported), then reports the first missing required key. */
int calvin_spec_walk_mapping(struct spec_ctx *c, yaml_node_t *map, const char *what,
			     const struct spec_key *keys, void *obj, struct spec_seen *seen)
{
	char buf[SHOWN_MAX + 4], list[SPEC_LIST_MAX];
	yaml_node_t *kn, *vn;
	yaml_node_pair_t *pair;
	const char *name;
	int i, err;

	memset(seen, 0, sizeof(*seen));
	for (i = 0; keys[i].name; i++)
		if (i >= SPEC_MAX_KEYS)
			return calvin_spec_err(c, map->start_mark,
					       "%s has more keys than SPEC_MAX_KEYS; report a bug",
					       what);
	for (pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++) {
		kn = yaml_document_get_node(c->doc, pair->key);
		vn = yaml_document_get_node(c->doc, pair->value);
		if (!kn || !vn)
			return calvin_spec_err(c, map->start_mark,
					       "broken YAML document; report a bug");
		calvin_spec_join_keys(keys, list, sizeof(list));
		if (kn->type != YAML_SCALAR_NODE)
			return calvin_spec_err(c, kn->start_mark,
					       "keys of %s must be plain words; valid keys: %s",
					       what, list);
		name = (const char *)kn->data.scalar.value;
		i = calvin_spec_key_index(keys, name);
		if (i < 0 || strlen(name) != kn->data.scalar.length)
			return calvin_spec_err(c, kn->start_mark,
					       "unknown key '%s' in %s; valid keys: %s",
					       calvin_spec_shown(name, buf), what, list);
		if (seen->key[i])
			return calvin_spec_err(
			    c, kn->start_mark,
			    "duplicate key '%s' in %s (first at line %zu); keep only one", name,
			    what, seen->key[i]->start_mark.line + 1);
		seen->key[i] = kn;
		seen->val[i] = vn;
		err = set_value(c, &keys[i], vn, obj);
		if (err)
			return err;
	}
	for (i = 0; keys[i].name; i++)
		if (keys[i].required && !seen->key[i])
			return calvin_spec_err(c, map->start_mark,
					       "missing required key '%s' in %s; add %s",
					       keys[i].name, what, keys[i].required);
	return 0;
}
