#!/bin/sh
# sofdsnoop end to end: a helper (a python script named by prctl) opens a
# file with a unique name N times, waits for $W/go, passes the N fds over
# a unix socket pair with SCM_RIGHTS (sendmsg) and receives them
# (recvmsg), then prints its tid, the two sockets, the fds sent and the
# fds received.  With N = 12 (two records of 10 and 2 on each side):
# `sofdsnoop -n NAME --json` must show exactly 12 SEND rows (the helper's
# tid, "SOCK:socket:[INODE]" of the sending socket, the sent fds in order,
# NAME the unique file) and 12 RECV rows (the received fds, no NAME), and
# nothing of a second helper of another name passing 3 fds at the same
# time; `-T -p PID` of that second one only its 3 + 3 lines under bcc's
# header with TIME(s); `-d 1` ends by itself with status 0; SIGINT exits
# 0; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/sofdsnoop.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-sofdsnoop.XXXXXX)
T=sofdsnoop
fails=0
TPID= HA= HB=
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HA $HB; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
need_corebox
build_helper bpf_count
bpf_snapshot before

cat > "$W/passfd.py" << 'PY'
import ctypes, os, socket, sys, threading, time
name, n, go, path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
done = go + ".done"
ctypes.CDLL(None).prctl(15, name.encode(), 0, 0, 0)  # PR_SET_NAME
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
fds = [os.open(path, os.O_RDONLY) for _ in range(n)]
for _ in range(300):
    if os.path.exists(go): break
    time.sleep(0.05)
socket.send_fds(a, [b"x"], fds)
msg, got, flags, addr = socket.recv_fds(b, 10, n)
print(threading.get_native_id(), a.fileno(), b.fileno(), ",".join(map(str, fds)), ",".join(map(str, got)), flush=True)
# The tool names the socket and the file from /proc/TID/fd when it prints
# the line (as bcc does): stay until the test has seen its lines.
for _ in range(300):
    if os.path.exists(done): break
    time.sleep(0.05)
PY
touch "$W/cbx_sofd_file" "$W/cbx_other_file"

# check FILE TID ASOCK SENT GOT PATH: the JSON rows of FILE are exactly the helper's
check() {
	python3 - "$@" << 'PY'
import json, sys
f, tid, asock, sent, got, path = sys.argv[1:7]
rows = [json.loads(l) for l in open(f) if l.startswith("{")]
send = [r for r in rows if r["action"] == "SEND"]
recv = [r for r in rows if r["action"] == "RECV"]
bad = []
if [r["fd"] for r in send] != [int(x) for x in sent.split(",")]: bad.append("SEND fds %r" % [r["fd"] for r in send])
if [r["fd"] for r in recv] != [int(x) for x in got.split(",")]: bad.append("RECV fds %r" % [r["fd"] for r in recv])
if any(r["tid"] != int(tid) for r in rows): bad.append("tids %r" % sorted(set(r["tid"] for r in rows)))
if any(not r["socket"].startswith(asock + ":socket:[") for r in send): bad.append("sockets %r" % sorted(set(r["socket"] for r in send)))
if any(r["name"] != path for r in send) or any(r["name"] != "" for r in recv): bad.append("names %r" % sorted(set(r["name"] for r in rows)))
print("bad " + "; ".join(bad) if bad else "ok %d SEND and %d RECV rows: the fds sent and received, tid, socket, file" % (len(send), len(recv)))
PY
}

# wait_lines FILE N: until FILE holds N lines (at most 10 s)
wait_lines() {
	i=0
	while [ "$(grep -c . "$1" 2>/dev/null)" -lt "$2" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

rm -f "$W/go" "$W/go.done"
python3 "$W/passfd.py" cbxsofd 12 "$W/go" "$W/cbx_sofd_file" > "$W/a.out" 2>&1 &
HA=$!
python3 "$W/passfd.py" cbxother 3 "$W/go" "$W/cbx_other_file" > "$W/b.out" 2>&1 &
HB=$!
if tool_start j '' "$T" -n cbxsofd --json; then
	touch "$W/go"
	wait_lines "$W/j.out" 24
	touch "$W/go.done"
	wait_exit "$HA" 100; wait_exit "$HB" 100
	HA= HB=
	sleep 0.3
	snoop_stop "-n cbxsofd --json"
	set -- $(cat "$W/a.out")
	res=$(check "$W/j.out" "$1" "$2" "$4" "$5" "$W/cbx_sofd_file")
	case $res in ok*) ok "-n cbxsofd: ${res#ok }" ;; *) notok "-n cbxsofd: ${res#bad }; helper: $(cat "$W/a.out")" ;; esac
fi

rm -f "$W/go" "$W/go.done"
python3 "$W/passfd.py" cbxother 3 "$W/go" "$W/cbx_other_file" > "$W/b.out" 2>&1 &
HB=$!
python3 "$W/passfd.py" cbxsofd 4 "$W/go" "$W/cbx_sofd_file" > "$W/a.out" 2>&1 &
HA=$!
sleep 0.3
if tool_start t '^TIME(s) ' "$T" -T -p "$HB"; then
	touch "$W/go"
	wait_lines "$W/t.out" 7
	touch "$W/go.done"
	wait_exit "$HA" 100; wait_exit "$HB" 100
	HA= HB=
	sleep 0.3
	snoop_stop "-T -p PID"
	set -- $(cat "$W/b.out")
	n=$(grep -cE "^[0-9]+\.[0-9]{9} +(SEND|RECV) +$1 +cbxother +" "$W/t.out")
	if head -n 1 "$W/t.out" | grep -qx 'TIME(s)       ACTION TID    COMM             SOCKET                    FD    NAME' &&
		[ "$n" = 6 ] && [ "$(wc -l < "$W/t.out")" = 7 ]; then
		ok "-T -p PID: bcc's header, that process's 3 SEND and 3 RECV lines only"
	else
		notok "-T -p PID: $n lines of tid $1: $(head -c 600 "$W/t.out")"
	fi
fi

"$CB" "$T" -d 1 > /dev/null 2>&1 &
p=$!
if wait_pid $p 50; then wait $p; rc=$?; [ $rc = 0 ] && ok "-d 1: ends by itself, status 0" || notok "-d 1: status $rc"
else kill -KILL $p; notok "-d 1: still running after 5 s"; fi
usage_exit2 "-d 0" "$T" -d 0
snoop_left
[ "$fails" = 0 ]
