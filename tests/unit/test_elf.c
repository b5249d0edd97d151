/* elf/: valid images (built in memory), every header field corrupted,
 * truncations and byte flips (no crash under ASan/UBSan), and the real
 * thing: function offsets in this test's own executable and in libc,
 * checked against the bytes the kernel actually mapped. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf/elf.h"
#include "err.h"
#include "t.h"
#include "util.h"
#include "tests/fuzz/elf_image.h"
#include "tests/fuzz/elf_walk.h"

/* Exact-size heap copy: ASan then flags any read past the end. */
static void *dup_exact(const void *p, size_t n)
{
	void *c = malloc(n ? n : 1);

	if (c && n)
		memcpy(c, p, n);
	return c;
}

static void test_valid(unsigned type)
{
	const char *tn = type == ET_DYN ? "ET_DYN" : type == ET_EXEC ? "ET_EXEC" : "ET_REL";
	struct elf_image im;
	struct elf_view ev;
	struct elf_symtab st;
	const Elf64_Shdr *sh;
	const void *d;
	size_t n;
	uint64_t off = 0;
	int r;

	elf_image_build(&im, type, type == ET_REL ? EM_BPF : EM_X86_64);
	err_clear();
	r = elf_open(&ev, im.buf, im.size);
	T_OK(r == 0, "%s: elf_open valid image (%s)", tn, err_msg());
	if (r) {
		elf_image_free(&im);
		return;
	}
	T_OK(ev.shnum == IMG_NSEC && ev.phnum == (type == ET_REL ? 0u : 2u) && !ev.swapped,
	     "%s: section and segment counts", tn);
	T_OK(elf_check_kind(&ev, type, type == ET_REL ? EM_BPF : EM_X86_64) == 0, "%s: elf_check_kind matches", tn);
	sh = elf_find_sec(&ev, ".text");
	T_OK(sh && elf_sec_idx(&ev, sh) == IMG_TEXT && strcmp(elf_sec_name(&ev, sh), ".text") == 0,
	     "%s: find .text", tn);
	T_OK(sh && elf_sec_data(&ev, sh, &d, &n) == 0 && n == IMG_TEXT_SIZE &&
	     d == im.buf + im.text_off && ((const uint8_t *)d)[1] == 0x91, "%s: .text data", tn);
	sh = elf_find_sec(&ev, ".bss");
	T_OK(sh && elf_sec_data(&ev, sh, &d, &n) == 0 && d == NULL && n == IMG_BSS_SIZE,
	     "%s: .bss is NOBITS: no data, size kept", tn);
	T_OK(elf_find_sec(&ev, ".nope") == NULL && elf_find_sec(&ev, "") == NULL, "%s: missing section is NULL", tn);
	T_OK(elf_shdr(&ev, IMG_NSEC) == NULL && elf_shdr(&ev, (size_t)-1) == NULL && elf_shdr(&ev, 0) != NULL,
	     "%s: elf_shdr bounds", tn);

	r = elf_symtab(&ev, elf_find_sec(&ev, ".symtab"), &st);
	T_OK(r == 0 && st.count == im.nsyms, "%s: .symtab has %zu symbols", tn, im.nsyms);
	T_OK(r == 0 && strcmp(elf_sym_name(&st, elf_sym(&st, 2)), "func_global") == 0 &&
	     strcmp(elf_sym_name(&st, elf_sym(&st, 0)), "") == 0 && elf_sym(&st, im.nsyms) == NULL,
	     "%s: symbol names and bounds", tn);
	T_OK(elf_symtab(&ev, elf_find_sec(&ev, ".text"), &st) < 0 && err_msg()[0],
	     "%s: elf_symtab refuses a non-symbol section (%s)", tn, err_msg());

	uint64_t base = im.text_off; /* each function's offset is .text's plus its own */
	r = elf_func_file_offset(&ev, "func_global", &off);
	T_OK(r == 0 && off == base + IMG_FUNC_GLOBAL, "%s: func_global offset 0x%" PRIx64, tn, off);
	r = elf_func_file_offset(&ev, "func_local", &off);
	T_OK(r == 0 && off == base + IMG_FUNC_LOCAL, "%s: local function offset", tn);
	r = elf_func_file_offset(&ev, "func_weak", &off);
	T_OK(r == 0 && off == base + IMG_FUNC_WEAK, "%s: weak function offset", tn);
	r = elf_func_file_offset(&ev, "dyn_only", &off);
	T_OK(r == 0 && off == base + IMG_FUNC_DYN, "%s: .dynsym-only function offset", tn);
	err_clear();
	r = elf_func_file_offset(&ev, "undef_fn", &off);
	T_OK(r == -ENOENT && strstr(err_msg(), "undef_fn"), "%s: undefined symbol skipped (%s)", tn, err_msg());
	r = elf_func_file_offset(&ev, "an_object", &off);
	T_OK(r == -ENOENT, "%s: object symbol is not a function", tn);
	r = elf_func_file_offset(&ev, "no_such_fn", &off);
	T_OK(r == -ENOENT && err_msg()[0], "%s: missing function -ENOENT", tn);
	if (type != ET_REL) {
		err_clear();
		r = elf_func_file_offset(&ev, "in_bss", &off);
		T_OK(r < 0 && err_msg()[0], "%s: function in zero-filled segment tail refused (%s)", tn, err_msg());
	}
	elf_image_free(&im);
}

