/* Stack machinery: kallsyms, user symbols of helper processes built here
 * (PIE, non-PIE, stripped, dlopen'd library, deleted executable, vdso,
 * perf map), frame skipping, multi-line / folded output, the aggregator,
 * the flame graph SVG and the BPF hash map dump.  Runs from tests/unit. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>

#include "t.h"
#include "bpf/sys.h"
#include "elf/elf.h"
#include "err.h"
#include "util.h"
#include "tools/stack/flamegraph.h"
#include "tools/stack/ksyms.h"
#include "tools/stack/mapdump.h"
#include "tools/stack/stacks.h"
#include "tools/stack/usyms.h"

#define DIR "../../build/test/stack"

static const char helper_src[] =
	"#include <dlfcn.h>\n#include <stdio.h>\n#include <unistd.h>\n#include <sys/auxv.h>\n#include <sys/mman.h>\n"
	"__attribute__((noinline)) int cbx_alpha_unique(int x) { __asm__ volatile(\"\" ::: \"memory\"); return x + 1; }\n"
	"__attribute__((noinline)) int cbx_beta_unique(int x) { __asm__ volatile(\"\" ::: \"memory\"); return cbx_alpha_unique(x) * 2; }\n"
	"__attribute__((noinline)) int cbx_mangled(int x) __asm__(\"_ZN3cbx7Mangled6methodEi\");\n"
	"int cbx_mangled(int x) { __asm__ volatile(\"\" ::: \"memory\"); return x + 2; }\n"
	"static __attribute__((noinline)) int cbx_static_hidden(int x) { __asm__ volatile(\"\" ::: \"memory\"); return x * 3; }\n"
	"int main(int argc, char **argv) {\n"
	"  void *jit = mmap(NULL, 8192, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);\n"
	"  char c;\n"
	"  printf(\"alpha %lx\\nbeta %lx\\nstatic %lx\\nmain %lx\\nmangled %lx\\nvdso %lx\\njit %lx\\n\", (unsigned long)cbx_alpha_unique,\n"
	"         (unsigned long)cbx_beta_unique, (unsigned long)cbx_static_hidden, (unsigned long)main, (unsigned long)cbx_mangled,\n"
	"         (unsigned long)getauxval(AT_SYSINFO_EHDR), (unsigned long)jit);\n"
	"  if (argc > 1) {\n"
	"    void *h = dlopen(argv[1], RTLD_NOW);\n"
	"    if (!h) { printf(\"dlerror %s\\n\", dlerror()); return 1; }\n"
	"    printf(\"lib %lx\\n\", (unsigned long)dlsym(h, \"cbx_lib_unique\"));\n"
	"  }\n"
	"  printf(\"ready\\n\"); fflush(stdout);\n"
	"  while (read(0, &c, 1) > 0) ;\n"
	"  return cbx_beta_unique(argc) + cbx_static_hidden(argc) > 0 ? 0 : 1;\n"
	"}\n";

static const char lib_src[] =
	"__attribute__((noinline)) int cbx_lib_unique(int x) { __asm__ volatile(\"\" ::: \"memory\"); return x + 7; }\n"
	"__attribute__((noinline)) int cbx_lib_other(int x) { return cbx_lib_unique(x) + 1; }\n";

static int sh(const char *cmd)
{
	int rc = system(cmd);

	if (rc != 0)
		printf("# command failed (%d): %s\n", rc, cmd);
	return rc;
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

struct helper {
	pid_t pid;
	int in;                /* write end of its stdin: close to end it */
	FILE *out;
	unsigned long alpha, beta, stat, main_, vdso, jit, lib, mangled;
};

static int helper_start(struct helper *h, const char *exe, const char *arg)
{
	int pin[2], pout[2];
	char line[512];

	memset(h, 0, sizeof(*h));
	if (pipe(pin) || pipe(pout))
		return -1;
	h->pid = fork();
	if (h->pid < 0)
		return -1;
	if (h->pid == 0) {
		dup2(pin[0], 0);
		dup2(pout[1], 1);
		close(pin[1]);
		close(pout[0]);
		execl(exe, exe, arg, (char *)NULL);
		_exit(127);
	}
	close(pin[0]);
	close(pout[1]);
	h->in = pin[1];
	h->out = fdopen(pout[0], "r");
	while (fgets(line, sizeof(line), h->out)) {
		char key[32];
		unsigned long v;

		if (!strncmp(line, "ready", 5))
			return 0;
		if (sscanf(line, "%31s %lx", key, &v) != 2)
			break;
		if (!strcmp(key, "alpha")) h->alpha = v;
		else if (!strcmp(key, "beta")) h->beta = v;
		else if (!strcmp(key, "static")) h->stat = v;
		else if (!strcmp(key, "main")) h->main_ = v;
		else if (!strcmp(key, "vdso")) h->vdso = v;
		else if (!strcmp(key, "mangled")) h->mangled = v;
		else if (!strcmp(key, "jit")) h->jit = v;
		else if (!strcmp(key, "lib")) h->lib = v;
	}
	printf("# helper %s did not get ready: %s", exe, line);
	return -1;
}

