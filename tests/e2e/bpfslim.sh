#!/bin/sh
# The embedded objects are the tools' objects slimmed (tools/bpfslim.py:
# no line_info, no source-line strings, no branch labels, only the BTF
# types and members the object uses, CO-RE access strings renumbered for
# them) and packed
# against one dictionary (tools/bpfpack.py).  End to end:
#  - every build/bpf/NAME.slim.o loads here exactly as NAME.bpf.o does:
#    `corebox run --dry-run` (the kernel's verifier takes each program, the
#    maps are created) prints the same programs, statuses and maps (some
#    objects need their tool's setup, or fentry/kprobes this kernel lacks,
#    and fail in `run` alike: at most a quarter of them);
#  - each slim object is smaller and still has .BTF.ext (func_info and the
#    CO-RE records);
#  - `corebox btf min` over the packed files (build/bpf/NAME.cbz, inflated
#    with the dictionary embedded in ./corebox) writes the same bytes as over
#    the plain objects: the same CO-RE relocations and attach targets (so
#    the trimmed local types and renumbered access strings name the same
#    kernel members).
# Run as root from the repository root after make: sh tests/e2e/bpfslim.sh
set -u
CB=${COREBOX:-./corebox}
B=build/bpf
W=$(mktemp -d /tmp/cbx-bpfslim.XXXXXX)
fails=0
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM

ok() { echo "ok - bpfslim: $*"; }
notok() { echo "not ok - bpfslim: $*"; fails=$((fails + 1)); }

[ -x "$CB" ] || { echo "not ok - bpfslim: $CB not built"; exit 1; }
ls $B/*.slim.o > /dev/null 2>&1 || { echo "not ok - bpfslim: no $B/*.slim.o (run make)"; exit 1; }

n=0 same=0 loaded=0
for s in $B/*.slim.o; do
	t=$(basename "$s" .slim.o)
	o=$B/$t.bpf.o
	n=$((n + 1))
	timeout 30 "$CB" run "$o" --dry-run > "$W/full" 2>&1
	timeout 30 "$CB" run "$s" --dry-run > "$W/slim" 2>&1
	grep -q ' loaded$' "$W/full" && loaded=$((loaded + 1))
	if cmp -s "$W/full" "$W/slim"; then
		same=$((same + 1))
	else
		notok "$t: run --dry-run differs between $o and $s: $(diff "$W/full" "$W/slim" | head -5 | tr '\n' ' ')"
	fi
	if [ "$(stat -c %s "$s")" -ge "$(stat -c %s "$o")" ]; then
		notok "$t: $s ($(stat -c %s "$s") bytes) is not smaller than $o ($(stat -c %s "$o"))"
	fi
	if ! grep -q '\.BTF\.ext' "$s"; then
		notok "$t: $s has no .BTF.ext"
	fi
done
[ "$same" = "$n" ] && ok "all $n slim objects load here as their full objects do (run --dry-run: same programs, statuses, maps; $loaded of them load programs under libbpf's defaults, the others fail the same way)"
[ "$loaded" -ge $((n * 3 / 4)) ] || notok "only $loaded of $n objects load a program with run --dry-run"

if [ -r /sys/kernel/btf/vmlinux ]; then
	# shellcheck disable=SC2046
	"$CB" btf min /sys/kernel/btf/vmlinux -o "$W/min.plain" $(ls $B/*.bpf.o) > "$W/min.log" 2>&1
	# shellcheck disable=SC2046
	"$CB" btf min /sys/kernel/btf/vmlinux -o "$W/min.cbz" $(ls $B/*.bpf.o | sed 's/\.bpf\.o$/.cbz/') >> "$W/min.log" 2>&1
	if [ -s "$W/min.plain" ] && cmp -s "$W/min.plain" "$W/min.cbz"; then
		ok "btf min from the $n packed objects ($B/*.cbz) = from the plain ones ($(stat -c %s "$W/min.plain") bytes)"
	else
		notok "btf min differs between the packed and plain objects: $(tail -n 2 "$W/min.log" | tr '\n' ' ')"
	fi
else
	ok "btf min comparison skipped (no /sys/kernel/btf/vmlinux)"
fi
[ $fails = 0 ]