/* A binary's table is not checked whole at open (that would bring in
 * every page of it): a bad name offset reads as "" where it is read. */
static void test_lazy_names(void)
{
	struct elf_image im;
	struct elf_view ev;
	struct elf_symtab st;

	elf_image_build(&im, ET_DYN, EM_X86_64);
	im.syms[2].st_name = (uint32_t)im.sh[IMG_STRTAB].sh_size;
	T_OK(elf_open(&ev, im.buf, im.size) == 0 && elf_symtab(&ev, &ev.shdrs[IMG_SYMTAB], &st) == 0,
	     "ET_DYN: a symbol's name offset past the strings: the table opens");
	T_OK(!strcmp(elf_sym_name(&st, elf_sym(&st, 2)), "") && elf_sym_name(&st, elf_sym(&st, 1))[0],
	     "ET_DYN: that name reads as \"\", the others as they are");
	elf_image_free(&im);
}

/* Ambiguous locals: two static functions of one name at different addresses. */
static void test_ambiguous_local(void)
{
	struct elf_image im;
	struct elf_view ev;
	uint64_t off;

	elf_image_build(&im, ET_DYN, EM_X86_64);
	im.syms[3].st_name = im.syms[1].st_name; /* weak func_weak -> local name, ... */
	im.syms[3].st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC);
	T_OK(elf_open(&ev, im.buf, im.size) == 0 && elf_func_file_offset(&ev, "func_local", &off) < 0 && err_msg()[0],
	     "two different local definitions are ambiguous (%s)", err_msg());
	im.syms[3].st_value = im.syms[1].st_value;
	T_OK(elf_func_file_offset(&ev, "func_local", &off) == 0 && off == im.text_off + IMG_FUNC_LOCAL,
	     "two identical local definitions are fine");
	elf_image_free(&im);
}

/* e_shnum == 0: the real count lives in section 0's sh_size; e_shstrndx
 * == SHN_XINDEX: the index lives in section 0's sh_link. */
