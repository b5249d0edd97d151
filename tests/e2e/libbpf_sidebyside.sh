#!/bin/sh
# corebox beside Debian's libbpf-tools (0.26, /usr/sbin/NAME) on one
# workload.  Each tool both have that loads on this kernel runs twice at
# once (the oracle and corebox), one workload runs, both get SIGINT; then
# for each tool:
#  - layout: the lines without digits (headers, banners, histogram
#    headings), in order, are the same;
#  - rows (event tools): the rows naming the workload, each digit masked,
#    are the same multiset (same columns, same widths);
#  - counts: the rows naming the workload are as many in both, and as many
#    as the workload made where that number is fixed (K execs of a uniquely
#    named program, K opens and K stats of a unique path, K signals, K
#    listens, K mounts).
# A tool the oracle cannot attach here (kprobes, fentry) is reported as a
# skip with the oracle's reason; a tool corebox lacks is not compared.
# Without libbpf-tools the whole test is one skip.  Bounded: every wait
# has a limit (~12 s in all on a shared 2-CPU machine).
set -u
CB=${COREBOX:-./corebox}
T=libbpf_sidebyside
K=5
fails=0
PIDS=
W=$(mktemp -d /tmp/cbx-sbs.XXXXXX)
. tests/e2e/lib.sh

