/* Stacks from a BPF_MAP_TYPE_STACK_TRACE map, symbolized and printed in
 * the formats of bcc/libbpf-tools (spec §0.6), plus the folded format of
 * Brendan Gregg's flamegraph.pl (aggregated by struct fold_agg for --svg).
 *
 * Stack ids (bpf_get_stackid results) may be negative:
 *   -EFAULT           no stack in that context (user stack of a kernel
 *                     thread, kernel stack of a user-mode sample): the part
 *                     is silently left out;
 *   -EEXIST, -ENOMEM  (hash collision, map full) and any other error, or a
 *                     lookup that fails: counted in s->lost and shown as
 *                     "[Missed Kernel Stack]" / "[Missed User Stack]";
 *   STACK_OMIT        the tool did not collect that part (-U, -K): nothing.
 * Frames come out of the map leaf first, zero-terminated.
 *
 * Typical use (profile):
 *	struct stacks s;
 *	if ((err = stacks_init(&s, map_fd, depth, flags)) < 0) ...err_msg()...
 *	for each record r (sorted with map_dump, mapdump.h):
 *		if (folded) { stacks_folded(&s, &r, &line);
 *		              printf("%s %llu\n", line.s, r.value);
 *		              if (svg) fold_agg_add(agg, line.s, r.value); }
 *		else stacks_print(&s, stdout, &r);
 *	stacks_report_missed(&s, stderr);
 *	stacks_fini(&s);
 * Each record should go through one format call (each counts its missed
 * stacks); reuse the line for the aggregator rather than folding twice. */
#ifndef COREBOX_STACK_STACKS_H
#define COREBOX_STACK_STACKS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/strbuf.h"
#include "tools/stack/ksyms.h"
#include "tools/stack/usyms.h"

/* The tool did not collect this stack (e.g. kernel part under -U). */
#define STACK_OMIT INT32_MIN

enum {
	STACKS_SKIP_TRACE = 1u << 0,  /* kernel stacks came from tp_btf/raw_tp (or a
				       * perf tracepoint): drop the leading frames of
				       * the BPF program and the trace dispatch
				       * (stack_skip_trace_frames) */
	STACKS_OFFSET = 1u << 1,      /* frames as name+0xoff */
	STACKS_VERBOSE = 1u << 2,     /* multi-line frames "#N  0xADDR name+0xoff"
				       * (libbpf-tools -v); user frames add " (module)" */
	STACKS_DELIM = 1u << 3,       /* -d: "    --" between kernel and user frames in
				       * multi-line; "-" between user and kernel in
				       * folded (only when both parts are present) */
	STACKS_ANNOTATE = 1u << 4,    /* bcc profile -a: folded kernel frames get "_[k]" */
	STACKS_NO_KERNEL = 1u << 5,   /* do not load kallsyms (user stacks only) */
	STACKS_NO_USER = 1u << 6,     /* no user symbolizer (kernel stacks only) */
	STACKS_RAW_NAMES = 1u << 7,   /* no demangling (USYMS_RAW_NAMES): --no-demangle,
				       * STACKS_NAMES below */
	STACKS_UNKNOWN_MODULE = 1u << 8, /* unknown user frames as "[unknown] (libfoo.so)" */
	STACKS_ADDRESS = 1u << 9,     /* bcc profile -A: multi-line frames "0xADDR name+0xoff"
				       * (kernel addresses left-aligned in 16, user ones
				       * zero-padded, as bcc prints them) */
};

/* For the tools' stacks_init() calls: the names the
 * user asked for (--no-demangle, tools/common/opt.h), expanded where the
 * tool links the option parser. */
#define STACKS_NAMES (tool_common.no_demangle ? STACKS_RAW_NAMES : 0u)

struct stacks {
	int map_fd;
	unsigned depth;        /* frames per stack: map value_size / 8 */
	unsigned flags;        /* STACKS_* */
	struct ksyms *ksyms;   /* NULL with STACKS_NO_KERNEL */
	struct usyms *usyms;   /* NULL with STACKS_NO_USER */
	struct stacks_lost {
		uint64_t all;   /* stacks that could not be shown (the sum of:) */
		uint64_t full;  /* -EEXIST/-ENOMEM ids: bucket taken or map full */
		uint64_t gone;  /* ids no longer in the map */
		uint64_t error; /* other errors from bpf_get_stackid */
		uint64_t user;  /* how many of them were user stacks */
	} lost;
	int full;              /* an -ENOMEM/-EEXIST id was seen: suggest a bigger map */
	uint64_t *ips;         /* scratch, depth + 1 entries */
	/* Optional: where stacks come from instead of the map (stacks carried
	 * in events via bpf_get_stack, tests).  Fill ips[0..depth) (zero-
	 * terminated when shorter); return 0 or a negative errno (missed). */
	int (*lookup)(void *ctx, int32_t id, uint64_t *ips, unsigned depth);
	void *lookup_ctx;
	int prefetch;          /* see stacks_prefetch_begin */
	struct stacks_lost saved_lost;
	int saved_full;
};

/* One record of the common key (profile, offcputime, stackcount...). */
struct stack_rec {
	const char *comm;
	int pid;               /* process (tgid) whose user stack this is; printed */
	int32_t kid, uid;      /* kernel / user stack ids, or STACK_OMIT */
	uint64_t value;
};

/* Naming in batches (kernel and user symbols are never loaded whole,
 * see ksyms.h and usyms.h): between stacks_prefetch_begin() and
 * stacks_prefetch_end(), the formatting calls (fold, print, json, ksym,
 * usym) only note the addresses they would name and produce empty names;
 * _end names all of them, one pass over kallsyms and one per ELF file.
 * A report runs its records through a fold once in between, then for
 * real.  Missed-stack counts are not touched by the first run.  Without
 * it the names are right too, just found a pass at a time. */
