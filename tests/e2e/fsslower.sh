#!/bin/sh
# fsslower / ext4slower end to end on an ext4 image on a loop device.  A
# helper (tests/e2e/helpers/fsops.c) opens a file, writes 4 x 4 KiB at
# known offsets, fsyncs, reads 4 KiB at 8 KiB into a buffer that
# userfaultfd holds back DELAY ms (a read at least that slow, by
# construction), reads 4 KiB at 0.  With threshold 0 every one of those
# operations must be printed with the file's name, its type, size and
# offset; -m keeps the slow read (LAT >= DELAY) and nothing under the
# threshold; -c/-j print CSV, --json the same events; a file on tmpfs is
# not ext4's; xfsslower sees nothing of ext4; bad input (and more than
# one positional min_ms) exits 2; the bcachefs, btrfs, f2fs, fuse, nfs and
# zfs aliases run (or say in one line that they cannot here).  On this
# kernel (no fentry, no kprobes) the system call path is the one tested;
# make vmtest tests fentry and kprobes.
# Run as root from the repository root: sh tests/e2e/fsslower.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /var/tmp/cbx-fsslower.XXXXXX 2>/dev/null || mktemp -d /tmp/cbx-fsslower.XXXXXX)
T=fsslower
DELAY=300
fails=0
LE= TPID= HPID= MNT= SHM=
. tests/e2e/lib.sh

cleanup() {
	[ -n "$SHM" ] && umount "$SHM" 2>/dev/null
	blkfs_cleanup
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
build_helper bpf_count
build_helper fsops -O2 -pthread
bpf_snapshot before
ext4_mount 32M
mkdir -p "$W/shm"
mount -t tmpfs -o size=4m cbx-tmpfs "$W/shm" && SHM=$W/shm

# run NAME FILE TOOL ARGS...: the tool traces the helper (-p) while it
# works on FILE; output $W/NAME.out (stderr $W/NAME.err)
run() {
	name=$1 file=$2 tool=$3
	shift 3
	: > "$W/$name.helper"
	"$W/fsops" "$file" $DELAY > "$W/$name.helper" 2>&1 &
	HPID=$!
	wait_for "$W/$name.helper" '^ready' 50 || { notok "$name: helper did not start"; return 1; }
	"$CB" $tool -p $HPID "$@" > "$W/$name.out" 2> "$W/$name.err" &
	TPID=$!
	# ready: the banner (text), the CSV header, or -v's line (--json,
	# which prints no header: waiting for one there took 15 s)
	case " $* " in
	*" --json "*) ready_in=$W/$name.err ready='tracing the system calls\|on ' ;;
	*) ready_in=$W/$name.out ready='^TIME\|^ENDTIME_ns' ;;
	esac
	if ! wait_for "$ready_in" "$ready" 150; then
		notok "$name: $tool did not start: $(head -c 400 "$W/$name.err")"
		kill -KILL "$TPID" "$HPID" 2>/dev/null; wait "$TPID" "$HPID" 2>/dev/null; TPID= HPID=
		return 1
	fi
	bpf_ids "$TPID" >> "$W/ours"
	kill -USR1 "$HPID"
	wait_for "$W/$name.helper" '^done' 100 || notok "$name: helper did not finish: $(cat "$W/$name.helper")"
	wait "$HPID" 2>/dev/null
	HPID=
	sleep 0.3
	kill -INT "$TPID"
	if wait_exit "$TPID" 20; then
		wait "$TPID"
		rc=$?
		[ $rc = 0 ] || notok "$name: exit status $rc after SIGINT: $(head -c 300 "$W/$name.err")"
	else
		notok "$name: still running 2 s after SIGINT"
		kill -KILL "$TPID"
		wait "$TPID" 2>/dev/null
	fi
	TPID=
	return 0
}

# "T BYTES OFF_KB" of the lines for FILE (name in the last column)
ops() { awk -v f="$2" '$NF == f && $1 ~ /^[0-9][0-9]:/ { print $4, $5, $6 }' "$1" | tr '\n' '|'; }
WANT="O 0 0|W 4096 0|W 4096 4|W 4096 8|W 4096 12|F LL_MAX 0|R 4096 8|R 4096 0|"

