/* CO-RE engine tests.
 *
 * 1. Oracle tests: tests/core/gen.sh compiles tests/core/local.bpf.c (one
 *    section per CO-RE check, local ___flavor types) and three "target"
 *    files with differently laid out types, whose .BTF is the target BTF;
 *    the host compiler prints what each relocation must give (offsetof,
 *    sizeof, bitfield bit positions, enum values).  Every record of the
 *    local object is relocated against every target and the patched
 *    instruction is compared with that oracle.
 * 2. Identity: relocating the local object against its own BTF leaves
 *    every instruction unchanged (clang computed the same values).
 * 3. Hand-built BTF: ENUM64, straddling bitfields, ambiguity, TYPE_MATCHES,
 *    func-proto compatibility, malformed records, patching edge cases.
 * 4. Timing against the live /sys/kernel/btf/vmlinux (200 records). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "btf/relo_core.h"
#include "elf/elf.h"
#include "err.h"
#include "util.h"

/* ---- object loading --------------------------------------------------- */

struct obj {
	char *buf;
	size_t len;
	struct elf_view ev;
	struct btf *btf;
	const uint8_t *ext;
	size_t ext_len;
};

static const char *core_dir;

static int obj_load(struct obj *o, const char *name)
{
	char path[512];
	const void *d;
	size_t n;
	const Elf64_Shdr *sh;

	memset(o, 0, sizeof(*o));
	snprintf(path, sizeof(path), "%s/%s", core_dir, name);
	if (read_file(path, 64 << 20, &o->buf, &o->len))
		return -1;
	if (elf_open(&o->ev, o->buf, o->len))
		return -1;
	sh = elf_find_sec(&o->ev, ".BTF");
	if (!sh || elf_sec_data(&o->ev, sh, &d, &n))
		return -1;
	o->btf = btf_new(d, n, 1, NULL);
	if (!o->btf)
		return -1;
	sh = elf_find_sec(&o->ev, ".BTF.ext");
	if (sh && elf_sec_data(&o->ev, sh, &d, &n) == 0) {
		o->ext = d;
		o->ext_len = n;
	}
	return 0;
}

static void obj_free(struct obj *o)
{
	btf_free(o->btf);
	free(o->buf);
}

/* One CO-RE record with its section's code (a private copy to patch). */
struct rec {
	const char *sec;
	struct core_relo r;
	const struct bpf_insn *code;
	size_t cnt;
};

/* Minimal .BTF.ext reader (independent of btf_ext_parse): header, then the
 * CO-RE subsection: u32 record size, then per section {name, count, recs}. */
static int obj_recs(struct obj *o, struct rec **out, size_t *nout)
{
	const uint8_t *p = o->ext, *end;
	uint32_t hdr_len, off, len, rsz;
	size_t n = 0;
	struct rec *v = NULL;

	*out = NULL;
	*nout = 0;
	if (!p || o->ext_len < 32)
		return -1;
	memcpy(&hdr_len, p + 4, 4);
	if (hdr_len < 32 || hdr_len > o->ext_len)
		return -1;
	memcpy(&off, p + 24, 4);
	memcpy(&len, p + 28, 4);
	if ((uint64_t)hdr_len + off + len > o->ext_len || len < 4)
		return -1;
	p = o->ext + hdr_len + off;
	end = p + len;
	memcpy(&rsz, p, 4);
	p += 4;
	if (rsz < 16)
		return -1;
	while (end - p >= 8) {
		uint32_t name_off, num, i;
		const char *sec;
		const Elf64_Shdr *sh;
		const void *code;
		size_t clen;

		memcpy(&name_off, p, 4);
		memcpy(&num, p + 4, 4);
		p += 8;
		if ((uint64_t)num * rsz > (uint64_t)(end - p))
			return -1;
		sec = btf_str(o->btf, name_off);
		sh = sec ? elf_find_sec(&o->ev, sec) : NULL;
		if (!sh || elf_sec_data(&o->ev, sh, &code, &clen))
			return -1;
		v = realloc(v, (n + num) * sizeof(*v));
		for (i = 0; i < num; i++, p += rsz) {
			v[n].sec = sec;
			memcpy(&v[n].r, p, sizeof(v[n].r));
			v[n].code = code;
			v[n].cnt = clen / sizeof(struct bpf_insn);
			n++;
		}
	}
	*out = v;
	*nout = n;
	return 0;
}

/* ---- relocating one record and reading the outcome -------------------- */

struct outcome {
	int err;          /* core_calc / core_patch_insn result */
	bool poisoned;
	int64_t val;      /* imm (sign-extended), imm64 or LDX/ST/STX off */
	int mem_sz;       /* LDX/ST/STX access size in bytes */
	bool changed;     /* any byte of the section differs after patching */
	struct core_res res;
};

static bool is_poison_call(const struct bpf_insn *i)
{
	return i->code == (BPF_JMP | BPF_CALL) && i->src_reg == 0 && i->imm == CORE_POISON_HELPER;
}

static int insn_size(uint8_t code)
{
	switch (BPF_SIZE(code)) {
	case BPF_DW: return 8;
	case BPF_W: return 4;
	case BPF_H: return 2;
	default: return 1;
	}
}

static struct outcome relocate(struct core_ctx *ctx, const struct rec *rc)
{
	struct outcome oc = { 0 };
	size_t idx = rc->r.insn_off / 8;
	struct bpf_insn *copy = malloc(rc->cnt * sizeof(*copy) + 1);
	const struct bpf_insn *in;

	memcpy(copy, rc->code, rc->cnt * sizeof(*copy));
	oc.err = core_calc(ctx, &rc->r, &oc.res);
	if (!oc.err)
		oc.err = core_patch_insn(copy, rc->cnt, idx, &rc->r, &oc.res);
	if (!oc.err) {
		in = &copy[idx];
		oc.changed = memcmp(copy, rc->code, rc->cnt * sizeof(*copy)) != 0;
		oc.poisoned = is_poison_call(in);
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW))
			oc.val = (int64_t)((uint32_t)in[0].imm | (uint64_t)(uint32_t)in[1].imm << 32);
		else if (BPF_CLASS(in->code) == BPF_LDX || BPF_CLASS(in->code) == BPF_ST ||
			 BPF_CLASS(in->code) == BPF_STX) {
			oc.val = in->off;
			oc.mem_sz = insn_size(in->code);
		} else
			oc.val = in->imm;
	}
	free(copy);
	return oc;
}

/* ---- oracle expectations ---------------------------------------------- */

struct result {
	char name[64];
	struct outcome oc;
	bool used;
};

static struct result *find_result(struct result *r, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(r[i].name, name) == 0)
			return &r[i];
	return NULL;
}

/* Strip "struct "/"union "/"enum " from an oracle type name. */
static const char *bare(const char *s)
{
	const char *sp = strchr(s, ' ');

	return sp ? sp + 1 : s;
}

static int64_t lsb_load(const uint8_t *mem, uint64_t off, uint64_t sz)
{
	uint64_t v = 0;

	for (uint64_t i = 0; i < sz; i++)
		v |= (uint64_t)mem[off + i] << (8 * i);
	return (int64_t)v;
}

