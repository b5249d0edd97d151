/* Relocation: CO-RE on each code section, then per entry program: copy
 * its instructions, append the subprograms it calls (each program gets
 * its own copies, in the order first called), and patch map, global data,
 * extern and call instructions.  func_info and line_info are rebased onto
 * the final instruction array (the kernel counts instructions, .BTF.ext
 * counts bytes). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf/relo_core.h"
#include "lib/err.h"
#include "lib/util.h"
#include "obj_int.h"

static bool is_ldimm64(const struct bpf_insn *i)
{
	return i->code == (BPF_LD | BPF_IMM | BPF_DW);
}

static bool is_call(const struct bpf_insn *i)
{
	return i->code == (BPF_JMP | BPF_CALL);
}

/* Is instruction idx of section sec inside a program that won't load? */
/* Only in programs that are not loaded (a clone, prog_clone, may load
 * the code its original does not). */
static bool in_disabled_prog(const struct obj *o, size_t sec, size_t idx)
{
	bool in_prog = false;

	for (size_t i = 0; i < o->nr_progs; i++) {
		const struct prog *p = &o->progs[i];

		if (p->code->sec == sec && idx >= p->start && idx < p->start + p->len) {
			if (p->autoload)
				return false;
			in_prog = true;
		}
	}
	return in_prog;
}

bool core_needed(const struct obj *o)
{
	for (uint32_t s = 0; o->has_ext && s < o->ext.nr_core; s++) {
		const struct btf_ext_sec *es = &o->ext.core[s];

		for (size_t k = 0; k < o->nr_code; k++)
			if (!strcmp(o->code[k].name, es->sec_name))
				for (uint32_t r = 0; r < es->nr; r++) {
					const struct core_relo *rec =
						(const void *)((const char *)es->recs + (size_t)r * es->rec_size);

					if (!in_disabled_prog(o, o->code[k].sec, rec->insn_off / 8))
						return true;
				}
	}
	return false;
}

static const char *prog_at(const struct obj *o, size_t sec, size_t idx)
{
	for (size_t i = 0; i < o->nr_progs; i++) {
		const struct prog *p = &o->progs[i];

		if (p->code->sec == sec && idx >= p->start && idx < p->start + p->len)
			return p->name;
	}
	return "subprogram";
}

static bool is_poison_call(const struct bpf_insn *i)
{
	return i->code == (BPF_JMP | BPF_CALL) && i->src_reg == 0 && i->imm == CORE_POISON_HELPER;
}

/* Remember that relocation rec poisoned insns[idx] (and idx+1 for an
 * ld_imm64), in words a user can act on. */
static void note_poison(struct obj *o, struct code_sec *c, size_t idx, size_t n, const struct core_relo *rec,
			bool not_found)
{
	char desc[256], *cut;
	struct core_poison *cp;

	core_describe(o->btf, rec, desc, sizeof(desc));
	cut = strrchr(desc, ')'); /* drop the kind: "... (0:1) field byte offset" */
	if (cut)
		cut[1] = 0;
	c->poisons = xrealloc(c->poisons, (c->nr_poisons + 1) * sizeof(*c->poisons));
	cp = &c->poisons[c->nr_poisons++];
	cp->insn = idx;
	cp->n = n;
	cp->desc = xmalloc(strlen(desc) + 160);
	sprintf(cp->desc, "%s %s", desc,
		o->kbtf_tracefs ? "is in no tracepoint format and this kernel has no BTF: pass --btf FILE"
				  " ('corebox btf min' makes one from the kernel's vmlinux, see README)"
		: not_found ? "not found in kernel BTF" : "changed size in kernel BTF in a way the load cannot follow");
}

void core_poisons_free(struct obj *o)
{
	for (size_t k = 0; k < o->nr_code; k++) {
		struct code_sec *c = &o->code[k];

		for (size_t i = 0; i < c->nr_poisons; i++)
			free(c->poisons[i].desc);
		free(c->poisons);
		c->poisons = NULL;
		c->nr_poisons = 0;
	}
}

const char *prog_poison_desc(const struct obj *o, const struct prog *p, size_t idx)
{
	for (size_t s = 0; s < p->nr_segs; s++) {
		const struct seg *g = &p->segs[s];
		const struct code_sec *c;
		size_t sidx;

		if (idx < g->start || idx >= g->start + g->len)
			continue;
		sidx = g->sec_start + (idx - g->start);
		c = obj_code_sec((struct obj *)o, g->sec);
		for (size_t i = 0; c && i < c->nr_poisons; i++)
			if (sidx >= c->poisons[i].insn && sidx < c->poisons[i].insn + c->poisons[i].n)
				return c->poisons[i].desc;
		return NULL;
	}
	return NULL;
}

