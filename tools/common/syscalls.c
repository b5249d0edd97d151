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

#if defined(__x86_64__)
static const char *const sc_names[] = {
	[0] = "read", [1] = "write", [2] = "open", [3] = "close", [4] = "stat", [5] = "fstat",
	[6] = "lstat", [7] = "poll", [8] = "lseek", [9] = "mmap", [10] = "mprotect", [11] = "munmap",
	[12] = "brk", [13] = "rt_sigaction", [14] = "rt_sigprocmask", [15] = "rt_sigreturn",
	[16] = "ioctl", [17] = "pread64", [18] = "pwrite64", [19] = "readv", [20] = "writev",
	[21] = "access", [22] = "pipe", [23] = "select", [24] = "sched_yield", [25] = "mremap",
	[26] = "msync", [27] = "mincore", [28] = "madvise", [29] = "shmget", [30] = "shmat",
	[31] = "shmctl", [32] = "dup", [33] = "dup2", [34] = "pause", [35] = "nanosleep",
	[36] = "getitimer", [37] = "alarm", [38] = "setitimer", [39] = "getpid", [40] = "sendfile",
	[41] = "socket", [42] = "connect", [43] = "accept", [44] = "sendto", [45] = "recvfrom",
	[46] = "sendmsg", [47] = "recvmsg", [48] = "shutdown", [49] = "bind", [50] = "listen",
	[51] = "getsockname", [52] = "getpeername", [53] = "socketpair", [54] = "setsockopt",
	[55] = "getsockopt", [56] = "clone", [57] = "fork", [58] = "vfork", [59] = "execve",
	[60] = "exit", [61] = "wait4", [62] = "kill", [63] = "uname", [64] = "semget", [65] = "semop",
	[66] = "semctl", [67] = "shmdt", [68] = "msgget", [69] = "msgsnd", [70] = "msgrcv",
	[71] = "msgctl", [72] = "fcntl", [73] = "flock", [74] = "fsync", [75] = "fdatasync",
	[76] = "truncate", [77] = "ftruncate", [78] = "getdents", [79] = "getcwd", [80] = "chdir",
	[81] = "fchdir", [82] = "rename", [83] = "mkdir", [84] = "rmdir", [85] = "creat",
	[86] = "link", [87] = "unlink", [88] = "symlink", [89] = "readlink", [90] = "chmod",
	[91] = "fchmod", [92] = "chown", [93] = "fchown", [94] = "lchown", [95] = "umask",
	[96] = "gettimeofday", [97] = "getrlimit", [98] = "getrusage", [99] = "sysinfo",
	[100] = "times", [101] = "ptrace", [102] = "getuid", [103] = "syslog", [104] = "getgid",
	[105] = "setuid", [106] = "setgid", [107] = "geteuid", [108] = "getegid", [109] = "setpgid",
	[110] = "getppid", [111] = "getpgrp", [112] = "setsid", [113] = "setreuid",
	[114] = "setregid", [115] = "getgroups", [116] = "setgroups", [117] = "setresuid",
	[118] = "getresuid", [119] = "setresgid", [120] = "getresgid", [121] = "getpgid",
	[122] = "setfsuid", [123] = "setfsgid", [124] = "getsid", [125] = "capget", [126] = "capset",
	[127] = "rt_sigpending", [128] = "rt_sigtimedwait", [129] = "rt_sigqueueinfo",
	[130] = "rt_sigsuspend", [131] = "sigaltstack", [132] = "utime", [133] = "mknod",
	[134] = "uselib", [135] = "personality", [136] = "ustat", [137] = "statfs", [138] = "fstatfs",
	[139] = "sysfs", [140] = "getpriority", [141] = "setpriority", [142] = "sched_setparam",
	[143] = "sched_getparam", [144] = "sched_setscheduler", [145] = "sched_getscheduler",
	[146] = "sched_get_priority_max", [147] = "sched_get_priority_min",
	[148] = "sched_rr_get_interval", [149] = "mlock", [150] = "munlock", [151] = "mlockall",
	[152] = "munlockall", [153] = "vhangup", [154] = "modify_ldt", [155] = "pivot_root",
	[156] = "_sysctl", [157] = "prctl", [158] = "arch_prctl", [159] = "adjtimex",
	[160] = "setrlimit", [161] = "chroot", [162] = "sync", [163] = "acct", [164] = "settimeofday",
	[165] = "mount", [166] = "umount2", [167] = "swapon", [168] = "swapoff", [169] = "reboot",
	[170] = "sethostname", [171] = "setdomainname", [172] = "iopl", [173] = "ioperm",
	[174] = "create_module", [175] = "init_module", [176] = "delete_module",
	[177] = "get_kernel_syms", [178] = "query_module", [179] = "quotactl", [180] = "nfsservctl",
	[181] = "getpmsg", [182] = "putpmsg", [183] = "afs_syscall", [184] = "tuxcall",
	[185] = "security", [186] = "gettid", [187] = "readahead", [188] = "setxattr",
	[189] = "lsetxattr", [190] = "fsetxattr", [191] = "getxattr", [192] = "lgetxattr",
	[193] = "fgetxattr", [194] = "listxattr", [195] = "llistxattr", [196] = "flistxattr",
	[197] = "removexattr", [198] = "lremovexattr", [199] = "fremovexattr", [200] = "tkill",
	[201] = "time", [202] = "futex", [203] = "sched_setaffinity", [204] = "sched_getaffinity",
	[205] = "set_thread_area", [206] = "io_setup", [207] = "io_destroy", [208] = "io_getevents",
	[209] = "io_submit", [210] = "io_cancel", [211] = "get_thread_area", [212] = "lookup_dcookie",
	[213] = "epoll_create", [214] = "epoll_ctl_old", [215] = "epoll_wait_old",
	[216] = "remap_file_pages", [217] = "getdents64", [218] = "set_tid_address",
	[219] = "restart_syscall", [220] = "semtimedop", [221] = "fadvise64", [222] = "timer_create",
	[223] = "timer_settime", [224] = "timer_gettime", [225] = "timer_getoverrun",
	[226] = "timer_delete", [227] = "clock_settime", [228] = "clock_gettime",
	[229] = "clock_getres", [230] = "clock_nanosleep", [231] = "exit_group", [232] = "epoll_wait",
	[233] = "epoll_ctl", [234] = "tgkill", [235] = "utimes", [236] = "vserver", [237] = "mbind",
	[238] = "set_mempolicy", [239] = "get_mempolicy", [240] = "mq_open", [241] = "mq_unlink",
	[242] = "mq_timedsend", [243] = "mq_timedreceive", [244] = "mq_notify",
	[245] = "mq_getsetattr", [246] = "kexec_load", [247] = "waitid", [248] = "add_key",
	[249] = "request_key", [250] = "keyctl", [251] = "ioprio_set", [252] = "ioprio_get",
	[253] = "inotify_init", [254] = "inotify_add_watch", [255] = "inotify_rm_watch",
	[256] = "migrate_pages", [257] = "openat", [258] = "mkdirat", [259] = "mknodat",
	[260] = "fchownat", [261] = "futimesat", [262] = "newfstatat", [263] = "unlinkat",
	[264] = "renameat", [265] = "linkat", [266] = "symlinkat", [267] = "readlinkat",
	[268] = "fchmodat", [269] = "faccessat", [270] = "pselect6", [271] = "ppoll",
	[272] = "unshare", [273] = "set_robust_list", [274] = "get_robust_list", [275] = "splice",
	[276] = "tee", [277] = "sync_file_range", [278] = "vmsplice", [279] = "move_pages",
	[280] = "utimensat", [281] = "epoll_pwait", [282] = "signalfd", [283] = "timerfd_create",
	[284] = "eventfd", [285] = "fallocate", [286] = "timerfd_settime", [287] = "timerfd_gettime",
	[288] = "accept4", [289] = "signalfd4", [290] = "eventfd2", [291] = "epoll_create1",
	[292] = "dup3", [293] = "pipe2", [294] = "inotify_init1", [295] = "preadv", [296] = "pwritev",
	[297] = "rt_tgsigqueueinfo", [298] = "perf_event_open", [299] = "recvmmsg",
	[300] = "fanotify_init", [301] = "fanotify_mark", [302] = "prlimit64",
	[303] = "name_to_handle_at", [304] = "open_by_handle_at", [305] = "clock_adjtime",
	[306] = "syncfs", [307] = "sendmmsg", [308] = "setns", [309] = "getcpu",
	[310] = "process_vm_readv", [311] = "process_vm_writev", [312] = "kcmp",
	[313] = "finit_module", [314] = "sched_setattr", [315] = "sched_getattr", [316] = "renameat2",
	[317] = "seccomp", [318] = "getrandom", [319] = "memfd_create", [320] = "kexec_file_load",
	[321] = "bpf", [322] = "execveat", [323] = "userfaultfd", [324] = "membarrier",
	[325] = "mlock2", [326] = "copy_file_range", [327] = "preadv2", [328] = "pwritev2",
	[329] = "pkey_mprotect", [330] = "pkey_alloc", [331] = "pkey_free", [332] = "statx",
	[333] = "io_pgetevents", [334] = "rseq", [335] = "uretprobe", [336] = "uprobe",
	[424] = "pidfd_send_signal", [425] = "io_uring_setup", [426] = "io_uring_enter",
	[427] = "io_uring_register", [428] = "open_tree", [429] = "move_mount", [430] = "fsopen",
	[431] = "fsconfig", [432] = "fsmount", [433] = "fspick", [434] = "pidfd_open",
	[435] = "clone3", [436] = "close_range", [437] = "openat2", [438] = "pidfd_getfd",
	[439] = "faccessat2", [440] = "process_madvise", [441] = "epoll_pwait2",
	[442] = "mount_setattr", [443] = "quotactl_fd", [444] = "landlock_create_ruleset",
	[445] = "landlock_add_rule", [446] = "landlock_restrict_self", [447] = "memfd_secret",
	[448] = "process_mrelease", [449] = "futex_waitv", [450] = "set_mempolicy_home_node",
	[451] = "cachestat", [452] = "fchmodat2", [453] = "map_shadow_stack", [454] = "futex_wake",
	[455] = "futex_wait", [456] = "futex_requeue", [457] = "statmount", [458] = "listmount",
	[459] = "lsm_get_self_attr", [460] = "lsm_set_self_attr", [461] = "lsm_list_modules",
	[462] = "mseal", [463] = "setxattrat", [464] = "getxattrat", [465] = "listxattrat",
	[466] = "removexattrat", [467] = "open_tree_attr", [468] = "file_getattr",
	[469] = "file_setattr",
};
#elif defined(__aarch64__)
static const char *const sc_names[] = {
	[0] = "io_setup", [1] = "io_destroy", [2] = "io_submit", [3] = "io_cancel",
	[4] = "io_getevents", [5] = "setxattr", [6] = "lsetxattr", [7] = "fsetxattr",
	[8] = "getxattr", [9] = "lgetxattr", [10] = "fgetxattr", [11] = "listxattr",
	[12] = "llistxattr", [13] = "flistxattr", [14] = "removexattr", [15] = "lremovexattr",
	[16] = "fremovexattr", [17] = "getcwd", [18] = "lookup_dcookie", [19] = "eventfd2",
	[20] = "epoll_create1", [21] = "epoll_ctl", [22] = "epoll_pwait", [23] = "dup", [24] = "dup3",
	[25] = "fcntl", [26] = "inotify_init1", [27] = "inotify_add_watch", [28] = "inotify_rm_watch",
	[29] = "ioctl", [30] = "ioprio_set", [31] = "ioprio_get", [32] = "flock", [33] = "mknodat",
	[34] = "mkdirat", [35] = "unlinkat", [36] = "symlinkat", [37] = "linkat", [38] = "renameat",
	[39] = "umount2", [40] = "mount", [41] = "pivot_root", [42] = "nfsservctl", [43] = "statfs",
	[44] = "fstatfs", [45] = "truncate", [46] = "ftruncate", [47] = "fallocate",
	[48] = "faccessat", [49] = "chdir", [50] = "fchdir", [51] = "chroot", [52] = "fchmod",
	[53] = "fchmodat", [54] = "fchownat", [55] = "fchown", [56] = "openat", [57] = "close",
	[58] = "vhangup", [59] = "pipe2", [60] = "quotactl", [61] = "getdents64", [62] = "lseek",
	[63] = "read", [64] = "write", [65] = "readv", [66] = "writev", [67] = "pread64",
	[68] = "pwrite64", [69] = "preadv", [70] = "pwritev", [71] = "sendfile", [72] = "pselect6",
	[73] = "ppoll", [74] = "signalfd4", [75] = "vmsplice", [76] = "splice", [77] = "tee",
	[78] = "readlinkat", [79] = "newfstatat", [80] = "fstat", [81] = "sync", [82] = "fsync",
	[83] = "fdatasync", [84] = "sync_file_range", [85] = "timerfd_create",
	[86] = "timerfd_settime", [87] = "timerfd_gettime", [88] = "utimensat", [89] = "acct",
	[90] = "capget", [91] = "capset", [92] = "personality", [93] = "exit", [94] = "exit_group",
	[95] = "waitid", [96] = "set_tid_address", [97] = "unshare", [98] = "futex",
	[99] = "set_robust_list", [100] = "get_robust_list", [101] = "nanosleep", [102] = "getitimer",
	[103] = "setitimer", [104] = "kexec_load", [105] = "init_module", [106] = "delete_module",
	[107] = "timer_create", [108] = "timer_gettime", [109] = "timer_getoverrun",
	[110] = "timer_settime", [111] = "timer_delete", [112] = "clock_settime",
	[113] = "clock_gettime", [114] = "clock_getres", [115] = "clock_nanosleep", [116] = "syslog",
	[117] = "ptrace", [118] = "sched_setparam", [119] = "sched_setscheduler",
	[120] = "sched_getscheduler", [121] = "sched_getparam", [122] = "sched_setaffinity",
	[123] = "sched_getaffinity", [124] = "sched_yield", [125] = "sched_get_priority_max",
	[126] = "sched_get_priority_min", [127] = "sched_rr_get_interval", [128] = "restart_syscall",
	[129] = "kill", [130] = "tkill", [131] = "tgkill", [132] = "sigaltstack",
	[133] = "rt_sigsuspend", [134] = "rt_sigaction", [135] = "rt_sigprocmask",
	[136] = "rt_sigpending", [137] = "rt_sigtimedwait", [138] = "rt_sigqueueinfo",
	[139] = "rt_sigreturn", [140] = "setpriority", [141] = "getpriority", [142] = "reboot",
	[143] = "setregid", [144] = "setgid", [145] = "setreuid", [146] = "setuid",
	[147] = "setresuid", [148] = "getresuid", [149] = "setresgid", [150] = "getresgid",
	[151] = "setfsuid", [152] = "setfsgid", [153] = "times", [154] = "setpgid", [155] = "getpgid",
	[156] = "getsid", [157] = "setsid", [158] = "getgroups", [159] = "setgroups", [160] = "uname",
	[161] = "sethostname", [162] = "setdomainname", [163] = "getrlimit", [164] = "setrlimit",
	[165] = "getrusage", [166] = "umask", [167] = "prctl", [168] = "getcpu",
	[169] = "gettimeofday", [170] = "settimeofday", [171] = "adjtimex", [172] = "getpid",
	[173] = "getppid", [174] = "getuid", [175] = "geteuid", [176] = "getgid", [177] = "getegid",
	[178] = "gettid", [179] = "sysinfo", [180] = "mq_open", [181] = "mq_unlink",
	[182] = "mq_timedsend", [183] = "mq_timedreceive", [184] = "mq_notify",
	[185] = "mq_getsetattr", [186] = "msgget", [187] = "msgctl", [188] = "msgrcv",
	[189] = "msgsnd", [190] = "semget", [191] = "semctl", [192] = "semtimedop", [193] = "semop",
	[194] = "shmget", [195] = "shmctl", [196] = "shmat", [197] = "shmdt", [198] = "socket",
	[199] = "socketpair", [200] = "bind", [201] = "listen", [202] = "accept", [203] = "connect",
	[204] = "getsockname", [205] = "getpeername", [206] = "sendto", [207] = "recvfrom",
	[208] = "setsockopt", [209] = "getsockopt", [210] = "shutdown", [211] = "sendmsg",
	[212] = "recvmsg", [213] = "readahead", [214] = "brk", [215] = "munmap", [216] = "mremap",
	[217] = "add_key", [218] = "request_key", [219] = "keyctl", [220] = "clone", [221] = "execve",
	[222] = "mmap", [223] = "fadvise64", [224] = "swapon", [225] = "swapoff", [226] = "mprotect",
	[227] = "msync", [228] = "mlock", [229] = "munlock", [230] = "mlockall", [231] = "munlockall",
	[232] = "mincore", [233] = "madvise", [234] = "remap_file_pages", [235] = "mbind",
	[236] = "get_mempolicy", [237] = "set_mempolicy", [238] = "migrate_pages",
	[239] = "move_pages", [240] = "rt_tgsigqueueinfo", [241] = "perf_event_open",
	[242] = "accept4", [243] = "recvmmsg", [260] = "wait4", [261] = "prlimit64",
	[262] = "fanotify_init", [263] = "fanotify_mark", [264] = "name_to_handle_at",
	[265] = "open_by_handle_at", [266] = "clock_adjtime", [267] = "syncfs", [268] = "setns",
	[269] = "sendmmsg", [270] = "process_vm_readv", [271] = "process_vm_writev", [272] = "kcmp",
	[273] = "finit_module", [274] = "sched_setattr", [275] = "sched_getattr", [276] = "renameat2",
	[277] = "seccomp", [278] = "getrandom", [279] = "memfd_create", [280] = "bpf",
	[281] = "execveat", [282] = "userfaultfd", [283] = "membarrier", [284] = "mlock2",
	[285] = "copy_file_range", [286] = "preadv2", [287] = "pwritev2", [288] = "pkey_mprotect",
	[289] = "pkey_alloc", [290] = "pkey_free", [291] = "statx", [292] = "io_pgetevents",
	[293] = "rseq", [294] = "kexec_file_load", [424] = "pidfd_send_signal",
	[425] = "io_uring_setup", [426] = "io_uring_enter", [427] = "io_uring_register",
	[428] = "open_tree", [429] = "move_mount", [430] = "fsopen", [431] = "fsconfig",
	[432] = "fsmount", [433] = "fspick", [434] = "pidfd_open", [435] = "clone3",
	[436] = "close_range", [437] = "openat2", [438] = "pidfd_getfd", [439] = "faccessat2",
	[440] = "process_madvise", [441] = "epoll_pwait2", [442] = "mount_setattr",
	[443] = "quotactl_fd", [444] = "landlock_create_ruleset", [445] = "landlock_add_rule",
	[446] = "landlock_restrict_self", [447] = "memfd_secret", [448] = "process_mrelease",
	[449] = "futex_waitv", [450] = "set_mempolicy_home_node", [451] = "cachestat",
	[452] = "fchmodat2", [453] = "map_shadow_stack", [454] = "futex_wake", [455] = "futex_wait",
	[456] = "futex_requeue", [457] = "statmount", [458] = "listmount",
	[459] = "lsm_get_self_attr", [460] = "lsm_set_self_attr", [461] = "lsm_list_modules",
	[462] = "mseal", [463] = "setxattrat", [464] = "getxattrat", [465] = "listxattrat",
	[466] = "removexattrat", [467] = "open_tree_attr", [468] = "file_getattr",
	[469] = "file_setattr",
};
#elif defined(__arm__)
/* 32-bit ARM EABI (arch/arm/tools/syscall.tbl; the gaps are OABI-only
 * numbers): 32-bit names, e.g. mmap2, fstatat64, clock_gettime64 */