/* The four bitfield values must extract exactly the field's bits. */
static bool check_window(struct result *res, size_t n, const char *base, int bit_off, int bit_sz,
			 int sg, char *why, size_t wsz)
{
	char nm[80];
	struct result *o, *s, *l, *r;
	uint64_t off, sz, ls, rs;

	snprintf(nm, sizeof(nm), "%s_off", base); o = find_result(res, n, nm);
	snprintf(nm, sizeof(nm), "%s_sz", base);  s = find_result(res, n, nm);
	snprintf(nm, sizeof(nm), "%s_ls", base);  l = find_result(res, n, nm);
	snprintf(nm, sizeof(nm), "%s_rs", base);  r = find_result(res, n, nm);
	if (!o || !s || !l || !r) {
		snprintf(why, wsz, "missing relocation results");
		return false;
	}
	if (o->oc.err || s->oc.err || l->oc.err || r->oc.err || o->oc.poisoned || s->oc.poisoned ||
	    l->oc.poisoned || r->oc.poisoned) {
		snprintf(why, wsz, "error or poison");
		return false;
	}
	off = (uint64_t)o->oc.val; sz = (uint64_t)s->oc.val;
	ls = (uint64_t)l->oc.val; rs = (uint64_t)r->oc.val;
	if ((sz != 1 && sz != 2 && sz != 4 && sz != 8) || off % sz || off * 8 > (uint64_t)bit_off ||
	    (uint64_t)bit_off + bit_sz > (off + sz) * 8 || ls > 63 || rs > 63) {
		snprintf(why, wsz, "window off %llu size %llu ls %llu rs %llu does not hold bits %d+%d",
			 (unsigned long long)off, (unsigned long long)sz, (unsigned long long)ls,
			 (unsigned long long)rs, bit_off, bit_sz);
		return false;
	}
	for (int pat = 0; pat < 3; pat++) {
		uint8_t mem[256];
		uint64_t want = 0, got;

		for (size_t i = 0; i < sizeof(mem); i++)
			mem[i] = (uint8_t)(0x5a ^ (i * 37) ^ pat * 0x33);
		for (int b = 0; b < bit_sz; b++) {
			int bit = (pat == 0) ? 1 : (pat == 1) ? (b & 1) : (b % 3 == 0);
			size_t at = (size_t)(bit_off + b);

			if (at / 8 >= sizeof(mem))
				return false;
			mem[at / 8] = (uint8_t)((mem[at / 8] & ~(1u << (at % 8))) | (unsigned)bit << (at % 8));
			want |= (uint64_t)bit << b;
		}
		if (sg && bit_sz < 64 && (want >> (bit_sz - 1) & 1))
			want |= ~0ULL << bit_sz;
		got = (uint64_t)lsb_load(mem, off, sz) << ls;
		got = sg ? (uint64_t)((int64_t)got >> rs) : got >> rs;
		if (got != want) {
			snprintf(why, wsz, "pattern %d extracts %#llx, field holds %#llx", pat,
				 (unsigned long long)got, (unsigned long long)want);
			return false;
		}
	}
	return true;
}

static void oracle_target(struct obj *local, const char *tname)
{
	char file[64], line[256], path[512];
	struct obj tgt;
	struct rec *recs;
	size_t nrecs, i, nres = 0;
	struct result *res;
	struct core_ctx *ctx;
	FILE *f = NULL;
	int checked = 0, bad = 0;

	snprintf(file, sizeof(file), "target_%s.o", tname);
	if (obj_load(&tgt, file)) {
		T_OK(0, "target %s loads: %s", tname, err_msg());
		return;
	}
	ctx = core_ctx_new(local->btf, tgt.btf);
	T_OK(obj_recs(local, &recs, &nrecs) == 0 && nrecs > 200, "local.o has %zu CO-RE records", nrecs);
	res = calloc(nrecs, sizeof(*res));
	for (i = 0; i < nrecs; i++) {
		const char *fn = strchr(recs[i].sec, '/');

		snprintf(res[nres].name, sizeof(res[nres].name), "%s", fn ? fn + 1 : recs[i].sec);
		res[nres].oc = relocate(ctx, &recs[i]);
		if (res[nres].oc.err)
			printf("# target %s: %s: %s\n", tname, res[nres].name, err_msg());
		nres++;
	}

	snprintf(path, sizeof(path), "%s/expect_%s.txt", core_dir, tname);
	f = fopen(path, "r");
	T_OK(f != NULL, "expectations for target %s", tname);
	while (f && fgets(line, sizeof(line), f)) {
		char name[64], what[32], arg[64] = "";
		struct result *r;
		char why[200] = "";
		bool ok = true;
		int bo, bs, sg;

		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "%63s %31s %63[^\n]", name, what, arg) < 2)
			continue;
		if (strcmp(what, "bitfield") == 0) {
			if (sscanf(arg, "%d %d %d", &bo, &bs, &sg) != 3)
				continue;
			ok = check_window(res, nres, name, bo, bs, sg, why, sizeof(why));
			checked++;
			if (!ok) {
				bad++;
				T_OK(0, "target %s: bitfield %s (bits %d+%d): %s", tname, name, bo, bs, why);
			}
			continue;
		}
		r = find_result(res, nres, name);
		if (!r) {
			bad++;
			T_OK(0, "target %s: no relocation for oracle line '%s'", tname, line);
			continue;
		}
		r->used = true;
		checked++;
		if (strcmp(what, "error") == 0) {
			ok = r->oc.err < 0;
		} else if (r->oc.err) {
			ok = false;
		} else if (strcmp(what, "=") == 0) {
			ok = !r->oc.poisoned && r->oc.val == strtoll(arg, NULL, 0);
		} else if (strcmp(what, "poison") == 0) {
			ok = r->oc.poisoned;
		} else if (strcmp(what, "window") == 0) {
			ok = true; /* checked with the bitfield line */
		} else if (strcmp(what, "ld") == 0) {
			long long off = -1;
			int sz = -1;

			sscanf(arg, "%lld %d", &off, &sz);
			ok = !r->oc.poisoned && r->oc.val == off && r->oc.mem_sz == sz;
		} else if (strcmp(what, "tid") == 0 || strcmp(what, "lid") == 0) {
			/* "tid struct s": the id must name that type in target
			 * (local for lid) BTF. */
			const struct btf *b = what[0] == 't' ? tgt.btf : local->btf;
			const char *want = bare(arg);
			const struct btf_type *t = r->oc.poisoned ? NULL : btf_type_by_id(b, (uint32_t)r->oc.val);

			ok = t && strcmp(btf_name(b, t), want) == 0;
		} else {
			ok = false;
		}
		if (!ok) {
			bad++;
			T_OK(0, "target %s: %s: got %s%s%lld (size %d), oracle says '%s'", tname, name,
			     r->oc.err ? "error " : "", r->oc.poisoned ? "poison " : "", (long long)r->oc.val,
			     r->oc.mem_sz, line);
		}
	}
	if (f)
		fclose(f);
	for (i = 0; i < nres; i++)
		if (!res[i].used) {
			bad++;
			T_OK(0, "target %s: relocation %s has no oracle line", tname, res[i].name);
		}
	T_OK(bad == 0 && checked > 200, "target %s: %zu relocations match the host compiler (%d checks)",
	     tname, nres, checked);
	free(res);
	free(recs);
	core_ctx_free(ctx);
	obj_free(&tgt);
}

