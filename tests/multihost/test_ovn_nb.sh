#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Links between hosts in the OVN northbound database, as calvin makes and
# removes them (userspace/calvin/ovn/, through build/tests/tools/ovnlink
# until `calvin up` deploys chains across hosts), against a database of the
# test's own (ovsdb-server with OVN's NB schema on a unix socket in $TMP:
# no namespace, no network): the switch and its two UUID-named ports,
# tagged and journalled first; the wait for binding ends at its deadline
# naming the port; `calvin down` removes them; SIGKILL after each journal
# entry, then down, leaves nothing; a switch of that name calvin did not
# make stays; with the database not answering, down says what is left and
# where in one line, keeps the journal, and a later down finishes.
. "$(dirname "$0")/lib.sh"
OVN=build/tests/tools/ovnlink
CALVIN=build/calvin
[ "$(id -u)" = 0 ] || skip "needs root (calvin's state directory)"
for c in ovsdb-server:openvswitch-switch ovsdb-tool:openvswitch-common ovn-nbctl:ovn-common; do
	command -v "${c%%:*}" >/dev/null || skip "${c%%:*} is not installed (make deps installs ${c#*:})"
done
[ -f /usr/share/ovn/ovn-nb.ovsschema ] || skip "no OVN northbound schema (ovn-common)"
[ -x $OVN ] && [ -x $CALVIN ] || skip "calvin and its test tools are not built (run make)"
trap '[ -f "$TMP/pid" ] && kill -CONT "$(cat "$TMP/pid")" 2>/dev/null && kill "$(cat "$TMP/pid")"; rm -rf "$TMP"' EXIT
ovsdb-tool create "$TMP/nb.db" /usr/share/ovn/ovn-nb.ovsschema || fail "ovsdb-tool create"
ovsdb-server --remote=punix:"$TMP/nb.sock" --pidfile="$TMP/pid" --unixctl="$TMP/ctl" \
	--detach --no-chdir --log-file="$TMP/nb.log" "$TMP/nb.db" || fail "ovsdb-server did not start"
NB=unix:$TMP/nb.sock
nbctl() { ovn-nbctl --db="$NB" --timeout=5 "$@"; }
export CALVIN_RUN_DIR=$TMP/run
C=t-ovn
LS=calvin-$C-l1
nb_clean() { # WHAT
	[ -z "$(nbctl --bare --columns=name find Logical_Switch external_ids:calvin-chain=$C)" ] &&
		[ -z "$(nbctl --bare --columns=name find Logical_Switch_Port external_ids:calvin-chain=$C)" ] ||
		fail "$1: left in the database: $(nbctl show)"
	[ ! -e "$CALVIN_RUN_DIR/$C.state" ] || fail "$1: the journal is left"
}

# --- made, tagged, journalled first; the wait has a deadline ------------------
$OVN up $C l1 "$NB" >"$TMP/ports" 2>"$TMP/err" || fail "ovnlink up: $(cat "$TMP/err")"
P1=$(sed -n 1p "$TMP/ports") P2=$(sed -n 2p "$TMP/ports")
for p in $P1 $P2; do
	[[ $p =~ ^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$ ]] || fail "port name $p is no UUID"
	[ "$(nbctl lsp-get-addresses $p)" = unknown ] || fail "$p: addresses $(nbctl lsp-get-addresses $p)"
	[ -z "$(nbctl lsp-get-port-security $p)" ] || fail "$p has port security"
	[ "$(nbctl get Logical_Switch_Port $p external_ids:calvin-chain)" = $C ] || fail "$p is not tagged"
	nbctl lsp-get-ls $p | grep -q "($LS)" || fail "$p is not on $LS"
done
[ "$(nbctl get Logical_Switch $LS external_ids:calvin-chain)" = $C ] || fail "$LS is not tagged"
printf 'backend netns\novnls %s %s\novnlsp %s %s\novnlsp %s %s\n' $LS "$NB" $P1 "$NB" $P2 "$NB" |
	cmp -s - "$CALVIN_RUN_DIR/$C.state" || fail "the journal: $(cat "$CALVIN_RUN_DIR/$C.state")"
