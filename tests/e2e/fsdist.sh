#!/bin/sh
# fsdist end to end: in the test's directory (its file system type picks
# the -t), a helper makes NW writes, NR preads, NF fsyncs and 1+NO opens;
# `fsdist -t FS -p HELPER` (and the FSdist alias) must count exactly those
# in the histograms of 'read', 'open' and 'fsync' and NW (+1: the helper's
# own "done" line at exit) in 'write', in libbpf-tools' layout (banner,
# "operation = 'OP'", the log2 table of usecs or, -m, msecs); -j and
# --prom carry the same counts; SIGINT exits 0, nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/fsdist.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-fsdist.XXXXXX)
T=fsdist
fails=0
TPID= HPID=
NW=300 NR=200 NF=5 NO=50
. tests/e2e/lib.sh
bg_traps
build_helper bpf_count
build_helper cbx_vfsops
need_corebox
bpf_snapshot before

FS=$(findmnt -n -o FSTYPE -T "$W" 2>/dev/null)
case $FS in
ext4 | xfs | btrfs | f2fs | bcachefs) ;;
*) notok "the test directory $W is on '$FS', which fsdist does not trace (run it on ext4, xfs, btrfs)"; exit 1 ;;
esac

# run LABEL ARGS...: helper ready, the tool (-p helper), the work, SIGINT
run() {
	label=$1
	shift
	helper_start "$W/helper" "$W/cbx_vfsops" "$W" $NW $NR $NF $NO 0 0 || { notok "helper not ready"; return 1; }
	hpid=$HPID
	case $label in
	json) tool_start "$label" "" "$@" -p "$hpid" ;;
	*) tool_start "$label" "Hit Ctrl-C" "$@" -p "$hpid" ;;
	esac || { helper_stop; return 1; }
	kill -USR1 "$HPID"
	wait_for "$W/helper" '^done' 100 || notok "helper failed: $(cat "$W/helper")"
	wait "$HPID" 2>/dev/null
	HPID=
	sleep 0.3
	snoop_stop "$label"
}

# counts OUT: "OP TOTAL" per histogram of the text output
counts() {
	awk '/^operation = / { op = $3; gsub("\047", "", op) } / -> .* : / { n[op] += $5 } END { for (o in n) print o, n[o] }' "$1" | sort
}
check_counts() { # LABEL FILE
	c=$(counts "$2")
	r=$(echo "$c" | awk '$1 == "read" { print $2 }') w=$(echo "$c" | awk '$1 == "write" { print $2 }')
	o=$(echo "$c" | awk '$1 == "open" { print $2 }') f=$(echo "$c" | awk '$1 == "fsync" { print $2 }')
	if [ "${r:-0}" = $NR ] && [ "${o:-0}" = $((NO + 1)) ] && [ "${f:-0}" = $NF ] &&
		[ "${w:-0}" -ge $NW ] && [ "${w:-0}" -le $((NW + 1)) ]; then
		ok "$1: reads $r, writes $w, opens $o, fsyncs $f: the helper's"
	else notok "$1: counts $(echo "$c" | tr '\n' ' ') want read $NR, write $NW(+1), open $((NO + 1)), fsync $NF"; fi
}

if run text fsdist -t "$FS"; then
	o=$W/text.out
	if [ "$(head -1 "$o")" = "Tracing $FS operation latency... Hit Ctrl-C to end." ] && [ "$(sed -n 2p "$o")" = "" ] &&
		grep -qx "operation = 'read'" "$o" &&
		[ "$(grep -A1 -x "operation = 'read'" "$o" | tail -1)" = "     usecs               : count    distribution" ]; then
		ok "banner, operation line and histogram header as libbpf-tools"
	else notok "layout: $(head -5 "$o" | tr '\n' '|')"; fi
	if ! grep ' -> ' "$o" | grep -Evq '^ {0,9}[0-9]+ -> [0-9]+ *: [0-9]+ +\|\**  *\|$|^ +[0-9]+ -> [0-9]+ +: [0-9]+ +\|\*+\|$'; then
		ok "histogram rows in the log2 layout"
	else notok "rows: $(grep ' -> ' "$o" | head -2 | tr '\n' '|')"; fi
	check_counts "text" "$o"
fi

