/* obj_open: from ELF bytes to programs, maps, externs and relocations.
 * Nothing here talks to the kernel. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <stdio.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/inflate.h"
#include "lib/util.h"
#include "lib/scan.h"
#include "obj_int.h"

static const Elf64_Sym *sym_at(const struct obj *o, size_t i)
{
	return elf_sym(&o->symtab, i);
}

struct code_sec *obj_code_sec(struct obj *o, size_t sec)
{
	for (size_t i = 0; i < o->nr_code; i++)
		if (o->code[i].sec == sec)
			return &o->code[i];
	return NULL;
}

static int cmp_reloc(const void *a, const void *b)
{
	const struct sec_reloc *x = a, *y = b;

	return x->insn < y->insn ? -1 : x->insn > y->insn;
}

/* Copy every executable section's instructions (CO-RE patches the copy). */
static int collect_code(struct obj *o)
{
	for (size_t i = 1; i < o->ev.shnum; i++) {
		const Elf64_Shdr *sh = elf_shdr(&o->ev, i);
		const void *data;
		size_t size;
		struct code_sec *c;

		if (sh->sh_type != SHT_PROGBITS || !(sh->sh_flags & SHF_EXECINSTR) || !sh->sh_size)
			continue;
		if (elf_sec_data(&o->ev, sh, &data, &size) < 0)
			return -EINVAL;
		if (size % sizeof(struct bpf_insn))
			return err_set(EINVAL, "section %s: size %zu is not a multiple of 8",
				       elf_sec_name(&o->ev, sh), size);
		o->code = xrealloc(o->code, (o->nr_code + 1) * sizeof(*o->code));
		c = &o->code[o->nr_code++];
		memset(c, 0, sizeof(*c));
		c->sec = i;
		c->name = elf_sec_name(&o->ev, sh);
		c->cnt = size / sizeof(struct bpf_insn);
		c->insns = xmalloc(size);
		memcpy(c->insns, data, size);
	}
	return 0;
}

/* REL sections for code: record (instruction, symbol) pairs. */
static int collect_relocs(struct obj *o)
{
	for (size_t i = 1; i < o->ev.shnum; i++) {
		const Elf64_Shdr *sh = elf_shdr(&o->ev, i);
		const Elf64_Rel *rels;
		struct code_sec *c;
		const void *data;
		size_t size, n;

		if (sh->sh_type != SHT_REL)
			continue;
		c = obj_code_sec(o, sh->sh_info);
		if (!c)
			continue; /* .rel.BTF*, .rel.maps...: not needed */
		if (elf_sec_data(&o->ev, sh, &data, &size) < 0)
			return -EINVAL;
		if (sh->sh_entsize != sizeof(Elf64_Rel) || size % sizeof(Elf64_Rel))
			return err_set(EINVAL, "relocation section %s has entry size %llu, want %zu",
				       elf_sec_name(&o->ev, sh), (unsigned long long)sh->sh_entsize,
				       sizeof(Elf64_Rel));
		rels = data; /* read with memcpy: a damaged file may misalign it */
		n = size / sizeof(Elf64_Rel);
		c->relocs = xrealloc(c->relocs, (c->nr_relocs + n) * sizeof(*c->relocs));
		for (size_t k = 0; k < n; k++) {
			Elf64_Rel rel;
			uint64_t off;
			size_t symi;

			memcpy(&rel, (const char *)rels + k * sizeof(rel), sizeof(rel));
			off = rel.r_offset;
			symi = ELF64_R_SYM(rel.r_info);

			if (off % 8 || off / 8 >= c->cnt)
				return err_set(EINVAL, "section %s: relocation #%zu at offset %llu is outside the code",
					       c->name, k, (unsigned long long)off);
			if (!sym_at(o, symi))
				return err_set(EINVAL, "section %s: relocation #%zu names symbol %zu of %zu",
					       c->name, k, symi, o->symtab.count);
			c->relocs[c->nr_relocs].insn = off / 8;
			c->relocs[c->nr_relocs].sym = symi;
			c->nr_relocs++;
		}
		qsort(c->relocs, c->nr_relocs, sizeof(*c->relocs), cmp_reloc);
	}
	return 0;
}

/* Entry programs: global FUNC symbols in executable sections other than
 * .text (.text holds subprograms only). */