/* Bitfield windows are ours to choose (clang picks the storage unit, we
 * the smallest aligned load, as libbpf): compare the bits they select. */
struct win {
	char base[64];
	int64_t c[3], o[3]; /* clang's and ours: offset, size, lshift */
	int have;
	int64_t rs;
};

static struct win *win_get(struct win *w, size_t *n, const char *sec)
{
	const char *fn = strchr(sec, '/') ? strchr(sec, '/') + 1 : sec;
	size_t len = strlen(fn) > 3 ? strlen(fn) - 3 : 0; /* drop _off/_sz/_ls/_rs */

	if (fn[len] != '_')
		len--;
	for (size_t i = 0; i < *n; i++)
		if (strlen(w[i].base) == len && strncmp(w[i].base, fn, len) == 0)
			return &w[i];
	memset(&w[*n], 0, sizeof(w[*n]));
	snprintf(w[*n].base, sizeof(w[*n].base), "%.*s", (int)len, fn);
	return &w[(*n)++];
}

static void identity(struct obj *local)
{
	struct core_ctx *ctx = core_ctx_new(local->btf, local->btf);
	struct rec *recs;
	size_t n, i, same = 0, nw = 0, wins = 0;
	struct win *w;

	obj_recs(local, &recs, &n);
	w = calloc(n, sizeof(*w));
	for (i = 0; i < n; i++) {
		struct outcome oc = relocate(ctx, &recs[i]);
		const struct bpf_insn *in = &recs[i].code[recs[i].r.insn_off / 8];
		uint32_t k = recs[i].r.kind;
		char d[256];

		core_describe(local->btf, &recs[i].r, d, sizeof(d));
		if (!oc.err && !oc.res.validate && (k == 0 || k == 1 || k == 4)) {
			struct win *x = win_get(w, &nw, recs[i].sec);
			int slot = k == 0 ? 0 : k == 1 ? 1 : 2;

			x->c[slot] = in->imm;
			x->o[slot] = oc.val;
			x->have |= 1 << slot;
			same++;
			continue;
		}
		if (!oc.err && k == CORE_FIELD_RSHIFT_U64) {
			struct win *x = win_get(w, &nw, recs[i].sec);

			x->rs = oc.val;
			x->have |= 8;
		}
		if (oc.err || oc.changed || oc.res.orig_val != oc.res.new_val)
			T_OK(0, "identity: %s %s: err %d changed %d orig %llu new %llu: %s", recs[i].sec, d,
			     oc.err, oc.changed, (unsigned long long)oc.res.orig_val,
			     (unsigned long long)oc.res.new_val, oc.err ? err_msg() : "");
		else
			same++;
	}
	T_OK(same == n && n > 0, "relocating local.o against its own BTF is the identity (%zu/%zu records)",
	     same, n);
	for (i = 0; i < nw; i++) {
		int64_t bsz = 64 - w[i].rs, cb, ob;

		if (w[i].have != 15)
			continue;
		wins++;
		cb = w[i].c[0] * 8 + 64 - w[i].c[2] - bsz;
		ob = w[i].o[0] * 8 + 64 - w[i].o[2] - bsz;
		T_OK(cb == ob && ob >= w[i].o[0] * 8 && ob + bsz <= (w[i].o[0] + w[i].o[1]) * 8,
		     "identity: bitfield %s: clang's window %lld/%lld/%lld and ours %lld/%lld/%lld select bit %lld+%lld",
		     w[i].base, (long long)w[i].c[0], (long long)w[i].c[1], (long long)w[i].c[2],
		     (long long)w[i].o[0], (long long)w[i].o[1], (long long)w[i].o[2], (long long)ob,
		     (long long)bsz);
	}
	T_OK(wins >= 7, "identity covered %zu bitfield windows", wins);
	free(w);
	free(recs);
	core_ctx_free(ctx);
}

static void describe_clang(struct obj *local)
{
	struct rec *recs;
	size_t n, i;
	char d[256] = "";

	obj_recs(local, &recs, &n);
	for (i = 0; i < n; i++)
		if (strcmp(recs[i].sec, "core/s_in_x_off") == 0)
			core_describe(local->btf, &recs[i].r, d, sizeof(d));
	T_OK(strcmp(d, "struct s___l::in.x (0:6:0) field byte offset") == 0, "core_describe: '%s'", d);
	for (i = 0; i < n; i++)
		if (strcmp(recs[i].sec, "core/s_nn_off") == 0)
			core_describe(local->btf, &recs[i].r, d, sizeof(d));
	T_OK(strcmp(d, "struct s___l::nn (0:10:1:0) field byte offset") == 0,
	     "core_describe skips anonymous members: '%s'", d);
	for (i = 0; i < n; i++)
		if (strcmp(recs[i].sec, "core/en_b_val") == 0)
			core_describe(local->btf, &recs[i].r, d, sizeof(d));
	T_OK(strcmp(d, "enum en___l::EB___l (1) enumval value") == 0, "core_describe enum: '%s'", d);
	free(recs);
}

/* ---- hand-built BTF --------------------------------------------------- */

struct bb {
	uint32_t w[8192];
	size_t nw;
	char s[8192];
	size_t ns;
	uint32_t nr;
	uint32_t sbase; /* split BTF: the base's string section size */
};

static void bb_init(struct bb *b) { b->nw = 0; b->ns = 1; b->s[0] = 0; b->nr = 0; b->sbase = 0; }

static uint32_t bb_str(struct bb *b, const char *s)
{
	uint32_t off = b->sbase + (uint32_t)b->ns;

	if (!s)
		return 0;
	memcpy(b->s + b->ns, s, strlen(s) + 1);
	b->ns += strlen(s) + 1;
	return off;
}

static void bb_w(struct bb *b, uint32_t w) { b->w[b->nw++] = w; }

static uint32_t bb_t(struct bb *b, const char *name, int kind, int kflag, uint32_t vlen, uint32_t st)
{
	bb_w(b, name && *name ? bb_str(b, name) : 0);
	bb_w(b, (uint32_t)kflag << 31 | (uint32_t)kind << 24 | vlen);
	bb_w(b, st);
	return ++b->nr;
}

static uint32_t bb_int(struct bb *b, const char *name, uint32_t size, int sgn)
{
	uint32_t id = bb_t(b, name, BTF_KIND_INT, 0, 0, size);

	bb_w(b, (sgn ? BTF_INT_SIGNED : 0) << 24 | size * 8);
	return id;
}

static void bb_m(struct bb *b, const char *name, uint32_t type, uint32_t bit_off, uint32_t bitsz)
{
	bb_w(b, name ? bb_str(b, name) : 0);
	bb_w(b, type);
	bb_w(b, bitsz << 24 | bit_off);
}

static uint32_t bb_arr(struct bb *b, uint32_t elem, uint32_t idx_type, uint32_t n)
{
	uint32_t id = bb_t(b, NULL, BTF_KIND_ARRAY, 0, 0, 0);

	bb_w(b, elem);
	bb_w(b, idx_type);
	bb_w(b, n);
	return id;
}

