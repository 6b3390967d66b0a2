# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Shared by the supervisor's fault tests (test_supervise*.sh): the
# supervisor's process and report, and the loss window of a fault as the
# probes saw it. Sourced after lib.sh, not run.

sup_pid() { pgrep -f "calvin supervise $1\$"; }
# Is PID running (a zombie whose parent is gone is not)? A multi-threaded
# process's leader turns zombie while its other threads still exit and
# still hold its files, so "not alive" does not mean its locks are free.
alive() { [ -e /proc/$1 ] && ! grep -q '^[0-9]* (.*) Z' /proc/$1/stat 2>/dev/null; }
# the process that runs VNF NAME: its own, or the loop of its core (where
# the VNF's command line follows another's, after --next)
vnf_pid() { pgrep -f "calvin-vnf (.* --next )?--chain $1 --name $2 "; }

# A member of one VNF in supervisor.json.
sup_vnf() { # CHAIN VNF KEY
	json_get "vnfs.[name=$2].$3" <"/run/calvin/$1.d/supervisor.json" 2>/dev/null
}

# Is VNF's state in supervisor.json STATE (for wait_until)?
sup_state_is() { # CHAIN VNF STATE
	[ "$(sup_vnf "$1" "$2" state)" = "$3" ]
}

# The number of events of KIND in the chain's log.
events_of() { # CHAIN KIND
	grep -c "\"kind\":\"$2\"" "/run/calvin/$1.d/events.jsonl" 2>/dev/null
}

# Probes in the background at 1000/s, one line per reply in TMP/raw.
probe_start() { # CHAIN COUNT
	rm -f "$TMP/raw"
	$CALVIN -j probe -c "$2" -r 1000 --raw "$TMP/raw" "$1" >"$TMP/bg.json" 2>"$TMP/err" &
	PROBE_PID=$!
	wait_probing "$1" $PROBE_PID
}

# The longest run of probes lost (in ms at 1000/s) of the background probe,
# and how many were lost in all, into WINDOW and LOST.
probe_loss() { # COUNT
	wait $PROBE_PID || fail "the background probe failed: $(cat "$TMP/err")"
	read -r WINDOW LOST <<<"$(probe_gaps "$1")"
}

probe_gaps() { # COUNT
	sort -n "$TMP/raw" | awk -v n="$1" '
		{ if (NR > 1 && $1 - last - 1 > w) w = $1 - last - 1; if (NR == 1) w = $1; last = $1; got++ }
		END { if (n - 1 - last > w) w = n - 1 - last; print w + 0, n - got }'
}

# count probes, all back.
probes_pass() { # CHAIN COUNT
	$CALVIN -j probe -c "$2" "$1" >"$TMP/p.json" 2>"$TMP/err" || fail "probe failed: $(cat "$TMP/err")"
	[ "$(json_num received <"$TMP/p.json")" = "$2" ] ||
		fail "probes lost: $(json_num received <"$TMP/p.json") of $2 back"
}

# A VNF that dies at once on every start: hold its DPDK runtime's config
# lock, as a second primary process would (its EAL refuses to start), in
# the background (PID in LOCKER) until killed. Needs perl. The VNF killed
# before may still be exiting (see alive): retry the lock for up to 30 s.
dpdk_lock_hold() { # CHAIN VNF
	perl -e 'use Fcntl; open(my $f, "+<", $ARGV[0]) or die "$!"; $| = 1;
		my $l = pack("s s x4 q q i x4", F_WRLCK, 0, 0, 0, 0);
		for (my $i = 0; !fcntl($f, F_SETLK, $l); $i++) {
			die "lock: $!" if $i >= 300;
			select(undef, undef, undef, 0.1); }
		print "locked\n"; sleep 600' /var/run/dpdk/calvin-$1.$2/config >"$TMP/lock" 2>&1 &
	LOCKER=$!
	wait_until "the config lock held" eval 'grep -q locked "$TMP/lock" || ! kill -0 $LOCKER'
	grep -q locked "$TMP/lock" || fail "the config lock: $(cat "$TMP/lock")"
}
