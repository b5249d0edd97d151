#!/bin/sh
# bpflist end to end: a helper the test starts holds 3 BPF maps and 2
# programs (tests/e2e/helpers/bpf_hold.c); bpflist must show exactly
# "PID bpf_hold map 3" and "PID bpf_hold prog 2" for it, in bcc's layout
# (PID 6, COMM 16, TYPE one wider than its longest value), rows by PID;
# -j the same counts; -v runs (kprobe/uprobe files may be absent); a
# second helper with 0 maps and 0 programs is not listed.
set -u
CB=${COREBOX:-./corebox}
T=bpflist
W=$(mktemp -d /tmp/cbx-bpflist.XXXXXX)
fails=0
HP='' HZ=''
. tests/e2e/lib.sh

cleanup() {
	for p in $HP $HZ; do kill -KILL "$p" 2>/dev/null; done
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
build_helper bpf_hold
"$W/bpf_hold" 3 2 > "$W/h.out" 2>&1 &
HP=$!
cp "$W/bpf_hold" "$W/bpf_zero"
"$W/bpf_zero" 0 0 > "$W/z.out" 2>&1 &
HZ=$!
wait_for "$W/h.out" '^ready' 50 && wait_for "$W/z.out" '^ready' 50 || notok "helpers did not start: $(cat "$W/h.out")"

"$CB" bpflist > "$W/out" 2> "$W/err"; rc=$?
[ $rc = 0 ] && ok "exit 0" || notok "exit $rc: $(head -c 300 "$W/err")"
maps=$(awk -v p="$HP" '$1 == p && $2 == "bpf_hold" && $3 == "map" { print $4 }' "$W/out")
progs=$(awk -v p="$HP" '$1 == p && $2 == "bpf_hold" && $3 == "prog" { print $4 }' "$W/out")
[ "$maps" = 3 ] && [ "$progs" = 2 ] && ok "the helper's 3 maps and 2 programs" ||
	notok "helper $HP: maps '$maps' progs '$progs': $(grep "^$HP " "$W/out" | tr '\n' '|')"
[ -z "$(awk -v p="$HZ" '$1 == p' "$W/out")" ] && ok "a process without BPF descriptors is not listed" ||
	notok "bpf_zero listed: $(grep "^$HZ " "$W/out")"
w=$(awk 'NR > 1 { if (length($3) > m) m = length($3) } END { print m + 1 }' "$W/out")
if [ "$(head -1 "$W/out")" = "$(printf "%-6s %-16s %-${w}s %s" PID COMM TYPE COUNT)" ] &&
	grep -q "^$(printf "%-6s %-16s %-${w}s %s" "$HP" bpf_hold map 3)\$" "$W/out"; then
	ok "bcc's layout: PID 6, COMM 16, TYPE $w wide"
else notok "layout: '$(head -1 "$W/out")' / '$(grep "^$HP " "$W/out" | head -1)'"; fi
sorted=$(awk 'NR > 1 { print $1 }' "$W/out" | sort -n -c 2>&1 && echo yes)
[ "$sorted" = yes ] && ok "rows by PID" || notok "rows not by PID"

"$CB" bpflist -j > "$W/j" 2> "$W/jerr"
c=$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print(sorted((r["type"], r["count"]) for r in d["bpf"] if r["pid"] == int(sys.argv[2])))' "$W/j" "$HP" 2>&1)
[ "$c" = "[('map', 3), ('prog', 2)]" ] && ok "-j: the helper's map 3, prog 2" || notok "-j: $c"

"$CB" bpflist -vv > "$W/v" 2> "$W/verr"; rc=$?
[ $rc = 0 ] && grep -q '^open kprobes:$' "$W/v" && grep -q '^open uprobes:$' "$W/v" && grep -q "^$HP " "$W/v" &&
	ok "-vv: the probe lists, then the table" || notok "-vv: exit $rc: $(head -c 300 "$W/v") $(head -c 200 "$W/verr")"
usage_exit2 "an argument it does not take" bpflist extra
exit $((fails > 0))