static const char *const sc_names[] = {
	[0] = "restart_syscall", [1] = "exit", [2] = "fork", [3] = "read", [4] = "write", [5] = "open",
	[6] = "close", [8] = "creat", [9] = "link", [10] = "unlink", [11] = "execve", [12] = "chdir",
	[14] = "mknod", [15] = "chmod", [16] = "lchown", [19] = "lseek", [20] = "getpid", [21] = "mount",
	[23] = "setuid", [24] = "getuid", [26] = "ptrace", [29] = "pause", [33] = "access", [34] = "nice",
	[36] = "sync", [37] = "kill", [38] = "rename", [39] = "mkdir", [40] = "rmdir", [41] = "dup",
	[42] = "pipe", [43] = "times", [45] = "brk", [46] = "setgid", [47] = "getgid", [49] = "geteuid",
	[50] = "getegid", [51] = "acct", [52] = "umount2", [54] = "ioctl", [55] = "fcntl",
	[57] = "setpgid", [60] = "umask", [61] = "chroot", [62] = "ustat", [63] = "dup2",
	[64] = "getppid", [65] = "getpgrp", [66] = "setsid", [67] = "sigaction", [70] = "setreuid",
	[71] = "setregid", [72] = "sigsuspend", [73] = "sigpending", [74] = "sethostname",
	[75] = "setrlimit", [77] = "getrusage", [78] = "gettimeofday", [79] = "settimeofday",
	[80] = "getgroups", [81] = "setgroups", [83] = "symlink", [85] = "readlink", [86] = "uselib",
	[87] = "swapon", [88] = "reboot", [91] = "munmap", [92] = "truncate", [93] = "ftruncate",
	[94] = "fchmod", [95] = "fchown", [96] = "getpriority", [97] = "setpriority", [99] = "statfs",
	[100] = "fstatfs", [103] = "syslog", [104] = "setitimer", [105] = "getitimer", [106] = "stat",
	[107] = "lstat", [108] = "fstat", [111] = "vhangup", [114] = "wait4", [115] = "swapoff",
	[116] = "sysinfo", [118] = "fsync", [119] = "sigreturn", [120] = "clone", [121] = "setdomainname",
	[122] = "uname", [124] = "adjtimex", [125] = "mprotect", [126] = "sigprocmask",
	[128] = "init_module", [129] = "delete_module", [131] = "quotactl", [132] = "getpgid",
	[133] = "fchdir", [134] = "bdflush", [135] = "sysfs", [136] = "personality", [138] = "setfsuid",
	[139] = "setfsgid", [140] = "_llseek", [141] = "getdents", [142] = "_newselect", [143] = "flock",
	[144] = "msync", [145] = "readv", [146] = "writev", [147] = "getsid", [148] = "fdatasync",
	[149] = "_sysctl", [150] = "mlock", [151] = "munlock", [152] = "mlockall", [153] = "munlockall",
	[154] = "sched_setparam", [155] = "sched_getparam", [156] = "sched_setscheduler",
	[157] = "sched_getscheduler", [158] = "sched_yield", [159] = "sched_get_priority_max",
	[160] = "sched_get_priority_min", [161] = "sched_rr_get_interval", [162] = "nanosleep",
	[163] = "mremap", [164] = "setresuid", [165] = "getresuid", [168] = "poll", [169] = "nfsservctl",
	[170] = "setresgid", [171] = "getresgid", [172] = "prctl", [173] = "rt_sigreturn",
	[174] = "rt_sigaction", [175] = "rt_sigprocmask", [176] = "rt_sigpending",
	[177] = "rt_sigtimedwait", [178] = "rt_sigqueueinfo", [179] = "rt_sigsuspend", [180] = "pread64",
	[181] = "pwrite64", [182] = "chown", [183] = "getcwd", [184] = "capget", [185] = "capset",
	[186] = "sigaltstack", [187] = "sendfile", [190] = "vfork", [191] = "ugetrlimit", [192] = "mmap2",
	[193] = "truncate64", [194] = "ftruncate64", [195] = "stat64", [196] = "lstat64",
	[197] = "fstat64", [198] = "lchown32", [199] = "getuid32", [200] = "getgid32",
	[201] = "geteuid32", [202] = "getegid32", [203] = "setreuid32", [204] = "setregid32",
	[205] = "getgroups32", [206] = "setgroups32", [207] = "fchown32", [208] = "setresuid32",
	[209] = "getresuid32", [210] = "setresgid32", [211] = "getresgid32", [212] = "chown32",
	[213] = "setuid32", [214] = "setgid32", [215] = "setfsuid32", [216] = "setfsgid32",
	[217] = "getdents64", [218] = "pivot_root", [219] = "mincore", [220] = "madvise",
	[221] = "fcntl64", [224] = "gettid", [225] = "readahead", [226] = "setxattr", [227] = "lsetxattr",
	[228] = "fsetxattr", [229] = "getxattr", [230] = "lgetxattr", [231] = "fgetxattr",
	[232] = "listxattr", [233] = "llistxattr", [234] = "flistxattr", [235] = "removexattr",
	[236] = "lremovexattr", [237] = "fremovexattr", [238] = "tkill", [239] = "sendfile64",
	[240] = "futex", [241] = "sched_setaffinity", [242] = "sched_getaffinity", [243] = "io_setup",
	[244] = "io_destroy", [245] = "io_getevents", [246] = "io_submit", [247] = "io_cancel",
	[248] = "exit_group", [249] = "lookup_dcookie", [250] = "epoll_create", [251] = "epoll_ctl",
	[252] = "epoll_wait", [253] = "remap_file_pages", [256] = "set_tid_address",
	[257] = "timer_create", [258] = "timer_settime", [259] = "timer_gettime",
	[260] = "timer_getoverrun", [261] = "timer_delete", [262] = "clock_settime",
	[263] = "clock_gettime", [264] = "clock_getres", [265] = "clock_nanosleep", [266] = "statfs64",
	[267] = "fstatfs64", [268] = "tgkill", [269] = "utimes", [270] = "arm_fadvise64_64",
	[271] = "pciconfig_iobase", [272] = "pciconfig_read", [273] = "pciconfig_write",
	[274] = "mq_open", [275] = "mq_unlink", [276] = "mq_timedsend", [277] = "mq_timedreceive",
	[278] = "mq_notify", [279] = "mq_getsetattr", [280] = "waitid", [281] = "socket", [282] = "bind",
	[283] = "connect", [284] = "listen", [285] = "accept", [286] = "getsockname",
	[287] = "getpeername", [288] = "socketpair", [289] = "send", [290] = "sendto", [291] = "recv",
	[292] = "recvfrom", [293] = "shutdown", [294] = "setsockopt", [295] = "getsockopt",
	[296] = "sendmsg", [297] = "recvmsg", [298] = "semop", [299] = "semget", [300] = "semctl",
	[301] = "msgsnd", [302] = "msgrcv", [303] = "msgget", [304] = "msgctl", [305] = "shmat",
	[306] = "shmdt", [307] = "shmget", [308] = "shmctl", [309] = "add_key", [310] = "request_key",
	[311] = "keyctl", [312] = "semtimedop", [313] = "vserver", [314] = "ioprio_set",
	[315] = "ioprio_get", [316] = "inotify_init", [317] = "inotify_add_watch",
	[318] = "inotify_rm_watch", [319] = "mbind", [320] = "get_mempolicy", [321] = "set_mempolicy",
	[322] = "openat", [323] = "mkdirat", [324] = "mknodat", [325] = "fchownat", [326] = "futimesat",
	[327] = "fstatat64", [328] = "unlinkat", [329] = "renameat", [330] = "linkat",
	[331] = "symlinkat", [332] = "readlinkat", [333] = "fchmodat", [334] = "faccessat",
	[335] = "pselect6", [336] = "ppoll", [337] = "unshare", [338] = "set_robust_list",
	[339] = "get_robust_list", [340] = "splice", [341] = "arm_sync_file_range", [342] = "tee",
	[343] = "vmsplice", [344] = "move_pages", [345] = "getcpu", [346] = "epoll_pwait",
	[347] = "kexec_load", [348] = "utimensat", [349] = "signalfd", [350] = "timerfd_create",
	[351] = "eventfd", [352] = "fallocate", [353] = "timerfd_settime", [354] = "timerfd_gettime",
	[355] = "signalfd4", [356] = "eventfd2", [357] = "epoll_create1", [358] = "dup3", [359] = "pipe2",
	[360] = "inotify_init1", [361] = "preadv", [362] = "pwritev", [363] = "rt_tgsigqueueinfo",
	[364] = "perf_event_open", [365] = "recvmmsg", [366] = "accept4", [367] = "fanotify_init",
	[368] = "fanotify_mark", [369] = "prlimit64", [370] = "name_to_handle_at",
	[371] = "open_by_handle_at", [372] = "clock_adjtime", [373] = "syncfs", [374] = "sendmmsg",
	[375] = "setns", [376] = "process_vm_readv", [377] = "process_vm_writev", [378] = "kcmp",
	[379] = "finit_module", [380] = "sched_setattr", [381] = "sched_getattr", [382] = "renameat2",
	[383] = "seccomp", [384] = "getrandom", [385] = "memfd_create", [386] = "bpf", [387] = "execveat",
	[388] = "userfaultfd", [389] = "membarrier", [390] = "mlock2", [391] = "copy_file_range",
	[392] = "preadv2", [393] = "pwritev2", [394] = "pkey_mprotect", [395] = "pkey_alloc",
	[396] = "pkey_free", [397] = "statx", [398] = "rseq", [399] = "io_pgetevents",
	[400] = "migrate_pages", [401] = "kexec_file_load", [403] = "clock_gettime64",
	[404] = "clock_settime64", [405] = "clock_adjtime64", [406] = "clock_getres_time64",
	[407] = "clock_nanosleep_time64", [408] = "timer_gettime64", [409] = "timer_settime64",
	[410] = "timerfd_gettime64", [411] = "timerfd_settime64", [412] = "utimensat_time64",
	[413] = "pselect6_time64", [414] = "ppoll_time64", [416] = "io_pgetevents_time64",
	[417] = "recvmmsg_time64", [418] = "mq_timedsend_time64", [419] = "mq_timedreceive_time64",
	[420] = "semtimedop_time64", [421] = "rt_sigtimedwait_time64", [422] = "futex_time64",
	[423] = "sched_rr_get_interval_time64", [424] = "pidfd_send_signal", [425] = "io_uring_setup",
	[426] = "io_uring_enter", [427] = "io_uring_register", [428] = "open_tree", [429] = "move_mount",
	[430] = "fsopen", [431] = "fsconfig", [432] = "fsmount", [433] = "fspick", [434] = "pidfd_open",
	[435] = "clone3", [436] = "close_range", [437] = "openat2", [438] = "pidfd_getfd",
	[439] = "faccessat2", [440] = "process_madvise", [441] = "epoll_pwait2", [442] = "mount_setattr",
	[443] = "quotactl_fd", [444] = "landlock_create_ruleset", [445] = "landlock_add_rule",
	[446] = "landlock_restrict_self", [447] = "memfd_secret", [448] = "process_mrelease",
	[449] = "futex_waitv", [450] = "set_mempolicy_home_node", [451] = "cachestat",
	[452] = "fchmodat2", [453] = "map_shadow_stack", [454] = "futex_wake", [455] = "futex_wait",
	[456] = "futex_requeue", [457] = "statmount", [458] = "listmount", [459] = "lsm_get_self_attr",
	[460] = "lsm_set_self_attr", [461] = "lsm_list_modules", [462] = "mseal", [463] = "setxattrat",
	[464] = "getxattrat", [465] = "listxattrat", [466] = "removexattrat", [467] = "open_tree_attr",
	[468] = "file_getattr", [469] = "file_setattr",
};
#else
#error "corebox: no syscall table for this architecture (add one to tools/syscalls.c)"
#endif

