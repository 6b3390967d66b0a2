#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Simulated edge hosts on one machine, for calvin's multi-host tests: each
# host a network, mount and UTS namespace with its own libvirtd (TCP, no
# auth: test only), Open vSwitch (userspace datapath) and ovn-controller;
# OVN central in a namespace of its own; an underlay bridge between them.
#
#   sim.sh up N              N hosts (a, b, ...) and central; a no-op if up
#   sim.sh down              removes all, also after a crash or a half up
#   sim.sh status            what runs; exit 0 all up, 1 something down, 3 not up
#   sim.sh exec HOST -- CMD  CMD in HOST's namespaces (central too)
#   sim.sh libvirtd HOST stop|start
#
# Run it under the machine lock (flock /tmp/calvin-net.lock ...). What it
# makes is recorded in $SIM_DIR/journal before it is made; processes are
# recorded by PID and start time once they run, and down also ends every
# process left inside the simulation's namespaces (the window between a
# start and its record). See tests/multihost/README.md.
set -u
SIM_DIR=${CALVIN_SIM_DIR:-/run/calvin-sim}
NET=${CALVIN_SIM_NET:-10.99.0} # a /24: .1 the root namespace, .2 central, .11.. hosts
MTU=${CALVIN_SIM_MTU:-1500}    # the underlay's
NS=csim                        # prefix of the network namespaces
ROOT_IF=csim0                  # the root namespace's leg on the underlay
CENTRAL=central
JOURNAL=$SIM_DIR/journal
# What a host keeps for itself; /run last, as it hides $SIM_DIR.
PRIVATE_DIRS="/etc/libvirt /var/lib/libvirt /var/log/libvirt /var/cache/libvirt
	/etc/openvswitch /var/lib/openvswitch /var/log/openvswitch /etc/ovn /var/lib/ovn /var/log/ovn"
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/sim_lib.sh"
# down removes $SIM_DIR whole: never a folder that is not the simulation's
[[ $SIM_DIR =~ ^/[A-Za-z0-9_./-]*/calvin-sim[A-Za-z0-9_.-]*$ && $SIM_DIR != *..* ]] ||
	usage_error "CALVIN_SIM_DIR=$SIM_DIR: give an absolute path whose last part starts with calvin-sim"
# The journal says what down kills and removes: only root may have written it.
umask 022
for f in "$SIM_DIR" "$JOURNAL"; do
	if [ -e "$f" ] && { [ "$(stat -c %u "$f")" != 0 ] || [ $((0$(stat -c %a "$f") & 022)) != 0 ]; }; then
		usage_error "$f is not root's alone (owner or group/other write): not trusted; remove it by hand"
	fi
done

HOSTS=(a b c d e f g h)
host_names() { echo "${HOSTS[@]:0:$1}"; } # N
host_addr() { # HOST: central .2, a .11, b .12, ...
	local i
	[ "$1" = $CENTRAL ] && { echo "$NET.2"; return; }
	for i in "${!HOSTS[@]}"; do [ "${HOSTS[$i]}" = "$1" ] && echo "$NET.$((11 + i))"; done
}

# --- the underlay ---------------------------------------------------------

underlay_up() {
	mk_netns ul || return
	try ip -n $NS.ul link add br-ul mtu "$MTU" type bridge &&
		try ip -n $NS.ul link set br-ul up || return
	journal link $ROOT_IF
	crash_point link
	try ip link add $ROOT_IF mtu "$MTU" type veth peer name ul-root mtu "$MTU" netns $NS.ul &&
		try ip -n $NS.ul link set ul-root master br-ul up &&
		try sysctl -qw net.ipv6.conf.$ROOT_IF.disable_ipv6=1 &&
		try ip addr add "$NET.1/24" dev $ROOT_IF &&
		try ip link set $ROOT_IF up &&
		try ethtool -K $ROOT_IF tx off >/dev/null &&
		try nsenter --net=/run/netns/$NS.ul ethtool -K ul-root tx off >/dev/null
}

