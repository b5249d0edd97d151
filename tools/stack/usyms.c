/* User symbols: /proc/PID/maps -> ELF FUNC symbols (elf/), vdso, perf maps. */
#include "tools/stack/usyms.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "crc32.h"
#include "demangle.h"
#include "elf/elf.h"
#include "err.h"
#include "util.h"
#include "xz.h"
#include "lib/scan.h"

/* A MiniDebugInfo image larger than this is left alone (they are tens to
 * hundreds of KB: only function symbols). */
#define MINIDEBUG_MAX (32u << 20)

struct sym {
	uint64_t addr, size;
	const char *name;
};

/* An address of an ELF file named: the symbol at or below it. */
struct uans {
	uint64_t va;           /* the virtual address asked */
	uint64_t sym;          /* its symbol's start */
	const char *name;      /* in the arena; NULL: no symbol covers it */
};

/* One ELF file (or the vdso image), shared by every process mapping it.
 * Its symbols are never loaded: the addresses asked are collected
 * (want), then one pass over its symbol table names them all, touching
 * the table a window at a time and giving the pages back (an index of
 * qemu's or a browser's symbols would cost megabytes). */
struct uelf {
	uint64_t dev, ino;
	const uint8_t *data;
	size_t size;
	int mapped;            /* data is an mmap (else malloc'd or borrowed) */
	int droppable;         /* ... of the file as it is (not a widened
				* 32-bit image): its pages can be given back */
	int ok;                /* ev is valid */
	struct elf_view ev;
	Elf64_Phdr *phdrs;     /* ev.phdrs, their PT_LOADs copied: read for
				* every address, they must not keep the file's
				* first pages in */
	/* The symbol tables read: the file's .symtab when it has functions;
	 * else its .dynsym and, only once an address is asked that no sized
	 * .dynsym function covers, the .symtab of its debug file (separate:
	 * build-id or .gnu_debuglink; or MiniDebugInfo, which leaves out what
	 * .dynsym has), scanned first.  A host with debug packages has
	 * hundreds of them: most stacks never need them. */
	const struct elf_view *tabv[2];
	const Elf64_Shdr *tabs[2];
	int ntabs, sec_known, debug_tried;
	int pid;               /* for the debug file search: its root */
	const char *path;      /* the mapping's path (arena) */
	struct elf_view dv;    /* the debug file, when dok */
	const uint8_t *ddata;
	size_t dsize;
	int dmapped, dok;
	struct elf_gopcln go;  /* a Go binary with no symbols but its pclntab */
	int is_go;
	struct uans *a;        /* sorted by va */
	size_t n, cap;
	uint64_t *want;        /* asked, not named yet */
	size_t nwant, wcap;
	struct uelf *next;
};

/* Names live in blocks that never move (lookups hand out pointers). */
struct block {
	struct block *next;
	size_t used, size;
	char s[];
};

struct umap {
	uint64_t start, end, pgoff, dev, ino;
	const char *path;      /* in proc->paths; NULL: anonymous */
	struct uelf *elf;      /* NULL until first used */
	int loaded, deleted, vdso;
};

struct uproc {
	int pid, bad;
	struct umap *maps;
	size_t n;
	char *paths;           /* the maps text, paths NUL-terminated inside it */
	int perf_loaded;
	struct sym *perf;      /* /tmp/perf-PID.map, sorted */
	size_t nperf;
	char *perf_text;
	char perf_name[32];
	struct uproc *next;
};

#define PROC_BUCKETS 256

struct usyms {
	unsigned flags;
	struct uproc *procs[PROC_BUCKETS];
	struct uproc *last;
	struct uelf *elfs;
	struct uelf *vdso;     /* the kernel's vdso image (one per kernel) */
	struct usyms_stats st;
	struct block *arena;
	char dm[1024];         /* demangling scratch */
};

static const char *keep(struct usyms *us, const char *s, size_t n)
{
	struct block *b = us->arena;
	char *at;

	if (!b || b->used + n + 1 > b->size) {
		size_t size = n + 1 > 4000 ? n + 1 : 4000;

		b = xmalloc(sizeof(*b) + size);
		b->next = us->arena;
		b->used = 0;
		b->size = size;
		us->arena = b;
	}
	at = b->s + b->used;
	memcpy(at, s, n);
	at[n] = 0;
	b->used += n + 1;
	return at;
}

