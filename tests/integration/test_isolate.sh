# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# CPU placement as the kernel sees it, and isolation at run time without a
# reboot: a pinned chain's VNF pinned and nothing else changed; an isolated
# chain's VNF alone on its core (cpusets, other tasks, IRQs, workqueues
# moved, SCHED_FIFO, locked memory) and `status` saying so; two isolated
# chains sharing the host-wide part; and after `down`, every setting and
# every thread of the host as it was before `up`.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/isolate_lib.sh"
require_root
require_netns_xdp
require_isolation
A=t-iso-a
B=t-iso-b
P=t-iso-pin
SPEC_A=$(spec_copy chains/tactile-isolated.yaml $A)
# chains that share a core poll it at SCHED_OTHER: a FIFO poller never yields
SPEC_B=$(spec_copy chains/tactile-isolated.yaml $B)
sed -i '/^realtime:/,$d' "$SPEC_B"
SPEC_A2=$TMP/$A-other.yaml
sed "s/^name: .*/name: $A/" "$SPEC_B" >"$SPEC_A2"
SPEC_P=$(spec_copy chains/tactile-fwd.yaml $P)
sleep 600 &
SLEEPER=$!
trap 'cleanup_chain $A; cleanup_chain $B; cleanup_chain $P; kill $SLEEPER; rm -rf "$TMP"' EXIT

field() { # PID FIELD: a field of /proc/PID/stat, counted as in proc(5)
	local line f
	read -r line <"/proc/$1/stat"
	read -ra f <<<"${line##*) }"
	echo "${f[$(($2 - 3))]}"
}
allowed() { awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$1/status"; }
vnf_pid() { awk '$1 == "proc" { print $3 }' "/run/calvin/$1.state"; }
cpu_of() { grep -o "$2 (user, cpu [0-9]*" <<<"$1" | grep -o '[0-9]*$'; }

snapshot "$TMP/before"

# pinned: the VNF on its own core, in no cpuset of calvin's, nothing isolated
out=$($CALVIN up "$SPEC_P") || fail "up of a pinned chain failed"
cpu=$(cpu_of "$out" fwd-u)
pid=$(vnf_pid $P)
[ "$(allowed "$pid")" = "$cpu" ] || fail "pinned VNF may run on $(allowed "$pid"), not only CPU $cpu"
[ "$(cat "/proc/$pid/cpuset")" = / ] || fail "pinned VNF is in cpuset $(cat "/proc/$pid/cpuset")"
$CALVIN -j status $P | grep -q "\"pid\":$pid,\"running\":true,\"cpus_allowed\":\"$cpu\",.*\"policy\":\"other\"" ||
	fail "status does not show the pinned VNF: $($CALVIN -j status $P)"
[ ! -e /run/calvin/isolation.host ] || fail "a pinned chain made a host isolation record"
$CALVIN down $P || fail "down of the pinned chain failed"
assert_restored "$TMP/before"
echo "pinned: fwd-u (pid $pid) allowed only CPU $cpu, host untouched"

# isolated
out=$($CALVIN -v up "$SPEC_A" 2>"$TMP/verbose") || fail "up of an isolated chain failed"
grep -E "^(isolation|chain)" <<<"$out"
# each node's own sysfs was reached: a veth has an rx and a tx queue
grep -q "calvin-$A.fwd-u: packet steering of [1-9][0-9]* queues read" "$TMP/verbose" ||
	fail "packet steering of the VNF's interfaces not read: $(grep steering "$TMP/verbose")"
grep -q "^isolation: CPU .* isolated at run time" <<<"$out" || fail "up did not say what it isolated"
cpu=$(cpu_of "$out" fwd-u)
pid=$(vnf_pid $A)
[ "$(allowed "$pid")" = "$cpu" ] || fail "isolated VNF may run on $(allowed "$pid"), not only CPU $cpu"
[ "$(field "$pid" 41)" = 1 ] && [ "$(field "$pid" 40)" = 10 ] ||
	fail "VNF policy $(field "$pid" 41) priority $(field "$pid" 40), want SCHED_FIFO (1) 10"
locked=$(awk '/^VmLck/ { print $2 }' "/proc/$pid/status")
[ "$locked" -gt 0 ] || fail "VNF locked no memory"
if [ -n "$V1" ] && ! grep -qw cpuset "$V2/cgroup.controllers" 2>/dev/null; then
	[ "$(cat "/proc/$pid/cpuset")" = /calvin-isolated ] ||
		fail "VNF is in cpuset $(cat "/proc/$pid/cpuset"), not /calvin-isolated"
	[ "$(cat "$V1/calvin-isolated/cpuset.cpus")" = "$cpu" ] || fail "isolated cpuset holds $(cat "$V1/calvin-isolated/cpuset.cpus")"
	[ "$(cat "$V1/calvin-isolated/cpuset.sched_load_balance")" = 0 ] || fail "isolated cpuset balances load"
	[ "$(cat "$V1/cpuset.sched_load_balance")" = 0 ] || fail "the root cpuset still balances load"
	# the VNF's other threads (DPDK's) and a task of ours are housekeeping
	for t in /proc/$pid/task/*; do
		[ "${t##*/}" = "$pid" ] && continue
		[ "$(cat "$t/cpuset")" = /calvin-housekeeping ] || fail "VNF thread ${t##*/} in $(cat "$t/cpuset")"
	done
	[ "$(cat /proc/$SLEEPER/cpuset)" = /calvin-housekeeping ] || fail "a task was not moved"
	grep -qw "$cpu" <<<"$(allowed $SLEEPER | tr ',-' '  ')" && fail "a moved task may still run on CPU $cpu"
	echo "moved: our task now in $(cat /proc/$SLEEPER/cpuset), allowed CPUs $(allowed $SLEEPER)"
