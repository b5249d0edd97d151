/* The applet table: one line per tool (X-macro, sorted by name).
 * APPLET(name, summary): a tool, installed as a link by --install.
 * APPLET_ALIAS(name, tool, summary): another name for tool, also a link;
 *   tool's main runs with tool_applet = "name" (fsslower's ext4slower).
 * COMMAND(name, summary): a corebox subcommand (no link). */
APPLET_ALIAS(bcachefsslower, fsslower, "trace slow bcachefs operations")
APPLET(biolatency, "summarize block device I/O latency as a histogram")
APPLET(biopattern, "show random vs sequential block I/O per disk")
APPLET(biosnoop, "trace block device I/O with latency, one line per request")
APPLET(bitesize, "summarize block device I/O size as a histogram per process")
COMMAND(btf, "dump BTF as a C header; write minimal BTF")
APPLET_ALIAS(btrfsslower, fsslower, "trace slow btrfs operations")
APPLET(cachestat, "count page cache hits, misses and dirtied buffers per interval")
APPLET(execsnoop, "trace new processes via exec() syscalls")
APPLET_ALIAS(ext4slower, fsslower, "trace slow ext4 operations")
APPLET_ALIAS(f2fsslower, fsslower, "trace slow f2fs operations")
APPLET(fsslower, "trace file system operations slower than a threshold")
APPLET_ALIAS(fuseslower, fsslower, "trace slow fuse operations")
APPLET_ALIAS(nfsslower, fsslower, "trace slow nfs operations")
APPLET(offcputime, "summarize off-CPU time by stack trace")
APPLET(offwaketime, "summarize blocked time by off-CPU stack and waker stack")
APPLET(opensnoop, "trace open() family syscalls")
APPLET(profile, "profile CPU usage by sampling stack traces")
APPLET(readahead, "show read-ahead pages used and unused, and their age")
COMMAND(run, "load and run any libbpf-style BPF object")
APPLET(syscount, "summarize syscall counts and latencies")
APPLET(wakeuptime, "summarize sleep to wakeup time by waker kernel stack")
APPLET_ALIAS(xfsslower, fsslower, "trace slow xfs operations")
APPLET_ALIAS(zfsslower, fsslower, "trace slow zfs operations")
