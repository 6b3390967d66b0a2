// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* calvin's link on the host between two ports of a chain under the libvirt
 * backend (one VM's tap and the next VM's, or a tap and the probe's or the
 * server's veth): every frame that arrives on one port leaves by the other,
 * untouched. A bridge does the same with a MAC table, flooding and a pass
 * through the stack; this is one lookup and a redirect, so the link adds
 * as little as the host can to what the VNFs measure.
 *
 * One instance of the program serves one link: attached to both ports, its
 * map names each port's partner. A frame from a port the map does not know
 * goes on to the host's stack (XDP_PASS), as it would without the program.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <xdp/xdp_helpers.h>

struct {
	__uint(priority, 50);
	__uint(XDP_PASS, 1);
} XDP_RUN_CONFIG(link);

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 2);
	__type(key, __u32);   /* ingress ifindex */
	__type(value, __u32); /* egress ifindex: the partner */
} calvin_link_peer SEC(".maps");

SEC("xdp")
int link(struct xdp_md *ctx)
{
	return bpf_redirect_map(&calvin_link_peer, ctx->ingress_ifindex, XDP_PASS);
}

char _license[] SEC("license") = "Dual BSD/GPL";
