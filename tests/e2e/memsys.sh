#!/bin/sh
# mmapsnoop, brkstack and shmsnoop end to end: a helper maps a file of a
# unique name exactly N times (PAGES pages, read-only, private), makes
# exactly M brk() calls from cbx_brk_marker(), then shmget (SHM bytes),
# shmat (read-only), shmdt, shmctl(IPC_RMID).  Each tool, filtered to the
# helper, must show exactly those: N mmap lines "R-- -P-- 0 SIZE(KB)
# FILE", a brk stack through cbx_brk_marker counted M times, and the four
# shm calls in order with their arguments and results.  JSON forms parse
# and carry the same; SIGINT exits 0; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/memsys.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cb-memsys.XXXXXX)
N=7
PAGES=123
M=11
SHM=49380
T=memsys
fails=0
HPID= TPID=
. tests/e2e/lib.sh
. tests/e2e/helpers/mem.sh

bg_traps

need_corebox
mem_build cbx_memsys
bpf_count_build
bpf_snapshot before
FILE=cbxmap_$$
dd if=/dev/zero of="$W/$FILE" bs=4096 count=$PAGES status=none

# run LABEL READY TOOL ARGS...: trace the helper's calls (@PID@ = its pid)
run() {
	label=$1 ready=$2
	shift 2
	: > "$W/helper.out"
	"$W/cbx_memsys" "$W/$FILE" $N $PAGES $M $SHM > "$W/helper.out" 2>&1 &
	HPID=$!
	wait_for "$W/helper.out" '^ready' 50 || { notok "$label: helper did not start"; return 1; }
	for a in "$@"; do
		shift
		[ "$a" = @PID@ ] && a=$HPID
		set -- "$@" "$a"
	done
	tool_start "$label" "$ready" "$@" || { kill -KILL "$HPID"; wait "$HPID" 2>/dev/null; HPID=; return 1; }
	kill -USR1 "$HPID"
	wait_for "$W/helper.out" '^done' 50 || notok "$label: helper did not finish"
	sleep 0.3
	tstop "$label" 30
	kill -KILL "$HPID" 2>/dev/null
	wait "$HPID" 2>/dev/null
	HPID=
	return 0
}

# 1. mmapsnoop: N lines for the file, with -T a time column
KB=$((PAGES * 4))
if run mmap '^TIME ' mmapsnoop -T -p @PID@; then
	c=$(awk -v f="$FILE" -v kb=$KB '$1 ~ /^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$/ && $4 == "R--" && $5 == "-P--" && $6 == 0 && $7 == kb && $8 == f' "$W/mmap.out" | wc -l)
	if [ "$c" = $N ]; then ok "mmapsnoop: $N lines 'R-- -P-- 0 $KB $FILE'"
	else notok "mmapsnoop: $c lines for $FILE (want $N): $(grep "$FILE" "$W/mmap.out" | head -3)"; fi
	if head -1 "$W/mmap.out" | grep -Eq '^TIME     PID    COMM           PROT MAP   OFFS\(KB\) SIZE\(KB\) FILE$'; then
		ok "mmapsnoop: the book's header"
	else
		notok "mmapsnoop header: $(head -1 "$W/mmap.out")"
	fi
fi
if run mmapj '' mmapsnoop -j -p @PID@; then
	json_ok mmapj
	c=$(python3 -c 'import json,sys
n = sum(1 for l in open(sys.argv[1]) if l.strip() for e in [json.loads(l)]
        if e["file"] == sys.argv[2] and e["size"] == int(sys.argv[3]) and e["prot"] == "R--")
print(n)' "$W/mmapj.out" "$FILE" $((PAGES * 4096)) 2>&1)
	if [ "$c" = $N ]; then ok "mmapsnoop -j: $N events for $FILE"; else notok "mmapsnoop -j: '$c' events (want $N)"; fi
fi

# 2. brkstack: the marker's stack counted exactly M times
if run brk '^Attaching 1 probe' brkstack -p @PID@; then
	c=$(awk '/^@\[$/ { s = "" } { s = s $0 "\n" } /^, cbx_memsys\]: [0-9]+$/ && s ~ /cbx_brk_marker/ { sub(/.*: /, ""); print; exit }' "$W/brk.out")
	if [ "$c" = $M ]; then ok "brkstack: @[ustack with cbx_brk_marker, cbx_memsys]: $M"
	else notok "brkstack: count '$c' (want $M): $(head -c 600 "$W/brk.out")"; fi
fi
if run brkj '' brkstack -j -p @PID@; then
	json_ok brkj
	c=$(python3 -c 'import json,sys
d = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
print(sum(e["count"] for e in d["counts"] if any("cbx_brk_marker" in f for f in e["user"])))' "$W/brkj.out" 2>&1)
	if [ "$c" = $M ]; then ok "brkstack -j: $M calls from cbx_brk_marker"; else notok "brkstack -j: '$c' (want $M)"; fi
fi

# 3. shmsnoop: exactly the four calls, in order, with their arguments
if run shm '^TIME(s) ' shmsnoop -T -p @PID@; then
	awk '$3 == "cbx_memsys"' "$W/shm.out" > "$W/shm.rows"
	addr=$(sed -n 's/.*shmaddr=\([0-9a-f]*\).*/\1/p' "$W/helper.out")
	id=$(sed -n 's/.*shmid=\([0-9]*\).*/\1/p' "$W/helper.out")
	idhex=$(printf '%x' "$id")
	if [ "$(wc -l < "$W/shm.rows")" = 4 ] &&
		sed -n 1p "$W/shm.rows" | grep -Eq " SHMGET +$idhex key: 0x0, size: $SHM, shmflg: 0x380 \\(IPC_CREAT\\|0600\\)\$" &&
		sed -n 2p "$W/shm.rows" | grep -Eq " SHMAT +$addr shmid: 0x$idhex, shmaddr: 0x0, shmflg: 0x1000 \\(SHM_RDONLY\\)\$" &&
		sed -n 3p "$W/shm.rows" | grep -Eq " SHMDT +0 shmaddr: 0x$addr\$" &&
		sed -n 4p "$W/shm.rows" | grep -Eq " SHMCTL +0 shmid: 0x$idhex, cmd: 0 \\(IPC_RMID\\), buf: 0x0\$"; then
		ok "shmsnoop: SHMGET, SHMAT, SHMDT, SHMCTL with their arguments and results"
	else
		notok "shmsnoop: rows (shmid $id, shmaddr $addr): $(cat "$W/shm.rows" | head -c 800)"
	fi
fi
if run shmj '' shmsnoop -j -p @PID@; then
	json_ok shmj
	s=$(python3 -c 'import json,sys
print(" ".join(json.loads(l)["sys"] for l in open(sys.argv[1]) if l.strip()))' "$W/shmj.out" 2>&1)
	if [ "$s" = "SHMGET SHMAT SHMDT SHMCTL" ]; then ok "shmsnoop -j: the four calls"; else notok "shmsnoop -j: '$s'"; fi
fi

# 4. duration and bad input
if tool_start dur '^PID ' mmapsnoop -d 1; then twait dur 50; fi
usage_exit2 "mmapsnoop extra argument" mmapsnoop 5
usage_exit2 "shmsnoop bad pid" shmsnoop -p abc

snoop_left
[ "$fails" = 0 ]
