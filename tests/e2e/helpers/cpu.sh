# What the CPU and scheduler tools' e2e tests share (sourced after
# tests/e2e/lib.sh; needs W, CB, T).

# The CPU the workloads run on: the last online one (CPU 1 on a 2-CPU box).
WCPU=$(awk -F'[-,]' '{ print $NF }' /sys/devices/system/cpu/online 2>/dev/null)
[ -n "$WCPU" ] || WCPU=0

# helper_start MODE ARGS...: tests/e2e/helpers/cbx_sched (built into $W)
# in the background; HPID, and the rest of its "ready" line in HREADY.
helper_start() {
	: > "$W/h.out"
	"$W/cbx_sched" "$@" > "$W/h.out" 2>&1 &
	HPID=$!
	if ! wait_for "$W/h.out" '^ready' 50; then
		notok "helper $1 did not start: $(head -c 200 "$W/h.out")"
		return 1
	fi
	HREADY=$(sed -n 's/^ready //p' "$W/h.out")
	return 0
}

# helper_go TENTHS: SIGUSR1, wait for its "done" line and its exit
helper_go() {
	kill -USR1 "$HPID"
	wait_for "$W/h.out" '^done' "$1" || notok "helper did not finish within $(($1 / 10)) s"
	reap "$HPID" 50
	HPID=
}

# helper_work TENTHS: SIGUSR1 and wait for its "done" line; a helper
# started with "linger" then waits for helper_stop
helper_work() {
	kill -USR1 "$HPID"
	wait_for "$W/h.out" '^done' "$1" || notok "helper did not finish within $(($1 / 10)) s"
}

# switches PID: the kernel's count of the thread's context switches
# (voluntary + involuntary).  Each run-queue wait of a thread follows one
# of them (it slept, or was preempted), so between two readings it has at
# most that many waits end, plus the one under way at the first.
switches() {
	awk '/^(non)?voluntary_ctxt_switches:/ { s += $2 } END { print s + 0 }' "/proc/$1/status" 2>/dev/null
}

helper_stop() {
	[ -n "$HPID" ] || return 0
	kill -TERM "$HPID" 2>/dev/null
	reap "$HPID" 50
	HPID=
}

# hist_rows FILE [SECTION]: "LOW COUNT" for each libbpf-tools log2 (or
# linear) histogram row; with SECTION only the rows after a line that is
# exactly SECTION, up to the next section line ("x = ...")
hist_rows() {
	awk -v sec="${2:-}" '
		sec != "" && $0 == sec { in_sec = 1; next }
		sec != "" && / = / && !/ -> / { in_sec = 0 }
		(sec == "" || in_sec) && /^ *[0-9]+ -> [0-9]+ *: [0-9]+/ { print $1, $5 }
		(sec == "" || in_sec) && /^ +[0-9]+ +: [0-9]+ +\|/ { print $1, $3 }' "$1"
}

# hist_sum FILE [SECTION] [MIN_LOW]: sum of the counts of rows whose low
# bound is at least MIN_LOW
hist_sum() {
	hist_rows "$1" "${2:-}" | awk -v m="${3:-0}" '$1 >= m { s += $2 } END { print s + 0 }'
}

# json_lines FILE: every line must parse as JSON; prints the count, or
# "bad: ..." (and status 1)
json_lines() {
	python3 - "$1" <<'PY'
import json, sys
n = 0
for i, l in enumerate(open(sys.argv[1])):
    try:
        json.loads(l)
        n += 1
    except Exception as e:
        print("bad: line %d: %s: %r" % (i + 1, e, l[:120]))
        sys.exit(1)
print(n)
PY
}

# prom_valid FILE: tests/e2e/promcheck.py's strict check of the Prometheus
# text format; prints the number of samples, or "bad: ..." (status 1)
prom_valid() {
	if python3 tests/e2e/promcheck.py "$1" > "$W/promcheck.json" 2> "$W/promcheck.err"; then
		python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$W/promcheck.json"
	else
		echo "bad: $(head -c 300 "$W/promcheck.err")"
		return 1
	fi
}

# prom_value FILE SERIES: the value of one series (exact name{labels})
prom_value() {
	awk -v s="$2" 'index($0, s " ") == 1 { print $NF; exit }' "$1"
}

# exits_2 LABEL ARGS...: corebox ARGS is a usage error
exits_2() {
	label=$1
	shift
	"$CB" "$@" > "$W/usage.out" 2>&1
	r=$?
	if [ "$r" = 2 ]; then ok "$label: exit 2"; else notok "$label: exit $r: $(head -c 200 "$W/usage.out")"; fi
}

# cpu_setup [cbx_sched]: the preamble of these tests (T set): CB, W,
# fails, TPID/HPID/SPID, the cleanup trap, the helpers built into $W and
# the BPF ids loaded before ($W/before)
cpu_setup() {
	CB=${COREBOX:-./corebox}
	W=$(mktemp -d "/var/tmp/cbx-$T.XXXXXX" 2>/dev/null || mktemp -d "/tmp/cbx-$T.XXXXXX")
	fails=0
	TPID= HPID= SPID=
	trap cpu_cleanup EXIT
	trap 'exit 1' INT TERM HUP PIPE
	need_corebox
	build_helper bpf_count
	[ "${1:-}" != cbx_sched ] || build_helper cbx_sched -O2 -pthread
	bpf_snapshot before
}

cpu_cleanup() {
	for p in $TPID $HPID $SPID; do kill -KILL "$p" 2>/dev/null; done
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
