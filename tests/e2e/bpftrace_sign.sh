#!/bin/sh
# corebox bpftrace's integer signs as bpftrace 0.17 has them: builtins typed
# uint64, x OP y unsigned unless both sides are signed, a map first written
# by x OP= y unsigned, count() unsigned and sum() with its argument's sign,
# unsigned values printed with %llu (and sorted so), / % >> always unsigned
# in the generated code, and the "different signs" / "signed operands"
# warnings with their positions.  Each BEGIN program's stderr then stdout is
# compared with what Debian's bpftrace 0.17 printed for it (recorded below).
# Run as root from the repository root: sh tests/e2e/bpftrace_sign.sh
set -u
T=bpftrace_sign
. tests/e2e/lib.sh
bt_cases_begin

check() {
	[ -n "${prog:-}" ] || return 0
	n=$((n + 1))
	# "===c PROG": run with -c /bin/true (its first read(2) traced)
	case $prog in c\ *) set -- -c /bin/true; prog=${prog#c }; ;; *) set -- ;; esac
	timeout 20 $CB bpftrace "$@" -e "$prog" > "$W/out" 2> "$W/err"
	cat "$W/err" "$W/out" > "$W/got"
	bt_same "program $n" "$prog"
}
prog=
while IFS= read -r line; do
	case $line in
	'=== '* | '===c '*) check; prog=${line#===}; prog=${prog# }; : > "$W/want" ;;
	*) printf '%s\n' "$line" >> "$W/want" ;;
	esac
done <<'CASES'
=== BEGIN { @ = (uint64)-1; exit(); }
Attaching 1 probe...


@: 18446744073709551615
=== BEGIN { @ = nsecs * 0 - 1; @t = tid - tid - 1; @u = uid - uid - 1; @g = gid - gid - 1; @c = cpu - cpu - 1; exit(); }
Attaching 1 probe...


@: 18446744073709551615
@c: 18446744073709551615
@g: 18446744073709551615
@t: 18446744073709551615
@u: 18446744073709551615
=== BEGIN { @x -= 1; @y++; @z--; @w = -1; @w++; exit(); }
Attaching 1 probe...


@w: 0
@x: 18446744073709551615
@y: 1
@z: -1
=== BEGIN { @x += -5; exit(); }
stdin:1:12-14: WARNING: arithmetic on integers of different signs: 'unsigned int64' and 'int64' can lead to undefined behavior
BEGIN { @x += -5; exit(); }
           ~~
Attaching 1 probe...


@x: 18446744073709551611
=== BEGIN { @ = pid - 1 - pid; @b = (int64)pid - 1 - pid; exit(); }
stdin:1:48-49: WARNING: arithmetic on integers of different signs: 'int64' and 'unsigned int64' can lead to undefined behavior
BEGIN { @ = pid - 1 - pid; @b = (int64)pid - 1 - pid; exit(); }
                                               ~
Attaching 1 probe...


@: 18446744073709551615
@b: 18446744073709551615
=== BEGIN { $a = (uint64)5; $b = -7; @a = $a + $b; @m = $b * $a; @d = $a / $b; @c = $a < $b; @n = $a & $b; exit(); }
stdin:1:42-43: WARNING: arithmetic on integers of different signs: 'unsigned int64' and 'int64' can lead to undefined behavior
BEGIN { $a = (uint64)5; $b = -7; @a = $a + $b; @m = $b * $a; @d = $a / $b; @c = $a < $b; @n = $a & $b; exit(); }
                                         ~
stdin:1:56-57: WARNING: arithmetic on integers of different signs: 'int64' and 'unsigned int64' can lead to undefined behavior
BEGIN { $a = (uint64)5; $b = -7; @a = $a + $b; @m = $b * $a; @d = $a / $b; @c = $a < $b; @n = $a & $b; exit(); }
                                                       ~
stdin:1:70-71: WARNING: arithmetic on integers of different signs: 'unsigned int64' and 'int64' can lead to undefined behavior
BEGIN { $a = (uint64)5; $b = -7; @a = $a + $b; @m = $b * $a; @d = $a / $b; @c = $a < $b; @n = $a & $b; exit(); }
                                                                     ~
