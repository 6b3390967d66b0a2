#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# A VM on a remote host as calvin makes it (userspace/calvin/libvirt/
# remote.c, through build/tests/tools/lvimage until `calvin up` deploys
# nodes on other hosts): the guest image put into host a's pool through
# the storage API, the domain calvin's own XML (vm_xml.c) journalled with
# a's URI, both NICs on br-int with an openvswitch virtualport whose
# interfaceid is an OVN logical switch port: both ports bound to chassis
# a, the guest booting from the volumes to its agent, which answers a hello
# and a status through virDomainOpenChannel over a's libvirt (chan.c); `calvin down` removes the
# domain there and the ports are unbound.
# Run it under the machine lock: flock /tmp/calvin-net.lock bash tests/multihost/test_lv_remote_vm.sh
# shellcheck disable=SC2086 # $SIM is the script with its interpreter
. "$(dirname "$0")/lib.sh"
trap 'rm -rf "$TMP"' EXIT
require_sim
LVI=build/tests/tools/lvimage
CALVIN=build/calvin
IMG=build/vm-images/cloud
[ -x $LVI ] && [ -x $CALVIN ] || skip "calvin and its test tools are not built (run make)"
[ -f $IMG/vmlinuz ] && [ -f $IMG/initramfs.img ] || skip "no guest image (run make vm-image)"
trap '$SIM down >/dev/null 2>&1; rm -rf "$TMP"' EXIT
$SIM up 2 >"$TMP/sim" 2>&1 || fail "sim.sh up 2: $(tail -n 3 "$TMP/sim")"
. "$SIM_DIR/env"
export CALVIN_RUN_DIR=$TMP/run
URI=$CALVIN_SIM_URI_a
C=t-rvm
VM=calvin-$C.fwd
LS=test-$C
P0=$(uuidgen -r) P1=$(uuidgen -r)
nbctl ls-add $LS -- lsp-add $LS $P0 -- lsp-add $LS $P1 || fail "cannot make the test's switch"
trap 'nbctl --if-exists ls-del $LS; $SIM down >/dev/null 2>&1; rm -rf "$TMP"' EXIT

t0=$(now_ms)
$LVI vm $C "$URI" $IMG $VM $P0 $P1 2>"$TMP/err" || fail "lvimage vm: $(cat "$TMP/err")"
started=$(($(now_ms) - t0))
grep -q "^domain $VM $URI$" "$CALVIN_RUN_DIR/$C.state" || fail "the domain is not journalled with a's URI"
virsh -c "$URI" domstate $VM 2>/dev/null | grep -q running || fail "domain $VM is not running on a"
t0=$(now_ms)
wait_until "both ports bound to chassis a" eval "bound_to $P0 a && bound_to $P1 a"
bound=$(($(now_ms) - t0))
XML=$(virsh -c "$URI" dumpxml $VM)
grep -q "<kernel>/var/lib/libvirt/images/calvin/calvin-[0-9a-f]\{64\}-vmlinuz</kernel>" <<<"$XML" ||
	fail "the kernel is not the volume: $(grep kernel <<<"$XML")"
grep -q "interfaceid='$P0'" <<<"$XML" || fail "NIC 0 is not on port $P0"
CONSOLE=$SIM_DIR/a/root/var/log/libvirt/qemu/$VM.console
t0=$(now_ms)
WAIT_DEADLINE=180 wait_until "the guest to boot from the volumes (calvin-vm: agent up)" grep -q "calvin-vm: agent up" "$CONSOLE"
booted=$(($(now_ms) - t0))
t0=$(now_ms)
$LVI agent "$URI" $VM >"$TMP/agent" 2>"$TMP/err" || fail "lvimage agent: $(cat "$TMP/err")"
greeted=$(($(now_ms) - t0))
grep -q "^agent calvin-agent.* state " "$TMP/agent" || fail "the agent's answer: $(cat "$TMP/agent")"
echo "ok: its calvin-agent answered through libvirt's channel stream in $greeted ms: $(cat "$TMP/agent")"
echo "ok: $VM started on a in $started ms (image uploaded), ports bound ${bound} ms later, the guest at 'agent up' ${booted} ms later (TCG)"

$CALVIN down $C 2>"$TMP/err" || fail "down: $(cat "$TMP/err")"
virsh -c "$URI" dominfo $VM >/dev/null 2>&1 && fail "down left domain $VM on a"
[ ! -e "$CALVIN_RUN_DIR/$C.state" ] || fail "down left the journal"
wait_until "the ports' bindings to go" eval "unbound $P0 && unbound $P1"
grep -q "kept on $URI: guest image calvin-[0-9a-f]*-vmlinuz" "$TMP/err" || fail "down said: $(cat "$TMP/err")"
echo "ok: down removed the domain on a; the ports are unbound; the images stay as the cache"
echo PASS
