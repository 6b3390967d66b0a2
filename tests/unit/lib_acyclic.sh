#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Files call each other one way only: from their objects (nm: what each
# defines, what each uses), no file uses another that uses it back,
# directly or around a circle. A circle is printed as the files on it.
#   lib_acyclic.sh [LIB.a]       the members of the pure library
#   lib_acyclic.sh LIST.objs     the objects a list names, one a line
#                                (build/calvin.objs: the controller's)
set -u
cd "$(dirname "$0")/../.." || exit 1
WHAT=${1:-build/lib/libcalvin.a}
[ -f "$WHAT" ] || { echo "$WHAT is missing: run make"; exit 77; }
if [[ $WHAT == *.objs ]]; then
	mapfile -t FILES <"$WHAT"
	for f in "${FILES[@]}"; do
		[ -f "$f" ] || { echo "$f (named in $WHAT) is missing: run make"; exit 77; }
	done
	# nm -A names an object "path.o:"; a member of an archive "lib.a:member.o:".
	field=1
else
	FILES=("$WHAT")
	field=2
fi
defs="${TMPDIR:-/tmp}/lib_acyclic.def.$$"
trap 'rm -f "$defs"' EXIT

# "file symbol" for each symbol a file defines, then each it uses.
nm -A --defined-only "${FILES[@]}" 2>/dev/null |
	awk -F'[: ]+' -v f="$field" '$(f + 2) ~ /^[TDBRC]$/ { print $f, $(f + 3) }' >"$defs"
edges=$(nm -A --undefined-only "${FILES[@]}" 2>/dev/null | awk -F'[: ]+' -v f="$field" '{ print $f, $NF }' |
	awk 'NR == FNR { def[$2] = $1; next } ($2 in def) && def[$2] != $1 { print $1, def[$2] }' \
		"$defs" - | sort -u)
[ -n "$edges" ] || { echo "no calls between the files of $WHAT: nm read nothing"; exit 1; }

# tsort names the files of each circle it finds on stderr.
loops=$(tsort <<<"$edges" 2>&1 >/dev/null)
if [ -n "$loops" ]; then
	echo "circles between the files of $WHAT:"
	echo "$loops"
	exit 1
fi
echo "$(wc -l <<<"$edges") calls between files of $WHAT, all one way"