stdin:1:70-71: WARNING: signed operands for '/' can lead to undefined behavior (cast to unsigned to silence warning)
BEGIN { $a = (uint64)5; $b = -7; @a = $a + $b; @m = $b * $a; @d = $a / $b; @c = $a < $b; @n = $a & $b; exit(); }
                                                                     ~
stdin:1:84-85: WARNING: comparison of integers of different signs: 'unsigned int64' and 'int64' can lead to undefined behavior
BEGIN { $a = (uint64)5; $b = -7; @a = $a + $b; @m = $b * $a; @d = $a / $b; @c = $a < $b; @n = $a & $b; exit(); }
                                                                                   ~
Attaching 1 probe...


@a: 18446744073709551614
@c: 1
@d: 0
@m: 18446744073709551581
@n: 1
=== BEGIN { $a = -16; @s = $a >> 2; @d = $a / 3; @m = $a % 3; @u = (uint64)$a / 3; @l = $a < 3; @k = (uint64)$a < 3; exit(); }
stdin:1:41-42: WARNING: signed operands for '/' can lead to undefined behavior (cast to unsigned to silence warning)
BEGIN { $a = -16; @s = $a >> 2; @d = $a / 3; @m = $a % 3; @u = (uint64)$a / 3; @l = $a < 3; @k = (uint64)$a < 3; exit(); }
                                        ~
stdin:1:54-55: WARNING: signed operands for '%' can lead to undefined behavior (cast to unsigned to silence warning)
BEGIN { $a = -16; @s = $a >> 2; @d = $a / 3; @m = $a % 3; @u = (uint64)$a / 3; @l = $a < 3; @k = (uint64)$a < 3; exit(); }
                                                     ~
Attaching 1 probe...


@d: 6148914691236517200
@k: 0
@l: 1
@m: 0
@s: 4611686018427387900
@u: 6148914691236517200
=== BEGIN { @ = sum(-5); @c = count(); @m = min(-3); @a = avg(-4); @s = stats(-3); @h = hist(-1); exit(); }
Attaching 1 probe...


@: -5
@a: -4

@c: 1
@h: 
(..., 0)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|

@m: -3
@s: count 1, average -3, total -3

=== BEGIN { @ = sum((uint64)-5); @m = min((uint64)-3); @a = avg((uint64)-4); exit(); }
Attaching 1 probe...


@: 18446744073709551611
@a: -4

@m: -3
=== BEGIN { @ = -(nsecs * 0 + 1); @b = ~(uint64)0; @c = !5; @d = ~0; @e = -(uint64)1; @f = !0 - 2; exit(); }
Attaching 1 probe...


@: 18446744073709551615
@b: 18446744073709551615
@c: 0
@d: -1
@e: 18446744073709551615
@f: 18446744073709551615
=== BEGIN { @ = 1 ? (uint64)-1 : 2; @b = 1 ? -1 : (uint64)2; @c = 1 > 0 ? pid - pid - 1 : 5; exit(); }
Attaching 1 probe...


@: 18446744073709551615
@b: -1
@c: 18446744073709551615
=== BEGIN { printf("%d %u %d\n", (uint64)-1, -1, pid - pid - 1); exit(); }
Attaching 1 probe...
-1 4294967295 -1


=== BEGIN { @[(uint64)-1] = 1; @[-1] = 2; @k[pid - pid - 1] = count(); @b[(uint32)-1, (int32)-1] = 1; exit(); }
Attaching 1 probe...


@[-1]: 2
@b[4294967295, -1]: 1
@k[-1]: 1
=== BEGIN { @x = (uint32)-1; @y = (int8)-1; @z = (uint8)-1 + 0; @d = (uint8)1 - (uint8)2; @c = (int8)1 - (int8)2; exit(); }
Attaching 1 probe...


@c: -1
@d: 18446744073709551615
@x: 4294967295
@y: -1
@z: 255
=== BEGIN { $x = (uint64)3; $x -= 5; @ = $x; $y = 3; $y -= 5; @y = $y; exit(); }
Attaching 1 probe...


