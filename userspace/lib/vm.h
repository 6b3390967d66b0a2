/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* What the libvirt backend derives from a chain spec and its plan, as pure
 * code: names of domains, taps and bridges, the MACs of every port, clock
 * domains, the guest kernel's command line and the domain XML. The backend
 * (userspace/calvin/libvirt/) does the I/O; calvin-agent in the guest can
 * derive the same clock domain and MACs from the same spec.
 *
 * Ports: node i of the chain (calvin_chain_nodes(): 0 the probe, then the
 * VNF nodes, the server last) has a west and an east side. A VNF node's sides are its VM's
 * two NICs, each a tap on the host; the probe's east and the server's west
 * are veths whose other end lies on the host. Consecutive nodes are linked
 * on the host between i's east port and i+1's west port. */
#ifndef CALVIN_LIB_VM_H
#define CALVIN_LIB_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chainspec.h"

enum calvin_side {
	CALVIN_WEST,
	CALVIN_EAST,
};

/* The name of the virtio-serial port the agent listens on. */
#define CALVIN_AGENT_PORT "org.calvin.agent.0"
/* IFNAMSIZ less its NUL */
#define CALVIN_IFNAME_MAX 15

/* The host-side port of node's side: "cvHHHHHHHH-Ns" (H: a hash of the
 * chain's name, N: node, s: w or e), 14 characters at most, so it fits
 * IFNAMSIZ however long the chain's name is. Two ports of one chain never
 * share a name; two chains might (a 32-bit hash), which the backend
 * catches by refusing a name that exists. */
int calvin_vm_port_name(char out[CALVIN_IFNAME_MAX + 1], const char *chain, unsigned int node,
			enum calvin_side side);
/* The bridge of the link from node to node + 1 (links: bridge). */
int calvin_vm_bridge_name(char out[CALVIN_IFNAME_MAX + 1], const char *chain, unsigned int node);

/* A locally administered unicast MAC for node's side, unique in the chain
 * (the links are point to point, so only the chain's own ports meet). */
void calvin_vm_mac(uint8_t mac[6], const char *chain, unsigned int node, enum calvin_side side);

/* The clock domain a VNF's hop records carry (include/calvin/telemetry.h):
 * the host's under the netns backend; under libvirt, its VM's, numbered
 * by the VM's node (1..). */
uint8_t calvin_vnf_clock(const struct calvin_chain_spec *spec, unsigned int vnf);

/* What a VNF's VM is. */
struct calvin_vm_desc {
	const char *name; /* the domain's */
	bool kvm;	  /* else TCG: domain type qemu, the emulator's maximum CPU model */
	unsigned int memory_mib;
	bool hugepages;	      /* back the guest with the host's hugepages */
	bool locked;	      /* lock the guest's memory in host RAM */
	int housekeeping_cpu; /* vCPU 0 and the emulator threads; -1: not pinned */
	int vnf_cpu;	      /* vCPU 1, the VNF's; -1: not pinned */
	bool fifo;	      /* vCPU 1 SCHED_FIFO */
	const char *emulator; /* qemu-system-x86_64's path */
	const char *kernel, *initrd;
	const char *console_log;  /* the serial console goes to this file */
	const char *agent_socket; /* the host end of the agent's port */
	const char *port[2];	  /* tap names, by enum calvin_side */
	uint8_t mac[2][6];	  /* the guest's NICs, by enum calvin_side */
	/* QEMU's user and group: libvirt's unprivileged ones (its DAC base
	 * label); both 0: root */
	unsigned int qemu_uid, qemu_gid;
};

/* The guest kernel's command line: serial console, vCPU 1 isolated
 * (isolcpus, nohz_full, rcu_nocbs; IRQs on vCPU 0), which NIC is west and
 * which east, the agent's port. -ENOSPC if len is too short. */
int calvin_vm_cmdline(const struct calvin_vm_desc *d, char *buf, size_t len);

/* The user and group libvirt runs QEMU as, from its capabilities XML
 * (virConnectGetCapabilities()): the DAC security model's base label for
 * domains of type kvm, or qemu (TCG). 0, or -ENOENT where it names none
 * (no DAC model: an unprivileged libvirt). */
int calvin_vm_dac_label(const char *caps, bool kvm, unsigned int *uid, unsigned int *gid);

/* The domain XML for libvirt. -ENOSPC if len is too short. */
int calvin_vm_xml(const struct calvin_vm_desc *d, char *buf, size_t len);

#endif /* CALVIN_LIB_VM_H */
