#!/bin/sh
# Container identity on events (issue 21, part 2): the test makes two
# cgroup v2 directories A and B, runs a process in each, and the event
# tools must name the right one: exitsnoop -j puts "cgroup" (the path
# relative to the cgroup2 root) and "cgroup_id" (the directory's kernfs
# id, checked against its inode number and file handle) on each line;
# execsnoop --show-cgroup starts each text row with the path (header
# CGROUP); biosnoop -j names the cgroup of the task that issued the I/O,
# not the one its completion interrupted; a tool without the option has
# no CGROUP column.  Summaries keyed by cgroup: syscount --cgroups counts
# exactly the N failed calls a helper in A makes; runqlat --cgroups has a
# histogram for each of A and B with at least their wakeups; biolatency
# --cgroups on a loop disk has exactly the K reads a helper in B made.
# Tools whose text is not a table: oomkill --show-cgroup starts its line
# with A's path for a helper in A killed over a 16 MiB limit; mountsnoop
# -d --show-cgroup has "CGROUP: B" in the block of a mount made in B.
# corebox run -j / --show-cgroup names the cgroup_id member of a test
# object's records (5 from a helper in A, 7 from one in B); uthreads
# --show-cgroup / -j puts A's path on each of 3 pthreads a helper in A
# creates; memleak -t -j / --show-cgroup on each of the 9 allocator calls
# of a helper in B.
# Run as root from the repository root: sh tests/e2e/cgroup.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-cgroup.XXXXXX)
T=cgroup
fails=0
TPID= TOP= HPID= LA=
. tests/e2e/lib.sh

cleanup() {
	[ -n "$TPID" ] && kill -KILL "$TPID" 2>/dev/null
	[ -n "$HPID" ] && kill -KILL "$HPID" 2>/dev/null
	[ -n "$LA" ] && losetup -d "$LA" 2>/dev/null
	if [ -n "$TOP" ]; then
		rmdir "$TOP/a" "$TOP/b" "$TOP" 2>/dev/null
	fi
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
cgroup2_dir cbx_cg_$$
mkdir "$TOP/a" "$TOP/b"
REL=/cbx_cg_$$

# in DIR CMD...: run CMD as a process of cgroup DIR (it moves itself in,
# then execs); its pid into $W/pid.DIR
in_cg() {
	d=$1
	shift
	sh -c 'echo $$ > "$1/cgroup.procs" && echo $$ > "$2" && shift 2 && exec "$@"' sh "$TOP/$d" "$W/pid.$d" "$@"
}

# ---- 1: exitsnoop -j: "cgroup" and "cgroup_id" ---------------------------------
if tool_start j "" exitsnoop -j; then
	in_cg a sleep 0.1
	in_cg b sh -c 'exit 3'
	sleep 0.3
	snoop_stop "exitsnoop -j"
	for d in a b; do
		pid=$(cat "$W/pid.$d")
		line=$(grep "\"pid\":$pid," "$W/j.out" | head -1)
		ino=$(stat -c %i "$TOP/$d")
		if echo "$line" | grep -q "\"cgroup\":\"$REL/$d\",\"cgroup_id\":$ino,"; then
			ok "JSON: pid $pid in $REL/$d, id $ino (the directory's inode)"
		else
			notok "JSON: pid $pid: want cgroup $REL/$d id $ino; got: $line"
		fi
	done
	if python3 -c 'import json,sys
n = 0
for l in open(sys.argv[1]):
    o = json.loads(l); n += 1
    assert list(o)[:3] == ["time", "cgroup", "cgroup_id"], list(o)
assert n > 0' "$W/j.out" 2>"$W/py.err"; then
		ok "JSON: every line parses; time, cgroup, cgroup_id lead"
	else
		notok "JSON: $(tail -1 "$W/py.err")"
	fi
fi

# ---- 2: execsnoop --show-cgroup: the text column --------------------------------
if tool_start t CGROUP execsnoop --show-cgroup; then
	in_cg a true
	in_cg b true
	sleep 0.3
	snoop_stop "execsnoop --show-cgroup"
	if head -1 "$W/t.out" | grep -Eq '^CGROUP +PCOMM +PID +PPID +RET +ARGS$'; then ok "header starts with CGROUP"
	else notok "header: $(head -1 "$W/t.out")"; fi
	for d in a b; do
		pid=$(cat "$W/pid.$d")
		if awk -v p="$pid" -v c="$REL/$d" '$1 == c && $2 == "true" && $3 == p' "$W/t.out" | grep -q .; then
			ok "text: the exec of pid $pid shown in $REL/$d"
		else
			notok "text: pid $pid in $REL/$d: $(grep " $pid " "$W/t.out" | head -2 | tr '\n' '|')"
		fi
	done
fi

# ---- 3: without the option: no column -----------------------------------------------
if tool_start p PCOMM exitsnoop; then
	in_cg a true
	sleep 0.3
	snoop_stop "exitsnoop (plain)"
	pid=$(cat "$W/pid.a")
	if head -1 "$W/p.out" | grep -q '^PCOMM' && awk -v p="$pid" '$1 == "true" && $2 == p' "$W/p.out" | grep -q .; then
		ok "without --show-cgroup the layout is libbpf-tools' (PCOMM first)"
	else
		notok "plain layout: $(head -3 "$W/p.out" | tr '\n' '|')"
	fi
fi

# ---- 4: biosnoop -j: the issuing task's cgroup, not the completion's ----------------
DEVDIR=$(df -P "$W" | awk 'NR == 2 { print $6 }')
if tool_start bio "" biosnoop -j; then
	in_cg b dd if=/dev/zero of="$W/data" bs=64k count=16 oflag=direct 2>/dev/null
	sleep 0.5
	snoop_stop "biosnoop -j"
	pid=$(cat "$W/pid.b")
	n=$(grep "\"pid\":$pid," "$W/bio.out" | wc -l)
	good=$(grep "\"pid\":$pid," "$W/bio.out" | grep -c "\"cgroup\":\"$REL/b\"")
	if [ "$n" -gt 0 ] && [ "$n" = "$good" ]; then
		ok "biosnoop: $n I/Os of dd (pid $pid) all in $REL/b"
	elif [ "$n" = 0 ] && ! grep -q . "$W/bio.out"; then
		notok "biosnoop: no I/O seen at all for $DEVDIR (O_DIRECT on tmpfs?)"
	else
		notok "biosnoop: $good of $n I/Os of pid $pid in $REL/b: $(grep "\"pid\":$pid," "$W/bio.out" | head -1)"
	fi
