/* The applet table: one line per tool (X-macro, sorted by name).
 * APPLET(name, summary): a tool, installed as a link by --install.
 * COMMAND(name, summary): a corebox subcommand (no link). */
COMMAND(btf, "dump BTF as a C header; write minimal BTF")
APPLET(biolatency, "summarize block device I/O latency as a histogram")
APPLET(execsnoop, "trace new processes via exec() syscalls")
APPLET(exitsnoop, "trace process termination with age and exit code or signal")
APPLET(offcputime, "summarize off-CPU time by stack trace")
APPLET(offwaketime, "summarize blocked time by off-CPU stack and waker stack")
APPLET(opensnoop, "trace open() family syscalls")
APPLET(profile, "profile CPU usage by sampling stack traces")
COMMAND(run, "load and run any libbpf-style BPF object")
APPLET(syscount, "summarize syscall counts and latencies")
APPLET(threadsnoop, "list new threads with their start function")
APPLET(wakeuptime, "summarize sleep to wakeup time by waker kernel stack")
