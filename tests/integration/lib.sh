# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Shared by the integration tests: skips, a chain spec of the test's own,
# waits that poll instead of sleeping, and the check that nothing is left
# behind. Sourced, not run.
set -u
cd "$(dirname "$0")/../.."
CALVIN=${CALVIN:-build/calvin}
TMP=$(mktemp -d /tmp/calvin-test.XXXXXX)

skip() { echo "$*"; rmdir "$TMP" 2>/dev/null; exit 77; } # TMP only if still empty
fail() { echo "FAIL: $*"; exit 1; }

# The CPUs this test may use: calvin plans with the affinity it inherits.
cpus_allowed() { sed -n 's/^Cpus_allowed_list:\s*//p' /proc/$$/status; }
cpu_count() { # CPULIST
	local n=0 r ranges
	IFS=, read -ra ranges <<<"$1"
	for r in "${ranges[@]}"; do
		n=$((n + ${r#*-} - ${r%-*} + 1))
	done
	echo $n
}
require_cpus() { # N WHY
	local have
	have=$(cpu_count "$(cpus_allowed)")
	[ "$have" -ge "$1" ] || skip "needs $1 CPUs ($2); this run may use $have: CPU $(cpus_allowed)"
}

require_root() {
	[ "$(id -u)" = 0 ] || skip "needs root (network namespaces, XDP)"
}

# Can this machine make a namespace, a veth and attach native XDP to it?
require_netns_xdp() {
	local ns=calvin-selftest-$$
	ip netns add "$ns" 2>/dev/null || skip "cannot create network namespaces"
	if ! ip -n "$ns" link add va type veth peer name vb 2>/dev/null; then
		ip netns del "$ns"
		skip "cannot create veth pairs"
	fi
	if [ ! -f build/kernel/pass.bpf.o ]; then
		ip netns del "$ns"
		fail "build/kernel/pass.bpf.o missing: run make first"
	fi
	# iproute2 wants bpffs for BPF objects; calvin mounts it too
	mount | grep -q ' /sys/fs/bpf type bpf' || mount -t bpf bpf /sys/fs/bpf 2>/dev/null
	if ! ip -n "$ns" link set va xdpdrv obj build/kernel/pass.bpf.o sec xdp 2>/dev/null; then
		ip netns del "$ns"
		skip "native XDP on veth is not available on this kernel"
	fi
	ip netns del "$ns"
}

# A copy of a chain spec under another name, so tests never touch a chain
# a user deployed. Prints the copy's path.
spec_copy() { # FILE NAME
	local out=$TMP/$2.yaml
	sed "s/^name: .*/name: $2/" "$1" >"$out"
	echo "$out"
}

# Everything a chain can create; empty output means nothing is left.
leftovers() { # CHAIN
	local c=$1
	ip netns list 2>/dev/null | grep -E "^calvin-$c\\." | sed 's/^/netns /'
	[ -e "/sys/fs/bpf/calvin/$c" ] && echo "pin dir /sys/fs/bpf/calvin/$c"
	ls -d /var/run/dpdk/calvin-"$c".* 2>/dev/null | sed 's/^/dpdk runtime dir /'
	ls -d "${CALVIN_RUN_DIR:-/run/calvin}/$c".* 2>/dev/null | sed 's/^/state /'
	pgrep -af "calvin-vnf --chain $c " | sed 's/^/process /'
	pgrep -af "calvin supervise $c\$" | sed 's/^/supervisor /'
	pgrep -af "calvin monitor $c\$" | sed 's/^/monitor /'
	true
}

assert_clean() { # CHAIN
	local left
	left=$(leftovers "$1")
	[ -z "$left" ] || fail "left behind after down: $left"
}

# Bad input: exit status 2 and exactly one line on stderr, matching.
expect_bad() { # WANT-REGEX CMD...
	local want=$1 rc
	shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 2 ] || fail "'$*' exited $rc, want 2 (stderr: $(cat "$TMP/err"))"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "'$*' printed $(wc -l <"$TMP/err") lines: $(cat "$TMP/err")"
	grep -Eq "$want" "$TMP/err" || fail "'$*' said '$(cat "$TMP/err")', want /$want/"
	echo "ok: $(cat "$TMP/err")"
}

cleanup_chain() { # CHAIN: for traps; never fails
	$CALVIN down "$1" >/dev/null 2>&1 || true
}

# A counter of the node's own UDP stack: datagrams to closed ports.
udp_noports() { # CHAIN NODE
	$CALVIN exec "$1" "$2" -- cat /proc/net/snmp |
		awk '/^Udp:/ { if (!h) { for (i = 1; i <= NF; i++) if ($i == "NoPorts") c = i; h = 1 } else print $c }'
}

# Send N UDP datagrams from a node (bash's /dev/udp: no extra tools). Count
# them where they arrive, not replies at the sender: a reply that comes
# back before bash closes its socket is queued there and counted nowhere.
udp_send() { # CHAIN NODE ADDR PORT N
	$CALVIN exec "$1" "$2" -- bash -c \
		"for i in \$(seq $5); do echo calvin-test >/dev/udp/$3/$4; done" 2>/dev/null
}

# 100 datagrams from the probe to the server's port 9999, which the acl
# VNF denies (chains/tactile-acl.yaml): none may reach the server's
# stack, and all are counted as the VNF's acl drops; the count after goes
# into DENIED.
acl_denies() { # CHAIN VNF WHEN
	local srv0 deny0 srv deny now
	acl_counts() { echo "$(udp_noports "$1" server) $(vnf_stat "$1" "$2" drop_acl)"; }
	read -r srv0 deny0 <<<"$(acl_counts "$1" "$2")"
	udp_send "$1" probe 10.70.0.2 9999 100
	wait_stable now acl_counts "$1" "$2"
	read -r srv deny <<<"$now"
	[ "$srv" -eq "$srv0" ] || fail "$3: denied datagrams reached the server ($srv0 -> $srv)"
	[ $((deny - deny0)) -eq 100 ] || fail "$3: $((deny - deny0)) of 100 denied datagrams counted as acl drops"
	DENIED=$deny
}

# calvin's -j output, read by a JSON parser (tests/tools/jsondoc.c:
# json-c): fails unless stdin is exactly one JSON document; with a PATH
# ("counts.received", "0.vnfs.[name=fwd-u].error"), prints what is there.
JSONDOC=build/tests/tools/jsondoc
json_get() { # [PATH] < JSON
	$JSONDOC "$@"
}

# A number from calvin's JSON output: the first "KEY": N.
json_num() { # KEY < JSON
	grep -o "\"$1\": *[0-9]*" | head -n 1 | grep -o '[0-9]*$'
}

# One counter of one VNF from `calvin -j status` (first direction or port
# that has it: fwd before rev, west before east).
vnf_stat() { # CHAIN VNF KEY
	$CALVIN -j status "$1" | sed 's/{"name":/\n&/g' | grep "^{\"name\":\"$2\"" |
		grep -o "\"$3\":[0-9]*" | head -n 1 | cut -d: -f2
}

# A copy of a chain spec (as spec_copy) with a wiretap: a user-space
# forward VNF on af_packet inserted before VNF BEFORE. A capture on the
# tap's interfaces (tests/tools/capture) sees what the link carries both
# ways: af_xdp hands received frames to its socket before any packet tap,
# af_packet does not. Prints the copy's path.
spec_tap() { # FILE NAME BEFORE
	local out=$TMP/$2.yaml
	awk -v n="$2" -v b="$3" '
		/^name: / { print "name: " n; next }
		$0 ~ "^  - name: " b "$" {
			print "  - name: tap\n    kind: forward\n    space: user\n    pmd: af_packet"
		}
		{ print }' "$1" >"$out"
	echo "$out"
}

# Capture the UDP frames a node's interface receives, in the background
# (PID in CAPTURE_PID), once the socket is bound; see tests/tools/capture.c
# for the output.
capture_start() { # CHAIN NODE IFNAME SECONDS OUT
	local i
	$CALVIN exec "$1" "$2" -- build/tests/tools/capture "$3" "$4" >"$5" 2>"$5.err" &
	CAPTURE_PID=$!
	for i in $(seq 50); do
		grep -q capturing "$5.err" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "capture on $2 $3 did not start: $(cat "$5.err")"
}

# A counter of one direction (fwd or rev) of a kernel VNF.
vnf_stat_dir() { # CHAIN VNF DIR KEY
	$CALVIN -j status "$1" | sed 's/{"name":/\n&/g' | grep "^{\"name\":\"$2\"" |
		grep -o "\"$3\":{[^}]*}" | grep -o "\"$4\":[0-9]*" | head -n 1 | cut -d: -f2
}

# The MAC address of a node's interface.
node_mac() { # CHAIN NODE IFNAME
	ip -n "calvin-$1.$2" -o link show "$3" | grep -o 'link/ether [0-9a-f:]*' | cut -d' ' -f2
}

# The MTU of a node's interface.
link_mtu() { # CHAIN NODE IFNAME
	ip -n "calvin-$1.$2" -o link show "$3" | grep -o 'mtu [0-9]*' | cut -d' ' -f2
}

# Each NODE/IFNAME/MTU given has that MTU.
assert_link_mtus() { # CHAIN NODE/IFNAME/MTU...
	local c=$1 l got
	shift
	for l; do
		got=$(link_mtu "$c" "${l%%/*}" "$(echo "$l" | cut -d/ -f2)")
		[ "$got" = "${l##*/}" ] || fail "link ${l%/*}: mtu '$got', want ${l##*/}"
	done
}

# A string of one user VNF from `calvin -j status`, e.g. its west_pmd.
vnf_str() { # CHAIN VNF KEY
	$CALVIN -j status "$1" | sed 's/{"name":/\n&/g' | grep "^{\"name\":\"$2\"" |
		grep -o "\"$3\":\"[^\"]*\"" | head -n 1 | cut -d'"' -f4
}

# Waits poll with a deadline, never sleep a fixed time: on a loaded machine
# a packet may still sit in a queue, a softirq or a starved poller after
# any fixed delay, and a server may not listen yet.
WAIT_DEADLINE=${WAIT_DEADLINE:-30}

# Poll CMD until its output is the same STABLE_READS times in a row (0.1 s
# apart, 5 by default) and put that output in VAR; fail at the deadline.
# For counters: read them only once nothing moves them any more.
wait_stable() { # VAR CMD...
	local var=$1 same=0 out prev deadline=$((SECONDS + WAIT_DEADLINE))
	shift
	prev=$("$@")
	while [ $same -lt "${STABLE_READS:-5}" ]; do
		[ $SECONDS -lt $deadline ] ||
			fail "'$*' was still changing after ${WAIT_DEADLINE} s (last: $prev)"
		sleep 0.1
		out=$("$@")
		if [ "$out" = "$prev" ]; then
			same=$((same + 1))
		else
			same=0
			prev=$out
		fi
	done
	printf -v "$var" '%s' "$prev"
}

# Poll CMD until it succeeds; fail at the deadline saying what never came.
wait_until() { # WHAT CMD...
	local what=$1 deadline=$((SECONDS + WAIT_DEADLINE))
	shift
	until "$@" >/dev/null 2>&1; do
		[ $SECONDS -lt $deadline ] || fail "$what: not so after ${WAIT_DEADLINE} s"
		sleep 0.1
	done
}

# A TCP port on 127.0.0.1 free now, for a server a test starts later. It
# is taken below the ephemeral range (ip_local_port_range): a port from
# that range may become the local port of any client connection in the
# meantime (the test's own curls), and a client's TIME_WAIT on it stops a
# server's bind for a minute even with SO_REUSEADDR.
free_listen_port() {
	python3 - <<'PY'
import random, socket
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
for _ in range(200):
    port = random.randrange(10000, low) if low > 10000 else random.randrange(1024, low)
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))
    except OSError:
        continue
    finally:
        s.close()
    print(port)
    break
else:
    raise SystemExit("no free port below the ephemeral range")
PY
}

