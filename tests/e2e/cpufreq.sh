#!/bin/sh
# cpufreq end to end.  The frequencies are ground truth the test sets: in
# a mount namespace of its own, a copy of /sys/devices/system/cpu whose
# every CPU's cpufreq/scaling_cur_freq says 2400000 kHz is mounted over
# the real one (a machine without a cpufreq driver has none); a busy
# process named "cbxspin" runs.  cpufreq -d 2 there must print the banner,
# then a histogram for cbxspin and the system-wide one with every sample
# in the 2400 MHz row (200 MHz steps: the only row), in libbpf-tools
# 0.26's layout (compared line for line with Debian's cpufreq when it is
# installed); JSON carries the cbxspin histogram; without cpufreq files
# (this machine's real /sys, when it has none) it fails with libbpf-tools'
# messages and status 1; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/cpufreq.sh
set -u
CB0=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-cpufreq.XXXXXX)
T=cpufreq
fails=0
TPID= SPIN=
ORACLE=/usr/sbin/cpufreq
CB=$W/in-ns
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $SPIN; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

command -v unshare >/dev/null 2>&1 || { echo "not ok - $T: no unshare command (util-linux)"; exit 1; }
CB=$CB0 need_corebox
build_helper bpf_count
CB0=$(cd "$(dirname "$CB0")" && pwd)/$(basename "$CB0")

# the fake cpu directory: the kernel's CPU lists and a frequency per CPU
mkdir "$W/cpu"
for f in possible present online; do cp "/sys/devices/system/cpu/$f" "$W/cpu/"; done
for c in $(seq 0 $(($(getconf _NPROCESSORS_CONF) - 1))); do
	mkdir -p "$W/cpu/cpu$c/cpufreq"
	echo 2400000 > "$W/cpu/cpu$c/cpufreq/scaling_cur_freq"
done
# in-ns PROGRAM ARGS: run it (exec: the same pid) with the fake directory mounted
cat > "$W/in-ns" <<EOF2
#!/bin/sh
exec unshare -m sh -c 'mount --bind "$W/cpu" /sys/devices/system/cpu && exec "\$0" "\$@"' "\$@"
EOF2
chmod +x "$W/in-ns"
cp "$(command -v yes)" "$W/cbxspin"
"$W/cbxspin" > /dev/null &
SPIN=$!

# ---- 1: the histograms ----------------------------------------------------------------------
tool_start plain '^Sampling' "$CB0" cpufreq -d 2 && { wait_pid "$TPID" 100; wait "$TPID"; rc=$?; TPID=; }
out=$W/plain.out
rows=$(awk '/^ +cbxspin +: count/ { f = 1; next } f && NF == 0 { f = 0 } f' "$out")
sys=$(awk '/^ +syswide +: count/ { f = 1; next } f' "$out")
if [ "${rc:-1}" = 0 ] && [ "$(head -1 "$out")" = "Sampling CPU freq system-wide & by process. Ctrl-C to end." ] &&
	[ "$(echo "$rows" | wc -l)" = 1 ] && echo "$rows" | grep -Eq '^        2400       : [1-9][0-9]* +\|\*{40}\|$' &&
	[ "$(echo "$sys" | wc -l)" = 1 ] && echo "$sys" | grep -Eq '^        2400       : [1-9][0-9]* +\|\*{40}\|$'; then
	ok "-d 2: exit 0; cbxspin's and the system-wide samples all at 2400 MHz, the one row ('$(echo "$rows" | tr -s ' ')')"
else notok "histograms (status ${rc:-?}): $(head -c 600 "$out" | tr '\n' '|')"; fi
if [ -x "$ORACLE" ]; then
	"$W/in-ns" "$ORACLE" -d 2 > "$W/oracle.out" 2> "$W/oracle.err"
	# the layout: every line with the counts and the command names blanked
	norm() { sed -E 's/: [0-9]+ +\|/: N |/; s/^ +[^ ]+ +: count/     C : count/' "$1"; }
	if norm "$W/oracle.out" | sort -u > "$W/o.lay" && norm "$out" | sort -u > "$W/c.lay" && cmp -s "$W/o.lay" "$W/c.lay" &&
		[ "$(tail -3 "$W/oracle.out" | norm /dev/stdin)" = "$(tail -3 "$out" | norm /dev/stdin)" ]; then
		ok "the same banner, histogram lines and system-wide ending as Debian's libbpf-tools cpufreq beside it"
	else notok "vs libbpf-tools: $(diff "$W/o.lay" "$W/c.lay" | head -6 | tr '\n' '|')"; fi
else echo "# $ORACLE not installed: no side-by-side comparison"; fi

# ---- 2: JSON --------------------------------------------------------------------------------------
tool_start j '' "$CB0" cpufreq -j -d 2 && { wait_pid "$TPID" 100; wait "$TPID"; rc=$?; TPID=; }
if [ "${rc:-1}" = 0 ] && python3 - "$W/j.out" <<'PY'
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
h = [x for d in docs for x in d.get("freq", [])]
spin = [x for x in h if x.get("comm") == "cbxspin"]
assert len(spin) == 1 and spin[0]["unit"] == "MHz", h
b = [x for x in spin[0]["buckets"] if x["count"]]
assert len(b) == 1 and b[0]["low"] == 2400, b
PY
then ok "-j: cbxspin's histogram, its samples in the 2400 MHz bucket"
else notok "-j (status ${rc:-?}): $(head -c 400 "$W/j.out")"; fi

# ---- 3: no cpufreq files: one line naming the file and why ----------------------------------------------------
if [ ! -e /sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq ]; then
	"$CB0" cpufreq -d 1 > "$W/no.out" 2> "$W/no.err"
	rc=$?
	if [ $rc = 1 ] && [ ! -s "$W/no.out" ] &&
		[ "$(wc -l < "$W/no.err")" = 1 ] &&
		grep -q "^cpufreq: cannot read CPU 0's frequency (/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq: No such file or directory): without a cpufreq driver" "$W/no.err"; then
		ok "without cpufreq files: status 1, one line naming the file, the error and why"
	else notok "no cpufreq: status $rc: $(cat "$W/no.err")"; fi
else echo "# this machine has cpufreq: the failure case is not checked"; fi

kill "$SPIN" 2>/dev/null
wait "$SPIN" 2>/dev/null
SPIN=
snoop_left
[ "$fails" = 0 ]
