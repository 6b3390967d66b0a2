# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The command line, without deploying anything: every command's --help;
# options before and after the positional arguments; README's Commands
# section and the man page saying what --help says; chain and node names
# checked like names in a chain file, so that no name leads out of the state
# directory; the state directory's owner and mode; journal paths that do not
# fit refused before anything exists; no death by SIGPIPE.
. "$(dirname "$0")/lib.sh"
require_root
export CALVIN_RUN_DIR=$TMP/run
LONG=$TMP/$(printf 'd%.0s' $(seq 240))
trap 'CALVIN_RUN_DIR=$LONG cleanup_chain t-long; rm -rf "$TMP"' EXIT
mkdir -m 700 "$CALVIN_RUN_DIR"

# 1. --help, -h and `help CMD` of every command: its usage, exit 0.
cmds=$($CALVIN --help | sed -n 's/^  calvin \([a-z]*\) .*/\1/p')
[ "$(echo $cmds | wc -w)" -ge 10 ] || fail "calvin --help lists only: $cmds"
for c in $cmds; do
	$CALVIN help $c >"$TMP/h1" || fail "calvin help $c failed"
	$CALVIN $c --help >"$TMP/h2" || fail "calvin $c --help failed"
	$CALVIN $c -h >"$TMP/h3" || fail "calvin $c -h failed"
	cmp -s "$TMP/h1" "$TMP/h2" && cmp -s "$TMP/h1" "$TMP/h3" || fail "help of $c differs"
	head -n 1 "$TMP/h1" | grep -q "^usage: calvin $c " || fail "calvin help $c: $(head -n 1 "$TMP/h1")"
done
echo "help: $(echo $cmds)"

# 2. README's Commands section is calvin --help's list, line for line.
sed -n '/^## Commands/,/^## /p' README.md | awk '/^    calvin /{p=1} p&&/^$/{exit} p' |
	sed 's/^ *//' >"$TMP/readme"
$CALVIN --help | awk 'NR>2&&/^$/{exit} NR>2' | sed 's/^ *//' >"$TMP/list"
[ -s "$TMP/readme" ] || fail "no command list in README's Commands section"
diff -u "$TMP/list" "$TMP/readme" || fail "README's Commands section differs from calvin --help"

# 3. Each command line of the README, its placeholders filled in, parses:
# as written and with its options before the arguments (--help: parse only).
grep '^calvin ' "$TMP/readme" | sed 's/  .*//' >"$TMP/lines"
while read -r line; do
	for form in "$line" "$(echo "$line" | sed 's/^\(calvin [a-z]*\) \([A-Z.]*\) \(\[.*\]\)$/\1 \3 \2/')"; do
		args=$(echo "$form" | sed -e 's/^calvin //' -e 's/\[-c N\]/-c 10/; s/\[-r RATE\]/-r 100/' \
			-e 's/\[-p\]/-p/; s/\[-s BYTES\]/-s 256/; s/\[--check\]/--check/; s/\[--admit\]/--admit/' \
			-e 's/\[--monitor\]/--monitor/; s/\[--no-supervise\]/--no-supervise/; s/\[--listen ADDR:PORT\]/--listen 127.0.0.1:0/' \
			-e 's/\[--allow-remote\]/--allow-remote/; s/\[--rate N\]/--rate 10/; s/\[--window S\]/--window 10/' \
			-e "s|\\[--raw FILE\\]|--raw $TMP/raw|; s|\\[-o DIR\\]|-o $TMP/o|; s|CHAIN.yaml|chains/tactile-fwd.yaml|" \
			-e 's/\[-n ROUNDS\]/-n 1/; s/\[-t SECONDS\]/-t 1/; s/^bench MODE/bench pinning/' \
			-e 's/\[--tput-mtu N\]/--tput-mtu 3000/' \
			-e 's/CHAIN | --all/--all/; s/\[CHAIN\]/x-chain/; s/CHAIN/x-chain/' \
			-e 's/NODE/probe/; s/CMD \[ARG...\]/true/; s/\[COMMAND\]/probe/; s|FILE|'"$TMP/key"'|')
		# exec: what follows "--" is the command's, --help included
		case $args in
		*" -- "*) args=${args/ -- / --help -- } ;;
		*) args="$args --help" ;;
		esac
		$CALVIN $args >"$TMP/out" 2>"$TMP/err" ||
			fail "'calvin $args --help' refused: $(cat "$TMP/err")"
		grep -q "^usage: calvin " "$TMP/out" || fail "'calvin $args' printed: $(head -n 2 "$TMP/out")"
		echo "parses: calvin $args"
	done
