/* Syscall and errno names, built in (no ausyscall, no files at run time).
 *
 * The syscall tables follow the kernel's numbering for the build
 * architecture: x86_64 (arch/x86/entry/syscalls/syscall_64.tbl, the
 * 64-bit ABI only; x32 numbers are not listed), arm64 (the generic
 * table, asm-generic/unistd.h, 64-bit names) and 32-bit arm (EABI).  Numbers from 424 on are
 * shared by every architecture.  Errno names are the generic Linux
 * values (EPERM=1 ... EHWPOISON=133) plus the kernel-internal codes
 * (512 ...) that a tracer can see in a syscall's return value before the
 * kernel translates them. */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "lib/util.h"

/* Each table is its names in number order, each ending in a NUL, "" for
 * a number without one: one string, no pointer per entry (8 bytes each
 * on 64-bit, most of what the tables weighed). */
#if defined(__x86_64__)
static const char sc_names[] =
	/*   0 */ "read\0" "write\0" "open\0" "close\0" "stat\0" "fstat\0" "lstat\0" "poll\0" "lseek\0"
	/*   9 */ "mmap\0" "mprotect\0" "munmap\0" "brk\0" "rt_sigaction\0" "rt_sigprocmask\0"
	/*  15 */ "rt_sigreturn\0" "ioctl\0" "pread64\0" "pwrite64\0" "readv\0" "writev\0" "access\0" "pipe\0"
	/*  23 */ "select\0" "sched_yield\0" "mremap\0" "msync\0" "mincore\0" "madvise\0" "shmget\0" "shmat\0"
	/*  31 */ "shmctl\0" "dup\0" "dup2\0" "pause\0" "nanosleep\0" "getitimer\0" "alarm\0" "setitimer\0"
	/*  39 */ "getpid\0" "sendfile\0" "socket\0" "connect\0" "accept\0" "sendto\0" "recvfrom\0"
	/*  46 */ "sendmsg\0" "recvmsg\0" "shutdown\0" "bind\0" "listen\0" "getsockname\0" "getpeername\0"
	/*  53 */ "socketpair\0" "setsockopt\0" "getsockopt\0" "clone\0" "fork\0" "vfork\0" "execve\0"
	/*  60 */ "exit\0" "wait4\0" "kill\0" "uname\0" "semget\0" "semop\0" "semctl\0" "shmdt\0" "msgget\0"
	/*  69 */ "msgsnd\0" "msgrcv\0" "msgctl\0" "fcntl\0" "flock\0" "fsync\0" "fdatasync\0" "truncate\0"
	/*  77 */ "ftruncate\0" "getdents\0" "getcwd\0" "chdir\0" "fchdir\0" "rename\0" "mkdir\0" "rmdir\0"
	/*  85 */ "creat\0" "link\0" "unlink\0" "symlink\0" "readlink\0" "chmod\0" "fchmod\0" "chown\0"
	/*  93 */ "fchown\0" "lchown\0" "umask\0" "gettimeofday\0" "getrlimit\0" "getrusage\0" "sysinfo\0"
	/* 100 */ "times\0" "ptrace\0" "getuid\0" "syslog\0" "getgid\0" "setuid\0" "setgid\0" "geteuid\0"
	/* 108 */ "getegid\0" "setpgid\0" "getppid\0" "getpgrp\0" "setsid\0" "setreuid\0" "setregid\0"
	/* 115 */ "getgroups\0" "setgroups\0" "setresuid\0" "getresuid\0" "setresgid\0" "getresgid\0"
	/* 121 */ "getpgid\0" "setfsuid\0" "setfsgid\0" "getsid\0" "capget\0" "capset\0" "rt_sigpending\0"
	/* 128 */ "rt_sigtimedwait\0" "rt_sigqueueinfo\0" "rt_sigsuspend\0" "sigaltstack\0" "utime\0"
	/* 133 */ "mknod\0" "uselib\0" "personality\0" "ustat\0" "statfs\0" "fstatfs\0" "sysfs\0"
	/* 140 */ "getpriority\0" "setpriority\0" "sched_setparam\0" "sched_getparam\0" "sched_setscheduler\0"
	/* 145 */ "sched_getscheduler\0" "sched_get_priority_max\0" "sched_get_priority_min\0"
	/* 148 */ "sched_rr_get_interval\0" "mlock\0" "munlock\0" "mlockall\0" "munlockall\0" "vhangup\0"
	/* 154 */ "modify_ldt\0" "pivot_root\0" "_sysctl\0" "prctl\0" "arch_prctl\0" "adjtimex\0"
	/* 160 */ "setrlimit\0" "chroot\0" "sync\0" "acct\0" "settimeofday\0" "mount\0" "umount2\0" "swapon\0"
	/* 168 */ "swapoff\0" "reboot\0" "sethostname\0" "setdomainname\0" "iopl\0" "ioperm\0"
	/* 174 */ "create_module\0" "init_module\0" "delete_module\0" "get_kernel_syms\0" "query_module\0"
	/* 179 */ "quotactl\0" "nfsservctl\0" "getpmsg\0" "putpmsg\0" "afs_syscall\0" "tuxcall\0" "security\0"
	/* 186 */ "gettid\0" "readahead\0" "setxattr\0" "lsetxattr\0" "fsetxattr\0" "getxattr\0" "lgetxattr\0"
	/* 193 */ "fgetxattr\0" "listxattr\0" "llistxattr\0" "flistxattr\0" "removexattr\0" "lremovexattr\0"
	/* 199 */ "fremovexattr\0" "tkill\0" "time\0" "futex\0" "sched_setaffinity\0" "sched_getaffinity\0"
	/* 205 */ "set_thread_area\0" "io_setup\0" "io_destroy\0" "io_getevents\0" "io_submit\0" "io_cancel\0"
	/* 211 */ "get_thread_area\0" "lookup_dcookie\0" "epoll_create\0" "epoll_ctl_old\0" "epoll_wait_old\0"
	/* 216 */ "remap_file_pages\0" "getdents64\0" "set_tid_address\0" "restart_syscall\0" "semtimedop\0"
	/* 221 */ "fadvise64\0" "timer_create\0" "timer_settime\0" "timer_gettime\0" "timer_getoverrun\0"
	/* 226 */ "timer_delete\0" "clock_settime\0" "clock_gettime\0" "clock_getres\0" "clock_nanosleep\0"
	/* 231 */ "exit_group\0" "epoll_wait\0" "epoll_ctl\0" "tgkill\0" "utimes\0" "vserver\0" "mbind\0"
	/* 238 */ "set_mempolicy\0" "get_mempolicy\0" "mq_open\0" "mq_unlink\0" "mq_timedsend\0"
	/* 243 */ "mq_timedreceive\0" "mq_notify\0" "mq_getsetattr\0" "kexec_load\0" "waitid\0" "add_key\0"
	/* 249 */ "request_key\0" "keyctl\0" "ioprio_set\0" "ioprio_get\0" "inotify_init\0"
	/* 254 */ "inotify_add_watch\0" "inotify_rm_watch\0" "migrate_pages\0" "openat\0" "mkdirat\0"
	/* 259 */ "mknodat\0" "fchownat\0" "futimesat\0" "newfstatat\0" "unlinkat\0" "renameat\0" "linkat\0"
	/* 266 */ "symlinkat\0" "readlinkat\0" "fchmodat\0" "faccessat\0" "pselect6\0" "ppoll\0" "unshare\0"
	/* 273 */ "set_robust_list\0" "get_robust_list\0" "splice\0" "tee\0" "sync_file_range\0" "vmsplice\0"
	/* 279 */ "move_pages\0" "utimensat\0" "epoll_pwait\0" "signalfd\0" "timerfd_create\0" "eventfd\0"
	/* 285 */ "fallocate\0" "timerfd_settime\0" "timerfd_gettime\0" "accept4\0" "signalfd4\0" "eventfd2\0"
	/* 291 */ "epoll_create1\0" "dup3\0" "pipe2\0" "inotify_init1\0" "preadv\0" "pwritev\0"
	/* 297 */ "rt_tgsigqueueinfo\0" "perf_event_open\0" "recvmmsg\0" "fanotify_init\0" "fanotify_mark\0"
	/* 302 */ "prlimit64\0" "name_to_handle_at\0" "open_by_handle_at\0" "clock_adjtime\0" "syncfs\0"
	/* 307 */ "sendmmsg\0" "setns\0" "getcpu\0" "process_vm_readv\0" "process_vm_writev\0" "kcmp\0"
	/* 313 */ "finit_module\0" "sched_setattr\0" "sched_getattr\0" "renameat2\0" "seccomp\0" "getrandom\0"
	/* 319 */ "memfd_create\0" "kexec_file_load\0" "bpf\0" "execveat\0" "userfaultfd\0" "membarrier\0"
	/* 325 */ "mlock2\0" "copy_file_range\0" "preadv2\0" "pwritev2\0" "pkey_mprotect\0" "pkey_alloc\0"
	/* 331 */ "pkey_free\0" "statx\0" "io_pgetevents\0" "rseq\0" "uretprobe\0" "uprobe\0" "\0" "\0" "\0"
	/* 340 */ "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0"
	/* 358 */ "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0"
	/* 376 */ "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0"
	/* 394 */ "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0"
	/* 412 */ "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "pidfd_send_signal\0"
	/* 425 */ "io_uring_setup\0" "io_uring_enter\0" "io_uring_register\0" "open_tree\0" "move_mount\0"
	/* 430 */ "fsopen\0" "fsconfig\0" "fsmount\0" "fspick\0" "pidfd_open\0" "clone3\0" "close_range\0"
	/* 437 */ "openat2\0" "pidfd_getfd\0" "faccessat2\0" "process_madvise\0" "epoll_pwait2\0"
	/* 442 */ "mount_setattr\0" "quotactl_fd\0" "landlock_create_ruleset\0" "landlock_add_rule\0"
	/* 446 */ "landlock_restrict_self\0" "memfd_secret\0" "process_mrelease\0" "futex_waitv\0"
	/* 450 */ "set_mempolicy_home_node\0" "cachestat\0" "fchmodat2\0" "map_shadow_stack\0" "futex_wake\0"
	/* 455 */ "futex_wait\0" "futex_requeue\0" "statmount\0" "listmount\0" "lsm_get_self_attr\0"
	/* 460 */ "lsm_set_self_attr\0" "lsm_list_modules\0" "mseal\0" "setxattrat\0" "getxattrat\0"
	/* 465 */ "listxattrat\0" "removexattrat\0" "open_tree_attr\0" "file_getattr\0" "file_setattr\0";
