#!/bin/sh
# exitsnoop end to end: children the test starts end with exit code 0,
# exit code 3 and SIGKILL after known minimum ages; each must be shown as
# such (PID, PPID, "0" / "code 3" / "signal 9 (Killed)", AGE at least the
# time the child was made to live); -x keeps only the failures; -p one
# process; -T adds each thread's own exit (a helper with exactly N
# pthreads); -c a cgroup v2 directory; JSON lines parse and carry the
# same exits; SIGINT ends it with status 0 and nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/exitsnoop.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-exitsnoop.XXXXXX)
T=exitsnoop
fails=0
TPID= CG=
ME=$$
. tests/e2e/lib.sh

cleanup() {
	[ -n "$TPID" ] && kill -KILL "$TPID" 2>/dev/null
	[ -n "$CG" ] && rmdir "$CG" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

threads_begin

# the three children: exit 0 after 0.3 s, exit 3 after 0.6 s, SIGKILL after 0.9 s
children() {
	sh -c 'sleep 0.3; exit 0' &
	P0=$!
	sh -c 'sleep 0.6; exit 3' &
	P3=$!
	sleep 5 &
	PK=$!
	sleep 0.9
	kill -KILL "$PK"
	wait "$P0" "$P3" "$PK" 2>/dev/null
}

# row PID FILE: the line of PID (PCOMM PID PPID TID AGE(s) EXIT_CODE...)
row() { awk -v p="$1" '$2 == p' "$2" | head -1; }

# check_exit LABEL FILE PID MIN_AGE WANT: the row shows WANT and an age >= MIN_AGE
check_exit() {
	line=$(row "$3" "$2")
	if [ -z "$line" ]; then
		notok "$1: no line for pid $3; got: $(head -5 "$2" | tr '\n' '|')"
		return
	fi
	label=$1 pid=$3 min=$4 want=$5
	set -- $line
	ppid=$3 tid=$4 age=$5
	shift 5
	what=$*
	if [ "$what" = "$want" ] && [ "$ppid" = "$ME" ] && [ "$tid" = "$pid" ] &&
		awk -v a="$age" -v m="$min" 'BEGIN { exit !(a >= m && a < m + 30) }'; then
		ok "$label: pid $pid '$what', PPID $ppid, age $age s (>= $min)"
	else
		notok "$label: pid $pid: '$what' age $age ppid $ppid tid $tid, expected '$want', age >= $min, ppid $ME"
	fi
}

# ---- 1: all exits --------------------------------------------------------------
if tool_start t PCOMM "$T"; then
	children
	sleep 0.3
	snoop_stop "plain run"
	check_exit "exit 0" "$W/t.out" "$P0" 0.3 "0"
	check_exit "exit 3" "$W/t.out" "$P3" 0.6 "code 3"
	check_exit "SIGKILL" "$W/t.out" "$PK" 0.9 "signal 9 (Killed)"
	if head -1 "$W/t.out" | grep -Eq '^PCOMM +PID +PPID +TID +AGE\(s\) +EXIT_CODE$'; then ok "header"
	else notok "header: $(head -1 "$W/t.out")"; fi
fi

# ---- 2: -x: failures only, -t column ---------------------------------------------
if tool_start t PCOMM "$T" -x -t; then
	children
	sleep 0.3
	snoop_stop "-x run"
	if [ -z "$(row "$P0" "$W/t.out")" ] && awk -v p="$P3" '$3 == p && $7 == "code" && $8 == 3' "$W/t.out" | grep -q . &&
		awk -v p="$PK" '$3 == p && $7 == "signal" && $8 == 9' "$W/t.out" | grep -q .; then
		ok "-x: the exit 0 is left out, code 3 and SIGKILL shown"
	else
		notok "-x: $(grep -E " ($P0|$P3|$PK) " "$W/t.out" | tr '\n' '|')"
	fi
	if head -1 "$W/t.out" | grep -Eq '^TIME\(s\) +PCOMM' && awk -v p="$P3" '$3 == p' "$W/t.out" | grep -Eq '^[0-9]{2}:[0-9]{2}:[0-9]{2} '; then
		ok "-t: TIME(s) header, HH:MM:SS rows (libbpf-tools)"
	else
		notok "-t layout: $(head -2 "$W/t.out" | tr '\n' '|')"
	fi
fi

# ---- 3: -T with exactly N threads, -p the helper --------------------------------
N=5
rm -f "$W/fifo" && mkfifo "$W/fifo"
"$W/threads" "$W/fifo" $N > "$W/helper" 2>&1 &
HP=$!
if wait_for "$W/helper" ready 50 && tool_start t PCOMM "$T" -T -p "$HP"; then
	printf x > "$W/fifo"
	wait "$HP"
	sleep 0.3
	snoop_stop "-T -p run"
	nthr=$(awk -v p="$HP" '$2 == p && $4 != p && $6 == 0' "$W/t.out" | wc -l)
	nmain=$(awk -v p="$HP" '$2 == p && $4 == p && $6 == 0' "$W/t.out" | wc -l)
	others=$(awk -v p="$HP" 'NR > 1 && $2 != p' "$W/t.out" | wc -l)
	if [ "$nthr" = $N ] && [ "$nmain" = 1 ] && [ "$others" = 0 ]; then
		ok "-T -p: $N thread exits + the process, nothing else"
	else
		notok "-T -p: $nthr thread lines (want $N), $nmain main (want 1), $others others: $(head -8 "$W/t.out" | tr '\n' '|')"
	fi
fi

# ---- 4: -c CGROUP (v2) -------------------------------------------------------------
CG2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
if [ -n "$CG2" ] && mkdir "$CG2/cbx_exitsnoop_$ME" 2>/dev/null; then
	CG=$CG2/cbx_exitsnoop_$ME
	if tool_start t PCOMM "$T" -c "$CG"; then
		sh -c "echo \$\$ > $CG/cgroup.procs; sleep 0.2; exit 7" &
		PIN=$!
		sh -c 'sleep 0.2; exit 8' &
		POUT=$!
		wait "$PIN" "$POUT"
		sleep 0.3
		snoop_stop "-c run"
		if awk -v p="$PIN" '$2 == p && $6 == "code" && $7 == 7' "$W/t.out" | grep -q . && [ -z "$(row "$POUT" "$W/t.out")" ]; then
			ok "-c: the exit inside the cgroup shown, the one outside not"
		else
			notok "-c: $(tail -n +2 "$W/t.out" | head -5 | tr '\n' '|')"
		fi
	fi
	rmdir "$CG" 2>/dev/null
	CG=
else
	notok "no cgroup v2 mount to test -c on"
fi

# ---- 5: JSON (no header to wait for: wait for the tool's own BPF link) ----------
if tool_start t "" "$T" -j; then
	children
	sleep 0.3
	kill -INT "$TPID"; wait "$TPID"; rc=$?; TPID=
else
	rc=start
fi
if [ $rc = 0 ] && python3 - "$W/t.out" "$P3" "$PK" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {r["pid"]: r for r in rows}
a, k = by[int(sys.argv[2])], by[int(sys.argv[3])]
assert a["exit_code"] == 3 and a["signal"] == 0 and not a["core_dumped"], a
assert k["signal"] == 9 and k["signal_name"] == "Killed" and k["age_s"] >= 0.9, k
PY
then ok "-j: JSON lines parse; exit_code 3 and signal 9 carried"
else notok "-j: status $rc, output: $(head -c 400 "$W/t.out")"; fi

snoop_left
[ "$fails" = 0 ]
