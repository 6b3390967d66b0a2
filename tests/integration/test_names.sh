# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Names derived from chain and node names never collide: chain "ta-edge"
# with node "a-fw" and chain "ta-edge-a" with node "fw" (both "calvin-ta-
# edge-a-fw" under the old derivation) are up at once, each carries its
# probes, and taking one down leaves the other working. A namespace that
# is in the way and not the chain's own is refused, and left alone.
. "$(dirname "$0")/lib.sh"
require_root
require_netns_xdp
A=ta-edge
B=ta-edge-a
trap 'cleanup_chain $A; cleanup_chain $B; ip netns del calvin-ta-other.fw 2>/dev/null; rm -rf "$TMP"' EXIT

chain() { # NAME NODE
	cat >"$TMP/$1.yaml" <<EOS
name: $1
budget: 10ms
placement: shared
vnfs:
  - name: $2
    kind: forward
    space: kernel
EOS
	echo "$TMP/$1.yaml"
}
probe_ok() { # CHAIN
	$CALVIN -j probe -c 200 -r 2000 "$1" >"$TMP/$1.json" || fail "probe of $1 failed"
	[ "$(json_num received <"$TMP/$1.json")" = 200 ] || fail "probes of $1 lost: $(cat "$TMP/$1.json")"
}

$CALVIN up "$(chain $A a-fw)" || fail "up $A failed"
$CALVIN up "$(chain $B fw)" || fail "up $B failed"
probe_ok $A
probe_ok $B
$CALVIN down $A || fail "down $A failed"
assert_clean $A
probe_ok $B
$CALVIN down $B || fail "down $B failed"
assert_clean $B

# A namespace with the name calvin would give a node, but not made by it:
# up refuses it in one line, creates nothing, and leaves the namespace be.
ip netns add calvin-ta-other.fw || fail "cannot create a namespace"
$CALVIN up "$(chain ta-other fw)" 2>"$TMP/err" && fail "up used a namespace it did not make"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "exists already" "$TMP/err" ||
	fail "no one-line refusal: $(cat "$TMP/err")"
ip netns list | grep -q "^calvin-ta-other.fw" || fail "up removed a namespace it did not make"
[ -z "$(ip netns list | grep '^calvin-ta-other\.' | grep -v '^calvin-ta-other.fw')" ] ||
	fail "up left namespaces behind"
[ ! -e /run/calvin/ta-other.state ] || fail "up left its journal behind"
echo ok
