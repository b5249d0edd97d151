/* The record types of events maps, read from the code.
 *
 * A ring buffer or perf buffer carries bytes; which C struct they are is
 * known only to the code that sends them.  The object's BTF has the answer
 * when the record comes from somewhere typed, so every function is walked
 * once, straight through (no branches followed: compiled code keeps a
 * pointer in one register or stack slot between where it is made and where
 * it is sent), following where each register's value came from:
 *
 *   r0 = bpf_map_lookup_elem(&heap, ...)   -> a value of map heap: its BTF
 *                                             value type (execsnoop's way)
 *   a function parameter                   -> its BTF type (func_info), e.g.
 *                                             send(void *ctx, struct event *e)
 *   r0 = bpf_ringbuf_reserve(&events, N)   -> typed when the record is then
 *   &stack_var                                handed to a function whose
 *                                             parameter says what it is
 *
 * and where it goes: bpf_perf_event_output(ctx, &MAP, flags, DATA, size),
 * bpf_ringbuf_output(&MAP, DATA, size).  A record built in a local variable
 * and sent directly has no type in BTF (clang emits none for locals): the
 * reader prints it as hex rather than guess a struct by its size. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "obj_int.h"

enum { H_MAP_LOOKUP = 1, H_PERF_OUTPUT = 25, H_RINGBUF_OUTPUT = 130, H_RINGBUF_RESERVE = 131 };

enum vkind { V_UNKNOWN, V_MAP, V_MAPVAL, V_STACK, V_PARAM, V_RECORD, V_CONST };

struct val {
	enum vkind kind;
	struct map *m;   /* V_MAP, V_MAPVAL, V_RECORD */
	int64_t off;     /* V_STACK: offset from r10; pointers: offset into the object */
	uint32_t type;   /* V_PARAM: pointed-to struct type; V_RECORD: known type */
};

#define NSLOTS 64

struct frame {
	struct val r[11];
	struct { int64_t off; struct val v; } spill[NSLOTS]; /* 8-byte stack slots */
	int nspill;
	struct { int64_t off; uint32_t type; } typed[NSLOTS]; /* stack objects passed to typed params */
	int ntyped;
};

static void add_type(struct map *m, uint32_t id)
{
	for (size_t i = 0; i < m->nr_rec_types; i++)
		if (m->rec_types[i] == id)
			return;
	m->rec_types = xrealloc(m->rec_types, (m->nr_rec_types + 1) * sizeof(*m->rec_types));
	m->rec_types[m->nr_rec_types++] = id;
}

/* A pointer type's target when it is a struct or union (through
 * typedefs and qualifiers), else 0. */
static uint32_t struct_behind(const struct btf *btf, uint32_t ptr)
{
	const struct btf_type *t;
	uint32_t id;

	btf_resolve(btf, ptr, &t);
	if (!t || btf_kind(t) != BTF_KIND_PTR)
		return 0;
	id = btf_resolve(btf, t->type, &t);
	return t && (btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION) ? id : 0;
}

static uint32_t struct_of(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t;

	id = btf_resolve(btf, id, &t);
	return t && (btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION) ? id : 0;
}

/* The FUNC_PROTO of the function at instruction idx of a section (from
 * .BTF.ext func_info), or NULL. */
static const struct btf_type *proto_at(const struct obj *o, const char *sec, size_t idx)
{
	for (uint32_t s = 0; o->has_ext && s < o->ext.nr_func; s++) {
		const struct btf_ext_sec *es = &o->ext.func[s];

		if (strcmp(es->sec_name, sec))
			continue;
		for (uint32_t r = 0; r < es->nr; r++) {
			uint32_t rec[2];
			const struct btf_type *f;

			memcpy(rec, (const uint8_t *)es->recs + (size_t)r * es->rec_size, sizeof(rec));
			if (rec[0] != idx * 8)
				continue;
			f = btf_type_by_id(o->btf, rec[1]);
			if (!f || btf_kind(f) != BTF_KIND_FUNC)
				return NULL;
			f = btf_type_by_id(o->btf, f->type);
			return f && btf_kind(f) == BTF_KIND_FUNC_PROTO ? f : NULL;
		}
	}
	return NULL;
}

