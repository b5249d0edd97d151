#!/bin/sh
# sigsnoop end to end: a sender shell the test starts sends N SIGUSR1 (the
# target ignores them, so it lives), kill -0 to a PID that does not exist
# (fails: ESRCH) and one SIGTERM; with -p SENDER exactly those signals must
# be shown: the generated ones (N x 10 and 15, to the target) by default,
# all kill(2) calls with their results (0 / -3) with -k and as killsnoop,
# the failed one alone with -k -x, names with -n, one signal with -s; the
# header is libbpf-tools 0.26's; JSON lines parse and carry the same
# signals; bad -s/-p values exit 2; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/sigsnoop.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-sigsnoop.XXXXXX)
T=sigsnoop
fails=0
TPID= TGT= SND=
N=3
NOPID=999999
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $TGT $SND; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
need_corebox
bpf_snapshot before

# sender_start: the target (ignores SIGUSR1) and the sender, which waits on
# a fifo; SND is the PID to filter on
sender_start() {
	sh -c 'trap "" USR1; exec sleep 30' &
	TGT=$!
	rm -f "$W/go" && mkfifo "$W/go"
	sh -c 'read x < "$1"; i=0; while [ $i -lt "$2" ]; do kill -USR1 "$3"; i=$((i + 1)); done
		kill -0 "$4" 2>/dev/null; kill -TERM "$3"' sh "$W/go" "$N" "$TGT" "$NOPID" &
	SND=$!
}
# sender_go: let it send, wait for both to end
sender_go() {
	echo > "$W/go"
	wait "$SND" "$TGT" 2>/dev/null
	SND= TGT=
	sleep 0.3
}

# rows FILE: the sender's rows as "SIG TPID RESULT", in order
rows() { awk -v p="$snd" 'NR > 1 && $2 == p { print $4, $5, $6 }' "$1" | tr '\n' ','; }

# expect LABEL WANT: the sender's rows are exactly WANT
expect() {
	got=$(rows "$W/t.out")
	if [ "$got" = "$2" ]; then ok "$1: $got"
	else notok "$1: got '$got', want '$2'; output: $(head -5 "$W/t.out" | tr '\n' '|')"; fi
}

# check LABEL WANT ARGS...: run $tool with -p SENDER ARGS while the sender
# sends; its rows must be WANT, with @ standing for the target's PID (known
# only once it runs)
check() {
	label=$1 want=$2
	shift 2
	sender_start
	snd=$SND tgt=$TGT
	if tool_start t '^TIME' "$tool" -p "$snd" "$@"; then
		sender_go
		T=$tool snoop_stop "$label run"
		expect "$label" "$(echo "$want" | sed "s/@/$tgt/g")"
	fi
}
usr1=$(i=0; while [ $i -lt $N ]; do printf '10 @ 0,'; i=$((i + 1)); done)
tool=$T

# ---- 1: the generated signals (signal:signal_generate) --------------------------
# (the sender's own exit sends its parent, this shell, SIGCHLD)
check "default: $N x SIGUSR1 and SIGTERM to the target, SIGCHLD at exit" "${usr1}15 @ 0,17 $$ 0,"
if head -1 "$W/t.out" | grep -qx 'TIME     PID     COMM             SIG       TPID    RESULT'; then
	ok "header as libbpf-tools 0.26"
else notok "header: '$(head -1 "$W/t.out")'"; fi
if awk -v p="$snd" '$2 == p' "$W/t.out" | grep -Eq '^[0-9]{2}:[0-9]{2}:[0-9]{2} [0-9]+ +sh +10 +'; then
	ok "rows: HH:MM:SS, PID, COMM, SIG"
else notok "row layout: $(awk -v p="$snd" '$2 == p' "$W/t.out" | head -1)"; fi
check "-s 15: SIGTERM alone" "15 @ 0," -s 15

# ---- 2: the kill syscalls: -k, killsnoop, -x, -n, -s ------------------------------
check "-k: every kill(2) with its result" "${usr1}0 $NOPID -3,15 @ 0," -k
tool=killsnoop
check "killsnoop: the kill syscalls, as sigsnoop -k" "${usr1}0 $NOPID -3,15 @ 0,"
tool=$T
check "-k -x: the failed kill alone" "0 $NOPID -3," -k -x
check "-k -n: names (N/A for 0)" "$(echo "$usr1" | sed 's/10/SIGUSR1/g')N/A $NOPID -3,SIGTERM @ 0," -k -n
check "-k -s 10,15: two signals" "${usr1}15 @ 0," -k -s 10,15

# ---- 3: JSON ---------------------------------------------------------------------
sender_start
snd=$SND tgt=$TGT
if tool_start t "" "$T" -j -k -p "$snd"; then
	sender_go
	kill -INT "$TPID"; wait "$TPID"; rc=$?; TPID=
else
	rc=start
fi
if [ "$rc" = 0 ] && python3 - "$W/t.out" "$snd" "$tgt" "$N" "$NOPID" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
snd, tgt, n, nopid = (int(a) for a in sys.argv[2:])
got = [(r["pid"], r["sig"], r["tpid"], r["result"], r["sig_name"]) for r in rows]
want = [(snd, 10, tgt, 0, "SIGUSR1")] * n + [(snd, 0, nopid, -3, "N/A"), (snd, 15, tgt, 0, "SIGTERM")]
assert got == want, got
assert all(r["comm"] == "sh" and "time" in r for r in rows), rows
PY
then ok "-j: JSON lines parse; the $N + 2 kill calls with sig, tpid, result, sig_name"
else notok "-j: status $rc, output: $(head -c 400 "$W/t.out")"; fi

# ---- 4: usage errors -------------------------------------------------------------
usage_exit2 "-s 0" sigsnoop -s 0
usage_exit2 "-s 65" sigsnoop -s 65
usage_exit2 "-s 9,x" sigsnoop -s 9,x
usage_exit2 "-p 0" sigsnoop -p 0
usage_exit2 "a positional argument" sigsnoop extra

snoop_left
[ "$fails" = 0 ]
