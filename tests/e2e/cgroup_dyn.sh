#!/bin/sh
# Container identity on the events of the dynamic tracers (issue 21,
# part 2): the test makes two cgroup v2 directories A and B and runs the
# dynamic-tracing helper (tests/e2e/helpers/cbx_dyn.c) once in each: N
# calls of cbx_dyn_inner, 3 sleeps of 20 ms in cbx_dyn_sleep.
# trace --show-cgroup on cbx_dyn_inner (both processes, no -p) must show
# exactly N rows under A's path for A's helper and N under B's for B's
# (header CGROUP first); trace -j puts "cgroup" and "cgroup_id" (the
# directory's inode) on each line, the same counts; without the option
# the layout is bcc's (PID first).  funcslower --show-cgroup -m 10 on cbx_dyn_sleep: 3 rows
# per helper, each under its own cgroup; -j the same in "cgroup".
# javagc --show-cgroup / -j: the stand-in JVM (javagc.sh) in A, its 7
# pauses all under A's path.
# Run as root from the repository root: sh tests/e2e/cgroup_dyn.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-cgdyn.XXXXXX)
T=cgroup_dyn
N=30
fails=0
TPID= TOP= HA= HB= HPID=
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HA $HB $HPID; do kill -KILL "$p" 2>/dev/null; done
	sleep 0.1
	[ -n "$TOP" ] && rmdir "$TOP/a" "$TOP/b" "$TOP" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
cgroup2_dir cbx_cgd_$$
mkdir "$TOP/a" "$TOP/b"
REL=/cbx_cgd_$$
build_helper cbx_dyn -O2 -fno-omit-frame-pointer
H=$W/cbx_dyn

# two_helpers: one cbx_dyn in A (pid HA), one in B (HB), both waiting
two_helpers() {
	"$H" $N 0 > "$W/ha" 2>&1 &
	HA=$!
	"$H" $N 0 > "$W/hb" 2>&1 &
	HB=$!
	wait_for "$W/ha" '^ready' 50 && wait_for "$W/hb" '^ready' 50 &&
		echo "$HA" > "$TOP/a/cgroup.procs" && echo "$HB" > "$TOP/b/cgroup.procs"
}

# run_helpers LABEL: let both helpers run, stop the tool, end them
run_helpers() {
	kill -USR1 "$HA" "$HB"
	wait_for "$W/ha" '^done' 100 && wait_for "$W/hb" '^done' 100 || notok "$1: helpers did not finish"
	sleep 0.3
	snoop_stop "$1"
	kill -TERM "$HA" "$HB" 2>/dev/null
	wait "$HA" "$HB" 2>/dev/null
	HA= HB=
}

# text_rows FILE PID CGROUP PATTERN: rows of PID whose first column is
# CGROUP and that match PATTERN; all_rows FILE PID PATTERN: any column 1
text_rows() { awk -v p="$2" -v c="$3" -v pat="$4" '$1 == c && $2 == p && $0 ~ pat' "$1" | wc -l; }

# json_count FILE PID CGROUP ID FUNCKEY PATTERN: lines of PID with that
# cgroup and id whose FUNCKEY value matches PATTERN; "bad" when a line
# does not parse or has no cgroup
json_count() {
	python3 -c 'import json, sys
f, pid, cg, cid, key, pat = sys.argv[1:]
n = 0
for l in open(f):
    o = json.loads(l)
    if list(o)[:3] != ["time", "cgroup", "cgroup_id"]:
        print("bad:", l.strip()); sys.exit()
    if o["pid"] == int(pid) and pat in str(o[key]) and o["cgroup"] == cg and o["cgroup_id"] == int(cid):
        n += 1
print(n)' "$@" 2>&1 | tail -1
}

IA=$(stat -c %i "$TOP/a")
IB=$(stat -c %i "$TOP/b")

# ---- 1: trace --show-cgroup: the CGROUP column ------------------------------------
if two_helpers && tool_start tt 'PID' trace --show-cgroup "$H:cbx_dyn_inner \"x=%d\", arg1"; then
	run_helpers "trace --show-cgroup"
	if head -1 "$W/tt.out" | grep -Eq '^CGROUP +PID +TID +COMM +FUNC +-$'; then ok "trace: header starts with CGROUP"
	else notok "trace: header: $(head -1 "$W/tt.out")"; fi
	a=$(text_rows "$W/tt.out" "$(awk '/^ready/ { print $2 }' "$W/ha")" "$REL/a" 'cbx_dyn_inner +x=[0-9]+$')
	b=$(text_rows "$W/tt.out" "$(awk '/^ready/ { print $2 }' "$W/hb")" "$REL/b" 'cbx_dyn_inner +x=[0-9]+$')
	rows=$(($(wc -l < "$W/tt.out") - 1))
	if [ "$a" = $N ] && [ "$b" = $N ] && [ "$rows" = $((2 * N)) ]; then
		ok "trace --show-cgroup: $N calls under $REL/a, $N under $REL/b, no other row"
	else
		notok "trace --show-cgroup: $a in a, $b in b, $rows rows, want $N $N $((2 * N)): $(head -3 "$W/tt.out" | tr '\n' '|')"
	fi
fi

# ---- 2: trace -j: "cgroup" and "cgroup_id" -----------------------------------------
if two_helpers && tool_start tj 'PID' trace -j "$H:cbx_dyn_inner \"x=%d\", arg1"; then
	pa=$(awk '/^ready/ { print $2 }' "$W/ha")
	pb=$(awk '/^ready/ { print $2 }' "$W/hb")
	run_helpers "trace -j"
	a=$(json_count "$W/tj.out" "$pa" "$REL/a" "$IA" msg x=)
	b=$(json_count "$W/tj.out" "$pb" "$REL/b" "$IB" msg x=)
	if [ "$a" = $N ] && [ "$b" = $N ] && [ "$(wc -l < "$W/tj.out")" = $((2 * N)) ]; then
		ok "trace -j: $N events with cgroup $REL/a (id $IA), $N with $REL/b (id $IB)"
	else
		notok "trace -j: '$a' '$b', want $N: $(head -c 300 "$W/tj.out")"
	fi
