# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Bad input: one line naming file:line:column and what to do, exit status 2,
# and nothing created.
. "$(dirname "$0")/lib.sh"
require_root
trap 'cleanup_chain t-bad; rm -rf "$TMP"' EXIT
ns_before=$(ip netns list | wc -l)

bad() { # NAME: write a spec from stdin
	cat >"$TMP/$1.yaml"
	echo "$TMP/$1.yaml"
}

expect_bad "$TMP/none.yaml: cannot read" $CALVIN up "$TMP/none.yaml"
f=$(bad parse <<'Y'
name: t-bad
budget: 350us
vnfs: [ {name: a, kind: forward
Y
)
expect_bad "^$f:[0-9]+:[0-9]+: " $CALVIN validate "$f"
f=$(bad key <<'Y'
name: t-bad
budget: 350us
colour: blue
vnfs:
  - {name: a, kind: forward, space: kernel}
Y
)
expect_bad "^$f:3:1: .*colour" $CALVIN up "$f"
f=$(bad kind <<'Y'
name: t-bad
budget: 350us
vnfs:
  - name: a
    kind: teleport
    space: kernel
Y
)
expect_bad "^$f:5:11: .*teleport" $CALVIN up "$f"
f=$(bad unit <<'Y'
name: t-bad
budget: 350
vnfs:
  - {name: a, kind: forward, space: kernel}
Y
)
expect_bad "^$f:2:9: .*unit" $CALVIN up "$f"
[ "$(ip netns list | wc -l)" -eq "$ns_before" ] || fail "a namespace was created by bad input"

# A chain that is already deployed: up of the same file leaves it as it is
# (exit 0, and says so), and the running one is untouched.
if [ -f build/kernel/pass.bpf.o ] && [ -x build/calvin-vnf ]; then
	SPEC=$(spec_copy chains/tactile-fwd.yaml t-bad)
	$CALVIN up "$SPEC" >/dev/null || fail "calvin up failed"
	n=$(ip netns list | wc -l)
	out=$($CALVIN up "$SPEC") || fail "second up of the same file exited $?"
	[ "$out" = "chain t-bad is up and unchanged" ] || fail "second up said: $out"
	[ "$(ip netns list | wc -l)" -eq "$n" ] || fail "second up changed the namespaces"
	# run deploys a chain of its own and removes it: never one that is up
	expect_bad "up already.*calvin probe t-bad" $CALVIN run "$SPEC"
	[ "$(ip netns list | wc -l)" -eq "$n" ] || fail "run changed a chain that was up"
	[ -e /run/calvin/t-bad.state ] || fail "run took down a chain it did not deploy"
	$CALVIN down t-bad || fail "calvin down failed"
	assert_clean t-bad
fi

# Not root.
if command -v setpriv >/dev/null; then
	expect_bad "needs root" setpriv --reuid=65534 --regid=65534 --clear-groups \
		$CALVIN up chains/tactile-fwd.yaml
fi
echo ok