# Until a probe of CHAIN started in the background (PID: `calvin probe`,
# `calvin run`) has its socket open in the probe node, and a little
# longer: it is sending. Fails if PID ended first (its stderr in
# $TMP/err says why).
wait_probing() { # CHAIN PID
	until ip netns exec "calvin-$1.probe" ss -Hun 2>/dev/null | grep -q '10\.70\.0\.2:7357'; do
		kill -0 "$2" 2>/dev/null || fail "the probe of $1 ended before it probed: $(cat "$TMP/err")"
		sleep 0.01
	done
	sleep 0.2
}

# Until a UDP socket listens on PORT in NODE (a server started in the background).
udp_listening() { # CHAIN NODE PORT
	$CALVIN exec "$1" "$2" -- ss -Hlun "sport = :$3" | grep -q .
}
wait_listen() { # CHAIN NODE PORT
	wait_until "a UDP server listening on $2 port $3" udp_listening "$@"
}

# Probe records from `calvin probe --raw`: WANT probes came back, each with
# the hop records PATH names (vnf_id/dir per hop, e.g. "0/0 1/0 1/1 0/1"),
# timestamps in order along the way.
check_hops() { # RAW WANT PATH
	awk -v want="$2" -v path_want="$3" '
	BEGIN { nhops = split(path_want, unused, " ") }
	{ n++
	  if ($4 != nhops) { print "probe " $1 ": " $4 " hop records, want " nhops; bad++; next }
	  path = ""
	  for (i = 5; i < 5 + 4 * nhops; i += 4)
		path = path (path == "" ? "" : " ") $i "/" $(i + 1)
	  if (path != path_want) { print "probe " $1 ": path " path; bad++; next }
	  t = $2
	  for (i = 7; i < 5 + 4 * nhops; i += 4) {
		if ($i < t || $(i + 1) < $i) { print "probe " $1 ": timestamps out of order"; bad++; next }
		t = $(i + 1)
	  }
	  if ($3 < t) { print "probe " $1 ": received before the last hop sent it"; bad++ }
	}
	END {
	  if (n != want) { print n + 0 " probes came back, want " want; exit 1 }
	  if (bad) { print bad " bad probes"; exit 1 }
	  print n " probes, all with " nhops " ordered hop records"
	}' "$1"
}

