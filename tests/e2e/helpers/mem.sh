# Helpers the memory tools' end-to-end scripts share (POSIX sh; sourced as
# tests/e2e/helpers/mem.sh after lib.sh, which sets CC, ok, notok, wait_for...).

# mem_build NAME...: tests/e2e/helpers/NAME.c -> $W/NAME with frame
# pointers (the tools walk user stacks by them)
mem_build() {
	for h in "$@"; do
		build_helper "$h" -O0 -fno-omit-frame-pointer
	done
}

# tstop LABEL TENTHS: SIGINT; the tool must exit with status 0 within
# TENTHS tenths of a second (uprobe detaching takes ~0.1 s per probe).
tstop() {
	[ -n "$TPID" ] || return
	kill -INT "$TPID" 2>/dev/null
	if wait_exit "$TPID" "$2"; then
		wait "$TPID"
		rc=$?
		if [ "$rc" = 0 ]; then ok "$1: exits 0 after SIGINT"; else notok "$1: exit status $rc after SIGINT: $(head -c 300 "$W/$1.err")"; fi
	else
		notok "$1: still running $(($2 / 10)) s after SIGINT"
		kill -KILL "$TPID" 2>/dev/null
		wait "$TPID" 2>/dev/null
	fi
	TPID=
}

# twait LABEL TENTHS: the tool ends by itself (duration, count); status 0
twait() {
	if wait_exit "$TPID" "$2"; then
		wait "$TPID"
		rc=$?
		if [ "$rc" = 0 ]; then ok "$1: ends by itself with status 0"; else notok "$1: exit status $rc: $(head -c 300 "$W/$1.err")"; fi
	else
		notok "$1: still running after $(($2 / 10)) s"
		kill -KILL "$TPID" 2>/dev/null
		wait "$TPID" 2>/dev/null
	fi
	TPID=
}

# json_ok LABEL: every line of $W/LABEL.out is a JSON value
json_ok() {
	if python3 -c 'import json,sys
n = 0
for l in open(sys.argv[1]):
    if l.strip():
        json.loads(l); n += 1
sys.exit(0 if n else 1)' "$W/$1.out" 2>"$W/$1.jerr"; then
		ok "$1: JSON lines parse"
	else
		notok "$1: JSON does not parse: $(head -c 300 "$W/$1.jerr") $(head -c 300 "$W/$1.out")"
	fi
}

# prom_ok FILE LABEL: FILE is valid Prometheus text (tests/e2e/promcheck.py);
# its samples as JSON in FILE.json
prom_ok() {
	if python3 tests/e2e/promcheck.py "$1" > "$1.json" 2> "$W/prom.err"; then
		ok "$2: Prometheus file is valid"
	else
		notok "$2: Prometheus file: $(head -c 300 "$W/prom.err")"
	fi
}

# ---- memory cgroups ---------------------------------------------------------
# A cgroup with a memory limit: cgroup v2 where its memory controller can be
# enabled, else cgroup v1's memory controller (hosts that keep memory on v1,
# like this project's build machine: v2 at /sys/fs/cgroup/unified holds only
# hugetlb).  Sets CG (directory), CGPROCS (the file taking a pid), CGKIND.

memcg_create() { # NAME LIMIT_BYTES
	CG= CGPROCS= CGKIND=
	v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	if [ -n "$v2" ] && grep -qw memory "$v2/cgroup.controllers" 2>/dev/null; then
		grep -qw memory "$v2/cgroup.subtree_control" 2>/dev/null || echo +memory > "$v2/cgroup.subtree_control" 2>/dev/null
		if grep -qw memory "$v2/cgroup.subtree_control" 2>/dev/null && mkdir "$v2/$1" 2>/dev/null; then
			CG=$v2/$1 CGPROCS=$v2/$1/cgroup.procs CGKIND=v2
			echo "$2" > "$CG/memory.max"
			echo 0 > "$CG/memory.swap.max" 2>/dev/null
			return 0
		fi
	fi
	v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
	if [ -n "$v1" ] && mkdir "$v1/$1" 2>/dev/null; then
		CG=$v1/$1 CGPROCS=$v1/$1/cgroup.procs CGKIND=v1
		echo "$2" > "$CG/memory.limit_in_bytes" || return 1
		echo "$2" > "$CG/memory.memsw.limit_in_bytes" 2>/dev/null
		return 0
	fi
	return 1
}

# memcg_run CMD...: CMD in the cgroup (exec'd by a shell that joined it)
memcg_run() {
	sh -c 'echo $$ > "$0" && exec "$@"' "$CGPROCS" "$@"
}

memcg_remove() {
	[ -n "$CG" ] || return 0
	for i in 1 2 3 4 5 6 7 8 9 10; do
		rmdir "$CG" 2>/dev/null && break
		sleep 0.2
	done
	CG=
}