if run alias "${FS}dist" -m; then
	if [ "$(head -1 "$W/alias.out")" = "Tracing $FS operation latency... Hit Ctrl-C to end." ] &&
		grep -q "^     msecs               : count    distribution$" "$W/alias.out"; then
		ok "${FS}dist -m: the alias traces $FS, in msecs"
	else notok "${FS}dist: $(head -4 "$W/alias.out" | tr '\n' '|')"; fi
	check_counts "${FS}dist" "$W/alias.out"
fi

if run json fsdist -t "$FS" -j --prom "$W/fs.prom" && python3 - "$W/json.out" "$W/fs.prom" $NR $NW $NF $((NO + 1)) <<'PY'
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
nr, nw, nf, no = map(int, sys.argv[3:7])
tot = {}
for d in docs:
    for h in d["latency"]:
        assert h["unit"] == "usecs", h
        tot[h["operation"]] = tot.get(h["operation"], 0) + sum(b["count"] for b in h["buckets"])
assert tot.get("read") == nr and tot.get("open") == no and tot.get("fsync") == nf and nw <= tot.get("write", 0) <= nw + 1, tot
prom = open(sys.argv[2]).read()
assert 'corebox_fsdist_latency_seconds_count{operation="read"} %d' % nr in prom, prom
PY
then ok "-j and --prom: the same counts"
else notok "-j/--prom: $(head -c 300 "$W/json.out") | $(grep _count "$W/fs.prom" 2>/dev/null | tr '\n' ' ')"; fi

# getattr: a Python process fstat()s a file NS times (glibc makes that
# newfstatat(fd, "", AT_EMPTY_PATH) or fstat(2)): exactly NS in 'getattr'
NS=25
mkfifo "$W/go"
: > "$W/gfile"
python3 -c '
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
print("ready", flush=True)
open(sys.argv[2]).read()
for _ in range(int(sys.argv[3])):
    os.fstat(fd)
print("done", flush=True)
' "$W/gfile" "$W/go" $NS > "$W/py.out" 2>&1 &
HPID=$!
if wait_for "$W/py.out" '^ready' 50 && tool_start getattr "Hit Ctrl-C" fsdist -t "$FS" -p $HPID; then
	echo go > "$W/go"
	wait_for "$W/py.out" '^done' 100 || notok "python fstat loop did not finish"
	wait $HPID
	HPID=
	sleep 0.3
	snoop_stop getattr
	g=$(counts "$W/getattr.out" | awk '$1 == "getattr" { print $2 }')
	if [ "${g:-0}" = $NS ]; then ok "getattr: the $NS fstat() calls"
	else notok "getattr: ${g:-0}, want $NS: $(counts "$W/getattr.out" | tr '\n' ' ')"; fi
else notok "getattr run did not start: $(cat "$W/py.out")"; fi

# every alias is an applet that runs: it traces its file system (banner,
# exit 0 on SIGINT) or says in one line that this kernel cannot (exit 1)
for a in btrfsdist ext4dist nfsdist xfsdist f2fsdist bcachefsdist zfsdist fusedist; do
	fs=${a%dist}
	if ! "$CB" --list | grep -qx "$a"; then notok "$a is not in corebox --list"; continue; fi
	"$CB" "$a" > "$W/$a.out" 2> "$W/$a.err" &
	apid=$!
	i=0
	while [ $i -lt 100 ] && kill -0 "$apid" 2>/dev/null && ! grep -q "Hit Ctrl-C" "$W/$a.out"; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -INT "$apid" 2>/dev/null
	wait_exit "$apid" 50 || kill -KILL "$apid" 2>/dev/null
	wait "$apid"
	rc=$?
	if [ $rc = 0 ] && [ "$(head -1 "$W/$a.out")" = "Tracing $fs operation latency... Hit Ctrl-C to end." ]; then
		ok "$a: traces $fs, exit 0 on SIGINT"
	elif [ $rc = 1 ] && [ "$(wc -l < "$W/$a.err")" = 1 ] && grep -q "$fs" "$W/$a.err"; then
		ok "$a: no way to trace $fs here, one line: $(cat "$W/$a.err")"
	else notok "$a: status $rc: $(head -c 300 "$W/$a.out" "$W/$a.err" | tr '\n' '|')"; fi
done

usage_exit2 "no file system" fsdist
usage_exit2 "bad file system" fsdist -t nope
snoop_left
[ "$fails" = 0 ]
