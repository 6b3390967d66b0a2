# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# pmd: af_xdp where AF_XDP cannot work: calvin-vnf falls back to af_packet,
# `calvin up` says so in one line, and the chain carries probes and
# sockperf as with af_packet asked for. The failure is a real one: calvin
# runs from a copy of the build tree whose hand-over object (the XDP
# program calvin-vnf gives the af_xdp PMD, kernel/handover.bpf.c) is
# another program, with no map of AF_XDP sockets, which the PMD refuses,
# as on a host with a broken install. The af_packet ports cannot get that
# program either: they run calvin's pass program instead, so neighbours'
# redirects still arrive, and their hop records start when rx_burst
# returns, as `calvin status` says.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pmd.sh"
C=t-pmd-fb
pmd_test_begin $C
mkdir -p "$TMP/tree/kernel" || fail "cannot make $TMP/tree"
cp build/calvin build/calvin-vnf "$TMP/tree/" && cp build/kernel/*.bpf.o "$TMP/tree/kernel/" &&
	cp build/kernel/pass.bpf.o "$TMP/tree/kernel/handover.bpf.o" || fail "cannot copy the build tree"
CALVIN=$TMP/tree/calvin
PMD_T_IN=rx_burst pmd_chain_test $C af_xdp af_packet
echo ok
