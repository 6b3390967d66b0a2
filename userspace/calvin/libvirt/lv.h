/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The libvirt backend's files and what they share (the operations are
 * described in ../backend.h). This folder is the only place that includes
 * libvirt's headers; what can be pure (names, MACs, the domain XML) is in
 * userspace/lib/guest/guest.h. */
#ifndef CALVIN_LV_H
#define CALVIN_LV_H

#include <limits.h>
#include <stdbool.h>
#include <libvirt/libvirt.h>

#include "backend.h"
#include "guest/guest.h"
#include "remote.h"

/* How long a guest may take from start to its agent's hello: TCG boots the
 * image in a few seconds on an idle host, but two VMs and busy-polling
 * VNFs share this build machine's two CPUs. */
#define LV_BOOT_TIMEOUT_MS 120000
#define LV_CALL_TIMEOUT_MS 30000

/* daemon.c: libvirtd and virtlogd where no service manager runs them, and
 * the connection. lv_open() prints its own one-line error. */
int lv_open(const char *uri, virConnectPtr *conn);
/* The same, its line in why instead ("" when it printed its own: a local
 * daemon that would not start). */
int lv_open_quiet(const char *uri, virConnectPtr *conn, char *why, size_t len);
const char *lv_error(void);

/* accel.c: KVM or TCG on this host, decided once and cached in the run
 * dir. *kvm says which; why (may be NULL) gets one line about it. Returns
 * 0, or an exit code with its error printed. */
int lv_accel(const struct calvin_chain_spec *s, bool *kvm, char *why, size_t len);
/* The guest image of a spec: IMAGE/vmlinuz and IMAGE/initramfs.img. */
void lv_image(const struct calvin_chain_spec *s, char *dir, size_t len);

/* qemu_user.c: who QEMU runs as, decided once per process and
 * accelerator (kvm: the label libvirt gives KVM domains). */
struct lv_qemu_user {
	unsigned int uid, gid;	  /* 0: root */
	char name[64];		  /* "libvirt-qemu", "uid N" or "root" */
	bool named;		  /* a user of this host: its groups apply */
	bool refused;		  /* it cannot read the image the chain names */
	char why[PATH_MAX + 256]; /* why root, or why refused */
};
/* 0, or -errno with the error printed (libvirt unreachable). */
int lv_qemu_user(const struct calvin_chain_spec *s, bool kvm, const struct lv_qemu_user **u);
/* Before anything is made: refuse an image QEMU's user cannot read. An
 * exit code, the error printed. */
int lv_qemu_check(const struct calvin_chain_spec *s);
/* Become u (in a child that runs QEMU). 0 or -errno. */
int lv_qemu_become(const struct lv_qemu_user *u);
/* "QEMU runs as libvirt-qemu", or as root and why. */
const char *lv_qemu_describe(const struct lv_qemu_user *u, char *buf, size_t len);

/* links.c */
int lv_port_name(const struct deploy *d, unsigned int node, enum calvin_side side, char *out);
int lv_tap_create(struct deploy *d, unsigned int node, enum calvin_side side);
int lv_link_create(struct deploy *d, unsigned int a, unsigned int b);
/* Ports a and b of this host joined by calvin's XDP link program, both
 * journalled first. 0 or -errno after one line. */
int lv_link_xdp(struct deploy *d, const char *a, const char *b);
bool lv_if_exists(const char *name);
/* -EEXIST after one line: what of that name is someone else's. */
int lv_refuse_existing(const struct deploy *d, const char *what, const char *name);
int lv_links_destroy(struct chain_state *s);

/* domain.c */
void lv_memory_facts(const struct calvin_chain_spec *s, bool *huge, bool *locked);
int lv_domain_create(struct deploy *d, unsigned int node);
int lv_domains_destroy(struct chain_state *s);
/* Where domain's vCPU vcpu runs on the host: the CPU it last ran on and
 * those it may run on; *last stays -1 where libvirt does not say. */
void lv_vcpu_host(const struct calvin_chain_spec *s, const char *domain, int vcpu, int *last,
		  struct calvin_cpumask *allowed);
/* vmwatch.c: the defined domain started again unless it runs. 0 or
 * -errno after one line. */
int lv_domain_restart(const struct calvin_chain_spec *s, const char *domain);
/* Where calvin keeps a VM's files: RUN_DIR/CHAIN.d/NODE.SUFFIX */
void lv_node_file(char *out, size_t len, const char *chain, const char *node, const char *suffix);

/* agent.c: the VNF of node, configured and started by its VM's agent; for
 * the last node (a server on another host) the agent's reflector. */
int lv_vnf_start(struct deploy *d, unsigned int node);
int lv_kernel_stats(const struct calvin_chain_spec *s, unsigned int vnf, struct kvnf_counters *out);
int lv_user_stats(const struct calvin_chain_spec *s, unsigned int vnf, char *json, size_t len);
/* A user VNF's process as its agent reads it in the guest, and its vCPU
 * on the host as libvirt says. */
int lv_vnf_placement(const struct calvin_chain_spec *s, unsigned int vnf,
		     struct calvin_vnf_placement *p);

/* links.c, what a link is: the remote host of node n, or NULL (this
 * host: the probe always, the server and VNFs by their host:) */
const struct calvin_host_spec *lv_node_remote(const struct deploy *d, unsigned int n);
/* Is link west..west+1 between hosts (an OVN logical switch)? */
bool lv_link_ovn(const struct deploy *d, unsigned int west);
/* Its MTU: a link between hosts the underlay's less Geneve, one between
 * VNFs INNER_MTU, one to the probe or the server 1500. */
unsigned int lv_link_mtu(const struct deploy *d, unsigned int west);
/* mh.c: nodes and links across hosts. */
/* A VM on its host, after the switches of both its links (a server's VM:
 * its one link, west, and one NIC). */
int lv_remote_node_create(struct deploy *d, unsigned int n);
/* A link between hosts: its switch, and the probe's or the server's port
 * on this host's Open vSwitch. */
int lv_remote_link_create(struct deploy *d, unsigned int a, unsigned int b);
/* Every port of the deployment's switches bound to its chassis. */
int lv_remote_wait_bound(const struct deploy *d);
/* Then a first probe back through the whole chain, within 30 s. */
int lv_remote_warm(const struct deploy *d);

#endif /* CALVIN_LV_H */