static struct val *slot(struct frame *f, int64_t off, bool create)
{
	for (int i = 0; i < f->nspill; i++)
		if (f->spill[i].off == off)
			return &f->spill[i].v;
	if (!create || f->nspill == NSLOTS)
		return NULL;
	f->spill[f->nspill].off = off;
	return &f->spill[f->nspill++].v;
}

static uint32_t stack_type(const struct frame *f, int64_t off)
{
	for (int i = 0; i < f->ntyped; i++)
		if (f->typed[i].off == off)
			return f->typed[i].type;
	return 0;
}

/* DATA sent to events map MAP: what type is it? */
static void sent(struct obj *o, const struct frame *f, const struct val *map, const struct val *data)
{
	uint32_t id = 0;

	if (map->kind != V_MAP || data->off)
		return;
	switch (data->kind) {
	case V_MAPVAL:
		id = data->m->kind == MAP_USER ? struct_of(o->btf, data->m->btf_value_id) : 0;
		break;
	case V_PARAM:
	case V_RECORD:
		id = data->type;
		break;
	case V_STACK:
		id = stack_type(f, data->off);
		break;
	default:
		break;
	}
	if (id)
		add_type(map->m, id);
}

/* A value handed to a function whose parameter is `struct X *`: that is
 * what it points to. */
static void passed(struct obj *o, struct frame *f, struct val *v, uint32_t id)
{
	if (!id || v->off)
		return;
	if (v->kind == V_RECORD && v->m) {
		add_type(v->m, id);
		v->type = id;
	} else if (v->kind == V_STACK && f->ntyped < NSLOTS) {
		f->typed[f->ntyped].off = v->off;
		f->typed[f->ntyped++].type = id;
	}
	(void)o;
}