static const char *const errno_names[] = {
	[1] = "EPERM", [2] = "ENOENT", [3] = "ESRCH", [4] = "EINTR", [5] = "EIO", [6] = "ENXIO",
	[7] = "E2BIG", [8] = "ENOEXEC", [9] = "EBADF", [10] = "ECHILD", [11] = "EAGAIN",
	[12] = "ENOMEM", [13] = "EACCES", [14] = "EFAULT", [15] = "ENOTBLK", [16] = "EBUSY",
	[17] = "EEXIST", [18] = "EXDEV", [19] = "ENODEV", [20] = "ENOTDIR", [21] = "EISDIR",
	[22] = "EINVAL", [23] = "ENFILE", [24] = "EMFILE", [25] = "ENOTTY", [26] = "ETXTBSY",
	[27] = "EFBIG", [28] = "ENOSPC", [29] = "ESPIPE", [30] = "EROFS", [31] = "EMLINK",
	[32] = "EPIPE", [33] = "EDOM", [34] = "ERANGE", [35] = "EDEADLK", [36] = "ENAMETOOLONG",
	[37] = "ENOLCK", [38] = "ENOSYS", [39] = "ENOTEMPTY", [40] = "ELOOP", [42] = "ENOMSG",
	[43] = "EIDRM", [44] = "ECHRNG", [45] = "EL2NSYNC", [46] = "EL3HLT", [47] = "EL3RST",
	[48] = "ELNRNG", [49] = "EUNATCH", [50] = "ENOCSI", [51] = "EL2HLT", [52] = "EBADE",
	[53] = "EBADR", [54] = "EXFULL", [55] = "ENOANO", [56] = "EBADRQC", [57] = "EBADSLT",
	[59] = "EBFONT", [60] = "ENOSTR", [61] = "ENODATA", [62] = "ETIME", [63] = "ENOSR",
	[64] = "ENONET", [65] = "ENOPKG", [66] = "EREMOTE", [67] = "ENOLINK", [68] = "EADV",
	[69] = "ESRMNT", [70] = "ECOMM", [71] = "EPROTO", [72] = "EMULTIHOP", [73] = "EDOTDOT",
	[74] = "EBADMSG", [75] = "EOVERFLOW", [76] = "ENOTUNIQ", [77] = "EBADFD", [78] = "EREMCHG",
	[79] = "ELIBACC", [80] = "ELIBBAD", [81] = "ELIBSCN", [82] = "ELIBMAX", [83] = "ELIBEXEC",
	[84] = "EILSEQ", [85] = "ERESTART", [86] = "ESTRPIPE", [87] = "EUSERS", [88] = "ENOTSOCK",
	[89] = "EDESTADDRREQ", [90] = "EMSGSIZE", [91] = "EPROTOTYPE", [92] = "ENOPROTOOPT",
	[93] = "EPROTONOSUPPORT", [94] = "ESOCKTNOSUPPORT", [95] = "EOPNOTSUPP",
	[96] = "EPFNOSUPPORT", [97] = "EAFNOSUPPORT", [98] = "EADDRINUSE", [99] = "EADDRNOTAVAIL",
	[100] = "ENETDOWN", [101] = "ENETUNREACH", [102] = "ENETRESET", [103] = "ECONNABORTED",
	[104] = "ECONNRESET", [105] = "ENOBUFS", [106] = "EISCONN", [107] = "ENOTCONN",
	[108] = "ESHUTDOWN", [109] = "ETOOMANYREFS", [110] = "ETIMEDOUT", [111] = "ECONNREFUSED",
	[112] = "EHOSTDOWN", [113] = "EHOSTUNREACH", [114] = "EALREADY", [115] = "EINPROGRESS",
	[116] = "ESTALE", [117] = "EUCLEAN", [118] = "ENOTNAM", [119] = "ENAVAIL", [120] = "EISNAM",
	[121] = "EREMOTEIO", [122] = "EDQUOT", [123] = "ENOMEDIUM", [124] = "EMEDIUMTYPE",
	[125] = "ECANCELED", [126] = "ENOKEY", [127] = "EKEYEXPIRED", [128] = "EKEYREVOKED",
	[129] = "EKEYREJECTED", [130] = "EOWNERDEAD", [131] = "ENOTRECOVERABLE", [132] = "ERFKILL",
	[133] = "EHWPOISON",
};