static struct btf *bb_btf(struct bb *b, const struct btf *base)
{
	struct btf_header h = { .magic = BTF_MAGIC, .version = BTF_VERSION, .hdr_len = sizeof(h) };
	uint8_t *blob;
	struct btf *btf;
	size_t tl = b->nw * 4;

	h.type_off = 0;
	h.type_len = (uint32_t)tl;
	h.str_off = (uint32_t)tl;
	h.str_len = (uint32_t)b->ns;
	blob = malloc(sizeof(h) + tl + b->ns);
	memcpy(blob, &h, sizeof(h));
	memcpy(blob + sizeof(h), b->w, tl);
	memcpy(blob + sizeof(h) + tl, b->s, b->ns);
	btf = btf_new(blob, sizeof(h) + tl + b->ns, 1, base);
	free(blob);
	if (!btf)
		printf("# bb_btf: %s\n", err_msg());
	return btf;
}

static int calc1(const struct btf *l, const struct btf *t, uint32_t id, uint32_t acc, uint32_t kind,
		 struct core_res *res)
{
	struct core_ctx *ctx = core_ctx_new(l, t);
	struct core_relo r = { .insn_off = 0, .type_id = id, .access_str_off = acc, .kind = kind };
	int err = core_calc(ctx, &r, res);

	core_ctx_free(ctx);
	return err;
}

