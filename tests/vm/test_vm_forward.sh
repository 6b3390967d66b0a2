# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# A kernel forward VNF in a VM under plain qemu (TCG): boot the image,
# configure fwd-k of the reference chain through the agent, send frames
# through both NICs and see them leave the other one with the peers' MACs
# and the counters move, errors come back as one line, and the VM powers
# itself off when asked.
. "$(dirname "$0")/lib.sh"
require_qemu
KERNEL_ARGS=$ISOLATION vm_boot
grep -q '^calvin-vm: cpu isolation: isolcpus=1 nohz_full=1 irqaffinity=0' "$TMP/console.log" ||
	fail "init did not log the CPU isolation parameters"

agent hello | grep -q '^calvin-agent on Linux ' || fail "no hello from the agent"
[ "$(agent status | head -n 1)" = "state idle" ] || fail "a fresh agent is not idle"

# Errors reach the host as one line.
agent configure chains/tactile-fwd.yaml nope 1 $WEST_PEER $EAST_PEER 2>"$TMP/err" && fail "configure of an unknown VNF succeeded"
grep -q 'VNF nope is not in chain tactile-fwd' "$TMP/err" || fail "unknown VNF: $(cat "$TMP/err")"
[ "$(wc -l <"$TMP/err")" = 1 ] || fail "error is not one line"
agent start 2>"$TMP/err" && fail "start before configure succeeded"
# The server role (a server's VM on another host): a VNF's name is no
# server's; the server's is, its reflector runs on west and stops.
agent configure-server chains/tactile-fwd.yaml fwd-k 1 $WEST_PEER $EAST_PEER 2>"$TMP/err" &&
	fail "configure-server of a VNF succeeded"
grep -q 'fwd-k is not the server of chain tactile-fwd (its server is server)' "$TMP/err" ||
	fail "configure-server of a VNF: $(cat "$TMP/err")"
agent configure-server chains/tactile-fwd.yaml server 1 $WEST_PEER $EAST_PEER || fail "configure-server failed"
agent start || fail "the server's start failed"
[ "$(agent status | head -n 1)" = "state running" ] || fail "the server is not running"
[ "$(counter fwd.rx_packets)" = 0 ] || fail "the reflector's counters are not there"
agent stop || fail "the server's stop failed"

agent configure chains/tactile-fwd.yaml fwd-k 1 $WEST_PEER $EAST_PEER || fail "configure failed"
agent start || fail "start failed"
grep -q "could not move the NICs' interrupts" "$TMP/console.log" && fail "NIC interrupts not moved to the VNF's vCPU"
[ "$(counter fwd.rx_packets)" = 0 ] || fail "counters do not start at 0"
agent configure chains/tactile-fwd.yaml fwd-k 1 $WEST_PEER $EAST_PEER 2>"$TMP/err" && fail "configure while running succeeded"
grep -q 'stop it before configuring again' "$TMP/err" || fail "configure while running: $(cat "$TMP/err")"

# West to east: frames to the west NIC leave east toward the east peer.
$VMWIRE $W_HOST $W_QEMU $E_HOST $WEST_MAC $EAST_PEER 40 || fail "frames west to east did not all come out"
agent status
[ "$(counter fwd.rx_packets)" = 40 ] || fail "fwd.rx_packets $(counter fwd.rx_packets), want 40"
[ "$(counter fwd.tx_packets)" = 40 ] || fail "fwd.tx_packets $(counter fwd.tx_packets), want 40"
# And back.
$VMWIRE $E_HOST $E_QEMU $W_HOST $EAST_MAC $WEST_PEER 20 || fail "frames east to west did not all come out"
[ "$(counter rev.tx_packets)" = 20 ] || fail "rev.tx_packets $(counter rev.tx_packets), want 20"

agent stop || fail "stop failed"
[ "$(agent status | head -n 1)" = "state configured" ] || fail "stopped agent is not configured"
agent shutdown || fail "shutdown failed"
vm_wait_exit 60 || fail "qemu did not exit after shutdown (status $?)"
grep -q 'reboot: Power down' "$TMP/console.log" || fail "the guest did not power off"
echo ok
