# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# calvin-vnf's PMD settings, the knobs bench/testpmd.sh turns (--ring,
# --busy-budget): out-of-range values are refused with one line that names
# the option; with testpmd's settings (rings of 2048, busy_budget 64) the
# reference chain's fwd-u still runs af_xdp on both ports with its records
# opened by the hand-over program, every probe comes back with all its hop
# records, and sockperf runs through both ways (pmd.sh).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pmd.sh"
C=t-pmd-set
VNF=build/calvin-vnf
[ -x $VNF ] || fail "$VNF missing: run make first"

# refused before anything starts: exit 1 (calvin-vnf's usage errors), one
# line naming the option
for bad in "--ring 100" "--ring 32" "--ring 8192" "--busy-budget 5000" "--busy-budget -1"; do
	set -- $bad
	out=$($VNF --chain x --name y --vnf-id 1 --lcore 0 --west lo --probe-port 1 "$@" 2>&1)
	rc=$?
	[ $rc -ne 0 ] || fail "calvin-vnf took $bad"
	first=$(echo "$out" | head -n 1)
	case "$first" in
	"calvin-vnf: $1 '$2': expected"*) ;;
	*) fail "calvin-vnf $bad said '$first', want one line naming $1" ;;
	esac
done
echo "bad --ring and --busy-budget values refused, each with one line"

pmd_test_begin $C
# calvin runs the calvin-vnf beside itself: a wrapper there adds the settings
mkdir -p "$TMP/lib"
ln -s "$PWD/build/kernel" "$TMP/lib/kernel"
cp build/calvin "$TMP/lib/calvin"
printf '#!/bin/sh\necho "$*" >%s/vnf-args\nexec %s "$@" --ring 2048 --busy-budget 64 --mem-mb 256\n' \
	"$TMP" "$PWD/$VNF" >"$TMP/lib/calvin-vnf"
chmod +x "$TMP/lib/calvin-vnf"
CALVIN=$TMP/lib/calvin
pmd_chain_test $C af_xdp af_xdp
grep -q -- "--chain $C " "$TMP/vnf-args" || fail "fwd-u did not run through the wrapper"
echo "fwd-u ran with --ring 2048 --busy-budget 64"
echo ok
