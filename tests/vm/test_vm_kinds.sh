# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Every kernel VNF kind loads on the guests' kernel (Debian 12's 6.1, whose
# verifier is older than the host's) and detaches again: one VM, the
# agent configures, starts and stops each in turn. A multi-VNF node is
# refused with one line.
. "$(dirname "$0")/lib.sh"
require_qemu
vm_boot

for c in "tactile-fwd fwd-k" "tactile-acl fw" "tactile-router rt" "tactile-ratelimit rl" \
	"tactile-impair loss"; do
	set -- $c
	agent configure "chains/$1.yaml" "$2" 1 $WEST_PEER $EAST_PEER >/dev/null || fail "$1/$2: configure failed"
	agent start >/dev/null || fail "$1/$2: start failed"
	[ "$(agent status | head -n 1)" = "state running" ] || fail "$1/$2: not running"
	agent stop >/dev/null || fail "$1/$2: stop failed"
	echo "$1/$2: loaded, attached, detached"
done

agent configure chains/tactile-multi.yaml fw 1 $WEST_PEER $EAST_PEER 2>"$TMP/err" && fail "a shared node was accepted"
grep -q 'fw: shares node edge with other VNFs; a VM runs one VNF' "$TMP/err" || fail "shared node: $(cat "$TMP/err")"
agent shutdown >/dev/null
vm_wait_exit 60 || fail "qemu did not exit after shutdown"
echo ok
