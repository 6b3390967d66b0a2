// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Variants of a chain spec for `calvin bench` (see bench_lib.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "bench/lib/bench_lib.h"

/* What a mapping or sequence of the document is, as far as a variant cares. */
enum frame_kind {
	FR_OTHER,
	FR_ROOT,    /* the top-level mapping */
	FR_VNFS,    /* the vnfs: sequence */
	FR_VNF,	    /* one VNF's mapping */
	FR_LIBVIRT, /* the libvirt: mapping */
};

#define MAX_DEPTH 32

struct frame {
	enum frame_kind kind;
	bool map, expect_key;
	char key[32];	    /* the key whose value comes next (maps) */
	unsigned int items; /* FR_VNFS: VNFs seen so far */
	unsigned int vnf;   /* FR_VNF: its index */
	unsigned int seen;  /* keys the override replaced: SEEN_* */
};

#define SEEN_PLACEMENT 1u
#define SEEN_BURST 2u
#define SEEN_LINKS 4u
#define SEEN_IMAGE 8u
#define SEEN_LIBVIRT 16u
#define SEEN_MODE 32u
#define SEEN_MTU 64u

struct variant {
	const struct calvin_chain_spec *spec;
	const struct calvin_spec_override *o;
	yaml_emitter_t em;
	struct frame st[MAX_DEPTH];
	int depth; /* index of the top frame; -1: none */
	char *buf;
	size_t len, cap;
	char burst[16];
	char mtu[16];
};

static int out_write(void *data, unsigned char *bytes, size_t size)
{
	struct variant *v = data;
	size_t cap = v->cap ? v->cap : 4096;
	char *b;

	while (v->len + size + 1 > cap)
		cap *= 2;
	if (cap != v->cap) {
		b = realloc(v->buf, cap);
		if (!b)
			return 0;
		v->buf = b;
		v->cap = cap;
	}
	memcpy(v->buf + v->len, bytes, size);
	v->len += size;
	v->buf[v->len] = '\0';
	return 1;
}

static int emit_scalar(struct variant *v, const char *s)
{
	yaml_event_t e;

	if (!yaml_scalar_event_initialize(&e, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1,
					  YAML_ANY_SCALAR_STYLE))
		return -ENOMEM;
	return yaml_emitter_emit(&v->em, &e) ? 0 : -EINVAL;
}

static int emit_pair(struct variant *v, const char *key, const char *value)
{
	int err = emit_scalar(v, key);

	return err ? err : emit_scalar(v, value);
}

static bool user_vnf(const struct variant *v, const struct frame *f)
{
	return f->vnf < v->spec->nr_vnfs && v->spec->vnfs[f->vnf].space == CALVIN_USER;
}

/* The replacement for the value of key in frame f, or NULL: keep it. */
static const char *replacement(struct variant *v, struct frame *f, const char *key)
{
	const struct calvin_spec_override *o = v->o;

	if (f->kind == FR_ROOT && !strcmp(key, "placement") && o->placement >= 0) {
		f->seen |= SEEN_PLACEMENT;
		return calvin_placement_name(o->placement);
	}
	if (f->kind == FR_ROOT && !strcmp(key, "mode") && o->mode >= 0) {
		f->seen |= SEEN_MODE;
		return calvin_chain_mode_name(o->mode);
	}
	if (f->kind == FR_ROOT && !strcmp(key, "mtu") && o->mtu) {
		f->seen |= SEEN_MTU;
		return v->mtu;
	}
	if (f->kind == FR_VNF && !strcmp(key, "burst") && o->burst && user_vnf(v, f)) {
		f->seen |= SEEN_BURST;
		return v->burst;
	}
	if (f->kind == FR_LIBVIRT && !strcmp(key, "links") && o->links >= 0) {
		f->seen |= SEEN_LINKS;
		return calvin_vm_links_name(o->links);
	}
	if (f->kind == FR_LIBVIRT && !strcmp(key, "image") && o->image) {
		f->seen |= SEEN_IMAGE;
		return o->image;
	}
	return NULL;
}

/* The libvirt keys the override sets that the section does not have. */
static int libvirt_missing(struct variant *v, unsigned int seen)
{
	int err = 0;

	if (v->o->links >= 0 && !(seen & SEEN_LINKS))
		err = emit_pair(v, "links", calvin_vm_links_name(v->o->links));
	if (!err && v->o->image && !(seen & SEEN_IMAGE))
		err = emit_pair(v, "image", v->o->image);
	return err;
}

/* Keys the override sets that the file left to their defaults, just
 * before the mapping that should hold them ends. */
static int add_missing(struct variant *v, struct frame *f)
{
	yaml_event_t e;
	int err = 0;

	if (f->kind == FR_VNF && v->o->burst && user_vnf(v, f) && !(f->seen & SEEN_BURST))
		return emit_pair(v, "burst", v->burst);
	if (f->kind == FR_LIBVIRT)
		return libvirt_missing(v, f->seen);
	if (f->kind != FR_ROOT)
		return 0;
	if (v->o->placement >= 0 && !(f->seen & SEEN_PLACEMENT))
		err = emit_pair(v, "placement", calvin_placement_name(v->o->placement));
	if (!err && v->o->mode >= 0 && !(f->seen & SEEN_MODE))
		err = emit_pair(v, "mode", calvin_chain_mode_name(v->o->mode));
	if (!err && v->o->mtu && !(f->seen & SEEN_MTU))
		err = emit_pair(v, "mtu", v->mtu);
	if (err || (f->seen & SEEN_LIBVIRT) || (v->o->links < 0 && !v->o->image))
		return err;
	err = emit_scalar(v, "libvirt");
	if (err)
		return err;
	if (!yaml_mapping_start_event_initialize(&e, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE) ||
	    !yaml_emitter_emit(&v->em, &e))
		return -EINVAL;
	err = libvirt_missing(v, 0);
	if (err)
		return err;
	if (!yaml_mapping_end_event_initialize(&e) || !yaml_emitter_emit(&v->em, &e))
		return -EINVAL;
	return 0;
}