/* Module BTFs for the CO-RE engine, only when the CO-RE target is the
 * running kernel's own BTF (a --btf file has no modules: libbpf's rule). */
static const struct btf *core_module(void *arg, uint32_t i)
{
	struct obj *o = arg;
	struct kmod_btf *m;

	if (!kbtf_is_sys(&o->kbtf))
		return NULL;
	m = obj_kmod(o, i);
	return m ? m->k.btf : NULL;
}

int relocate_core(struct obj *o)
{
	struct core_ctx *ctx = NULL;
	int err = 0;

	if (!o->has_ext || !o->ext.nr_core)
		return 0;
	for (uint32_t s = 0; s < o->ext.nr_core && !err; s++) {
		const struct btf_ext_sec *es = &o->ext.core[s];
		struct code_sec *c = NULL;

		for (size_t k = 0; k < o->nr_code; k++)
			if (!strcmp(o->code[k].name, es->sec_name))
				c = &o->code[k];
		if (!c) {
			err = err_set(EINVAL, "CO-RE records for unknown section %s", es->sec_name);
			break;
		}
		for (uint32_t r = 0; r < es->nr && !err; r++) {
			const struct core_relo *rec =
				(const void *)((const char *)es->recs + (size_t)r * es->rec_size);
			struct core_res res;
			size_t idx = rec->insn_off / 8;
			char desc[256];

			if (rec->insn_off % 8 || idx >= c->cnt) {
				err = err_set(EINVAL, "CO-RE record #%u in %s points outside the code", r,
					      c->name);
				break;
			}
			if (in_disabled_prog(o, c->sec, idx))
				continue;
			if (!ctx) {
				if (!o->kbtf_loaded)
					return err_set(EINVAL, "CO-RE needs kernel BTF");
				ctx = core_ctx_new(o->btf, o->kbtf.btf);
				if (!ctx)
					return -ENOMEM;
				core_ctx_set_more(ctx, core_module, o);
			}
			err = core_calc(ctx, rec, &res);
			if (!err) {
				size_t n = is_ldimm64(&c->insns[idx]) ? 2 : 1;

				err = core_patch_insn(c->insns, c->cnt, idx, rec, &res);
				if (!err && is_poison_call(&c->insns[idx]))
					note_poison(o, c, idx, n, rec, res.poison);
			}
			if (err) {
				core_describe(o->btf, rec, desc, sizeof(desc));
				err_prefix(err, "program %s: CO-RE relocation #%u (%s)",
					   prog_at(o, c->sec, idx), r, desc);
			}
		}
	}
	core_ctx_free(ctx);
	return err;
}

const struct sec_reloc *code_reloc_at(const struct code_sec *c, size_t idx)
{
	size_t lo = 0, hi = c->nr_relocs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->relocs[mid].insn < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nr_relocs && c->relocs[lo].insn == idx ? &c->relocs[lo] : NULL;
}

/* The function (FUNC symbol) of section sec that starts at idx. */
static int func_at(const struct obj *o, size_t sec, size_t idx, size_t *len)
{
	for (size_t i = 0; i < o->symtab.count; i++) {
		const Elf64_Sym *s = elf_sym(&o->symtab, i);

		if (ELF64_ST_TYPE(s->st_info) == STT_FUNC && s->st_shndx == sec &&
		    s->st_value == (uint64_t)idx * 8 && s->st_size) {
			*len = s->st_size / 8;
			return 0;
		}
	}
	return -ENOENT;
}

static void grow(struct prog *p, size_t extra)
{
	if (p->cnt + extra > p->cap) {
		p->cap = (p->cnt + extra) * 2;
		p->insns = xrealloc(p->insns, p->cap * sizeof(*p->insns));
	}
}

static void add_seg(struct prog *p, size_t sec, size_t sec_start, size_t len)
{
	p->segs = xrealloc(p->segs, (p->nr_segs + 1) * sizeof(*p->segs));
	p->segs[p->nr_segs].start = p->cnt;
	p->segs[p->nr_segs].sec = sec;
	p->segs[p->nr_segs].sec_start = sec_start;
	p->segs[p->nr_segs].len = len;
	p->nr_segs++;
}

/* Position of subprogram (sec, idx) in p, appending it first if needed. */
static int subprog_pos(struct obj *o, struct prog *p, size_t sec, size_t idx, size_t *pos)
{
	struct code_sec *c = obj_code_sec(o, sec);
	size_t len;

	if (!c || idx >= c->cnt)
		return err_set(EINVAL, "program %s calls outside the code", p->name);
	for (size_t s = 0; s < p->nr_segs; s++)
		if (p->segs[s].sec == sec && idx >= p->segs[s].sec_start &&
		    idx < p->segs[s].sec_start + p->segs[s].len && s > 0) {
			*pos = p->segs[s].start + (idx - p->segs[s].sec_start);
			return 0;
		}
	if (func_at(o, sec, idx, &len) < 0 || len > c->cnt - idx)
		return err_set(EINVAL, "program %s calls instruction %zu of %s, which starts no function",
			       p->name, idx, c->name);
	grow(p, len);
	*pos = p->cnt;
	add_seg(p, sec, idx, len);
	memcpy(p->insns + p->cnt, c->insns + idx, len * sizeof(*p->insns));
	p->cnt += len;
	return 0;
}