fi
moved=0
for f in /proc/irq/*/smp_affinity_list; do
	grep -qw "$cpu" <<<"$(tr ',-' '  ' <"$f")" || moved=$((moved + 1))
done
[ $moved -gt 0 ] || fail "no IRQ was moved off CPU $cpu"
status=$($CALVIN status $A)
echo "$status" | sed -n '/isolation:/,$p'
grep -q "fwd-u .*pid $pid  cpus $cpu  last ran on [0-9]*  fifo 10  cpuset " <<<"$status" ||
	fail "status does not show the VNF's placement"
json=$($CALVIN -j status $A)
# the kernel counts the core isolated unless another tool's cpuset (libvirt's
# /machine, say) spans it too; then status names that cpuset
if grep -q '"other_cpuset":""' <<<"$json"; then
	grep -q '"isolated":true,"isolated_by"' <<<"$json" || fail "status: VNF's CPU not isolated: $json"
else
	grep -q "another tool's cpuset /[^ ]* spans them too" <<<"$status" ||
		fail "status does not name the other cpuset"
fi

# the chain forwards: every probe back through the FIFO VNF on its core
$CALVIN probe -c 200 $A >"$TMP/report" || fail "probe of the isolated chain failed"
grep -q "^loss 0/200 " "$TMP/report" || fail "probes lost: $(grep ^loss "$TMP/report")"
grep -q "^hop records 4..4 " "$TMP/report" || fail "$(grep '^hop records' "$TMP/report")"

# a chain that is not isolated keeps off the isolated core (the planner
# never gives a core another chain holds; were it given, up would refuse)
$CALVIN up "$SPEC_P" >/dev/null || fail "up of a pinned chain beside an isolated one failed"
pid_p=$(vnf_pid $P)
case ",$(allowed "$pid_p")," in *",$cpu,"*) fail "$P's VNF may run on isolated CPU $cpu" ;; esac
$CALVIN down $P || fail "down of $P failed"
assert_clean $P

# nor does a second isolated chain share the core a SCHED_FIFO VNF polls
$CALVIN up "$SPEC_B" >/dev/null || fail "up of a second isolated chain failed"
pid_b=$(vnf_pid $B)
case ",$(allowed "$pid_b")," in *",$cpu,"*) fail "$B's VNF may run on FIFO CPU $cpu" ;; esac
$CALVIN down $B || fail "down of $B failed"
assert_clean $B
$CALVIN down $A || fail "down of $A failed"
assert_restored "$TMP/before"
echo "restored after one chain: every setting and every thread as before"

# two isolated chains share the host-wide part: each needs a core of its
# own besides housekeeping (tests/unit/test_isolate_tree covers two chains
# on a fake host of any size)
if [ "$(nproc)" -lt 3 ]; then
	echo "two isolated chains sharing isolation: needs 3 CPUs, this host has $(nproc)"
	echo ok
	exit 0
fi
$CALVIN up "$SPEC_A2" >/dev/null || fail "up of $A without realtime options failed"
$CALVIN up "$SPEC_B" || fail "up of a second isolated chain failed"
grep -q "^chain $B " /run/calvin/isolation.host || fail "$B is not in the host record"
pid_b=$(vnf_pid $B)
cpu_b=$(allowed "$pid_b")
[ -z "$V1" ] || [ "$(cat "/proc/$pid_b/cpuset")" = /calvin-isolated ] ||
	fail "$B's VNF is in $(cat "/proc/$pid_b/cpuset")"
$CALVIN down $A || fail "down of $A failed"
[ -e /run/calvin/isolation.host ] || fail "isolation undone while $B still needs it"
[ -z "$V1" ] || [ "$(cat "$V1/cpuset.sched_load_balance")" = 0 ] || fail "root balances again while $B is up"
[ "$(allowed "$pid_b")" = "$cpu_b" ] || fail "$B's VNF lost its core when $A went down"
$CALVIN down $B || fail "down of $B failed"
[ ! -e /run/calvin/isolation.host ] || fail "the host record outlived the last chain"
assert_restored "$TMP/before"
assert_clean $A
assert_clean $B
echo "restored after two chains: every setting and every thread as before"
echo ok
