#!/bin/sh
# corebox run end to end, with objects written in plain libbpf style
# (tests/run/*.bpf.c, no corebox headers): a helper named cbxrun_PID makes
# exactly N getppid() calls; the ring buffer and perf buffer objects must
# print N records decoded from BTF (pid=HELPER comm=cbxrun_PID count=K),
# the counting object's maps must hold HELPER -> N at exit (hash, struct
# value, per-CPU sum, .bss, .kconfig); --dry-run lists programs and maps
# and attaches nothing (checked while it is still loaded); bad input gives
# one line and status 1 (2 for usage).  Every wait is bounded.
# Run as root from the repository root: sh tests/e2e/run.sh
set -u
CB=${COREBOX:-./corebox}
B=build/test/run
W=$(mktemp -d /tmp/cbx-run.XXXXXX)
ME=$$
N=37
T=run
fails=0
HPID= TPID= DPID= CATPID=
. tests/e2e/lib.sh

HELPER=/tmp/cbxrun_$ME           # comm: cbxrun_PID (< 16 chars)
COMM=$(basename "$HELPER" | cut -c1-15)

cleanup() {
	for p in $TPID $HPID $DPID $CATPID; do kill -KILL "$p" 2>/dev/null; done
	[ -n "${KEEP:-}" ] || rm -rf "$W" "$HELPER"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
if ! sh tests/run/gen.sh $B > "$W/gen.out" 2>&1; then
	echo "not ok - run: tests/run/gen.sh failed: $(head -c 600 "$W/gen.out")"
	exit 1
fi
HAVE_COUNT=
if [ -f tests/e2e/helpers/bpf_count.c ] && $CC -O2 -o "$W/bpf_count" tests/e2e/helpers/bpf_count.c; then
	HAVE_COUNT=1
	bpf_snapshot before
fi
cp "$B/getppid_n" "$HELPER" && chmod 755 "$HELPER"

# links of program NAME now loaded (needs bpf_count): prints "link ID PROG"
links_of() {
	"$W/bpf_count" > "$W/now" 2>/dev/null
	awk -v n="$1" '$1 == "prog" && $3 == n { p[$2] = 1 } $1 == "link" && ($3 in p) { print }' "$W/now"
}

# go NAME SIGNAL OBJ [ARGS...]: start the helper and corebox run, trigger
# N calls, stop corebox run with SIGNAL (or let -d end it: SIGNAL "none");
# output in $W/NAME.out/.err, exit status in $W/NAME.rc.
go() {
	name=$1 sig=$2
	shift 2
	: > "$W/$name.helper"
	"$HELPER" $N > "$W/$name.helper" 2>&1 &
	HPID=$!
	if ! wait_for "$W/$name.helper" '^ready' 50; then
		notok "$name: helper did not start"
		return 1
	fi
	rm -f "$W/$name.out"
	: > "$W/$name.out"
	"$CB" run "$@" > "$W/$name.out" 2> "$W/$name.err" &
	TPID=$!
	rf=$W/$name.out # the banner: stdout, or stderr under -j
	case " $* " in *" -j "*) rf=$W/$name.err ;; esac
	if ! wait_for "$rf" '^Running ' 150; then
		notok "$name: corebox run did not start: $(head -c 600 "$W/$name.err")"
		kill -KILL "$TPID" "$HPID" 2>/dev/null
		wait "$TPID" 2>/dev/null
		wait "$HPID" 2>/dev/null
		TPID= HPID=
		return 1
	fi
	if [ -n "$HAVE_COUNT" ]; then
		links_of "$PROG" > "$W/$name.links"
	fi
	kill -USR1 "$HPID"
	wait_for "$W/$name.helper" '^done' 100 || notok "$name: helper did not finish its calls"
	sleep 0.3
	[ "$sig" = none ] || kill "-$sig" "$TPID"
	if wait_exit "$TPID" 60; then
		wait "$TPID"
		echo $? > "$W/$name.rc"
	else
		echo timeout > "$W/$name.rc"
		kill -KILL "$TPID" 2>/dev/null
		wait "$TPID" 2>/dev/null
	fi
	TPID=
	kill -TERM "$HPID" 2>/dev/null
	wait "$HPID" 2>/dev/null
	return 0
}

check_rc() { # NAME WHAT
	rc=$(cat "$W/$1.rc" 2>/dev/null)
	if [ "$rc" = 0 ]; then ok "$1: $2, exit status 0"
	else notok "$1: $2: status '$rc' (stderr: $(head -c 300 "$W/$1.err"))"; fi
}

