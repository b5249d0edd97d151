#!/bin/sh
# mountsnoop end to end: a helper in a private mount namespace of its own
# mounts a tmpfs N times (name cbx_mI, data size=I*64k, MS_NOSUID|MS_NODEV)
# and unmounts it, then makes one mount that fails (ENOENT) and one umount
# that fails (EINVAL, MNT_DETACH), then mounts a tmpfs through the new
# mount API (fsopen, 2 x fsconfig, fsmount, move_mount) and unmounts it;
# with -p HELPER exactly those 2N+8 calls must be shown in order with
# their arguments, results and the helper's mount namespace (libbpf-tools
# 0.26's CALL strings and header for mount/umount, upstream's later ones
# for the new calls); -t adds the time, -d one field a line; JSON lines
# parse and carry the same calls; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/mountsnoop.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-mountsnoop.XXXXXX)
T=mountsnoop
fails=0
TPID= HPID=
N=3
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HPID; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
build_helper mounts
need_corebox
bpf_snapshot before
mkdir "$W/mnt"

# the calls the helper makes, as CALL strings (fds: what fsopen and
# fsmount returned, from the helper's "fds" line)
want_calls() {
	set -- $(sed -n 's/^fds //p' "$W/helper")
	i=1
	while [ $i -le $N ]; do
		echo "mount(\"cbx_m$i\", \"$W/mnt\", \"tmpfs\", MS_NOSUID | MS_NODEV, \"size=$((i * 64))k\") = 0"
		echo "umount(\"$W/mnt\", 0x0) = 0"
		i=$((i + 1))
	done
	echo "mount(\"cbx_bad\", \"$W/mnt/missing\", \"tmpfs\", 0x0, \"\") = -ENOENT"
	echo "umount(\"$W/mnt\", MS_NOSUID) = -EINVAL" # MNT_DETACH (2) through the MS_* names, as 0.26
	echo "fsopen(\"tmpfs\", FSOPEN_CLOEXEC) = $1"
	echo "fsconfig($1, \"FSCONFIG_SET_STRING\", \"size\", \"1m\", 0) = 0"
	echo "fsconfig($1, \"FSCONFIG_CMD_CREATE\", \"\", \"\", 0) = 0"
	echo "fsmount($1, \"FSMOUNT_CLOEXEC\", \"MOUNT_ATTR_NODEV\") = $2"
	echo "move_mount($2, \"\", AT_FDCWD, \"$W/mnt\", \"MOVE_MOUNT_F_EMPTY_PATH\") = 0"
	echo "umount(\"$W/mnt\", 0x0) = 0"
}
NCALLS=$((2 * N + 8))

# linked_start ARGS...: the tool in the background without a header to
# wait for (-d): wait (10 s) until it holds a BPF link, note its ids
linked_start() {
	rm -f "$W/t.out"
	: > "$W/t.out"
	"$CB" "$T" "$@" > "$W/t.out" 2> "$W/t.err" &
	TPID=$!
	i=0
	while [ $i -lt 100 ] && ! grep -qs '^link_id:' /proc/"$TPID"/fdinfo/*; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.2 # every link, not just the first
	for f in /proc/"$TPID"/fdinfo/*; do
		sed -n 's/^prog_id:[[:space:]]*/prog /p; s/^link_id:[[:space:]]*/link /p' "$f" 2>/dev/null
	done | sort -u >> "$W/ours"
	[ $i -lt 100 ] || { notok "no BPF link within 10 s ($T $*): $(head -c 400 "$W/t.err")"; return 1; }
}

# run LABEL HOW ARGS...: start the helper, the tool on it (-p HELPER ARGS)
# HOW: a header pattern to wait for, "-j" (JSON) or "-" (no header: -d);
# let the helper work, stop the tool.  hpid, ns: the helper's PID and
# mount namespace inode
run() {
	label=$1 how=$2
	shift 2
	helper_start "$W/helper" "$W/mounts" "$W/mnt" $N || { notok "$label: helper not ready: $(cat "$W/helper")"; return 1; }
	hpid=$HPID
	ns=$(stat -L -c %i /proc/"$hpid"/ns/mnt)
	if [ "$ns" = "$(stat -L -c %i /proc/self/ns/mnt)" ]; then
		notok "$label: the helper has no mount namespace of its own"
		helper_stop
		return 1
	fi
	case $how in
	-j) tool_start t "" "$T" -j -p "$hpid" "$@" ;;
	-) linked_start -p "$hpid" "$@" ;;
	*) tool_start t "$how" "$T" -p "$hpid" "$@" ;;
	esac || { helper_stop; return 1; }
	kill -USR1 "$hpid"
	wait_for "$W/helper" '^done' 50 || notok "$label: helper failed: $(cat "$W/helper")"
	wait "$hpid" 2>/dev/null
	HPID=
	sleep 0.3
	snoop_stop "$label"
}

