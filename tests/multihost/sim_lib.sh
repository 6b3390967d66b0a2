# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# shellcheck shell=bash
# The parts of sim.sh that make and unmake things: the journal, namespaces,
# daemons recorded by PID, and down. Sourced by sim.sh, not run.

die() { echo "sim: $*" >&2; exit 1; }
usage_error() { echo "sim: $*" >&2; exit 2; }

# Every thing is recorded before it is made, so down finds it after a
# crash at any point.
journal() { echo "$*" >>"$JOURNAL"; }

# A test's way to kill sim.sh at a named step, as a crash would.
crash_point() { [ "${CALVIN_SIM_CRASH_AT:-}" != "$1" ] || kill -KILL $$; }

# Run a command; on failure one line that names it and what it said.
try() {
	local err
	err=$("$@" 2>&1 >/dev/null) && return 0
	echo "sim: failed: $*: $(tail -n 1 <<<"$err")" >&2
	return 1
}

wait_until() { # SECONDS WHAT CMD...
	local end=$(($(date +%s) + $1)) what=$2
	shift 2
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -lt $end ] || { echo "sim: timed out waiting for $what" >&2; return 1; }
		sleep 0.2
	done
}

with_lock() { # CMD...: one sim.sh at a time changes the state
	local lk rc
	exec {lk}<"$0"
	flock -w 600 "$lk" || die "another sim.sh holds $0 for more than 600 s"
	"$@"
	rc=$?
	exec {lk}<&-
	return $rc
}

# A command in HOST's namespaces: network, mount (its own /run, libvirt and
# Open vSwitch folders) and UTS (its host name).
hx() { # HOST CMD...
	local h=$1
	shift
	nsenter_argv "$h"
	"${NSENTER[@]}" "$@"
}
nsenter_argv() { # HOST: the command that enters HOST, in NSENTER
	NSENTER=(nsenter --net="/run/netns/$NS.$1" --mount="$SIM_DIR/ns/$1.mnt"
		--uts="$SIM_DIR/ns/$1.uts" --)
}

mk_netns() { # HOST
	journal netns "$NS.$1"
	crash_point netns
	try ip netns add "$NS.$1" && try ip -n "$NS.$1" link set lo up &&
		try nsenter --net="/run/netns/$NS.$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
}

# unshare(1) binds a namespace to a file only on a mount that does not
# propagate: $SIM_DIR/ns is bound onto itself and made private.
mk_nsdir() {
	journal nsdir
	try mkdir -p "$SIM_DIR/ns" && try mount --bind "$SIM_DIR/ns" "$SIM_DIR/ns" &&
		try mount --make-private "$SIM_DIR/ns"
}

mk_mntns() { # HOST
	local h=$1
	journal mntns "$h"
	try touch "$SIM_DIR/ns/$h.mnt" "$SIM_DIR/ns/$h.uts" || return
	try nsenter --net="/run/netns/$NS.$h" unshare --mount="$SIM_DIR/ns/$h.mnt" \
		--uts="$SIM_DIR/ns/$h.uts" --propagation private hostname "$NS-$h" || return
	crash_point mntns
	try hx "$h" bash "$HERE/sim.sh" _mounts "$h"
}

# Inside HOST's new mount namespace: drop the copies of namespace files it
# inherited (they would keep other namespaces, ours and other tests', alive
# as long as this one lives), then give the host its own folders, a sysfs
# of its own network namespace, and its own /run.
inside_mounts() { # HOST
	local root=$SIM_DIR/$1/root d t
	findmnt -rn -t nsfs -o TARGET | sort -r | while read -r t; do umount -l "$t"; done
	for d in $PRIVATE_DIRS; do
		[ -d "$d" ] || { echo "$d missing: are the packages installed (make deps)?" >&2; exit 1; }
		mkdir -p "$root$d" && mount --bind "$root$d" "$d" || exit 1
	done
	mount -t sysfs sysfs /sys || exit 1
	# /run/lock (/var/lock): libvirt locks a channel there as it opens it
	# for virDomainOpenChannel
	mkdir -p "$root/run/openvswitch" "$root/run/ovn" "$root/run/libvirt" "$root/run/lock" &&
		mount --bind "$root/run" /run || exit 1
	[ -L /var/run ] || mount --bind /run /var/run
}

