/* applet memleak: report outstanding (possibly leaked) allocations by stack
 * readme: outstanding allocations by stack: a process's allocator by uprobes (`-p PID`,
 *         `-c CMD`) or the kernel's (kmem tracepoints)
 *
 * Every interval, libbpf-tools' flags and report: "N bytes in M allocations
 * from stack", frames "\tI [<ADDR>] sym+0xoff [dso]"; bcc's --sort.
 *
 * -p PID / -c COMMAND: the process's allocator (libc's malloc family
 * found in /proc/PID/maps, or next to the command's dynamic loader, or
 * the executable itself when it is static; -O to name another object)
 * by uprobes that fire in that process only.  Otherwise the kernel's
 * allocators by the kmem (and with -P percpu) tracepoints. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "bpf/perf.h"
#include "bpf/sys.h"
#include "elf/elf.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "tools/stack/stacks.h"
#include "memleak.h"
#include "memtool.h"

BPF_OBJ_DECLARE(memleak);

#define KEY_STORAGE OPT_LONG_ONLY(1)
#define KEY_DEPTH OPT_LONG_ONLY(2)
#define KEY_SORT OPT_LONG_ONLY(3)
#define KEY_COMBINED OPT_LONG_ONLY(4)
#define KEY_WA OPT_LONG_ONLY(5)

static const struct opt opts[] = {
	{ 'p', "pid", "PID", "process ID to trace. if not specified, trace kernel allocs" },
	{ 't', "trace", NULL, "print trace messages for each alloc/free call" },
	{ 'a', "show-allocs", NULL, "show allocation addresses and sizes as well as call stacks" },
	{ 'o', "older", "AGE_MS", "prune allocations younger than this age in milliseconds (default 500)" },
	{ 'c', "command", "COMMAND", "execute and trace the specified command" },
	{ 'C', "combined-only", NULL, "show combined allocation statistics only" },
	{ 'F', "wa-missing-free", NULL, "workaround to alleviate misjudgments when free is missing" },
	{ 's', "sample-rate", "SAMPLE_RATE", "sample every N-th allocation to decrease the overhead" },
	{ 'T', "top", "TOP_STACKS", "display only this many top allocating stacks (by size)" },
	{ 'z', "min-size", "MIN_SIZE", "capture only allocations larger than or equal to this size" },
	{ 'Z', "max-size", "MAX_SIZE", "capture only allocations smaller than or equal to this size" },
	{ 'O', "obj", "OBJECT", "attach to allocator functions in the specified object" },
	{ 'P', "percpu", NULL, "trace percpu allocations" },
	{ 'S', "symbols-prefix", "SYMBOLS_PREFIX", "memory allocator symbols prefix" },
	{ KEY_SORT, "sort", "KEY", "report sorted by size (default) or count" },
	{ KEY_STORAGE, "stack-storage-size", "STACK-STORAGE-SIZE",
	  "the number of unique stack traces that can be stored and displayed (default 10240)" },
	{ KEY_DEPTH, "perf-max-stack-depth", "PERF-MAX-STACK-DEPTH",
	  "the limit for both kernel and user stack traces (default 127)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-c COMMAND] [-p PID] [-t] [-a] [-o AGE_MS] [-C] [-F] [-s SAMPLE_RATE] [-T TOP_STACKS]\n"
		 "               [-z MIN_SIZE] [-Z MAX_SIZE] [-O OBJECT] [-P] [-S PREFIX] [--sort KEY]\n"
		 "               [INTERVAL] [INTERVALS]",
	.summary = "Trace outstanding memory allocations: every INTERVAL seconds (default 5), the stacks "
		   "whose allocations are still not freed, largest first.",
	.examples = "    memleak -p $(pidof allocs)\n"
		    "        Trace allocations and display a summary of 'leaked' (outstanding)\n"
		    "        allocations every 5 seconds\n"
		    "    memleak -p $(pidof allocs) -t\n"
		    "        Trace allocations and display each individual allocator function call\n"
		    "    memleak -ap $(pidof allocs) 10\n"
		    "        Trace allocations and display allocated addresses, sizes, and stacks\n"
		    "        every 10 seconds for outstanding allocations\n"
		    "    memleak -c './allocs'\n"
		    "        Run the specified command and trace its allocations\n"
		    "    memleak\n"
		    "        Trace allocations in kernel mode and display a summary of outstanding\n"
		    "        allocations every 5 seconds\n"
		    "    memleak -o 60000\n"
		    "        Trace allocations in kernel mode and display a summary of outstanding\n"
		    "        allocations that are at least one minute (60 seconds) old\n"
		    "    memleak -s 5\n"
		    "        Trace roughly every 5th allocation, to reduce overhead\n"
		    "    memleak -p $(pidof allocs) -S je_\n"
		    "        Trace task who use jemalloc\n",
	.opts = opts,
	.flags = OPT_USTACKS | OPT_EVENTS, /* --show-cgroup: the -t lines */
};

