# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The chain's monitor run by its supervisor: `up --monitor` gets one
# (the supervisor's child, output in CHAIN.d/monitor.log) that serves
# /metrics and shows in `calvin status`; a second `calvin monitor CHAIN`
# is refused in one line and leaves the first alone; SIGKILL of the
# monitor brings it back (monitor-exited, monitor-restarted); `up --monitor`
# of a running chain without one starts one; down leaves no monitor.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/sup_lib.sh"
require_root
command -v curl >/dev/null || skip "curl is not installed"
require_netns_xdp
C=t-monsup
RUN=${CALVIN_RUN_DIR:-/run/calvin}
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
trap 'cleanup_chain $C; rm -rf "$TMP"' EXIT
PORT=$(free_listen_port) || fail "no free port for the monitor"
printf 'monitor:\n  rate: 20\n  window: 1s\n  listen: 127.0.0.1:%s\n' "$PORT" >>"$SPEC"
# the same chain without its monitor section: `up --monitor` asks for one
sed '/^monitor:/,$d' "$SPEC" >"$TMP/plain.yaml"

mon_pid() { pgrep -f "calvin monitor $C\$"; }
serving() { curl -sf "http://127.0.0.1:$PORT/metrics" | grep -q "^calvin_monitor_windows_total{chain=\"$C\"}"; }

# 1. up without a monitor: none runs; up --monitor of the running chain: the supervisor starts one
# (listen comes from the chain file, so the plain one serves the default port: only check it runs)
$CALVIN up "$TMP/plain.yaml" >"$TMP/up" 2>&1 || fail "up: $(cat "$TMP/up")"
SUP=$(sup_pid $C)
[ -n "$SUP" ] || fail "no supervisor after up"
[ -z "$(mon_pid)" ] || fail "a monitor runs that nobody asked for"
$CALVIN up --monitor "$TMP/plain.yaml" >"$TMP/up" 2>&1 || fail "up --monitor: $(cat "$TMP/up")"
has_mon() { [ -n "$(mon_pid)" ]; }
wait_until "the supervisor starts the monitor up --monitor asked for" has_mon
[ "$(ps -o ppid= -p "$(mon_pid)" | tr -d ' ')" = "$SUP" ] || fail "the monitor is not the supervisor's child"
$CALVIN down $C >/dev/null 2>&1 || fail "down failed"
assert_clean $C

# 2. a monitor section: the supervisor's monitor serves /metrics
$CALVIN up "$SPEC" >"$TMP/up" 2>&1 || fail "up: $(cat "$TMP/up")"
SUP=$(sup_pid $C)
wait_until "the monitor serves /metrics on 127.0.0.1:$PORT" serving
MON=$(mon_pid)
[ "$(ps -o ppid= -p "$MON" | tr -d ' ')" = "$SUP" ] || fail "the monitor is not the supervisor's child"
[ "$(readlink /proc/$MON/fd/0)" = /dev/null ] || fail "the monitor's stdin is not /dev/null"
[ "$(readlink /proc/$MON/fd/2)" = "$RUN/$C.d/monitor.log" ] || fail "the monitor's stderr is not monitor.log"
grep -q "^calvin monitor: chain $C: 20 probes/s in 1 s windows" "$RUN/$C.d/monitor.log" ||
	fail "monitor.log: $(cat "$RUN/$C.d/monitor.log")"
windows() { $CALVIN status $C | grep -Eq "^  monitor pid $MON: metrics on http://127.0.0.1:$PORT/metrics, [1-9][0-9]* windows of 1 s, [0-9]+ breaches"; }
wait_until "status shows the monitor and its windows" windows
# the supervisor's health, from the real supervisor's report
sup_up() { curl -sf "http://127.0.0.1:$PORT/metrics" | grep -qx "calvin_supervisor_up{chain=\"$C\"} 1"; }
wait_until "the monitor exports calvin_supervisor_up 1" sup_up
[ "$($CALVIN -j status $C | json_get 0.monitor.pid)" = "$MON" ] || fail "status -j: no monitor member with its pid: $($CALVIN -j status $C)"

# 3. one monitor per chain: a second is refused in one line, the first goes on
$CALVIN monitor $C --listen 127.0.0.1:0 >"$TMP/out" 2>"$TMP/err" && fail "a second monitor of $C ran"
[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "chain '$C' has a monitor already" "$TMP/err" ||
	fail "the second monitor said: $(cat "$TMP/err")"
[ "$(mon_pid)" = "$MON" ] || fail "the first monitor is gone after a second was refused"
grep -q "\"pid\":$MON," "$RUN/$C.d/monitor.json" || fail "monitor.json is not the first monitor's: $(cat "$RUN/$C.d/monitor.json")"

# 4. SIGKILL of the monitor: the supervisor brings it back
kill -KILL "$MON"
back() { local p; p=$(mon_pid); [ -n "$p" ] && [ "$p" != "$MON" ] && serving; }
wait_until "the monitor is back and serving" back
grep '"kind":"monitor-exited"' "$RUN/$C.d/events.jsonl" | grep -q '"cause":"signal 9"' ||
	fail "no monitor-exited event with its cause: $(cat "$RUN/$C.d/events.jsonl")"
[ "$(events_of $C monitor-restarted)" = 1 ] || fail "monitor-restarted: $(cat "$RUN/$C.d/events.jsonl")"
[ "$(json_get monitor.restarts <"$RUN/$C.d/supervisor.json")" = 1 ] || fail "supervisor.json: $(cat "$RUN/$C.d/supervisor.json")"

# 5. down: no monitor left, nothing serves
NEW=$(mon_pid)
$CALVIN down $C >/dev/null 2>&1 || fail "down failed"
! alive "$NEW" || fail "the monitor $NEW outlived down"
assert_clean $C
curl -sf "http://127.0.0.1:$PORT/metrics" >/dev/null && fail "/metrics still served after down"
echo ok
