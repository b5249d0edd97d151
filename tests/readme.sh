#!/bin/sh
# README.md's tool table is generated from the applet lines at the top of
# each tool's source (tools/applets.sh): fail while it differs from them,
# so a tool added, renamed or re-described cannot leave the README behind.
# Prints "ok - ..." or "not ok - ..." (with the difference) for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
W=$(mktemp -d /tmp/cbx_readme.XXXXXX)
trap 'rm -rf "$W"' EXIT
sed -n '/^<!-- applets:begin -->$/,/^<!-- applets:end -->$/p' README.md | sed '1d;$d' > "$W/readme"
if ! sh tools/applets.sh table > "$W/sources"; then
	echo "not ok - README tool table: tools/applets.sh failed"
elif [ ! -s "$W/readme" ]; then
	echo "not ok - README tool table: no lines between <!-- applets:begin --> and <!-- applets:end -->"
elif diff -u "$W/readme" "$W/sources" > "$W/diff"; then
	echo "ok - README tool table matches the applet lines of the $(($(wc -l < "$W/sources") - 2)) tools (tools/applets.sh)"
else
	echo "not ok - README tool table is stale: run make readme"
	sed 's/^/    /' "$W/diff"
fi
