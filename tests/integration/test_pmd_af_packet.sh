# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# pmd: af_packet: fwd-u's ports are AF_PACKET sockets. Its neighbours
# still forward to it in XDP (fwd-k redirects, the server bounces), which a
# veth accepts only where it has an XDP program: calvin-vnf's hand-over
# program (calvin's pass program where that one cannot be attached, see
# test_pmd_fallback); without one every packet was lost. Probes, hop
# records, sockperf both ways, counters in `calvin status`.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pmd.sh"
C=t-pmd-pkt
pmd_test_begin $C
pmd_chain_test $C af_packet af_packet
echo ok
