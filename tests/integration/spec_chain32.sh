# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The longest chain's spec on stdout, named NAME: 32 VNFs, each on a node
# of its own, kernel forward VNFs but a user one every tenth (which share
# a core where the host has too few). test_chain32.sh and bench/updown.sh
# deploy it. Run, not sourced: bash tests/integration/spec_chain32.sh NAME
printf 'name: %s\nbudget: 1s\nplacement: pinned\nallow-sharing: true\nvnfs:\n' "$1"
for i in $(seq 32); do
	if [ $((i % 10)) -eq 0 ]; then
		printf '  - {name: u%d, kind: forward, space: user}\n' "$i"
	else
		printf '  - {name: k%d, kind: forward, space: kernel}\n' "$i"
	fi
done
