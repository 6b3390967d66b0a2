/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* A guest image on another host through libvirt's storage API
 * (storage.c), for the controller's files that include no libvirt header. */
#ifndef CALVIN_LV_STORAGE_H
#define CALVIN_LV_STORAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "state.h"

/* The pool calvin keeps guest images in, on every remote host. */
#define LV_POOL "calvin"
#define LV_POOL_PATH "/var/lib/libvirt/images/calvin"

/* Put file into the pool at uri as a volume named by its SHA-256
 * (calvin-HEX-BASENAME), uploaded through a stream, or reused when that
 * volume is there and complete (its sidecar HEX-BASENAME.ok exists, made
 * only after the whole upload). The pool and each volume are journalled
 * before they are made. path gets the volume's path on that host; *reused
 * says which. 0, or -errno with one line said. */
int lv_image_put(struct chain_state *s, const char *uri, const char *file, char *path, size_t len,
		 bool *reused);
/* down: a journalled volume without its sidecar (an upload cut short) is
 * removed; complete ones stay as a cache, one line each saying so, unless
 * purge, which removes them and then the pool if it is empty. A host that
 * does not answer: one line of what is left there, -EAGAIN. */
int lv_images_down(struct chain_state *s, bool purge);

#endif /* CALVIN_LV_STORAGE_H */
