# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# calvin-supervise@.service as `make install` installs it passes
# `systemd-analyze verify` (its ExecStart names the installed calvin), and
# a broken unit does not: the check can fail.
. "$(dirname "$0")/lib.sh"
command -v systemd-analyze >/dev/null || skip "systemd-analyze is not installed"
trap 'rm -rf "$TMP"' EXIT
PREFIX=$TMP/prefix
# installed for real under a prefix of its own: verify checks that
# ExecStart's program exists
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install PREFIX="$PREFIX" \
	>"$TMP/make.log" 2>&1 || fail "make install failed: $(tail -n 5 "$TMP/make.log")"
UNIT=$PREFIX/lib/systemd/system/calvin-supervise@.service
[ -f "$UNIT" ] || fail "make install did not install calvin-supervise@.service"
grep -qx "ExecStart=$PREFIX/sbin/calvin supervise %i" "$UNIT" || fail "ExecStart: $(grep ExecStart "$UNIT")"
# verify an instance (its man page is not in man's path: not checked)
mkdir -p "$TMP/units"
cp "$UNIT" "$TMP/units/calvin-supervise@t-unit.service"
systemd-analyze verify --man=no "$TMP/units/calvin-supervise@t-unit.service" >"$TMP/v" 2>&1
rc=$?
grep -q "System has not been booted with systemd\|Failed to connect to bus" "$TMP/v" && [ $rc -ne 0 ] &&
	skip "systemd-analyze verify needs systemd running here: $(head -n 1 "$TMP/v")"
[ $rc -eq 0 ] || fail "systemd-analyze verify: $(cat "$TMP/v")"
sed 's/^ExecStart=.*/ExecStart=calvin-nowhere supervise %i/; s/^Restart=on-failure/Restart=sometimes/' \
	"$UNIT" >"$TMP/units/calvin-supervise@t-bad.service"
systemd-analyze verify --man=no "$TMP/units/calvin-supervise@t-bad.service" >"$TMP/v" 2>&1 &&
	! grep -q . "$TMP/v" && fail "systemd-analyze verify passed a broken unit"
echo "verified: $(basename "$UNIT")"
echo ok
