/* Exercise every elf/ reader on one buffer, the way the loader and the
 * uprobe code would: shared by the fuzzer (fuzz_elf.c) and the unit
 * test's corruption sweeps.  Returns elf_open()'s result; the walk itself
 * only has to not crash (sanitizers judge that). */
#ifndef COREBOX_TESTS_ELF_WALK_H
#define COREBOX_TESTS_ELF_WALK_H

#include <string.h>

#include "elf/elf.h"

/* Reads every byte the API hands out, so an out-of-bounds pointer is
 * caught by ASan right here rather than later in some caller. */
static inline unsigned elf_walk_touch(const void *p, size_t n)
{
	const unsigned char *b = p;
	unsigned sum = 0;

	for (size_t i = 0; p && i < n; i++)
		sum += b[i];
	return sum;
}

static inline int elf_walk(const void *data, size_t size)
{
	static const char *const probes[] = { "main", "func_global", "func_local", "dyn_only", "in_bss", "" };
	struct elf_view ev;
	volatile unsigned sink = 0;
	uint64_t off;
	int err;

	err = elf_open(&ev, data, size);
	if (err)
		return err;
	elf_check_kind(&ev, ET_REL, EM_BPF);
	for (size_t i = 0; i < ev.shnum + 2; i++) {
		const Elf64_Shdr *sh = elf_shdr(&ev, i);
		struct elf_symtab st;
		const void *d;
		size_t n;

		if (!sh)
			continue;
		sink += (unsigned)strlen(elf_sec_name(&ev, sh));
		if (elf_sec_data(&ev, sh, &d, &n) == 0)
			sink += elf_walk_touch(d, n);
		if (elf_find_sec(&ev, elf_sec_name(&ev, sh)) == NULL)
			sink++;
		if (elf_symtab(&ev, sh, &st) != 0)
			continue;
		for (size_t k = 0; k < st.count + 1; k++) {
			const Elf64_Sym *sym = elf_sym(&st, k);
			const char *name;

			if (!sym)
				continue;
			name = elf_sym_name(&st, sym);
			sink += (unsigned)strlen(name);
			/* Look a few real names up: the full lookup path. */
			if (k < 8 && ELF64_ST_TYPE(sym->st_info) == STT_FUNC && elf_func_file_offset(&ev, name, &off) == 0)
				sink += (unsigned)off;
		}
	}
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		if (elf_func_file_offset(&ev, probes[i], &off) == 0)
			sink += (unsigned)off;
	/* Go's function table: a few addresses through it */
	{
		struct elf_gopcln g;
		const char *gname;
		uint64_t start;

		if (elf_gopcln(&ev, &g) == 0)
			for (uint64_t a = 0; a < 64; a++)
				if (elf_gopcln_find(&g, g.text + a * 997, &gname, &start) == 0)
					sink += (unsigned)strlen(gname) + (unsigned)start;
	}
	(void)sink;
	return 0;
}

#endif
