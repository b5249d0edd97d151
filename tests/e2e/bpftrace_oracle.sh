#!/bin/sh
# corebox bpftrace beside Debian's bpftrace 0.17 (when installed): the
# same deterministic programs (a line may start with BPFTRACE_VAR=VALUE, then
# --unsafe, -k or -kk) (BEGIN/END only: no traced workload, no
# timing), stdout compared byte for byte, text and -f json.  The one
# difference allowed: comm is the running binary's name.
# Run as root from the repository root: sh tests/e2e/bpftrace_oracle.sh
set -u
T=bpftrace_oracle
. tests/e2e/lib.sh
bt_cases_begin
if ! command -v bpftrace >/dev/null 2>&1; then
	echo "ok - $T # SKIP bpftrace is not installed (apt-get install bpftrace)"
	exit 0
fi

while IFS= read -r prog; do
	[ -n "$prog" ] || continue
	n=$((n + 1))
	flags= envs=
	case $prog in BPFTRACE_*=*\ *) envs=${prog%% *} prog=${prog#* }; esac
	case $prog in --unsafe\ * | -kk\ * | -k\ *) flags=${prog%% *} prog=${prog#* }; esac
	for fmt in text json; do
		env $envs bpftrace $flags -f $fmt -e "$prog" 2>/dev/null | sed 's/bpftrace/COMM/g' > "$W/want" ||:
		env $envs $CB bpftrace $flags -f $fmt -e "$prog" 2>/dev/null | sed 's/corebox/COMM/g' > "$W/got" ||:
		bt_same "program $n ($fmt)" "$prog"
	done
done <<'PROGS'
BEGIN { exit(); }
BEGIN { printf("hello world\n"); exit(); }
BEGIN { printf("%d %s %-5s| %5d|%x %u %c%%\n", 3, "hi", "ab", 42, 255, -1, 65); exit(); }
BEGIN { @a = count(); @b[1, "x"] = sum(5); @g = min(3); @h = max(9); @s["k"] = count(); exit(); }
BEGIN { @c = hist(5); @c = hist(100); @c = hist(0); @c = hist(-1); @c = hist(1); exit(); }
BEGIN { @k[1] = hist(1); @k[2] = hist(3000); @k[3] = hist(1048576); exit(); }
BEGIN { @l = lhist(-1, 0, 10, 2); @l = lhist(11, 0, 10, 2); @l = lhist(5, 0, 10, 2); exit(); }
BEGIN { @e = stats(4); @e = stats(8); @f = avg(3); @f = avg(4); @g[1] = avg(10); exit(); }
BEGIN { @x = 5; @y = "str"; @z[comm] = 3; exit(); }
BEGIN { @a[1] = 1; @a[2] = 2; print(@a); print(@a, 1); @b = 3; zero(@b); print(@b); printf("--\n"); exit(); }
BEGIN { @a[1] = count(); clear(@a); @c[1] = 1; @c[2] = 2; delete(@c[1]); exit(); }
BEGIN { $x = 10; $x += 5; $x *= 2; $y = $x > 20 ? 1 : 2; if ($x == 30) { printf("%d %d\n", $x, $y); } else { printf("no\n"); } exit(); }
BEGIN { @m[1] = 1; @m[1]++; @m[1] += 10; @m[2]--; exit(); }
BEGIN { printf("%d %d %d\n", (uint8)257, (int8)255, (uint16)-1); exit(); }
BEGIN { @ = count(); exit(); } END { printf("end\n"); }
BEGIN { $a = ntop(0x0100007f); @[ntop(2, 0x0101a8c0)] = count(); printf("%s\n", $a); exit(); }
BEGIN { unroll(3) { @u++; } @e = 2e3 / 10; printf("%d\n", 1e6); exit(); }
BEGIN { @s = sum(-5); @t["a", 1] = stats(-3); @t["b", 2] = stats(7); exit(); }
BEGIN { cat("/proc/sys/kernel/ostype"); exit(); }
BEGIN { $i = 0; while ($i < 5) { @c++; $i++; } @d[$i % 2 ? "odd" : "even"] = count(); exit(); }
BEGIN { printf("%d %d %d %d %d %d %d\n", sizeof(comm), sizeof("abc"), sizeof(1), sizeof(pid), sizeof(uint64), sizeof(int8), sizeof(struct task_struct)); exit(); }
BEGIN { @t = strftime("%Y", 0); @u[1] = strftime("%m", 0); $d = strftime("%Y-%m-%d %H:%M %%", 0); printf("%s|%s\n", $d, strftime("%j", 0)); exit(); }
--unsafe BEGIN { system("echo sys %d %s", 5, "x"); system("true"); printf("after\n"); exit(); }
BEGIN { cat("/proc/sys/kernel/%s", "ostype"); cat("/proc/sys/kernel/%s%c", "ostyp", 101); exit(); }
BEGIN { @ = ((int32)-100, (int8)10, 50); @t = (1, 2, "string", (4, 5)); @u[1] = (-1, (uint8)-1, "x"); $t = (1, "ab", (3, 4)); printf("%d %s %d\n", $t.0, $t.1, $t.2.1); @v = @t.3; @w = @t.3.1; exit(); }
BEGIN { @x = ("hello", 0); @x = ("hi", 1); @n = ((int8)1, ((int8)-20, (int8)30)); @y[2] = (comm, 5); exit(); }
struct A { int32_t a; int32_t b; char c[28] }; BEGIN { $a = (struct A *)1024; printf("%lu %lu %lu\n", $a, sizeof(struct A), $a - 5); @p = (int32 *)32; @p += 6; @q = (int16 *)32; @q++; @r = (int64 *)32; @r -= 2; exit(); }
struct S { char c; int i; short s; } union U { int i; char b[6]; } struct T { unsigned a:4, b:8; short c; struct S in; long l; } BEGIN { printf("%d %d %d\n", sizeof(struct S), sizeof(union U), sizeof(struct T)); exit(); }
BEGIN { @a = 1; exit(); @a = 2; }
struct x { uint64_t x; }; BEGIN { $a = (*(struct x*)0).x; printf("%d %d\n", $a > -1, $a < 1); exit(); }
BEGIN { $i = 0; @i = 1; while ($i < 5) { $i++; if ($i == 3) { @i = $i; exit(); } @j[$i] = $i; } @i = 9; }
BEGIN { print(5); print("s"); $x = 7; print($x); print(1 + 2 * 3); exit(); }
BEGIN { @ = count(); @a[1] = count(); @c = avg(3); @d[2] = stats(4); @e = hist(3); clear(@); clear(@a); clear(@c); clear(@d); clear(@e); exit(); }
BEGIN { printf("_%d_%d_%d_\n", strncmp("one", "one ", 4), strncmp("hello", "hell", 4), strncmp("wow", comm, 17)); exit(); }
BEGIN { printf("%r|%rx|%rh\n", buf("Hello\0", 6), buf("hi\n", 3), buf("AB", 2)); @[buf("ok_key", 8), 1] = count(); @v = buf("ok_value", 8); exit(); }
BEGIN { printf("%s %s\n", ntop(2, pton("127.0.0.1")), ntop(10, pton("::1"))); exit(); }
BEGIN { @x = 1; exit(); @y = 2; }
BEGIN { print(ksym(0)); printf("%s|\n", ksym(0)); @k[ksym(1)] = 1; exit(); }
BEGIN { printf("%s|\n", username); @[username] = count(); @x = username; print(username); exit(); }
struct Foo { int m; int n; } struct G { struct { int m[1] } y; struct { int n; } a; } BEGIN { @s["k"] = 1; $t = (1, 2, "string"); print($t); print((1,"a")); $f = *((struct Foo *) 0); print($f); $g = *((struct G *) 0); print($g); print(((int8)-1, (1, "b"))); exit() }
struct Foo { int m; int n; } struct A { int x[4]; } BEGIN { $t = ((int32)1, *((struct Foo *)0)); print(sizeof($t)); print($t); $u = ((int32)1, ((struct A *)0)->x); print(sizeof($u)); print($u); @u = $u; @t = ((int8)3, (int16)4, "ab", (int32)5); exit(); }
BEGIN { @=usym(1); @a=@; $u = usym(0); @b = $u; @c[1] = usym(2); @d = @c[1]; @e = @c[5]; @i = ntop(1); @k = ksym(0); exit(); }
BEGIN { printf("%s|%s|%s\n", strerror(2), strerror(1), strerror(13)); print(strerror(300)); print(strerror(22)); exit(); }
BEGIN { @v = strerror(22); $e = strerror(1); print($e); $u = username; print($u); $k = ksym(0); print($k); exit(); }
BEGIN { strncmp("a","b",1); bswap(3); ksym(0); strerror(1); sizeof(int32); printf("x\n"); exit(); }
BEGIN { $a = pton("127.0.0.1"); printf("%d %d\n", $a[0], $a[3]); @ = pton("::1"); @b = pton("10.1.2.3"); print(pton("1.2.3.4")); printf("%s\n", ntop(pton("::2"))); exit(); }
BEGIN { $p = (int32 *)0x10; @a[$p] = 1; @e[(uint8 *)1, (uint64)2] = 1; @f[(int32 *)0x10 + 1] = 1; @v = (int32 *)0x1234; @neg[(int64 *)-16] = 2; @t = (1, (int64 *)0x20); exit(); }
BEGIN { print(cgroup_path(1)); printf("%s|\n", cgroup_path(1, "uni*")); @v = cgroup_path(1, "nomatch"); @w = cgroup_path(1); @x = cgroup_path(12345); exit(); }
BEGIN { if (strcontains("abc", "a")) { printf("OK\n"); } $h = "hello world"; $n = "o w"; printf("%d %d %d %d %d\n", strcontains($h, $n), strcontains($h, "x"), strcontains("", ""), strcontains($h, ""), strcontains("ab", "abc")); exit(); }
-kk BEGIN { @ = *(uint32*)16; printf("%s|\n", str(8)); $a = *(int8*)24; printf("%d\n", $a); exit(); }
-kk BEGIN { @x[1] = 2; printf("%d\n", @x[5]); delete(@x[7]); exit(); }
-kk struct foo {int a;}; BEGIN { $tmp = ((struct foo*) 0)->a; exit(); }
BPFTRACE_MAP_KEYS_MAX=1 -k BEGIN { @a[1]=1; @a[2] = 2; @b[1]++; @b[2]++; @c[1] = count(); @c[2] = count(); @e[1] = hist(1); @e[2] = hist(1); ++@i[1]; ++@i[2]; @j[1] = "a"; @j[2] = "b"; @k[1] = 1; @k[2] += 1; exit() }
BPFTRACE_MAP_KEYS_MAX=1 BEGIN { @a[1]=1; @a[2] = 2; exit() }
PROGS
# errors: stderr and the exit code too
while IFS= read -r prog; do
	n=$((n + 1))
	prog=$(printf '%b' "$prog")
	bpftrace -e "$prog" > "$W/w0" 2>&1
	echo "rc $?" >> "$W/w0"
	grep -v RLIMIT_MEMLOCK "$W/w0" > "$W/want"
	$CB bpftrace -e "$prog" > "$W/got" 2>&1
	echo "rc $?" >> "$W/got"
	if cmp -s "$W/want" "$W/got"; then ok "error $n"; else notok "error $n: $prog"; diff "$W/want" "$W/got" | head -10 | sed 's/^/#   /'; fi
done <<'ERRS'
#include <missing.h>\nBEGIN { exit(); }
#define X 1\nstruct Foo {\n  int a;\n}\n#include  "cbx/none.h"\nBEGIN { exit(); }
struct foo {int a;}; BEGIN { $tmp = ((struct foo*) 0)->b; exit(); }
BEGIN { $tmp = curtask->mm->bbb; }
BEGIN { $x = (struct task_struct *)0; $y = sizeof(struct task_struct) + $x->zz; }
ERRS
echo "# $n programs"
[ $fails = 0 ]