# A daemon's descriptors: none of ours, such as the lock flock(1) holds
# for the caller, may live on in it.
closefds() {
	local fd
	for fd in "/proc/$BASHPID/fd/"*; do
		fd=${fd##*/}
		[ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-"
	done
	return 0
}

starttime() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }
alive() { [ -n "$1" ] && [ -n "$2" ] && [ "$(starttime "$1")" = "$2" ]; }

# Start a daemon that detaches itself and writes PIDFILE (a path inside the
# host), then record its PID and start time.
spawn() { # HOST NAME PIDFILE CMD...
	local h=$1 name=$2 pidf=$SIM_DIR/$1/root$3 pid start
	shift 3
	journal proc "$h" "$name"
	rm -f "$pidf"
	nsenter_argv "$h"
	(closefds; exec "${NSENTER[@]}" "$@") </dev/null >>"$SIM_DIR/$h/daemons.log" 2>&1 ||
		{ echo "sim: $name on $h did not start; see $SIM_DIR/$h/daemons.log and its log" >&2; return 1; }
	crash_point "spawned-$name"
	wait_until 10 "$name's pid file on $h" test -s "$pidf" || return
	pid=$(cat "$pidf")
	start=$(starttime "$pid")
	[ -n "$start" ] || { echo "sim: $name on $h exited at once; see its log" >&2; return 1; }
	journal pid "$h" "$name" "$pid" "$start"
}

# End processes given as PID:START (TERM, then KILL); 1 if one is left.
stop_pids() {
	local p left=() i
	for p in "$@"; do alive "${p%:*}" "${p#*:}" && kill -TERM "${p%:*}" 2>/dev/null; done
	for i in $(seq 100); do
		left=()
		for p in "$@"; do alive "${p%:*}" "${p#*:}" && left+=("$p"); done
		[ ${#left[@]} -gt 0 ] || return 0
		[ "$i" -eq 50 ] && for p in "${left[@]}"; do kill -KILL "${p%:*}" 2>/dev/null; done
		sleep 0.1
	done
	echo "sim: processes still running: ${left[*]%:*}" >&2
	return 1
}

# Every process of the simulation: those recorded, and any process inside
# one of its namespaces (started but not yet recorded when a crash came;
# qemu started by a host's libvirtd).
sim_processes() {
	local ids p l start
	awk '$1 == "pid" { print $4 ":" $5 }' "$JOURNAL" | while IFS=: read -r p start; do
		alive "$p" "$start" && echo "$p:$start"
	done
	ids=$(ns_link_ids)
	[ -n "$ids" ] || return 0
	for p in /proc/[0-9]*; do
		p=${p#/proc/}
		[ "$p" = $$ ] || [ "$p" = "$BASHPID" ] && continue
		for l in net mnt uts; do
			if grep -qxF "$(readlink "/proc/$p/ns/$l" 2>/dev/null)" <<<"$ids"; then
				start=$(starttime "$p") && [ -n "$start" ] && echo "$p:$start"
				break
			fi
		done
	done
}

# journal_ns_ids as the text of /proc/PID/ns links: net:[INODE].
ns_link_ids() {
	local kind x
	while read -r kind x _; do
		case $kind in
		netns) [ -e "/run/netns/$x" ] && echo "net:[$(stat -L -c %i "/run/netns/$x")]" ;;
		mntns)
			findmnt -n "$SIM_DIR/ns/$x.mnt" >/dev/null 2>&1 &&
				echo "mnt:[$(stat -L -c %i "$SIM_DIR/ns/$x.mnt")]"
			findmnt -n "$SIM_DIR/ns/$x.uts" >/dev/null 2>&1 &&
				echo "uts:[$(stat -L -c %i "$SIM_DIR/ns/$x.uts")]" ;;
		esac
	done <"$JOURNAL"
}

# Down, in the order things depend on each other: processes, the root
# namespace's link, namespace files, network namespaces, the state folder.
# Whatever cannot be removed is said, and the journal stays for a later down.
cmd_down() {
	local kind x y procs
	[ -d "$SIM_DIR" ] || { echo "sim: nothing to remove"; return 0; }
	if [ ! -f "$JOURNAL" ]; then
		rmdir "$SIM_DIR" 2>/dev/null && { echo "sim: down"; return 0; }
		echo "sim: $SIM_DIR has no journal: not the simulation's, left as it is" >&2
		return 1
	fi
	mapfile -t procs < <(sim_processes | sort -u)
	[ ${#procs[@]} -eq 0 ] || stop_pids "${procs[@]}" ||
		{ echo "sim: down is not finished; run it again" >&2; return 1; }
	crash_point down-stopped
	while read -r kind x y; do
		case $kind in
		link) ! ip link show "$x" >/dev/null 2>&1 || try ip link del "$x" || return ;;
		mntns)
			for y in mnt uts; do
				! findmnt -n "$SIM_DIR/ns/$x.$y" >/dev/null || try umount "$SIM_DIR/ns/$x.$y" || return
			done ;;
		esac
	done < <(tac "$JOURNAL")
	crash_point down-unbound
	while read -r kind x y; do
		[ "$kind" = netns ] && [ -e "/run/netns/$x" ] && { try ip netns del "$x" || return; }
	done < <(tac "$JOURNAL")
	! findmnt -n "$SIM_DIR/ns" >/dev/null || try umount "$SIM_DIR/ns" || return
	# the journal last: a down cut short here is finished by the next one
	find "$SIM_DIR" -mindepth 1 -maxdepth 1 ! -name journal -exec rm -rf {} + &&
		rm -f "$JOURNAL" && rmdir "$SIM_DIR" ||
		{ echo "sim: cannot remove $SIM_DIR" >&2; return 1; }
	echo "sim: down"
}

preflight() {
	local c used
	for c in ovsdb-server ovs-vswitchd ovn-controller ovn-northd libvirtd virtlogd virsh \
		qemu-system-x86_64 nsenter unshare ethtool findmnt; do
		command -v $c >/dev/null || usage_error "$c is not installed (make deps installs it)"
	done
	used=$(ip -4 -o addr show | awk -v p="$NET." 'index($4, p) == 1 { print $2 }' | head -n 1)
	[ -z "$used" ] || usage_error "the underlay $NET.0/24 is in use here (on $used): set CALVIN_SIM_NET to a free /24 prefix such as 10.98.0"
	ip link show "$ROOT_IF" >/dev/null 2>&1 && usage_error "a link $ROOT_IF exists that this simulation did not make"
	c=$(ip netns list | awk -v p="$NS." 'index($1, p) == 1 { print $1; exit }')
	[ -z "$c" ] || usage_error "namespace $c exists but is not this simulation's (no $JOURNAL)"
	return 0
}
