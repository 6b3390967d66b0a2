/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* A VM on another host (remote.c), for files that include no libvirt
 * header. */
#ifndef CALVIN_LV_REMOTE_H
#define CALVIN_LV_REMOTE_H

#include <stdbool.h>
#include <stdint.h>

#include "channel.h"
#include "state.h"

struct lv_remote_vm {
	const char *uri;	 /* that host's libvirt */
	const char *name;	 /* the domain's */
	const char *image_dir;	 /* here: vmlinuz and initramfs.img */
	const char *bridge;	 /* that host's OVS integration bridge */
	const char *ovn_port[2]; /* by enum calvin_side: the OVN ports (UUIDs) */
	uint8_t mac[2][6];
	unsigned int memory_mib;
	/* on that host's CPUs, as its plan says; only with pinned (left
	 * zero, the VM floats), and -1 there: that one is not pinned */
	bool pinned;
	int housekeeping_cpu; /* vCPU 0 and the emulator threads */
	int vnf_cpu;	      /* vCPU 1, its VNFs' */
};

/* Put the guest image on that host (storage.h), journal the domain with
 * the host's URI, define and start it there, under TCG (KVM on another
 * host is not decided yet), its vCPUs and emulator pinned as r says. 0,
 * or -errno with one line said. */
int lv_remote_vm_create(struct chain_state *s, const struct lv_remote_vm *r);

/* chan.c: the agent channel of a VM on another host, through libvirt
 * (virDomainOpenChannel): fd is a stream descriptor the agent client
 * speaks on, served by a child process pid until lv_chan_close(). 0, or
 * -errno with one line said. */
struct lv_chan {
	int fd;
	int pid;
};
int lv_chan_open(const char *uri, const char *domain, int timeout_ms, struct lv_chan *ch);
void lv_chan_close(struct lv_chan *ch);

/* agent.c: a remote VM's agent, greeted over that channel within
 * timeout_ms (the guest may still be booting); its self-description into
 * who (may be NULL). 0, or -errno with one line said. */
struct lv_agent {
	struct calvin_channel ch;
	struct lv_chan lc;
};
int lv_remote_agent_open(const char *uri, const char *domain, int timeout_ms, struct lv_agent *a,
			 char *who, size_t wholen);
void lv_remote_agent_close(struct lv_agent *a);

#endif /* CALVIN_LV_REMOTE_H */