static struct {
	int pid;
	bool trace, show_allocs, combined, wa_free, percpu, by_count;
	long long min_age_ns;
	long long sample_rate, top, min_size, max_size;
	const char *command, *object, *prefix;
	long storage, depth;
	long interval, count;
	int npos;
	bool kernel;
	pid_t child;
} env = {
	.min_age_ns = 500 * 1000000LL, .sample_rate = 1, .top = 10, .max_size = LLONG_MAX,
	.storage = 10240, .depth = 127, .interval = 5, .count = -1,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 't': env.trace = true; break;
	case 'a': env.show_allocs = true; break;
	case 'o': env.min_age_ns = opt_num(&help, "AGE_MS", arg, 0, LLONG_MAX / 1000000) * 1000000; break;
	case 'c': env.command = arg; break;
	case 'C': env.combined = true; break;
	case 'F': env.wa_free = true; break;
	case 's': env.sample_rate = opt_num(&help, "SAMPLE_RATE", arg, 1, LLONG_MAX); break;
	case 'T': env.top = opt_num(&help, "TOP_STACKS", arg, 1, INT_MAX); break;
	case 'z': env.min_size = opt_num(&help, "MIN_SIZE", arg, 0, LLONG_MAX); break;
	case 'Z': env.max_size = opt_num(&help, "MAX_SIZE", arg, 0, LLONG_MAX); break;
	case 'O': env.object = arg; break;
	case 'P': env.percpu = true; break;
	case 'S': env.prefix = arg; break;
	case KEY_SORT:
		if (!strcmp(arg, "size") || !strcmp(arg, "count"))
			env.by_count = !strcmp(arg, "count");
		else
			opt_usage_error(&help, "invalid --sort key: '%s' (size or count)", arg);
		break;
	case KEY_STORAGE: env.storage = (long)opt_num(&help, "stack storage size", arg, 1, 1 << 24); break;
	case KEY_DEPTH: env.depth = (long)opt_num(&help, "perf max stack depth", arg, 1, 127); break;
	case 0:
		if (env.npos == 0)
			env.interval = (long)opt_num(&help, "INTERVAL", arg, 1, INT_MAX);
		else if (env.npos == 1)
			env.count = (long)opt_num(&help, "INTERVALS", arg, 1, INT_MAX);
		else
			return 1;
		env.npos++;
		break;
	default: return 1;
	}
	return 0;
}

/* ---- the allocator object ------------------------------------------- */

static bool is_file(const char *path)
{
	return access(path, R_OK) == 0;
}

/* The object named like `want` (or, by default, libc) in the process's
 * mappings; its executable when it is statically linked. */
static char *object_of_pid(int pid, const char *want)
{
	char path[64], line[4096], *found = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (!(f = fopen(path, "re")))
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/'), *b;

		if (!p)
			continue;
		p[strcspn(p, "\n")] = 0;
		b = strrchr(p, '/') + 1;
		if (want ? !strcmp(b, want) || (!strncmp(b, want, strlen(want)) && b[strlen(want)] == '.')
			 : !strncmp(b, "libc.so", 7) || !strncmp(b, "libc-", 5) || !strncmp(b, "ld-musl-", 8))
			found = xstrdup(p);
	}
	fclose(f);
	if (!found && !want) {
		char exe[PATH_MAX];

		snprintf(path, sizeof(path), "/proc/%d/exe", pid);
		if (realpath(path, exe))
			found = xstrdup(exe);
	}
	return found;
}

/* The command's allocator: itself when static, musl's loader (which is
 * its libc), else the libc.so.6 beside the dynamic loader (a real path:
 * uprobes belong to the file). */