struct usyms *usyms_new(unsigned flags)
{
	struct usyms *us = xcalloc(1, sizeof(*us));

	us->flags = flags;
	return us;
}

static void elf_release(struct uelf *e)
{
	free(e->phdrs);
	if (e->mapped)
		munmap((void *)e->data, e->size);
	else if (e->data && e->dev != (uint64_t)-2)
		free((void *)e->data);
	if (e->dmapped)
		munmap((void *)e->ddata, e->dsize);
	else
		free((void *)e->ddata);
	free(e->a);
	free(e->want);
	free(e);
}

static void proc_free(struct uproc *p)
{
	free(p->maps);
	free(p->paths);
	free(p->perf);
	free(p->perf_text);
	free(p);
}

void usyms_free(struct usyms *us)
{
	if (!us)
		return;
	for (int i = 0; i < PROC_BUCKETS; i++)
		while (us->procs[i]) {
			struct uproc *p = us->procs[i];

			us->procs[i] = p->next;
			proc_free(p);
		}
	while (us->elfs) {
		struct uelf *e = us->elfs;

		us->elfs = e->next;
		elf_release(e);
	}
	if (us->vdso)
		elf_release(us->vdso);
	while (us->arena) {
		struct block *b = us->arena;

		us->arena = b->next;
		free(b);
	}
	free(us);
}

void usyms_forget(struct usyms *us, int pid)
{
	struct uproc **pp = &us->procs[(unsigned)pid % PROC_BUCKETS];

	for (; *pp; pp = &(*pp)->next)
		if ((*pp)->pid == pid) {
			struct uproc *p = *pp;

			*pp = p->next;
			if (us->last == p)
				us->last = NULL;
			proc_free(p);
			us->st.procs--;
			return;
		}
}

void usyms_stats(const struct usyms *us, struct usyms_stats *st)
{
	*st = us->st;
}

/* ---- symbols of one ELF ---- */

static int bind_rank(unsigned char info)
{
	switch (ELF64_ST_BIND(info)) {
	case STB_GLOBAL: return 0;
	case STB_WEAK: return 1;
	default: return 2;
	}
}

/* Is symbol x a better name than y for the addresses above both?  The
 * higher start; at one address the one with a size, the bigger, then
 * GLOBAL over WEAK over LOCAL. */
static int sym_better(const Elf64_Sym *x, const Elf64_Sym *y)
{
	if (x->st_value != y->st_value)
		return x->st_value > y->st_value;
	if (x->st_size != y->st_size)
		return x->st_size > y->st_size;
	return bind_rank(x->st_info) < bind_rank(y->st_info);
}

/* A named function (the name is not read: that would touch the whole
 * string table; offset 0 is the empty name). */
static int is_func(const Elf64_Sym *s)
{
	unsigned t = ELF64_ST_TYPE(s->st_info);

	return (t == STT_FUNC || t == STT_GNU_IFUNC) && s->st_shndx != SHN_UNDEF && s->st_value && s->st_name;
}

/* Give back the pages of [p, p + len) that lie in the file mapped at
 * base (page-aligned). */
static void drop_range(const uint8_t *base, size_t size, const void *p, size_t len)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), b = (uintptr_t)base, lo = (uintptr_t)p;
	uintptr_t hi = lo + len;

	lo = lo > b ? lo & ~(pg - 1) : b;
	hi = hi < b + size ? hi : b + size;
	if (lo < hi)
		madvise((void *)lo, ((hi - lo) + pg - 1) & ~(pg - 1), MADV_DONTNEED);
}

/* Give back the pages of [p, p + len) of e's mapped files.  A file's
 * pages count in our RSS once touched, and a touch maps up to 64 KiB of
 * them at once (the kernel's fault-around), so tables are read a window
 * at a time and given back.  Read-only: they come back from the page
 * cache if touched again; never a malloc'd or widened image, which
 * MADV_DONTNEED would zero or undo. */
static void drop_pages(const struct uelf *e, const void *p, size_t len)
{
	if (e->droppable)
		drop_range(e->data, e->size, p, len);
	if (e->dmapped)
		drop_range(e->ddata, e->dsize, p, len);
}