done <"$TMP/lines"
[ "$(wc -l <"$TMP/lines")" -ge 10 ] || fail "README lists $(wc -l <"$TMP/lines") commands"
# ... and runs: the options after the chain (README's order), -j after the command
expect_bad "chain 'x-chain' is not deployed" $CALVIN probe x-chain -c 10 -r 100 --check
$CALVIN validate chains/tactile-fwd.yaml -j | grep -q '^{"file"' || fail "-j after the command ignored"
expect_bad "option '-c' of 'calvin probe' needs a value" $CALVIN probe x-chain -c
expect_bad "has no option '--frobnicate'" $CALVIN run chains/tactile-fwd.yaml --frobnicate
expect_bad "unexpected argument 'y'" $CALVIN status x y
expect_bad "give the command to run after '--'" $CALVIN exec x-chain probe true

# 4. The man page names every command line and every option --help names.
sed 's/\\-/-/g; s/\\f[BIR]//g' doc/calvin.8 >"$TMP/man"
while read -r line; do
	grep -qF "$line" "$TMP/man" || fail "doc/calvin.8 lacks '$line'"
done <"$TMP/lines"
for c in $cmds; do
	for o in $($CALVIN help $c | grep -o -- '--[a-z-]*' | sort -u); do
		grep -qF -- "$o" "$TMP/man" || fail "doc/calvin.8 lacks option $o of $c"
	done
done
echo "README and doc/calvin.8 match calvin --help"

# 5. Names from the command line: one line, exit 2, and nothing read outside
# the state directory (a chain planted next to it is never seen).
cp chains/tactile-fwd.yaml "$TMP/x.yaml"
touch "$TMP/x.state"
expect_bad "chain '\.\./x' is not a valid name" $CALVIN status ../x
expect_bad "chain '\.\./\.\./etc/x' is not a valid name" $CALVIN probe ../../etc/x
expect_bad "chain '\.\./x' is not a valid name" $CALVIN probe -c 5 ../x
expect_bad "chain 'a/b' is not a valid name" $CALVIN down 'a/b'
expect_bad "chain '\.\./x' is not a valid name" $CALVIN exec ../x probe -- true
expect_bad "node '\.\./x' is not a valid name" $CALVIN exec x-chain ../x -- true
expect_bad "chain 'X' is not a valid name" $CALVIN status X
expect_bad "chain 'a+\.\.\.' is longer than 24" $CALVIN status "$(printf 'a%.0s' $(seq 50))"
expect_bad "chain is empty" $CALVIN down ''
expect_bad "chain 'a\?b' is not a valid name" $CALVIN status "$(printf 'a\nb')"

# 6. The state directory: root's alone, or refused with what to do.
mkdir -m 755 "$TMP/open"
CALVIN_RUN_DIR=$TMP/open expect_bad "state directory .*/open has mode 0755.*chmod 700" $CALVIN status
mkdir -m 700 "$TMP/other"
chown 65534 "$TMP/other"
CALVIN_RUN_DIR=$TMP/other expect_bad "belongs to uid 65534, not root.*chown root" $CALVIN down x-chain
ln -s "$CALVIN_RUN_DIR" "$TMP/link"
CALVIN_RUN_DIR=$TMP/link expect_bad "is not a directory" $CALVIN -j status

# 7. A state directory so long that journal paths would not fit: refused at
# up in one line, before anything exists.
mkdir -m 700 "$LONG"
SPEC=$(spec_copy chains/tactile-fwd.yaml t-long)
CALVIN_RUN_DIR=$LONG expect_bad "too long for the journal of chain t-long.*CALVIN_RUN_DIR" $CALVIN up "$SPEC"
[ -z "$(ls -A "$LONG")" ] || fail "up left files in the state directory: $(ls -A "$LONG")"
left=$(CALVIN_RUN_DIR=$LONG leftovers t-long)
[ -z "$left" ] || fail "up created: $left"

# 8. A reader that left: no death by SIGPIPE (exit 141), nothing on stderr.
mkfifo "$TMP/fifo"
exec 3<>"$TMP/fifo" 4>"$TMP/fifo" 3<&-
for args in "--help" "help probe" "validate chains/tactile-fwd.yaml" "-j status" "status -j" "plan chains/tactile-fwd.yaml"; do
	$CALVIN $args >&4 2>"$TMP/err"
	rc=$?
	[ $rc -eq 0 ] || fail "'calvin $args' writing to a closed pipe exited $rc"
	[ ! -s "$TMP/err" ] || fail "'calvin $args' writing to a closed pipe said: $(cat "$TMP/err")"
done
exec 4>&-
$CALVIN --help | head -n 1 >/dev/null
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "calvin --help | head -1: calvin exited ${PIPESTATUS[0]}"
echo ok