# 1. ext4slower 0: every operation, in order
if run all "$MNT/ops.dat" ext4slower -v 0; then
	got=$(ops "$W/all.out" ops.dat)
	if [ "$got" = "$WANT" ]; then ok "ext4slower 0: $got"
	else notok "ext4slower 0: want '$WANT', got '$got': $(head -c 600 "$W/all.out")"; fi
	lat=$(awk '$NF == "ops.dat" && $4 == "R" && $6 == 8 { print int($7) }' "$W/all.out")
	if [ -n "$lat" ] && [ "$lat" -ge $DELAY ]; then ok "the held-back read: LAT(ms) $lat >= $DELAY"
	else notok "held-back read LAT '$lat' (want >= $DELAY)"; fi
	if head -2 "$W/all.out" | grep -q '^Tracing ext4 operations... Hit Ctrl-C to end.$' &&
		grep -Eq '^TIME +COMM +PID +T +BYTES +OFF_KB +LAT\(ms\) +FILENAME$' "$W/all.out"; then
		ok "banner and TIME COMM PID T BYTES OFF_KB LAT(ms) FILENAME header"
	else
		notok "header: $(head -2 "$W/all.out" | tr '\n' '|')"
	fi
	if grep -q 'tracing the system calls' "$W/all.err"; then ok "-v: says the system call tracepoints are used"
	elif grep -q 'fentry/fexit on ext4_file_read_iter\|kprobe/kretprobe on ext4_file_read_iter' "$W/all.err"; then
		ok "-v: says $(grep -o 'fentry/fexit\|kprobe/kretprobe' "$W/all.err" | head -1) is used"
	else notok "-v: no mechanism line: $(head -c 300 "$W/all.err")"; fi
fi

# 2. fsslower -t ext4 -m: the slow read, nothing under the threshold
if run min "$MNT/ops.dat" fsslower -t ext4 -m 100; then
	slow=$(awk '$NF == "ops.dat" && $4 == "R" && $6 == 8 && $7 >= '$DELAY' { n++ } END { print n + 0 }' "$W/min.out")
	under=$(awk '$1 ~ /^[0-9][0-9]:/ && $7 < 100 { n++ } END { print n + 0 }' "$W/min.out")
	if [ "$slow" = 1 ] && [ "$under" = 0 ] && grep -q '^Tracing ext4 operations slower than 100 ms' "$W/min.out"; then
		ok "-m 100: the held-back read shown, no line under 100 ms"
	else
		notok "-m 100: slow read $slow, lines under 100 ms $under: $(head -c 600 "$W/min.out")"
	fi
fi

# 3. CSV: -c (libbpf-tools) and -j (bcc)
for flag in -c -j; do
	if run "csv$flag" "$MNT/ops.dat" ext4slower $flag 0; then
		got=$(awk -F, '$8 == "ops.dat" { print $4, $5, $6 }' "$W/csv$flag.out" | tr '\n' '|')
		want="O 0 0|W 4096 0|W 4096 4096|W 4096 8192|W 4096 12288|F LL_MAX 0|R 4096 8192|R 4096 0|"
		slow=$(awk -F, '$8 == "ops.dat" && $4 == "R" && $6 == 8192 { print $7 }' "$W/csv$flag.out")
		if head -1 "$W/csv$flag.out" | grep -qx 'ENDTIME_ns,TASK,PID,TYPE,BYTES,OFFSET_b,LATENCY_us,FILE' &&
			[ "$got" = "$want" ] && [ "${slow:-0}" -ge $((DELAY * 1000)) ]; then
			ok "$flag: CSV header and rows '$got', slow read $slow us"
		else
			notok "$flag: rows '$got' (want '$want'), slow '$slow': $(head -c 400 "$W/csv$flag.out")"
		fi
	fi
done