static int collect_progs(struct obj *o)
{
	for (size_t i = 0; i < o->symtab.count; i++) {
		const Elf64_Sym *s = sym_at(o, i);
		struct code_sec *c;
		struct prog *p;

		if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx == SHN_UNDEF ||
		    s->st_shndx >= SHN_LORESERVE)
			continue;
		c = obj_code_sec(o, s->st_shndx);
		if (!c || !strcmp(c->name, ".text"))
			continue;
		if (s->st_value % 8 || s->st_size % 8 || !s->st_size ||
		    s->st_value / 8 > c->cnt || s->st_size / 8 > c->cnt - s->st_value / 8)
			return err_set(EINVAL, "program %s lies outside its section %s",
				       elf_sym_name(&o->symtab, s), c->name);
		if (ELF64_ST_BIND(s->st_info) == STB_LOCAL)
			return err_set(EINVAL, "program %s in %s is static: entry programs must be global",
				       elf_sym_name(&o->symtab, s), c->name);
		o->progs = xrealloc(o->progs, (o->nr_progs + 1) * sizeof(*o->progs));
		p = &o->progs[o->nr_progs++];
		memset(p, 0, sizeof(*p));
		p->name = xstrdup(elf_sym_name(&o->symtab, s));
		p->sec_name = xstrdup(c->name);
		p->start = s->st_value / 8;
		p->len = s->st_size / 8;
		p->autoload = true;
		p->fd = p->link_fd = p->perf_fd = -1;
		p->mech = "";
	}
	/* code pointers last: o->code no longer moves */
	for (size_t i = 0; i < o->nr_progs; i++) {
		struct prog *p = &o->progs[i];

		p->obj = o;
		for (size_t k = 0; k < o->nr_code; k++)
			if (!strcmp(o->code[k].name, p->sec_name))
				p->code = &o->code[k];
		if (prog_setup_type(p) < 0)
			return -EINVAL;
	}
	if (!o->nr_progs)
		return err_set(EINVAL, "object has no BPF programs");
	return 0;
}

/* clang leaves DATASEC sizes and VAR offsets zero: fill them in from the
 * ELF section sizes and symbol values (the kernel checks them). */
static int fixup_datasecs(struct obj *o)
{
	uint32_t n = btf_nr_types(o->btf);

	for (uint32_t id = 1; id < n; id++) {
		struct btf_type *t = btf_type_mut(o->btf, id);
		const Elf64_Shdr *sh;
		struct btf_var_secinfo *vs;
		const char *sname;

		if (!t || btf_kind(t) != BTF_KIND_DATASEC)
			continue;
		sname = btf_name(o->btf, t);
		if (!strcmp(sname, ".kconfig") || !strcmp(sname, ".ksyms"))
			continue; /* laid out by externs_collect */
		sh = elf_find_sec(&o->ev, sname);
		if (!sh)
			continue;
		if (!t->size)
			t->size = (uint32_t)sh->sh_size;
		vs = btf_secinfos(t);
		for (uint32_t k = 0; k < btf_vlen(t); k++) {
			const struct btf_type *v = btf_type_by_id(o->btf, vs[k].type);
			const char *vname;

			if (!v || btf_kind(v) != BTF_KIND_VAR)
				continue;
			vname = btf_name(o->btf, v);
			for (size_t si = 0; si < o->symtab.count; si++) {
				const Elf64_Sym *s = sym_at(o, si);

				if (s->st_shndx != elf_sec_idx(&o->ev, sh) ||
				    strcmp(elf_sym_name(&o->symtab, s), vname))
					continue;
				if (s->st_value > sh->sh_size)
					return err_set(EINVAL, "variable %s lies outside %s", vname, sname);
				vs[k].offset = (uint32_t)s->st_value;
				break;
			}
		}
	}
	return 0;
}

static uint32_t kernel_version_code(void)
{
	struct utsname u;
	unsigned a = 0, b = 0, c = 0;

	if (uname(&u) < 0 || str_scan(u.release, "%u.%u.%u", &a, &b, &c) < 2)
		return 0;
	return (a << 16) | (b << 8) | (c > 255 ? 255 : c);
}

