/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* A chain's VMs as its supervisor watches and heals them (vmwatch.c), for
 * the supervisor's files, which include no libvirt header: the domains'
 * lifecycle events, each domain's state and why it stopped, and a VNF
 * deployed again in its VM (the VM started again first if it is down). */
#ifndef CALVIN_LV_VMWATCH_H
#define CALVIN_LV_VMWATCH_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"

/* CHANGING: on its way down (QEMU told to quit) or not known yet; the
 * stop's own event follows. */
enum lv_vm_state { LV_VM_RUNNING, LV_VM_PAUSED, LV_VM_STOPPED, LV_VM_CHANGING };

/* Lifecycle events of the domains of chain s (calvin-CHAIN.*), from an
 * event loop thread of libvirt's default implementation: a descriptor
 * that is readable while a domain had an event since the last
 * lv_watch_next(). 0 or -errno after one line. One watch per process. */
int lv_watch_open(const struct calvin_chain_spec *s);
/* The descriptor to poll, or -1 without a watch. */
int lv_watch_fd(void);
/* The next domain with an event into name (len bytes); false when none is
 * left. An event says only "look at it": lv_vm_state() says what it is. */
bool lv_watch_next(char *name, size_t len);
void lv_watch_close(void);

/* Domain's state now and, stopped, why ("domain destroyed", "shutdown",
 * "crashed", "failed", ...) into why; -errno (libvirt not answering: the
 * state is not known; -ENOENT: the domain is not defined). */
int lv_vm_state(const struct calvin_chain_spec *s, const char *domain, char *why, size_t len);

/* Node n's VNF deployed again under epoch: its VM started again (the
 * defined domain: the same XML, pinning and NICs) unless it runs, its
 * agent waited for (giving up at calvin_quit), the VNF stopped, then
 * configured, keyed (encrypt/decrypt: the traffic keys of epoch) and
 * started. 0, -EINTR (calvin_quit), or -errno after one line. */
int lv_vnf_redeploy(struct deploy *d, unsigned int n, uint32_t epoch);

#endif /* CALVIN_LV_VMWATCH_H */
