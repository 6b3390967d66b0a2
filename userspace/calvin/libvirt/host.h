/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Another host's CPUs through its libvirt (host.c), for the controller's
 * files that include no libvirt header. */
#ifndef CALVIN_LV_HOST_H
#define CALVIN_LV_HOST_H

#include <stddef.h>

#include "plan/plan.h"

/* The CPUs and NUMA nodes of the host libvirt at uri runs on: its
 * capabilities' topology, less the CPUs its node CPU map says are offline,
 * and in t->holds the cores calvin domains of other chains than own pin
 * there. 0, or -errno with one line in why (-ECONNREFUSED: libvirt at uri
 * cannot be reached). */
int lv_host_topology(const char *uri, const char *own, struct calvin_topology *t, char *why,
		     size_t len);

#endif /* CALVIN_LV_HOST_H */