# records: N lines "pid=HPID comm=COMM count=K", K = 1..N in order
check_records() { # NAME
	got=$(grep -c "^pid=$HPID_SEEN comm=$COMM count=[0-9]*\$" "$W/$1.out")
	last=$(grep "^pid=$HPID_SEEN comm=$COMM count=" "$W/$1.out" | tail -1)
	if [ "$got" = $N ] && [ "$last" = "pid=$HPID_SEEN comm=$COMM count=$N" ]; then
		ok "$1: $N records decoded from BTF: '$last'"
	else
		notok "$1: $got records for pid $HPID_SEEN (expected $N); output: $(head -c 500 "$W/$1.out")"
	fi
	if grep -q '^Lost ' "$W/$1.out"; then notok "$1: events lost: $(grep '^Lost ' "$W/$1.out")"; fi
}

# ---- 1. ring buffer -----------------------------------------------------
PROG=on_getppid
if go ringbuf INT "$B/ringbuf.bpf.o"; then
	HPID_SEEN=$(awk '/^ready/ { print $2 }' "$W/ringbuf.helper")
	check_rc ringbuf "stops on SIGINT"
	check_records ringbuf
	if grep -qx 'on_getppid (tracepoint/syscalls/sys_enter_getppid): tracepoint' "$W/ringbuf.out"; then
		ok "ringbuf: program attached by its section name (tracepoint)"
	else
		notok "ringbuf: attach line: $(head -2 "$W/ringbuf.out")"
	fi
	if grep -qx "  submitted=$N" "$W/ringbuf.out" && grep -qx '  data_tag=7' "$W/ringbuf.out" &&
		grep -qx '  count_base=0' "$W/ringbuf.out"; then
		ok "ringbuf: .bss/.data/.rodata variables printed by name at exit"
	else
		notok "ringbuf: global data dump: $(sed -n '/^\.rodata:/,$p' "$W/ringbuf.out" | head -8 | tr '\n' '|')"
	fi
	if [ -n "$HAVE_COUNT" ]; then
		if [ -s "$W/ringbuf.links" ]; then ok "ringbuf: a BPF link exists while running"
		else echo "# ringbuf: no BPF link seen while running (kernel without perf links?)"; fi
	fi
fi

# ---- 2. perf buffer -----------------------------------------------------
if go perfbuf TERM "$B/perfbuf.bpf.o"; then
	HPID_SEEN=$(awk '/^ready/ { print $2 }' "$W/perfbuf.helper")
	check_rc perfbuf "stops on SIGTERM"
	check_records perfbuf
	if grep -qx 'on_getppid (tp/syscalls/sys_enter_getppid): tracepoint' "$W/perfbuf.out"; then
		ok "perfbuf: tp/ section attached"
	else
		notok "perfbuf: attach line: $(head -2 "$W/perfbuf.out")"
	fi
fi

# ---- 3. maps at exit (-d ends the run) -----------------------------------
PROG=count_getppid
start=$(date +%s)
if go counts none "$B/counts.bpf.o" -d 3; then
	end=$(date +%s)
	H=$(awk '/^ready/ { print $2 }' "$W/counts.helper")
	check_rc counts "-d 3 ends the run by itself"
	[ $((end - start)) -le 8 ] || notok "counts: -d 3 took $((end - start)) s"
	# "map calls (hash):" then "  PID: N"
	got=$(awk '/^map calls / { m = 1; next } /^[^ ]/ { m = 0 } m' "$W/counts.out")
	if [ "$got" = "  $H: $N" ]; then
		ok "counts: hash map dump has $H: $N (key = tgid read through CO-RE)"
	else
		notok "counts: map calls: '$got', expected '  $H: $N'; output: $(head -c 600 "$W/counts.out")"
	fi
	want="  $H: {comm=$COMM kind=KIND_GETPPID small=5 big=4097 neg=-42 first=[$H,0]}"
	if grep -qxF -- "$want" "$W/counts.out"; then
		ok "counts: struct value decoded (string, enum name, bitfields, signed, array)"
	else
		notok "counts: struct value: $(grep -A1 '^map info' "$W/counts.out" | tail -1), expected '$want'"
	fi
	if grep -qx "  0: $N (sum over CPUs)" "$W/counts.out"; then
		ok "counts: per-CPU array summed over CPUs"
	else
		notok "counts: per-CPU: $(grep -A1 '^map percpu_calls' "$W/counts.out" | tr '\n' '|')"
	fi
	kv=$(awk -F= '/^  LINUX_KERNEL_VERSION=/ { print $2 }' "$W/counts.out")
	if grep -qx "  total_calls=$N" "$W/counts.out" && [ -n "$kv" ] && [ "$kv" != 0 ] &&
		grep -qx "  kernel_version=$kv" "$W/counts.out"; then
		ok "counts: .bss counter $N and .kconfig LINUX_KERNEL_VERSION=$kv"
	else
		notok "counts: globals: $(sed -n '/^\.bss:/,$p' "$W/counts.out" | tr '\n' '|')"
	fi