static char *object_of_command(const char *prog, const char *want, bool *no_cmd)
{
	static const char *const dirs[] = { "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
					    "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
					    "/lib64", "/usr/lib64", "/lib", "/usr/lib" };
	char exe[PATH_MAX], interp[PATH_MAX], cand[PATH_MAX * 2], real[PATH_MAX], *slash;
	const char *name = want ? want : "libc.so.6";
	const void *data;
	size_t size;
	struct elf_view ev;

	interp[0] = 0;
	if (strchr(prog, '/')) {
		snprintf(exe, sizeof(exe), "%s", prog);
	} else { /* $PATH, as execvp will search it */
		const char *p = getenv("PATH");

		exe[0] = 0;
		for (p = p ? p : "/usr/local/bin:/usr/bin:/bin"; *p && !exe[0];) {
			size_t n = strcspn(p, ":");

			snprintf(cand, sizeof(cand), "%.*s/%s", (int)n, p, prog);
			if (strlen(cand) < sizeof(exe) && access(cand, X_OK) == 0)
				memcpy(exe, cand, strlen(cand) + 1);
			p += n + (p[n] == ':');
		}
		if (!exe[0]) {
			*no_cmd = true;
			return NULL;
		}
	}
	if (elf_map_file(exe, &data, &size) == 0) {
		if (elf_open(&ev, data, size) == 0)
			for (size_t i = 0; i < ev.phnum; i++)
				if (ev.phdrs[i].p_type == PT_INTERP && ev.phdrs[i].p_offset < size &&
				    ev.phdrs[i].p_filesz < sizeof(interp) && ev.phdrs[i].p_filesz <= size - ev.phdrs[i].p_offset) {
					memcpy(interp, (const char *)data + ev.phdrs[i].p_offset, ev.phdrs[i].p_filesz);
					interp[ev.phdrs[i].p_filesz] = 0;
				}
		elf_unmap_file(data, size);
	}
	err_clear();
	if (!want && !interp[0]) /* static: malloc is in the executable */
		return realpath(exe, NULL);
	if (!want && strstr(interp, "ld-musl-"))
		return realpath(interp, NULL);
	if (interp[0] && realpath(interp, real) && (slash = strrchr(real, '/'))) {
		snprintf(cand, sizeof(cand), "%.*s/%s", (int)(slash - real), real, name);
		if (is_file(cand))
			return realpath(cand, NULL);
	}
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(cand, sizeof(cand), "%s/%s", dirs[i], name);
		if (is_file(cand))
			return realpath(cand, NULL);
	}
	return NULL;
}

/* The uprobe programs: the function each one enters or returns from, and
 * whether the allocator may lack it (musl has no pvalloc, jemalloc no
 * mmap...). */
static const struct ufunc {
	const char *func, *entry, *ret;
	bool optional;
} ufuncs[] = {
	{ "malloc", "malloc_enter", "malloc_exit", false },
	{ "calloc", "calloc_enter", "calloc_exit", true },   /* a static binary has */
	{ "realloc", "realloc_enter", "realloc_exit", true }, /* only what it uses */
	{ "free", "free_enter_u", NULL, false },
	{ "posix_memalign", "posix_memalign_enter", "posix_memalign_exit", true },
	{ "memalign", "memalign_enter", "memalign_exit", true },
	{ "aligned_alloc", "aligned_alloc_enter", "aligned_alloc_exit", true },
	{ "valloc", "valloc_enter", "valloc_exit", true },
	{ "pvalloc", "pvalloc_enter", "pvalloc_exit", true },
	{ "mmap", "mmap_enter", "mmap_exit", true },
	{ "munmap", "munmap_enter", NULL, true },
	{ "mremap", "mremap_enter", "mremap_exit", true },
};

static const char *const kprogs[] = { "kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node",
				      "kfree", "kmem_cache_free", "mm_page_alloc", "mm_page_free",
				      "mm_page_free_batched", "percpu_alloc", "percpu_free" };

/* Point each uprobe program at its function in path (restricted to pid);
 * switch off the ones the object lacks and every kernel program. */
