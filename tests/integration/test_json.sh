# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# -j: every command prints exactly one JSON document on stdout, read here
# by a JSON parser (tests/tools/jsondoc.c, json-c), whether it succeeds or
# fails: help, validate, plan, keygen, up (new, again, --admit missing its
# budget), probe, status, exec, run (within budget, refused, failing
# before its chain is up, interrupted while it probes), down, bench. A
# failure has its first error line in "error" (status: per chain).
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
C=t-json
export CALVIN_RUN_DIR=$TMP/run
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
set -m # a background calvin takes SIGINT (see test_signals.sh)

# calvin -j ARGS...: exit status WANT ("any": not checked), stdout one
# JSON document (in $TMP/doc), and "error" in it when it failed.
one_doc() { # WANT ARGS...
	local want=$1 rc
	shift
	env --default-signal=INT $CALVIN -j "$@" >"$TMP/doc" 2>"$TMP/err"
	rc=$?
	[ "$want" = any ] || [ $rc -eq "$want" ] ||
		fail "calvin -j $*: exit $rc, want $want: $(cat "$TMP/doc" "$TMP/err")"
	json_get <"$TMP/doc" || fail "calvin -j $*: not one JSON document: $(cat "$TMP/doc")"
	if [ $rc -ne 0 ] && [ $rc -ne 3 ] && [ "$(head -c 1 "$TMP/doc")" = "{" ]; then
		json_get error <"$TMP/doc" >/dev/null || fail "calvin -j $*: failed without an error"
	fi
	echo "one document: calvin -j $* (exit $rc)"
}

get() { json_get "$1" <"$TMP/doc"; }

# commands that need no chain
one_doc 0 help
[ "$(json_get -n commands <"$TMP/doc")" -ge 10 ] || fail "help: commands"
one_doc 0 help up
[ "$(get name)" = up ] || fail "help up: $(cat "$TMP/doc")"
one_doc 0 --help
one_doc 0 status --help
one_doc 2
one_doc 2 frobnicate
one_doc 0 validate "$SPEC"
[ "$(get valid) $(get chain)" = "true $C" ] || fail "validate: $(cat "$TMP/doc")"
printf 'name: x\nvnfs: [\n' >"$TMP/bad.yaml"
one_doc 2 validate "$TMP/bad.yaml"
[ "$(get valid)" = false ] || fail "validate of a bad file: $(cat "$TMP/doc")"
one_doc 2 validate "$TMP/none.yaml"
one_doc 0 plan "$SPEC"
[ "$(get chain)" = $C ] || fail "plan: $(cat "$TMP/doc")"
one_doc 2 plan "$TMP/bad.yaml"
one_doc 0 keygen "$TMP/key"
[ "$(get created)" = true ] || fail "keygen: $(cat "$TMP/doc")"
one_doc 2 keygen "$TMP/key"
one_doc 0 status
[ "$(cat "$TMP/doc")" = "[]" ] || fail "status of nothing: $(cat "$TMP/doc")"
one_doc 2 status $C
[ "$(get 0.chain)" = $C ] && get 0.error | grep -q "is not deployed" ||
	fail "status of a chain not deployed: $(cat "$TMP/doc")"
one_doc 2 probe $C
one_doc 2 exec $C probe -- true
one_doc 2 down
one_doc 2 bench frobnicate "$SPEC"

# run: up, probe, report and down in one document
one_doc 0 run "$SPEC" -c 20 -r 2000
[ "$(get chain) $(get up) $(get counts.sent) $(get down)" = "$C true 20 true" ] ||
	fail "run: $(cat "$TMP/doc")"
assert_clean $C
# ... failing before the chain is up
LONG=$TMP/$(printf 'd%.0s' $(seq 240))
mkdir -m 700 "$LONG"
CALVIN_RUN_DIR=$LONG one_doc 2 run "$SPEC"
[ "$(get up)" = false ] && get error | grep -q "too long for the journal" ||
	fail "a run that could not come up: $(cat "$TMP/doc")"
# ... over budget (--check: exit 3, the verdict says why)
sed 's/^budget: .*/budget: 1us/' "$SPEC" >"$TMP/tight.yaml"
one_doc 3 run "$TMP/tight.yaml" -c 20 -r 2000 --check
[ "$(get verdict.within_budget) $(get down)" = "false true" ] || fail "run --check: $(cat "$TMP/doc")"
# ... and interrupted while it probes
env --default-signal=INT $CALVIN -j run "$SPEC" -c 100000 -r 1000 >"$TMP/doc" 2>"$TMP/err" &
pid=$!
wait_probing $C $pid
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "interrupted run exited $rc, want 130"
json_get <"$TMP/doc" || fail "interrupted run: not one JSON document: $(cat "$TMP/doc")"
[ "$(get probe.interrupted) $(get down)" = "true true" ] || fail "interrupted run: $(cat "$TMP/doc")"
echo "one document: an interrupted run"
assert_clean $C

# up --admit that misses its budget: the report and the refusal
one_doc 3 up --admit -c 20 "$TMP/tight.yaml"
[ "$(get admitted) $(get up)" = "false false" ] || fail "up --admit: $(cat "$TMP/doc")"
assert_clean $C

# a deployed chain
one_doc 0 up "$SPEC"
[ "$(get chain) $(get up)" = "$C true" ] || fail "up: $(cat "$TMP/doc")"
one_doc any up "$SPEC" # unchanged: refused or "nothing to change", one document either way
one_doc 0 probe $C -c 20 -r 2000
[ "$(get counts.received)" = 20 ] || fail "probe: $(cat "$TMP/doc")"
one_doc 0 status $C
[ "$(get 0.chain) $(json_get -n 0.vnfs <"$TMP/doc")" = "$C 2" ] || fail "status: $(cat "$TMP/doc")"
one_doc 0 status
one_doc 2 run "$SPEC"
get error | grep -q "is up already" || fail "run of a deployed chain: $(cat "$TMP/doc")"
one_doc 0 down $C
[ "$(get chain) $(get down)" = "$C true" ] || fail "down: $(cat "$TMP/doc")"
one_doc 0 down --all
[ "$(get down)" = true ] || fail "down --all: $(cat "$TMP/doc")"
assert_clean $C

# bench: its rounds' own `up` add nothing to its document
if command -v sockperf >/dev/null; then
	one_doc 0 bench baseline "$SPEC" -n 1 -c 20 -t 0.2 -o "$TMP/bench"
	[ "$(get mode) $(get chain) $(get report)" = "baseline $C $TMP/bench/report.md" ] ||
		fail "bench: $(cat "$TMP/doc")"
	[ "$(json_get -k . <"$TMP/doc" | tr '\n' ' ')" = "mode chain dir report " ] ||
		fail "bench: members of its rounds' up: $(cat "$TMP/doc")"
	assert_clean $C
else
	echo "bench not run: sockperf is not installed"
fi
echo ok