static void test_extended_numbering(void)
{
	struct elf_image im;
	struct elf_view ev;

	elf_image_build(&im, ET_REL, EM_BPF);
	err_clear();
	im.eh->e_shnum = 0;
	im.sh[0].sh_size = IMG_NSEC;
	im.eh->e_shstrndx = SHN_XINDEX;
	im.sh[0].sh_link = IMG_SHSTRTAB;
	T_OK(elf_open(&ev, im.buf, im.size) == 0 && ev.shnum == IMG_NSEC && elf_find_sec(&ev, ".symtab"),
	     "e_shnum 0 + SHN_XINDEX: counts from section 0 (%s)", err_msg());
	elf_image_free(&im);

	elf_image_build(&im, ET_DYN, EM_X86_64);
	im.eh->e_phnum = PN_XNUM;
	im.sh[0].sh_info = 2;
	T_OK(elf_open(&ev, im.buf, im.size) == 0 && ev.phnum == 2, "e_phnum PN_XNUM: count from section 0's sh_info");
	elf_image_free(&im);
}

/* Each case damages one field of a valid ET_DYN image; the stage says
 * which call must then fail (cleanly: negative, with a message). */
enum stage { AT_OPEN, AT_SYMTAB, AT_FUNC, AT_KIND };
struct bad_case {
	const char *what;
	enum stage stage;
};
static const struct bad_case bad_cases[] = {
	{ "bad magic", AT_OPEN },
	{ "ELFCLASS32", AT_OPEN },
	{ "big-endian (foreign byte order)", AT_OPEN },
	{ "bad EI_DATA", AT_OPEN },
	{ "bad EI_VERSION", AT_OPEN },
	{ "e_shoff past end", AT_OPEN },
	{ "e_shoff near UINT64_MAX", AT_OPEN },
	{ "e_shoff misaligned", AT_OPEN },
	{ "e_shentsize wrong", AT_OPEN },
	{ "e_shnum too large", AT_OPEN },
	{ "e_shnum 0 and section 0 count 0", AT_OPEN },
	{ "e_shnum 0 and section 0 count huge", AT_OPEN },
	{ "e_shstrndx out of range", AT_OPEN },
	{ "SHN_XINDEX with bad sh_link", AT_OPEN },
	{ "e_shstrndx names a non-STRTAB section", AT_OPEN },
	{ "section name table not NUL-terminated", AT_OPEN },
	{ "sh_name out of range", AT_OPEN },
	{ "sh_offset past end", AT_OPEN },
	{ "sh_offset+sh_size overflows", AT_OPEN },
	{ "sh_size past end", AT_OPEN },
	{ "e_phoff past end", AT_OPEN },
	{ "e_phnum too large", AT_OPEN },
	{ "e_phentsize wrong", AT_OPEN },
	{ "e_phoff 0 with segments", AT_OPEN },
	{ "p_offset+p_filesz overflows", AT_OPEN },
	{ "p_filesz > p_memsz", AT_OPEN },
	{ "symtab sh_entsize wrong", AT_SYMTAB },
	{ "symtab size not a multiple of the entry size", AT_SYMTAB },
	{ "symtab misaligned", AT_SYMTAB },
	{ "symtab sh_link out of range", AT_SYMTAB },
	{ "symtab sh_link 0", AT_SYMTAB },
	{ "symtab sh_link to non-STRTAB", AT_SYMTAB },
	{ "symbol st_name out of range (relocatable: checked at open)", AT_SYMTAB },
	{ "string table not NUL-terminated", AT_SYMTAB },
	{ "bad symtab makes the function lookup fail", AT_FUNC },
	{ "function vaddr in no segment", AT_FUNC },
	{ "function vaddr near UINT64_MAX", AT_FUNC },
	{ "wrong machine", AT_KIND },
	{ "wrong type", AT_KIND },
	{ "PN_XNUM with count past end", AT_OPEN },
};