static void hand_bitfields(void)
{
	struct bb b;
	struct btf *btf;
	struct core_res r;
	uint32_t u8, u32, s, a1, a2, a3, a4;

	bb_init(&b);
	u8 = bb_int(&b, "unsigned char", 1, 0);
	u32 = bb_int(&b, "int", 4, 1);
	s = bb_t(&b, "bs", BTF_KIND_STRUCT, 1, 3, 16);
	bb_m(&b, "x", u8, 6, 4);    /* straddles bytes 0-1: 2-byte window */
	bb_m(&b, "y", u32, 20, 30); /* straddles 4-byte units: 8-byte window */
	bb_m(&b, "z", u32, 100, 30);/* bits 100..129 need more than 64 bits */
	a1 = bb_str(&b, "0:0");
	a2 = bb_str(&b, "0:1");
	a3 = bb_str(&b, "0:2");
	a4 = bb_str(&b, "0");
	(void)a4;
	btf = bb_btf(&b, NULL);
	T_OK(btf != NULL, "hand-built bitfield BTF parses");
	if (!btf)
		return;
	struct { uint32_t acc, kind; uint64_t want; const char *what; } c[] = {
		{ a1, CORE_FIELD_BYTE_OFFSET, 0, "u8 x:4 at bit 6: window offset 0" },
		{ a1, CORE_FIELD_BYTE_SIZE, 2, "u8 x:4 at bit 6: window grows to 2 bytes" },
		{ a1, CORE_FIELD_LSHIFT_U64, 54, "u8 x:4 at bit 6: lshift 64-10" },
		{ a1, CORE_FIELD_RSHIFT_U64, 60, "u8 x:4: rshift 60" },
		{ a1, CORE_FIELD_SIGNED, 0, "u8 x: unsigned" },
		{ a2, CORE_FIELD_BYTE_OFFSET, 0, "int y:30 at bit 20: window offset 0" },
		{ a2, CORE_FIELD_BYTE_SIZE, 8, "int y:30 at bit 20: window 8 bytes" },
		{ a2, CORE_FIELD_LSHIFT_U64, 14, "int y:30 at bit 20: lshift 14" },
		{ a2, CORE_FIELD_RSHIFT_U64, 34, "int y:30: rshift 34" },
		{ a2, CORE_FIELD_SIGNED, 1, "int y: signed" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		int err = calc1(btf, btf, s, c[i].acc, c[i].kind, &r);

		T_OK(err == 0 && !r.poison && r.new_val == c[i].want && r.orig_val == c[i].want,
		     "bitfield %s (got %llu, err %d)", c[i].what, (unsigned long long)r.new_val, err);
	}
	T_OK(calc1(btf, btf, s, a3, CORE_FIELD_BYTE_OFFSET, &r) == -E2BIG,
	     "bitfield needing more than one 64-bit load is an error: %s", err_msg());
	btf_free(btf);
}

static void hand_enum64(void)
{
	struct bb lb, tb;
	struct btf *l, *t;
	struct core_res r;
	uint32_t le, le32, a0, a1, a2, a0_32;

	bb_init(&lb);
	le = bb_t(&lb, "e64___x", BTF_KIND_ENUM64, 0, 3, 8);
	bb_w(&lb, bb_str(&lb, "V1___x")); bb_w(&lb, 1); bb_w(&lb, 0);
	bb_w(&lb, bb_str(&lb, "V2")); bb_w(&lb, 2); bb_w(&lb, 0);
	bb_w(&lb, bb_str(&lb, "VGONE")); bb_w(&lb, 3); bb_w(&lb, 0);
	le32 = bb_t(&lb, "e32", BTF_KIND_ENUM, 0, 1, 4);
	bb_w(&lb, bb_str(&lb, "W1")); bb_w(&lb, 7);
	a0 = bb_str(&lb, "0"); a1 = bb_str(&lb, "1"); a2 = bb_str(&lb, "2");
	a0_32 = a0;
	l = bb_btf(&lb, NULL);

	bb_init(&tb);
	bb_t(&tb, "e64", BTF_KIND_ENUM64, 1, 2, 8);
	bb_w(&tb, bb_str(&tb, "V2")); bb_w(&tb, 0xfffffffe); bb_w(&tb, 0xffffffff); /* -2 */
	bb_w(&tb, bb_str(&tb, "V1")); bb_w(&tb, 0x89abcdef); bb_w(&tb, 0x01234567);
	bb_t(&tb, "e32", BTF_KIND_ENUM64, 0, 1, 8); /* enum became enum64 */
	bb_w(&tb, bb_str(&tb, "W1")); bb_w(&tb, 0); bb_w(&tb, 1);
	t = bb_btf(&tb, NULL);
	T_OK(l && t, "hand-built enum BTFs parse");
	if (!l || !t)
		return;
	T_OK(calc1(l, t, le, a0, CORE_ENUMVAL_VALUE, &r) == 0 && !r.poison &&
	     r.orig_val == 1 && r.new_val == 0x0123456789abcdefULL,
	     "ENUM64 value by essential name (V1___x -> V1): %#llx", (unsigned long long)r.new_val);
	T_OK(calc1(l, t, le, a1, CORE_ENUMVAL_VALUE, &r) == 0 && r.new_val == (uint64_t)-2,
	     "ENUM64 signed value -2");
	T_OK(calc1(l, t, le, a1, CORE_ENUMVAL_EXISTS, &r) == 0 && r.new_val == 1, "ENUM64 enumerator exists");
	T_OK(calc1(l, t, le, a2, CORE_ENUMVAL_EXISTS, &r) == 0 && r.new_val == 0 && r.orig_val == 1,
	     "missing enumerator: exists 0");
	T_OK(calc1(l, t, le, a2, CORE_ENUMVAL_VALUE, &r) == 0 && r.poison, "missing enumerator: value poisoned");
	T_OK(calc1(l, t, le32, a0_32, CORE_ENUMVAL_VALUE, &r) == 0 && r.orig_val == 7 &&
	     r.new_val == 1ULL << 32, "ENUM local matches ENUM64 target");
	T_OK(calc1(l, t, le, a2 + 100, CORE_ENUMVAL_VALUE, &r) < 0, "bad access string offset: %s", err_msg());
	btf_free(l);
	btf_free(t);
}

static void bb_e(struct bb *b, const char *name, int32_t v)
{
	bb_w(b, bb_str(b, name));
	bb_w(b, (uint32_t)v);
}

static void bb_e64(struct bb *b, const char *name, uint64_t v)
{
	bb_w(b, bb_str(b, name));
	bb_w(b, (uint32_t)v);
	bb_w(b, (uint32_t)(v >> 32));
}

static uint32_t module_at;
static const struct btf *module_btf;
static const struct btf *one_module(void *arg, uint32_t i)
{
	(void)arg;
	module_at++;
	return i == 0 ? module_btf : NULL;
}

/* Anonymous enums (the kernel's INET_FLAGS_* since 6.6): an anonymous
 * local enum's enumerators relocate against the target's anonymous enums
 * that declare them; named target enums never count. */
static void hand_anon_enum(void)
{
	struct bb lb, tb, mb;
	struct btf *l, *t, *t2, *mod;
	struct core_ctx *ctx;
	struct core_res r;
	struct core_relo rel;
	uint32_t le, le64, ls, lmod, a0, a1, a2, a3;
	int err;

	bb_init(&lb);
	le = bb_t(&lb, NULL, BTF_KIND_ENUM, 1, 4, 4);
	bb_e(&lb, "A___x", 1);
	bb_e(&lb, "B", 2);
	bb_e(&lb, "GONE", 3);
	bb_e(&lb, "C", 4);
	le64 = bb_t(&lb, NULL, BTF_KIND_ENUM64, 0, 2, 8);
	bb_e64(&lb, "W", 1);
	bb_e64(&lb, "Z", 2);
	ls = bb_t(&lb, NULL, BTF_KIND_STRUCT, 0, 0, 0);
	lmod = bb_t(&lb, NULL, BTF_KIND_ENUM, 0, 1, 4);
	bb_e(&lb, "MOD_ONLY", 1);
	a0 = bb_str(&lb, "0"); a1 = bb_str(&lb, "1"); a2 = bb_str(&lb, "2"); a3 = bb_str(&lb, "3");
	l = bb_btf(&lb, NULL);

	bb_init(&tb);
	bb_t(&tb, "named", BTF_KIND_ENUM, 1, 2, 4); /* a namesake in a named enum */
	bb_e(&tb, "B", 50);
	bb_e(&tb, "GONE", 51);
	bb_t(&tb, NULL, BTF_KIND_ENUM, 0, 1, 4); /* shares nothing */
	bb_e(&tb, "UNRELATED", 7);
	bb_t(&tb, NULL, BTF_KIND_ENUM, 1, 2, 4);
	bb_e(&tb, "B", 15);
	bb_e(&tb, "A", 11);
	bb_t(&tb, NULL, BTF_KIND_ENUM64, 0, 1, 8);
	bb_e64(&tb, "W", 0x0123456789abcdefULL);
	bb_t(&tb, NULL, BTF_KIND_ENUM, 1, 2, 4); /* C and Z live in another enum */
	bb_e(&tb, "C", -4);
	bb_e(&tb, "Z", -5);
	bb_t(&tb, NULL, BTF_KIND_STRUCT, 0, 0, 0);
	t = bb_btf(&tb, NULL);
	T_OK(l && t, "hand-built anonymous enum BTFs parse");
	if (!l || !t)
		return;

	T_OK(calc1(l, t, le, a0, CORE_ENUMVAL_VALUE, &r) == 0 && !r.poison && r.orig_val == 1 && r.new_val == 11,
	     "anonymous enum: A___x -> A of the anonymous target enum: %llu", (unsigned long long)r.new_val);
	T_OK(calc1(l, t, le, a1, CORE_ENUMVAL_VALUE, &r) == 0 && r.new_val == 15,
	     "anonymous enum: a named enum's namesake is no candidate (B = %llu, not 50)",
	     (unsigned long long)r.new_val);
	T_OK(calc1(l, t, le, a2, CORE_ENUMVAL_EXISTS, &r) == 0 && r.orig_val == 1 && r.new_val == 0,
	     "anonymous enum: enumerator only in a named enum does not exist");
	T_OK(calc1(l, t, le, a2, CORE_ENUMVAL_VALUE, &r) == 0 && r.poison, "anonymous enum: missing value poisoned");
	T_OK(calc1(l, t, le64, a0, CORE_ENUMVAL_VALUE, &r) == 0 && r.orig_val == 1 &&
	     r.new_val == 0x0123456789abcdefULL, "anonymous ENUM64: 64-bit value %#llx",
	     (unsigned long long)r.new_val);
	T_OK(calc1(l, t, le64, a1, CORE_ENUMVAL_VALUE, &r) == 0 && r.new_val == (uint64_t)-5,
	     "anonymous ENUM64 local, ENUM target: sign-extended -5");
	T_OK(calc1(l, t, ls, a0, CORE_TYPE_EXISTS, &r) == -EOPNOTSUPP,
	     "anonymous struct still cannot be relocated: %s", err_msg());

	/* one context: the enum of A, then another enum for C, then A again */
	ctx = core_ctx_new(l, t);
	rel = (struct core_relo){ .type_id = le, .access_str_off = a0, .kind = CORE_ENUMVAL_VALUE };
	err = core_calc(ctx, &rel, &r);
	T_OK(err == 0 && r.new_val == 11, "shared context: A = 11");
	rel.access_str_off = a3;
	err = core_calc(ctx, &rel, &r);
	T_OK(err == 0 && !r.poison && r.new_val == (uint64_t)-4,
	     "shared context: C of another anonymous enum still found after A matched (%s)",
	     r.poison ? "poisoned" : "value");
	rel.access_str_off = a0;
	T_OK(core_calc(ctx, &rel, &r) == 0 && r.new_val == 11, "shared context: A again");

	/* modules: searched only because vmlinux has no such enumerator */
	bb_init(&mb);
	mb.nr = btf_nr_types(t) - 1;
	mb.sbase = (uint32_t)tb.ns;
	mb.ns = 0; /* own strings continue the base's: no leading "" */
	bb_t(&mb, NULL, BTF_KIND_ENUM, 0, 1, 4);
	bb_e(&mb, "MOD_ONLY", 77);
	mod = bb_btf(&mb, t);
	T_OK(mod != NULL, "module BTF parses (%s)", mod ? "" : err_msg());
	module_btf = mod;
	module_at = 0;
	core_ctx_set_more(ctx, one_module, NULL);
	rel = (struct core_relo){ .type_id = lmod, .access_str_off = a0, .kind = CORE_ENUMVAL_VALUE };
	err = core_calc(ctx, &rel, &r);
	T_OK(mod && err == 0 && !r.poison && r.new_val == 77 && module_at > 0,
	     "anonymous enum found in a module: MOD_ONLY = %llu", (unsigned long long)r.new_val);
	core_ctx_free(ctx);
	btf_free(mod);

	/* two anonymous enums declaring B: agreeing values pass, others are ambiguous */
	for (int differ = 0; differ < 2; differ++) {
		bb_init(&tb);
		bb_t(&tb, NULL, BTF_KIND_ENUM, 0, 1, 4);
		bb_e(&tb, "B", 15);
		bb_t(&tb, NULL, BTF_KIND_ENUM64, 0, 1, 8);
		bb_e64(&tb, "B", differ ? 16 : 15);
		t2 = bb_btf(&tb, NULL);
		err = t2 ? calc1(l, t2, le, a1, CORE_ENUMVAL_VALUE, &r) : -1;
		if (differ)
			T_OK(err == -EINVAL && strstr(err_msg(), "ambiguous"),
			     "anonymous enums disagreeing on B: %s", err_msg());
		else
			T_OK(err == 0 && r.new_val == 15, "anonymous enums agreeing on B = 15");
		btf_free(t2);
	}
	btf_free(l);
	btf_free(t);
}

/* Local: struct amb { int a; int b; }; targets with two "amb" types. */
static void hand_ambiguity(void)
{
	struct bb lb, tb;
	struct btf *l, *t;
	struct core_res r;
	uint32_t la, acc_a, acc_b, i32;
	int err;

	bb_init(&lb);
	i32 = bb_int(&lb, "int", 4, 1);
	la = bb_t(&lb, "amb___loc", BTF_KIND_STRUCT, 0, 2, 8);
	bb_m(&lb, "a", i32, 0, 0);
	bb_m(&lb, "b", i32, 32, 0);
	acc_a = bb_str(&lb, "0:0");
	acc_b = bb_str(&lb, "0:1");
	l = bb_btf(&lb, NULL);

	for (int variant = 0; variant < 3; variant++) {
		bb_init(&tb);
		i32 = bb_int(&tb, "int", 4, 1);
		bb_t(&tb, variant == 2 ? "amb___v1" : "amb", BTF_KIND_STRUCT, 0, 2, 8);
		bb_m(&tb, "a", i32, 0, 0);
		bb_m(&tb, "b", i32, 32, 0);
		bb_t(&tb, variant == 2 ? "amb___v2" : "amb", BTF_KIND_STRUCT, 0, 2, 8);
		bb_m(&tb, variant == 1 ? "b" : "a", i32, 0, 0);
		bb_m(&tb, variant == 1 ? "a" : "b", i32, 32, 0);
		t = bb_btf(&tb, NULL);
		if (!l || !t)
			break;
		err = calc1(l, t, la, acc_b, CORE_FIELD_BYTE_OFFSET, &r);
		if (variant == 1)
			T_OK(err == -EINVAL && strstr(err_msg(), "ambiguous relocation"),
			     "two disagreeing candidates: %s", err_msg());
		else
			T_OK(err == 0 && r.new_val == 4, "%s candidates that agree are fine",
			     variant ? "two flavored-name" : "two identical");
		btf_free(t);
	}
	(void)acc_a;
	btf_free(l);
}

/* TYPE_MATCHES, TYPE_EXISTS through typedef'd function pointers, flavored
 * target fallback, and the work budget on a pathological type. */
static void hand_types(void)
{
	struct bb lb, tb;
	struct btf *l, *t;
	struct core_res r;
	uint32_t i32, i64, m, fw, fp, proto, td, acc0, deep = 0;

	bb_init(&lb);
	i32 = bb_int(&lb, "int", 4, 1);                            /* 1 */
	m = bb_t(&lb, "m", BTF_KIND_STRUCT, 0, 2, 16);             /* 2 */
	bb_m(&lb, "a", i32, 0, 0);
	bb_m(&lb, "p", 4, 64, 0);
	fw = bb_t(&lb, "fwdd", BTF_KIND_STRUCT, 0, 0, 0);          /* 3 */
	bb_t(&lb, NULL, BTF_KIND_PTR, 0, 0, fw);                   /* 4 */
	proto = bb_t(&lb, NULL, BTF_KIND_FUNC_PROTO, 0, 2, i32);   /* 5 */
	bb_w(&lb, 0); bb_w(&lb, i32);
	bb_w(&lb, 0); bb_w(&lb, i32);
	fp = bb_t(&lb, NULL, BTF_KIND_PTR, 0, 0, proto);           /* 6 */
	td = bb_t(&lb, "fp_t", BTF_KIND_TYPEDEF, 0, 0, fp);        /* 7 */
	/* d0 { d1 a, b } ... d24 { int a, b }: a 2^24-leaf tree */
	for (int k = 0; k < 25; k++) {
		char n[8];
		uint32_t id, child = k == 24 ? i32 : lb.nr + 2;

		snprintf(n, sizeof(n), "d%u", (unsigned)k & 63);
		id = bb_t(&lb, n, BTF_KIND_STRUCT, 0, 2, 8);
		bb_m(&lb, "a", child, 0, 0);
		bb_m(&lb, "b", child, 0, 0);
		if (!deep)
			deep = id;
	}
	acc0 = bb_str(&lb, "0");
	l = bb_btf(&lb, NULL);

	bb_init(&tb);
	i32 = bb_int(&tb, "int", 4, 1);                            /* 1 */
	bb_t(&tb, "m", BTF_KIND_STRUCT, 0, 3, 24);                 /* 2 */
	bb_m(&tb, "extra", i32, 0, 0);
	bb_m(&tb, "a", i32, 32, 0);
	bb_m(&tb, "p", 4, 64, 0);
	bb_t(&tb, "fwdd", BTF_KIND_FWD, 0, 0, 0);                  /* 3 */
	bb_t(&tb, NULL, BTF_KIND_PTR, 0, 0, 3);                    /* 4 */
	bb_t(&tb, NULL, BTF_KIND_FUNC_PROTO, 0, 1, i32);           /* 5 */
	bb_w(&tb, 0); bb_w(&tb, i32);
	bb_t(&tb, NULL, BTF_KIND_PTR, 0, 0, 5);                    /* 6 */
	bb_t(&tb, "fp_t", BTF_KIND_TYPEDEF, 0, 0, 6);              /* 7 */
	i64 = bb_int(&tb, "long", 8, 1);                           /* 8 */
	bb_t(&tb, "m___long", BTF_KIND_STRUCT, 0, 1, 8);           /* 9: not seen, exact "m" exists */
	bb_m(&tb, "a", i64, 0, 0);
	for (int k = 0; k < 25; k++) {
		char n[8];
		uint32_t child = k == 24 ? i32 : tb.nr + 2;

		snprintf(n, sizeof(n), "d%u", (unsigned)k & 63);
		bb_t(&tb, n, BTF_KIND_STRUCT, 0, 2, 8);
		bb_m(&tb, "a", child, 0, 0);
		bb_m(&tb, "b", child, 0, 0);
	}
	t = bb_btf(&tb, NULL);
	T_OK(l && t, "hand-built type BTFs parse");
	if (!l || !t)
		return;
	T_OK(calc1(l, t, m, acc0, CORE_TYPE_MATCHES, &r) == 0 && r.new_val == 1,
	     "TYPE_MATCHES: extra target member, struct behind pointer matches a fwd");
	T_OK(calc1(l, t, m, acc0, CORE_TYPE_SIZE, &r) == 0 && r.new_val == 24 && r.orig_val == 16,
	     "TYPE_SIZE 16 -> 24");
	T_OK(calc1(l, t, m, acc0, CORE_TYPE_ID_TARGET, &r) == 0 && r.new_val == 2 && !r.validate,
	     "TYPE_ID_TARGET, not validated");
	T_OK(calc1(l, t, m, acc0, CORE_TYPE_ID_LOCAL, &r) == 0 && r.new_val == m && r.orig_val == m,
	     "TYPE_ID_LOCAL");
	T_OK(calc1(l, t, td, acc0, CORE_TYPE_EXISTS, &r) == 0 && r.new_val == 0 && r.orig_val == 1,
	     "func pointer typedef with another arity is not compatible");
	T_OK(calc1(l, l, td, acc0, CORE_TYPE_EXISTS, &r) == 0 && r.new_val == 1,
	     "func pointer typedef compatible with itself");
	T_OK(calc1(l, t, deep, acc0, CORE_TYPE_MATCHES, &r) == -ELOOP,
	     "TYPE_MATCHES on a 2^25-node type tree stops: %s", err_msg());
	btf_free(l);
	btf_free(t);

	/* Target where "m" has a long "a": TYPE_MATCHES 0; flavored name only. */
	bb_init(&tb);
	i64 = bb_int(&tb, "long", 8, 1);
	bb_t(&tb, "m___v9", BTF_KIND_STRUCT, 0, 2, 16);
	bb_m(&tb, "a", i64, 0, 0);
	bb_m(&tb, "p", i64, 64, 0);
	t = bb_btf(&tb, NULL);
	l = NULL;
	bb_init(&lb);
	i32 = bb_int(&lb, "int", 4, 1);
	m = bb_t(&lb, "m", BTF_KIND_STRUCT, 0, 1, 4);
	bb_m(&lb, "a", i32, 0, 0);
	acc0 = bb_str(&lb, "0");
	uint32_t acca = bb_str(&lb, "0:0");
	l = bb_btf(&lb, NULL);
	if (l && t) {
		T_OK(calc1(l, t, m, acc0, CORE_TYPE_MATCHES, &r) == 0 && r.new_val == 0,
		     "TYPE_MATCHES: int vs long member does not match");
		T_OK(calc1(l, t, m, acc0, CORE_TYPE_EXISTS, &r) == 0 && r.new_val == 1,
		     "flavored target name m___v9 is a candidate for m");
		T_OK(calc1(l, t, m, acca, CORE_FIELD_BYTE_SIZE, &r) == 0 && r.new_val == 8 && r.orig_val == 4,
		     "field size 4 -> 8 through flavored target");
	}
	btf_free(l);
	btf_free(t);
}

/* Malformed records: errors with messages, never crashes. */
static void hand_malformed(void)
{
	struct bb b;
	struct btf *btf;
	struct core_res r;
	struct core_ctx *ctx;
	uint32_t i32, s, anon, arr, arr0, fl;
	char deep[200] = "0";
	struct { const char *acc; uint32_t kind; int type; const char *what; } c[] = {
		{ "0:999", CORE_FIELD_BYTE_OFFSET, 0, "member index 999" },
		{ "", CORE_FIELD_BYTE_OFFSET, 0, "empty access string" },
		{ ":0", CORE_FIELD_BYTE_OFFSET, 0, "leading ':'" },
		{ "0::1", CORE_FIELD_BYTE_OFFSET, 0, "'::'" },
		{ "0:1:", CORE_FIELD_BYTE_OFFSET, 0, "trailing ':'" },
		{ "abc", CORE_FIELD_BYTE_OFFSET, 0, "letters" },
		{ "-1", CORE_FIELD_BYTE_OFFSET, 0, "negative index" },
		{ "0:99999999999", CORE_FIELD_BYTE_OFFSET, 0, "index overflow" },
		{ "0:0:1", CORE_FIELD_BYTE_OFFSET, 0, "path steps into an int" },
		{ "0:2:5", CORE_FIELD_BYTE_OFFSET, 0, "array index out of bounds" },
		{ "4294967295", CORE_FIELD_BYTE_OFFSET, 0, "huge root index" },
		{ "1", CORE_TYPE_SIZE, 0, "type relocation with '1'" },
		{ "0", 42, 0, "kind 42" },
		{ "0", CORE_ENUMVAL_VALUE, 0, "enumval on a struct" },
		{ "0:0", CORE_FIELD_BYTE_OFFSET, 99, "type id out of range" },
		{ "0:0", CORE_FIELD_BYTE_OFFSET, -1, "anonymous root type" },
		{ "0:2:4", CORE_FIELD_BYTE_OFFSET, 0, "array index equal to the bound" },
		{ NULL, CORE_FIELD_BYTE_OFFSET, 0, "access string 70 deep" },
	};
	uint32_t offs[ARRAY_SIZE(c)];

	for (int k = 0; k < 69; k++)
		strcat(deep, ":0");
	bb_init(&b);
	i32 = bb_int(&b, "int", 4, 1);
	arr = bb_arr(&b, i32, i32, 4);
	s = bb_t(&b, "s", BTF_KIND_STRUCT, 0, 3, 24);
	bb_m(&b, "a", i32, 0, 0);
	bb_m(&b, "b", i32, 32, 0);
	bb_m(&b, "arr", arr, 64, 0);
	anon = bb_t(&b, NULL, BTF_KIND_STRUCT, 0, 1, 4);
	bb_m(&b, "a", i32, 0, 0);
	arr0 = bb_arr(&b, i32, i32, 0);
	fl = bb_t(&b, "fl", BTF_KIND_STRUCT, 0, 2, 4);
	bb_m(&b, "n", i32, 0, 0);
	bb_m(&b, "d", arr0, 32, 0);
	for (size_t i = 0; i < ARRAY_SIZE(c); i++)
		offs[i] = bb_str(&b, c[i].acc ? c[i].acc : deep);
	uint32_t flex7 = bb_str(&b, "0:1:7");
	btf = bb_btf(&b, NULL);
	T_OK(btf != NULL, "hand-built malformed-test BTF parses");
	if (!btf)
		return;
	ctx = core_ctx_new(btf, btf);
	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		struct core_relo rel = { .insn_off = 0, .access_str_off = offs[i], .kind = c[i].kind };
		int err;

		rel.type_id = c[i].type == 0 ? s : c[i].type < 0 ? anon : (uint32_t)c[i].type;
		err_clear();
		err = core_calc(ctx, &rel, &r);
		T_OK(err < 0 && err_msg()[0], "malformed: %s -> %d: %s", c[i].what, err, err_msg());
	}
	{
		struct core_relo rel = { .type_id = s, .access_str_off = 1u << 30, .kind = 0 };
		char d[128];

		T_OK(core_calc(ctx, &rel, &r) < 0, "access string offset beyond strings: %s", err_msg());
		core_describe(btf, &rel, d, sizeof(d));
		T_OK(strstr(d, "bad access string") != NULL, "core_describe on a bad record: '%s'", d);
		rel.type_id = 12345;
		core_describe(btf, &rel, d, 8); /* tiny buffer: truncated, terminated */
		T_OK(strlen(d) < 8, "core_describe truncates to the buffer");
		rel.type_id = fl;
		rel.access_str_off = flex7;
		T_OK(core_calc(ctx, &rel, &r) == 0 && r.new_val == 4 + 7 * 4,
		     "flexible array index past its 0 bound: offset %llu", (unsigned long long)r.new_val);
	}
	core_ctx_free(ctx);
	btf_free(btf);
}