static void helper_stop(struct helper *h)
{
	if (h->pid <= 0)
		return;
	close(h->in);
	fclose(h->out);
	kill(h->pid, SIGKILL);
	waitpid(h->pid, NULL, 0);
	h->pid = 0;
}

/* Symbolize and compare: name exact, offset as given. */
static int sym_is(struct usyms *us, int pid, uint64_t addr, const char *name, uint64_t off)
{
	struct usym u;
	int err = usyms_lookup(us, pid, addr, &u);

	if (err || !u.name || strcmp(u.name, name) || u.offset != off) {
		printf("# %d:0x%llx -> err %d name %s+0x%llx module %s (want %s+0x%llx)\n", pid,
		       (unsigned long long)addr, err, u.name ? u.name : "(null)",
		       (unsigned long long)u.offset, u.module ? u.module : "(null)", name,
		       (unsigned long long)off);
		return 0;
	}
	return 1;
}

static void test_exe(const char *label, const char *exe, int stripped)
{
	struct usyms *us = usyms_new(0);
	struct helper h;
	char buf[256];

	if (helper_start(&h, exe, NULL) < 0) {
		T_OK(0, "%s: helper starts", label);
		usyms_free(us);
		return;
	}
	T_OK(sym_is(us, h.pid, h.alpha, "cbx_alpha_unique", 0), "%s: &cbx_alpha_unique -> cbx_alpha_unique+0", label);
	T_OK(sym_is(us, h.pid, h.beta + 3, "cbx_beta_unique", 3), "%s: &cbx_beta_unique+3 -> cbx_beta_unique+0x3", label);
	T_OK(sym_is(us, h.pid, h.main_, "main", 0), "%s: &main -> main", label);
	if (!stripped) {
		T_OK(sym_is(us, h.pid, h.stat, "cbx_static_hidden", 0), "%s: static function from .symtab", label);
	} else {
		usyms_format(us, h.pid, h.stat, 0, 1, buf, sizeof(buf));
		T_OK(!strcmp(buf, "[unknown] (h_strip)"), "%s: static function not in .dynsym is \"%s\"", label, buf);
	}
	usyms_format(us, h.pid, h.alpha + 1, 1, 0, buf, sizeof(buf));
	T_OK(!strcmp(buf, "cbx_alpha_unique+0x1"), "%s: formatted with offset \"%s\"", label, buf);
	{
		/* batched: asked first, named in one pass, then looked up */
		struct usyms *b = usyms_new(0);

		usyms_want(b, h.pid, h.alpha);
		usyms_want(b, h.pid, h.beta + 3);
		usyms_want(b, h.pid, h.main_);
		usyms_resolve(b);
		T_OK(sym_is(b, h.pid, h.alpha, "cbx_alpha_unique", 0) && sym_is(b, h.pid, h.beta + 3, "cbx_beta_unique", 3) &&
		     sym_is(b, h.pid, h.main_, "main", 0), "%s: batch (want, resolve) names the same", label);
		usyms_free(b);
	}
	helper_stop(&h);
	usyms_free(us);
}

/* KiB of our own mappings of files whose path ends in suffix, as
 * resident now (/proc/self/smaps: exact, from the page tables). */
static long mapped_kib(const char *suffix)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	long kib = 0;
	int in = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t l = strlen(line), sl = strlen(suffix);

		if (isxdigit((unsigned char)line[0]) && !isupper((unsigned char)line[0])) /* a mapping's line */
			in = l > sl + 1 && !strncmp(line + l - 1 - sl, suffix, sl);
		else if (in && !strncmp(line, "Rss:", 4))
			kib += atol(line + 4);
	}
	fclose(f);
	return kib;
}

/* A binary stripped to its .dynsym, its .symtab in a debug file found
 * through .gnu_debuglink: the debug file is read only when an address
 * is asked that .dynsym cannot name, and no page of either file stays
 * mapped in us once the names are copied (their pages count in RSS). */
