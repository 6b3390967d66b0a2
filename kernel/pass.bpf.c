// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Pass-everything XDP program for the probe's interface.
 *
 * It exists for its side effect: a veth accepts frames that another veth
 * XDP_REDIRECTs into it (ndo_xdp_xmit) only if the receiving end has XDP
 * set up, i.e. an XDP program attached (or GRO turned on). The first VNF
 * redirects replies into its west veth, whose peer is the probe's east;
 * without a program there, every reply would be dropped by the kernel
 * (xdp:xdp_redirect_err) and the chain would look dead.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <xdp/xdp_helpers.h>

struct {
	__uint(priority, 50);
	__uint(XDP_PASS, 1);
} XDP_RUN_CONFIG(pass);

SEC("xdp")
int pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char _license[] SEC("license") = "Dual BSD/GPL";
