/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Set a BPF program's read-only global (const volatile) by name, before load.
 *
 * Shared by the loader and the BPF tests, which open the same objects
 * without skeletons, so the variable's offset comes from the object's BTF.
 * Header-only because the tests do not link the loader.
 */
#ifndef CALVIN_BPF_RODATA_H
#define CALVIN_BPF_RODATA_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

static inline int calvin_bpf_set_rodata(struct bpf_object *obj, const char *name, const void *val,
					size_t len)
{
	const struct btf *btf = bpf_object__btf(obj);
	const struct btf_var_secinfo *vs;
	const struct btf_type *sec;
	struct bpf_map *map;
	const void *init;
	size_t size;
	int id, i, err;
	void *buf;

	map = bpf_object__find_map_by_name(obj, ".rodata");
	if (!map || !btf)
		return -ENOENT;
	init = bpf_map__initial_value(map, &size);
	id = btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC);
	if (!init || id < 0)
		return -ENOENT;
	sec = btf__type_by_id(btf, id);
	vs = btf_var_secinfos(sec);
	for (i = 0; i < btf_vlen(sec); i++, vs++) {
		const struct btf_type *var = btf__type_by_id(btf, vs->type);

		if (strcmp(btf__name_by_offset(btf, var->name_off), name))
			continue;
		if (vs->size != len || vs->offset + len > size)
			return -EINVAL;
		buf = malloc(size);
		if (!buf)
			return -ENOMEM;
		memcpy(buf, init, size);
		memcpy((char *)buf + vs->offset, val, len);
		err = bpf_map__set_initial_value(map, buf, size);
		free(buf);
		return err;
	}
	return -ENOENT;
}

#endif /* CALVIN_BPF_RODATA_H */
