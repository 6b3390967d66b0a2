# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# A chain in mode: throughput (chains/tactile-fwd-tput.yaml): the plan and
# status say so; the kernel VNF runs at tc, not XDP, so the probe keeps
# TSO and fwd-k receives with checksum offload on, while its port towards
# the user VNF (XDP) checksums in software; the user VNF runs with the deep
# rings of throughput mode (its ring of 512 dropped segments); probes come back with all four hop records in time order (stamped
# at tc and in the user VNF); and a TCP stream crosses it whole (64 MB,
# same SHA-256 at both ends; not timed), through the kernel VNF as GSO
# packets larger than the MTU, and through the user VNF as frames larger
# than 1514 bytes (the file's mtu: 3400: endpoints' links 3400, links
# between VNFs 3500, the VNF's mbufs sized to them); down leaves nothing.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
PY=/usr/bin/python3
[ -x $PY ] || skip "needs $PY for the TCP stream's two ends"
C=t-tput
SPEC=$(spec_copy chains/tactile-fwd-tput.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT

# bad input: one line at the value's line and column, exit 2, nothing made
sed 's/^mode: throughput .*/mode: fast/' "$SPEC" >"$TMP/bad.yaml"
expect_bad "^$TMP/bad.yaml:6:7: unknown mode 'fast'; use one of: latency, throughput\$" \
	$CALVIN up "$TMP/bad.yaml"
sed 's/^backend: .*/backend: libvirt/' "$SPEC" >"$TMP/bad.yaml"
expect_bad "^$TMP/bad.yaml:6:7: mode: throughput needs 'backend: netns'" $CALVIN validate "$TMP/bad.yaml"
sed 's/^mtu: .*/mtu: 9000/' "$SPEC" >"$TMP/bad.yaml"
expect_bad "^$TMP/bad.yaml:7:6: mtu 9000 is too large: .*; use at most 3406\$" $CALVIN up "$TMP/bad.yaml"
assert_clean $C

$CALVIN plan "$SPEC" | grep -q '^mode throughput: kernel VNFs at tc' || fail "plan: no mode line"
$CALVIN plan "$SPEC" | grep -qx "mtu 3400: the endpoints' links; 3500 between VNFs" ||
	fail "plan: no mtu line"
$CALVIN up "$SPEC" 2>"$TMP/up.err" || fail "calvin up failed: $(cat "$TMP/up.err")"
$CALVIN status $C >"$TMP/status" || fail "calvin status failed"
grep -q '^  mode throughput: ' "$TMP/status" || fail "status: no mode line: $(cat "$TMP/status")"
[ "$($CALVIN -j status $C | json_get 0.mode)" = throughput ] || fail "status -j: no mode"
[ "$($CALVIN -j status $C | json_get 0.mtu)" = 3400 ] || fail "status -j: no mtu 3400"
assert_link_mtus $C probe/east/3400 fwd-k/west/3400 fwd-k/east/3500 fwd-u/west/3500 fwd-u/east/3400 \
	server/west/3400
$CALVIN exec $C fwd-k -- tc filter show dev west ingress | grep -q 'forward_tc' ||
	fail "fwd-k: no tc program on west"
! $CALVIN exec $C fwd-k -- ip link show west | grep -q 'xdp' || fail "fwd-k: XDP on west"
$CALVIN exec $C probe -- ethtool -k east | grep -q '^tcp-segmentation-offload: on' ||
	fail "the probe lost TSO"
offload() { # NODE IFACE FEATURE: on or off
	$CALVIN exec $C "$1" -- ethtool -k "$2" | sed -n "s/^$3: \([a-z]*\).*/\1/p"
}
[ "$(offload fwd-k west tx-checksumming)" = on ] || fail "fwd-k west: tx checksumming off"
[ "$(offload fwd-k west generic-segmentation-offload)" = on ] || fail "fwd-k west: GSO off"
# a checksum left to offload is not filled in once XDP takes the frame
[ "$(offload fwd-k east tx-checksumming)" = off ] ||
	fail "fwd-k east: tx checksumming on towards the user VNF's XDP program"
args=$(pgrep -af "calvin-vnf --chain $C " | grep -- '--name fwd-u ') || fail "no calvin-vnf fwd-u"
case "$args" in
*" --ring 2048 --mem-mb 128 "*) ;;
*) fail "fwd-u runs without throughput mode's rings: $args" ;;
esac
vnf_cpu=$($CALVIN plan "$SPEC" | awk '$1 == "fwd-u" && $3 == "cpu" { print $4 + 0 }')
case "$vnf_cpu" in '' | *[!0-9]*) fail "calvin plan: no CPU for fwd-u" ;; esac
rps=$(ip netns exec "calvin-$C.fwd-k" cat /sys/class/net/east/queues/rx-0/rps_cpus | tr -d ,)
case "$rps" in '' | *[!0-9a-f]*) fail "fwd-k east: rps_cpus '$rps'" ;; esac
if [ "$(cpu_count "$(cpus_allowed)")" -ge 2 ]; then
	[ $((16#$rps)) -ne 0 ] && [ $(((16#$rps >> vnf_cpu) & 1)) -eq 0 ] ||
		fail "fwd-k east: rps_cpus '$rps', want the housekeeping CPUs, not fwd-u's cpu '$vnf_cpu'"
else # one CPU: housekeeping and fwd-u share it, and RPS can only go there
	[ $((16#$rps)) -eq $((1 << vnf_cpu)) ] ||
		fail "fwd-k east: rps_cpus '$rps', want the one CPU this run has, '$vnf_cpu'"
	echo "note: one CPU (CPU $(cpus_allowed)): RPS and fwd-u share it"
fi

$CALVIN probe -c 500 --raw "$TMP/raw" $C >"$TMP/report" || fail "calvin probe failed"
check_hops "$TMP/raw" 500 "0/0 1/0 1/1 0/1" || fail "raw probe records: $(cat "$TMP/report")"

# the stream: a 64 MB file from the probe to the server, hashed there
head -c 64M /dev/urandom >"$TMP/data"
want=$(sha256sum <"$TMP/data" | cut -d' ' -f1)
rx0=$(vnf_stat_dir $C fwd-k fwd rx_packets) by0=$(vnf_stat_dir $C fwd-k fwd rx_bytes)
urx0=$(vnf_stat $C fwd-u west_rx_packets) uby0=$(vnf_stat $C fwd-u west_rx_bytes)
$CALVIN exec $C server -- $PY -c '
import hashlib, socket
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("10.70.0.2", 5001)); s.listen(1); s.settimeout(60)
c, _ = s.accept(); c.settimeout(60); h = hashlib.sha256(); n = 0
while True:
    b = c.recv(1 << 16)
    if not b: break
    h.update(b); n += len(b)
print(n, h.hexdigest())' >"$TMP/got" 2>"$TMP/server.err" &
srv=$!
tcp_listening() { $CALVIN exec $C server -- ss -Hltn "sport = :5001" | grep -q .; }
wait_until "a TCP server on the server node" tcp_listening
$CALVIN exec $C probe -- $PY -c '
import socket, sys
c = socket.create_connection(("10.70.0.2", 5001), timeout=60)
with open(sys.argv[1], "rb") as f: c.sendall(f.read())
c.shutdown(socket.SHUT_WR); c.recv(1); c.close()' "$TMP/data" || fail "the TCP client failed"
wait $srv || fail "the TCP server failed: $(cat "$TMP/server.err")"
[ "$(cat "$TMP/got")" = "67108864 $want" ] || fail "TCP stream: got '$(cat "$TMP/got")', want 67108864 $want"
# GSO packets crossed fwd-k whole: more bytes per packet than a 1500 MTU
pk=$(($(vnf_stat_dir $C fwd-k fwd rx_packets) - rx0))
by=$(($(vnf_stat_dir $C fwd-k fwd rx_bytes) - by0))
[ "$pk" -gt 0 ] && [ $((by / pk)) -gt 1514 ] ||
	fail "fwd-k saw $pk packets of $by bytes in all: no GSO packet crossed it"
# the segments cut for the user VNF's port are of the 3500-byte link
pk=$(($(vnf_stat $C fwd-u west_rx_packets) - urx0))
by=$(($(vnf_stat $C fwd-u west_rx_bytes) - uby0))
[ "$pk" -gt 0 ] && [ $((by / pk)) -gt 3000 ] ||
	fail "fwd-u saw $pk packets of $by bytes in all: not the segments of mtu 3400"

$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