static void damage(struct elf_image *im, size_t id)
{
	Elf64_Ehdr *eh = im->eh;
	Elf64_Shdr *sh = im->sh;
	Elf64_Phdr *ph = im->ph;

	switch (id) {
	case 0: im->buf[1] = 'X'; break;
	case 1: im->buf[EI_CLASS] = ELFCLASS32; break;
	case 2: im->buf[EI_DATA] = ELFDATA2MSB; break;
	case 3: im->buf[EI_DATA] = 7; break;
	case 4: im->buf[EI_VERSION] = 0; break;
	case 5: eh->e_shoff = im->size; break;
	case 6: eh->e_shoff = UINT64_MAX - 7; break;
	case 7: eh->e_shoff += 4; break;
	case 8: eh->e_shentsize = 32; break;
	case 9: eh->e_shnum = IMG_NSEC + 1; break;
	case 10: eh->e_shnum = 0; sh[0].sh_size = 0; break;
	case 11: eh->e_shnum = 0; sh[0].sh_size = UINT64_MAX; break;
	case 12: eh->e_shstrndx = IMG_NSEC; break;
	case 13: eh->e_shstrndx = SHN_XINDEX; sh[0].sh_link = 0xfffffff0u; break;
	case 14: eh->e_shstrndx = IMG_TEXT; break;
	case 15: im->buf[sh[IMG_SHSTRTAB].sh_offset + sh[IMG_SHSTRTAB].sh_size - 1] = 'x'; break;
	case 16: sh[IMG_DATA].sh_name = (uint32_t)sh[IMG_SHSTRTAB].sh_size; break;
	case 17: sh[IMG_DATA].sh_offset = im->size + 1; break;
	case 18: sh[IMG_DATA].sh_offset = UINT64_MAX - 4; sh[IMG_DATA].sh_size = 16; break;
	case 19: sh[IMG_DATA].sh_size = im->size; break;
	case 20: eh->e_phoff = im->size + 8; break;
	case 21: eh->e_phnum = 1000; break;
	case 22: eh->e_phentsize = 55; break;
	case 23: eh->e_phoff = 0; break;
	case 24: ph[0].p_offset = UINT64_MAX - 4; ph[0].p_filesz = 16; break;
	case 25: ph[1].p_filesz = ph[1].p_memsz + 1; break;
	case 26: sh[IMG_SYMTAB].sh_entsize = 16; break;
	case 27: sh[IMG_SYMTAB].sh_size -= 1; break;
	case 28: sh[IMG_SYMTAB].sh_offset += 4; sh[IMG_SYMTAB].sh_size -= sizeof(Elf64_Sym); break;
	case 29: sh[IMG_SYMTAB].sh_link = IMG_NSEC; break;
	case 30: sh[IMG_SYMTAB].sh_link = 0; break;
	case 31: sh[IMG_SYMTAB].sh_link = IMG_TEXT; break;
	case 32: im->syms[2].st_name = (uint32_t)sh[IMG_STRTAB].sh_size; eh->e_type = ET_REL; break;
	case 33: im->buf[sh[IMG_STRTAB].sh_offset + sh[IMG_STRTAB].sh_size - 1] = 'x'; break;
	case 34: sh[IMG_SYMTAB].sh_entsize = 0; break;
	case 35: im->syms[2].st_value = 0x7000000; break;
	case 36: im->syms[2].st_value = UINT64_MAX - 2; break;
	case 37: eh->e_machine = EM_AARCH64; break;
	case 38: eh->e_type = ET_EXEC; break;
	case 39: eh->e_phnum = PN_XNUM; sh[0].sh_info = 0xffffffffu; break;
	}
}