@: 18446744073709551614
@y: -2
=== BEGIN { @ = 5 - (uint64)7; @b = (uint64)5 - 7; @c = (uint64)1 - 2 * 3; exit(); }
stdin:1:63-64: WARNING: arithmetic on integers of different signs: 'unsigned int64' and 'int64' can lead to undefined behavior
BEGIN { @ = 5 - (uint64)7; @b = (uint64)5 - 7; @c = (uint64)1 - 2 * 3; exit(); }
                                                              ~
Attaching 1 probe...


@: 18446744073709551614
@b: 18446744073709551614
@c: 18446744073709551611
=== BEGIN { @x = 1; @x = (uint64)-1; @y = (uint64)1; @y = -1; $v = (uint64)1; $v = -1; @v = $v; exit(); }
Attaching 1 probe...


@v: 18446744073709551615
@x: -1
@y: 18446744073709551615
=== BEGIN { @a = strncmp("a", "b", 1) - 5; @b = bswap((uint32)1) - bswap((uint32)1) - 1; @s = sizeof(1) - 2; exit(); }
Attaching 1 probe...


@a: 18446744073709551612
@b: 18446744073709551615
@s: 6
=== BEGIN { @a[1] = sum(-1); @a[2] = sum(5); @b[1] = (uint64)-1; @b[2] = 5; @c = sum(pid - pid - 1); exit(); }
Attaching 1 probe...


@a[1]: -1
@a[2]: 5
@b[2]: 5
@b[1]: 18446744073709551615
@c: 18446744073709551615
=== BEGIN { @b[1] = (uint64)3; @b[2] = 5; @b[3] = (uint64)-1; print(@b, 2); exit(); }
Attaching 1 probe...
@b[2]: 5
@b[3]: 18446744073709551615


@b[1]: 3
@b[2]: 5
@b[3]: 18446744073709551615
=== BEGIN { @x = -1; @x += (uint64)2; @y += 1; @y = -1; @z = (uint64)-2; @z++; exit(); }
stdin:1:21-23: WARNING: arithmetic on integers of different signs: 'int64' and 'unsigned int64' can lead to undefined behavior
BEGIN { @x = -1; @x += (uint64)2; @y += 1; @y = -1; @z = (uint64)-2; @z++; exit(); }
                    ~~
Attaching 1 probe...


@x: 1
@y: 18446744073709551615
@z: 18446744073709551615
=== BEGIN { @ = pid * -1 + pid; exit(); }
stdin:1:17-18: WARNING: arithmetic on integers of different signs: 'unsigned int64' and 'int64' can lead to undefined behavior
BEGIN { @ = pid * -1 + pid; exit(); }
                ~
Attaching 1 probe...


@: 0
=== BEGIN { @ = pid == -1; @b = -1 <= pid; @c = (uint64)5 != -1; @d = pid > 0; exit(); }
stdin:1:17-19: WARNING: comparison of integers of different signs: 'unsigned int64' and 'int64' can lead to undefined behavior
BEGIN { @ = pid == -1; @b = -1 <= pid; @c = (uint64)5 != -1; @d = pid > 0; exit(); }
                ~~
stdin:1:32-34: WARNING: comparison of integers of different signs: 'int64' and 'unsigned int64' can lead to undefined behavior
BEGIN { @ = pid == -1; @b = -1 <= pid; @c = (uint64)5 != -1; @d = pid > 0; exit(); }
                               ~~
stdin:1:55-57: WARNING: comparison of integers of different signs: 'unsigned int64' and 'int64' can lead to undefined behavior
BEGIN { @ = pid == -1; @b = -1 <= pid; @c = (uint64)5 != -1; @d = pid > 0; exit(); }
                                                      ~~
Attaching 1 probe...


@: 0
@b: 0
@c: 1
@d: 1
=== BEGIN { @ = $1 - pid + pid; @a = (uint64)10 % 3 - 4; @b = -10 / -3; @c = 10 / -3; exit(); }
stdin:1:63-64: WARNING: signed operands for '/' can lead to undefined behavior (cast to unsigned to silence warning)
BEGIN { @ = $1 - pid + pid; @a = (uint64)10 % 3 - 4; @b = -10 / -3; @c = 10 / -3; exit(); }
                                                              ~
stdin:1:77-78: WARNING: signed operands for '/' can lead to undefined behavior (cast to unsigned to silence warning)
BEGIN { @ = $1 - pid + pid; @a = (uint64)10 % 3 - 4; @b = -10 / -3; @c = 10 / -3; exit(); }
                                                                            ~
