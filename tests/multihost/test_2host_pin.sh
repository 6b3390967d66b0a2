#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Planning per host (issue 16): `calvin plan` of chains/tactile-2host.yaml
# reads each simulated host's CPUs and the cores calvin domains pin there
# through its libvirt, shows each remote VNF with its host and that host's
# CPU numbers, and says what calvin does not do there; a host whose
# libvirtd is stopped gives one line naming it and its URI. `up` pins each
# remote VM's vCPUs and emulator thread as planned (virsh vcpupin and
# emulatorpin on its host agree). A second chain on the same hosts without
# allow-sharing is refused in one line naming the host, before anything of
# it exists; with allow-sharing, it keeps off the first chain's VNF cores.
# Two controllers (two run directories) bringing up chains on the same
# hosts at once: never both on one core.
# Run it under the machine lock: flock /tmp/calvin-net.lock bash tests/multihost/test_2host_pin.sh
# shellcheck disable=SC2086 # $SIM is the script with its interpreter
. "$(dirname "$0")/lib.sh"
trap 'rm -rf "$TMP"' EXIT
require_sim
CALVIN=build/calvin
C=tactile-2host
C2=tactile-2host-two
[ -x $CALVIN ] || skip "calvin is not built (run make)"
[ -x "$JSONDOC" ] || skip "$JSONDOC is not built (run make)"
sim_chains_up $C2 $C

# the second chain: the first under another name, without sharing
sed -e "s/^name: $C /name: $C2 /" -e 's/^allow-sharing: true /allow-sharing: false/' \
	chains/tactile-2host.yaml >"$TMP/two.yaml"
grep -q "^name: $C2 " "$TMP/two.yaml" && grep -q '^allow-sharing: false' "$TMP/two.yaml" ||
	fail "cannot make the second chain's file"
sed 's/^allow-sharing: false/allow-sharing: true /' "$TMP/two.yaml" >"$TMP/two-share.yaml"

# --- plan: each host's CPUs through its libvirt --------------------------------
$CALVIN plan chains/tactile-2host.yaml >"$TMP/plan" 2>"$TMP/err" || fail "plan: $(cat "$TMP/err")"
cat "$TMP/plan"
grep -Eq '^  fwd-k +kernel cpu [0-9]+ on host a, owns it' "$TMP/plan" || fail "plan has no fwd-k on host a"
grep -Eq '^  fwd-u +user +cpu [0-9]+ on host b, owns it' "$TMP/plan" || fail "plan has no fwd-u on host b"
ncpu=$(nproc --all)
for h in a b; do
	grep -A1 "^host $h (qemu+tcp://.*), read through its libvirt:" "$TMP/plan" |
		grep -q "^  online 0-$((ncpu - 1)); SMT siblings: none; NUMA: node0 0-$((ncpu - 1))$" ||
		fail "plan does not show host $h's CPUs: $(cat "$TMP/plan")"
done
[ "$(grep -c '^  not done there: calvin cannot isolate CPUs there' "$TMP/plan")" = 2 ] ||
	fail "plan does not say what is not done on each host"
$CALVIN -j plan chains/tactile-2host.yaml >"$TMP/plan.json" 2>"$TMP/err" || fail "-j plan: $(cat "$TMP/err")"
json_get <"$TMP/plan.json" >/dev/null || fail "-j plan is not one JSON document"
# what the plan chose on each host: fwd-k's core on a, fwd-u's on b, housekeeping
k_cpu=$(json_get 'vnfs.[name=fwd-k].cpu' <"$TMP/plan.json")
u_cpu=$(json_get 'vnfs.[name=fwd-u].cpu' <"$TMP/plan.json")
a_hk=$(json_get 'remote_hosts.[name=a].housekeeping.0' <"$TMP/plan.json")
b_hk=$(json_get 'remote_hosts.[name=b].housekeeping.0' <"$TMP/plan.json")
[ "$(json_get 'vnfs.[name=fwd-k].host' <"$TMP/plan.json")" = a ] || fail "-j plan: fwd-k is not on host a"
[ "$(json_get 'vnfs.[name=fwd-u].host' <"$TMP/plan.json")" = b ] || fail "-j plan: fwd-u is not on host b"
for v in "$k_cpu" "$u_cpu" "$a_hk" "$b_hk"; do
	[[ "$v" =~ ^[0-9]+$ ]] || fail "-j plan lacks a CPU: '$k_cpu' '$u_cpu' '$a_hk' '$b_hk'"
done
[ "$(json_get where <"$TMP/plan.json")" != "" ] || fail "-j plan lost where"
echo "ok: plan shows fwd-k on a's cpu $k_cpu, fwd-u on b's cpu $u_cpu, housekeeping $a_hk and $b_hk there"