static void poison(struct bpf_insn *insn, bool ldimm64)
{
	memset(insn, 0, sizeof(*insn));
	insn->code = BPF_JMP | BPF_CALL;
	insn->imm = CORE_POISON_HELPER + 1; /* "unresolved extern/map" */
	if (ldimm64) {
		insn[1] = insn[0];
	}
}

static int reloc_extern(struct obj *o, struct prog *p, struct bpf_insn *insn, size_t symi)
{
	struct ext_var *e = NULL;

	for (size_t i = 0; i < o->nr_exts; i++)
		if (o->exts[i].sym == symi)
			e = &o->exts[i];
	if (!e)
		return err_set(EINVAL, "program %s references undefined symbol %s", p->name,
			       elf_sym_name(&o->symtab, elf_sym(&o->symtab, symi)));
	if (is_call(insn)) {
		if (!e->resolved || !e->kbtf_id) {
			poison(insn, false);
			return 0;
		}
		insn->src_reg = BPF_PSEUDO_KFUNC_CALL;
		insn->imm = e->kbtf_id;
		insn->off = 0;
		return 0;
	}
	if (e->is_kconfig) {
		struct map *km = NULL;

		for (size_t i = 0; i < o->nr_maps; i++)
			if (o->maps[i].kind == MAP_KCONFIG)
				km = &o->maps[i];
		insn[0].src_reg = BPF_PSEUDO_MAP_VALUE;
		insn[1].imm = insn[0].imm + (int32_t)e->kconfig_off;
		insn[0].imm = km->fd;
	} else if (e->kbtf_id) {
		insn[0].src_reg = BPF_PSEUDO_BTF_ID;
		insn[0].imm = e->kbtf_id;
		insn[1].imm = 0;
	} else {
		/* typeless ksym, or an unresolved weak one (address 0) */
		insn[0].src_reg = 0;
		insn[0].imm = (int32_t)(uint32_t)e->addr;
		insn[1].imm = (int32_t)(uint32_t)(e->addr >> 32);
	}
	return 0;
}

static int reloc_ldimm64(struct obj *o, struct prog *p, size_t i, const Elf64_Sym *sym, size_t symi)
{
	struct bpf_insn *insn = &p->insns[i];
	struct map *m;

	if (sym->st_shndx == SHN_UNDEF)
		return reloc_extern(o, p, insn, symi);
	if (sym->st_shndx >= SHN_LORESERVE)
		return err_set(EINVAL, "program %s: relocation against a special section", p->name);
	if (obj_code_sec(o, sym->st_shndx)) {
		/* address of a subprogram (bpf_loop callbacks and the like) */
		int64_t off = (int64_t)sym->st_value + insn->imm;
		size_t pos;
		int err;

		if (off < 0 || off % 8)
			return err_set(EINVAL, "program %s: bad function address", p->name);
		err = subprog_pos(o, p, sym->st_shndx, (size_t)off / 8, &pos);
		if (err)
			return err;
		insn = &p->insns[i];
		insn->src_reg = BPF_PSEUDO_FUNC;
		insn->imm = (int32_t)(pos - (i + 1));
		insn[1].imm = 0;
		return 0;
	}
	m = map_by_sec(o, sym->st_shndx, sym->st_value);
	if (!m)
		return err_set(EINVAL, "program %s: reference to %s, which is neither a map nor global data (forgot to initialize a global?)",
			       p->name, elf_sym_name(&o->symtab, sym));
	if (m->fd < 0) {
		poison(insn, true);
		return 0;
	}
	if (m->kind == MAP_USER) {
		insn->src_reg = BPF_PSEUDO_MAP_FD;
		insn->imm = m->fd;
	} else {
		insn[0].src_reg = BPF_PSEUDO_MAP_VALUE;
		insn[1].imm = insn[0].imm + (int32_t)sym->st_value;
		insn[0].imm = m->fd;
	}
	return 0;
}

/* Copy the records of section sec_name that fall in each segment, their
 * offsets (bytes in the section) made the final code's: instructions
 * for func_info and line_info, bytes (unit 8) for CO-RE records. */
