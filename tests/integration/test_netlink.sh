# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# calvin's netlink module (userspace/calvin/nl/) against the real kernel,
# through build/tests/tools/nlctl, in throwaway namespaces: what it makes
# is what ip(8) and ethtool(8) make (namespaces ip netns sees and enters,
# veths straight in their namespaces with their MTU and MAC, addresses,
# permanent neighbours, routes, taps, bridges with their ports, tx
# checksumming off), -v shows each operation in ip(8) words, a failure is
# one line with the kernel's reason, and the attacks on names fail.
. "$(dirname "$0")/lib.sh"
require_root
NL=build/tests/tools/nlctl
[ -x $NL ] || fail "$NL missing: run make first"
A=calvin-nltest-$$.a
B=calvin-nltest-$$.b
T=cvnt$$
T=${T:0:12}
cleanup() {
	ip netns del $A 2>/dev/null
	ip netns del $B 2>/dev/null
	for i in ${T}t ${T}u ${T}br ${T}h ${T}p ${T}x; do ip link del "$i" 2>/dev/null; done
	rm -f /run/netns/calvin-nltest-$$.half
	rm -rf "$TMP"
}
trap cleanup EXIT

# 1. namespaces that ip netns lists and enters, under a shared /run/netns
$NL netns-add $A || fail "netns-add $A"
$NL netns-add $B || fail "netns-add $B"
ip netns list | grep -q "^$A\\b" || fail "ip netns list does not show $A"
ip netns exec $A true || fail "ip netns exec cannot enter $A"
[ "$(ip netns exec $A readlink /proc/self/ns/net)" != "$(readlink /proc/self/ns/net)" ] ||
	fail "$A is this test's own namespace"
findmnt -n -o PROPAGATION /run/netns | grep -q shared || fail "/run/netns is not a shared mount"

# 2. a veth made straight in two namespaces, down, then up
$NL veth east 1600 $A west 1600 $B 02:ca:11:00:00:07 || fail "veth"
ip -n $A -o link show east | grep -q 'mtu 1600 .*state DOWN' || fail "east: $(ip -n $A -o link show east)"
ip -n $B -o link show west | grep -q 'link/ether 02:ca:11:00:00:07' || fail "west's MAC: $(ip -n $B -o link show west)"
ip -n $A -d link show east | grep -q 'veth' || fail "east is not a veth"
$NL -v up $A east 2>"$TMP/err" || fail "up east"
grep -qx "+ ip -n $A link set east up" "$TMP/err" || fail "-v showed: $(cat "$TMP/err")"
$NL up $B west || fail "up west"
ip -n $A -o link show east | grep -q '<.*\bUP\b' || fail "east is not up"
wait_until "east's carrier" sh -c "ip -n $A -o link show east | grep -q 'state UP'"

# 3. addresses, a permanent neighbour, a route: as ip shows its own
$NL addr $A east 10.70.0.1/24 || fail "addr"
$NL addr $B west 10.70.0.2/24 || fail "addr"
ip -n $A -o addr show dev east | grep -q 'inet 10.70.0.1/24 scope global east' ||
	fail "address: $(ip -n $A -o addr show dev east)"