# a host that does not answer: one line naming it and its URI
$SIM libvirtd b stop >/dev/null || fail "cannot stop b's libvirtd"
$CALVIN plan chains/tactile-2host.yaml >/dev/null 2>"$TMP/err"
rc=$?
$SIM libvirtd b start >/dev/null || fail "cannot start b's libvirtd"
[ $rc = 1 ] || fail "plan with b's libvirtd stopped exited $rc, want 1"
[ "$(wc -l <"$TMP/err")" = 1 ] || fail "plan said more than one line: $(cat "$TMP/err")"
grep -q "^calvin: host b ($CALVIN_SIM_URI_b): cannot reach its libvirt: .*Connection refused" "$TMP/err" ||
	fail "plan did not name host b and its URI: $(cat "$TMP/err")"
echo "ok: with b's libvirtd stopped, plan said: $(cat "$TMP/err")"

# --- up: each remote VM pinned as planned ---------------------------------------
$CALVIN up chains/tactile-2host.yaml >"$TMP/up" 2>"$TMP/err" || fail "up: $(cat "$TMP/err")"
cat "$TMP/up"
grep -q "fwd-k (kernel, cpu $k_cpu on host a) -> fwd-u (user, cpu $u_cpu on host b)" "$TMP/up" ||
	fail "up does not say where the VNFs run: $(head -n 1 "$TMP/up")"
