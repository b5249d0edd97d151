/* Symbolization throughput (make bench): N random stacks of 10 user
 * frames (this executable and libc.so, random offsets inside functions,
 * 5% unknown) and 10 kernel frames (random /proc/kallsyms text),
 * through the whole pipeline the stack tools use: stacks_folded() (stack
 * read hook, ksyms, usyms, formatting) and fold_agg_add().  Reports cold
 * (including /proc/PID/maps and ELF loading) and warm rates, the
 * kallsyms load time, and the peak RSS.  Then, per kind of symbol, how
 * many addresses a cold start names per second (a new reader each round,
 * so /proc/PID/maps, the ELF files and the debug files are read again):
 * kernel text (/proc/kallsyms), this executable (its own .symtab), and
 * libc (stripped: .dynsym, and the build-id debug file of libc6-dbg for
 * the addresses .dynsym cannot name).
 * Built by tests/bench.sh (gc-sections drops the stack tools' option and
 * map code the bench never calls). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "err.h"
#include "tools/stack/stacks.h"
#include "util.h"

#define FRAMES 10

static uint64_t *ustk, *kstk;
static unsigned nstacks = 10000;

static int bench_lookup(void *ctx, int32_t id, uint64_t *ips, unsigned depth)
{
	const uint64_t *src = (id & 1) ? kstk : ustk;

	memcpy(ips, src + (size_t)(id >> 1) * FRAMES, FRAMES * sizeof(*ips));
	return 0;
}

static uint64_t rnd(void)
{
	static uint64_t x = 88172645463325252ull;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of 5 rounds, seconds: t[] filled by the caller's loop. */
static double median5(double *t)
{
	qsort(t, 5, sizeof(*t), cmp_dbl);
	return t[2];
}

#define RATE_N 20000 /* addresses per round */

/* Random kernel text addresses in [lo, hi): load, note, one pass, look up. */
static void kernel_rate(uint64_t lo, uint64_t hi)
{
	uint64_t *a = xcalloc(RATE_N, sizeof(*a));
	unsigned named = 0;
	double t[5];

	for (size_t i = 0; i < RATE_N; i++)
		a[i] = lo + rnd() % (hi - lo);
	for (int r = 0; r < 5; r++) {
		uint64_t t0 = now_ns();
		struct ksyms *ks;
		struct ksym k;

		if (ksyms_load(&ks) < 0) {
			printf("  kernel: %s\n", err_msg());
			free(a);
			return;
		}
		for (size_t i = 0; i < RATE_N; i++)
			ksyms_want(ks, a[i]);
		ksyms_resolve(ks);
		named = 0;
		for (size_t i = 0; i < RATE_N; i++)
			named += ksyms_lookup(ks, a[i], &k) == 0;
		ksyms_free(ks);
		t[r] = (now_ns() - t0) / 1e9;
	}
	printf("  %-40s %9.0f addresses/s (%u of %u named)\n", "kernel (/proc/kallsyms)", RATE_N / median5(t), named,
	       RATE_N);
	free(a);
}

/* Random addresses of this process in [lo, hi), a new usyms each round. */
static void user_rate(const char *what, uint64_t lo, uint64_t hi)
{
	uint64_t *a = xcalloc(RATE_N, sizeof(*a));
	struct usyms_stats st = { 0 };
	unsigned named = 0;
	double t[5];

	for (size_t i = 0; i < RATE_N; i++)
		a[i] = lo + rnd() % (hi - lo);
	for (int r = 0; r < 5; r++) {
		uint64_t t0 = now_ns();
		struct usyms *us = usyms_new(0);
		struct usym u;

		for (size_t i = 0; i < RATE_N; i++)
			usyms_want(us, getpid(), a[i]);
		usyms_resolve(us);
		named = 0;
		for (size_t i = 0; i < RATE_N; i++)
			named += usyms_lookup(us, getpid(), a[i], &u) == 0;
		usyms_stats(us, &st);
		usyms_free(us);
		t[r] = (now_ns() - t0) / 1e9;
	}
	printf("  %-40s %9.0f addresses/s (%u of %u named; %u debug file%s read)\n", what, RATE_N / median5(t), named,
	       RATE_N, st.debug, st.debug == 1 ? "" : "s");
	free(a);
}

/* The executable mapping of this process whose path ends in name. */
static int own_text(const char *name, uint64_t *lo, uint64_t *hi)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[600], perms[8], path[512];
	unsigned long long a, b;
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %511s", &a, &b, perms, path) == 4 && strchr(perms, 'x') &&
		    strlen(path) >= strlen(name) && !strcmp(path + strlen(path) - strlen(name), name)) {
			*lo = a;
			*hi = b;
			found = 1;
		}
	if (f)
		fclose(f);
	return found;
}

