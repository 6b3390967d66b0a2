# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# A VNF that dies at once on every start: the supervisor tries 5 times
# with backoff, then gives up with one vnf-failed event and marks the VNF
# failed; no fork storm (5 starts, no more, over more than a second). The
# VNF is made to die by holding its DPDK runtime's config lock, as a
# second primary process would (its EAL refuses to start); up attaches
# the supervisor to a chain whose VNF is already gone, which it restarts.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sup_lib.sh"
require_root
require_netns_xdp
command -v perl >/dev/null || skip "perl is not installed (it holds a POSIX lock here)"
C=t-supg
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap '[ -n "${LOCKER:-}" ] && kill $LOCKER; cleanup_chain $C; rm -rf "$TMP"' EXIT

$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
probes_pass $C 200
kill -KILL "$(sup_pid $C)"
PID=$(vnf_pid $C fwd-u)
kill -KILL "$PID"
wait_until "fwd-u gone" eval "! alive $PID"
# what a second DPDK primary process holds: the config file's lock
perl -e 'use Fcntl; open(my $f, "+<", $ARGV[0]) or die "$!"; $| = 1;
	my $l = pack("s s x4 q q i x4", F_WRLCK, 0, 0, 0, 0);
	fcntl($f, F_SETLK, $l) or die "lock: $!";
	print "locked\n"; sleep 600' /var/run/dpdk/calvin-$C.fwd-u/config >"$TMP/lock" 2>&1 &
LOCKER=$!
wait_until "the config lock held" grep -q locked "$TMP/lock"
t0=$SECONDS
$CALVIN up "$SPEC" >"$TMP/up" || fail "up (attach) failed: $(cat "$TMP/up")"
wait_until "fwd-u failed" sup_state_is $C fwd-u failed
took=$((SECONDS - t0))
starts=$(events_of $C vnf-start-failed)
echo "gave up after $starts failed starts in about $took s: $(grep vnf-failed /run/calvin/$C.d/events.jsonl)"
[ "$(events_of $C vnf-failed)" = 1 ] || fail "vnf-failed events: $(events_of $C vnf-failed)"
[ "$starts" = 5 ] || fail "$starts starts, want 5"
sleep 2 # nothing more may happen once it gave up
[ "$(events_of $C vnf-start-failed)" = 5 ] && [ "$(events_of $C vnf-failed)" = 1 ] ||
	fail "the supervisor went on after giving up: $(cat /run/calvin/$C.d/events.jsonl)"
$CALVIN status $C | grep -Eq "^  supervised fwd-u +failed " || fail "status: $($CALVIN status $C)"
kill $LOCKER
LOCKER=
$CALVIN down $C || fail "calvin down failed"
assert_clean $C
echo ok