static void patching(void)
{
	struct core_relo rel = { .kind = CORE_FIELD_BYTE_OFFSET };
	struct core_res res = { .orig_val = 8, .new_val = 16, .validate = true, .orig_sz = 4, .new_sz = 4 };
	struct bpf_insn p[4];
	int err;

	/* ALU imm */
	memset(p, 0, sizeof(p));
	p[0] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .imm = 8 };
	T_OK(core_patch_insn(p, 4, 0, &rel, &res) == 0 && p[0].imm == 16, "ALU64 imm patched");
	p[0].imm = 9;
	T_OK(core_patch_insn(p, 4, 0, &rel, &res) == -EINVAL, "ALU imm validation: %s", err_msg());
	p[0] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_ADD | BPF_X, .imm = 8 };
	T_OK(core_patch_insn(p, 4, 0, &rel, &res) < 0, "register ALU rejected: %s", err_msg());
	/* LDX */
	p[0] = (struct bpf_insn){ .code = BPF_LDX | BPF_MEM | BPF_W, .dst_reg = 0, .src_reg = 1, .off = 8 };
	T_OK(core_patch_insn(p, 4, 0, &rel, &res) == 0 && p[0].off == 16 && BPF_SIZE(p[0].code) == BPF_W,
	     "LDX off patched");
	p[0].off = 8;
	res.new_sz = 8;
	T_OK(core_patch_insn(p, 4, 0, &rel, &res) == 0 && BPF_SIZE(p[0].code) == BPF_DW &&
	     BPF_CLASS(p[0].code) == BPF_LDX && BPF_MODE(p[0].code) == BPF_MEM, "LDX u32 -> u64 size adjusted");
	p[0] = (struct bpf_insn){ .code = BPF_LDX | BPF_MEM | BPF_H, .src_reg = 1, .off = 8 };
	T_OK(core_patch_insn(p, 4, 0, &rel, &res) == -EINVAL, "LDX size not the field's: %s", err_msg());
	p[0] = (struct bpf_insn){ .code = BPF_LDX | BPF_MEM | BPF_W, .src_reg = 1, .off = 8 };
	res.fail_memsz_adjust = true;
	T_OK(core_patch_insn(p, 4, 0, &rel, &res) == 0 && is_poison_call(&p[0]) && p[1].code == 0,
	     "signed size change poisons LDX");
	res.fail_memsz_adjust = false;
	res.new_sz = 4;
	p[0] = (struct bpf_insn){ .code = BPF_STX | BPF_MEM | BPF_W, .src_reg = 1, .off = 8 };
	res.new_val = 40000;
	T_OK(core_patch_insn(p, 4, 0, &rel, &res) == -ERANGE, "offset beyond s16: %s", err_msg());
	res.new_val = 16;
	/* ld_imm64 */
	memset(p, 0, sizeof(p));
	p[0] = (struct bpf_insn){ .code = BPF_LD | BPF_IMM | BPF_DW, .imm = 8 };
	res.new_val = 0x123456789ULL;
	T_OK(core_patch_insn(p, 4, 0, &rel, &res) == 0 && p[0].imm == 0x23456789 && p[1].imm == 1,
	     "ld_imm64 both halves patched");
	T_OK(core_patch_insn(p, 1, 0, &rel, &res) == -EINVAL, "ld_imm64 cut off by section end: %s", err_msg());
	p[0].src_reg = 1;
	T_OK(core_patch_insn(p, 4, 0, &rel, &res) == -EINVAL, "ld_imm64 with src_reg rejected: %s", err_msg());
	p[0].src_reg = 0;
	res.poison = true;
	T_OK(core_patch_insn(p, 4, 0, &rel, &res) == 0 && is_poison_call(&p[0]) && is_poison_call(&p[1]),
	     "poisoned ld_imm64: both slots become call 0xbad2310");
	res.poison = false;
	err = core_patch_insn(p, 4, 4, &rel, &res);
	T_OK(err == -EINVAL, "insn index beyond the section: %s", err_msg());
	p[2] = (struct bpf_insn){ .code = BPF_JMP | BPF_JA };
	T_OK(core_patch_insn(p, 4, 2, &rel, &res) == -EINVAL, "jump cannot be relocated: %s", err_msg());
}