/* Every page of e's files, after each step that reads them. */
static void elf_rest(const struct uelf *e)
{
	drop_pages(e, e->data, e->size);
	drop_pages(e, e->ddata, e->dsize);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static const struct uans *answer(const struct uelf *e, uint64_t va)
{
	size_t lo = 0, hi = e->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->a[mid].va < va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < e->n && e->a[lo].va == va ? &e->a[lo] : NULL;
}

static void elf_want(struct uelf *e, uint64_t va)
{
	if (!e->ok || answer(e, va))
		return;
	if (e->nwant == e->wcap) {
		if (e->wcap >= 1024) { /* repeats: drop them before growing */
			size_t m = 0;

			qsort(e->want, e->nwant, sizeof(*e->want), cmp_u64);
			for (size_t i = 0; i < e->nwant; i++)
				if (!m || e->want[i] != e->want[m - 1])
					e->want[m++] = e->want[i];
			e->nwant = m;
		}
		if (e->nwant * 2 > e->wcap || !e->wcap) {
			e->wcap = e->wcap ? e->wcap * 2 : 64;
			e->want = xrealloc(e->want, e->wcap * sizeof(*e->want));
		}
	}
	e->want[e->nwant++] = va;
}

/* Over one symbol table: for each wanted address W[i] (sorted), c[i]
 * becomes a copy of the best function starting in (W[i-1], W[i]] of this
 * table and those scanned before (ct[i]: which; st_name 0: none).  The
 * best at or below W[i] is then the best of c[0..i].  Returns the
 * functions seen. */
static size_t elf_scan(const struct uelf *e, const struct elf_symtab *st, int tab, const uint64_t *w,
		       size_t m, Elf64_Sym *c, unsigned char *ct)
{
	const size_t window = 65536 / sizeof(Elf64_Sym);
	size_t funcs = 0;

	for (size_t i = 1; i < st->count; i++) {
		const Elf64_Sym *s = elf_sym(st, i);
		size_t lo = 0, hi = m;

		if (!s)
			break;
		if (i % window == 0)
			drop_pages(e, elf_sym(st, i - window), window * sizeof(Elf64_Sym));
		if (!is_func(s))
			continue;
		funcs++;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (w[mid] < s->st_value)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < m && (!c[lo].st_name || sym_better(s, &c[lo]))) {
			c[lo] = *s; /* a copy: its page is soon given back */
			ct[lo] = (unsigned char)tab;
		}
	}
	drop_pages(e, st->syms, st->count * sizeof(Elf64_Sym));
	return funcs;
}

static const Elf64_Shdr *find_table(const struct elf_view *ev, unsigned type)
{
	for (size_t i = 0; i < ev->shnum; i++) {
		const Elf64_Shdr *sh = elf_shdr(ev, i);

		if (sh && sh->sh_type == type && sh->sh_size)
			return sh;
	}
	return NULL;
}

static void find_debug(struct usyms *us, struct uelf *e);

/* Scans e's tables (tabv/tabs) into c/ct (st filled); *funcs: the
 * functions seen. */
static void scan_tables(const struct uelf *e, struct elf_symtab st[2], const uint64_t *w, size_t m,
		       Elf64_Sym *c, unsigned char *ct, size_t *funcs)
{
	int n = 0;

	memset(c, 0, m * sizeof(*c));
	*funcs = 0;
	for (int i = 0; i < e->ntabs; i++)
		if (elf_symtab(e->tabv[i], e->tabs[i], &st[n]) == 0)
			*funcs += elf_scan(e, &st[n], n, w, m, c, ct), n++;
}

/* Does a sized function cover every address w (c from elf_scan)?  An
 * unsized one (hand-written assembly in .dynsym) is only a guess. */
static int all_covered(const uint64_t *w, size_t m, const Elf64_Sym *c)
{
	const Elf64_Sym *b = NULL;

	for (size_t i = 0; i < m; i++) {
		if (c[i].st_name && (!b || sym_better(&c[i], b)))
			b = &c[i];
		if (!b || !b->st_size || w[i] - b->st_value >= b->st_size)
			return 0;
	}
	return 1;
}

/* The tables that name e's addresses (see struct uelf), the debug file
 * looked for only when the file's own leave one of w unnamed; scans
 * them into c/ct (st filled). */