static void test_bad_cases(void)
{
	for (size_t id = 0; id < ARRAY_SIZE(bad_cases); id++) {
		const struct bad_case *bc = &bad_cases[id];
		struct elf_image im;
		struct elf_view ev;
		struct elf_symtab st;
		uint64_t off;
		void *copy;
		int r, opened;

		elf_image_build(&im, ET_DYN, EM_X86_64);
		damage(&im, id);
		copy = dup_exact(im.buf, im.size);
		err_clear();
		r = opened = elf_open(&ev, copy, im.size);
		if (!opened && bc->stage == AT_SYMTAB)
			r = elf_symtab(&ev, &ev.shdrs[IMG_SYMTAB], &st);
		if (!opened && bc->stage == AT_FUNC)
			r = elf_func_file_offset(&ev, "func_global", &off);
		if (!opened && bc->stage == AT_KIND)
			r = elf_check_kind(&ev, ET_DYN, EM_X86_64);
		T_OK(r < 0 && err_msg()[0] && (bc->stage == AT_OPEN) == (opened != 0),
		     "corrupt: %s -> %d \"%s\"", bc->what, r, err_msg());
		if (id == 2)
			T_OK(ev.swapped == 1, "corrupt: big-endian sets swapped");
		elf_walk(copy, im.size); /* whatever the damage: no crash */
		free(copy);
		elf_image_free(&im);
	}
}

static void test_small_inputs(void)
{
	static const uint64_t zero[8];
	struct elf_image im;
	struct elf_view ev;
	void *copy;
	int r;

	err_clear();
	T_OK(elf_open(&ev, zero, 0) < 0 && err_msg()[0], "zero-size input refused (%s)", err_msg());
	elf_image_build(&im, ET_DYN, EM_X86_64);
	copy = dup_exact(im.buf, 63);
	err_clear();
	T_OK(elf_open(&ev, copy, 63) < 0 && err_msg()[0], "63-byte input refused (%s)", err_msg());
	free(copy);
	copy = dup_exact(im.buf, 64);
	T_OK(elf_open(&ev, copy, 64) < 0 && err_msg()[0], "header-only input refused (%s)", err_msg());
	free(copy);
	err_clear();
	T_OK(elf_open(&ev, im.buf + 4, im.size - 4) < 0 && err_msg()[0], "misaligned buffer refused (%s)", err_msg());
	T_OK(elf_open(&ev, NULL, 10) < 0, "NULL buffer refused");

	/* Header with no sections and no segments: legal, and empty. */
	copy = dup_exact(im.buf, 64);
	((Elf64_Ehdr *)copy)->e_shoff = 0;
	((Elf64_Ehdr *)copy)->e_shnum = 0;
	((Elf64_Ehdr *)copy)->e_phoff = 0;
	((Elf64_Ehdr *)copy)->e_phnum = 0;
	r = elf_open(&ev, copy, 64);
	T_OK(r == 0 && ev.shnum == 0 && !ev.shdrs && !ev.phdrs && elf_find_sec(&ev, ".text") == NULL,
	     "header-only ELF without tables opens empty");
	free(copy);

	/* Every truncation of a valid image must fail (the section table is
	 * at the end), and none may read past the cut. */
	size_t failed = 0;
	for (size_t len = 0; len < im.size; len++) {
		copy = dup_exact(im.buf, len);
		if (elf_walk(copy, len) < 0 && err_msg()[0])
			failed++;
		free(copy);
	}
	T_OK(failed == im.size, "all %zu truncations refused (%zu did)", im.size, failed);
	elf_image_free(&im);
}

/* Flip every byte of every image kind to a few values and walk the
 * result: only the sanitizers decide this one. */
static void test_byte_flips(void)
{
	static const uint8_t vals[] = { 0x00, 0xff, 0x80, 0x01, 0x7f };
	static const unsigned types[] = { ET_DYN, ET_EXEC, ET_REL };
	size_t walks = 0, opened = 0;

	for (size_t t = 0; t < ARRAY_SIZE(types); t++) {
		struct elf_image im;

		elf_image_build(&im, types[t], EM_X86_64);
		for (size_t i = 0; i < im.size; i++) {
			for (size_t v = 0; v < ARRAY_SIZE(vals); v++) {
				uint8_t *copy = dup_exact(im.buf, im.size);

				copy[i] = vals[v];
				if (elf_walk(copy, im.size) == 0)
					opened++;
				walks++;
				free(copy);
			}
		}
		elf_image_free(&im);
	}
	T_OK(walks > 0, "byte flips: %zu damaged images walked without a crash (%zu still opened)", walks, opened);
}