# A namespace for HOST with its leg eth0 on the underlay; ADDR on eth0
# unless the host's Open vSwitch takes eth0 (then on br-phy).
host_netns() { # HOST [ADDR]
	local h=$1
	mk_netns "$h" || return
	try ip link add "ul-$h" netns $NS.ul mtu "$MTU" type veth peer name eth0 mtu "$MTU" netns "$NS.$h" &&
		try ip -n $NS.ul link set "ul-$h" master br-ul up &&
		try nsenter --net=/run/netns/$NS.ul ethtool -K "ul-$h" tx off >/dev/null &&
		try ip -n "$NS.$h" link set eth0 up &&
		try nsenter --net="/run/netns/$NS.$h" ethtool -K eth0 tx off >/dev/null || return
	[ $# -lt 2 ] || try ip -n "$NS.$h" addr add "$2/24" dev eth0
}

# --- OVN central ----------------------------------------------------------

central_up() {
	local a db
	a=$(host_addr $CENTRAL)
	host_netns $CENTRAL "$a" && mk_mntns $CENTRAL || return
	for db in nb sb; do
		try hx $CENTRAL ovsdb-tool create /var/lib/ovn/ovn${db}_db.db \
			/usr/share/ovn/ovn-$db.ovsschema || return
	done
	spawn $CENTRAL ovsdb-nb /run/ovn/ovnnb_db.pid ovsdb-server /var/lib/ovn/ovnnb_db.db \
		--remote=punix:/run/ovn/ovnnb_db.sock --remote="ptcp:6641:$a" \
		--pidfile=/run/ovn/ovnnb_db.pid --unixctl=/run/ovn/ovnnb_db.ctl \
		--log-file=/var/log/ovn/ovsdb-server-nb.log --detach &&
		spawn $CENTRAL ovsdb-sb /run/ovn/ovnsb_db.pid ovsdb-server /var/lib/ovn/ovnsb_db.db \
			--remote=punix:/run/ovn/ovnsb_db.sock --remote="ptcp:6642:$a" \
			--pidfile=/run/ovn/ovnsb_db.pid --unixctl=/run/ovn/ovnsb_db.ctl \
			--log-file=/var/log/ovn/ovsdb-server-sb.log --detach &&
		spawn $CENTRAL ovn-northd /run/ovn/ovn-northd.pid ovn-northd \
			--ovnnb-db=unix:/run/ovn/ovnnb_db.sock --ovnsb-db=unix:/run/ovn/ovnsb_db.sock \
			--pidfile=/run/ovn/ovn-northd.pid --log-file=/var/log/ovn/ovn-northd.log --detach
}

# --- one edge host ----------------------------------------------------------

# Open vSwitch with the userspace datapath (no openvswitch module here):
# br-phy holds the underlay leg and the host's address, since userspace
# tunnels leave through an OVS bridge; br-int is OVN's.
host_ovs() { # HOST
	local h=$1 a
	a=$(host_addr "$h")
	try hx "$h" ovsdb-tool create /etc/openvswitch/conf.db \
		/usr/share/openvswitch/vswitch.ovsschema || return
	spawn "$h" ovsdb-server /run/openvswitch/ovsdb-server.pid ovsdb-server \
		/etc/openvswitch/conf.db --remote=punix:/run/openvswitch/db.sock \
		--pidfile=/run/openvswitch/ovsdb-server.pid \
		--log-file=/var/log/openvswitch/ovsdb-server.log --detach || return
	try hx "$h" ovs-vsctl --no-wait --timeout=10 -- init -- set Open_vSwitch . \
		external_ids:system-id="$h" external_ids:hostname="$h" \
		external_ids:ovn-remote="tcp:$(host_addr $CENTRAL):6642" \
		external_ids:ovn-encap-type=geneve external_ids:ovn-encap-ip="$a" \
		external_ids:ovn-bridge=br-int external_ids:ovn-bridge-datapath-type=netdev \
		other_config:n-handler-threads=1 other_config:n-revalidator-threads=1 || return
	spawn "$h" ovs-vswitchd /run/openvswitch/ovs-vswitchd.pid ovs-vswitchd \
		--pidfile=/run/openvswitch/ovs-vswitchd.pid \
		--log-file=/var/log/openvswitch/ovs-vswitchd.log --detach || return
	try hx "$h" ovs-vsctl --timeout=30 \
		-- add-br br-phy -- set Bridge br-phy datapath_type=netdev \
		-- add-port br-phy eth0 \
		-- add-br br-int -- set Bridge br-int datapath_type=netdev fail_mode=secure \
		other_config:disable-in-band=true || return
	try hx "$h" ip addr add "$a/24" dev br-phy &&
		try hx "$h" ip link set br-phy up &&
		try hx "$h" ethtool -K br-phy tx off >/dev/null &&
		spawn "$h" ovn-controller /run/ovn/ovn-controller.pid ovn-controller \
			--pidfile=/run/ovn/ovn-controller.pid \
			--log-file=/var/log/ovn/ovn-controller.log --detach
}

# libvirtd on TCP in the host's namespace, with no authentication: a test
# fixture, never a way to run a real host. qemu runs as root without
# relabelling, so the project's guest image is used as it is, and without
# cgroups: several libvirtds on one machine would collide in them.
host_libvirt_conf() { # HOST
	local h=$1 etc=$SIM_DIR/$1/root/etc/libvirt
	# what the package ships and libvirtd expects to find
	mkdir -p "$SIM_DIR/$h/root/var/log/libvirt/qemu" "$SIM_DIR/$h/root/var/lib/libvirt/qemu" || return
	cat >"$etc/libvirtd.conf" <<-EOF
		listen_tls = 0
		listen_tcp = 1
		listen_addr = "$(host_addr "$h")"
		auth_tcp = "none"
		auth_unix_rw = "none"
		host_uuid = "$(cat /proc/sys/kernel/random/uuid)"
		log_outputs = "3:file:/var/log/libvirt/libvirtd.log"
	EOF
	cat >"$etc/qemu.conf" <<-EOF
		user = "root"
		group = "root"
		dynamic_ownership = 0
		remember_owner = 0
		security_driver = "none"
		cgroup_controllers = [ ]
	EOF
}

libvirtd_start() { # HOST
	spawn "$1" virtlogd /run/virtlogd.pid virtlogd -d -p /run/virtlogd.pid &&
		spawn "$1" libvirtd /run/libvirtd.pid libvirtd -d --listen -p /run/libvirtd.pid
}

host_up() { # HOST
	local h=$1
	host_netns "$h" && mk_mntns "$h" && host_ovs "$h" || return
	host_libvirt_conf "$h" && libvirtd_start "$h"
}

# --- up, down, status ---------------------------------------------------------

write_env() { # HOSTS...
	local h a
	{
		echo "CALVIN_SIM_DIR=$SIM_DIR"
		echo "CALVIN_SIM_HOSTS=\"$*\""
		echo "CALVIN_SIM_NB=tcp:$(host_addr $CENTRAL):6641"
		echo "CALVIN_SIM_SB=tcp:$(host_addr $CENTRAL):6642"
		echo "CALVIN_SIM_LOCAL_ADDR=$NET.1"
		for h in "$@"; do
			a=$(host_addr "$h")
			echo "CALVIN_SIM_URI_$h=qemu+tcp://$a/system"
			echo "CALVIN_SIM_CHASSIS_$h=$h"
			echo "CALVIN_SIM_ADDR_$h=$a"
			echo "CALVIN_SIM_NETNS_$h=$NS.$h"
		done
	} >"$SIM_DIR/env.tmp" && mv "$SIM_DIR/env.tmp" "$SIM_DIR/env"
	{
		echo "# name addr libvirt-uri chassis"
		for h in "$@"; do
			a=$(host_addr "$h")
			echo "$h $a qemu+tcp://$a/system $h"
		done
	} >"$SIM_DIR/hosts"
}

# Up: every chassis registered in the southbound database (so each host
# reached central through its userspace datapath) and every libvirtd
# answering on TCP from the root namespace.
wait_ready() { # HOSTS...
	local h sb
	sb="tcp:$(host_addr $CENTRAL):6642"
	wait_until 60 "all chassis in the southbound database" \
		chassis_registered "$sb" "$@" || return
	for h in "$@"; do
		wait_until 60 "libvirtd of $h on qemu+tcp://$(host_addr "$h")/system" \
			virsh -c "qemu+tcp://$(host_addr "$h")/system" uri || return
	done
}

chassis_registered() { # SB HOSTS...
	local sb=$1 names h
	shift
	names=$(ovn-sbctl --db="$sb" --timeout=5 --bare --columns=name list Chassis 2>/dev/null) ||
		return 1
	for h in "$@"; do grep -qx "$h" <<<"$names" || return 1; done
}

cmd_up() { # N
	local n=${1:-} hosts h
	[[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 2 ] && [ "$n" -le 8 ] ||
		usage_error "up: N must be a number of hosts from 2 to 8, not '$n'"
	[[ $NET =~ ^(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])){2}$ ]] ||
		usage_error "CALVIN_SIM_NET=$NET: give the first three numbers of a free /24, such as 10.98.0"
	[[ $MTU =~ ^[0-9]+$ ]] && [ "$MTU" -ge 1280 ] && [ "$MTU" -le 9000 ] ||
		usage_error "CALVIN_SIM_MTU=$MTU: give the underlay's MTU, from 1280 to 9000"
	if [ -f "$JOURNAL" ]; then
		if grep -qx "up $n" "$JOURNAL" && cmd_status >/dev/null; then
			echo "sim: already up with $n hosts ($SIM_DIR/env)"
			return 0
		fi
		grep -q '^up ' "$JOURNAL" && ! grep -qx "up $n" "$JOURNAL" &&
			usage_error "up: the simulation is up with $(sed -n 's/^up //p' "$JOURNAL") hosts; run sim.sh down first"
		echo "sim: removing what a previous run left"
		cmd_down || return
	fi
	preflight || return
	hosts=$(host_names "$n")
	mkdir -p "$SIM_DIR" && : >>"$JOURNAL" || die "cannot write $JOURNAL"
	mk_nsdir && underlay_up && central_up || return
	for h in $hosts; do host_up "$h" || return; done
	# shellcheck disable=SC2086
	wait_ready $hosts && write_env $hosts || return
	journal up "$n"
	echo "sim: up: hosts $hosts; central $(host_addr $CENTRAL); environment in $SIM_DIR/env"
}