static void elf_tables(struct usyms *us, struct uelf *e, struct elf_symtab st[2], const uint64_t *w,
		      size_t m, Elf64_Sym *c, unsigned char *ct)
{
	const Elf64_Shdr *sh;
	int first = !e->sec_known;
	size_t f = 0;

	if (first) {
		e->sec_known = 1;
		sh = find_table(&e->ev, SHT_SYMTAB);
		if (sh && elf_symtab(&e->ev, sh, &st[0]) == 0 && (f = elf_scan(e, &st[0], 0, w, m, c, ct))) {
			e->tabv[0] = &e->ev;
			e->tabs[0] = sh;
			e->ntabs = 1;
			e->debug_tried = 1; /* the file's own .symtab: complete */
			us->st.syms += (unsigned)f;
			return;
		}
		if ((sh = find_table(&e->ev, SHT_DYNSYM))) {
			e->tabv[0] = &e->ev;
			e->tabs[0] = sh;
			e->ntabs = 1;
		}
	}
	scan_tables(e, st, w, m, c, ct, &f);
	if (!e->debug_tried && !all_covered(w, m, c)) {
		e->debug_tried = 1;
		find_debug(us, e);
		us->st.debug += e->dok;
		if (e->dok && (sh = find_table(&e->dv, SHT_SYMTAB))) {
			/* first: at one address its names win, as they did */
			e->tabv[1] = e->tabv[0];
			e->tabs[1] = e->tabs[0];
			e->tabv[0] = &e->dv;
			e->tabs[0] = sh;
			e->ntabs++;
			scan_tables(e, st, w, m, c, ct, &f);
		}
	}
	if (first) {
		us->st.syms += (unsigned)f;
		/* a stripped Go binary: its functions are in .gopclntab (a cgo
		 * one's .dynsym has C functions only) */
		if (elf_gopcln(&e->ev, &e->go) == 0)
			e->is_go = 1;
	}
}

/* Name every address wanted in e: one pass over its symbols. */
static void elf_resolve(struct usyms *us, struct uelf *e)
{
	struct elf_symtab st[2];
	Elf64_Sym *c;
	const Elf64_Sym *b = NULL;
	uintptr_t blks[2] = { 0 }, blk;
	unsigned nb = 0;
	unsigned char *ct;
	size_t m = 0;
	const char *best_name = NULL, *go_name = NULL;
	uint64_t go_start = 0;

	if (!e->nwant)
		return;
	qsort(e->want, e->nwant, sizeof(*e->want), cmp_u64);
	for (size_t i = 0; i < e->nwant; i++)
		if ((!m || e->want[i] != e->want[m - 1]) && !answer(e, e->want[i]))
			e->want[m++] = e->want[i];
	e->nwant = 0;
	if (!m)
		return;
	c = xcalloc(m, sizeof(*c));
	ct = xcalloc(m, 1);
	memset(st, 0, sizeof(st));
	elf_tables(us, e, st, e->want, m, c, ct);
	err_clear();
	if (e->n + m > e->cap) {
		e->cap = (e->n + m) * 2;
		e->a = xrealloc(e->a, e->cap * sizeof(*e->a));
	}
	for (size_t i = 0; i < m; i++) {
		struct uans *k = &e->a[e->n++];
		const char *gname;
		uint64_t gstart;

		if (c[i].st_name && (!b || sym_better(&c[i], b))) {
			const char *name = elf_sym_name(&st[ct[i]], &c[i]), *dm;

			b = &c[i];
			dm = us->flags & USYMS_RAW_NAMES ? NULL : demangle(name, us->dm, sizeof(us->dm));
			best_name = dm ? keep(us, dm, strlen(dm)) : keep(us, name, strlen(name));
			/* copied: a pass naming thousands would map the whole
			 * table, so only the last 2 64 KiB blocks read stay */
			blk = (uintptr_t)name & ~(uintptr_t)0xffff;
			if (blk != blks[0] && blk != blks[1]) {
				drop_pages(e, (const void *)blks[nb % 2], blks[nb % 2] ? 0x10000 : 0);
				blks[nb++ % 2] = blk;
			}
		}
		k->va = e->want[i];
		k->sym = b ? b->st_value : 0;
		/* a sized symbol covers only its size */
		k->name = b && !(b->st_size && e->want[i] - b->st_value >= b->st_size) ? best_name : NULL;
		/* Go's table names Go code; symbols what it does not (cgo's C) */
		if (e->is_go && elf_gopcln_find(&e->go, k->va, &gname, &gstart) == 0) {
			if (!go_name || gstart != go_start)
				go_name = keep(us, gname, strlen(gname));
			k->sym = go_start = gstart;
			k->name = go_name;
			drop_pages(e, e->go.tab, e->go.size); /* searched: pages all over it */
		}
	}
	elf_rest(e);
	qsort(e->a, e->n, sizeof(*e->a), cmp_u64); /* va is the first member */
	free(c);
	free(ct);
}

