# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# calvin monitor against the real Prometheus server: it scrapes /metrics
# every second, and histogram_quantile(0.99) over the RTT buckets at a
# moment when exactly one window was exported agrees with calvin's own p99
# of that window within one bucket's width (plus the 0.4% calvin's
# histogram may move a value). The Grafana dashboard in doc/ is JSON and
# names only metrics the endpoint exports; the supervisor's health is read
# from supervisor.json (absent: calvin_supervisor_up 0). The chain is up
# --no-supervise: the monitor is this one, run by hand.
. "$(dirname "$0")/lib.sh"
require_root
command -v prometheus >/dev/null || skip "prometheus is not installed (Debian package prometheus)"
command -v jq >/dev/null || skip "jq is not installed"
require_netns_xdp
C=t-monprom
SPEC=$(spec_copy chains/tactile-fwd.yaml $C)
RUN=${CALVIN_RUN_DIR:-/run/calvin}
MON=
PROM=
stop() { # PID
	[ -n "$1" ] && kill "$1" 2>/dev/null && wait "$1" 2>/dev/null
	true
}
trap 'stop "$MON"; stop "$PROM"; cleanup_chain $C; rm -rf "$TMP"' EXIT

# unsupervised: the monitor here is run by hand, and the supervisor's
# health it exports is read from a supervisor.json the test writes
# (test_monitor_supervised.sh reads a real supervisor's)
$CALVIN up --no-supervise "$SPEC" >"$TMP/up" 2>&1 || fail "up: $(cat "$TMP/up")"

# Prometheus first, ready and scraping, so it sees the endpoint from the
# monitor's first window on
MPORT=$(free_listen_port) || fail "no free port for the monitor"
PPORT=$MPORT
while [ "$PPORT" = "$MPORT" ]; do
	PPORT=$(free_listen_port) || fail "no free port for Prometheus"
done
mkdir -p "$TMP/prom"
cat >"$TMP/prom/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: calvin
    static_configs:
      - targets: ['127.0.0.1:$MPORT']
EOF
prometheus --config.file="$TMP/prom/prometheus.yml" --storage.tsdb.path="$TMP/prom/data" \
	--web.listen-address="127.0.0.1:$PPORT" >"$TMP/prom/log" 2>&1 &
PROM=$!
API=http://127.0.0.1:$PPORT/api/v1
WAIT_DEADLINE=60 wait_until "Prometheus is ready" curl -sf "http://127.0.0.1:$PPORT/-/ready"

# 200 probes/s in 4 s windows: 800 RTTs make a p99
$CALVIN -j monitor $C --rate 200 --window 4 --listen 127.0.0.1:$MPORT >"$TMP/windows" 2>"$TMP/err" &
MON=$!
# this monitor's (a supervisor may run one of its own)
# (or it ended: said below with its words)
mine() {
	! kill -0 $MON 2>/dev/null ||
		jq -e --argjson p $MON --argjson port $MPORT '.pid == $p and .port == $port' \
			"$RUN/$C.d/monitor.json"
}
wait_until "the monitor listens" mine
kill -0 $MON 2>/dev/null || fail "the monitor ended: $(cat "$TMP/err")"
METRICS=http://127.0.0.1:$MPORT/metrics
curl -sf "$METRICS" >"$TMP/metrics" || fail "GET /metrics failed"
curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$MPORT/other" | grep -q 404 ||
	fail "a path other than /metrics is not 404"
curl -s -o /dev/null -w '%{http_code}' -X POST "$METRICS" | grep -q 405 || fail "POST is not 405"

query() { # EXPR [TIME]
	curl -sf -G "$API/query" --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"}
}
windows_seen() { # N: Prometheus has scraped N windows or more
	query "calvin_monitor_windows_total{chain=\"$C\"} >= $1" | jq -e '.data.result | length > 0'
}
WAIT_DEADLINE=60 wait_until "Prometheus scrapes 2 windows" windows_seen 2

# the moment (a scrape) when the endpoint had exported exactly window 1
END=$(date +%s)
curl -sf -G "$API/query_range" --data-urlencode "query=calvin_monitor_windows_total{chain=\"$C\"}" \
	--data-urlencode "start=$((END - 120))" --data-urlencode "end=$END" --data-urlencode step=0.5 \
	>"$TMP/range"
T=$(jq -r '[.data.result[0].values[] | select(.[1] == "1")][0][0] // empty' "$TMP/range")
[ -n "$T" ] || fail "Prometheus never saw the endpoint with exactly one window: $(head -c 400 "$TMP/range")"
PROM_P99=$(query "histogram_quantile(0.99, calvin_rtt_seconds_bucket{chain=\"$C\"})" "$T" |
	jq -r '.data.result[0].value[1]')
OWN_P99=$(head -1 "$TMP/windows" | jq -r '.rtt_p99_ns')
[ "$(head -1 "$TMP/windows" | jq -r .window)" = 1 ] || fail "the first line is not window 1"
# the bucket of calvin's p99: its le and the one before, from the endpoint
curl -sf "$METRICS" >"$TMP/metrics"
python3 - "$TMP/metrics" "$C" "$OWN_P99" "$PROM_P99" <<'EOF' || fail "p99 of window 1 disagrees"
import re, sys
text, chain, own, prom = open(sys.argv[1]).read(), sys.argv[2], int(sys.argv[3]) / 1e9, float(sys.argv[4])
les = sorted(float(m) for m in re.findall(
    r'^calvin_rtt_seconds_bucket\{chain="%s",le="([^"+]+)"\}' % chain, text, re.M))
