# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# A user VNF in a VM: the agent starts calvin-vnf (DPDK, af_xdp on the
# guest's virtio NICs) with the options the netns backend gives it, frames
# go through, and status carries its DPDK telemetry counters.
. "$(dirname "$0")/lib.sh"
require_qemu
KERNEL_ARGS=$ISOLATION vm_boot

agent configure chains/tactile-fwd.yaml fwd-u 1 $WEST_PEER $EAST_PEER || fail "configure failed"
start=$(date +%s%N)
agent start || fail "start failed"
echo "calvin-vnf ready after $((($(date +%s%N) - start) / 1000000)) ms (TCG)"
$VMWIRE $W_HOST $W_QEMU $E_HOST $WEST_MAC $EAST_PEER 20 || fail "frames west to east did not all come out"
agent status | tee "$TMP/status"
grep -q '^state running' "$TMP/status" || fail "not running"
grep -q '^telemetry .*/calvin/stats' "$TMP/status" || fail "no telemetry counters in status"
grep -q '"west_rx_packets":20,' "$TMP/status" || fail "west_rx_packets is not 20"
grep -q '"east_tx_packets":20,' "$TMP/status" || fail "east_tx_packets is not 20"
agent stop || fail "stop failed"
agent shutdown >/dev/null
vm_wait_exit 60 || fail "qemu did not exit after shutdown"
echo ok