static const struct sym *sym_find(const struct sym *v, size_t n, uint64_t addr, int need_size)
{
	size_t lo = 0, hi = n;

	if (!n || addr < v[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (v[lo].size ? addr - v[lo].addr >= v[lo].size : need_size)
		return NULL;
	return &v[lo];
}

/* file offset -> virtual address through the PT_LOAD holding it */
static uint64_t off_to_vaddr(const struct uelf *e, uint64_t off)
{
	for (size_t i = 0; i < e->ev.phnum; i++) {
		const Elf64_Phdr *ph = &e->ev.phdrs[i];

		if (ph->p_type == PT_LOAD && off >= ph->p_offset && off - ph->p_offset < ph->p_memsz)
			return off - ph->p_offset + ph->p_vaddr;
	}
	return off;
}

/* ---- separate debug files ---- */

/* Map path as e's debug file: a regular ELF file with a symbol table,
 * not e itself, whose CRC-32 is crc when check is set. */
static int debug_try(struct uelf *e, const char *path, int check, uint32_t crc)
{
	struct stat sb;
	void *m;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) || sb.st_size < (off_t)sizeof(Elf64_Ehdr) ||
	    ((uint64_t)sb.st_dev == e->dev && (uint64_t)sb.st_ino == e->ino)) {
		close(fd);
		return 0;
	}
	m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return 0;
	e->ddata = m;
	e->dsize = (size_t)sb.st_size;
	e->dmapped = 1;
	if (check) { /* the whole file is read once: its pages go back as read */
		uint32_t sum = 0;

		for (size_t at = 0, w; at < e->dsize; at += w) {
			w = e->dsize - at < (256u << 10) ? e->dsize - at : 256u << 10;
			sum = crc32_update(sum, (const uint8_t *)m + at, w);
			drop_pages(e, (const uint8_t *)m + at, w);
		}
		if (sum != crc)
			goto no;
	}
	if (elf_open(&e->dv, m, e->dsize) == 0 && find_table(&e->dv, SHT_SYMTAB)) {
		e->dok = 1;
		return 1;
	}
no:
	err_clear();
	munmap(m, e->dsize);
	e->ddata = NULL;
	e->dmapped = 0;
	memset(&e->dv, 0, sizeof(e->dv));
	return 0;
}

/* path as the process sees it (under /proc/PID/root), else on the host */
static int debug_try_rooted(void *ctx, const char *path, int check, uint32_t crc)
{
	struct uelf *e = ctx;
	char p[4200];

	snprintf(p, sizeof(p), "/proc/%d/root%s", e->pid, path);
	return debug_try(e, p, check, crc) || debug_try(e, path, check, crc);
}

/* Look for e's symbols elsewhere, as gdb does: /usr/lib/debug/.build-id/
 * xx/yyyy.debug; the .gnu_debuglink name (CRC-checked) next to the file,
 * in its .debug/ and under /usr/lib/debug/DIR; each in the process's root
 * first. */
static void find_debug(struct usyms *us, struct uelf *e)
{
	const Elf64_Shdr *sh;
	const void *data;
	size_t len;

	if (!e->ok || !e->path || e->dok)
		return;
	if (elf_debug_files(&e->ev, e->path, debug_try_rooted, e))
		return;
	/* MiniDebugInfo: an xz-compressed ELF holding a .symtab of the
	 * functions .dynsym lacks (Fedora, CentOS) */
	sh = elf_find_sec(&e->ev, ".gnu_debugdata");
	if (sh && elf_sec_data(&e->ev, sh, &data, &len) == 0 && data) {
		uint8_t *img;
		size_t n;

		if (xz_decode(data, len, &img, &n, MINIDEBUG_MAX) == 0) {
			if (elf_open(&e->dv, img, n) == 0 && find_table(&e->dv, SHT_SYMTAB)) {
				e->ddata = img;
				e->dsize = n;
				e->dok = 1;
			} else {
				memset(&e->dv, 0, sizeof(e->dv));
				free(img);
			}
		}
		us->st.minidebug += e->dok;
	}
	err_clear();
}

/* ---- loading files ---- */

static struct uelf *elf_from_fd(struct usyms *us, int fd, uint64_t dev, uint64_t ino)
{
	struct stat st;
	struct uelf *e;
	const void *m;
	size_t msize;

