/* What every applet's user side shares: the load/attach sequence with
 * uniform error messages, signal handling, time stamps and histograms. */
#ifndef COREBOX_TOOLS_COMMON_H
#define COREBOX_TOOLS_COMMON_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loader/obj.h"
#include "opt.h"
#include "out.h"

/* The embedded object of tool NAME (see Makefile: build/bpfobjs.S). */
#define BPF_OBJ_DECLARE(name) extern const char name##_bpf_obj[], name##_bpf_obj_end[]
#define BPF_OBJ_OPEN(name) \
	tool_open(#name, name##_bpf_obj, (size_t)(name##_bpf_obj_end - name##_bpf_obj))

/* The applet name the tool runs under (main.c sets it): "ext4slower" when
 * fsslower's main runs for that alias (an alias line in fsslower.c).  The
 * tools name themselves by it, and its one-line summary (from the same
 * applet line) opens --help: each is written once, in the applet line. */
extern const char *tool_applet;
extern const char *tool_applet_summary;

/* Set by SIGINT/SIGTERM (installed by tool_signals, without SA_RESTART so
 * blocking waits return EINTR). */
extern volatile sig_atomic_t tool_exiting;
void tool_signals(void);

/* Open the embedded object; on error print "NAME: msg" and exit 1.
 * Programs on a syscall this architecture lacks (section tracepoint/
 * syscalls/sys_enter_open, ksyscall/open, kprobe/__x64_sys_open, ... on
 * arm64, whose generic table has no open/stat/fork/...) get their autoload
 * turned off: write them for every architecture, they load where they can. */
struct obj *tool_open(const char *name, const void *data, size_t size);
/* Load and attach; on error print the message, close the object, return 1
 * (the tool's exit code).  0 on success. */
int tool_load_attach(struct obj *o, const char *name);
/* No kernel BTF for CO-RE to read kernel structs with: no --btf FILE
 * and no vmlinux in /sys/kernel/btf (or $COREBOX_SYSFS_BTF).  Tools with
 * a path on tracepoint records alone choose it then. */
bool tool_no_kbtf(void);
/* Print "NAME: fmt..." to stderr. */
void tool_err(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Sleep up to ms milliseconds; returns early when tool_exiting is set or
 * stdout went away (a pipe whose reader closed it: tool_exiting is set). */
void tool_sleep_ms(long ms);

/* stdout.  tool_flush: fflush, and on a write error stop the tool
 * (tool_exiting): EPIPE silently, others with a message; -1 then.
 * tool_stdout_gone: true once the output failed or its reader left
 * (checked without writing).  tool_finish: main() passes each applet's
 * exit status through it: a last flush, then death by SIGPIPE when the
 * reader left (status 141, as the originals), 1 after a write error. */
int tool_flush(void);
bool tool_stdout_gone(void);
int tool_finish(int rc);

/* The loop of event tools (tools/common/event_tool.c): poll the events
 * map, flush after each batch, stop on a signal, a closed output or after
 * duration_ns (0: none); new losses are noted on stderr at most once a
 * second, the total at the end.  0, or 1 after a message.  For tools that
 * read their events some other way than tool_run_events. */
int tool_event_loop(const char *name, struct events *ev, uint64_t duration_ns);

/* What an event tool's main() does once its .rodata knobs are set
 * (tools/common/event_tool.c): the events map (ring buffer, else perf
 * buffer), -c CGROUP when cgroup is set, load and attach (on failure:
 * the error, then load_hint if given), the consumer (when on_event is
 * set; without it the loop just waits: a summary tool), then
 * after_load(o) if given (fill filter maps, say what was attached, print
 * a banner; it returns 0 to go on, 1 when it did all there was to do (a
 * summary mode), -1 after a message), the table header (if header), and
 * the event loop until a signal, a closed output or duration_ns (0:
 * none).  tick(o), if given, runs after each poll: non-zero stops the
 * loop (after reading what the buffer already holds), e.g. when the
 * traced process is gone.  finish(o), if given, runs after the loop,
 * before the object is closed (print a summary): non-zero makes the exit
 * status 1.  Closes o.  Returns the tool's exit status. */
struct tool_events {
	const char *name;
	const char *cgroup;
	int (*after_load)(struct obj *o);
	event_cb on_event;
	const struct out_table *header;
	uint64_t duration_ns;
	int (*tick)(struct obj *o);
	int (*finish)(struct obj *o);
	const char *load_hint;
};
int tool_run_events(struct obj *o, const struct tool_events *te);

/* --listen ADDR:PORT (tools/common/listen.c): open the server (0, or -1
 * after a message); whether it is open; poll fd (-1: none) for nothing
 * but errors together with the server's sockets for up to timeout_ms,
 * answer what is ready, return fd's revents.  tool_sleep_ms and the
 * event loop wait through it when the tool listens. */
int tool_listen_open(const char *name, const char *addr);
bool tool_listening(void);
short tool_listen_poll(int fd, int timeout_ms);

/* "HH:MM:SS" local time into buf (at least 9 bytes). */
char *tool_hms(char *buf, size_t size);
/* Monotonic seconds since first call (for -t style relative stamps). */
double tool_elapsed(void);


/* Read and delete every entry of a hash map into keys[] and vals[] (at
 * most max): with the lookup-and-delete batch command while *batch (set
 * false for good when the kernel lacks it), else by iterating, looking up
 * and deleting (racy against the program on old kernels).  The number of
 * entries, or -errno. */
long tool_map_drain(int fd, size_t key_size, size_t val_size, void *keys, void *vals, uint32_t max,
		    bool *batch);

/* -c CGROUP: open the cgroup v2 directory (before load): an fd, or -1
 * after "NAME: cannot open cgroup ..." / "... is not a cgroup v2 directory". */
int tool_cgroup_open(const char *name, const char *path);
/* Each mount point of the cgroup v2 file system (/proc/self/mounts), in
 * order, until fn returns non-zero; that value, or 0. */
int cgroup2_mounts(int (*fn)(const char *dir, void *arg), void *arg);
/* The first one into buf, or NULL when cgroup v2 is not mounted. */
char *cgroup2_mount(char *buf, size_t size);
/* A cgroup id (bpf_get_current_cgroup_id) as its path relative to the
 * cgroup v2 root ("/", "/system.slice/x.service"), or NULL when no
 * cgroup2 directory has it (tools/common/cgroup_path.c: cached; valid
 * until the next call). */
const char *cgroup_path_of(uint64_t id);
/* After load: put it in the one-slot "cgroup_map": 0, or -1 after a message. */
int tool_cgroup_filter(struct obj *o, const char *name, const char *path, int cgfd);
/* tool_load_attach() with the cgroup filter of path (NULL: none): 0 and
 * *cgfd (-1 without path; close it after obj_close), or -1 after a
 * message with o closed. */
int tool_load_attach_cgroup(struct obj *o, const char *name, const char *path, int *cgfd);

/* Lost-event note at exit, when any were lost: "NAME: lost N events (...)"
 * to stderr, saying what one lost event is. */
void tool_report_lost(const char *name, uint64_t lost);

/* Syscall and errno name tables (x86_64 and arm64 built in). */
const char *syscall_name(unsigned nr);     /* NULL if unknown */
int syscall_nr(const char *name);          /* -1 if unknown */
unsigned syscall_max(void);                /* highest nr + 1 in the table */
const char *errno_name(int err);           /* "ENOENT", NULL if unknown */
int errno_by_name(const char *name);       /* -1 if unknown */

#endif
