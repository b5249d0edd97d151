/* Generated programs (trace, funccount, ...) entering the object model.
 *
 * An object built here looks to the rest of the loader exactly like one
 * read from an ELF file: one code section per program, maps with the same
 * fields, and a small symbol table whose entries stand for the maps and
 * global variables, so relocation (map fds), load (verifier log), attach
 * (mechanism choice, fallbacks) and close (detach, cleanup) are the same
 * code.  Section numbers are made up: 1 holds the maps, 2 the ".bss"
 * global data, 3+i program i's code. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bpf/insn.h"
#include "lib/err.h"
#include "lib/util.h"
#include "obj_int.h"

#define SEC_MAPS 1
#define SEC_BSS 2
#define SEC_CODE0 3

/* The symbols as they grow (o->gen); o->owned holds the published copy
 * that o->symtab points into: symbols, then names. */
struct gen_syms {
	Elf64_Sym *syms;
	size_t n;
	char *strs;
	size_t slen;
};

static struct gen_syms *gsyms(struct obj *o)
{
	return (struct gen_syms *)o->gen;
}

static void publish_syms(struct obj *o)
{
	struct gen_syms *g = gsyms(o);
	size_t ssz = g->n * sizeof(Elf64_Sym);
	uint8_t *blob = xmalloc(ssz + g->slen + 1);

	memcpy(blob, g->syms, ssz);
	memcpy(blob + ssz, g->strs, g->slen);
	blob[ssz + g->slen] = 0;
	free(o->owned);
	o->owned = blob;
	o->symtab.syms = (const Elf64_Sym *)blob;
	o->symtab.count = g->n;
	o->symtab.strs = (const char *)blob + ssz;
	o->symtab.strs_size = g->slen + 1;
}

static size_t add_sym(struct obj *o, const char *name, int type, size_t sec, uint64_t value, uint64_t size)
{
	struct gen_syms *g = gsyms(o);
	size_t nl = strlen(name) + 1;
	Elf64_Sym *s;

	g->syms = xrealloc(g->syms, (g->n + 1) * sizeof(*g->syms));
	s = &g->syms[g->n];
	memset(s, 0, sizeof(*s));
	s->st_name = (uint32_t)g->slen;
	s->st_info = ELF64_ST_INFO(STB_GLOBAL, type);
	s->st_shndx = (uint16_t)sec;
	s->st_value = value;
	s->st_size = size;
	g->strs = xrealloc(g->strs, g->slen + nl);
	memcpy(g->strs + g->slen, name, nl);
	g->slen += nl;
	g->n++;
	publish_syms(o);
	return g->n - 1;
}

struct obj *obj_new(const char *name)
{
	struct obj *o = xcalloc(1, sizeof(*o));
	struct gen_syms *g = xcalloc(1, sizeof(*g));

	o->name = xstrdup(name);
	o->btf_fd = -1;
	o->gen = g;
	strcpy(o->license, "GPL");
	add_sym(o, "", STT_NOTYPE, 0, 0, 0); /* index 0: the null symbol */
	return o;
}

void obj_gen_free(struct obj *o)
{
	struct gen_syms *g = gsyms(o);

	if (!g)
		return;
	free(g->syms);
	free(g->strs);
	free(g);
	o->gen = NULL;
}

static struct map *new_map(struct obj *o, const char *name, enum map_kind kind)
{
	struct map *m;

	o->maps = xrealloc(o->maps, (o->nr_maps + 1) * sizeof(*o->maps));
	m = &o->maps[o->nr_maps++];
	memset(m, 0, sizeof(*m));
	m->obj = o;
	m->name = xstrdup(name);
	m->kind = kind;
	m->autocreate = true;
	m->fd = -1;
	return m;
}

int obj_new_map(struct obj *o, const char *name, uint32_t type, uint32_t key_size, uint32_t value_size,
		uint32_t max_entries, uint32_t flags)
{
	struct map *m;

	if (o->loaded)
		return err_set(EBUSY, "%s: map %s added after load", o->name, name);
	m = new_map(o, name, MAP_USER);
	m->type = type;
	m->key_size = key_size;
	m->value_size = value_size;
	m->max_entries = max_entries;
	m->flags = flags;
	m->sec = SEC_MAPS;
	m->sec_off = (uint64_t)(o->nr_maps - 1) * 64;
	add_sym(o, name, STT_OBJECT, SEC_MAPS, m->sec_off, 64);
	return (int)(o->nr_maps - 1);
}

/* The ".bss" map: one page-aligned image, grown as variables are added
 * (before load only). */