	/* (an ELF32 header is 52 bytes; 32-bit files are widened) */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(Elf32_Ehdr) ||
	    elf_map_fd(fd, "", &m, &msize) < 0) {
		err_clear();
		return NULL;
	}
	e = xcalloc(1, sizeof(*e));
	e->dev = dev;
	e->ino = ino;
	e->data = m;
	e->size = msize;
	e->mapped = 1;
	e->droppable = msize == (size_t)st.st_size;
	e->ok = elf_open(&e->ev, e->data, e->size) == 0;
	if (e->ok) { /* the PT_LOAD ones: all off_to_vaddr reads (bounded) */
		size_t n = 0;

		e->phdrs = xmalloc(16 * sizeof(*e->phdrs));
		for (size_t i = 0; i < e->ev.phnum && n < 16; i++)
			if (e->ev.phdrs[i].p_type == PT_LOAD)
				e->phdrs[n++] = e->ev.phdrs[i];
		e->ev.phdrs = e->phdrs;
		e->ev.phnum = n;
	}
	elf_rest(e);
	err_clear();
	us->st.elf_loads++;
	return e;
}

static int open_checked(const char *path, uint64_t dev, uint64_t ino, int strict)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (strict && (fstat(fd, &st) < 0 || st.st_ino != ino || (uint64_t)st.st_dev != dev)) {
		close(fd);
		return -1;
	}
	return fd;
}

static struct uelf *elf_for_file(struct usyms *us, int pid, const struct umap *m)
{
	char path[4200];
	struct uelf *e;
	int fd;

	for (e = us->elfs; e; e = e->next)
		if (e->dev == m->dev && e->ino == m->ino)
			return e;
	/* map_files: the very file mapped, even when deleted or replaced */
	snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx", pid,
		 (unsigned long long)m->start, (unsigned long long)m->end);
	fd = open_checked(path, 0, 0, 0);
	if (fd < 0 && !m->deleted) {
		/* the inode must match: the path may name a newer file.
		 * (overlayfs reports other numbers: accept then the last try) */
		snprintf(path, sizeof(path), "/proc/%d/root%s", pid, m->path);
		fd = open_checked(path, m->dev, m->ino, 1);
		if (fd < 0)
			fd = open_checked(m->path, m->dev, m->ino, 1);
		if (fd < 0)
			fd = open_checked(path, 0, 0, 0);
	}
	if (fd < 0)
		e = xcalloc(1, sizeof(*e));  /* remember the failure */
	else {
		e = elf_from_fd(us, fd, m->dev, m->ino);
		close(fd);
		if (!e)
			e = xcalloc(1, sizeof(*e));
	}
	e->dev = m->dev;
	e->ino = m->ino;
	e->pid = pid;
	e->path = keep(us, m->path, strlen(m->path));
	e->next = us->elfs;
	us->elfs = e;
	us->st.elfs++;
	return e;
}

/* The vdso is the same image in every process of one kernel (64-bit). */
static struct uelf *elf_for_vdso(struct usyms *us, int pid, const struct umap *m)
{
	struct uelf *e;
	char path[64];
	size_t len = (size_t)(m->end - m->start);
	uint8_t *buf;
	int fd;

	if (us->vdso)
		return us->vdso;
	e = xcalloc(1, sizeof(*e));
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = len && len <= (64u << 10) ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd >= 0) {
		buf = xmalloc(len);
		if (pread(fd, buf, len, (off_t)m->start) == (ssize_t)len) {
			e->data = buf;
			e->size = len;
		} else {
			free(buf);
		}
		close(fd);
	}
	if (!e->data) {
		/* ours: the ELF image at AT_SYSINFO_EHDR, as long as its
		 * headers say (section headers sit at the end) */
		const Elf64_Ehdr *eh = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);

		if (eh && !memcmp(eh->e_ident, ELFMAG, SELFMAG)) {
			e->data = (const uint8_t *)eh;
			e->size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
			e->dev = (uint64_t)-2;  /* borrowed: not freed */
		}
	}
	if (e->data) {
		e->ok = elf_open(&e->ev, e->data, e->size) == 0;
		err_clear();
		us->st.elf_loads++;
	}
	us->vdso = e;
	us->st.elfs++;
	return e;
}

/* ---- processes ---- */