Attaching 1 probe...


@: 0
@a: 18446744073709551613
@b: 0
@c: 0
=== BEGIN { $x = pid - pid - 1; $x -= 1; @ = $x; @y = $x >> 60; @t = (pid - pid - 1, -1); exit(); }
Attaching 1 probe...


@: 18446744073709551614
@t: (18446744073709551615, -1)
@y: 15
=== BEGIN { $a = (uint32)5; $b = (int8)-1; @ = $a - $b; @c = $a > $b; @x = -1; @x *= (uint64)2; @x /= 2; $y = -4; $y %= 3; exit(); }
stdin:1:47-48: WARNING: arithmetic on integers of different signs: 'unsigned int32' and 'int8' can lead to undefined behavior
BEGIN { $a = (uint32)5; $b = (int8)-1; @ = $a - $b; @c = $a > $b; @x = -1; @x *= (uint64)2; @x /= 2; $y = -4; $y %= 3; exit(); }
                                              ~
stdin:1:61-62: WARNING: comparison of integers of different signs: 'unsigned int32' and 'int8' can lead to undefined behavior
BEGIN { $a = (uint32)5; $b = (int8)-1; @ = $a - $b; @c = $a > $b; @x = -1; @x *= (uint64)2; @x /= 2; $y = -4; $y %= 3; exit(); }
                                                            ~
stdin:1:79-81: WARNING: arithmetic on integers of different signs: 'int64' and 'unsigned int64' can lead to undefined behavior
BEGIN { $a = (uint32)5; $b = (int8)-1; @ = $a - $b; @c = $a > $b; @x = -1; @x *= (uint64)2; @x /= 2; $y = -4; $y %= 3; exit(); }
                                                                              ~~
stdin:1:96-98: WARNING: signed operands for '/' can lead to undefined behavior (cast to unsigned to silence warning)
BEGIN { $a = (uint32)5; $b = (int8)-1; @ = $a - $b; @c = $a > $b; @x = -1; @x *= (uint64)2; @x /= 2; $y = -4; $y %= 3; exit(); }
                                                                                               ~~
stdin:1:114-116: WARNING: signed operands for '%' can lead to undefined behavior (cast to unsigned to silence warning)
BEGIN { $a = (uint32)5; $b = (int8)-1; @ = $a - $b; @c = $a > $b; @x = -1; @x *= (uint64)2; @x /= 2; $y = -4; $y %= 3; exit(); }
                                                                                                                 ~~
Attaching 1 probe...


@: 6
@c: 0
@x: 9223372036854775807
=== BEGIN { $a = (uint64)1; if ($a - 2 > -1) { printf("yes\n"); } @ = $a - 2 > -1 ? 1 : 2; exit(); }
stdin:1:36-37: WARNING: comparison of integers of different signs: 'unsigned int64' and 'int64' can lead to undefined behavior
BEGIN { $a = (uint64)1; if ($a - 2 > -1) { printf("yes\n"); } @ = $a - 2 > -1 ? 1 : 2; exit(); }
                                   ~
stdin:1:74-75: WARNING: comparison of integers of different signs: 'unsigned int64' and 'int64' can lead to undefined behavior
BEGIN { $a = (uint64)1; if ($a - 2 > -1) { printf("yes\n"); } @ = $a - 2 > -1 ? 1 : 2; exit(); }
                                                                         ~
Attaching 1 probe...


@: 2
=== BEGIN /(uint64)1 - -1/ { @ = (uint8)200 + (int8)-1; @b = (uint16)1 - (uint32)2; exit(); }
stdin:1:18-19: WARNING: arithmetic on integers of different signs: 'unsigned int64' and 'int64' can lead to undefined behavior
BEGIN /(uint64)1 - -1/ { @ = (uint8)200 + (int8)-1; @b = (uint16)1 - (uint32)2; exit(); }
                 ~
stdin:1:41-42: WARNING: arithmetic on integers of different signs: 'unsigned int8' and 'int8' can lead to undefined behavior
BEGIN /(uint64)1 - -1/ { @ = (uint8)200 + (int8)-1; @b = (uint16)1 - (uint32)2; exit(); }
                                        ~