# ---- 1: the calls, in order -------------------------------------------------------
if run "plain run" CALL; then
	if head -1 "$W/t.out" | grep -qx 'COMM             PID     TID     MNT_NS      CALL'; then ok "header as libbpf-tools 0.26"
	else notok "header: '$(head -1 "$W/t.out")'"; fi
	want_calls > "$W/want"
	awk -v p="$hpid" '$2 == p' "$W/t.out" | sed -E 's/^mounts +[0-9]+ +[0-9]+ +[0-9]+ +//' > "$W/got"
	if cmp -s "$W/got" "$W/want"; then ok "the $NCALLS calls with arguments and results, in order"
	else notok "calls: $(diff "$W/want" "$W/got" | head -8 | tr '\n' '|')"; fi
	bad=$(awk -v p="$hpid" -v ns="$ns" '$2 == p && ($3 != p || $4 != ns)' "$W/t.out")
	if [ -z "$bad" ] && [ "$(awk -v p="$hpid" '$2 == p' "$W/t.out" | wc -l)" = $NCALLS ]; then
		ok "TID = PID, MNT_NS = the helper's namespace ($ns)"
	else notok "TID/MNT_NS: $bad"; fi
fi

# ---- 2: -t -------------------------------------------------------------------------
if run "-t run" TIME -t; then
	if head -1 "$W/t.out" | grep -Eq '^TIME     COMM +PID' &&
		[ "$(grep -Ec "^[0-9]{2}:[0-9]{2}:[0-9]{2} mounts +$hpid " "$W/t.out")" = $NCALLS ]; then
		ok "-t: TIME column, HH:MM:SS on every row"
	else notok "-t: $(head -3 "$W/t.out" | tr '\n' '|')"; fi
fi

# ---- 3: -d: no header, a block of fields per call ----------------------------------
if run "-d run" - -d; then
	blocks=$(grep -c "^PID:    $hpid\$" "$W/t.out")
	if [ "$blocks" = $NCALLS ] && [ "$(grep -c "^MNT_NS: $ns\$" "$W/t.out")" = "$blocks" ] &&
		[ "$(grep -cx 'OP:     UMOUNT' "$W/t.out")" = $((N + 2)) ] && grep -qx 'RET:    -ENOENT' "$W/t.out" &&
		grep -qx 'KEY:    size' "$W/t.out" && grep -qx 'ATTR_FLAGS:  MOUNT_ATTR_NODEV' "$W/t.out" &&
		grep -qx "TO_PATHNAME:    $W/mnt" "$W/t.out" &&
		grep -qx 'SOURCE: cbx_m1' "$W/t.out" && grep -qx 'DATA:   size=64k' "$W/t.out" &&
		grep -qx 'FLAGS:  MS_NOSUID | MS_NODEV' "$W/t.out" && ! grep -q CALL "$W/t.out"; then
		ok "-d: one block per call, a field a line, no header"
	else notok "-d: $blocks blocks: $(head -14 "$W/t.out" | tr '\n' '|')"; fi
fi

# ---- 4: JSON ---------------------------------------------------------------------
if run "-j run" -j && python3 - "$W/t.out" "$W/mnt" "$N" "$ns" $(sed -n 's/^fds //p' "$W/helper") <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
mnt, n, ns, fsfd, mfd = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
new, rows = rows[2 * n + 2:], rows[:2 * n + 2]
got = [(r["op"], r["source"], r["target"], r["fs"], r["data"], r["ret"], r["errno"]) for r in rows]
want = []
for i in range(1, n + 1):
    want += [("mount", "cbx_m%d" % i, mnt, "tmpfs", "size=%dk" % (i * 64), 0, None),
             ("umount", None, mnt, None, None, 0, None)]
want += [("mount", "cbx_bad", mnt + "/missing", "tmpfs", "", -2, "ENOENT"),
         ("umount", None, mnt, None, None, -22, "EINVAL")]
assert got == want, got
assert rows[0]["flags"] == "0x6" and rows[-1]["flags"] == "0x2", rows
assert all(r["mnt_ns"] == ns and r["latency_us"] >= 0 for r in rows + new), rows + new
got = [(r["op"], r["fd"], r["ret"], r["fs"], r["cmd"], r["key"], r["value"], r["attr_flags"],
        r["to_fd"], r["source"], r["target"], r["flags"]) for r in new]
want = [("fsopen", 0, fsfd, "tmpfs", None, None, None, "0x0", 0, None, None, "0x1"),
        ("fsconfig", fsfd, 0, None, "FSCONFIG_SET_STRING", "size", "1m", "0x0", 0, None, None, "0x0"),
        ("fsconfig", fsfd, 0, None, "FSCONFIG_CMD_CREATE", "", "", "0x0", 0, None, None, "0x0"),
        ("fsmount", fsfd, mfd, None, None, None, None, "0x4", 0, None, None, "0x1"),
        ("move_mount", mfd, 0, None, None, None, None, "0x0", -100, "", mnt, "0x4"),
        ("umount", 0, 0, None, None, None, None, "0x0", 0, None, mnt, "0x0")]
assert got == want, got
PY
then ok "-j: JSON lines parse; the $NCALLS calls with op, source, target, fs, data, ret, errno, flags, fd, cmd, key, value"
else notok "-j: $(head -c 400 "$W/t.out")"; fi

snoop_left
[ "$fails" = 0 ]
