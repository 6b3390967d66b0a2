// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Pass-everything XDP program for the probe's interface, and for the
 * ports of user VNFs on af_packet where calvin-vnf's hand-over program
 * (handover.bpf.c, which does the same and more) could not be attached.
 *
 * It exists for its side effect: a veth accepts frames that another veth
 * XDP_REDIRECTs or XDP_TXes into it (ndo_xdp_xmit) only if the receiving
 * end has XDP set up, i.e. an XDP program attached (turning GRO on
 * instead let redirected frames in on this host, but not the server's
 * XDP_TXed ones). The first VNF redirects replies into its west veth,
 * whose peer is the probe's east; a kernel VNF redirects, and the echo
 * server bounces, into the veths of a user VNF's node, which on af_packet
 * have no program of their own (an af_xdp port brings its own). Without
 * this program there, every such frame is dropped by the kernel and the
 * chain looks dead.
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
