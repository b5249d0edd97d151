#!/bin/sh
# README.md's tool table is generated from the applet lines at the top of
# each tool's source (tools/applets.sh): fail while it differs from them,
# so a tool added, renamed or re-described cannot leave the README behind;
# and fail when a tool's NAME_main has no applet line (it would be built
# but never run).  Prints "ok - ..." or "not ok - ..." for tests/run.sh.
cd "$(dirname "$0")/.." || exit 1
W=$(mktemp -d /tmp/cbx_readme.XXXXXX)
trap 'rm -rf "$W"' EXIT
sed -n '/^<!-- applets:begin -->$/,/^<!-- applets:end -->$/p' README.md | sed '1d;$d' > "$W/readme"
if ! sh tools/applets.sh table > "$W/sources" 2> "$W/err"; then
	echo "not ok - README tool table: tools/applets.sh failed: $(head -1 "$W/err")"
elif [ ! -s "$W/readme" ]; then
	echo "not ok - README tool table: no lines between <!-- applets:begin --> and <!-- applets:end -->"
elif diff -u "$W/readme" "$W/sources" > "$W/diff"; then
	echo "ok - README tool table matches the applet lines of the $(($(wc -l < "$W/sources") - 2)) tools (tools/applets.sh)"
else
	echo "not ok - README tool table is stale: run make readme"
	sed 's/^/    /' "$W/diff"
fi

# Every NAME_main under tools/ (but main.c's own) is an applet or a command.
grep -ho '^int [a-z0-9_]*_main(' tools/*/*.c | sed 's/^int //; s/_main($//' | LC_ALL=C sort > "$W/mains"
sh tools/applets.sh header > "$W/header" 2>/dev/null
sed -n -e 's/^APPLET(\([a-z0-9_]*\),.*/\1/p' -e 's/^COMMAND(\([a-z0-9_]*\),.*/\1/p' "$W/header" | LC_ALL=C sort > "$W/applets"
missing=$(LC_ALL=C comm -23 "$W/mains" "$W/applets" | tr '\n' ' ')
if [ ! -s "$W/applets" ]; then
	echo "not ok - applet lines: tools/applets.sh failed"
elif [ ! -s "$W/mains" ]; then
	echo "not ok - applet lines: no NAME_main found under tools/"
elif [ -z "$missing" ]; then
	echo "ok - each of the $(wc -l < "$W/mains") NAME_main functions under tools/ has its applet line"
else
	echo "not ok - NAME_main without an applet line (never run): $missing"
fi
