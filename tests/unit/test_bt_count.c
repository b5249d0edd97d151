/* bpftrace -v's node count (tools/probe/bt_count.c) against what Debian's
 * bpftrace 0.17 printed ("INFO: node count: N") for the same programs:
 * its tree differs from corebox's (a->f is (*a).f, -1 one literal,
 * "@x += 1" visits its map twice, a ternary statement, sizeof(TYPE)). */
#include <string.h>

#include "err.h"
#include "t.h"
#include "tools/probe/bt.h"

static const struct {
	int n;
	const char *prog;
} cases[] = {
	{ 5, "BEGIN { exit(); }" },
	{ 11, "BEGIN { if (1) { exit(); } else if (2) { exit(); } }" },
	{ 10, "tracepoint:syscalls:sys_enter_openat { @ = args->flags; exit(); }" },
	{ 11, "tracepoint:syscalls:sys_enter_openat { @ = str(args->filename); exit(); }" },
	{ 19, "BEGIN { $x = 1; @x += 2; @y++; $x++; exit(); }" },
	{ 8, "BEGIN { $x = -1; exit(); }" },
	{ 12, "BEGIN { $x = 1; $y = -$x; exit(); }" },
	{ 10, "BEGIN { printf(\"%d\\n\", sizeof(struct task_struct)); exit(); }" },
	{ 10, "BEGIN { printf(\"%d\\n\", sizeof(1)); exit(); }" },
	{ 15, "BEGIN { $t = (1, \"a\"); printf(\"%d\\n\", $t.0); exit(); }" },
	{ 10, "BEGIN { unroll(3) { @x++; } exit(); }" },
	{ 8, "BEGIN { 1 ? exit() : exit(); }" },
	{ 11, "BEGIN { @x = 1 ? 2 : 3; exit(); }" },
	{ 22, "BEGIN { @m[1] = 1; delete(@m[1]); print(@m); clear(@m); zero(@m); exit(); }" },
	{ 10, "BEGIN { @x = *(uint64*)curtask; exit(); }" },
	{ 20, "BEGIN { @x[kstack] = count(); @y[kstack(3)] = count(); @z[ustack(perf, 3)] = count(); exit(); }" },
	{ 26, "tracepoint:syscalls:sys_enter_openat { if (args->flags & 1) { @a[str(args->filename)] = hist(pid); } "
	      "else { printf(\"%s %d\\n\", comm, tid); } } interval:ms:100 { exit(); }" },
	{ 15, "BEGIN { $i = 0; while ($i < 3) { $i++; } exit(); }" },
	{ 13, "BEGIN { printf(\"%s %s %d\\n\", comm, str(1), -(1)); exit(); }" },
	{ 18, "BEGIN { @x = - 1; @y = 2 - 1; @z = 2 -1; exit(); }" },
	{ 18, "BEGIN { @x = curtask->parent->pid; @y = ((struct task_struct *)curtask)->comm; exit(); }" },
	{ 27, "BEGIN { @x = 1; @x -= 1; @x *= 2; --@x; ++@x; @x--; exit(); }" },
	{ 20, "BEGIN { printf(\"%d %d\\n\", 1 ? 2 : 3 ? 4 : 5, (1 + 2) * 3); exit(); }" },
	{ 9, "#define FOO 3\nBEGIN { printf(\"%d\\n\", FOO); exit(); }" },
	{ 10, "struct foo { int a; int b; }\nBEGIN { printf(\"%d\\n\", sizeof(struct foo)); exit(); }" },
	{ 11, "BEGIN { printf(\"%s %d\\n\", str($1), $2); exit(); }" },
	{ 12, "BEGIN { printf(\"%d\\n\", (1, 2).1); exit(); }" },
	{ 25, "BEGIN { printf(\"hi\\n\"); } tracepoint:syscalls:sys_enter_getpid, tracepoint:syscalls:sys_enter_getppid "
	      "/comm == \"cbx-no-such\"/ { printf(\"x\\n\"); } interval:ms:100 { exit(); } END { printf(\"bye\\n\"); }" },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bt_prog p;
		int n = -1;

		if (bt_parse(cases[i].prog, &p) == 0)
			n = bt_node_count(&p);
		T_OK(n == cases[i].n, "node count %d (0.17: %d): %.*s", n, cases[i].n, (int)strcspn(cases[i].prog, "\n"),
		     cases[i].prog);
		bt_prog_free(&p);
	}
	T_EXIT();
}