/* The real thing.  A function of this executable: its file offset must
 * hold the very bytes mapped at its address, and /proc/self/maps must
 * agree on where that file offset is mapped. */
__attribute__((noinline, used)) int corebox_test_target(int x)
{
	return x * 3 + 1;
}

static int maps_file_offset(uintptr_t addr, uint64_t *off)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, pgoff;

		if (sscanf(line, "%lx-%lx %*s %lx", &lo, &hi, &pgoff) == 3 && addr >= lo && addr < hi) {
			*off = addr - lo + pgoff;
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static void check_real_function(const char *path, const char *name, const void *addr, int check_maps)
{
	const void *data;
	size_t size;
	struct elf_view ev;
	uint64_t off = 0, moff = 0;
	int r;

	err_clear();
	r = elf_map_file(path, &data, &size);
	T_OK(r == 0, "elf_map_file %s (%s)", path, err_msg());
	if (r)
		return;
	r = elf_open(&ev, data, size);
	T_OK(r == 0, "elf_open %s (%s)", path, err_msg());
	if (r == 0) {
		r = elf_func_file_offset(&ev, name, &off);
		T_OK(r == 0, "%s: offset of %s = 0x%" PRIx64 " (%s)", path, name, off, r ? err_msg() : "");
		T_OK(r == 0 && off < size && size - off >= 16 && memcmp((const uint8_t *)data + off, addr, 16) == 0,
		     "%s: bytes at that offset are %s's code", path, name);
		if (check_maps)
			T_OK(maps_file_offset((uintptr_t)addr, &moff) && moff == off,
			     "%s: /proc/self/maps maps offset 0x%" PRIx64 " at %s", path, moff, name);
	}
	elf_unmap_file(data, size);
}

#if defined(__thumb__)
#define ARCH_THUMB_BIT 1
#else
#define ARCH_THUMB_BIT 0
#endif

static void test_real_binaries(void)
{
	Dl_info info;

	/* volatile: keep the call, so the function stays as it is in the file. */
	int (*volatile fn)(int) = corebox_test_target;
	T_OK(fn(1) == 4, "target function runs");
	/* (a Thumb function's pointer has bit 0 set; its code starts below) */
	check_real_function("/proc/self/exe", "corebox_test_target",
			    (const void *)((uintptr_t)corebox_test_target & ~(uintptr_t)(ARCH_THUMB_BIT)), 1);

	/* A shared library: whichever one defines getpid (libc). */
	/* dladdr names the symbol as the library's .dynsym does (getpid may
	 * be an alias of __getpid): look that name up. */
	void *addr = dlsym(RTLD_DEFAULT, "getpid");
	if (addr && dladdr(addr, &info) && info.dli_fname && info.dli_sname &&
	    info.dli_saddr == addr && info.dli_fname[0] == '/')
		check_real_function(info.dli_fname, info.dli_sname, addr, 1);
	else
		T_SKIP("shared library check", "getpid not found via dladdr");
}

static void test_map_file(void)
{
	char tmpl[] = "/tmp/corebox-elf-XXXXXX";
	const void *data;
	size_t size;
	int fd;

	err_clear();
	T_OK(elf_map_file("/nonexistent/corebox", &data, &size) == -ENOENT && data == NULL && err_msg()[0],
	     "map missing file: -ENOENT (%s)", err_msg());
	T_OK(elf_map_file("/tmp", &data, &size) < 0 && err_msg()[0], "map a directory refused (%s)", err_msg());
	fd = mkstemp(tmpl);
	if (fd >= 0) {
		T_OK(elf_map_file(tmpl, &data, &size) < 0 && err_msg()[0], "map an empty file refused (%s)", err_msg());
		if (write(fd, "\x7f" "ELF", 4) == 4)
			T_OK(elf_map_file(tmpl, &data, &size) == 0 && size == 4 && memcmp(data, "\x7f" "ELF", 4) == 0,
			     "map a 4-byte file");
		elf_unmap_file(data, size);
		close(fd);
		unlink(tmpl);
	}
}

/* A 32-bit ARM executable (tests/fuzz/corpus/elf/arm32-exec.elf: a Thumb
 * function at 0x10075, an ARM one at 0x1007c, a PT_LOAD of 0x88 bytes at
 * vaddr 0x10000 offset 0) seen through elf_map_file's widened image. */
static void test_elf32(void)
{
	const char *path = "../fuzz/corpus/elf/arm32-exec.elf";
	struct elf_view ev;
	struct elf_symtab st;
	const void *data;
	size_t size;
	uint64_t thumb = 0, arm = 0;
	int r;

	r = elf_map_file(path, &data, &size);
	T_OK(r == 0, "elf_map_file %s (%s)", path, r ? err_msg() : "ok");
	if (r)
		return;
	r = elf_open(&ev, data, size);
	T_OK(r == 0 && ev.ehdr->e_machine == EM_ARM && ev.ehdr->e_ident[EI_CLASS] == ELFCLASS64 && ev.phnum >= 1 &&
		     ev.phdrs[0].p_type == PT_LOAD && ev.phdrs[0].p_vaddr == 0x10000 && ev.phdrs[0].p_filesz == 0x88,
	     "ELF32: widened image opens as EM_ARM, its PT_LOAD widened (%s)", r ? err_msg() : "ok");
	if (r == 0) {
		T_OK(elf_func_file_offset(&ev, "cbx_thumb_fn", &thumb) == 0 && thumb == 0x74,
		     "ELF32: Thumb function at file offset 0x74, the Thumb bit cleared (got 0x%llx)",
		     (unsigned long long)thumb);
		T_OK(elf_func_file_offset(&ev, "cbx_arm_fn", &arm) == 0 && arm == 0x7c,
		     "ELF32: ARM function at file offset 0x7c (got 0x%llx)", (unsigned long long)arm);
		err_clear();
		T_OK(elf_uprobe_func_offset(&ev, "cbx_thumb_fn", &thumb) == -ENOTSUP && strstr(err_msg(), "Thumb"),
		     "ELF32: a uprobe on the Thumb function refused (%s)", err_msg());
		T_OK(elf_uprobe_func_offset(&ev, "cbx_arm_fn", &arm) == 0 && arm == 0x7c &&
			     elf_uprobe_func_offset(&ev, "no_such_fn", &arm) == -ENOENT,
		     "ELF32: a uprobe on the ARM function at 0x7c; an unknown one -ENOENT");
		const Elf64_Shdr *sh = elf_find_sec(&ev, ".symtab");
		T_OK(sh && elf_symtab(&ev, sh, &st) == 0 && st.count > 2, "ELF32: .symtab widened to Elf64_Sym");
	}
	elf_unmap_file(data, size);
	/* cut short: the tables past the end are refused, not read */
	{
		const void *w;
		size_t wsize;
		uint8_t *cut = NULL;
		char *all;
		size_t len;

		if (read_file(path, 1 << 20, &all, &len) == 0 && len > 64) {
			cut = malloc(len);
			memcpy(cut, all, len);
			r = elf32_widen(-1, cut, 60, &w, &wsize);
			T_OK(r < 0 && strstr(err_msg(), "ELF32"), "ELF32 cut to 60 bytes: refused (%s)", err_msg());
			free(cut);
			free(all);
		}
	}
}

int main(void)
{
	test_elf32();
	test_valid(ET_DYN);
	test_valid(ET_EXEC);
	test_valid(ET_REL);
	test_ambiguous_local();
	test_lazy_names();
	test_extended_numbering();
	test_bad_cases();
	test_small_inputs();
	test_byte_flips();
	test_real_binaries();
	test_map_file();
	T_EXIT();
}
