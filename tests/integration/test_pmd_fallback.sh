# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# pmd: af_xdp where AF_XDP cannot work: calvin-vnf falls back to af_packet,
# `calvin up` says so in one line, and the chain carries probes and
# sockperf as with af_packet asked for. The failure is a real one: libxdp
# is pointed (LIBXDP_OBJECT_PATH) at a directory holding its dispatcher but
# not the XDP program AF_XDP sockets need, as on a host where libxdp's
# objects are only partly installed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pmd.sh"
C=t-pmd-fb
pmd_test_begin $C
disp=$(ls /usr/lib/*/bpf/xdp-dispatcher.o /usr/lib/bpf/xdp-dispatcher.o \
	/usr/local/lib/bpf/xdp-dispatcher.o 2>/dev/null | head -n 1)
[ -n "$disp" ] || skip "libxdp's xdp-dispatcher.o not found"
mkdir "$TMP/objs" && ln -s "$disp" "$TMP/objs/"
pmd_chain_test $C af_xdp af_packet LIBXDP_OBJECT_PATH="$TMP/objs"
echo ok