static void test_debug_lazy(void)
{
	struct usyms_stats st;
	struct usyms *us;
	struct helper h;

	if (sh("cd " DIR " && gcc -O1 -g -fno-omit-frame-pointer -rdynamic -o h_dbg helper.c -ldl"
	       " && objcopy --only-keep-debug h_dbg h_dbg.debug && strip -s h_dbg"
	       " && objcopy --add-gnu-debuglink=h_dbg.debug h_dbg")) {
		T_SKIP("debug file read lazily", "no objcopy/strip (binutils)");
		return;
	}
	us = usyms_new(0);
	if (helper_start(&h, DIR "/h_dbg", NULL) < 0) {
		T_OK(0, "debuglink helper starts");
		usyms_free(us);
		return;
	}
	T_OK(sym_is(us, h.pid, h.alpha, "cbx_alpha_unique", 0) && sym_is(us, h.pid, h.beta + 3, "cbx_beta_unique", 3),
	     "stripped + debuglink: exported functions named from .dynsym");
	usyms_stats(us, &st);
	T_OK(st.debug == 0, "no debug file read while .dynsym names every address (%u read)", st.debug);
	T_OK(sym_is(us, h.pid, h.stat, "cbx_static_hidden", 0), "a static function: named from h_dbg.debug");
	usyms_stats(us, &st);
	T_OK(st.debug == 1, "the debug file read once it was needed (%u read)", st.debug);
	T_OK(sym_is(us, h.pid, h.alpha + 1, "cbx_alpha_unique", 1), "exported functions still named with it");
	T_OK(mapped_kib("/h_dbg") == 0 && mapped_kib("/h_dbg.debug") == 0,
	     "no page of the binary or its debug file left mapped (%ld + %ld KiB)", mapped_kib("/h_dbg"),
	     mapped_kib("/h_dbg.debug"));
	helper_stop(&h);
	usyms_free(us);
}

static void test_usyms(void)
{
	char cmd[1024];
	struct helper h;
	struct usyms *us;
	struct usym u;
	char buf[256];
	int ok;

	ok = !sh("mkdir -p " DIR) && !write_text(DIR "/helper.c", helper_src) &&
	     !write_text(DIR "/lib.c", lib_src);
	snprintf(cmd, sizeof(cmd),
		 "cd " DIR " && gcc -O1 -g0 -fno-omit-frame-pointer -fPIE -pie -o h_pie helper.c -ldl"
		 " && gcc -O1 -g0 -fno-omit-frame-pointer -fno-pie -no-pie -o h_nopie helper.c -ldl"
		 " && gcc -O1 -g0 -fno-omit-frame-pointer -rdynamic -o h_strip helper.c -ldl && strip -s h_strip"
		 " && gcc -O1 -g0 -fPIC -shared -o libcbxtest.so lib.c");
	ok = ok && !sh(cmd);
	T_OK(ok, "helper programs build (PIE, non-PIE, stripped, shared library)");
	if (!ok)
		return;

	test_exe("PIE", DIR "/h_pie", 0);
	test_exe("non-PIE", DIR "/h_nopie", 0);
	test_exe("stripped", DIR "/h_strip", 1);
	test_debug_lazy();

	/* shared library at a random address, plus vdso, perf map, unmapped */
	us = usyms_new(0);
	if (helper_start(&h, DIR "/h_pie", DIR "/libcbxtest.so") < 0 || !h.lib) {
		T_OK(0, "library helper starts");
		usyms_free(us);
		return;
	}
	char map[128], line[256];
	snprintf(map, sizeof(map), "/tmp/perf-%d.map", h.pid);
	snprintf(line, sizeof(line), "%lx 40 jit_old_unique\n%lx 40 Interpreter::jit_fn_unique(int)\n%lx 20 jit_second\n",
		 h.jit, h.jit, h.jit + 0x100);
	T_OK(!write_text(map, line), "perf map written");

	T_OK(sym_is(us, h.pid, h.lib, "cbx_lib_unique", 0), "dlopen'd library: cbx_lib_unique+0");
	usyms_lookup(us, h.pid, h.lib, &u);
	T_OK(u.module && strstr(u.module, "libcbxtest.so"), "library module is %s", u.module ? u.module : "(null)");
	T_OK(sym_is(us, h.pid, h.alpha, "cbx_alpha_unique", 0), "executable symbols in the same process");
	T_OK(sym_is(us, h.pid, h.jit + 0x10, "Interpreter::jit_fn_unique(int)", 0x10),
	     "perf map: JIT address -> latest entry, offset 0x10");
	T_OK(sym_is(us, h.pid, h.jit + 0x105, "jit_second", 5), "perf map: second entry");
	usyms_lookup(us, h.pid, h.jit + 0x50, &u);
	T_OK(!u.name, "perf map: gap between entries is unknown");
	unlink(map);

	/* vdso: where our own vdso has __vdso_clock_gettime, the helper's
	 * (same kernel) has it at the same offset from its base */
	{
		const uint8_t *base = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
		const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
		struct elf_view ev;
		uint64_t want = 0, load = UINT64_MAX;

		if (base && elf_open(&ev, base, eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize) == 0) {
			for (size_t i = 0; i < ev.shnum; i++) {
				const Elf64_Shdr *sh = elf_shdr(&ev, i);
				struct elf_symtab st;

				if (sh->sh_type != SHT_DYNSYM || elf_symtab(&ev, sh, &st))
					continue;
				for (size_t j = 1; j < st.count; j++)
					if (!strcmp(elf_sym_name(&st, elf_sym(&st, j)), "__vdso_clock_gettime"))
						want = elf_sym(&st, j)->st_value;
			}
			for (size_t i = 0; i < ev.phnum; i++)
				if (ev.phdrs[i].p_type == PT_LOAD && ev.phdrs[i].p_vaddr < load)
					load = ev.phdrs[i].p_vaddr;
		}
		if (want && h.vdso) {
			usyms_lookup(us, h.pid, h.vdso + want - load + 2, &u);
			T_OK(u.name && (!strcmp(u.name, "__vdso_clock_gettime") || !strcmp(u.name, "clock_gettime")) &&
			     u.offset == 2 && u.module && !strcmp(u.module, "[vdso]"),
			     "[vdso]: %s+0x%llx in %s", u.name ? u.name : "(null)", (unsigned long long)u.offset,
			     u.module ? u.module : "(null)");
		} else {
			T_SKIP("[vdso] symbol", "no vdso symbol found here");
		}
	}
	T_OK(usyms_lookup(us, h.pid, 0x10, &u) == -ENOENT && !u.name && !u.module, "unmapped address: unknown, no module");
	usyms_format(us, h.pid, 0x10, 0, 1, buf, sizeof(buf));
	T_OK(!strcmp(buf, "[unknown]"), "unmapped address formats as \"%s\"", buf);
	helper_stop(&h);

	struct usyms_stats st;
	usyms_stats(us, &st);
	T_OK(st.procs == 1 && st.elf_loads >= 2, "cache: %u process, %u ELF files read, %u symbols", st.procs,
	     st.elf_loads, st.syms);
	T_OK(usyms_lookup(us, 0, 0x1000, &u) == -ESRCH, "pid 0: -ESRCH");
	usyms_free(us);

	/* a deleted executable, read through /proc/PID/map_files */
	us = usyms_new(0);
	ok = !sh("cp " DIR "/h_pie " DIR "/h_del") && helper_start(&h, DIR "/h_del", NULL) == 0;
	unlink(DIR "/h_del");
	T_OK(ok, "deleted helper runs");
	if (ok) {
		T_OK(sym_is(us, h.pid, h.alpha, "cbx_alpha_unique", 0), "deleted executable: cbx_alpha_unique+0");
		T_OK(sym_is(us, h.pid, h.stat, "cbx_static_hidden", 0), "deleted executable: static symbol");
		usyms_lookup(us, h.pid, h.alpha, &u);
		T_OK(u.module && strstr(u.module, "h_del") && !strstr(u.module, "(deleted)"),
		     "deleted executable module %s", u.module ? u.module : "(null)");
	}
	helper_stop(&h);
	usyms_free(us);

	/* demangling and the raw-names flag */
	struct usyms *raw = usyms_new(USYMS_RAW_NAMES);
	us = usyms_new(0);
	if (helper_start(&h, DIR "/h_pie", NULL) == 0) {
		T_OK(sym_is(us, h.pid, h.mangled, "cbx::Mangled::method(int)", 0), "C++ name demangled");
		T_OK(sym_is(raw, h.pid, h.mangled, "_ZN3cbx7Mangled6methodEi", 0), "USYMS_RAW_NAMES keeps it raw");
	}
	helper_stop(&h);
	usyms_free(us);
	usyms_free(raw);
}