# 4. --json: the same eight operations
if run json "$MNT/ops.dat" ext4slower -v --json 0; then
	if n=$(python3 tests/e2e/helpers/jsonprom.py json "$W/json.out"); then
		got=$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["file"] == "ops.dat":
        print(e["op"], e["bytes"], e["offset"] // 1024, end="|")' "$W/json.out")
		want=$(echo "$WANT" | sed 's/LL_MAX/9223372036854775807/')
		if [ "$got" = "$want" ]; then ok "--json: $n objects, ops.dat's: $got"
		else notok "--json: want '$want', got '$got'"; fi
	else
		notok "--json: $n"
	fi
fi

# 5. not ext4: a tmpfs file, and xfsslower on the ext4 file
if [ -n "$SHM" ] && run tmpfs "$SHM/ops.dat" ext4slower 0; then
	n=$(awk '$NF == "ops.dat"' "$W/tmpfs.out" | wc -l)
	if [ "$n" = 0 ]; then ok "a tmpfs file: no ext4 operations"
	else notok "tmpfs file shown $n times: $(head -c 400 "$W/tmpfs.out")"; fi
fi
if run xfs "$MNT/ops.dat" xfsslower 0; then
	n=$(awk '$NF == "ops.dat"' "$W/xfs.out" | wc -l)
	if [ "$n" = 0 ] && grep -q '^Tracing xfs operations' "$W/xfs.out"; then ok "xfsslower: nothing of the ext4 file"
	else notok "xfsslower shows the ext4 file $n times: $(head -c 400 "$W/xfs.out")"; fi
fi

# 6. bad input
"$CB" fsslower 0 > "$W/bad.out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q 'filesystem must be specified' "$W/bad.out"; then ok "fsslower without -t: exit 2"
else notok "fsslower without -t: status $rc: $(cat "$W/bad.out")"; fi
usage_exit2 "fsslower -t nosuchfs" fsslower -t nosuchfs
usage_exit2 "ext4slower -m -1" ext4slower -m -1
# extra positionals were taken silently and the tool ran: a timeout (not a
# hang) reports the old behaviour
timeout 5 "$CB" ext4slower 1 1 1 1 > "$W/extra.out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q "unexpected argument '1'" "$W/extra.out"; then ok "ext4slower 1 1 1 1: usage error, exit 2"
else notok "ext4slower 1 1 1 1: status $rc: $(head -c 300 "$W/extra.out")"; fi

# 7. the other file systems' aliases are applets that run: listed, and as
# `corebox NAME` and as a link named NAME each either traces (its banner
# names the file system; SIGINT ends it with 0) or, where this kernel
# offers no way to trace that file system, says so in one line (exit 1)
ln -sf "$(cd "$(dirname "$CB")" && pwd)/$(basename "$CB")" "$W/cbx"
for a in bcachefsslower btrfsslower f2fsslower fuseslower nfsslower zfsslower; do
	fs=${a%slower}
	ln -sf "$W/cbx" "$W/$a"
	if ! "$CB" --list | grep -qx "$a"; then
		notok "$a is not in corebox --list"
		continue
	fi
	for how in applet link; do
		label=$a-$how
		if [ $how = applet ]; then set -- "$CB" "$a"; else set -- "$W/$a"; fi
		: > "$W/$label.out"
		: > "$W/$label.err"
		"$@" > "$W/$label.out" 2> "$W/$label.err" &
		TPID=$!
		# ready: the header after the banner, or the tool ended
		i=0
		while [ $i -lt 150 ] && kill -0 "$TPID" 2>/dev/null && ! grep -q '^TIME ' "$W/$label.out"; do
			sleep 0.1
			i=$((i + 1))
		done
		if kill -0 "$TPID" 2>/dev/null; then
			bpf_ids "$TPID" >> "$W/ours"
			kill -INT "$TPID"
			wait_exit "$TPID" 20 || kill -KILL "$TPID"
		fi
		wait "$TPID"
		rc=$?
		TPID=
		banner=$(head -n 1 "$W/$label.out")
		if [ $rc = 0 ] && [ "$banner" = "Tracing $fs operations slower than 10 ms... Hit Ctrl-C to end." ] &&
		   grep -q '^TIME  *COMM  *PID  *T  *BYTES  *OFF_KB  *LAT(ms) FILENAME$' "$W/$label.out" && [ ! -s "$W/$label.err" ]; then
			ok "$a ($how): traces $fs ('$banner'), exit 0 on SIGINT"
		elif [ $rc = 1 ] && [ ! -s "$W/$label.out" ] && [ "$(wc -l < "$W/$label.err")" = 1 ] && grep -q "^$a: .*$fs" "$W/$label.err"; then
			ok "$a ($how): no way to trace $fs here, one line: $(cat "$W/$label.err")"
		else
			notok "$a ($how): exit $rc: $(head -c 300 "$W/$label.out" "$W/$label.err" | tr '\n' ' ')"
		fi
	done
done

# The kernel frees programs of closed raw tracepoint links after an RCU
# tasks grace period (about a second here): wait for that, bounded, then
# check nothing of ours is left.
i=0
while [ $i -lt 50 ]; do
	"$W/bpf_count" > "$W/now"
	awk 'NR == FNR { want[$1 " " $2] = 1; next } ($1 " " $2) in want' "$W/ours" "$W/now" | grep -q . || break
	sleep 0.1
	i=$((i + 1))
done
snoop_left
[ $fails = 0 ]