static int proc_load(struct uproc *p)
{
	char path[64], *text, *line, *next;
	size_t len, cap = 0;
	int err;

	snprintf(path, sizeof(path), "/proc/%d/maps", p->pid);
	err = read_file(path, 64u << 20, &text, &len);
	if (err)
		return err;
	p->paths = text;
	for (line = text; line && *line; line = next) {
		unsigned long long start, end, pgoff, ino;
		unsigned maj, min;
		char perms[8];
		int pos = 0;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (str_scan(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
			   &maj, &min, &ino, &pos) < 7 || !pos)
			continue;
		if (!strchr(perms, 'x') || end <= start)
			continue;
		if (p->n == cap) {
			cap = cap ? cap * 2 : 32;
			p->maps = xrealloc(p->maps, cap * sizeof(*p->maps));
		}
		struct umap *m = &p->maps[p->n++];
		char *name = line + pos;

		memset(m, 0, sizeof(*m));
		m->start = start;
		m->end = end;
		m->pgoff = pgoff;
		m->dev = makedev(maj, min);
		m->ino = ino;
		if (*name) {
			size_t l = strlen(name);

			if (l > 10 && !strcmp(name + l - 10, " (deleted)")) {
				name[l - 10] = 0;
				m->deleted = 1;
			}
			m->path = name;
			m->vdso = !strcmp(name, "[vdso]");
			if (*name != '/' && !m->vdso)
				m->loaded = 1;  /* [vsyscall], [uprobes]...: no ELF */
		} else {
			m->loaded = 1;          /* anonymous: JIT code, perf map */
		}
	}
	/* keep the executable mappings' paths only, not the whole text */
	{
		size_t need = 1, at = 0;
		char *keep;

		for (size_t i = 0; i < p->n; i++)
			if (p->maps[i].path && (!i || !p->maps[i - 1].path || strcmp(p->maps[i].path, p->maps[i - 1].path)))
				need += strlen(p->maps[i].path) + 1;
		keep = xmalloc(need);
		for (size_t i = 0; i < p->n; i++) {
			struct umap *m = &p->maps[i];

			if (!m->path)
				continue;
			if (i && p->maps[i - 1].path && !strcmp(m->path, p->maps[i - 1].path)) {
				m->path = p->maps[i - 1].path; /* same file: one copy */
				continue;
			}
			strcpy(keep + at, m->path);
			m->path = keep + at;
			at += strlen(keep + at) + 1;
		}
		free(text);
		p->paths = keep;
		p->maps = p->n ? xrealloc(p->maps, p->n * sizeof(*p->maps)) : p->maps;
	}
	return 0;
}

static struct uproc *proc_get(struct usyms *us, int pid)
{
	struct uproc *p;

	if (us->last && us->last->pid == pid)
		return us->last;
	for (p = us->procs[(unsigned)pid % PROC_BUCKETS]; p; p = p->next)
		if (p->pid == pid)
			return us->last = p;
	p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	if (pid <= 0 || proc_load(p) < 0)
		p->bad = 1;
	p->next = us->procs[(unsigned)pid % PROC_BUCKETS];
	us->procs[(unsigned)pid % PROC_BUCKETS] = p;
	us->st.procs++;
	return us->last = p;
}

static int perf_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

static int nspid(int pid)
{
	char path[64], *s, *l;
	int last = pid;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (read_file(path, 1u << 20, &s, NULL) < 0)
		return pid;
	l = strstr(s, "\nNSpid:");
	if (l) {
		char *e;

		for (l += 7;; l = e) {
			long v = strtol(l, &e, 10);

			if (e == l)
				break;
			last = (int)v;
		}
	}
	free(s);
	return last;
}

