#!/bin/sh
# Build every tests/unit/test_*.c with the host compiler under ASan+UBSan,
# linked against lib/, elf/, btf/, bpf/, loader/, tools/common/, tools/stack/ and tools/probe/ (the shared
# user side; not the applets).
set -e
out=${1:-build/test/unit}
mkdir -p "$out/obj"
CC=${HOSTCC:-gcc}
CFLAGS="-g -O1 -std=gnu11 -D_GNU_SOURCE -I. -Ilib -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -Wall -Wno-unused-parameter -DCOREBOX_VERSION=\"unit\""
objs=""
for s in lib/*.c elf/*.c btf/*.c bpf/*.c loader/*.c tools/common/*.c tools/stack/*.c tools/probe/*.c tools/trace/*.c; do
	[ -f "$s" ] || continue
	o="$out/obj/$(echo "$s" | tr / _).o"
	if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ -n "$(find lib elf btf bpf loader tools/common tools/stack tools/probe tools/trace -name '*.h' -newer "$o" 2>/dev/null | head -n 1)" ]; then
		$CC $CFLAGS -c -o "$o" "$s"
	fi
	objs="$objs $o"
done
for t in tests/unit/test_*.c; do
	[ -f "$t" ] || continue
	n=$(basename "$t" .c)
	$CC $CFLAGS -o "$out/$n" "$t" $objs
done