static int setup_uprobes(struct obj *o, const char *path, int pid)
{
	const void *data;
	size_t size;
	struct elf_view ev;
	char name[256], target[PATH_MAX + 32];
	int err, found = 0;

	for (size_t i = 0; i < ARRAY_SIZE(kprogs); i++)
		prog_set_autoload(obj_prog(o, kprogs[i]), false);
	if ((err = elf_map_file(path, &data, &size)) < 0 || (err = elf_open(&ev, data, size)) < 0) {
		tool_err("memleak", "%s: %s", path, err_msg());
		if (!err)
			elf_unmap_file(data, size);
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(ufuncs); i++) {
		const struct ufunc *u = &ufuncs[i];
		struct prog *pe = obj_prog(o, u->entry), *pr = u->ret ? obj_prog(o, u->ret) : NULL;
		uint64_t off;

		snprintf(name, sizeof(name), "%s%s", env.prefix ? env.prefix : "", u->func);
		if ((err = elf_uprobe_func_offset(&ev, name, &off)) == -ENOTSUP) {
			tool_err("memleak", "%s: %s (-O)", path, err_msg());
			elf_unmap_file(data, size);
			return -1;
		}
		if (err < 0) {
			err_clear();
			prog_set_autoload(pe, false);
			prog_set_autoload(pr, false);
			if (!u->optional) {
				tool_err("memleak", "%s has no %s(): is it the allocator? (-O names the object, "
					 "-S a symbol prefix such as je_)", path, name);
				elf_unmap_file(data, size);
				return -1;
			}
			continue;
		}
		snprintf(target, sizeof(target), "%s:0x%llx", path, (unsigned long long)off);
		prog_set_attach_target(pe, target);
		prog_set_uprobe_pid(pe, pid);
		if (pr) {
			prog_set_attach_target(pr, target);
			prog_set_uprobe_pid(pr, pid);
		}
		found++;
	}
	elf_unmap_file(data, size);
	if (tool_common.verbose)
		fprintf(stderr, "memleak: %d allocator functions in %s\n", found, path);
	return 0;
}

/* Kernel mode: every uprobe program off; the node variants only where
 * they exist (before 6.1), percpu only with -P. */
static void setup_kernel(struct obj *o)
{
	bool old = perf_tp_exists("kmem", "kmalloc_node");

	err_clear();
	for (size_t i = 0; i < ARRAY_SIZE(ufuncs); i++) {
		prog_set_autoload(obj_prog(o, ufuncs[i].entry), false);
		if (ufuncs[i].ret)
			prog_set_autoload(obj_prog(o, ufuncs[i].ret), false);
	}
	if (!old) {
		prog_set_autoload(obj_prog(o, "kmalloc_node"), false);
		prog_set_autoload(obj_prog(o, "kmem_cache_alloc_node"), false);
	}
	OBJ_SET(o, kmem_old, (uint8_t)old);
	if (!perf_tp_exists("kmem", "mm_page_free_batched"))
		prog_set_autoload(obj_prog(o, "mm_page_free_batched"), false);
	err_clear();
	if (!env.percpu) {
		prog_set_autoload(obj_prog(o, "percpu_alloc"), false);
		prog_set_autoload(obj_prog(o, "percpu_free"), false);
	}
}

/* ---- -c COMMAND ------------------------------------------------------ */

static int go_pipe[2] = { -1, -1 };
static volatile sig_atomic_t child_exited;

static void on_child(int sig)
{
	(void)sig;
	child_exited = 1;
	tool_exiting = 1;
}

/* Fork the command (split on blanks, as bcc does); it waits for the
 * probes before its exec. */