/* ---- kernel symbols ---- */

static const char fake_kallsyms[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81001000 T schedule\n"
	"ffffffff81001000 t schedule_alias\n"
	"ffffffff81002000 T __traceiter_sched_switch\n"
	"ffffffff81003000 T bpf_trace_run4\n"
	"ffffffff81004000 t __schedule\n"
	"ffffffff81005000 T try_to_wake_up\n"
	"ffffffff81006000 T pipe_write\n"
	"ffffffff81007000 D some_data\n"
	"ffffffff81008000 t css_free_rwork_fn.llvm.8133216447427096451\n" /* clang LTO */
	"ffffffffa0000000 t bpf_prog_6deef7357e7b4530_handle_switch\t[bpf]\n"
	"ffffffffa1000000 t ext4_foo\t[ext4]\n"
	"ffffffffa1000100 t ext4_bar\t[ext4]\n";

static void test_ksyms(void)
{
	struct ksyms *ks;
	struct ksym k;
	uint64_t a = 0;
	char buf[256];
	int err;

	T_OK(!write_text(DIR "/kallsyms", fake_kallsyms), "fake kallsyms written");
	err = ksyms_load_file(DIR "/kallsyms", &ks);
	T_OK(err == 0 && ksyms_count(ks) == 12, "fake kallsyms: %zu text symbols (err %d %s)", ksyms_count(ks), err,
	     err_msg());
	if (err)
		return;
	T_OK(ksyms_lookup(ks, 0xffffffff81001010, &k) == 0 && !strcmp(k.name, "schedule") && k.offset == 0x10 && !k.module,
	     "lookup: schedule+0x10 (first of aliases)");
	T_OK(ksyms_lookup(ks, 0xffffffffa0000040, &k) == 0 && k.module && !strcmp(k.module, "bpf") &&
	     !strcmp(k.name, "bpf_prog_6deef7357e7b4530_handle_switch"), "BPF program symbol with [bpf]");
	T_OK(ksyms_lookup(ks, 0xffffffffa1000104, &k) == 0 && !strcmp(k.name, "ext4_bar") && !strcmp(k.module, "ext4"),
	     "module symbol ext4_bar [ext4]");
	ksyms_format(ks, 0xffffffffa1000104, 1, buf, sizeof(buf));
	T_OK(!strcmp(buf, "ext4_bar+0x4 [ext4]"), "format with offset and module: %s", buf);
	T_OK(ksyms_lookup(ks, 0x1000, &k) == -ENOENT, "below the first symbol: -ENOENT");
	ksyms_format(ks, 0x1000, 0, buf, sizeof(buf));
	T_OK(!strcmp(buf, "[unknown]"), "unknown kernel frame: %s", buf);
	T_OK(ksyms_addr(ks, "pipe_write", &a) == 0 && a == 0xffffffff81006000, "address by name");
	T_OK(ksyms_addr(ks, "some_data", &a) == -ENOENT, "data symbols are not loaded");
	T_OK(ksyms_lookup(ks, 0xffffffff81008008, &k) == 0 && !strcmp(k.name, "css_free_rwork_fn"),
	     "LTO's .llvm.<hash> suffix dropped: %s", k.name);
	T_OK(ksyms_addr(ks, "css_free_rwork_fn", &a) == 0 && a == 0xffffffff81008000, "LTO symbol found by its source name");

	uint64_t st[] = { 0xffffffffa0000040, 0xffffffff81003010, 0xffffffff81002020, 0xffffffff81004030,
			  0xffffffff81001008 };
	T_OK(stack_skip_trace_frames(ks, st, 5) == 3, "tp_btf stack: skip bpf_prog, bpf_trace_run4, __traceiter");
	T_OK(stack_skip_trace_frames(ks, st + 3, 2) == 0, "ordinary stack: nothing skipped");
	ksyms_free(ks);

	T_OK(!write_text(DIR "/kallsyms0", "0000000000000000 T _text\n0000000000000000 T schedule\n"), "zeroed kallsyms");
	err = ksyms_load_file(DIR "/kallsyms0", &ks);
	T_OK(err == -EPERM && strstr(err_msg(), "kptr_restrict"), "zero addresses: -EPERM \"%s\"", err_msg());

	/* the live kernel */
	err = ksyms_load(&ks);
	if (err) {
		T_SKIP("live /proc/kallsyms", "%s", err_msg());
		return;
	}
	T_OK(ksyms_count(ks) > 1000, "live kallsyms: %zu text symbols", ksyms_count(ks));
	const char *name = ksyms_addr(ks, "schedule", &a) == 0 ? "schedule" : "_text";
	ksyms_addr(ks, name, &a);
	T_OK(ksyms_lookup(ks, a, &k) == 0 && k.addr == a && k.offset == 0, "live: %s -> %s+0", name, k.name);
	T_OK(ksyms_lookup(ks, a + 0x10, &k) == 0 && k.offset == 0x10 && !strcmp(k.name, name) ,
	     "live: %s+0x10 -> %s+0x%llx", name, k.name, (unsigned long long)k.offset);
	ksyms_free(ks);
}

/* Streaming lookups over a file in no particular order: one pass names
 * every address asked, whatever the order of the lines. */
static const char shuffled_kallsyms[] =
	"ffffffffa1000100 t ext4_bar\t[ext4]\n"
	"ffffffff81004000 t __schedule\n"
	"ffffffff81007000 D some_data\n"
	"ffffffff81001000 t schedule_alias\n"      /* an alias first in file order */
	"ffffffffa0000000 t bpf_prog_6deef7357e7b4530_handle_switch\t[bpf]\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81006000 T pipe_write\n"
	"ffffffff81001000 T schedule\n"
	"ffffffffa1000000 t ext4_foo\t[ext4]\n"
	"ffffffff81005000 T try_to_wake_up\n"
	"ffffffffa2000000 t xfs_last\t[xfs]\n";

static void test_ksyms_stream(void)
{
	static const struct { uint64_t addr; const char *name, *mod; uint64_t off; } want[] = {
		{ 0xffffffff81004010, "__schedule", NULL, 0x10 },       /* between symbols */
		{ 0xffffffff81004fff, "__schedule", NULL, 0xfff },      /* just below the next */
		{ 0xffffffff81005000, "try_to_wake_up", NULL, 0 },      /* exactly on one */
		{ 0xffffffff81001004, "schedule_alias", NULL, 4 },      /* aliases: first in the file */
		{ 0xffffffff81007010, "pipe_write", NULL, 0x1010 },     /* data symbols are not text */
		{ 0xffffffffa1000080, "ext4_foo", "ext4", 0x80 },       /* module symbols */
		{ 0xffffffffa1000104, "ext4_bar", "ext4", 4 },
		{ 0xffffffffa0000040, "bpf_prog_6deef7357e7b4530_handle_switch", "bpf", 0x40 },
		{ 0xffffffffa2345678, "xfs_last", "xfs", 0x345678 },    /* above the last symbol */
	};
	struct ksyms *ks;
	struct ksym k;
	char buf[128];
	size_t i;
	int ok = 1;

	T_OK(!write_text(DIR "/kallsyms_shuffled", shuffled_kallsyms), "shuffled kallsyms written");
	if (ksyms_load_file(DIR "/kallsyms_shuffled", &ks)) {
		T_OK(0, "shuffled kallsyms opens: %s", err_msg());
		return;
	}
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		ksyms_want(ks, want[i].addr);
		ksyms_want(ks, want[i].addr); /* asked twice: named once */
	}
	ksyms_want(ks, 0xffffffff80000000); /* below every symbol */
	T_OK(!ksyms_known(ks, want[0].addr), "nothing named before the pass");
	T_OK(ksyms_resolve(ks) == 0, "one pass");
	for (i = 0; i < ARRAY_SIZE(want); i++)
		ok &= ksyms_known(ks, want[i].addr);
	T_OK(ok && ksyms_known(ks, 0xffffffff80000000), "every address asked is named after one pass");
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		int err = ksyms_lookup(ks, want[i].addr, &k);

		if (err || strcmp(k.name, want[i].name) || k.offset != want[i].off ||
		    (want[i].mod ? !k.module || strcmp(k.module, want[i].mod) : k.module != NULL)) {
			printf("# 0x%llx: err %d %s+0x%llx [%s], want %s+0x%llx [%s]\n", (unsigned long long)want[i].addr, err,
			       err ? "" : k.name, err ? 0ULL : (unsigned long long)k.offset, err || !k.module ? "" : k.module,
			       want[i].name, (unsigned long long)want[i].off, want[i].mod ? want[i].mod : "");
			ok = 0;
		}
	}
	T_OK(ok, "between symbols, on one, aliases, modules, BPF programs, above the last: all named right");
	T_OK(ksyms_lookup(ks, 0xffffffff80000000, &k) == -ENOENT, "below the first symbol (in a shuffled file): -ENOENT");
	T_OK(ksyms_count(ks) == 10, "text symbols counted by the pass: %zu", ksyms_count(ks));
	/* an address not asked before: a pass of its own */
	T_OK(!ksyms_known(ks, 0xffffffff81006008) && ksyms_lookup(ks, 0xffffffff81006008, &k) == 0 &&
	     !strcmp(k.name, "pipe_write") && k.offset == 8, "lookup of a new address: pipe_write+0x8");
	ksyms_format(ks, 0xffffffffa1000104, 1, buf, sizeof(buf));
	T_OK(!strcmp(buf, "ext4_bar+0x4 [ext4]"), "format: %s", buf);
	{
		/* names stay valid while later passes add more */
		const char *name;

		ksyms_lookup(ks, want[5].addr, &k);
		name = k.name;
		for (uint64_t a = 0xffffffff81000001; a < 0xffffffff81000001 + 3000; a++)
			ksyms_want(ks, a);
		ksyms_resolve(ks);
		T_OK(!strcmp(name, "ext4_foo"), "a name returned before stays valid after more passes");
	}
	ksyms_free(ks);
}

