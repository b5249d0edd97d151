/* Symbolization throughput (make bench): N random stacks of 10 user
 * frames (this executable and libc.so, random offsets inside functions,
 * 5% unknown) and 10 kernel frames (random /proc/kallsyms text),
 * through the whole pipeline the stack tools use: stacks_folded() (stack
 * read hook, ksyms, usyms, formatting) and fold_agg_add().  Reports cold
 * (including /proc/PID/maps and ELF loading) and warm rates, the
 * kallsyms load time, and the peak RSS.
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
	cold = run(&s, a) + (now_ns() - t0) / 1e9;
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
	return 0;
}