/* ---- vmlinux timing --------------------------------------------------- */

static void vmlinux_timing(void)
{
	char *buf;
	size_t len, n, i;
	struct btf *vm;
	struct obj bench;
	struct rec *recs;
	int errs = 0, poisoned = 0;
	uint64_t t0, t1, t2, tidx;

	if (read_file("/sys/kernel/btf/vmlinux", 256 << 20, &buf, &len)) {
		T_SKIP("vmlinux timing", "no /sys/kernel/btf/vmlinux");
		return;
	}
	vm = btf_new(buf, len, 0, NULL);
	if (obj_load(&bench, "bench.o") || !vm || obj_recs(&bench, &recs, &n)) {
		T_OK(0, "bench inputs load: %s", err_msg());
		return;
	}
	t0 = now_ns();
	btf_find(vm, "task_struct", -1); /* build btf.c's name index first */
	tidx = now_ns() - t0;
	t0 = now_ns();
	struct core_ctx *ctx = core_ctx_new(bench.btf, vm);
	for (i = 0; i < n; i++) {
		struct outcome oc = relocate(ctx, &recs[i]);

		if (oc.err) {
			errs++;
			printf("# %s: %s\n", recs[i].sec, err_msg());
		}
		poisoned += oc.poisoned;
	}
	t1 = now_ns();
	for (i = 0; i < n; i++)
		relocate(ctx, &recs[i]);
	t2 = now_ns();
	core_ctx_free(ctx);
	T_OK(errs == 0 && n == 200,
	     "relocated %zu records against vmlinux (%u types) in %.2f ms (+ %.2f ms btf name index; again with cached candidates: %.2f ms); %d poisoned, %d errors",
	     n, btf_nr_types(vm), (t1 - t0) / 1e6, tidx / 1e6, (t2 - t1) / 1e6, poisoned, errs);
	free(recs);
	obj_free(&bench);
	btf_free(vm);
	free(buf);
}

int main(void)
{
	struct obj local;
	FILE *f = NULL;

	core_dir = getenv("CORE_TEST_DIR");
	if (!core_dir)
		core_dir = (f = fopen("../../build/test/core/local.o", "r")) ? "../../build/test/core"
									     : "build/test/core";
	if (f)
		fclose(f);

	hand_bitfields();
	hand_enum64();
	hand_anon_enum();
	hand_ambiguity();
	hand_types();
	hand_malformed();
	patching();

	if (obj_load(&local, "local.o") == 0) {
		identity(&local);
		describe_clang(&local);
		oracle_target(&local, "a");
		oracle_target(&local, "b");
		oracle_target(&local, "c");
		obj_free(&local);
	} else {
		T_OK(0, "%s/local.o loads (run tests/core/gen.sh first): %s", core_dir, err_msg());
	}
	vmlinux_timing();
	T_EXIT();
}