#elif defined(__aarch64__)
static const char sc_names[] =
	/*   0 */ "io_setup\0" "io_destroy\0" "io_submit\0" "io_cancel\0" "io_getevents\0" "setxattr\0"
	/*   6 */ "lsetxattr\0" "fsetxattr\0" "getxattr\0" "lgetxattr\0" "fgetxattr\0" "listxattr\0"
	/*  12 */ "llistxattr\0" "flistxattr\0" "removexattr\0" "lremovexattr\0" "fremovexattr\0" "getcwd\0"
	/*  18 */ "lookup_dcookie\0" "eventfd2\0" "epoll_create1\0" "epoll_ctl\0" "epoll_pwait\0" "dup\0"
	/*  24 */ "dup3\0" "fcntl\0" "inotify_init1\0" "inotify_add_watch\0" "inotify_rm_watch\0" "ioctl\0"
	/*  30 */ "ioprio_set\0" "ioprio_get\0" "flock\0" "mknodat\0" "mkdirat\0" "unlinkat\0" "symlinkat\0"
	/*  37 */ "linkat\0" "renameat\0" "umount2\0" "mount\0" "pivot_root\0" "nfsservctl\0" "statfs\0"
	/*  44 */ "fstatfs\0" "truncate\0" "ftruncate\0" "fallocate\0" "faccessat\0" "chdir\0" "fchdir\0"
	/*  51 */ "chroot\0" "fchmod\0" "fchmodat\0" "fchownat\0" "fchown\0" "openat\0" "close\0" "vhangup\0"
	/*  59 */ "pipe2\0" "quotactl\0" "getdents64\0" "lseek\0" "read\0" "write\0" "readv\0" "writev\0"
	/*  67 */ "pread64\0" "pwrite64\0" "preadv\0" "pwritev\0" "sendfile\0" "pselect6\0" "ppoll\0"
	/*  74 */ "signalfd4\0" "vmsplice\0" "splice\0" "tee\0" "readlinkat\0" "newfstatat\0" "fstat\0"
	/*  81 */ "sync\0" "fsync\0" "fdatasync\0" "sync_file_range\0" "timerfd_create\0" "timerfd_settime\0"
	/*  87 */ "timerfd_gettime\0" "utimensat\0" "acct\0" "capget\0" "capset\0" "personality\0" "exit\0"
	/*  94 */ "exit_group\0" "waitid\0" "set_tid_address\0" "unshare\0" "futex\0" "set_robust_list\0"
	/* 100 */ "get_robust_list\0" "nanosleep\0" "getitimer\0" "setitimer\0" "kexec_load\0" "init_module\0"
	/* 106 */ "delete_module\0" "timer_create\0" "timer_gettime\0" "timer_getoverrun\0" "timer_settime\0"
	/* 111 */ "timer_delete\0" "clock_settime\0" "clock_gettime\0" "clock_getres\0" "clock_nanosleep\0"
	/* 116 */ "syslog\0" "ptrace\0" "sched_setparam\0" "sched_setscheduler\0" "sched_getscheduler\0"
	/* 121 */ "sched_getparam\0" "sched_setaffinity\0" "sched_getaffinity\0" "sched_yield\0"
	/* 125 */ "sched_get_priority_max\0" "sched_get_priority_min\0" "sched_rr_get_interval\0"
	/* 128 */ "restart_syscall\0" "kill\0" "tkill\0" "tgkill\0" "sigaltstack\0" "rt_sigsuspend\0"
	/* 134 */ "rt_sigaction\0" "rt_sigprocmask\0" "rt_sigpending\0" "rt_sigtimedwait\0"
	/* 138 */ "rt_sigqueueinfo\0" "rt_sigreturn\0" "setpriority\0" "getpriority\0" "reboot\0" "setregid\0"
	/* 144 */ "setgid\0" "setreuid\0" "setuid\0" "setresuid\0" "getresuid\0" "setresgid\0" "getresgid\0"
	/* 151 */ "setfsuid\0" "setfsgid\0" "times\0" "setpgid\0" "getpgid\0" "getsid\0" "setsid\0"
	/* 158 */ "getgroups\0" "setgroups\0" "uname\0" "sethostname\0" "setdomainname\0" "getrlimit\0"
	/* 164 */ "setrlimit\0" "getrusage\0" "umask\0" "prctl\0" "getcpu\0" "gettimeofday\0" "settimeofday\0"
	/* 171 */ "adjtimex\0" "getpid\0" "getppid\0" "getuid\0" "geteuid\0" "getgid\0" "getegid\0" "gettid\0"
	/* 179 */ "sysinfo\0" "mq_open\0" "mq_unlink\0" "mq_timedsend\0" "mq_timedreceive\0" "mq_notify\0"
	/* 185 */ "mq_getsetattr\0" "msgget\0" "msgctl\0" "msgrcv\0" "msgsnd\0" "semget\0" "semctl\0"
	/* 192 */ "semtimedop\0" "semop\0" "shmget\0" "shmctl\0" "shmat\0" "shmdt\0" "socket\0" "socketpair\0"
	/* 200 */ "bind\0" "listen\0" "accept\0" "connect\0" "getsockname\0" "getpeername\0" "sendto\0"
	/* 207 */ "recvfrom\0" "setsockopt\0" "getsockopt\0" "shutdown\0" "sendmsg\0" "recvmsg\0"
	/* 213 */ "readahead\0" "brk\0" "munmap\0" "mremap\0" "add_key\0" "request_key\0" "keyctl\0" "clone\0"
	/* 221 */ "execve\0" "mmap\0" "fadvise64\0" "swapon\0" "swapoff\0" "mprotect\0" "msync\0" "mlock\0"
	/* 229 */ "munlock\0" "mlockall\0" "munlockall\0" "mincore\0" "madvise\0" "remap_file_pages\0"
	/* 235 */ "mbind\0" "get_mempolicy\0" "set_mempolicy\0" "migrate_pages\0" "move_pages\0"
	/* 240 */ "rt_tgsigqueueinfo\0" "perf_event_open\0" "accept4\0" "recvmmsg\0" "\0" "\0" "\0" "\0" "\0"
	/* 249 */ "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "wait4\0" "prlimit64\0"
	/* 262 */ "fanotify_init\0" "fanotify_mark\0" "name_to_handle_at\0" "open_by_handle_at\0"
	/* 266 */ "clock_adjtime\0" "syncfs\0" "setns\0" "sendmmsg\0" "process_vm_readv\0"
	/* 271 */ "process_vm_writev\0" "kcmp\0" "finit_module\0" "sched_setattr\0" "sched_getattr\0"
	/* 276 */ "renameat2\0" "seccomp\0" "getrandom\0" "memfd_create\0" "bpf\0" "execveat\0"
	/* 282 */ "userfaultfd\0" "membarrier\0" "mlock2\0" "copy_file_range\0" "preadv2\0" "pwritev2\0"
	/* 288 */ "pkey_mprotect\0" "pkey_alloc\0" "pkey_free\0" "statx\0" "io_pgetevents\0" "rseq\0"
	/* 294 */ "kexec_file_load\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0"
	/* 309 */ "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0"
	/* 327 */ "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0"
	/* 345 */ "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0"
	/* 363 */ "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0"
	/* 381 */ "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0"
	/* 399 */ "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0" "\0"
	/* 417 */ "\0" "\0" "\0" "\0" "\0" "\0" "\0" "pidfd_send_signal\0" "io_uring_setup\0"
	/* 426 */ "io_uring_enter\0" "io_uring_register\0" "open_tree\0" "move_mount\0" "fsopen\0"
	/* 431 */ "fsconfig\0" "fsmount\0" "fspick\0" "pidfd_open\0" "clone3\0" "close_range\0" "openat2\0"
	/* 438 */ "pidfd_getfd\0" "faccessat2\0" "process_madvise\0" "epoll_pwait2\0" "mount_setattr\0"
	/* 443 */ "quotactl_fd\0" "landlock_create_ruleset\0" "landlock_add_rule\0" "landlock_restrict_self\0"
	/* 447 */ "memfd_secret\0" "process_mrelease\0" "futex_waitv\0" "set_mempolicy_home_node\0"
	/* 451 */ "cachestat\0" "fchmodat2\0" "map_shadow_stack\0" "futex_wake\0" "futex_wait\0"
	/* 456 */ "futex_requeue\0" "statmount\0" "listmount\0" "lsm_get_self_attr\0" "lsm_set_self_attr\0"
	/* 461 */ "lsm_list_modules\0" "mseal\0" "setxattrat\0" "getxattrat\0" "listxattrat\0"
	/* 466 */ "removexattrat\0" "open_tree_attr\0" "file_getattr\0" "file_setattr\0";