cmd_status() {
	local n h name pid start bad=0
	[ -f "$JOURNAL" ] || { echo "sim: not up"; return 3; }
	n=$(sed -n 's/^up //p' "$JOURNAL")
	[ -n "$n" ] || { echo "sim: half made (run sim.sh down)"; return 1; }
	# the newest record of each daemon of each host
	while read -r h name pid start; do
		[ -n "$start" ] || continue
		if alive "$pid" "$start"; then
			echo "$h $name running (pid $pid)"
		else
			echo "$h $name STOPPED"
			bad=1
		fi
	done < <(awk '$1 == "pid" { last[$2 " " $3] = $4 " " $5 }
		END { for (k in last) print k, last[k] }' "$JOURNAL" | sort)
	[ $bad -eq 0 ]
}

# A host of the simulation that is up, or one line and exit 2.
need_host() { # COMMAND HOST
	[[ $2 =~ ^([a-h]|$CENTRAL)$ ]] && [ -f "$JOURNAL" ] && grep -qx "mntns $2" "$JOURNAL" ||
		usage_error "$1: no simulated host '$2' (sim.sh status lists them)"
}

# The newest record of daemon NAME on HOST: "PID START", or nothing.
daemon_pid() { # HOST NAME
	awk -v h="$1" -v n="$2" '$1 == "pid" && $2 == h && $3 == n { p = $4 " " $5 }
		END { if (p) print p }' "$JOURNAL"
}

cmd_libvirtd() { # HOST stop|start
	local h=${1:-} what=${2:-} name pid start
	need_host libvirtd "$h"
	[ "$h" != $CENTRAL ] || usage_error "libvirtd: central runs no libvirtd"
	case $what in
	stop)
		for name in libvirtd virtlogd; do
			read -r pid start < <(daemon_pid "$h" $name)
			[ -z "${pid:-}" ] || stop_pids "$pid:$start" || return
		done ;;
	start)
		read -r pid start < <(daemon_pid "$h" libvirtd)
		alive "${pid:-}" "${start:-}" || libvirtd_start "$h" || return
		wait_until 60 "libvirtd of $h" virsh -c "qemu+tcp://$(host_addr "$h")/system" uri ;;
	*) usage_error "libvirtd: say stop or start, not '$what'" ;;
	esac
}

cmd_exec() { # HOST -- CMD...
	local h=${1:-}
	need_host exec "$h"
	shift
	[ "${1:-}" = -- ] && shift
	[ $# -gt 0 ] || usage_error "exec: no command given"
	# exec: the command keeps this PID, so a caller can stop what it ran
	nsenter_argv "$h"
	exec "${NSENTER[@]}" "$@"
}

usage() {
	sed -n '/^#   sim.sh/s/^#   //p' "$0"
}

case ${1:-} in
up) shift; with_lock cmd_up "$@" ;;
down) with_lock cmd_down ;;
status) cmd_status ;;
exec) shift; cmd_exec "$@" ;;
libvirtd) shift; with_lock cmd_libvirtd "$@" ;;
_mounts) shift; inside_mounts "$@" ;;
-h | --help | help) usage ;;
*) usage >&2; exit 2 ;;
esac
