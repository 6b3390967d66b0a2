#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The files of the pure library call each other one way only: from the
# objects of libcalvin.a (nm: what each defines, what each uses), no file
# uses another that uses it back, directly or around a circle. A circle is
# printed as the files on it.
set -u
cd "$(dirname "$0")/../.." || exit 1
LIB=${1:-build/lib/libcalvin.a}
[ -f "$LIB" ] || { echo "$LIB is missing: run make"; exit 77; }

# "member symbol" for each symbol a member defines, then each it uses.
nm -A --defined-only "$LIB" 2>/dev/null | awk -F'[: ]+' '$4 ~ /^[TDBRC]$/ { print $2, $5 }' \
	>"${TMPDIR:-/tmp}/lib_acyclic.def.$$"
trap 'rm -f "${TMPDIR:-/tmp}"/lib_acyclic.*.$$' EXIT
edges=$(nm -A --undefined-only "$LIB" 2>/dev/null | awk -F'[: ]+' '{ print $2, $NF }' |
	awk 'NR == FNR { def[$2] = $1; next } ($2 in def) && def[$2] != $1 { print $1, def[$2] }' \
		"${TMPDIR:-/tmp}/lib_acyclic.def.$$" - | sort -u)
[ -n "$edges" ] || { echo "no calls between the members of $LIB: nm read nothing"; exit 1; }

# tsort names the files of each circle it finds on stderr.
loops=$(tsort <<<"$edges" 2>&1 >/dev/null)
if [ -n "$loops" ]; then
	echo "circles between the files of $LIB:"
	echo "$loops"
	exit 1
fi
echo "$(wc -l <<<"$edges") calls between files of $LIB, all one way"
