// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Forwarding VNF: rewrite MACs and redirect each frame out of the other port, stamping probes.
 *
 * Everything it does is the common part (vnf_tail.bpf.h, which lists the
 * verdicts): IPv4 and IPv6, untagged or behind up to two VLAN tags, go out
 * of the other port; malformed frames are dropped; the rest goes to the
 * stack.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <xdp/xdp_helpers.h>

#include "vnf_tail.bpf.h"

/* Run early among other XDP programs on the port; go on to them only for
 * what we pass. */
struct {
	__uint(priority, 10);
	__uint(XDP_PASS, 1);
} XDP_RUN_CONFIG(forward);

SEC("xdp")
int forward(struct xdp_md *ctx)
{
	struct calvin_vnf v;
	int verdict;

	if (calvin_vnf_begin(ctx, &v, &verdict))
		return verdict;
	return calvin_vnf_tail(&v, v.port);
}

char _license[] SEC("license") = "Dual BSD/GPL";
