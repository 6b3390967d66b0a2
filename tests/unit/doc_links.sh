# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Every relative link of the project's Markdown (README.md, doc/, bench/
# REPORT.md, bench/report/, bench/history/) names a file or directory
# that exists: make bench rewrites bench/report/ whole, and a report the
# README cites must not vanish with it. Links to the web and to anchors
# within a page are not checked.
set -u
cd "$(dirname "$0")/../.." || exit 1
bad=0
files=$(ls README.md doc/*.md bench/REPORT.md bench/report/*.md bench/report/*/*.md \
	bench/history/*.md 2>/dev/null)
for f in $files; do
	dir=$(dirname "$f")
	# ](target) and ](target "title"), one per line
	grep -o '](\([^)# ]*\)[^)]*)' "$f" | sed 's/^](\([^)# ]*\).*/\1/' | sort -u |
		while read -r t; do
			case "$t" in '' | http:* | https:* | mailto:*) continue ;; esac
			[ -e "$dir/$t" ] || { echo "$f: link to $t: no such file"; exit 1; }
		done || bad=1
done
[ "$bad" = 0 ] || exit 1
echo "links of $(echo "$files" | wc -w) Markdown files resolve"