$NL neigh $A east 10.70.0.2 02:ca:11:00:00:07 || fail "neigh"
[ "$(ip -n $A neigh show dev east | sed "s/ *$//")" = "10.70.0.2 lladdr 02:ca:11:00:00:07 PERMANENT" ] ||
	fail "neighbour: $(ip -n $A neigh show dev east)"
$NL neigh $A east 10.70.0.2 02:ca:11:00:00:08 || fail "neigh replace"
ip -n $A neigh show dev east | grep -q '02:ca:11:00:00:08 PERMANENT' || fail "neighbour not replaced"
$NL route $A 10.71.3.0/24 10.70.0.2 east || fail "route"
$NL route $A default 10.70.0.2 east || fail "default route"
ip -n $A route show >"$TMP/routes.nl"
ip -n $A route del 10.71.3.0/24
ip -n $A route del default
ip -n $A route add 10.71.3.0/24 via 10.70.0.2 dev east
ip -n $A route add default via 10.70.0.2 dev east
ip -n $A route show >"$TMP/routes.ip"
diff "$TMP/routes.nl" "$TMP/routes.ip" >/dev/null ||
	fail "routes differ from ip's: $(diff "$TMP/routes.nl" "$TMP/routes.ip")"
ip netns exec $A ping -c 1 -W 1 10.70.0.2 >/dev/null && fail "ping got through a wrong neighbour MAC"
$NL neigh $A east 10.70.0.2 "$(ip -n $B -o link show west | grep -o 'ether [0-9a-f:]*' | cut -d' ' -f2)"
ip netns exec $A ping -c 1 -W 5 10.70.0.2 >/dev/null || fail "no ping through the veth"

# 4. tx checksumming off: the features ethtool -K tx off leaves
$NL veth e2 1500 $A w2 1500 $B || fail "second veth"
$NL txoff $A east || fail "txoff"
ip netns exec $A ethtool -K e2 tx off >/dev/null 2>&1 || fail "ethtool -K e2 tx off"
diff <(ip netns exec $A ethtool -k east | tail -n +2) <(ip netns exec $A ethtool -k e2 | tail -n +2) \
	>"$TMP/features" || fail "features differ from ethtool's: $(cat "$TMP/features")"
ip netns exec $A ethtool -k east | grep -q '^tx-checksumming: off' || fail "tx checksumming is on"

# 5. a tap, as ip tuntap makes one, and one made meanwhile by another is refused
$NL tap ${T}t || fail "tap"
ip tuntap add dev ${T}u mode tap || fail "ip tuntap add"
[ "$(cat /sys/class/net/${T}t/tun_flags)" = "$(cat /sys/class/net/${T}u/tun_flags)" ] ||
	fail "tun_flags $(cat /sys/class/net/${T}t/tun_flags), ip's $(cat /sys/class/net/${T}u/tun_flags)"
ip -d link show ${T}t | grep -q 'tun type tap' || fail "not a tap: $(ip -d link show ${T}t)"
$NL tap ${T}u 2>"$TMP/err" && fail "a tap that exists was taken"
grep -qx "calvin: Failed to add tap ${T}u: Device or resource busy" "$TMP/err" || fail "said: $(cat "$TMP/err")"
$NL up - ${T}t 1600 || fail "tap up with MTU"
ip -o link show ${T}t | grep -q 'mtu 1600' || fail "tap MTU"

# 6. a bridge of two ports, no STP, no forwarding delay
$NL veth ${T}h 1500 - ${T}p 1500 - || fail "host veth"
$NL bridge - ${T}br 1600 || fail "bridge"
ip -d link show ${T}br | grep -q 'forward_delay 0 .*stp_state 0' || fail "bridge: $(ip -d link show ${T}br)"
$NL master - ${T}t ${T}br || fail "master"
$NL master - ${T}h ${T}br || fail "master"
ip -o link show ${T}h | grep -q "master ${T}br" || fail "${T}h has no master"
ip -o link show ${T}t | grep -q "master ${T}br" || fail "${T}t has no master"

# 7. delete, and the errors: one line each, with the kernel's reason
$NL delete - ${T}br || fail "delete bridge"
ip link show ${T}br >/dev/null 2>&1 && fail "bridge still there"
$NL veth east 1600 $A west 1600 $B 2>"$TMP/err" && fail "a veth was made twice"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "$(wc -l <"$TMP/err") lines: $(cat "$TMP/err")"
grep -q "^calvin: Failed to add veth east in $A (peer west in $B): File exists" "$TMP/err" ||
	fail "said: $(cat "$TMP/err")"
$NL addr $A nosuch 10.1.0.1/24 2>"$TMP/err" && fail "an address on no device"
grep -qx "calvin: Failed to add address 10.1.0.1/24 to nosuch in $A: No such device" "$TMP/err" ||
	fail "said: $(cat "$TMP/err")"
$NL up $A east 70000 2>"$TMP/err" && fail "an MTU beyond the veth's maximum was taken"
grep -q "^calvin: Failed to set east mtu 70000 up in $A: Invalid argument (.\+)$" "$TMP/err" ||
	fail "no kernel explanation: $(cat "$TMP/err")"

# 8. attacks on the names: nothing outside /run/netns, nothing taken over
$NL netns-add ../../tmp/calvin-nltest-$$ 2>"$TMP/err" && fail "a namespace name left /run/netns"
[ -e /tmp/calvin-nltest-$$ ] && fail "a file was made outside /run/netns"
grep -q "Invalid argument" "$TMP/err" || fail "said: $(cat "$TMP/err")"
$NL netns-add $A 2>"$TMP/err" && fail "an existing namespace was taken over"
ip -n $A -o link show east >/dev/null 2>&1 || fail "adding $A again broke the existing one"
ln -s /etc/hostname /run/netns/calvin-nltest-$$.x
$NL netns-add calvin-nltest-$$.x 2>/dev/null && fail "a symlink in /run/netns was followed"
rm -f /run/netns/calvin-nltest-$$.x
$NL veth "a/b" 1500 - c 1500 - 2>/dev/null && fail "an interface name with / was taken"

# 9. delete namespaces: one cut short between its file and its mount too
$NL netns-delete $A || fail "netns-delete"
ip netns list | grep -q "^$A\\b" && fail "$A still listed"
touch /run/netns/calvin-nltest-$$.half
$NL netns-delete calvin-nltest-$$.half || fail "a namespace file without a mount was not deleted"
[ -e /run/netns/calvin-nltest-$$.half ] && fail "its file is still there"
$NL netns-delete $B || fail "netns-delete $B"
echo ok