up = [le for le in les if le >= own]
hi = up[0] if up else les[-1]
lo = max([le for le in les if le < hi], default=0.0)
width = hi - lo
print(f"window 1: calvin p99 {own * 1e6:.2f}us, Prometheus {prom * 1e6:.2f}us, "
      f"bucket ({lo * 1e6:.1f}, {hi * 1e6:.1f}]us")
sys.exit(0 if abs(prom - own) <= width + 0.004 * own else 1)
EOF

# the dashboard: JSON, and every metric it names is one the endpoint serves
curl -sf "$METRICS" | grep -qx "calvin_supervisor_up{chain=\"$C\"} 0" ||
	fail "no supervisor.json, but calvin_supervisor_up is not 0"
# the supervisor's file, as sup writes it (shape in monitor/supervisor.c)
cat >"$RUN/$C.d/supervisor.json.tmp" <<EOF
{"pid": $$, "started": "$(date -u +%FT%TZ)", "heartbeat": "$(date -u +%FT%T.%NZ)",
 "vnfs": [{"name": "fwd-u", "state": "running", "restarts": 3, "last_exit": "signal 9",
 "uptime_s": 12.5, "pid": $$}]}
EOF
mv "$RUN/$C.d/supervisor.json.tmp" "$RUN/$C.d/supervisor.json"
sup_read() { curl -sf "$METRICS" | grep -qx "calvin_vnf_restarts_total{chain=\"$C\",vnf=\"fwd-u\"} 3"; }
wait_until "the monitor reads supervisor.json" sup_read
curl -sf "$METRICS" | grep -qx "calvin_supervisor_up{chain=\"$C\"} 1" ||
	fail "a fresh heartbeat of a live pid is not calvin_supervisor_up 1"
curl -sf "$METRICS" | grep -qx "calvin_vnf_state{chain=\"$C\",vnf=\"fwd-u\",state=\"running\"} 1" ||
	fail "the VNF's state is not exported"
curl -sf "$METRICS" >"$TMP/metrics"
python3 - doc/grafana-calvin.json "$TMP/metrics" <<'EOF' || fail "the dashboard names a metric the endpoint does not export"
import json, re, sys
dash = json.load(open(sys.argv[1]))
exported = set(re.findall(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{| )', open(sys.argv[2]).read(), re.M))
exprs = [t["expr"] for p in dash["panels"] for t in p["targets"]]
exprs += [v.get("query", "") for v in dash["templating"]["list"] if v["type"] == "query"]
named = set(n for e in exprs for n in re.findall(r'\b(calvin_[a-z0-9_]+)', e))
missing = sorted(named - exported)
print("dashboard names", len(named), "metrics;", "missing:", missing or "none")
sys.exit(1 if missing or not named else 0)
EOF
# the VNFs' counters: the kernel VNF's per direction, the user VNF's per port
grep -q "^calvin_vnf_rx_packets_total{chain=\"$C\",vnf=\"fwd-k\",tier=\"kernel\",direction=\"fwd\"} [1-9]" \
	"$TMP/metrics" || fail "no rx counter of the kernel VNF"
grep -q "^calvin_vnf_rx_packets_total{chain=\"$C\",vnf=\"fwd-u\",tier=\"user\",port=\"west\"} [1-9]" \
	"$TMP/metrics" || fail "no rx counter of the user VNF"
grep -q "^calvin_hop_residence_seconds_count{chain=\"$C\",hop=\"fwd-u\",direction=\"rev\",tier=\"user\"} [1-9]" \
	"$TMP/metrics" || fail "no residence histogram of fwd-u"

# SIGTERM ends it cleanly: exit 0, its state file gone
kill -TERM $MON
wait $MON
rc=$?
MON=
[ $rc = 0 ] || fail "the monitor exited $rc on SIGTERM: $(cat "$TMP/err")"
[ ! -e "$RUN/$C.d/monitor.json" ] || fail "monitor.json left behind"
# a port a client connection has just used (its TIME_WAIT holds it for a
# minute): refused in one line that says to take one below the range
TW=$(python3 - <<'EOF'
import socket
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
cli = socket.create_connection(srv.getsockname())
port = cli.getsockname()[1]
acc, _ = srv.accept()
cli.close()  # the client closes first: TIME_WAIT is on its port
acc.recv(1)
acc.close()
print(port)
EOF
) || fail "no TIME_WAIT port"
$CALVIN monitor $C --listen 127.0.0.1:$TW >/dev/null 2>"$TMP/err" && fail "a monitor listened on port $TW a TIME_WAIT holds"
[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "cannot listen for Prometheus on port $TW: Address already in use.*below net.ipv4.ip_local_port_range" "$TMP/err" ||
	fail "a port held by a TIME_WAIT is not said so in one line: $(cat "$TMP/err")"
[ ! -e "$RUN/$C.d/monitor.json" ] || fail "a refused monitor left monitor.json"
# up --monitor on the running chain: unchanged, the wish recorded, and a
# supervisor attached (up without --no-supervise) to run the monitor
$CALVIN up --monitor "$SPEC" >"$TMP/up" 2>&1 || fail "up --monitor: $(cat "$TMP/up")"
[ -e "$RUN/$C.d/monitor-wanted" ] || fail "up --monitor left no monitor-wanted"
grep -q "a new supervisor watches it" "$TMP/up" || fail "up --monitor attached no supervisor: $(cat "$TMP/up")"
$CALVIN down $C >/dev/null 2>&1 || fail "down failed"
assert_clean $C
echo ok
