// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec: the libvirt section (how the libvirt backend makes and links
 * its VMs) and the values only it has, a URI and a memory size. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "spec_priv.h"

#define LV(field) offsetof(struct calvin_libvirt_spec, field)
/* below this the guest's initramfs and DPDK's memory do not fit */
#define VM_MIB_MIN 128
#define VM_MIB_MAX (1024 * 1024)

const struct spec_key calvin_libvirt_keys[] = {
	{ .name = "uri", .type = KEY_URI, .off = LV(uri) },
	{ .name = "links", .type = KEY_WORD, .off = LV(links), .words = calvin_vm_links_words },
	{ .name = "fifo", .type = KEY_BOOL, .off = LV(fifo) },
	{ .name = "memory",
	  .type = KEY_MIB,
	  .off = LV(memory_mib),
	  .min = VM_MIB_MIN,
	  .max = VM_MIB_MAX },
	{ .name = "image", .type = KEY_PATH, .off = LV(image) },
	{ .name = "accel", .type = KEY_WORD, .off = LV(accel), .words = calvin_accel_words },
	{ NULL },
};

int calvin_spec_set_string(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			   const char *s, char *out)
{
	char buf[SHOWN_MAX + 4];
	size_t i;

	if (!*s)
		return calvin_spec_err(c, n->start_mark,
				       "%s is empty; give a value or remove the key", k->name);
	if (strlen(s) >= CALVIN_URI_MAX)
		return calvin_spec_err(c, n->start_mark,
				       "%s is longer than %d characters; shorten it", k->name,
				       CALVIN_URI_MAX - 1);
	for (i = 0; s[i]; i++)
		if (s[i] <= ' ' || s[i] >= 0x7f)
			return calvin_spec_err(c, n->start_mark,
					       "%s '%s' has a space or a control character; "
					       "write it without",
					       k->name, calvin_spec_shown(s, buf));
	strcpy(out, s);
	return 0;
}

/* The URI libvirt is reached by: one libvirt acts on as root (see
 * calvin_libvirt_uri_check()). */
int calvin_spec_set_uri(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, const char *s,
			char *out)
{
	char why[CALVIN_ERR_MAX / 2];
	int err;

	err = calvin_spec_set_string(c, k, n, s, out);
	if (!err && calvin_libvirt_uri_check(out, why, sizeof(why)))
		err = calvin_spec_err(c, n->start_mark, "%s %s", k->name, why);
	if (err)
		out[0] = '\0';
	return err;
}

/* Where the image folder is written, for what is found missing in it. */
int calvin_spec_libvirt_after(struct spec_ctx *c, void *obj, struct spec_seen *seen)
{
	struct calvin_libvirt_spec *lv = obj;
	yaml_node_t *image = NULL;
	int i;

	for (i = 0; calvin_libvirt_keys[i].name; i++)
		if (!strcmp(calvin_libvirt_keys[i].name, "image"))
			image = seen->val[i];

	lv->image_pos.line = image ? (int)image->start_mark.line + 1 : 0;
	lv->image_pos.col = image ? (int)image->start_mark.column + 1 : 0;
	return 0;
}

int calvin_parse_mib(const char *s, unsigned int *mib)
{
	static const struct {
		const char *unit;
		uint64_t mib;
	} units[] = { { "MiB", 1 }, { "GiB", 1024 } };
	uint64_t v = 0;
	const char *p = s;
	size_t i;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > UINT32_MAX)
			return -ERANGE;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(p, units[i].unit))
			continue;
		if (v * units[i].mib > UINT32_MAX)
			return -ERANGE;
		*mib = (unsigned int)(v * units[i].mib);
		return 0;
	}
	return -EINVAL;
}

int calvin_spec_set_mib(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n, const char *s,
			unsigned int *out)
{
	char buf[SHOWN_MAX + 4];
	unsigned int mib = 0;
	int err;

	err = calvin_parse_mib(s, &mib);
	if (err == -EINVAL)
		return calvin_spec_err(c, n->start_mark,
				       "%s '%s' is not a size; write a whole number and MiB or GiB "
				       "(e.g. 512MiB)",
				       k->name, calvin_spec_shown(s, buf));
	if (err || mib < k->min || mib > k->max)
		return calvin_spec_err(c, n->start_mark,
				       "%s %s is out of range; give %uMiB to %uGiB", k->name,
				       calvin_spec_shown(s, buf), k->min, k->max / 1024);
	*out = mib;
	return 0;
}

int calvin_spec_check_libvirt(struct spec_ctx *c, yaml_node_t *key)
{
	struct calvin_libvirt_spec *lv = &c->spec->libvirt;

	if (!key) {
		lv->pos.line = 0;
		return 0;
	}
	lv->pos.line = (int)key->start_mark.line + 1;
	lv->pos.col = (int)key->start_mark.column + 1;
	if (c->spec->backend != CALVIN_BACKEND_LIBVIRT)
		return calvin_spec_err(
		    c, key->start_mark,
		    "the libvirt section applies to 'backend: libvirt' only; set "
		    "that backend or remove the section");
	return 0;
}