static void *rebase_info(const struct prog *p, const struct obj *o, const struct btf_ext_sec *secs,
			 uint32_t nsecs, uint32_t rec_size, uint32_t unit, uint32_t *count)
{
	uint8_t *out = NULL;
	uint32_t n = 0;

	for (size_t s = 0; s < p->nr_segs; s++) {
		const struct seg *g = &p->segs[s];
		const struct code_sec *c = obj_code_sec((struct obj *)o, g->sec);

		for (uint32_t k = 0; k < nsecs; k++) {
			if (strcmp(secs[k].sec_name, c->name))
				continue;
			for (uint32_t r = 0; r < secs[k].nr; r++) {
				const uint8_t *rec = (const uint8_t *)secs[k].recs + (size_t)r * rec_size;
				uint32_t off;

				memcpy(&off, rec, 4);
				if (off % 8 || off / 8 < g->sec_start || off / 8 >= g->sec_start + g->len)
					continue;
				out = xrealloc(out, (size_t)(n + 1) * rec_size);
				memcpy(out + (size_t)n * rec_size, rec, rec_size);
				off = (uint32_t)(g->start + off / 8 - g->sec_start) * unit;
				memcpy(out + (size_t)n * rec_size, &off, 4);
				n++;
			}
		}
	}
	*count = n;
	return out;
}

int relocate_prog(struct obj *o, struct prog *p)
{
	int err;

	free(p->insns);
	free(p->segs);
	p->insns = NULL;
	p->segs = NULL;
	p->cnt = p->cap = p->nr_segs = 0;
	grow(p, p->len);
	add_seg(p, p->code->sec, p->start, p->len);
	memcpy(p->insns, p->code->insns + p->start, p->len * sizeof(*p->insns));
	p->cnt = p->len;

	for (size_t i = 0; i < p->cnt; i++) {
		struct bpf_insn *insn = &p->insns[i];
		const struct seg *g = NULL;
		const struct sec_reloc *rel;
		const struct code_sec *c;
		const Elf64_Sym *sym = NULL;
		size_t sidx;

		for (size_t s = 0; s < p->nr_segs; s++)
			if (i >= p->segs[s].start && i < p->segs[s].start + p->segs[s].len)
				g = &p->segs[s];
		sidx = g->sec_start + (i - g->start);
		c = obj_code_sec(o, g->sec);
		rel = code_reloc_at(c, sidx);
		if (rel)
			sym = elf_sym(&o->symtab, rel->sym);

		if (is_ldimm64(insn)) {
			if (i + 1 >= p->cnt)
				return err_set(EINVAL, "program %s: truncated 64-bit load at %zu", p->name, i);
			if (sym && (err = reloc_ldimm64(o, p, i, sym, rel->sym)) < 0)
				return err;
			i++;
			continue;
		}
		if (!is_call(insn))
			continue;
		if (sym && sym->st_shndx == SHN_UNDEF) {
			if ((err = reloc_extern(o, p, insn, rel->sym)) < 0)
				return err;
			continue;
		}
		if (insn->src_reg != BPF_PSEUDO_CALL)
			continue; /* helper call */
		{
			size_t tsec, tidx, pos;
			int64_t t;

			if (sym) {
				tsec = sym->st_shndx;
				t = (int64_t)(sym->st_value / 8) + insn->imm + 1;
			} else {
				tsec = g->sec;
				t = (int64_t)sidx + insn->imm + 1;
			}
			if (t < 0)
				return err_set(EINVAL, "program %s: call before the start of its section", p->name);
			tidx = (size_t)t;
			if ((err = subprog_pos(o, p, tsec, tidx, &pos)) < 0)
				return err;
			insn = &p->insns[i];
			insn->imm = (int32_t)((int64_t)pos - (int64_t)(i + 1));
		}
	}

	if (o->has_ext && o->btf_fd >= 0) {
		free(p->func_info);
		free(p->line_info);
		p->func_info = rebase_info(p, o, o->ext.func, o->ext.nr_func, o->ext.func_rec_size, 1,
					   &p->nr_func_info);
		p->line_info = rebase_info(p, o, o->ext.line, o->ext.nr_line, o->ext.line_rec_size, 1,
					   &p->nr_line_info);
		/* the kernel wants func_info for instruction 0 */
		if (p->nr_func_info && *(uint32_t *)p->func_info != 0) {
			free(p->func_info);
			p->func_info = NULL;
			p->nr_func_info = 0;
		}
	}
	free(p->core_relos);
	p->core_relos = NULL;
	p->nr_core_relos = 0;
	if (o->kernel_core) /* (load.c checked the record size: the kernel's 16 bytes) */
		p->core_relos = rebase_info(p, o, o->ext.core, o->ext.nr_core, o->ext.core_rec_size, 8,
					    &p->nr_core_relos);
	return 0;
}
