// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Benchmark generator's XDP side: send every frame it is run on out of one interface.
 *
 * bench/progs/gen_xdp.c runs it with BPF_PROG_RUN in live-frames mode, so each run
 * really transmits: the frame goes out through the interface's
 * ndo_xdp_xmit, and a veth hands it to its peer as an xdp_frame, the way a
 * NIC hands a frame to XDP, without a socket buffer.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define GEN_HDR_LEN 34 /* Ethernet + IPv4 header */

/* Set by the generator before load. */
const volatile __u32 out_ifindex = 0;
const volatile __u8 frame_hdr[GEN_HDR_LEN];

SEC("xdp")
int gen(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	__u8 *data = (void *)(long)ctx->data;
	int i;

	/* Live-frames mode recycles its pages without restoring their bytes,
	 * and the hop under test rewrites MACs (and Linux the TTL and IP
	 * checksum) in place: restore the headers before every send. */
	if ((void *)(data + GEN_HDR_LEN) > data_end)
		return XDP_ABORTED;
	/* Byte by byte through the volatile: a plain memcpy would let the
	 * compiler fold in the all-zero initial value. */
	for (i = 0; i < GEN_HDR_LEN; i++)
		data[i] = frame_hdr[i];
	return bpf_redirect(out_ifindex, 0);
}

char _license[] SEC("license") = "Dual BSD/GPL";
