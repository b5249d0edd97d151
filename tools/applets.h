/* The applet table: one line per tool (X-macro, sorted by name).
 * APPLET(name, summary): a tool, installed as a link by --install.
 * COMMAND(name, summary): a corebox subcommand (no link). */
APPLET(argdist, "frequency counts or histograms of function arguments and return values")
COMMAND(btf, "dump BTF as a C header; write minimal BTF")
APPLET(biolatency, "summarize block device I/O latency as a histogram")
APPLET(execsnoop, "trace new processes via exec() syscalls")
APPLET(funccount, "count function, tracepoint and USDT probe calls matching a pattern")
APPLET(funclatency, "time functions (entry to return) as a latency histogram")
APPLET(offcputime, "summarize off-CPU time by stack trace")
APPLET(offwaketime, "summarize blocked time by off-CPU stack and waker stack")
APPLET(opensnoop, "trace open() family syscalls")
APPLET(profile, "profile CPU usage by sampling stack traces")
COMMAND(run, "load and run any libbpf-style BPF object")
APPLET(stackcount, "count events (functions, tracepoints, USDT probes) by stack trace")
APPLET(syscount, "summarize syscall counts and latencies")
APPLET(trace, "print a message per event of functions, tracepoints and USDT probes")
APPLET(wakeuptime, "summarize sleep to wakeup time by waker kernel stack")