#elif defined(__arm__)
/* 32-bit ARM EABI (arch/arm/tools/syscall.tbl; the gaps are OABI-only
 * numbers): 32-bit names, e.g. mmap2, fstatat64, clock_gettime64 */
static const char sc_names[] =
	/*   0 */ "restart_syscall\0" "exit\0" "fork\0" "read\0" "write\0" "open\0" "close\0" "\0" "creat\0"
	/*   9 */ "link\0" "unlink\0" "execve\0" "chdir\0" "\0" "mknod\0" "chmod\0" "lchown\0" "\0" "\0"
	/*  19 */ "lseek\0" "getpid\0" "mount\0" "\0" "setuid\0" "getuid\0" "\0" "ptrace\0" "\0" "\0"
	/*  29 */ "pause\0" "\0" "\0" "\0" "access\0" "nice\0" "\0" "sync\0" "kill\0" "rename\0" "mkdir\0"
	/*  40 */ "rmdir\0" "dup\0" "pipe\0" "times\0" "\0" "brk\0" "setgid\0" "getgid\0" "\0" "geteuid\0"
	/*  50 */ "getegid\0" "acct\0" "umount2\0" "\0" "ioctl\0" "fcntl\0" "\0" "setpgid\0" "\0" "\0"
	/*  60 */ "umask\0" "chroot\0" "ustat\0" "dup2\0" "getppid\0" "getpgrp\0" "setsid\0" "sigaction\0"
	/*  68 */ "\0" "\0" "setreuid\0" "setregid\0" "sigsuspend\0" "sigpending\0" "sethostname\0"
	/*  75 */ "setrlimit\0" "\0" "getrusage\0" "gettimeofday\0" "settimeofday\0" "getgroups\0"
	/*  81 */ "setgroups\0" "\0" "symlink\0" "\0" "readlink\0" "uselib\0" "swapon\0" "reboot\0" "\0" "\0"
	/*  91 */ "munmap\0" "truncate\0" "ftruncate\0" "fchmod\0" "fchown\0" "getpriority\0" "setpriority\0"
	/*  98 */ "\0" "statfs\0" "fstatfs\0" "\0" "\0" "syslog\0" "setitimer\0" "getitimer\0" "stat\0"
	/* 107 */ "lstat\0" "fstat\0" "\0" "\0" "vhangup\0" "\0" "\0" "wait4\0" "swapoff\0" "sysinfo\0" "\0"
	/* 118 */ "fsync\0" "sigreturn\0" "clone\0" "setdomainname\0" "uname\0" "\0" "adjtimex\0" "mprotect\0"
	/* 126 */ "sigprocmask\0" "\0" "init_module\0" "delete_module\0" "\0" "quotactl\0" "getpgid\0"
	/* 133 */ "fchdir\0" "bdflush\0" "sysfs\0" "personality\0" "\0" "setfsuid\0" "setfsgid\0" "_llseek\0"
	/* 141 */ "getdents\0" "_newselect\0" "flock\0" "msync\0" "readv\0" "writev\0" "getsid\0"
	/* 148 */ "fdatasync\0" "_sysctl\0" "mlock\0" "munlock\0" "mlockall\0" "munlockall\0"
	/* 154 */ "sched_setparam\0" "sched_getparam\0" "sched_setscheduler\0" "sched_getscheduler\0"
	/* 158 */ "sched_yield\0" "sched_get_priority_max\0" "sched_get_priority_min\0"
	/* 161 */ "sched_rr_get_interval\0" "nanosleep\0" "mremap\0" "setresuid\0" "getresuid\0" "\0" "\0"
	/* 168 */ "poll\0" "nfsservctl\0" "setresgid\0" "getresgid\0" "prctl\0" "rt_sigreturn\0"
	/* 174 */ "rt_sigaction\0" "rt_sigprocmask\0" "rt_sigpending\0" "rt_sigtimedwait\0"
	/* 178 */ "rt_sigqueueinfo\0" "rt_sigsuspend\0" "pread64\0" "pwrite64\0" "chown\0" "getcwd\0"
	/* 184 */ "capget\0" "capset\0" "sigaltstack\0" "sendfile\0" "\0" "\0" "vfork\0" "ugetrlimit\0"
	/* 192 */ "mmap2\0" "truncate64\0" "ftruncate64\0" "stat64\0" "lstat64\0" "fstat64\0" "lchown32\0"
	/* 199 */ "getuid32\0" "getgid32\0" "geteuid32\0" "getegid32\0" "setreuid32\0" "setregid32\0"
	/* 205 */ "getgroups32\0" "setgroups32\0" "fchown32\0" "setresuid32\0" "getresuid32\0" "setresgid32\0"
	/* 211 */ "getresgid32\0" "chown32\0" "setuid32\0" "setgid32\0" "setfsuid32\0" "setfsgid32\0"
	/* 217 */ "getdents64\0" "pivot_root\0" "mincore\0" "madvise\0" "fcntl64\0" "\0" "\0" "gettid\0"
	/* 225 */ "readahead\0" "setxattr\0" "lsetxattr\0" "fsetxattr\0" "getxattr\0" "lgetxattr\0"
	/* 231 */ "fgetxattr\0" "listxattr\0" "llistxattr\0" "flistxattr\0" "removexattr\0" "lremovexattr\0"
	/* 237 */ "fremovexattr\0" "tkill\0" "sendfile64\0" "futex\0" "sched_setaffinity\0"
	/* 242 */ "sched_getaffinity\0" "io_setup\0" "io_destroy\0" "io_getevents\0" "io_submit\0"
	/* 247 */ "io_cancel\0" "exit_group\0" "lookup_dcookie\0" "epoll_create\0" "epoll_ctl\0"
	/* 252 */ "epoll_wait\0" "remap_file_pages\0" "\0" "\0" "set_tid_address\0" "timer_create\0"
	/* 258 */ "timer_settime\0" "timer_gettime\0" "timer_getoverrun\0" "timer_delete\0" "clock_settime\0"
	/* 263 */ "clock_gettime\0" "clock_getres\0" "clock_nanosleep\0" "statfs64\0" "fstatfs64\0" "tgkill\0"
	/* 269 */ "utimes\0" "arm_fadvise64_64\0" "pciconfig_iobase\0" "pciconfig_read\0" "pciconfig_write\0"
	/* 274 */ "mq_open\0" "mq_unlink\0" "mq_timedsend\0" "mq_timedreceive\0" "mq_notify\0"
	/* 279 */ "mq_getsetattr\0" "waitid\0" "socket\0" "bind\0" "connect\0" "listen\0" "accept\0"
	/* 286 */ "getsockname\0" "getpeername\0" "socketpair\0" "send\0" "sendto\0" "recv\0" "recvfrom\0"
	/* 293 */ "shutdown\0" "setsockopt\0" "getsockopt\0" "sendmsg\0" "recvmsg\0" "semop\0" "semget\0"
	/* 300 */ "semctl\0" "msgsnd\0" "msgrcv\0" "msgget\0" "msgctl\0" "shmat\0" "shmdt\0" "shmget\0"
	/* 308 */ "shmctl\0" "add_key\0" "request_key\0" "keyctl\0" "semtimedop\0" "vserver\0" "ioprio_set\0"
	/* 315 */ "ioprio_get\0" "inotify_init\0" "inotify_add_watch\0" "inotify_rm_watch\0" "mbind\0"
	/* 320 */ "get_mempolicy\0" "set_mempolicy\0" "openat\0" "mkdirat\0" "mknodat\0" "fchownat\0"
	/* 326 */ "futimesat\0" "fstatat64\0" "unlinkat\0" "renameat\0" "linkat\0" "symlinkat\0"
	/* 332 */ "readlinkat\0" "fchmodat\0" "faccessat\0" "pselect6\0" "ppoll\0" "unshare\0"
	/* 338 */ "set_robust_list\0" "get_robust_list\0" "splice\0" "arm_sync_file_range\0" "tee\0"
	/* 343 */ "vmsplice\0" "move_pages\0" "getcpu\0" "epoll_pwait\0" "kexec_load\0" "utimensat\0"
	/* 349 */ "signalfd\0" "timerfd_create\0" "eventfd\0" "fallocate\0" "timerfd_settime\0"
	/* 354 */ "timerfd_gettime\0" "signalfd4\0" "eventfd2\0" "epoll_create1\0" "dup3\0" "pipe2\0"
	/* 360 */ "inotify_init1\0" "preadv\0" "pwritev\0" "rt_tgsigqueueinfo\0" "perf_event_open\0"
	/* 365 */ "recvmmsg\0" "accept4\0" "fanotify_init\0" "fanotify_mark\0" "prlimit64\0"
	/* 370 */ "name_to_handle_at\0" "open_by_handle_at\0" "clock_adjtime\0" "syncfs\0" "sendmmsg\0"
	/* 375 */ "setns\0" "process_vm_readv\0" "process_vm_writev\0" "kcmp\0" "finit_module\0"
	/* 380 */ "sched_setattr\0" "sched_getattr\0" "renameat2\0" "seccomp\0" "getrandom\0" "memfd_create\0"
	/* 386 */ "bpf\0" "execveat\0" "userfaultfd\0" "membarrier\0" "mlock2\0" "copy_file_range\0"
	/* 392 */ "preadv2\0" "pwritev2\0" "pkey_mprotect\0" "pkey_alloc\0" "pkey_free\0" "statx\0" "rseq\0"
	/* 399 */ "io_pgetevents\0" "migrate_pages\0" "kexec_file_load\0" "\0" "clock_gettime64\0"
	/* 404 */ "clock_settime64\0" "clock_adjtime64\0" "clock_getres_time64\0" "clock_nanosleep_time64\0"
	/* 408 */ "timer_gettime64\0" "timer_settime64\0" "timerfd_gettime64\0" "timerfd_settime64\0"
	/* 412 */ "utimensat_time64\0" "pselect6_time64\0" "ppoll_time64\0" "\0" "io_pgetevents_time64\0"
	/* 417 */ "recvmmsg_time64\0" "mq_timedsend_time64\0" "mq_timedreceive_time64\0" "semtimedop_time64\0"
	/* 421 */ "rt_sigtimedwait_time64\0" "futex_time64\0" "sched_rr_get_interval_time64\0"
	/* 424 */ "pidfd_send_signal\0" "io_uring_setup\0" "io_uring_enter\0" "io_uring_register\0"
	/* 428 */ "open_tree\0" "move_mount\0" "fsopen\0" "fsconfig\0" "fsmount\0" "fspick\0" "pidfd_open\0"
	/* 435 */ "clone3\0" "close_range\0" "openat2\0" "pidfd_getfd\0" "faccessat2\0" "process_madvise\0"
	/* 441 */ "epoll_pwait2\0" "mount_setattr\0" "quotactl_fd\0" "landlock_create_ruleset\0"
	/* 445 */ "landlock_add_rule\0" "landlock_restrict_self\0" "memfd_secret\0" "process_mrelease\0"
	/* 449 */ "futex_waitv\0" "set_mempolicy_home_node\0" "cachestat\0" "fchmodat2\0" "map_shadow_stack\0"
	/* 454 */ "futex_wake\0" "futex_wait\0" "futex_requeue\0" "statmount\0" "listmount\0"
	/* 459 */ "lsm_get_self_attr\0" "lsm_set_self_attr\0" "lsm_list_modules\0" "mseal\0" "setxattrat\0"
	/* 464 */ "getxattrat\0" "listxattrat\0" "removexattrat\0" "open_tree_attr\0" "file_getattr\0"
	/* 469 */ "file_setattr\0";
