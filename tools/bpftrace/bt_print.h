/* bpftrace 0.17's output: the Attaching line, printf and the other
 * records, and the maps at exit (text, or -f json). */
#ifndef COREBOX_BPFTRACE_BT_PRINT_H
#define COREBOX_BPFTRACE_BT_PRINT_H

#include <stdbool.h>
#include <stddef.h>

#include "tools/probe/bt.h"
#include "tools/stack/stacks.h"

struct obj;

struct bt_out {
	struct bt_prog *prog;
	bool json;
	struct obj *o;
	struct stacks stk;
	bool stk_ok;
	const char *file;            /* the program's name in messages ("stdin") */
	bool failed;                 /* a map could not be printed (exit code 1) */
};

void bt_out_attaching(struct bt_out *b, int n);
/* After load: map fds, the stack symbolizer.  0 or -errno. */
int bt_out_open(struct bt_out *b, struct obj *o);
/* One record from the ring buffer: 1 when it is exit(), else 0. */
int bt_out_record(struct bt_out *b, const void *data, size_t size);
/* At exit: two blank lines and every map, by name. */
void bt_out_exit(struct bt_out *b);
/* Every map, by name (SIGUSR1). */
void bt_out_maps(struct bt_out *b);
void bt_out_close(struct bt_out *b);
/* -d: the checked program's maps, variables and actions. */
void bt_out_dump(const struct bt_prog *p);

/* --info: the kernel's BPF features in 0.17's layout; the exit code. */
int bt_info(void);
/* 0.17's USAGE text (stderr); -h, -V and bad short options before opt_parse (exit). */
struct opt;
void bt_usage(const struct opt *opts);
void bt_usage_args(int argc, char **argv, const struct opt *opts);
/* --include FILE (searched in dirs, then the system's include folders):
 * its integer #defines, and those of the headers it includes, into p. */
void bt_include_defines(struct bt_prog *p, const char *file, char **dirs, int ndirs);
/* The program's #include lines: a header found in no folder (dirs, then
 * the system's) stops it as 0.17's clang does ("definitions.h:L:C: fatal
 * error: 'x.h' file not found"), unless kernel BTF answers for it (a
 * kernel header: linux/, net/...) or it sits inside #if (the
 * BPFTRACE_HAVE_BTF branches of the book's tools).  0, or -1 after the
 * message. */
int bt_include_check(const struct bt_prog *p, char **dirs, int ndirs);

#endif
