/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* A VM on another host (remote.c), for files that include no libvirt
 * header. */
#ifndef CALVIN_LV_REMOTE_H
#define CALVIN_LV_REMOTE_H

#include <stdint.h>

#include "state.h"

struct lv_remote_vm {
	const char *uri;	 /* that host's libvirt */
	const char *name;	 /* the domain's */
	const char *image_dir;	 /* here: vmlinuz and initramfs.img */
	const char *bridge;	 /* that host's OVS integration bridge */
	const char *ovn_port[2]; /* by enum calvin_side: the OVN ports (UUIDs) */
	uint8_t mac[2][6];
	unsigned int memory_mib;
};

/* Put the guest image on that host (storage.h), journal the domain with
 * the host's URI, define and start it there, under TCG (KVM on another
 * host is not decided yet). 0, or -errno with one line said. */
int lv_remote_vm_create(struct chain_state *s, const struct lv_remote_vm *r);

#endif /* CALVIN_LV_REMOTE_H */
