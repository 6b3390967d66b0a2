# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Shared by the CPU isolation tests: skips, and a snapshot of everything
# isolation may touch, to compare before `up` and after `down`. Sourced
# after lib.sh, not run.

export LC_ALL=C

# A mount of this type (with this super option), from /proc/self/mountinfo:
# "ID PARENT M:N ROOT POINT OPTS [OPTIONAL...] - TYPE SOURCE SUPEROPTS".
mount_of() { # TYPE [OPTION]
	awk -v type="$1" -v opt="${2:-}" '{
		for (i = 7; $i != "-"; i++);
		if ($(i + 1) == type && (opt == "" || $(i + 3) ~ "(^|,)" opt "(,|$)")) { print $5; exit }
	}' /proc/self/mountinfo
}

# The cgroup v1 cpuset hierarchy, and the v2 one.
V1=$(mount_of cgroup cpuset)
V2=$(mount_of cgroup2)

require_isolation() {
	require_cpus 2 "one to isolate, one for housekeeping"
	[ -n "$V1" ] || grep -qw cpuset "$V2/cgroup.controllers" 2>/dev/null ||
		skip "no cpuset controller in cgroup v1 or v2"
	if [ -e /run/calvin/isolation.host ]; then
		skip "another chain isolates CPUs now: $(awk '$1 == "chain" { print $2 }' /run/calvin/isolation.host | tr '\n' ' ')"
	fi
}

# Settings, one per line: IRQ affinities, the workqueue mask, the cpuset
# root's files and calvin's cpusets.
settings() {
	local f
	for f in /proc/irq/*/smp_affinity_list /proc/irq/default_smp_affinity \
		/sys/devices/virtual/workqueue/cpumask; do
		echo "$f $(cat "$f" 2>/dev/null)"
	done
	if [ -n "$V1" ]; then
		for f in cpus mems sched_load_balance cpu_exclusive; do
			echo "$V1/cpuset.$f $(cat "$V1/cpuset.$f")"
		done
		ls -d "$V1"/calvin-*/ 2>/dev/null
	fi
	[ -n "$V2" ] && echo "$V2/cgroup.subtree_control $(cat "$V2/cgroup.subtree_control")"
	[ -n "$V2" ] && ls -d "$V2"/calvin-*/ 2>/dev/null
	true
}

# Every thread as "TID START CPUSET CPUS_ALLOWED": the same thread (same
# start time) must be where it was, allowed what it was.
# (bash builtins only: a fork per thread would take seconds)
threads() {
	local t line cs k v cpus f
	for t in /proc/[0-9]*/task/[0-9]*; do
		{ read -r line <"$t/stat" && read -r cs <"$t/cpuset"; } 2>/dev/null || continue
		cpus=
		while read -r k v; do
			[ "$k" = Cpus_allowed_list: ] && cpus=$v
		done 2>/dev/null <"$t/status"
		# field 22, the start time, is the 20th after the command name
		read -ra f <<<"${line##*) }"
		[ -n "$cpus" ] && echo "${t##*/} ${f[19]} $cs $cpus"
	done | sort
}

snapshot() { # DIR
	settings >"$1.settings"
	threads >"$1.threads"
}

# Fails with the differences when the host is not as the snapshot was.
assert_restored() { # DIR
	local now=$TMP/now
	snapshot "$now"
	diff "$1.settings" "$now.settings" >&2 || fail "settings not restored (diff above)"
	# threads that lived through both: key "TID START"
	join -j1 <(awk '{ print $1 "/" $2, $3, $4 }' "$1.threads" | sort) \
		<(awk '{ print $1 "/" $2, $3, $4 }' "$now.threads" | sort) |
		awk '$2 != $4 || $3 != $5 { print "thread " $1 ": was " $2 " " $3 ", now " $4 " " $5; bad = 1 }
		     END { exit bad }' >&2 || fail "threads not where they were (above)"
}
