#!/bin/sh
# The README's first command: run a real tool on a live workload for a few
# seconds.  execsnoop traces every exec on the machine; we start a few.
cd "$(dirname "$0")/.." || exit 1
[ "$(id -u)" = 0 ] || { echo "demo: BPF needs root (run: sudo make demo)" >&2; exit 1; }
out=$(mktemp)
./corebox execsnoop > "$out" 2>&1 &
pid=$!
i=0
while [ $i -lt 50 ] && ! grep -q PCOMM "$out"; do sleep 0.1; i=$((i + 1)); done
for n in 1 2 3; do
	ls / > /dev/null
	uname -r > /dev/null
	sh -c "echo corebox demo $n" > /dev/null
	sleep 0.5
done
kill -INT $pid
wait $pid
rc=$?
cat "$out"
rm -f "$out"
echo "(corebox execsnoop exited with status $rc; binary: $(stat -c %s corebox) bytes, $(file -b corebox | cut -d, -f1-2))"
exit $rc