fi

# ---- 3b. -j: records and maps as JSON lines, status lines on stderr -------
PROG=on_getppid
if go ringbuf_json INT "$B/ringbuf.bpf.o" -j; then
	HPID_SEEN=$(awk '/^ready/ { print $2 }' "$W/ringbuf_json.helper")
	check_rc ringbuf_json "-j stops on SIGINT"
	if python3 - "$W/ringbuf_json.out" "$HPID_SEEN" "$COMM" $N > "$W/rj.why" 2>&1 <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
pid, comm, n = int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
objs = [json.loads(l) for l in lines]  # every stdout line is JSON
recs = [o["record"] for o in objs if "record" in o and o["record"].get("pid") == pid]
assert [r["count"] for r in recs] == list(range(1, n + 1)), [r.get("count") for r in recs]
assert all(r["comm"] == comm and o["map"] for r, o in zip(recs, objs)), recs[:2]
g = {o["map"]: o.get("values") for o in objs if "values" in o}
assert g[".bss"]["submitted"] == n and g[".data"]["data_tag"] == 7, g
PY
	then ok "ringbuf -j: $N records as JSON (pid, comm, count 1..$N), globals by name, nothing else on stdout"
	else notok "ringbuf -j: $(tail -c 400 "$W/rj.why") output: $(head -c 300 "$W/ringbuf_json.out")"; fi
	if grep -q '^on_getppid (tracepoint/syscalls/sys_enter_getppid): tracepoint' "$W/ringbuf_json.err"; then
		ok "ringbuf -j: the attach line went to stderr"
	else notok "ringbuf -j: stderr: $(head -c 300 "$W/ringbuf_json.err")"; fi
fi
PROG=count_getppid
if go counts_json none "$B/counts.bpf.o" -d 3 -j; then
	H=$(awk '/^ready/ { print $2 }' "$W/counts_json.helper")
	check_rc counts_json "-j -d 3"
	if python3 - "$W/counts_json.out" "$H" "$COMM" $N > "$W/cj.why" 2>&1 <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()]
h, comm, n = int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
m = {o["map"]: o for o in objs}
assert {"key": h, "value": n} in m["calls"]["entries"], m["calls"]
info = [e["value"] for e in m["info"]["entries"] if e["key"] == h][0]
assert info == {"comm": comm, "kind": "KIND_GETPPID", "small": 5, "big": 4097, "neg": -42,
                "first": [h, 0]}, info
assert {"key": 0, "value": n} in m["percpu_calls"]["entries"], m["percpu_calls"]
assert m[".bss"]["values"]["total_calls"] == n, m[".bss"]
PY
	then ok "counts -j: hash $H: $N, struct value as an object (enum name, bitfields, array), per-CPU sum, .bss"
	else notok "counts -j: $(tail -c 400 "$W/cj.why") output: $(head -c 400 "$W/counts_json.out")"; fi
fi