void stacks_prefetch_begin(struct stacks *s);
void stacks_prefetch_end(struct stacks *s);

/* depth: the map's value_size / 8 (--perf-max-stack-depth, <= 127).
 * Loads kallsyms unless STACKS_NO_KERNEL; fails (-EPERM, message) when
 * kernel addresses are hidden.  map_fd may be -1 when s->lookup is set
 * after init. */
int stacks_init(struct stacks *s, int map_fd, unsigned depth, unsigned flags);
void stacks_fini(struct stacks *s);

/* Read stack id into s->ips (leaf first): returns the frame count (>= 0;
 * for kernel stacks under STACKS_SKIP_TRACE after dropping the dispatch
 * frames), 0 for -EFAULT/STACK_OMIT, or -1 when missed (counted).
 * The pointer is valid until the next call. */
int stacks_read(struct stacks *s, int32_t id, int kernel, const uint64_t **ips);

/* How many leading (leaf-side) frames of a kernel stack belong to the BPF
 * program and the tracepoint dispatch: bpf_prog_*, [bpf] module symbols,
 * bpf_trace_run*, __bpf_trace_*, __traceiter_*, bpf_dispatcher_*,
 * trace_call_bpf, perf_trace_*, perf_syscall_*, bpf_get_stack*. */
unsigned stack_skip_trace_frames(const struct ksyms *ks, const uint64_t *ips, unsigned n);

/* One frame as text (per STACKS_OFFSET / STACKS_UNKNOWN_MODULE).  Returns buf. */
char *stacks_ksym(struct stacks *s, uint64_t ip, char *buf, size_t size);
char *stacks_usym(struct stacks *s, int pid, uint64_t ip, char *buf, size_t size);

/* Building blocks (wakeuptime/offwaketime layouts):
 * print the frames of one stack id, one per line as indent + frame,
 * leaf first (or root first with root_first), skipping `skip` frames at
 * the leaf end; a missed stack prints indent "[Missed Kernel Stack]".
 * pid < 0: kernel stack.  Returns frames printed, 0, or -1 (missed). */
int stacks_print_frames(struct stacks *s, FILE *f, const char *indent, int32_t id, int pid,
			int root_first, unsigned skip);
/* Append ";frame" for each frame (no leading ';' when b is empty): root
 * first unless leaf_first; skip as above.  Missed: ";[Missed ... Stack]".
 * Returns frames appended, 0, or -1 (missed). */
int stacks_fold_frames(struct stacks *s, struct strbuf *b, int32_t id, int pid,
		       int leaf_first, unsigned skip);

/* Append ";name" (no ';' when b is empty): a comm or frame of a folded
 * line, escaped as every text column, its ';' as ':'. */
void stacks_fold_name(struct strbuf *b, const char *name);

/* Multi-line record (libbpf-tools profile/offcputime):
 *	    kernel frames, leaf first ("    name")
 *	    --                                   (STACKS_DELIM, both present)
 *	    user frames, leaf first
 *	    -                comm (pid)
 *	        value
 *	<blank line> */
void stacks_print(struct stacks *s, FILE *f, const struct stack_rec *r);
/* Folded record into line (reset first), without the count:
 *	comm;user root→leaf;[-;]kernel root→leaf
 * (STACKS_ANNOTATE: kernel frames get "_[k]"). */
void stacks_folded(struct stacks *s, const struct stack_rec *r, struct strbuf *line);

/* JSON (tools/common/out.h json_str): the frames of one stack id as an
 * array, leaf first: ["vfs_read","ksys_read",...]; a missed stack is
 * ["[Missed Kernel Stack]"], an omitted or absent one [].  Returns as
 * stacks_fold_frames. */
int stacks_json_frames(struct stacks *s, struct strbuf *b, int32_t id, int pid);
/* The fields of a record: "comm":..,"pid":..,"kernel":[...],"user":[...]
 * (a part the tool did not collect is left out), with a trailing comma. */
void stacks_json(struct stacks *s, const struct stack_rec *r, struct strbuf *b);

/* offwaketime (bcc) folded form:
 *	target;t-user root→leaf;[-;]t-kernel root→leaf;--;w-kernel leaf→root;[-;]w-user leaf→root;waker */
struct offwake_rec {
	const char *tcomm, *wcomm;
	int tpid, wpid;                  /* tgids (user symbols) */
	int32_t tkid, tuid, wkid, wuid;  /* or STACK_OMIT */
	uint64_t value;
};
void stacks_folded_offwake(struct stacks *s, const struct offwake_rec *r, struct strbuf *line);

/* At exit, when stacks were missed (real losses only: a kernel thread's
 * missing user stack is not one):
 * "WARNING: N stack traces could not be displayed (U user, K kernel): F
 * stack map collisions or full map. Consider increasing
 * --stack-storage-size." with the kinds that occurred. */
void stacks_report_missed(const struct stacks *s, FILE *f);

/* Aggregated folded stacks (summing equal lines), for --svg and for
 * printing folded output sorted by line (flamegraph.pl's input order). */
struct fold_agg;
struct fold_agg *fold_agg_new(void);
void fold_agg_free(struct fold_agg *a);
void fold_agg_add(struct fold_agg *a, const char *line, uint64_t count);
size_t fold_agg_len(const struct fold_agg *a);
/* Sort by line (strcmp); then entry i (0 <= i < len). */
void fold_agg_sort(struct fold_agg *a);
const char *fold_agg_line(const struct fold_agg *a, size_t i, uint64_t *count);
/* Read folded text ("frames count" per line; others ignored). */
int fold_agg_read(struct fold_agg *a, FILE *f);

#endif