fi

# ---- 5: syscount --cgroups -e ENOENT: the helper's N failed calls, keyed by its cgroup --------
build_helper sysloop
N=234
"$W/sysloop" $N 50 > "$W/helper" 2>&1 &
HPID=$!
if wait_for "$W/helper" '^ready' 50 && echo "$HPID" > "$TOP/a/cgroup.procs" &&
	tool_start sc 'Tracing syscalls' syscount --cgroups -e ENOENT -j; then
	kill -USR1 "$HPID"
	wait_for "$W/helper" '^done' 100
	sleep 0.3
	snoop_stop "syscount --cgroups"
	got=$(python3 -c 'import json, sys
n = 0
for l in open(sys.argv[1]):
    for r in json.loads(l).get("cgroups", []):
        if r["cgroup"] == sys.argv[2]:
            n += r["calls"]
print(n)' "$W/sc.out" "$REL/a")
	if [ "$got" = "$N" ]; then ok "syscount --cgroups -e ENOENT: $REL/a made exactly $N failed calls"
	else notok "syscount --cgroups: $REL/a: '$got' calls, want $N: $(head -c 400 "$W/sc.out")"; fi
fi
kill -TERM "$HPID" 2>/dev/null
wait "$HPID" 2>/dev/null

# ---- 6: runqlat --cgroups: a histogram for each cgroup, under its path --------------------------
if tool_start rq 'Tracing run queue' runqlat --cgroups -j; then
	in_cg a sh -c 'i=0; while [ $i -lt 20 ]; do sleep 0.01; i=$((i + 1)); done'
	in_cg b sh -c 'i=0; while [ $i -lt 20 ]; do sleep 0.01; i=$((i + 1)); done'
	sleep 0.3
	snoop_stop "runqlat --cgroups"
	got=$(python3 -c 'import json, sys
c = {}
for l in open(sys.argv[1]):
    for h in json.loads(l).get("latency", []):
        c[h.get("cgroup")] = c.get(h.get("cgroup"), 0) + h["count"]
print(" ".join("%s=%d" % (k, c.get(k, 0)) for k in sys.argv[2:]), "unlabelled=%d" % c.get(None, 0))' "$W/rq.out" "$REL/a" "$REL/b")
	# each sh woke at least 20 times (its sleeps ended) and ran 20 sleep processes
	if echo "$got" | awk '{ split($1, a, "="); split($2, b, "="); exit !(a[2] >= 40 && b[2] >= 40 && $3 == "unlabelled=0") }'; then
		ok "runqlat --cgroups: $got (>= 40 wakeups each)"
	else
		notok "runqlat --cgroups: $got: $(head -c 300 "$W/rq.out")"
	fi
fi

# ---- 7: biolatency --cgroups: K direct reads of a loop disk from a process in B ---------------
build_helper blkio
K=24
loop_disks 16 LA
# The ground truth is checked too (it was assumed): the helper's exit
# status and its "read" lines, and the disk's own count of completed reads
# (/sys/block/loopN/stat) over its run, so that a failure says whether the
# disk saw K reads (then the tool lost one) or not.
if tool_start bl 'Tracing block device' biolatency --cgroups -d "$(basename "$LA")" -j; then
	read -r dev0 _ < "/sys/block/$(basename "$LA")/stat"
	in_cg b "$W/blkio" "$LA" rand $K 4096 0 > "$W/blkio.out" 2>&1
	hrc=$?
	read -r dev1 _ < "/sys/block/$(basename "$LA")/stat"
	truth="helper exit $hrc, $(grep -c '^read ' "$W/blkio.out") reads done, the disk counted $((dev1 - dev0))"
	sleep 0.3
	snoop_stop "biolatency --cgroups"
	got=$(python3 -c 'import json, sys
c = {}
for l in open(sys.argv[1]):
    for h in json.loads(l).get("latency", []):
        c[h.get("cgroup")] = c.get(h.get("cgroup"), 0) + h["count"]
print(" ".join("%s=%d" % kv for kv in sorted(c.items(), key=str)))' "$W/bl.out")
	if [ "$truth" != "helper exit 0, $K reads done, the disk counted $K" ]; then
		notok "biolatency --cgroups: the helper's run is not the K=$K reads the check needs: $truth: $(head -c 200 "$W/blkio.out")"
	elif [ "$got" = "$REL/b=$K" ]; then ok "biolatency --cgroups: $got (the helper's $K reads, nothing else)"
	else notok "biolatency --cgroups: '$got', want '$REL/b=$K' ($truth)"; fi
fi

# -c B: the same K reads, all of them: only the issuer is tested (the
# completion runs in whatever task or interrupt it finds, where
# libbpf-tools' test of the current task dropped nearly every one)
if tool_start blc 'Tracing block device' biolatency -c "$TOP/b" -d "$(basename "$LA")" -j; then
	in_cg b "$W/blkio" "$LA" rand $K 4096 0 > /dev/null
	sleep 0.3
	snoop_stop "biolatency -c"
	got=$(python3 -c 'import json, sys
print(sum(h["count"] for l in open(sys.argv[1]) for h in json.loads(l).get("latency", [])))' "$W/blc.out")
	if [ "$got" = "$K" ]; then ok "biolatency -c $REL/b: the helper's $K reads"
	else notok "biolatency -c $REL/b: $got reads, want $K"; fi
fi

# ---- 8: oomkill --show-cgroup: its free-text line starts with the cgroup ----------------------
# A helper in A limited to 16 MiB (no swap) asks for 256 MiB and is
# killed.  The limit: A's memory.max where cgroup v2 has the memory
# controller, else a v1 memory cgroup of its own (hybrid hosts).
MEMV1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/self/mounts)
LIM=
if echo +memory > "$TOP/cgroup.subtree_control" 2>/dev/null && echo 16M > "$TOP/a/memory.max"; then
	echo 0 > "$TOP/a/memory.swap.max" 2>/dev/null
	LIM=v2
elif [ -n "$MEMV1" ] && mkdir "$MEMV1/cbx_cg_$$" 2>/dev/null; then
	echo 16M > "$MEMV1/cbx_cg_$$/memory.limit_in_bytes" &&
		{ echo 16M > "$MEMV1/cbx_cg_$$/memory.memsw.limit_in_bytes"; } 2>/dev/null
	LIM=v1
fi
if [ -n "$LIM" ] && tool_start o Tracing oomkill --show-cgroup; then
	if [ $LIM = v1 ]; then
		sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$MEMV1/cbx_cg_$$" sh -c \
			'echo $$ > "$1/cgroup.procs" && echo $$ > "$2" && exec python3 -c "s = b\"x\" * (256 << 20)"' \
			sh "$TOP/a" "$W/pid.a" > /dev/null 2>&1
	else
		in_cg a python3 -c 's = b"x" * (256 << 20)' > /dev/null 2>&1
	fi
	sleep 0.5
	snoop_stop "oomkill --show-cgroup"
	pid=$(cat "$W/pid.a")
	if awk -v c="$REL/a" -v p="$pid" '$1 == c && index($0, "OOM kill of PID " p " (")' "$W/o.out" | grep -q .; then
		ok "oomkill: the kill of pid $pid shown in $REL/a"
	else
		notok "oomkill: pid $pid in $REL/a: $(tail -3 "$W/o.out" | tr '\n' '|')"
	fi
elif [ -z "$LIM" ]; then
	ok "oomkill --show-cgroup # SKIP no memory controller (v2 or v1) to limit a helper with"
fi
[ "$LIM" = v2 ] && echo max > "$TOP/a/memory.max"
[ "$LIM" = v1 ] && rmdir "$MEMV1/cbx_cg_$$" 2>/dev/null

# ---- 9: mountsnoop -d --show-cgroup: a CGROUP: field in the block -----------------------------
mkdir -p "$W/mnt"
if tool_start m "" mountsnoop -d --show-cgroup; then
	sleep 1
	in_cg b mount -t tmpfs cbxcg "$W/mnt"
	umount "$W/mnt"
	sleep 0.3
	snoop_stop "mountsnoop -d --show-cgroup"
	pid=$(cat "$W/pid.b")
	if awk -v p="$pid" -v c="$REL/b" '$1 == "PID:" { at = ($2 == p) } at && $1 == "CGROUP:" && $2 == c' "$W/m.out" |
		grep -q .; then
		ok "mountsnoop -d: the mount by pid $pid has CGROUP: $REL/b"
	else
		notok "mountsnoop -d: pid $pid: $(grep -A8 "PID: *$pid" "$W/m.out" | tr '\n' '|')"
	fi
fi

# ---- 10: corebox run: the cgroup_id member of a record, named ---------------------------
# tests/run/cgroups.bpf.o sends {pid, comm, cgroup_id} for each getppid()
# of a task named cbxrun_*: one helper in A makes 5 calls, one in B 7.
if sh tests/run/gen.sh build/test/run > "$W/gen.out" 2>&1; then
	for d in a b; do cp build/test/run/getppid_n "$W/cbxrun_$d$$"; done
	for mode in -j --show-cgroup; do
		for d in a b; do
			"$W/cbxrun_$d$$" $([ $d = a ] && echo 5 || echo 7) > "$W/rh.$d" 2>&1 &
			eval "RH$d=\$!"
		done
		wait_for "$W/rh.a" '^ready' 50 && wait_for "$W/rh.b" '^ready' 50 &&
			echo "$RHa" > "$TOP/a/cgroup.procs" && echo "$RHb" > "$TOP/b/cgroup.procs"
		if tool_start r 'Running ' run build/test/run/cgroups.bpf.o $mode; then
			kill -USR1 "$RHa" "$RHb"
			wait_for "$W/rh.a" '^done' 50
			wait_for "$W/rh.b" '^done' 50
			sleep 0.3
			snoop_stop "run $mode"
			if [ $mode = -j ]; then
				got=$(python3 -c 'import json, sys
c = {}
for l in open(sys.argv[1]):
    o = json.loads(l)
    if "record" in o:
        assert list(o)[:3] == ["cgroup", "cgroup_id", "map"], list(o)
        assert o["cgroup_id"] == o["record"]["cgroup_id"]
        k = (o["cgroup"], o["record"]["pid"]); c[k] = c.get(k, 0) + 1
print(" ".join("%s:%d=%d" % (k[0], k[1], n) for k, n in sorted(c.items())))' "$W/r.out" 2>&1 | tail -1)
			else
				got=$(awk '$2 ~ /^pid=/ { sub("pid=", "", $2); n[$1 ":" $2]++ }
					END { for (k in n) print k "=" n[k] }' "$W/r.out" | sort | tr '\n' ' ' | sed 's/ $//')
			fi
			want="$REL/a:$RHa=5 $REL/b:$RHb=7"
			if [ "$got" = "$want" ]; then ok "run $mode: 5 records named $REL/a, 7 named $REL/b"
			else notok "run $mode: '$got', want '$want': $(head -c 300 "$W/r.out")"; fi
		fi
		kill -TERM "$RHa" "$RHb" 2>/dev/null
		wait "$RHa" "$RHb" 2>/dev/null
	done
else
	notok "run: tests/run/gen.sh failed: $(head -c 300 "$W/gen.out")"
fi

# ---- 11: uthreads --show-cgroup and -j: the 3 pthreads of a helper in A ---------------------
build_helper threads -O2 -pthread
mkfifo "$W/go"
for mode in --show-cgroup -j; do
	helper_start "$W/th" "$W/threads" "$W/go" 3 && echo "$HPID" > "$TOP/a/cgroup.procs" || {
		notok "uthreads $mode: helper did not start"
		continue
	}
	if tool_start u 'Tracing thread' uthreads $mode "$HPID"; then
		echo x > "$W/go"
		wait_pid "$HPID" 50
		sleep 0.3
		snoop_stop "uthreads $mode"
		if [ $mode = -j ]; then
			n=$(grep -c "^{\"time\":\"[^\"]*\",\"cgroup\":\"$REL/a\",\"cgroup_id\":$(stat -c %i "$TOP/a"),.*cbx_thread_main" "$W/u.out")
		else
			n=$(awk -v c="$REL/a" '$1 == c && $4 == "pthread" && $5 == "cbx_thread_main"' "$W/u.out" | wc -l)
			grep -Eq '^CGROUP +TIME +ID +TYPE +DESCRIPTION' "$W/u.out" || n="no CGROUP header"
		fi
		if [ "$n" = 3 ] && [ "$(grep -c cbx_thread_main "$W/u.out")" = 3 ]; then
			ok "uthreads $mode: the helper's 3 pthreads, each in $REL/a"
		else
			notok "uthreads $mode: '$n' of 3: $(head -c 400 "$W/u.out" | tr '\n' '|')"
		fi
	fi
	helper_stop
	HPID=
done

# ---- 12: memleak -t -j / --show-cgroup: a helper in B, its 9 allocations and 3 frees ------
build_helper cbx_leak -O0 -fno-omit-frame-pointer
for mode in -j --show-cgroup; do
	helper_start "$W/lk" "$W/cbx_leak" 6 4321 3 1234 && echo "$HPID" > "$TOP/b/cgroup.procs" || {
		notok "memleak -t $mode: helper did not start"
		continue
	}
	if tool_start lk 'Attaching to pid' memleak -t $mode -p "$HPID" 1; then
		kill -USR1 "$HPID"
		wait_for "$W/lk" '^done' 50
		sleep 0.5
		snoop_stop "memleak -t $mode"
		if [ $mode = -j ]; then
			got=$(grep -c "^{\"time\":\"[^\"]*\",\"cgroup\":\"$REL/b\",\"cgroup_id\":$(stat -c %i "$TOP/b"),\"event\":\"alloc_enter\",\"pid\":$HPID,\"size\":\(4321\|1234\)}" "$W/lk.out")
		else
			got=$(awk -v c="$REL/b" '$1 == c && $2 $3 == "allocentered," && ($6 == 4321 || $6 == 1234)' "$W/lk.out" | wc -l)
		fi
		all=$(grep -c 'alloc.enter.*size.*\(4321\|1234\)' "$W/lk.out")
		if [ "$got" = 9 ] && [ "$all" = 9 ]; then ok "memleak -t $mode: the helper's 9 allocations, each in $REL/b"
		else notok "memleak -t $mode: $got of $all in $REL/b, want 9: $(grep -m3 'alloc.enter' "$W/lk.out" | tr '\n' '|')"; fi
	fi
	helper_stop
	HPID=
done

[ "$fails" = 0 ] && echo "# $T: all passed" || echo "# $T: $fails failed"
exit $((fails != 0))