/* A node starts inside the top frame: what kind of frame it opens. */
static enum frame_kind child_kind(struct variant *v, bool map)
{
	struct frame *p;

	if (v->depth < 0)
		return map ? FR_ROOT : FR_OTHER;
	p = &v->st[v->depth];
	if (p->kind == FR_ROOT && !map && !strcmp(p->key, "vnfs"))
		return FR_VNFS;
	if (p->kind == FR_ROOT && map && !strcmp(p->key, "libvirt")) {
		p->seen |= SEEN_LIBVIRT;
		return FR_LIBVIRT;
	}
	if (p->kind == FR_VNFS && map)
		return FR_VNF;
	return FR_OTHER;
}

static int push(struct variant *v, bool map)
{
	struct frame *f;
	enum frame_kind kind = child_kind(v, map);

	if (v->depth + 1 >= MAX_DEPTH)
		return -EINVAL;
	f = &v->st[++v->depth];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->map = map;
	f->expect_key = map;
	if (kind == FR_VNF)
		f->vnf = v->st[v->depth - 1].items++;
	return 0;
}

/* A value (scalar, alias or a whole collection) of the top frame is done. */
static void value_done(struct variant *v)
{
	if (v->depth >= 0 && v->st[v->depth].map)
		v->st[v->depth].expect_key = true;
}

/* A scalar: a key, a value to keep or replace, or a sequence item. */
static int on_scalar(struct variant *v, yaml_event_t *e)
{
	struct frame *f = v->depth >= 0 ? &v->st[v->depth] : NULL;
	const char *s = (const char *)e->data.scalar.value, *r;

	if (f && f->map && f->expect_key) {
		snprintf(f->key, sizeof(f->key), "%s", s);
		f->expect_key = false;
		return yaml_emitter_emit(&v->em, e) ? 0 : -EINVAL;
	}
	r = f && f->map ? replacement(v, f, f->key) : NULL;
	value_done(v);
	if (!r)
		return yaml_emitter_emit(&v->em, e) ? 0 : -EINVAL;
	yaml_event_delete(e);
	return emit_scalar(v, r);
}

static int on_event(struct variant *v, yaml_event_t *e)
{
	int err;

	switch (e->type) {
	case YAML_SCALAR_EVENT:
		return on_scalar(v, e);
	case YAML_MAPPING_START_EVENT:
	case YAML_SEQUENCE_START_EVENT:
		err = push(v, e->type == YAML_MAPPING_START_EVENT);
		break;
	case YAML_MAPPING_END_EVENT:
	case YAML_SEQUENCE_END_EVENT:
		err = v->depth < 0			  ? -EINVAL
		      : e->type == YAML_MAPPING_END_EVENT ? add_missing(v, &v->st[v->depth])
							  : 0;
		if (!err) {
			v->depth--;
			value_done(v);
		}
		break;
	case YAML_ALIAS_EVENT:
		value_done(v);
		err = 0;
		break;
	default:
		err = 0;
	}
	if (err) {
		yaml_event_delete(e);
		return err;
	}
	return yaml_emitter_emit(&v->em, e) ? 0 : -EINVAL;
}

static int transform(struct variant *v, const char *text, size_t len)
{
	yaml_parser_t p;
	yaml_event_t e;
	bool done = false;
	int err = 0;

	if (!yaml_parser_initialize(&p))
		return -ENOMEM;
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	while (!err && !done) {
		if (!yaml_parser_parse(&p, &e)) {
			err = -EINVAL;
			break;
		}
		done = e.type == YAML_STREAM_END_EVENT;
		err = on_event(v, &e);
	}
	yaml_parser_delete(&p);
	return err;
}

int calvin_spec_variant(const char *text, size_t len, const struct calvin_chain_spec *spec,
			const struct calvin_spec_override *o, char **out, size_t *out_len)
{
	struct variant *v;
	size_t rlen;
	char *resolved;
	int err;

	err = calvin_spec_text_resolved(text, len, spec, &resolved, &rlen);
	if (err)
		return err;
	v = calloc(1, sizeof(*v));
	if (!v || !yaml_emitter_initialize(&v->em)) {
		free(v);
		free(resolved);
		return -ENOMEM;
	}
	v->spec = spec;
	v->o = o;
	v->depth = -1;
	snprintf(v->burst, sizeof(v->burst), "%u", o->burst);
	snprintf(v->mtu, sizeof(v->mtu), "%u", o->mtu);
	yaml_emitter_set_output(&v->em, out_write, v);
	yaml_emitter_set_width(&v->em, -1);
	yaml_emitter_set_unicode(&v->em, 1);
	err = transform(v, resolved, rlen);
	if (!err && !yaml_emitter_flush(&v->em))
		err = -EINVAL;
	yaml_emitter_delete(&v->em);
	free(resolved);
	if (err || !v->buf) {
		free(v->buf);
		free(v);
		return err ? err : -EINVAL;
	}
	*out = v->buf;
	*out_len = v->len;
	free(v);
	return 0;
}
