/* systrace: how a system call reads as text, perf trace's way:
 *   "openat(dfd: CWD, filename: /etc/passwd, flags: RDONLY|CLOEXEC)"
 * Argument names and C types come from the kernel's own syscall
 * tracepoint formats (tracefs events/syscalls/sys_enter_NAME/format),
 * read lazily per syscall; beautifiers pick by name and type (fds and
 * their paths, open/mmap flags, modes, signals, ...).  Without tracefs
 * the six raw arguments are shown in hex.  Zero arguments are left out,
 * as perf does, except those where 0 means something (fd 0, RDONLY). */
#ifndef COREBOX_SYSTRACE_FMT_H
#define COREBOX_SYSTRACE_FMT_H

#include <stdint.h>

#include "lib/strbuf.h"

/* One call to show. */
struct st_call {
	uint64_t args[6];
	int64_t ret;
	uint32_t pid, tid, nr;
	const char *str[6]; /* string copied for argument i, or NULL */
};

/* Which arguments of syscall nr are strings to copy (bits 0..5). */
unsigned st_fmt_strmask(unsigned nr);
/* "name(arg: value, ...", without the closing parenthesis (perf's
 * entry string, whose length the alignment counts). */
void st_fmt_entry(struct strbuf *b, const struct st_call *c);
/* The return value: "3", "0x7f...", "-1 ENOENT (No such file or directory)". */
void st_fmt_ret(struct strbuf *b, const struct st_call *c);
/* After showing a call: learn fd paths from opens, forget closed fds. */
void st_fd_track(const struct st_call *c);
/* The whole perf trace line for a call, without the newline:
 *   "%10.3f (%6.3f ms): comm/tid name(args)<pad>= ret" */
void st_fmt_line(struct strbuf *b, double ts_ms, double dur_ms, const char *comm,
		 const struct st_call *c);
/* The syscall's name, or "[unknown: N]" in buf. */
const char *st_sc_name(unsigned nr, char *buf, unsigned size);

#endif