int obj_new_global(struct obj *o, const char *name, uint32_t size, uint32_t *off)
{
	struct map *m = NULL;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), idx = 0;
	uint32_t at;

	if (o->loaded)
		return err_set(EBUSY, "%s: global %s added after load", o->name, name);
	for (size_t i = 0; i < o->nr_maps; i++)
		if (o->maps[i].kind == MAP_DATA) {
			m = &o->maps[i];
			idx = i;
		}
	if (!m) {
		m = new_map(o, ".bss", MAP_DATA);
		idx = o->nr_maps - 1;
		m->type = BPF_MAP_TYPE_ARRAY;
		m->key_size = 4;
		m->max_entries = 1;
		m->sec = SEC_BSS;
		add_sym(o, ".bss", STT_SECTION, SEC_BSS, 0, 0);
	}
	at = (m->value_size + 7) & ~7u;
	if (at + size > pg)
		return err_set(E2BIG, "%s: global data outgrew a page", o->name);
	if (!m->image) {
		m->image = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (m->image == MAP_FAILED) {
			m->image = NULL;
			return err_sys(errno, "cannot map memory for .bss");
		}
		m->image_size = pg;
	}
	m->value_size = at + size;
	add_sym(o, name, STT_OBJECT, SEC_BSS, at, size);
	*off = at;
	return (int)idx;
}

/* Symbol standing for map idx (a map's own, or .bss's section symbol). */
static size_t map_sym(struct obj *o, int idx)
{
	const struct map *m = &o->maps[idx];
	struct gen_syms *g = gsyms(o);

	for (size_t i = 1; i < g->n; i++) {
		const Elf64_Sym *s = &g->syms[i];

		if (m->kind == MAP_DATA ? (s->st_shndx == SEC_BSS && ELF64_ST_TYPE(s->st_info) == STT_SECTION)
					: (s->st_shndx == SEC_MAPS && s->st_value == m->sec_off))
			return i;
	}
	return 0;
}

int obj_new_prog(struct obj *o, const char *name, const char *sec, const struct bpf_insn *insns, size_t cnt,
		 const struct emit_mapref *refs, size_t nr_refs, const char *label)
{
	struct code_sec *c;
	struct prog *p;
	int err;

	if (o->loaded)
		return err_set(EBUSY, "%s: program %s added after load", o->name, name);
	if (!cnt)
		return err_set(EINVAL, "%s: program %s is empty", o->name, name);
	o->progs = xrealloc(o->progs, (o->nr_progs + 1) * sizeof(*o->progs));
	o->code = xrealloc(o->code, (o->nr_code + 1) * sizeof(*o->code));
	p = &o->progs[o->nr_progs];
	c = &o->code[o->nr_code];
	memset(p, 0, sizeof(*p));
	memset(c, 0, sizeof(*c));
	p->name = xstrdup(name);
	p->sec_name = xstrdup(sec);
	p->label = label ? xstrdup(label) : NULL;
	p->start = 0;
	p->len = cnt;
	p->autoload = true;
	p->fd = p->link_fd = p->perf_fd = -1;
	p->mech = "";
	p->obj = o;
	c->sec = SEC_CODE0 + o->nr_code;
	c->name = p->sec_name;
	c->cnt = cnt;
	c->insns = xmalloc(cnt * sizeof(*c->insns));
	memcpy(c->insns, insns, cnt * sizeof(*c->insns));
	c->relocs = xcalloc(nr_refs ? nr_refs : 1, sizeof(*c->relocs));
	for (size_t i = 0; i < nr_refs; i++) {
		const struct emit_mapref *r = &refs[i];

		if (r->insn + 1 >= cnt || r->map < 0 || (size_t)r->map >= o->nr_maps ||
		    (r->value && o->maps[r->map].kind != MAP_DATA)) {
			free(c->insns);
			free(c->relocs);
			free(p->name);
			free(p->sec_name);
			free(p->label);
			return err_set(EINVAL, "%s: program %s refers to map %d, which it cannot", o->name, name, r->map);
		}
		if (r->value)
			c->insns[r->insn].imm = r->off; /* offset within the data map */
		c->relocs[i].insn = r->insn;
		c->relocs[i].sym = map_sym(o, r->map);
	}
	c->nr_relocs = nr_refs;
	/* relocations sorted by instruction (the emitter appends in order) */
	o->nr_progs++;
	o->nr_code++;
	for (size_t i = 0; i < o->nr_progs; i++)
		o->progs[i].code = &o->code[i];
	if ((err = prog_setup_type(p)) < 0) {
		o->nr_progs--;
		o->nr_code--;
		free(c->insns);
		free(c->relocs);
		free(p->name);
		free(p->sec_name);
		free(p->label);
		free(p->target);
		return err;
	}
	return (int)(o->nr_progs - 1);
}

void prog_set_uprobe_pid(struct prog *p, int pid) { p->upid = pid; }
void prog_set_uprobe_offsets(struct prog *p) { p->by_offsets = true; }
void prog_set_ref_ctr(struct prog *p, uint64_t off) { p->ref_ctr_off = off; }
