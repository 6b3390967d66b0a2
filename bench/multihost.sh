#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The two-host chain against the same chain on one host, alternating
# round by round: chains/tactile-2host.yaml (fwd-k in a VM on simulated
# host a, fwd-u and the server in VMs on host b, links touching a VM OVN
# logical switches over Geneve, OVS's userspace datapath), the same with
# fwd-k a VM of this host (the issue's layout: probe and fwd-k on one
# host, fwd-u and the server on the other; fwd-k's tap reaches host a's
# Open vSwitch, this host's stand-in, through a veth) and
# chains/tactile-fwd-vm.yaml (the same VNFs, both VMs on this host,
# calvin's XDP links, the server a namespace here). Each round
# deploys a chain, probes it and takes it down. Prints the RTT and the
# per-hop and per-link medians and p99s, pooled over rounds (links across
# clock domains are estimates, with the largest bound of the rounds).
# Under TCG and OVS's userspace datapath here: emulated and software
# figures, not those of hardware. Root, the guest image, the lock:
#   flock /tmp/calvin-net.lock bash bench/multihost.sh
set -u
cd "$(dirname "$0")/.." || exit 1
B=$PWD/build
ROUNDS=${BENCH_ROUNDS:-3}
COUNT=${BENCH_PROBES:-400}
RATE=${BENCH_RATE:-100}
SIM="bash tests/multihost/sim.sh"
SIM_DIR=${CALVIN_SIM_DIR:-/run/calvin-sim}
. bench/lib.sh
bench_live_init multihost.sh bench-multihost
[ -f "$B/vm-images/cloud/initramfs.img" ] || { echo "bench/multihost.sh: no guest image; run make vm-image" >&2; exit 2; }
trap 'bench_live_cleanup; $SIM down >/dev/null 2>&1' EXIT
$SIM up 2 >/dev/null || { echo "bench/multihost.sh: sim.sh up 2 failed" >&2; exit 1; }
. "$SIM_DIR/env"
export CALVIN_OVS_DB=unix:$SIM_DIR/a/root/run/openvswitch/db.sock CALVIN_OVS_NETNS=$CALVIN_SIM_NETNS_a
bench_spec chains/tactile-2host.yaml bmh-2host
sed '/^    host: a$/d' chains/tactile-2host.yaml >"$TMP/local-fwd-k.yaml"
bench_spec "$TMP/local-fwd-k.yaml" bmh-local
bench_spec chains/tactile-fwd-vm.yaml bmh-1host
CONFIGS="bmh-2host bmh-local bmh-1host"
for r in $(seq "$ROUNDS"); do
	for c in $CONFIGS; do
		$B/calvin up "$TMP/$c.yaml" >/dev/null || { bench_failed "$c" "up failed in round $r"; continue; }
		$B/calvin -j probe -c "$COUNT" -r "$RATE" "$c" >"$TMP/$c.$r.json" ||
			bench_failed "$c" "probe failed in round $r"
		$B/calvin down "$c" >/dev/null || bench_failed "$c" "down failed in round $r"
	done
done
python3 - "$TMP" "$ROUNDS" <<'PY'
import json, sys, statistics as st
tmp, rounds = sys.argv[1], int(sys.argv[2])
def load(c):
    out = []
    for r in range(1, rounds + 1):
        try:
            out.append(json.load(open(f"{tmp}/{c}.{r}.json")))
        except (OSError, ValueError):
            pass
    return out
def us(ns): return f"{ns / 1000:.1f}"
CONFIGS = ("bmh-2host", "bmh-local", "bmh-1host")
runs = {c: load(c) for c in CONFIGS}
print(f"rounds: {rounds} alternating, {' / '.join(str(len(runs[c])) for c in CONFIGS)} measured; TCG VMs, OVS userspace datapath (Geneve) between simulated hosts")
print("| figure | two hosts p50 / p99 (us) | two hosts, fwd-k here p50 / p99 (us) | one host p50 / p99 (us) |")
print("|---|---:|---:|---:|")
def row(label, get):
    cells = []
    for c in CONFIGS:
        v = [get(j) for j in runs[c]]
        v = [x for x in v if x]
        cells.append(" / ".join(us(st.median(x[k] for x in v)) for k in ("p50", "p99")) if v else "-")
    print(f"| {label} | {' | '.join(cells)} |")
row("RTT", lambda j: j["rtt_ns"])
for h in runs["bmh-2host"][0]["hops"] if runs["bmh-2host"] else []:
    row(f"{h['name']} ({h['space']}) {'->' if h['dir'] == 'fwd' else '<-'}",
        lambda j, p=h["position"]: next((x["residence_ns"] for x in j["hops"] if x["position"] == p), None))
for i, l in enumerate(runs["bmh-2host"][0]["links"] if runs["bmh-2host"] else []):
    b = [[j["links"][i].get("bound_ns", 0) for j in runs[c] if i < len(j["links"])] or [0] for c in CONFIGS]
    lab = l["label"] + (" (estimated, bound +-" + " / +-".join(us(max(x)) for x in b) + ")" if l.get("estimated") else "")
    row(lab, lambda j, i=i: j["links"][i]["ns"] if i < len(j["links"]) and j["links"][i].get("valid") else None)
for c in runs:
    lost = sum(j["counts"]["sent"] - j["counts"]["received"] for j in runs[c])
    print(f"{c}: lost {lost} of {sum(j['counts']['sent'] for j in runs[c])}")
PY