grep -q "^on other hosts: calvin cannot isolate CPUs there" "$TMP/up" || fail "up does not say what is not done on other hosts"
# virsh vcpupin: " 0      0" lines (vCPU, CPU list); emulatorpin: "       *: 0"
pins() { # URI DOMAIN
	virsh -c "$1" vcpupin "$2" | awk '$1 ~ /^[0-9]+$/ {printf "%s:%s ", $1, $2}'
	virsh -c "$1" emulatorpin "$2" | awk '$1 == "*:" {printf "emu:%s", $2}'
}
got=$(pins "$CALVIN_SIM_URI_a" calvin-$C.fwd-k)
[ "$got" = "0:$a_hk 1:$k_cpu emu:$a_hk" ] || fail "fwd-k's VM on a is pinned '$got', want '0:$a_hk 1:$k_cpu emu:$a_hk'"
got=$(pins "$CALVIN_SIM_URI_b" calvin-$C.fwd-u)
[ "$got" = "0:$b_hk 1:$u_cpu emu:$b_hk" ] || fail "fwd-u's VM on b is pinned '$got', want '0:$b_hk 1:$u_cpu emu:$b_hk'"
echo "ok: virsh vcpupin and emulatorpin on a and b match the plan"
# the host's kernel agrees: a thread of fwd-k's QEMU (vCPU 1's) may run on
# its core alone (no pid namespace in the simulation: its QEMU is seen here)
qpid=$(pgrep -f "guest=calvin-$C.fwd-k," | head -n 1)
[ -n "$qpid" ] || fail "no QEMU of fwd-k on a"
aff=$(grep -h Cpus_allowed_list /proc/"$qpid"/task/*/status | awk '{print $2}' | sort | uniq -c | tr '\n' ';')
grep -Eq "(^|;) *1 $k_cpu;" <<<"$aff" || fail "not one thread of fwd-k's QEMU on cpu $k_cpu alone: $aff"

# the deployed chain's own VMs hold nothing against its own plan
$CALVIN -j plan chains/tactile-2host.yaml >"$TMP/again.json" 2>"$TMP/err" || fail "plan of the running chain: $(cat "$TMP/err")"
[ "$(json_get 'vnfs.[name=fwd-k].cpu' <"$TMP/again.json")" = "$k_cpu" ] || fail "the running chain's plan moved fwd-k"
[ "$(json_get -n 'remote_hosts.[name=a].held' <"$TMP/again.json")" = 0 ] || fail "a's own VM counted as another chain's"

# --- a second chain on the same hosts ------------------------------------------
# without sharing: refused in one line naming the host, nothing made
$CALVIN plan "$TMP/two.yaml" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc = 2 ] || fail "plan of the second chain without sharing exited $rc, want 2: $(cat "$TMP/err")"
[ "$(wc -l <"$TMP/err")" = 1 ] || fail "plan said more than one line: $(cat "$TMP/err")"
grep -q "^$TMP/two.yaml: host a: placement pinned needs 1 dedicated core; 2 online, 0 isolated, 2 held by chain $C, 1 for housekeeping" "$TMP/err" ||
	fail "no refusal naming host a and the chain holding it: $(cat "$TMP/err")"
$CALVIN up "$TMP/two.yaml" >/dev/null 2>"$TMP/err2"
rc=$?
[ $rc = 2 ] || fail "up of the second chain without sharing exited $rc, want 2: $(cat "$TMP/err2")"
[ "$(cat "$TMP/err2")" = "$(cat "$TMP/err")" ] || fail "up said '$(cat "$TMP/err2")', plan '$(cat "$TMP/err")'"
[ ! -e "$CALVIN_RUN_DIR/$C2.state" ] || fail "the refused up left a journal"
for u in "$CALVIN_SIM_URI_a" "$CALVIN_SIM_URI_b"; do
	virsh -c "$u" list --all --name | grep -q "calvin-$C2" && fail "the refused up left a domain at $u"
done
echo "ok: a second chain without sharing refused: $(cat "$TMP/err")"
# with sharing: its VMs keep off the first chain's VNF cores
$CALVIN -j plan "$TMP/two-share.yaml" >"$TMP/two.json" 2>"$TMP/err" || fail "plan with sharing: $(cat "$TMP/err")"
k2=$(json_get 'vnfs.[name=fwd-k].cpu' <"$TMP/two.json")
u2=$(json_get 'vnfs.[name=fwd-u].cpu' <"$TMP/two.json")
[[ "$k2" =~ ^[0-9]+$ && "$k2" != "$k_cpu" ]] || fail "the second chain's fwd-k got cpu '$k2' on a, the first's is $k_cpu"
[[ "$u2" =~ ^[0-9]+$ && "$u2" != "$u_cpu" ]] || fail "the second chain's fwd-u got cpu '$u2' on b, the first's is $u_cpu"
[ "$(json_get 'vnfs.[name=fwd-k].granted' <"$TMP/two.json")" = shared ] || fail "the second chain's fwd-k is not shared"
echo "ok: with sharing, the second chain's VMs go to cpu $k2 on a and $u2 on b (housekeeping), off the first's"

$CALVIN down $C 2>"$TMP/err" || fail "down: $(cat "$TMP/err")"
for u in "$CALVIN_SIM_URI_a" "$CALVIN_SIM_URI_b"; do
	virsh -c "$u" list --all --name | grep -q "calvin-$C" && fail "down left a domain at $u"
done

# --- two controllers planning the same hosts at once ---------------------------
# Each has its own run directory (its own journals and plan lock), as two
# controller hosts would; neither chain shares. Both `up`s start together,
# so both read a and b before either defines a VM there: at most one may
# run, and a refusal is one of the two lines (the plan's, or the check
# after defining its VM).
sed 's/^allow-sharing: true /allow-sharing: false/' chains/tactile-2host.yaml >"$TMP/one.yaml"
RUN2=$TMP/run2
trap 'CALVIN_RUN_DIR=$RUN2 $CALVIN down $C2 >/dev/null 2>&1; '"$(trap -p EXIT | sed "s/^trap -- '//; s/' EXIT\$//")" EXIT
(CALVIN_RUN_DIR=$RUN2 $CALVIN up "$TMP/two.yaml" >"$TMP/up2" 2>"$TMP/err2"; echo $? >"$TMP/rc2") &
$CALVIN up "$TMP/one.yaml" >"$TMP/up1" 2>"$TMP/err1"
rc1=$?
wait
rc2=$(cat "$TMP/rc2")
[ "$rc1" = 0 ] && [ "$rc2" = 0 ] && fail "both controllers brought their chain up on the same cores"
refusal="^calvin: host [ab]: CPU [0-9]+, planned for chain [a-z0-9-]+, is now held by chain [a-z0-9-]+'s fwd-[ku] too|^$TMP/(one|two).yaml: host [ab]: placement pinned needs 1 dedicated core; .* held by chain"
outcome=
for i in 1 2; do
	eval "rc=\$rc$i"
	[ "$rc" = 0 ] && { outcome="$outcome controller $i up;"; continue; }
	grep -Eq "$refusal" "$TMP/err$i" || fail "controller $i exited $rc without the refusal: $(cat "$TMP/err$i")"
	outcome="$outcome controller $i refused: $(grep -Em1 "$refusal" "$TMP/err$i");"
done
CALVIN_RUN_DIR=$RUN2 $CALVIN down $C2 2>"$TMP/err" || fail "down of the second controller's chain: $(cat "$TMP/err")"
$CALVIN down $C 2>"$TMP/err" || fail "down of the first controller's chain: $(cat "$TMP/err")"
for u in "$CALVIN_SIM_URI_a" "$CALVIN_SIM_URI_b"; do
	virsh -c "$u" list --all --name | grep -q "calvin-$C" && fail "a domain is left at $u"
done
echo "ok: two controllers at once:$outcome"
echo PASS