static int parse(struct obj *o)
{
	const Elf64_Shdr *sh;
	const void *data;
	size_t size;
	int err;

	if ((err = elf_open(&o->ev, o->data, o->size)) < 0)
		return err;
	if (o->ev.swapped)
		return err_set(ENOTSUP, "object is for the other byte order");
	if (o->ev.ehdr->e_type != ET_REL || o->ev.ehdr->e_machine != EM_BPF)
		return err_set(EINVAL, "not a BPF object (type %u, machine %u)",
			       o->ev.ehdr->e_type, o->ev.ehdr->e_machine);
	sh = NULL;
	for (size_t i = 1; i < o->ev.shnum; i++)
		if (elf_shdr(&o->ev, i)->sh_type == SHT_SYMTAB) {
			if (sh)
				return err_set(EINVAL, "object has more than one symbol table");
			sh = elf_shdr(&o->ev, i);
		}
	if (!sh)
		return err_set(EINVAL, "object has no symbol table");
	if ((err = elf_symtab(&o->ev, sh, &o->symtab)) < 0)
		return err;

	sh = elf_find_sec(&o->ev, "license");
	if (sh && elf_sec_data(&o->ev, sh, &data, &size) == 0 && data) {
		size = size < sizeof(o->license) - 1 ? size : sizeof(o->license) - 1;
		memcpy(o->license, data, size);
		o->license[size] = 0;
	} else {
		strcpy(o->license, "GPL");
	}
	o->kern_version = kernel_version_code();

	sh = elf_find_sec(&o->ev, ".BTF");
	if (sh) {
		if ((err = elf_sec_data(&o->ev, sh, &data, &size)) < 0 || !data)
			return err ? err : err_set(EINVAL, ".BTF has no data");
		o->btf = btf_new(data, size, 1, NULL);
		if (!o->btf)
			return err_prefix(-EINVAL, ".BTF");
		sh = elf_find_sec(&o->ev, ".BTF.ext");
		if (sh) {
			if ((err = elf_sec_data(&o->ev, sh, &data, &size)) < 0 || !data)
				return err ? err : err_set(EINVAL, ".BTF.ext has no data");
			if ((err = btf_ext_parse(&o->ext, data, size, o->btf)) < 0)
				return err_prefix(err, ".BTF.ext");
			o->has_ext = true;
		}
	}
	if ((err = collect_code(o)) < 0 || (err = collect_relocs(o)) < 0)
		return err;
	if (o->btf && (err = fixup_datasecs(o)) < 0)
		return err;
	if ((err = collect_progs(o)) < 0 || (err = maps_collect(o)) < 0 ||
	    (err = externs_collect(o)) < 0)
		return err;
	return 0;
}

struct obj *obj_open(const char *name, const void *elf, size_t size)
{
	return obj_open_dict(name, elf, size, NULL, 0);
}

struct obj *obj_open_dict(const char *name, const void *elf, size_t size, const void *dict, size_t dict_len)
{
	struct obj *o = xcalloc(1, sizeof(*o));
	int err;

	o->name = xstrdup(name);
	o->data = elf;
	o->size = size;
	if ((size >= 2 && o->data[0] == 0x1f && o->data[1] == 0x8b) || cbz_is(elf, size)) {
		/* embedded objects are packed (cbz, against a dictionary they
		 * share) to keep the binary small; gzip'd ones are taken too */
		char *raw;
		size_t len;

		if (cbz_is(elf, size))
			err = cbz_unpack(elf, size, dict, dict_len, &raw, &len, 64u << 20);
		else
			err = gunzip(elf, size, &raw, &len, 64u << 20);
		if (err < 0) {
			err_prefix(err, "BPF object %s", name);
			obj_close(o);
			return NULL;
		}
		o->owned = (uint8_t *)raw;
		o->data = o->owned;
		o->size = len;
	}
	o->btf_fd = -1;
	err = parse(o);
	if (err < 0) {
		err_prefix(err, "BPF object %s", name);
		obj_close(o);
		return NULL;
	}
	return o;
}

struct prog *obj_prog(const struct obj *o, const char *name)
{
	for (size_t i = 0; i < o->nr_progs; i++)
		if (!strcmp(o->progs[i].name, name))
			return &o->progs[i];
	err_set(ENOENT, "%s: no program named %s", o->name, name);
	return NULL;
}

struct prog *obj_prog_at(const struct obj *o, size_t i)
{
	return i < o->nr_progs ? &o->progs[i] : NULL;
}

void prog_set_autoload(struct prog *p, bool on) { if (p) p->autoload = on; }
bool prog_autoload(const struct prog *p) { return p->autoload; }
const char *prog_name(const struct prog *p) { return p->name; }
const char *prog_section(const struct prog *p) { return p->sec_name; }
enum attach_kind prog_kind(const struct prog *p) { return p->kind; }
const char *prog_target(const struct prog *p) { return p->target ? p->target : ""; }
int prog_fd(const struct prog *p) { return p->fd; }
const char *prog_load_error(const struct prog *p) { return p->load_err; }
const char *prog_verifier_log(const struct prog *p) { return p->vlog; }
const char *prog_mechanism(const struct prog *p) { return p->mech; }

struct prog *prog_clone(struct prog *p, const char *name, const char *target)
{
	struct obj *o = p->obj;
	size_t i = (size_t)(p - o->progs);
	struct prog *q;

	if (o->loaded || !p->target) {
		err_set(EBUSY, "program %s: only an unloaded program with a target is cloned", p->name);
		return NULL;
	}
	o->progs = xrealloc(o->progs, (o->nr_progs + 1) * sizeof(*o->progs));
	q = &o->progs[o->nr_progs++];
	*q = o->progs[i]; /* before load: the only heap parts are the strings */
	q->name = xstrdup(name);
	q->sec_name = xstrdup(q->sec_name);
	q->target = xstrdup(target);
	q->label = q->label ? xstrdup(q->label) : NULL;
	return q;
}

int prog_set_attach_target(struct prog *p, const char *target)
{
	if (p->obj->loaded)
		return err_set(EBUSY, "program %s: attach target must be set before load", p->name);
	free(p->target);
	p->target = xstrdup(target);
	return 0;
}