static double run(struct stacks *s, struct fold_agg *a)
{
	struct strbuf line = { 0 };
	uint64_t t0 = now_ns();

	for (unsigned i = 0; i < nstacks; i++) {
		struct stack_rec r = { "bench", getpid(), (int32_t)(i * 2 + 1), (int32_t)(i * 2), 1 };

		stacks_folded(s, &r, &line);
		fold_agg_add(a, line.s, 1);
	}
	strbuf_free(&line);
	return (now_ns() - t0) / 1e9;
}

int main(int argc, char **argv)
{
	static const char *const libc_funcs[] = {
		"malloc", "free", "calloc", "realloc", "printf", "fprintf", "snprintf", "memcpy", "memset",
		"strlen", "strcmp", "qsort", "read", "write", "open", "close", "fopen", "fclose", "fgets",
		"getline", "strtoull", "pthread_create", "pthread_mutex_lock", "nanosleep", "clock_gettime",
		"poll", "epoll_wait", "mmap", "munmap", "fork", "execve", "bsearch", "strchr", "strstr",
	};
	void *own[] = { (void *)run, (void *)bench_lookup, (void *)rnd, (void *)main, (void *)stacks_folded,
			(void *)usyms_lookup, (void *)ksyms_lookup, (void *)fold_agg_add };
	uint64_t cand[64], lo = 0, hi = 0;
	struct usyms_stats ust;
	struct stacks s;
	struct fold_agg *a;
	struct rusage ru;
	size_t nc = 0;
	uint64_t t0;
	double cold, warm;

	if (argc > 1)
		nstacks = (unsigned)atoi(argv[1]);
	for (size_t i = 0; i < sizeof(libc_funcs) / sizeof(*libc_funcs); i++) {
		void *p = dlsym(RTLD_DEFAULT, libc_funcs[i]);
		if (p)
			cand[nc++] = (uintptr_t)p;
	}
	for (size_t i = 0; i < sizeof(own) / sizeof(*own); i++)
		cand[nc++] = (uintptr_t)own[i];

	t0 = now_ns();
	if (stacks_init(&s, -1, 127, 0) < 0) {
		fprintf(stderr, "stack_bench: %s\n", err_msg());
		return 1;
	}
	printf("kallsyms: %zu text symbols (not loaded: named in one pass per batch); init %.1f ms\n", ksyms_count(s.ksyms), (now_ns() - t0) / 1e6);
	s.lookup = bench_lookup;
	if (ksyms_addr(s.ksyms, "_stext", &lo) || ksyms_addr(s.ksyms, "_etext", &hi) || hi <= lo)
		ksyms_addr(s.ksyms, "_text", &lo), hi = lo + (16u << 20);

	ustk = xcalloc((size_t)nstacks * FRAMES, 8);
	kstk = xcalloc((size_t)nstacks * FRAMES, 8);
	for (size_t i = 0; i < (size_t)nstacks * FRAMES; i++) {
		ustk[i] = rnd() % 20 == 0 ? 0x1000 + rnd() % 0x100000 : cand[rnd() % nc] + rnd() % 48;
		kstk[i] = lo + rnd() % (hi - lo);
	}
	/* as the report of a stack tool does it: one noting pass, the batch
	 * named (one kallsyms pass, one per ELF file), then the real fold */
	a = fold_agg_new();
	t0 = now_ns();
	stacks_prefetch_begin(&s);
	run(&s, a);
	stacks_prefetch_end(&s);
	fold_agg_free(a);
	a = fold_agg_new();
	run(&s, a);
	cold = (now_ns() - t0) / 1e9;
	warm = run(&s, a);
	usyms_stats(s.usyms, &ust);
	getrusage(RUSAGE_SELF, &ru);
	printf("stacks: %u x (%d user + %d kernel frames) -> folded + aggregated\n", nstacks, FRAMES, FRAMES);
	printf("  cold (noting pass, one kallsyms pass, maps + %u ELF files, %u symbols named): %.0f stacks/s\n", ust.elf_loads, ust.syms,
	       nstacks / cold);
	printf("  warm: %.0f stacks/s (%.0f frames/s)\n", nstacks / warm, nstacks * 2.0 * FRAMES / warm);
	printf("  distinct folded stacks %zu; peak RSS %ld KiB (with the bench's own 1.6 MB of frames and every folded line)\n", fold_agg_len(a), ru.ru_maxrss);
	fold_agg_free(a);
	stacks_fini(&s);
	free(ustk);
	free(kstk);

	printf("symbols named per second, cold (a new reader each round; median of 5 rounds of %u random addresses):\n",
	       RATE_N);
	kernel_rate(lo, hi);
	{
		uint64_t elo, ehi;
		char self[512];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		self[n > 0 ? n : 0] = 0;
		if (n > 0 && own_text(self, &elo, &ehi))
			user_rate("ELF .symtab (this executable)", elo, ehi);
		if (own_text("/libc.so.6", &elo, &ehi))
			user_rate("stripped libc: .dynsym + debug file", elo, ehi);
		else
			printf("  libc.so.6: not mapped (a static build?)\n");
	}
	return 0;
}