/* Kernel-internal codes, index = err - 512. */
static const char *const errno_kernel[] = {
	[0] = "ERESTARTSYS", [1] = "ERESTARTNOINTR", [2] = "ERESTARTNOHAND", [3] = "ENOIOCTLCMD",
	[4] = "ERESTART_RESTARTBLOCK", [5] = "EPROBE_DEFER", [6] = "EOPENSTALE", [7] = "ENOPARAM",
	[9] = "EBADHANDLE", [10] = "ENOTSYNC", [11] = "EBADCOOKIE", [12] = "ENOTSUPP",
	[13] = "ETOOSMALL", [14] = "ESERVERFAULT", [15] = "EBADTYPE", [16] = "EJUKEBOX",
	[17] = "EIOCBQUEUED", [18] = "ERECALLCONFLICT", [19] = "ENOGRACE",
};

const char *syscall_name(unsigned nr)
{
	return nr < ARRAY_SIZE(sc_names) ? sc_names[nr] : NULL;
}

unsigned syscall_max(void)
{
	return (unsigned)ARRAY_SIZE(sc_names);
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
	for (i = 0; i < ARRAY_SIZE(sc_names); i++)
		if (sc_names[i] && !strcmp(sc_names[i], name))
			return (int)i;
	return -1;
}

const char *errno_name(int err)
{
	if (err < 0)
		err = -err;
	if ((unsigned)err < ARRAY_SIZE(errno_names))
		return errno_names[err];
	if (err >= 512 && (unsigned)(err - 512) < ARRAY_SIZE(errno_kernel))
		return errno_kernel[err - 512];
	return NULL;
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

	if (!name || !*name)
		return -1;
	for (i = 0; i < ARRAY_SIZE(errno_names); i++)
		if (errno_names[i] && !strcmp(errno_names[i], name))
			return (int)i;
	for (i = 0; i < ARRAY_SIZE(errno_kernel); i++)
		if (errno_kernel[i] && !strcmp(errno_kernel[i], name))
			return (int)(512 + i);
	for (i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(aliases[i].name, name))
			return aliases[i].err;
	return -1;
}