static void walk_function(struct obj *o, struct code_sec *c, size_t start, size_t len)
{
	const struct btf_type *proto = proto_at(o, c->name, start);
	struct frame f;

	memset(&f, 0, sizeof(f));
	f.r[10].kind = V_STACK;
	for (uint32_t i = 0; proto && i < btf_vlen(proto) && i < 5; i++) {
		f.r[i + 1].kind = V_PARAM;
		f.r[i + 1].type = struct_behind(o->btf, btf_params(proto)[i].type);
	}
	for (size_t i = start; i < start + len && i < c->cnt; i++) {
		const struct bpf_insn *in = &c->insns[i];
		uint8_t cls = BPF_CLASS(in->code), dst = in->dst_reg, src = in->src_reg;
		struct val *d = dst <= 10 ? &f.r[dst] : NULL;

		if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			const struct sec_reloc *rel = code_reloc_at(c, i);
			const Elf64_Sym *s = rel ? elf_sym(&o->symtab, rel->sym) : NULL;
			struct map *m = s && s->st_shndx == o->maps_sec && o->maps_sec ? map_by_sec(o, o->maps_sec, s->st_value)
										     : NULL;

			if (d) {
				memset(d, 0, sizeof(*d));
				d->kind = m ? V_MAP : rel ? V_UNKNOWN : V_CONST;
				d->m = m;
			}
			i++;
			continue;
		}
		if (!d)
			continue;
		if (cls == BPF_ALU64 && BPF_OP(in->code) == BPF_MOV) {
			if (BPF_SRC(in->code) == BPF_X && src <= 10)
				*d = f.r[src];
			else {
				memset(d, 0, sizeof(*d));
				d->kind = V_CONST;
				d->off = in->imm;
			}
			continue;
		}
		if (cls == BPF_ALU64 && BPF_OP(in->code) == BPF_ADD && BPF_SRC(in->code) == BPF_K) {
			if (d->kind != V_CONST && d->kind != V_UNKNOWN)
				d->off += in->imm; /* a pointer moved */
			else
				d->kind = V_UNKNOWN;
			continue;
		}
		if (cls == BPF_ALU64 || cls == BPF_ALU) {
			memset(d, 0, sizeof(*d));
			continue;
		}
		if (cls == BPF_STX && BPF_MODE(in->code) == BPF_MEM && f.r[dst].kind == V_STACK) {
			struct val *sl = slot(&f, f.r[dst].off + in->off, true);

			if (sl) {
				if (BPF_SIZE(in->code) == BPF_DW && src <= 10)
					*sl = f.r[src];
				else
					memset(sl, 0, sizeof(*sl));
			}
			continue;
		}
		if (cls == BPF_ST && f.r[dst].kind == V_STACK) {
			struct val *sl = slot(&f, f.r[dst].off + in->off, false);

			if (sl)
				memset(sl, 0, sizeof(*sl));
			continue;
		}
		if (cls == BPF_LDX) {
			struct val *sl = src <= 10 && f.r[src].kind == V_STACK && BPF_SIZE(in->code) == BPF_DW
						 ? slot(&f, f.r[src].off + in->off, false) : NULL;

			if (sl)
				*d = *sl;
			else
				memset(d, 0, sizeof(*d));
			continue;
		}
		if (in->code != (BPF_JMP | BPF_CALL))
			continue;
		if (src == BPF_PSEUDO_CALL) {
			/* a subprogram: its parameter types say what we pass */
			const struct sec_reloc *rel = code_reloc_at(c, i);
			const Elf64_Sym *s = rel ? elf_sym(&o->symtab, rel->sym) : NULL;
			const struct code_sec *tc = s ? obj_code_sec(o, s->st_shndx) : c;
			int64_t t = s ? (int64_t)(s->st_value / 8) + in->imm + 1 : (int64_t)i + in->imm + 1;
			const struct btf_type *tp = tc && t >= 0 ? proto_at(o, tc->name, (size_t)t) : NULL;

			for (uint32_t a = 0; tp && a < btf_vlen(tp) && a < 5; a++)
				passed(o, &f, &f.r[a + 1], struct_behind(o->btf, btf_params(tp)[a].type));
		} else if (src == 0) {
			switch (in->imm) {
			case H_PERF_OUTPUT:
				sent(o, &f, &f.r[2], &f.r[4]);
				break;
			case H_RINGBUF_OUTPUT:
				sent(o, &f, &f.r[1], &f.r[2]);
				break;
			default:
				break;
			}
		}
		{
			struct val r0 = { V_UNKNOWN, NULL, 0, 0 };

			if (src == 0 && in->imm == H_MAP_LOOKUP && f.r[1].kind == V_MAP) {
				r0.kind = V_MAPVAL;
				r0.m = f.r[1].m;
			} else if (src == 0 && in->imm == H_RINGBUF_RESERVE && f.r[1].kind == V_MAP) {
				r0.kind = V_RECORD;
				r0.m = f.r[1].m;
			}
			for (int r = 1; r <= 5; r++)
				memset(&f.r[r], 0, sizeof(f.r[r]));
			f.r[0] = r0;
		}
	}
}

static void find_record_types(struct obj *o)
{
	o->rec_types_done = true;
	if (!o->btf)
		return;
	for (size_t i = 0; i < o->symtab.count; i++) {
		const Elf64_Sym *s = elf_sym(&o->symtab, i);
		struct code_sec *c;

		if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || !s->st_size || s->st_value % 8 ||
		    !(c = obj_code_sec(o, s->st_shndx)) || s->st_value / 8 >= c->cnt)
			continue;
		walk_function(o, c, s->st_value / 8, s->st_size / 8);
	}
}

size_t map_record_types(struct map *m, const uint32_t **ids)
{
	if (!m->obj->rec_types_done)
		find_record_types(m->obj);
	*ids = m->rec_types;
	return m->nr_rec_types;
}
