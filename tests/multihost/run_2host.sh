#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# `make run-multihost`: simulated hosts a and b (sim.sh), the two-host
# chain chains/tactile-2host.yaml up on them, its report, then all of it
# removed. Host a's Open vSwitch stands for this host's (the simulation's
# root namespace runs none): CALVIN_OVS_DB and CALVIN_OVS_NETNS point at
# it. Root, under the machine lock:
#   flock /tmp/calvin-net.lock make run-multihost [COUNT=N]
set -u
cd "$(dirname "$0")/../.." || exit 1
SIM="bash tests/multihost/sim.sh"
SIM_DIR=${CALVIN_SIM_DIR:-/run/calvin-sim}
CALVIN=build/calvin
C=tactile-2host
COUNT=${COUNT:-1000}
[ "$(id -u)" = 0 ] || { echo "run_2host: needs root (namespaces, Open vSwitch, libvirtd)" >&2; exit 2; }
make -C vm-images >/dev/null || { echo "run_2host: cannot build the guest image (make vm-image)" >&2; exit 2; }
trap '$CALVIN down $C; $SIM down >/dev/null' EXIT
$SIM up 2 >/dev/null || { echo "run_2host: sim.sh up 2 failed" >&2; exit 1; }
. "$SIM_DIR/env"
export CALVIN_OVS_DB=unix:$SIM_DIR/a/root/run/openvswitch/db.sock CALVIN_OVS_NETNS=$CALVIN_SIM_NETNS_a
$CALVIN up chains/tactile-2host.yaml || exit 1
$CALVIN probe -c "$COUNT" -r 100 $C
