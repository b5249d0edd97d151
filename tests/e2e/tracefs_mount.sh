#!/bin/sh
# tracefs_mount: corebox never changes the mounts of the namespace it runs
# in, and concurrent instances never pull tracefs from under each other.
# The script re-runs itself in a private mount namespace of its own
# (unshare -m) with tracefs and debugfs unmounted there - a host where
# nothing is mounted - and then checks that:
#   1. two execsnoops run at once; after the first ended the second still
#      sees an exec made then, and the mount table (mountinfo: ids, mount
#      points, types) is the same while they run and after both exited,
#      though mounts here are shared; a mount made here while they run
#      still reaches them;
#   2. a tracefs the user mounted while a tool runs survives its exit;
#   3. a user's tracefs at another path is used as it is (nothing mounted).
# Run as root from the repository root: sh tests/e2e/tracefs_mount.sh
set -u
CB=${COREBOX:-./corebox}
T=tracefs_mount
fails=0
TPID=
A= B=

if [ -z "${CBX_TRACEFS_NS:-}" ]; then
	command -v unshare >/dev/null 2>&1 || { echo "not ok - $T: unshare(1) not found"; exit 1; }
	CBX_TRACEFS_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi

W=$(mktemp -d /tmp/cbx-tracefs.XXXXXX)
ME=$$
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $A $B; do kill -KILL "$p" 2>/dev/null; done
	umount "$W/mytr" 2>/dev/null
	umount "$W/late" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$W" "/tmp/cbxtfs_$ME"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox

# mounts NAME: this namespace's mount table (id, parent, mount point, type)
mounts() { sed 's/ - / /' /proc/self/mountinfo | awk '{ print $1, $2, $5, $(NF - 2) }' | sort > "$W/$1"; }
# same LABEL A B: the two mount tables are equal
same() {
	if cmp -s "$W/$2" "$W/$3"; then ok "$1: mounts unchanged"
	else notok "$1: mounts changed: $(diff "$W/$2" "$W/$3" | grep '^[<>]' | tr '\n' ' ')"; fi
}

# Unmount every tracefs and debugfs here (innermost first): only in this
# namespace, which shares nothing with the host (--propagation private).
i=0
while grep -Eq ' (tracefs|debugfs) ' /proc/self/mounts && [ "$i" -lt 10 ]; do
	awk '$3 == "tracefs" || $3 == "debugfs" { print $2 }' /proc/self/mounts | sort -r |
		while read -r m; do umount "$m" 2>/dev/null; done
	i=$((i + 1))
done
if grep -Eq ' (tracefs|debugfs) ' /proc/self/mounts || [ -e /sys/kernel/tracing/events ]; then
	echo "not ok - $T: cannot unmount tracefs/debugfs in a private namespace"
	exit 1
fi

# Shared mounts here (new peer groups of this namespace only): a tool's
# own mounts would propagate back unless it cut that off, and mounts made
# here reach a tool that only receives propagation (a slave).
if ! mount --make-rshared /; then
	echo "not ok - $T: cannot make / shared in the private namespace"
	exit 1
fi

PROG=/tmp/cbxtfs_$ME             # comm: cbxtfs_PID (< 16 chars)
COMM=$(basename "$PROG" | cut -c1-15)
cp /bin/true "$PROG" && chmod 755 "$PROG"

# ---- 1: two instances at once, the first ends first ---------------------
mounts before
if tool_start a PCOMM execsnoop; then
	A=$TPID
	if tool_start b PCOMM execsnoop; then
		B=$TPID
		mounts running
		same "two execsnoops running" before running
		# a mount made after the tool started still reaches it (its
		# namespace is a slave of ours, not cut off)
		mkdir -p "$W/late"
		if mount -t tmpfs cbx_late "$W/late"; then
			if grep -q " $W/late " "/proc/$B/mountinfo"; then
				ok "a mount made after the tool started reaches the tool"
			else
				notok "a mount made after the tool started is not in its namespace"
			fi
			umount "$W/late"
		else
			notok "cannot mount a tmpfs at $W/late"
		fi
		TPID=$A A=
		snoop_stop "first execsnoop"
		"$PROG" --after-first "$ME"
		if wait_for "$W/b.out" "$COMM.*--after-first" 30; then
			ok "the second execsnoop sees an exec made after the first ended"
		else
			notok "the second execsnoop missed the exec made after the first ended: $(head -c 300 "$W/b.err")"
		fi
		TPID=$B B=
		snoop_stop "second execsnoop"
	fi
fi
mounts after
same "after both exited" before after

# ---- 2: the user mounts tracefs while a tool runs -------------------------
if tool_start c PCOMM execsnoop; then
	if mount -t tracefs user_tracefs /sys/kernel/tracing; then
		mounts user
		snoop_stop "execsnoop with a user's mount"
		mounts user_after
		same "the user's tracefs, mounted while a tool ran" user user_after
		umount /sys/kernel/tracing
	else
		notok "cannot mount tracefs at /sys/kernel/tracing while a tool runs"
		snoop_stop "execsnoop"
	fi
fi

# ---- 3: a user's tracefs at another path is used --------------------------
mkdir -p "$W/mytr"
if mount -t tracefs tracefs "$W/mytr"; then
	mounts other
	if tool_start d PCOMM execsnoop; then
		mounts other_running
		same "a tool using the user's tracefs at $W/mytr" other other_running
		# used as it is: no namespace of its own to mount one in
		if [ "$(readlink "/proc/$TPID/ns/mnt")" = "$(readlink /proc/self/ns/mnt)" ]; then
			ok "execsnoop uses the tracefs at $W/mytr (same mount namespace)"
		else
			notok "execsnoop made a mount namespace of its own although tracefs is at $W/mytr"
		fi
		"$PROG" --other-path "$ME"
		if wait_for "$W/d.out" "$COMM.*--other-path" 30; then ok "execsnoop works with tracefs at another path"
		else notok "execsnoop with tracefs at another path missed an exec"; fi
		snoop_stop "execsnoop with tracefs at another path"
	fi
	umount "$W/mytr"
else
	notok "cannot mount tracefs at $W/mytr"
fi

[ "$fails" = 0 ]
