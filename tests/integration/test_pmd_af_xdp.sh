# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# pmd: af_xdp (the default): fwd-u's ports run on AF_XDP sockets; probes
# come back with all their hop records, sockperf runs through both ways,
# and `calvin status` shows fwd-u's PMD and its counters moving.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pmd.sh"
C=t-pmd-xdp
pmd_test_begin $C
pmd_chain_test $C af_xdp af_xdp
echo ok