static void perf_load(struct usyms *us, struct uproc *p)
{
	char path[96], *text = NULL, *line, *next;
	size_t cap = 0;
	int np;

	p->perf_loaded = 1;
	if (us->flags & USYMS_NO_PERFMAP)
		return;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", p->pid);
	if (read_file(path, 256u << 20, &text, NULL) < 0) {
		np = nspid(p->pid);
		snprintf(path, sizeof(path), "/proc/%d/root/tmp/perf-%d.map", p->pid, np);
		if (read_file(path, 256u << 20, &text, NULL) < 0) {
			err_clear();
			return;
		}
	}
	snprintf(p->perf_name, sizeof(p->perf_name), "perf-%d.map", p->pid);
	p->perf_text = text;
	for (line = text; *line; line = next) {
		unsigned long long start, size;
		char *e1, *e2;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		else
			next = line + strlen(line);
		start = strtoull(line, &e1, 16);
		if (e1 == line || *e1 != ' ')
			continue;
		size = strtoull(e1 + 1, &e2, 16);
		if (e2 == e1 + 1 || *e2 != ' ' || !e2[1])
			continue;
		if (p->nperf == cap) {
			cap = cap ? cap * 2 : 256;
			p->perf = xrealloc(p->perf, cap * sizeof(*p->perf));
		}
		p->perf[p->nperf].addr = start;
		p->perf[p->nperf].size = size;
		p->perf[p->nperf].name = e2 + 1;
		p->nperf++;
	}
	/* by address; for one address the later line (re-emitted code) sorts
	 * last, which is the one sym_find() lands on */
	if (p->nperf)
		qsort(p->perf, p->nperf, sizeof(*p->perf), perf_cmp);
}

/* The executable mapping of p holding addr, or NULL. */
static struct umap *map_find(struct uproc *p, uint64_t addr)
{
	size_t lo = 0, hi = p->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < p->maps[mid].start)
			hi = mid;
		else if (addr >= p->maps[mid].end)
			lo = mid + 1;
		else
			return &p->maps[mid];
	}
	return NULL;
}

/* The ELF behind a file mapping (opened on first use), or NULL. */
static struct uelf *map_elf(struct usyms *us, int pid, struct umap *m)
{
	if (!m->loaded) {
		m->loaded = 1;
		m->elf = m->vdso ? elf_for_vdso(us, pid, m) : elf_for_file(us, pid, m);
	}
	return m->elf && m->elf->ok ? m->elf : NULL;
}

void usyms_want(struct usyms *us, int pid, uint64_t addr)
{
	struct uproc *p = proc_get(us, pid);
	struct umap *m;
	struct uelf *e;

	if (p->bad || !(m = map_find(p, addr)) || !m->path || !(e = map_elf(us, pid, m)))
		return;
	elf_want(e, off_to_vaddr(e, addr - m->start + m->pgoff));
}

void usyms_resolve(struct usyms *us)
{
	for (struct uelf *e = us->elfs; e; e = e->next)
		elf_resolve(us, e);
	if (us->vdso)
		elf_resolve(us, us->vdso);
}

int usyms_lookup(struct usyms *us, int pid, uint64_t addr, struct usym *out)
{
	struct uproc *p = proc_get(us, pid);
	const struct sym *s;
	struct umap *m;
	struct uelf *e;

	memset(out, 0, sizeof(*out));
	if (p->bad)
		return -ESRCH;
	m = map_find(p, addr);
	if (m && m->path) {
		out->module = m->path;
		out->file_off = addr - m->start + m->pgoff;
		if ((e = map_elf(us, pid, m))) {
			uint64_t va = off_to_vaddr(e, out->file_off);
			const struct uans *k = answer(e, va);

			if (!k) { /* not asked before: a pass for it alone */
				elf_want(e, va);
				elf_resolve(us, e);
				k = answer(e, va);
			}
			if (k && k->name) {
				out->name = k->name;
				out->offset = va - k->sym;
				return 0;
			}
		}
		if (*m->path == '/' || m->vdso)
			return -ENOENT;
	}
	if (!p->perf_loaded)
		perf_load(us, p);
	s = sym_find(p->perf, p->nperf, addr, 1);
	if (s) {
		out->name = s->name;
		out->module = p->perf_name;
		out->offset = addr - s->addr;
		out->file_off = 0;
		return 0;
	}
	return -ENOENT;
}

char *usyms_format(struct usyms *us, int pid, uint64_t addr, int with_offset, int with_module,
		   char *buf, size_t size)
{
	struct usym u;

	/* names from the traced binaries: escaped as every text column
	 * (a symbol may hold ESC or a newline: printable ones are unchanged) */
	if (usyms_lookup(us, pid, addr, &u) == 0) {
		size_t n = strlen(str_escape(buf, size, u.name, NULL));

		if (with_offset)
			snprintf(buf + n, size - n, "+0x%llx", (unsigned long long)u.offset);
	} else if (with_module && u.module) {
		const char *b = strrchr(u.module, '/');
		char m[256];

		snprintf(buf, size, "[unknown] (%s)", str_escape(m, sizeof(m), b ? b + 1 : u.module, NULL));
	} else {
		snprintf(buf, size, "[unknown]");
	}
	return buf;
}