# A flood through the encrypt and decrypt VNFs enc and dec of CHAIN
# (sockperf throughput to its server, no replies, 3 s): neither may starve
# the other on the core they share, so dec must open at least PCT% of what
# enc sealed.
flood_crypt_pair() { # CHAIN PCT
	local server sealed opened
	$CALVIN exec "$1" server -- sockperf server -i 10.70.0.2 -p 11111 >/dev/null 2>&1 &
	server=$!
	wait_listen "$1" server 11111
	timeout 60 $CALVIN exec "$1" probe -- sockperf tp -i 10.70.0.2 -p 11111 -t 3 -m 64 \
		>"$TMP/tp.log" 2>&1 || fail "sockperf tp failed: $(tail -3 "$TMP/tp.log")"
	wait_stable now flood_counts "$1"
	kill "$server"
	read -r sealed opened <<<"$now"
	echo "flood: $(grep -o 'Message Rate is [0-9]*' "$TMP/tp.log"); enc sealed $sealed, dec opened $opened"
	[ "$sealed" -gt 10000 ] || fail "the flood did not get through the encryptor"
	[ $((opened * 100)) -ge $((sealed * $2)) ] ||
		fail "the decryptor starved: it opened $opened of $sealed"
}

flood_counts() { # CHAIN
	echo "$(vnf_stat "$1" enc crypt_sealed) $(vnf_stat "$1" dec crypt_opened)"
}