# ---- 4. --dry-run: listed while loaded, nothing attached -----------------
# Its stdout is a FIFO filled beforehand, so it blocks writing the report
# while its programs are still loaded: look for a link to them right then.
mkfifo "$W/fifo"
exec 3<> "$W/fifo"
if timeout 5 dd if=/dev/zero bs=4096 count=16 status=none | tr '\0' '\n' >&3; then
	"$CB" run "$B/ringbuf.bpf.o" --dry-run > "$W/fifo" 2> "$W/dry.err" &
	DPID=$!
	seen= linked=
	if [ -n "$HAVE_COUNT" ]; then
		i=0
		while [ $i -lt 100 ] && kill -0 "$DPID" 2>/dev/null; do
			"$W/bpf_count" > "$W/now" 2>/dev/null
			if grep -q '^prog [0-9]* on_getppid$' "$W/now"; then
				sleep 0.2 # blocked in write(): it will not attach now
				seen=1
				linked=$(links_of on_getppid)
				break
			fi
			sleep 0.1
			i=$((i + 1))
		done
	fi
	cat "$W/fifo" > "$W/dry.raw" &
	CATPID=$!
	exec 3>&-
	if wait_exit "$DPID" 100; then wait "$DPID"; rc=$?; else rc=timeout; kill -KILL "$DPID"; fi
	DPID=
	wait_exit "$CATPID" 20 || kill -KILL "$CATPID" 2>/dev/null
	CATPID=
	grep -v '^$' "$W/dry.raw" > "$W/dry.out"
	if [ "$rc" = 0 ] && grep -Eq '^on_getppid +tracepoint/syscalls/sys_enter_getppid +[0-9]+ +loaded$' "$W/dry.out" &&
		grep -Eq '^events +ringbuf +0 +0 +65536  records: event$' "$W/dry.out" && grep -Eq '^\.bss +array +4 +8 +1$' "$W/dry.out" &&
		grep -Eq '^PROGRAM +SECTION +INSNS +STATUS$' "$W/dry.out" && ! grep -q '^Running' "$W/dry.out"; then
		ok "--dry-run lists programs (with instruction counts) and maps"
	else
		notok "--dry-run: status $rc, output: $(head -c 600 "$W/dry.out") $(head -c 300 "$W/dry.err")"
	fi
	if [ -z "$HAVE_COUNT" ]; then
		ok "--dry-run: no BPF link # SKIP no tests/e2e/helpers/bpf_count.c"
	elif [ -n "$seen" ] && [ -z "$linked" ]; then
		ok "--dry-run: program loaded, no BPF link to it"
	else
		notok "--dry-run: seen loaded '$seen', links: '$linked'"
	fi
else
	exec 3>&-
	notok "--dry-run: cannot fill the FIFO"
fi

# ---- 5. errors -----------------------------------------------------------
one_line_err() { # NAME WANT_RC ARGS...
	name=$1 want=$2
	shift 2
	"$CB" run "$@" > "$W/e.out" 2> "$W/e.err"
	rc=$?
	lines=$(wc -l < "$W/e.err")
	if [ "$rc" = "$want" ] && [ "$lines" = 1 ] && grep -q '^corebox run: ' "$W/e.err" && [ ! -s "$W/e.out" ]; then
		ok "$name: exit $rc, '$(cat "$W/e.err")'"
	else
		notok "$name: exit $rc (want $want), $lines stderr lines: $(head -c 300 "$W/e.err")"
	fi
}
head -c 1000 "$B/ringbuf.bpf.o" > "$W/trunc.bpf.o"
one_line_err "truncated object" 1 "$W/trunc.bpf.o"
one_line_err "missing file" 1 "$W/no-such.bpf.o"
one_line_err "not an ELF file" 1 /etc/hostname
one_line_err "--btf with a missing file (object needs CO-RE)" 1 "$B/counts.bpf.o" --dry-run --btf "$W/no-such-btf"
if [ -f /sys/kernel/btf/vmlinux ]; then
	if "$CB" run "$B/counts.bpf.o" --dry-run --btf /sys/kernel/btf/vmlinux 2>&1 | grep -Eq '^count_getppid .* loaded$'; then
		ok "--btf FILE: CO-RE object loads against the given BTF"
	else
		notok "--btf /sys/kernel/btf/vmlinux: $("$CB" run "$B/counts.bpf.o" --dry-run --btf /sys/kernel/btf/vmlinux 2>&1 | head -c 300)"
	fi
fi
"$CB" run --no-such-flag "$B/ringbuf.bpf.o" > /dev/null 2> "$W/e.err"
rc=$?
if [ $rc = 2 ] && grep -q "^corebox run: unrecognized option '--no-such-flag'" "$W/e.err"; then ok "bad flag: exit 2"
else notok "bad flag: exit $rc: $(head -c 200 "$W/e.err")"; fi
"$CB" run > /dev/null 2>&1
rc=$?
if [ $rc = 2 ]; then ok "no object: exit 2"; else notok "no object: exit $rc"; fi

# ---- nothing left loaded ---------------------------------------------------
if [ -n "$HAVE_COUNT" ]; then
	left=$(bpf_left '^prog [0-9]+ (on_getppid|count_getppid)$')
	if [ -z "$left" ]; then ok "no program of ours left loaded"
	else notok "programs left loaded: $(echo "$left" | tr '\n' '|')"; fi
fi

[ "$fails" = 0 ]