cleanup() {
	for p in $PIDS; do kill -KILL "$p" 2>/dev/null; done
	umount "$W/cbxsbs-mnt" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if [ ! -x /usr/sbin/execsnoop ] || ! dpkg -s libbpf-tools > /dev/null 2>&1; then
	echo "ok - $T # SKIP libbpf-tools is not installed (apt-get install libbpf-tools)"
	exit 0
fi
need_corebox

# NAME|ARGS|PATTERN|EXPECT|ROWS: the tool, its arguments, an ERE naming
# the workload's rows ('' for a summary tool: layout only), how many such
# rows the workload makes ('' when the number is not fixed), and whether
# the masked rows must be equal (1) or only counted (0: measured values of
# varying width)
TOOLS="execsnoop||^cbxsbs-run |$K|1
exitsnoop||^cbxsbs-run |$K|0
opensnoop||^[0-9]+ +cat .*cbxsbs-file\$|$K|1
statsnoop||^[0-9]+ +test .*cbxsbs-file\$|$K|1
sigsnoop||^[0-9:]+ +[0-9]+ +sh +10 +@SLP@ +[0-9-]+ *\$|$K|1
solisten||@PORT@|$K|1
mountsnoop||cbxsbs-mnt||0
tcplife||@PORT@||0
runqlat||||0
syscount||||0
softirqs||||0
hardirqs||||0
biolatency||||0"

# links PID: the BPF links and perf-event attachments a process holds
links() { cat /proc/"$1"/fdinfo/* 2>/dev/null | grep -c '^link_id:'; }

# start NAME WHO CMD...: start CMD, output in $W/NAME.WHO.{out,err}
start() {
	name=$1 who=$2
	shift 2
	"$@" > "$W/$name.$who.out" 2> "$W/$name.$who.err" &
	echo "$! $name $who" >> "$W/procs"
	echo 0 > "$W/$name.$who.links"
	PIDS="$PIDS $!"
}

: > "$W/procs"
PORT=$((20000 + $$ % 20000))
have=" $("$CB" --list | tr '\n' ' ') "
echo "$TOOLS" | while IFS='|' read -r name args pat want rows; do
	case $have in *" $name "*) ;; *) continue ;; esac
	[ -x /usr/sbin/"$name" ] || continue
	# shellcheck disable=SC2086 # ARGS are words
	start "$name" lib /usr/sbin/"$name" $args
	# shellcheck disable=SC2086
	start "$name" cbx "$CB" "$name" $args
done
PIDS=$(awk '{ printf "%s ", $1 }' "$W/procs")

# ready: every process alive has its links and they stopped growing (or
# has exited: it could not attach), within 25 s.  A process with no link
# after 5 s attached nothing (compared below), unless it still uses CPU
# (loading on a busy machine).  One grep reads every process's links
# each round: one per process and file took 0.4 s a round, so the 5 s
# were 20.
i=0
while [ $i -lt 250 ]; do
	busy=0 alive= files=
	for p in $PIDS; do
		kill -0 "$p" 2>/dev/null || continue
		alive="$alive $p" files="$files /proc/$p/fdinfo/*"
	done
	[ -n "$alive" ] || break
	# shellcheck disable=SC2086 # (the globs expand here)
	counts=$(grep -c '^link_id:' $files 2>/dev/null |
		awk -F'[/:]' '{ n[$3] += $NF } END { for (p in n) printf "%s=%s ", p, n[p] }')
	for p in $alive; do
		n=0
		for c in $counts; do [ "${c%=*}" = "$p" ] && n=${c#*=}; done
		eval "last=\${links_$p:--1} lticks=\${ticks_$p:-0}"
		ticks=0
		if read -r st < /proc/"$p"/stat 2>/dev/null; then
			# shellcheck disable=SC2086 # (utime and stime: fields 14 and 15)
			set -- ${st##*) }
			ticks=$(($12 + $13))
		fi
		eval "links_$p=\$n ticks_$p=\$ticks"
		if [ "$n" != "$last" ] || { [ "$n" = 0 ] && { [ $i -lt 50 ] || [ $((ticks - lticks)) -ge 2 ]; }; }; then
			busy=1
		fi
	done
	[ $busy = 0 ] && break
	sleep 0.1
	i=$((i + 1))
done
while read -r p name who; do
	eval "echo \${links_$p:-0}" > "$W/$name.$who.links"
done < "$W/procs"
[ $busy = 0 ] || echo "# still loading after 25 s: $(while read -r p name who; do kill -0 "$p" 2>/dev/null && echo "$name.$who=$(links "$p")"; done < "$W/procs" | tr '\n' ' ')"

# ---- the workload ------------------------------------------------------------
cp /bin/true "$W/cbxsbs-run"
: > "$W/cbxsbs-file"
sh -c 'trap "" USR1; exec sleep 60' & SLP=$! # (it ignores the K SIGUSR1)
mkdir -p "$W/cbxsbs-mnt"
j=0
while [ $j -lt $K ]; do
	"$W/cbxsbs-run"
	cat "$W/cbxsbs-file"
	env test -e "$W/cbxsbs-file"
	kill -USR1 "$SLP" 2>/dev/null || true
	j=$((j + 1))
done
kill -KILL "$SLP" 2>/dev/null
wait "$SLP" 2>/dev/null
# K mounts of a tmpfs named for the test; K listens on one port, the last
# one taking a connection that carries 1000 bytes
j=0
while [ $j -lt $K ]; do
	mount -t tmpfs cbxsbs-mnt "$W/cbxsbs-mnt" && umount "$W/cbxsbs-mnt"
	j=$((j + 1))
done
python3 - $PORT $K <<'PY' || echo "# the listen/connect workload failed"
import socket, sys
port, k = int(sys.argv[1]), int(sys.argv[2])
for i in range(k):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port))
    s.listen(1)
    if i == k - 1:
        c = socket.create_connection(("127.0.0.1", port))
        a, _ = s.accept()
        c.sendall(b"x" * 1000)
        a.recv(4096)
        c.close(); a.close()
    s.close()
PY
sleep 1

while read -r p name who; do kill -INT "$p" 2>/dev/null; done < "$W/procs"
for p in $PIDS; do reap "$p" 50; done
PIDS=

# ---- compare -------------------------------------------------------------------
# layout FILE: the lines before the first one with a digit that have none
# (banners, the header), and histogram headings
layout() { awk '/[0-9]/ { rows = 1 } (!rows && NF) || / : count / { if (!seen[$0]++) print }' "$1"; }
rowsof() { grep -E -- "$2" "$1" | sed 's/[0-9]/9/g' | sort; }
echo "$TOOLS" | while IFS='|' read -r name args pat want rows; do
	[ -f "$W/$name.lib.out" ] || continue
	lo=$W/$name.lib.out co=$W/$name.cbx.out
	pat=$(echo "$pat" | sed "s/@PORT@/[ :]$PORT( |\\$)/; s/@SLP@/$SLP/")
	if [ ! -s "$lo" ] && grep -q . "$W/$name.lib.err"; then
		echo "ok - $T: $name # SKIP libbpf-tools cannot run it here: $(grep -v '^libbpf: ' "$W/$name.lib.err" | head -1)"
		continue
	fi
	if [ "$(cat "$W/$name.lib.links")" = 0 ]; then
		echo "ok - $T: $name # SKIP libbpf-tools attached no program here"
		continue
	fi
	if [ "$(layout "$lo")" = "$(layout "$co")" ]; then ok "$name: same header and layout lines as libbpf-tools"
	else
		notok "$name layout differs: libbpf-tools '$(layout "$lo" | head -3 | tr '\n' '|')' corebox '$(layout "$co" | head -3 | tr '\n' '|')'"
	fi
	[ -n "$pat" ] || continue
	nl=$(grep -Ec -- "$pat" "$lo") nc=$(grep -Ec -- "$pat" "$co")
	if [ "$nl" = "$nc" ] && { [ -z "$want" ] || [ "$nc" = "$want" ]; }; then
		ok "$name: $nc rows of the workload in both${want:+ (it made $want)}"
	else notok "$name: libbpf-tools $nl rows, corebox $nc${want:+, the workload made $want}"; fi
	if [ "$rows" = 1 ]; then
		if [ "$(rowsof "$lo" "$pat")" = "$(rowsof "$co" "$pat")" ]; then ok "$name: the rows have the same columns and widths"
		else notok "$name rows differ: libbpf-tools '$(grep -E -m2 -- "$pat" "$lo" | tr '\n' '|')' corebox '$(grep -E -m2 -- "$pat" "$co" | tr '\n' '|')'"; fi
	fi
done > "$W/results"
cat "$W/results"
grep -q '^not ok' "$W/results" && exit 1
exit 0