#else
#error "corebox: no syscall table for this architecture (add one to tools/syscalls.c)"
#endif

static const char errno_names[] =
	/*   0 */ "\0" "EPERM\0" "ENOENT\0" "ESRCH\0" "EINTR\0" "EIO\0" "ENXIO\0" "E2BIG\0" "ENOEXEC\0"
	/*   9 */ "EBADF\0" "ECHILD\0" "EAGAIN\0" "ENOMEM\0" "EACCES\0" "EFAULT\0" "ENOTBLK\0" "EBUSY\0"
	/*  17 */ "EEXIST\0" "EXDEV\0" "ENODEV\0" "ENOTDIR\0" "EISDIR\0" "EINVAL\0" "ENFILE\0" "EMFILE\0"
	/*  25 */ "ENOTTY\0" "ETXTBSY\0" "EFBIG\0" "ENOSPC\0" "ESPIPE\0" "EROFS\0" "EMLINK\0" "EPIPE\0"
	/*  33 */ "EDOM\0" "ERANGE\0" "EDEADLK\0" "ENAMETOOLONG\0" "ENOLCK\0" "ENOSYS\0" "ENOTEMPTY\0"
	/*  40 */ "ELOOP\0" "\0" "ENOMSG\0" "EIDRM\0" "ECHRNG\0" "EL2NSYNC\0" "EL3HLT\0" "EL3RST\0" "ELNRNG\0"
	/*  49 */ "EUNATCH\0" "ENOCSI\0" "EL2HLT\0" "EBADE\0" "EBADR\0" "EXFULL\0" "ENOANO\0" "EBADRQC\0"
	/*  57 */ "EBADSLT\0" "\0" "EBFONT\0" "ENOSTR\0" "ENODATA\0" "ETIME\0" "ENOSR\0" "ENONET\0" "ENOPKG\0"
	/*  66 */ "EREMOTE\0" "ENOLINK\0" "EADV\0" "ESRMNT\0" "ECOMM\0" "EPROTO\0" "EMULTIHOP\0" "EDOTDOT\0"
	/*  74 */ "EBADMSG\0" "EOVERFLOW\0" "ENOTUNIQ\0" "EBADFD\0" "EREMCHG\0" "ELIBACC\0" "ELIBBAD\0"
	/*  81 */ "ELIBSCN\0" "ELIBMAX\0" "ELIBEXEC\0" "EILSEQ\0" "ERESTART\0" "ESTRPIPE\0" "EUSERS\0"
	/*  88 */ "ENOTSOCK\0" "EDESTADDRREQ\0" "EMSGSIZE\0" "EPROTOTYPE\0" "ENOPROTOOPT\0"
	/*  93 */ "EPROTONOSUPPORT\0" "ESOCKTNOSUPPORT\0" "EOPNOTSUPP\0" "EPFNOSUPPORT\0" "EAFNOSUPPORT\0"
	/*  98 */ "EADDRINUSE\0" "EADDRNOTAVAIL\0" "ENETDOWN\0" "ENETUNREACH\0" "ENETRESET\0" "ECONNABORTED\0"
	/* 104 */ "ECONNRESET\0" "ENOBUFS\0" "EISCONN\0" "ENOTCONN\0" "ESHUTDOWN\0" "ETOOMANYREFS\0"
	/* 110 */ "ETIMEDOUT\0" "ECONNREFUSED\0" "EHOSTDOWN\0" "EHOSTUNREACH\0" "EALREADY\0" "EINPROGRESS\0"
	/* 116 */ "ESTALE\0" "EUCLEAN\0" "ENOTNAM\0" "ENAVAIL\0" "EISNAM\0" "EREMOTEIO\0" "EDQUOT\0"
	/* 123 */ "ENOMEDIUM\0" "EMEDIUMTYPE\0" "ECANCELED\0" "ENOKEY\0" "EKEYEXPIRED\0" "EKEYREVOKED\0"
	/* 129 */ "EKEYREJECTED\0" "EOWNERDEAD\0" "ENOTRECOVERABLE\0" "ERFKILL\0" "EHWPOISON\0";

