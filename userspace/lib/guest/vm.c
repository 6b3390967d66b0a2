// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Names, MACs, clock domains and the guest command line of the libvirt
 * backend's VMs (see guest.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <calvin/telemetry.h>

#include "guest/guest.h"

/* FNV-1a: short, stable across builds and hosts, good enough to tell
 * chains apart in 32 bits. */
static uint32_t chain_hash(const char *chain)
{
	uint32_t h = 2166136261u;

	for (; *chain; chain++)
		h = (h ^ (uint8_t)*chain) * 16777619u;
	return h;
}

int calvin_vm_port_name(char out[CALVIN_IFNAME_MAX + 1], const char *chain, unsigned int node,
			enum calvin_side side)
{
	int n = snprintf(out, CALVIN_IFNAME_MAX + 1, "cv%08x-%u%c", chain_hash(chain), node,
			 side == CALVIN_WEST ? 'w' : 'e');

	return n < 0 || n > CALVIN_IFNAME_MAX ? -ENAMETOOLONG : 0;
}

int calvin_vm_ovs_port_name(char out[CALVIN_IFNAME_MAX + 1], const char *chain, unsigned int node,
			    enum calvin_side side, char end)
{
	int n = snprintf(out, CALVIN_IFNAME_MAX + 1, "cv%08x-%u%c%c", chain_hash(chain), node,
			 side == CALVIN_WEST ? 'w' : 'e', end);

	return n < 0 || n > CALVIN_IFNAME_MAX ? -ENAMETOOLONG : 0;
}

int calvin_vm_bridge_name(char out[CALVIN_IFNAME_MAX + 1], const char *chain, unsigned int node)
{
	int n = snprintf(out, CALVIN_IFNAME_MAX + 1, "cvb%08x-%u", chain_hash(chain), node);

	return n < 0 || n > CALVIN_IFNAME_MAX ? -ENAMETOOLONG : 0;
}

void calvin_vm_mac(uint8_t mac[6], const char *chain, unsigned int node, enum calvin_side side)
{
	uint32_t h = chain_hash(chain);

	mac[0] = 0x02; /* locally administered, unicast */
	mac[1] = 0xca;
	mac[2] = (uint8_t)(h >> 8);
	mac[3] = (uint8_t)h;
	mac[4] = (uint8_t)node;
	mac[5] = (uint8_t)side;
}

uint8_t calvin_vnf_clock(const struct calvin_chain_spec *spec, unsigned int vnf)
{
	struct calvin_node nodes[CALVIN_MAX_NODES];
	unsigned int n;

	if (spec->backend != CALVIN_BACKEND_LIBVIRT)
		return CALVIN_CLOCK_HOST_MONO;
	n = calvin_chain_nodes(spec, nodes);
	return (uint8_t)calvin_node_of(nodes, n, vnf);
}

static void mac_text(const uint8_t m[6], char out[18])
{
	snprintf(out, 18, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

bool calvin_vm_has_nic(const struct calvin_vm_desc *d, enum calvin_side side)
{
	return d->port[side] || d->ovn_port[side];
}

int calvin_vm_cmdline(const struct calvin_vm_desc *d, char *buf, size_t len)
{
	char west[18], east[18] = "none";
	int n;

	mac_text(d->mac[CALVIN_WEST], west);
	/* a server's VM has west alone; no NIC in the guest is named east */
	if (calvin_vm_has_nic(d, CALVIN_EAST))
		mac_text(d->mac[CALVIN_EAST], east);
	/* panic=-1: a guest that panics powers off (on_crash destroy) instead
	 * of hanging on a pinned core. vCPU 1 is the VNF's alone: no tasks,
	 * no tick, no RCU callbacks, no device interrupts unless the agent
	 * moves them there. */
	n = snprintf(buf, len,
		     "console=ttyS0 quiet panic=-1 isolcpus=1 nohz_full=1 rcu_nocbs=1 irqaffinity=0"
		     " calvin.west=%s calvin.east=%s calvin.port=%s",
		     west, east, CALVIN_AGENT_PORT);
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}