Attaching 1 probe...


@: 199
@b: 18446744073709551615
=== BEGIN { $x = 10; $x /= 3; $x >>= 1; @ = $x; @y = -7 >> 1; @z = (int64)-7 / 2; @a = 5; @b = @a - pid + pid; exit(); }
stdin:1:21-23: WARNING: signed operands for '/' can lead to undefined behavior (cast to unsigned to silence warning)
BEGIN { $x = 10; $x /= 3; $x >>= 1; @ = $x; @y = -7 >> 1; @z = (int64)-7 / 2; @a = 5; @b = @a - pid + pid; exit(); }
                    ~~
stdin:1:74-75: WARNING: signed operands for '/' can lead to undefined behavior (cast to unsigned to silence warning)
BEGIN { $x = 10; $x /= 3; $x >>= 1; @ = $x; @y = -7 >> 1; @z = (int64)-7 / 2; @a = 5; @b = @a - pid + pid; exit(); }
                                                                         ~
stdin:1:95-96: WARNING: arithmetic on integers of different signs: 'int64' and 'unsigned int64' can lead to undefined behavior
BEGIN { $x = 10; $x /= 3; $x >>= 1; @ = $x; @y = -7 >> 1; @z = (int64)-7 / 2; @a = 5; @b = @a - pid + pid; exit(); }
                                                                                              ~
Attaching 1 probe...


@: 1
@a: 5
@b: 5
@y: 9223372036854775804
@z: 9223372036854775804
=== BEGIN { $x = (struct task_struct *)0; $y = sizeof(struct task_struct) + $x->zz; }
stdin:1:75-81: ERROR: Struct/union of type 'struct task_struct' does not contain a field named 'zz'
BEGIN { $x = (struct task_struct *)0; $y = sizeof(struct task_struct) + $x->zz; }
                                                                          ~~~~~~
=== BEGIN { @a = ~(uint32)0; @b = -(uint32)1; @c = ~(int32)0; @d = -(uint8)1; @e = ~(uint8)1; exit(); }
Attaching 1 probe...


@a: 4294967295
@b: 4294967295
@c: -1
@d: 255
@e: 254
===c tracepoint:syscalls:sys_enter_read /pid == cpid/ { @a = args->fd * 0 - 1; @b = args->count * 0 - 1; exit(); }
Attaching 1 probe...


@a: 18446744073709551615
@b: 18446744073709551615
===c tracepoint:syscalls:sys_exit_read /pid == cpid/ { @r = args->ret * 0 - 1; @s = args->ret - args->ret - 1 < 0; exit(); }
Attaching 1 probe...


@r: -1
@s: 1
=== BEGIN { @a = (uint8)200 > (int8)-1; @b = (uint16)5 < -1; @c = (int16)-5 < (int8)1; @d = (uint8)1 - 2 < 0; @e = (uint32)5 < -1; exit(); }
stdin:1:25-26: WARNING: comparison of integers of different signs: 'unsigned int8' and 'int8' can lead to undefined behavior
BEGIN { @a = (uint8)200 > (int8)-1; @b = (uint16)5 < -1; @c = (int16)-5 < (int8)1; @d = (uint8)1 - 2 < 0; @e = (uint32)5 < -1; exit(); }
                        ~
stdin:1:52-53: WARNING: comparison of integers of different signs: 'unsigned int16' and 'int64' can lead to undefined behavior
BEGIN { @a = (uint8)200 > (int8)-1; @b = (uint16)5 < -1; @c = (int16)-5 < (int8)1; @d = (uint8)1 - 2 < 0; @e = (uint32)5 < -1; exit(); }
                                                   ~
stdin:1:122-123: WARNING: comparison of integers of different signs: 'unsigned int32' and 'int64' can lead to undefined behavior
BEGIN { @a = (uint8)200 > (int8)-1; @b = (uint16)5 < -1; @c = (int16)-5 < (int8)1; @d = (uint8)1 - 2 < 0; @e = (uint32)5 < -1; exit(); }
                                                                                                                         ~
Attaching 1 probe...


@a: 0
@b: 1
@c: 1
@d: 0
@e: 1
CASES
check
echo "# $n programs"
[ $fails = 0 ]
