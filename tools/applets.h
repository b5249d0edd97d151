/* The applet table: one line per tool (X-macro, sorted by name).
 * APPLET(name, summary): a tool, installed as a link by --install.
 * COMMAND(name, summary): a corebox subcommand (no link). */
COMMAND(btf, "dump BTF as a C header; write minimal BTF")
APPLET(biolatency, "summarize block device I/O latency as a histogram")
APPLET(execsnoop, "trace new processes via exec() syscalls")
APPLET(opensnoop, "trace open() family syscalls")
APPLET(syscount, "summarize syscall counts and latencies")