/* ---- formatting on synthetic stacks ---- */

static __attribute__((noinline)) int t_leaf_unique(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

static __attribute__((noinline)) int t_mid_unique(int x)
{
	__asm__ volatile("" ::: "memory");
	return t_leaf_unique(x) + 1;
}

int main(void);

static int fake_lookup(void *ctx, int32_t id, uint64_t *ips, unsigned depth)
{
	static uint64_t k1[] = { 0xffffffffa0000040, 0xffffffff81003010, 0xffffffff81002020, 0xffffffff81004030,
				 0xffffffff81001008 };
	static uint64_t k3[] = { 0xffffffff81005005, 0xffffffff81006009 };
	uint64_t u2[] = { (uintptr_t)t_leaf_unique + 1, (uintptr_t)t_mid_unique + 1, (uintptr_t)main + 1 };
	const uint64_t *v;
	unsigned n;

	switch (id) {
	case 1: v = k1; n = 5; break;
	case 2: v = u2; n = 3; break;
	case 3: v = k3; n = 2; break;
	default: return -ENOENT;
	}
	memcpy(ips, v, n * 8);
	return 0;
}

static char *capture(struct stacks *s, const struct stack_rec *r)
{
	char *out = NULL;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	stacks_print(s, f, r);
	fclose(f);
	return out;
}

static void test_format(void)
{
	struct stacks s;
	struct strbuf line = { 0 };
	struct stack_rec r = { "cbxtest", getpid(), 1, 2, 42 };
	char want[1024], *out;
	struct ksyms *ks;

	if (ksyms_load_file(DIR "/kallsyms", &ks))
		return;
	T_OK(stacks_init(&s, -1, 127, STACKS_NO_KERNEL | STACKS_SKIP_TRACE | STACKS_DELIM) == 0, "stacks_init");
	s.ksyms = ks;
	s.lookup = fake_lookup;

	out = capture(&s, &r);
	snprintf(want, sizeof(want), "    __schedule\n    schedule\n    --\n    t_leaf_unique\n    t_mid_unique\n    main\n"
		 "    -                cbxtest (%d)\n        42\n\n", getpid());
	T_OK(!strcmp(out, want), "multi-line with -d and frame skip");
	if (strcmp(out, want))
		printf("# got:\n%s# want:\n%s", out, want);
	free(out);

	stacks_folded(&s, &r, &line);
	T_OK(!strcmp(line.s, "cbxtest;main;t_mid_unique;t_leaf_unique;-;schedule;__schedule"), "folded: %s", line.s);

	r.kid = -EFAULT;
	stacks_folded(&s, &r, &line);
	T_OK(!strcmp(line.s, "cbxtest;main;t_mid_unique;t_leaf_unique") && s.lost.all == 0,
	     "folded, kernel -EFAULT left out silently: %s", line.s);
	r.kid = 1;
	r.uid = -EEXIST;
	out = capture(&s, &r);
	snprintf(want, sizeof(want), "    __schedule\n    schedule\n    [Missed User Stack]\n"
		 "    -                cbxtest (%d)\n        42\n\n", getpid());
	T_OK(!strcmp(out, want) && s.lost.all == 1 && s.full, "multi-line, user -EEXIST: [Missed User Stack], counted");
	free(out);
	r.uid = STACK_OMIT;
	r.kid = -ENOMEM;
	stacks_folded(&s, &r, &line);
	T_OK(!strcmp(line.s, "cbxtest;[Missed Kernel Stack]") && s.lost.all == 2, "folded, -K style omit + -ENOMEM: %s",
	     line.s);
	r.kid = 7;  /* lookup fails: stack overwritten */
	stacks_folded(&s, &r, &line);
	T_OK(!strcmp(line.s, "cbxtest;[Missed Kernel Stack]") && s.lost.all == 3, "failed lookup counted as missed");

	char *rep = NULL;
	size_t len;
	FILE *f = open_memstream(&rep, &len);
	stacks_report_missed(&s, f);
	fclose(f);
	T_OK(!strcmp(rep, "WARNING: 3 stack traces could not be displayed (1 user, 2 kernel): 2 stack map hash "
			  "collisions or a full map, 1 no longer in the stack map. Consider increasing "
			  "--stack-storage-size.\n"),
	     "missed warning: real losses by kind (with the --stack-storage-size hint): %s", rep);
	free(rep);

	s.flags = STACKS_SKIP_TRACE | STACKS_ANNOTATE | STACKS_OFFSET;
	r.kid = 1;
	r.uid = 2;
	r.comm = "a;b c";
	stacks_folded(&s, &r, &line);
	T_OK(!strcmp(line.s, "a:b c;main+0x1;t_mid_unique+0x1;t_leaf_unique+0x1;schedule+0x8_[k];__schedule+0x30_[k]"),
	     "folded with offsets, annotations, ';' in comm: %s", line.s);

	s.flags = STACKS_SKIP_TRACE;
	struct offwake_rec ow = { "reader", "writer", getpid(), 1234, 1, 2, 3, STACK_OMIT, 9 };
	stacks_folded_offwake(&s, &ow, &line);
	T_OK(!strcmp(line.s, "reader;main;t_mid_unique;t_leaf_unique;schedule;__schedule;--;try_to_wake_up;pipe_write;writer"),
	     "offwaketime folded: %s", line.s);

	s.flags = STACKS_SKIP_TRACE | STACKS_VERBOSE;
	f = open_memstream(&rep, &len);
	stacks_print_frames(&s, f, "\t", 3, -1, 1, 0);
	fclose(f);
	T_OK(!strcmp(rep, "\t#0  0xffffffff81006009 pipe_write+0x9\n\t#1  0xffffffff81005005 try_to_wake_up+0x5\n"),
	     "verbose frames, root first");
	free(rep);

	/* the aggregator */
	struct fold_agg *a = fold_agg_new();
	fold_agg_add(a, "x;b", 2);
	fold_agg_add(a, "x;a", 1);
	fold_agg_add(a, "x;b", 3);
	for (int i = 0; i < 1000; i++) {
		char l[32];
		snprintf(l, sizeof(l), "p;f%d", i % 500);
		fold_agg_add(a, l, 1);
	}
	fold_agg_sort(a);
	uint64_t c0, c1;
	const char *l0 = fold_agg_line(a, fold_agg_len(a) - 2, &c0), *l1 = fold_agg_line(a, fold_agg_len(a) - 1, &c1);
	T_OK(fold_agg_len(a) == 502 && !strcmp(l0, "x;a") && c0 == 1 && !strcmp(l1, "x;b") && c1 == 5,
	     "aggregator sums equal lines and sorts (%zu lines)", fold_agg_len(a));
	fold_agg_add(a, "p;f1", 10);
	fold_agg_line(a, 1, &c0);
	T_OK(fold_agg_len(a) == 502 && c0 == 12, "aggregator still finds lines after sorting");
	fold_agg_free(a);

	strbuf_free(&line);
	stacks_fini(&s);
}

static void test_svg(void)
{
	struct fold_agg *a = fold_agg_new();
	const char *in = "cbx;main;outer_unique;inner_unique 90\n"
			 "cbx;main;outer_unique;other<&>\"' 10\n"
			 "cbx;main;x\xff\xfe 5\n"
			 "cbx;main;outer_unique;inner_unique 10\n"
			 "cbx;[unknown] (libfoo.so) 1\n"
			 "junk line\n";
	FILE *f = fmemopen((void *)in, strlen(in), "r");
	struct flamegraph_opts o = { .title = "CPU <flame> & graph", .unit = "samples" };
	char *svg;
	size_t len;
	int err;

	T_OK(fold_agg_read(a, f) == 0 && fold_agg_len(a) == 4, "folded text read (%zu stacks)", fold_agg_len(a));
	fclose(f);
	err = flamegraph_write(DIR "/fg.svg", a, &o);
	T_OK(err == 0, "flame graph written (%s)", err ? err_msg() : "");
	T_OK(!sh("python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' " DIR "/fg.svg"),
	     "SVG parses as XML");
	if (read_file(DIR "/fg.svg", 1 << 20, &svg, &len) == 0) {
		T_OK(strstr(svg, ">inner_unique (100 samples, 86.21%)<") && strstr(svg, "outer_unique") &&
		     strstr(svg, ">main (") && strstr(svg, "other&lt;&amp;&gt;&quot;&apos;") &&
		     strstr(svg, "[unknown] (libfoo.so)") && strstr(svg, ">all (116 samples, 100.00%)<"),
		     "SVG holds the frames, counts and escaped names");
		T_OK(strstr(svg, "function zoom") && strstr(svg, "function search") && strstr(svg, "Reset Zoom"),
		     "SVG has zoom and search");
		T_OK(len < 16384, "SVG is compact (%zu bytes)", len);
		free(svg);
	}
	T_OK(flamegraph_write("/nonexistent/dir/x.svg", a, NULL) < 0 && strstr(err_msg(), "/nonexistent/dir/x.svg"),
	     "unwritable path: error names it");
	fold_agg_free(a);

	/* empty input still gives a valid SVG */
	a = fold_agg_new();
	T_OK(flamegraph_write(DIR "/empty.svg", a, NULL) == 0 &&
	     !sh("python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' " DIR "/empty.svg"),
	     "empty flame graph is valid XML");
	fold_agg_free(a);
}

static void test_mapdump(void)
{
	struct bpf_map_spec spec = { .name = "cbx_dump", .type = BPF_MAP_TYPE_HASH, .key_size = 12,
				     .value_size = 16, .max_entries = 256 };
	struct map_dump d;
	int fd = bpf_map_create(&spec), ok = 1;

	if (fd < 0) {
		T_SKIP("map dump", "cannot create a BPF map: %s", err_msg());
		return;
	}
	for (uint32_t i = 0; i < 200; i++) {
		uint32_t key[3] = { i, i * 7, 0xabcd };
		uint64_t val[2] = { i * 31 % 200, i };
		bpf_map_update(fd, key, val, 0);
	}
	T_OK(map_dump(fd, 12, 16, &d) == 0 && d.n == 200, "map dump reads 200 entries (%zu)", d.n);
	map_dump_sort(&d, 0, 1);
	for (size_t i = 0; i < d.n; i++) {
		uint64_t *v = map_dump_value(&d, i);
		uint32_t *k = map_dump_key(&d, i);
		if (v[0] != 199 - i || k[0] != v[1] || k[1] != k[0] * 7 || k[2] != 0xabcd)
			ok = 0;
	}
	T_OK(ok, "sorted by count, descending, keys intact");
	map_dump_sort(&d, 0, 0);
	T_OK(*(uint64_t *)map_dump_value(&d, 0) == 0, "ascending sort");
	map_dump_free(&d);
	close(fd);
}

int main(void)
{
	test_usyms();
	test_ksyms();
	test_ksyms_stream();
	test_format();
	test_svg();
	test_mapdump();
	T_EXIT();
}