t0=$(now_ms)
$OVN wait "$NB" 300 $P1 $P2 2>"$TMP/err" && fail "an unbound port counted as up"
took=$(($(now_ms) - t0))
[ $took -lt 3000 ] || fail "the 300 ms wait took $took ms"
grep -q "port $P1 is not bound to its chassis after 300 ms" "$TMP/err" || fail "wait said: $(cat "$TMP/err")"
$CALVIN down $C 2>"$TMP/err" || fail "down: $(cat "$TMP/err")"
nb_clean "down"
$CALVIN down $C || fail "a second down failed"
echo "ok: a link made, tagged and journalled; the wait ended at its deadline ($took ms); down removed it"

# --- SIGKILL after each journal entry, then down -------------------------------
# 1: backend, 2: the switch (journalled, maybe not made), 3, 4: its ports
for n in 1 2 3 4; do
	CALVIN_CRASH_AFTER=$n bash -c '"$@" >/dev/null 2>&1; exit $?' _ $OVN up $C l1 "$NB" 2>/dev/null
	rc=$?
	[ $rc -eq 137 ] || fail "ovnlink up with CALVIN_CRASH_AFTER=$n exited $rc, not killed"
	[ "$(wc -l <"$CALVIN_RUN_DIR/$C.state")" -eq $n ] || fail "crash after $n: $(cat "$CALVIN_RUN_DIR/$C.state")"
	$CALVIN down $C 2>"$TMP/err" || fail "down after a crash after entry $n: $(cat "$TMP/err")"
	nb_clean "crash after entry $n, then down"
done
echo "ok: down after a SIGKILL at each of the 4 journal entries left nothing"

# --- the attack: a switch of that name calvin did not make ---------------------
nbctl ls-add $LS -- set Logical_Switch $LS external_ids:owner=someone-else
$OVN up $C l1 "$NB" >/dev/null 2>"$TMP/err" && fail "up took over another's switch"
grep -q "cannot add logical switch $LS: .*already exists" "$TMP/err" || fail "up said: $(cat "$TMP/err")"
$CALVIN down $C 2>"$TMP/err" || fail "down: $(cat "$TMP/err")"
[ "$(nbctl get Logical_Switch $LS external_ids:owner)" = someone-else ] ||
	fail "down removed a switch calvin did not make"
# and one that another chain made, with that chain's tag
nbctl set Logical_Switch $LS external_ids:calvin-chain=other
printf 'backend netns\novnls %s %s\n' $LS "$NB" >"$CALVIN_RUN_DIR/$C.state"
$CALVIN down $C 2>"$TMP/err" || fail "down: $(cat "$TMP/err")"
nbctl get Logical_Switch $LS name >/dev/null || fail "down removed another chain's switch"
nbctl ls-del $LS
echo "ok: switches of that name calvin did not make for this chain stay"

# a journal entry whose database the parser would refuse is never used
printf 'backend netns\novnls %s %s\n' $LS "ptcp:6641" >"$CALVIN_RUN_DIR/$C.state"
$CALVIN down $C 2>"$TMP/err" && fail "down used a database the parser refuses"
grep -q "OVN northbound ptcp:6641: not a database calvin takes, refused; left there: logical switch $LS" "$TMP/err" ||
	fail "down said: $(cat "$TMP/err")"
rm "$CALVIN_RUN_DIR/$C.state"
echo "ok: a journalled database the parser refuses is not used"

# --- the database does not answer: down says what is left ---------------------
$OVN up $C l1 "$NB" >"$TMP/ports" 2>"$TMP/err" || fail "ovnlink up: $(cat "$TMP/err")"
kill -STOP "$(cat "$TMP/pid")"
t0=$(now_ms)
$CALVIN down $C 2>"$TMP/err"
rc=$?
took=$(($(now_ms) - t0))
kill -CONT "$(cat "$TMP/pid")"
[ $rc -eq 1 ] || fail "down with the database not answering exited $rc"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "down said $(wc -l <"$TMP/err") lines: $(cat "$TMP/err")"
grep -q "OVN northbound $NB: no answer within 5 s; left there: port $(sed -n 2p "$TMP/ports"), port $(sed -n 1p "$TMP/ports"), logical switch $LS; run 'calvin down $C' again when it answers" "$TMP/err" ||
	fail "down said: $(cat "$TMP/err")"
[ -e "$CALVIN_RUN_DIR/$C.state" ] || fail "down dropped the journal of what it could not remove"
echo "ok ($took ms): $(cat "$TMP/err")"
$CALVIN down $C 2>"$TMP/err" || fail "the second down: $(cat "$TMP/err")"
nb_clean "a later down"
echo "ok: a later down finished"
echo PASS
