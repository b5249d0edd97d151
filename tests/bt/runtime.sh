#!/bin/sh
# Run bpftrace's runtime test suite against a bpftrace-compatible binary.
#   sh tests/bt/runtime.sh [-j N] [-o RESULTS.tsv] SUITE_DIR BINARY [SUITE...]
# SUITE_DIR is tests/runtime of a bpftrace checkout (tag v0.17.0 matches the
# oracle's dialect), e.g. extracted with
#   git -C BPFTRACE_REPO archive v0.17.0 tests/runtime | tar -x -C DIR
# BINARY is bpftrace itself or corebox (run through a link named bpftrace).
# Our own equivalents of bpftrace's ./testprogs are built here with cc.
set -e
here=$(cd "$(dirname "$0")" && pwd)
opts=
while [ $# -gt 0 ]; do
	case $1 in
	-j|-o) opts="$opts $1 $2"; shift 2 ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { echo "usage: runtime.sh [-j N] [-o RESULTS.tsv] SUITE_DIR BINARY [SUITE...]" >&2; exit 2; }
suite=$1 bin=$2; shift 2
[ -f "$suite/basic" ] || { echo "runtime.sh: $suite has no 'basic' case file: give bpftrace's tests/runtime folder" >&2; exit 2; }
command -v python3 >/dev/null || { echo "runtime.sh: needs python3 (test tooling only)" >&2; exit 2; }
case $bin in /*) ;; *) bin=$(command -v "$bin" || echo "$PWD/$bin") ;; esac
work=${TMPDIR:-/tmp}/corebox-bt-runtime.$$
mkdir -p "$work/build/testprogs" "$work/build/testlibs" # (real dirs: -l -p names a binary by its real path)
trap 'rm -rf "$work"' EXIT INT TERM
# -O0 -g as bpftrace builds them: every probed function stays out of line.
# testlibs/libNAME.so lose their executable bit, as bpftrace's build does;
# usdt_lib links libusdt_tp.so. Programs using sys/sdt.h do not build
# without it, and their cases are skipped.
for src in "$here"/testlibs/*.c; do
	name=$(basename "$src" .c)
	${CC:-cc} -O0 -g -shared -fPIC -o "$work/build/testlibs/lib$name.so" "$src" &&
		chmod -x "$work/build/testlibs/lib$name.so" || echo "runtime.sh: testlibs/lib$name.so did not build" >&2
done
for src in "$here"/testprogs/*.c; do
	name=$(basename "$src" .c)
	libs=
	[ "$name" = usdt_lib ] && libs="-L$work/build/testlibs -lusdt_tp -Wl,-rpath,$work/build/testlibs"
	# shellcheck disable=SC2086
	${CC:-cc} -O0 -g -o "$work/build/testprogs/$name" "$src" $libs 2>/dev/null ||
		echo "runtime.sh: testprogs/$name did not build" >&2
done
# shellcheck disable=SC2086
python3 "$here/runtime.py" $opts "$suite" "$bin" "$work/build/testprogs" "$work" "$@"