fi

# ---- 3: trace without the option: bcc's layout ------------------------------------
if two_helpers && tool_start tp 'PID' trace "$H:cbx_dyn_inner"; then
	run_helpers "trace (plain)"
	if head -1 "$W/tp.out" | grep -Eq '^PID +TID +COMM +FUNC *$' && [ "$(grep -c ' cbx_dyn_inner *$' "$W/tp.out")" = $((2 * N)) ]; then
		ok "trace without --show-cgroup: bcc's layout (PID first), $((2 * N)) rows"
	else
		notok "trace plain: $(head -3 "$W/tp.out" | tr '\n' '|')"
	fi
fi

# ---- 4: funcslower --show-cgroup and -j ------------------------------------------
if two_helpers && tool_start ft 'LAT(ms)' funcslower --show-cgroup -m 10 "$H:cbx_dyn_sleep"; then
	pa=$(awk '/^ready/ { print $2 }' "$W/ha")
	pb=$(awk '/^ready/ { print $2 }' "$W/hb")
	run_helpers "funcslower --show-cgroup"
	# CGROUP COMM PID LAT RVAL FUNC
	a=$(awk -v p="$pa" -v c="$REL/a" '$1 == c && $2 == "cbx_dyn" && $3 == p && $6 ~ /cbx_dyn_sleep$/' "$W/ft.out" | wc -l)
	b=$(awk -v p="$pb" -v c="$REL/b" '$1 == c && $2 == "cbx_dyn" && $3 == p && $6 ~ /cbx_dyn_sleep$/' "$W/ft.out" | wc -l)
	if sed -n 2p "$W/ft.out" | grep -Eq '^CGROUP +COMM +PID +LAT\(ms\) +RVAL FUNC$' && [ "$a" = 3 ] && [ "$b" = 3 ] &&
		[ "$(wc -l < "$W/ft.out")" = 8 ]; then
		ok "funcslower --show-cgroup: CGROUP header, 3 slow calls under $REL/a, 3 under $REL/b"
	else
		notok "funcslower --show-cgroup: $a in a, $b in b: $(tr '\n' '|' < "$W/ft.out")"
	fi
fi
if two_helpers && tool_start fj 'LAT(ms)' funcslower -j -m 10 "$H:cbx_dyn_sleep"; then
	pa=$(awk '/^ready/ { print $2 }' "$W/ha")
	pb=$(awk '/^ready/ { print $2 }' "$W/hb")
	run_helpers "funcslower -j"
	a=$(json_count "$W/fj.out" "$pa" "$REL/a" "$IA" function cbx_dyn_sleep)
	b=$(json_count "$W/fj.out" "$pb" "$REL/b" "$IB" function cbx_dyn_sleep)
	if [ "$a" = 3 ] && [ "$b" = 3 ] && [ "$(wc -l < "$W/fj.out")" = 6 ]; then
		ok "funcslower -j: 3 events with cgroup $REL/a, 3 with $REL/b"
	else
		notok "funcslower -j: '$a' '$b', want 3 3: $(head -c 300 "$W/fj.out")"
	fi
fi

# ---- 5: javagc --show-cgroup and -j: the stand-in JVM in A --------------------------
if echo '#include <sys/sdt.h>' | $CC -E - > /dev/null 2>&1 &&
	$CC -O2 -shared -fPIC -o "$W/libjvm.so" tests/e2e/helpers/cbx_libjvm.c &&
	$CC -O2 -o "$W/cbx_javagc" tests/e2e/helpers/cbx_javagc.c -L"$W" -ljvm -Wl,-rpath,"$W"; then
	for mode in --show-cgroup -j; do
		helper_start "$W/jh" "$W/cbx_javagc" 4 3 10 && echo "$HPID" > "$TOP/a/cgroup.procs" || {
			notok "javagc $mode: helper did not start"
			continue
		}
		if tool_start jg 'GC TIME' javagc -p "$HPID" $mode; then
			kill -USR1 "$HPID"
			wait_for "$W/jh" '^done' 100 || notok "javagc $mode: helper did not finish"
			sleep 0.3
			snoop_stop "javagc $mode"
			if [ $mode = -j ]; then
				n=$(json_count "$W/jg.out" "$HPID" "$REL/a" "$IA" gc_time_us "")
				all=$(wc -l < "$W/jg.out")
			else
				n=$(awk -v c="$REL/a" -v p="$HPID" '$1 == c && $4 == p && $5 >= 20000' "$W/jg.out" | wc -l)
				all=$(($(wc -l < "$W/jg.out") - 2))
				sed -n 2p "$W/jg.out" | grep -Eq '^CGROUP +TIME +CPU +PID +GC TIME$' || n="header: $(sed -n 2p "$W/jg.out")"
			fi
			if [ "$n" = 7 ] && [ "$all" = 7 ]; then ok "javagc $mode: the 7 pauses, each under $REL/a"
			else notok "javagc $mode: '$n' of $all: $(head -c 300 "$W/jg.out" | tr '\n' '|')"; fi
		fi
		helper_stop
		HPID=
	done
else
	notok "javagc: cannot build the libjvm.so stand-in (sys/sdt.h: tests/install-deps.sh)"
fi

[ "$fails" = 0 ] && echo "# $T: all passed" || echo "# $T: $fails failed"
exit $((fails != 0))