/* Kernel-internal codes, number = err - 512. */
static const char errno_kernel[] =
	/*   0 */ "ERESTARTSYS\0" "ERESTARTNOINTR\0" "ERESTARTNOHAND\0" "ENOIOCTLCMD\0"
	/*   4 */ "ERESTART_RESTARTBLOCK\0" "EPROBE_DEFER\0" "EOPENSTALE\0" "ENOPARAM\0" "\0" "EBADHANDLE\0"
	/*  10 */ "ENOTSYNC\0" "EBADCOOKIE\0" "ENOTSUPP\0" "ETOOSMALL\0" "ESERVERFAULT\0" "EBADTYPE\0"
	/*  16 */ "EJUKEBOX\0" "EIOCBQUEUED\0" "ERECALLCONFLICT\0" "ENOGRACE\0";

/* name number nr of table tab (sizeof tab bytes), NULL when none */
static const char *nth_name(const char *tab, size_t size, unsigned nr)
{
	const char *p = tab, *end = tab + size - 1;

	for (; p < end && nr; nr--)
		p += strlen(p) + 1;
	return p < end && *p ? p : NULL;
}

/* the number of name, or -1 */
static int name_nr(const char *tab, size_t size, const char *name)
{
	int nr = 0;

	for (const char *p = tab, *end = tab + size - 1; p < end; p += strlen(p) + 1, nr++)
		if (*p && !strcmp(p, name))
			return nr;
	return -1;
}