static pid_t spawn(const char *command, char ***argvp)
{
	char *copy = xstrdup(command), *tok, **argv = NULL;
	size_t n = 0;
	pid_t pid;

	for (tok = strtok(copy, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
		argv = xrealloc(argv, (n + 2) * sizeof(*argv));
		argv[n++] = tok;
		argv[n] = NULL;
	}
	if (!n) {
		free(copy);
		return -1;
	}
	*argvp = argv;
	if (pipe(go_pipe) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		char c;

		close(go_pipe[1]);
		if (read(go_pipe[0], &c, 1) != 1) /* the tool gave up */
			_exit(127);
		close(go_pipe[0]);
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], argv);
		fprintf(stderr, "memleak: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(go_pipe[0]);
	return pid;
}

/* Reap the command (SIGKILL after 2 s). */
static void wait_bounded_child(pid_t pid)
{
	for (int i = 0; i < 200; i++) {
		if (waitpid(pid, NULL, WNOHANG) != 0)
			return;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void release_child(void)
{
	char c = 1;

	if (go_pipe[1] >= 0) {
		if (write(go_pipe[1], &c, 1) != 1)
			c = 0;
		close(go_pipe[1]);
		go_pipe[1] = -1;
	}
}

/* ---- the report ------------------------------------------------------ */

struct agg {
	int64_t stack_id;
	uint64_t size, count;
};

struct one {
	int64_t stack_id;
	uint64_t addr, size;
};

static int cmp_agg(const void *a, const void *b)
{
	const struct agg *x = a, *y = b;
	uint64_t kx = env.by_count ? x->count : x->size, ky = env.by_count ? y->count : y->size;

	return kx < ky ? 1 : kx > ky ? -1 : 0;
}

static int cmp_one(const void *a, const void *b)
{
	const struct one *x = a, *y = b;

	return x->stack_id < y->stack_id ? -1 : x->stack_id > y->stack_id;
}

/* One frame as libbpf-tools prints it (into b, for text and JSON). */
static void frame_text(struct stacks *s, uint64_t ip, struct strbuf *b)
{
	strbuf_reset(b);
	if (env.kernel) {
		struct ksym k;

		if (s->ksyms && ksyms_lookup(s->ksyms, ip, &k) == 0)
			strbuf_addf(b, "%s+0x%llx", k.name, (unsigned long long)k.offset);
		else
			strbuf_add(b, "<null sym>");
	} else {
		struct usym u;
		int r = s->usyms ? usyms_lookup(s->usyms, env.pid, ip, &u) : -ENOENT;

		if (r == 0 || (r == -ENOENT && u.module)) {
			if (u.name)
				strbuf_addf(b, "%s+0x%llx ", u.name, (unsigned long long)u.offset);
			strbuf_addf(b, "[%s]", u.module);
		} else {
			strbuf_add(b, "<null sym>");
		}
	}
}

static void print_stack(struct stacks *s, const struct agg *a, const struct one *list, size_t nlist)
{
	struct strbuf f = { 0 }, j = { 0 };
	const uint64_t *ips;
	int n = stacks_read(s, (int32_t)a->stack_id, env.kernel, &ips);

	if (out_json()) {
		strbuf_reset(&j);
		strbuf_addf(&j, "{\"bytes\":%llu,\"allocations\":%llu,\"frames\":[", (unsigned long long)a->size,
			    (unsigned long long)a->count);
		for (int i = 0; i < n; i++) {
			frame_text(s, ips[i], &f);
			if (i)
				strbuf_addc(&j, ',');
			json_str(&j, f.s);
		}
		strbuf_addc(&j, ']');
		if (env.show_allocs) {
			strbuf_add(&j, ",\"allocs\":[");
			for (size_t i = 0; i < nlist; i++)
				strbuf_addf(&j, "%s{\"addr\":\"0x%llx\",\"size\":%llu}", i ? "," : "",
					    (unsigned long long)list[i].addr, (unsigned long long)list[i].size);
			strbuf_addc(&j, ']');
		}
		strbuf_addc(&j, '}');
		out_json_value("stacks", &j);
	} else {
		printf("%llu bytes in %llu allocations from stack\n", (unsigned long long)a->size,
		       (unsigned long long)a->count);
		for (size_t i = 0; env.show_allocs && i < nlist; i++)
			printf("\taddr = %#llx size = %llu\n", (unsigned long long)list[i].addr,
			       (unsigned long long)list[i].size);
		for (int i = 0; i < n; i++) {
			char safe[1024];

			frame_text(s, ips[i], &f);
			printf("\t%d [<%016llx>] %s\n", i, (unsigned long long)ips[i], str_escape(safe, sizeof(safe), f.s, ""));
		}
	}
	strbuf_free(&f);
	strbuf_free(&j);
}

/* Every outstanding allocation older than -o, summed by stack. */
static int read_allocs(int fd, struct agg *by_stack, size_t nstacks, struct one **list, size_t *nlist,
		       uint64_t *missed, uint64_t *collisions)
{
	enum { CHUNK = 4096 };
	static uint64_t keys[CHUNK];
	static struct memleak_alloc vals[CHUNK];
	uint64_t now = now_ns(), in = 0, out = 0;
	size_t cap = 0;
	bool first = true, batch = true;
	uint64_t key = 0, next;
	int r;

	*nlist = 0;
	for (;;) {
		uint32_t count = CHUNK;

		if (batch) {
			r = bpf_map_lookup_batch(fd, first ? NULL : &in, &out, keys, vals, &count, 0);
			if (r < 0 && r != -ENOENT) {
				if (!first || (r != -EINVAL && r != -ENOTSUP && r != -524))
					return r;
				batch = false; /* old kernel: key by key */
				continue;
			}
			in = out;
		} else {
			for (count = 0; count < CHUNK; count++) {
				if (bpf_map_next_key(fd, first && !count ? NULL : &key, &next) < 0)
					break;
				key = next;
				keys[count] = key;
				if (bpf_map_lookup(fd, &key, &vals[count]) < 0)
					vals[count].size = 0, vals[count].stack_id = -1;
			}
			r = count < CHUNK ? -ENOENT : 0;
		}
		first = false;
		for (uint32_t i = 0; i < count; i++) {
			const struct memleak_alloc *a = &vals[i];
			struct agg *g;

			if (!a->size && a->stack_id == -1)
				continue;

			if (now - (uint64_t)env.min_age_ns < a->ts_ns)
				continue;
			if (a->stack_id < 0) {
				*missed += a->stack_id != -EFAULT;
				*collisions += a->stack_id == -EEXIST;
				continue;
			}
			if ((size_t)a->stack_id >= nstacks)
				continue;
			g = &by_stack[a->stack_id];
			g->stack_id = a->stack_id;
			g->size += a->size;
			g->count++;
			if (env.show_allocs) {
				if (*nlist == cap) {
					cap = cap ? cap * 2 : 1024;
					*list = xrealloc(*list, cap * sizeof(**list));
				}
				(*list)[(*nlist)++] = (struct one){ a->stack_id, keys[i], a->size };
			}
		}
		if (r == -ENOENT)
			break;
	}
	return 0;
}

static int report(struct obj *o, struct stacks *s)
{
	size_t nstacks = 1, nshow = 0, n = 0, nlist = 0;
	struct agg *by_stack, *sorted;
	struct one *list = NULL;
	uint64_t missed = 0, collisions = 0;
	time_t t = time(NULL);
	struct tm tm;
	int r;

	/* stack ids are bucket numbers: below max_entries rounded up to a power of 2 */
	while (nstacks < (size_t)env.storage)
		nstacks <<= 1;
	by_stack = xcalloc(nstacks, sizeof(*by_stack));
	if (env.combined) {
		int fd = map_fd(obj_map(o, "combined"));
		uint64_t key, next;
		struct memleak_combined c;
		bool first = true;

		while (bpf_map_next_key(fd, first ? NULL : &key, &next) == 0) {
			first = false;
			key = next;
			if (bpf_map_lookup(fd, &key, &c) < 0 || !c.count)
				continue;
			if ((int64_t)key < 0) {
				missed += (int64_t)key != -EFAULT ? c.count : 0;
				collisions += (int64_t)key == -EEXIST ? c.count : 0;
				continue;
			}
			if (key < nstacks)
				by_stack[key] = (struct agg){ (int64_t)key, c.size, c.count };
		}
		r = 0;
	} else {
		r = read_allocs(map_fd(obj_map(o, "allocs")), by_stack, nstacks, &list, &nlist, &missed, &collisions);
	}
	if (r < 0) {
		tool_err("memleak", "cannot read the allocations: %s", strerror(-r));
		free(by_stack);
		free(list);
		return -1;
	}
	sorted = by_stack; /* compact the stacks seen to the front */
	for (size_t i = 0; i < nstacks; i++)
		if (by_stack[i].count)
			sorted[n++] = by_stack[i];
	qsort(sorted, n, sizeof(*sorted), cmp_agg);
	if (env.show_allocs)
		qsort(list, nlist, sizeof(*list), cmp_one);
	nshow = n < (size_t)env.top ? n : (size_t)env.top;
	localtime_r(&t, &tm);
	out_doc_begin();
	/* libbpf-tools' time stamp is not zero-padded */
	out_text("[%d:%d:%d] Top %zu stacks with outstanding allocations:\n", tm.tm_hour, tm.tm_min, tm.tm_sec,
		 nshow);
	if (!env.kernel)
		usyms_forget(s->usyms, env.pid); /* libraries may have come and gone */
	for (size_t i = 0; i < nshow; i++) {
		size_t lo = 0, hi = nlist, first;

		while (lo < hi) { /* this stack's allocations in the sorted list */
			size_t mid = (lo + hi) / 2;

			if (list[mid].stack_id < sorted[i].stack_id)
				lo = mid + 1;
			else
				hi = mid;
		}
		first = lo;
		while (lo < nlist && list[lo].stack_id == sorted[i].stack_id)
			lo++;
		print_stack(s, &sorted[i], list ? list + first : NULL, lo - first);
	}
	out_doc_num("missed_stacks", (double)missed, NULL);
	r = out_doc_end();
	tool_flush();
	if (missed)
		fprintf(stderr, "WARNING: %llu stack traces could not be displayed due to memory shortage, "
			"including %llu caused by hash collisions. Consider increasing --stack-storage-size.\n",
			(unsigned long long)missed, (unsigned long long)collisions);
	free(by_stack);
	free(list);
	return r;
}

/* -t: each allocator call, in the words of libbpf-tools' bpf_printk
 * messages.  There they go to the kernel's trace pipe (shared by the whole
 * system, read with cat); here through the tool's own event buffer to its
 * output, between the reports, so a lost message is counted.  -j: one
 * JSON line per call ("event": alloc_enter, alloc_exit or free). */
static int on_trace(void *ctx, const void *data, size_t size)
{
	static const char *const what[] = { "alloc_enter", "alloc_exit", "free" };
	const struct memleak_trace *t = data;

	(void)ctx;
	if (size < sizeof(*t) || t->type > ML_FREE)
		return 0;
	out_event_cgroup(t->head.cgroup_id, t->head.cgroup_id ? cgroup_path_of(t->head.cgroup_id) : NULL);
	if (out_json()) {
		struct strbuf b = { 0 };

		strbuf_reset(&b);
		strbuf_add(&b, "{\"time\":");
		json_time(&b);
		strbuf_addf(&b, ",\"event\":\"%s\",\"pid\":%u,\"size\":%llu", what[t->type], t->pid, t->size);
		if (t->type != ML_ALLOC_ENTER)
			strbuf_addf(&b, ",\"addr\":\"0x%llx\"", t->addr);
		strbuf_addc(&b, '}');
		out_json_value(NULL, &b);
		strbuf_free(&b);
		return 0;
	}
	out_cgroup_prefix();
	switch (t->type) {
	case ML_ALLOC_ENTER:
		printf("alloc entered, size = %llu\n", t->size);
		break;
	case ML_ALLOC_EXIT:
		printf("alloc exited, size = %llu, result = %llx\n", t->size, t->addr);
		break;
	case ML_FREE:
		printf("free entered, address = %llx, size = %llu\n", t->addr, t->size);
		break;
	}
	return 0;
}

/* Sleep ms, consuming -t records meanwhile. */
static void wait_interval(struct events *ev, long ms)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ull;

	if (!ev) {
		tool_sleep_ms(ms);
		return;
	}
	while (!tool_exiting) {
		uint64_t now = now_ns();

		if (now >= end)
			break;
		if (events_poll(ev, (int)((end - now) / 1000000 < 100 ? (end - now) / 1000000 + 1 : 100)) > 0)
			tool_flush();
		if (tool_stdout_gone())
			break;
	}
}

int memleak_main(int argc, char **argv)
{
	struct stacks s;
	struct events *ev = NULL;
	char *object = NULL, **cargv = NULL;
	struct obj *o;
	int ret = 0;

	opt_parse(argc, argv, &help, parse, NULL);
	if (env.min_size > env.max_size)
		opt_usage_error(&help, "min size (-z) can't be greater than max_size (-Z)");
	if (env.command && env.pid)
		opt_usage_error(&help, "cannot specify both command and pid");
	env.kernel = !env.pid && !env.command;
	tool_signals();

	if (!env.kernel) {
		const char *want = env.object;

		if (want && strchr(want, '/'))
			object = realpath(want, NULL);
		else if (env.pid)
			object = object_of_pid(env.pid, want);
		else {
			char *first = xstrdup(env.command);
			bool no_cmd = false;

			first[strcspn(first, " \t\n")] = 0;
			object = object_of_command(first, want, &no_cmd);
			if (no_cmd) {
				tool_err("memleak", "cannot run '%s': no such command in $PATH", first);
				free(first);
				return 1;
			}
			free(first);
		}
		if (!object) {
			if (env.pid)
				tool_err("memleak", "cannot find %s in process %d (name its file with -O PATH)",
					 want ? want : "the allocator (libc)", env.pid);
			else
				tool_err("memleak", "cannot find %s for '%s' (name its file with -O PATH)",
					 want ? want : "the allocator (libc)", env.command);
			return 1;
		}
	}

	o = BPF_OBJ_OPEN(memleak);
	OBJ_SET(o, min_size, (uint64_t)env.min_size);
	OBJ_SET(o, max_size, (uint64_t)env.max_size);
	OBJ_SET(o, page_size, (uint64_t)sysconf(_SC_PAGESIZE));
	OBJ_SET(o, sample_rate, (uint64_t)env.sample_rate);
	OBJ_SET(o, trace_all, (uint8_t)env.trace);
	OBJ_SET(o, cb_cgroup_ids, (uint8_t)(env.trace && (out_json() || out_cfg.cgroup_column)));
	OBJ_SET(o, combined_only, (uint8_t)env.combined);
	OBJ_SET(o, wa_missing_free, (uint8_t)env.wa_free);
	OBJ_SET(o, user_stacks, (uint8_t)!env.kernel);
	map_set_max_entries(obj_map(o, "stack_traces"), (uint32_t)env.storage);
	map_set_value_size(obj_map(o, "stack_traces"), (uint32_t)env.depth * 8);
	if (!env.combined)
		map_set_max_entries(obj_map(o, "combined"), 1);
	if (env.kernel) {
		/* Kernel allocators: a preallocated map, so that recording an
		 * allocation never allocates (a map growing from inside kmalloc's
		 * tracepoint would trace its own growth, and slowly on old
		 * kernels); sized like libbpf-tools' (1M entries, ~100 MB) but at
		 * most ~2% of the RAM. */
		long long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
		long long n = pages > 0 && page > 0 ? pages * page / 50 / 100 : MEMLEAK_ALLOCS_MAX;

		map_set_flags(obj_map(o, "allocs"), 0);
		map_set_max_entries(obj_map(o, "allocs"), (uint32_t)(n < 16384 ? 16384 : n > MEMLEAK_ALLOCS_MAX ?
									   MEMLEAK_ALLOCS_MAX : n));
	}
	if (obj_setup_events(o, "events") < 0) {
		tool_err("memleak", "%s", err_msg());
		goto fail;
	}
	if (!env.trace && map_type(obj_map(o, "events")) == BPF_MAP_TYPE_RINGBUF)
		map_set_max_entries(obj_map(o, "events"), (uint32_t)sysconf(_SC_PAGESIZE));

	if (env.command) {
		struct sigaction sa;

		env.pid = spawn(env.command, &cargv);
		if (env.pid <= 0) {
			tool_err("memleak", "cannot start '%s': %s", env.command,
				 env.pid < 0 && errno ? strerror(errno) : "no command");
			goto fail;
		}
		env.child = env.pid;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_child;
		sigaction(SIGCHLD, &sa, NULL);
	}
	if (env.kernel)
		setup_kernel(o);
	else if (setup_uprobes(o, object, env.pid) < 0)
		goto fail;
	if (tool_load_attach(o, "memleak")) {
		o = NULL;
		goto fail;
	}
	if (env.trace && !(ev = events_open(obj_map(o, "events"), on_trace, NULL))) {
		tool_err("memleak", "%s", err_msg());
		goto fail;
	}
	if (env.kernel)
		out_info("Attaching to kernel allocators, Ctrl+C to quit.\n");
	else
		out_info("Attaching to pid %d, Ctrl+C to quit.\n", env.pid);
	tool_flush();
	release_child();
	/* the symbols (kallsyms: a while on a slow machine) while the first
	 * interval runs */
	if (stacks_init(&s, map_fd(obj_map(o, "stack_traces")), (unsigned)env.depth,
			(env.kernel ? STACKS_SKIP_TRACE | STACKS_NO_USER : STACKS_NO_KERNEL) | STACKS_NAMES) < 0) {
		tool_err("memleak", "%s", err_msg());
		goto fail;
	}

	for (long n = 0; !tool_exiting && (env.count < 0 || n < env.count); n++) {
		wait_interval(ev, env.interval * 1000);
		if (tool_stdout_gone())
			break;
		if (report(o, &s) < 0) {
			ret = 1;
			break;
		}
	}
	stacks_fini(&s);
	if (ev)
		tool_report_lost("memleak", events_lost(ev));
	events_close(ev);
	obj_close(o);
	if (env.child > 0) { /* ours: stop it if it still runs, reap it */
		if (!child_exited)
			kill(env.child, SIGTERM);
		wait_bounded_child(env.child);
	}
	free(object);
	if (cargv)
		free(cargv[0]);
	free(cargv);
	return ret;

fail:
	events_close(ev);
	if (o)
		obj_close(o);
	if (env.child > 0) {
		if (go_pipe[1] >= 0)
			close(go_pipe[1]); /* the child exits without running the command */
		else
			kill(env.child, SIGTERM);
		wait_bounded_child(env.child);
	}
	free(object);
	if (cargv)
		free(cargv[0]);
	free(cargv);
	return 1;
}