#define NTH_NAME(tab, nr) nth_name(tab, sizeof(tab), nr)
#define NAME_NR(tab, name) name_nr(tab, sizeof(tab), name)

const char *syscall_name(unsigned nr)
{
	return NTH_NAME(sc_names, nr);
}

unsigned syscall_max(void)
{
	static unsigned n;

	if (!n)
		for (size_t i = 0; i < sizeof(sc_names) - 1; i++)
			n += !sc_names[i];
	return n;
}

/* The kernel names a syscall's tracepoints (sys_enter_NAME) and its
 * function after SYSCALL_DEFINE's name, which for these differs from the
 * table's: umount2 is SYSCALL_DEFINE2(umount, ...), stat is newstat. */
static const char *const define_names[][2] = {
	{ "umount", "umount2" }, { "newstat", "stat" }, { "newlstat", "lstat" },
	{ "newfstat", "fstat" }, { "newuname", "uname" },
};

int syscall_nr(const char *name)
{
	unsigned i;

	if (!name)
		return -1;
	/* accept "sys_read" and "__x64_sys_read" spellings too */
	if (!strncmp(name, "__x64_sys_", 10))
		name += 10;
	else if (!strncmp(name, "__arm64_sys_", 12))
		name += 12;
	else if (!strncmp(name, "sys_", 4))
		name += 4;
	if (!*name)
		return -1;
	for (i = 0; i < ARRAY_SIZE(define_names); i++)
		if (!strcmp(define_names[i][0], name))
			name = define_names[i][1];
	return NAME_NR(sc_names, name);
}

const char *errno_name(int err)
{
	if (err < 0)
		err = -err;
	return err >= 512 ? NTH_NAME(errno_kernel, (unsigned)err - 512) : NTH_NAME(errno_names, (unsigned)err);
}

int errno_by_name(const char *name)
{
	static const struct {
		const char *name;
		int err;
	} aliases[] = {
		{ "EWOULDBLOCK", 11 }, { "EDEADLOCK", 35 }, { "ENOTSUP", 95 },
	};
	unsigned i;
	int nr;

	if (!name || !*name)
		return -1;
	if ((nr = NAME_NR(errno_names, name)) >= 0)
		return nr;
	if ((nr = NAME_NR(errno_kernel, name)) >= 0)
		return 512 + nr;
	for (i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(aliases[i].name, name))
			return aliases[i].err;
	return -1;
}
