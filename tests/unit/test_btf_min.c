/* Minimal BTF (btf/btf_write.c) and the CO-RE engine's hooks for it and
 * for kernel modules (btf/relo_core.c: core_ctx_set_visit/set_more).
 *
 * 1. Writer: strings deduplicated, the blob parses back with every type.
 * 2. Minimal BTF is exact: every CO-RE record of tests/core/local.o is
 *    relocated against each oracle target (a, b, c) while recording what
 *    it used; the minimal BTF built from that gives every record the same
 *    outcome (value, access size, poison, error) as the full target.
 * 3. The same against the live kernel BTF with tests/core/bench.o (200
 *    kernel-type relocations) and every tool object in build/bpf/ when
 *    built; the minimal BTF must be small.  Also times CO-RE for all tool
 *    objects the way obj_load does it (the start-up share of relocation).
 * 4. Modules: a crafted split BTF ("module") on top of a base ("vmlinux"):
 *    a type only in the module is found there (through flavors too), a
 *    type in the base never consults the modules, candidates from two
 *    modules must agree, and the visit reports the module's BTF. */
#include <dirent.h>
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

/* ---- objects and their records ---------------------------------------- */

struct tobj {
	char *buf;
	size_t len;
	struct elf_view ev;
	struct btf *btf;
	struct btf_ext ext;
	bool has_ext;
};

struct rec {
	struct core_relo r;
	const struct bpf_insn *code;
	size_t cnt;
};

static int tobj_load(struct tobj *o, const char *path)
{
	const Elf64_Shdr *sh;
	const void *d;
	size_t n;

	memset(o, 0, sizeof(*o));
	if (read_file(path, 64 << 20, &o->buf, &o->len) || elf_open(&o->ev, o->buf, o->len))
		return -1;
	sh = elf_find_sec(&o->ev, ".BTF");
	if (!sh || elf_sec_data(&o->ev, sh, &d, &n) || !(o->btf = btf_new(d, n, 1, NULL)))
		return -1;
	sh = elf_find_sec(&o->ev, ".BTF.ext");
	if (sh && elf_sec_data(&o->ev, sh, &d, &n) == 0 && btf_ext_parse(&o->ext, d, n, o->btf) == 0)
		o->has_ext = true;
	return 0;
}

static void tobj_free(struct tobj *o)
{
	if (o->has_ext)
		btf_ext_free(&o->ext);
	btf_free(o->btf);
	free(o->buf);
}

static size_t tobj_recs(struct tobj *o, struct rec **out)
{
	size_t n = 0;

	*out = NULL;
	for (uint32_t s = 0; o->has_ext && s < o->ext.nr_core; s++) {
		const struct btf_ext_sec *es = &o->ext.core[s];
		const Elf64_Shdr *sh = elf_find_sec(&o->ev, es->sec_name);
		const void *code;
		size_t clen;

		if (!sh || elf_sec_data(&o->ev, sh, &code, &clen))
			continue;
		*out = realloc(*out, (n + es->nr) * sizeof(**out));
		for (uint32_t r = 0; r < es->nr; r++, n++) {
			memcpy(&(*out)[n].r, (const char *)es->recs + (size_t)r * es->rec_size, sizeof(struct core_relo));
			(*out)[n].code = code;
			(*out)[n].cnt = clen / sizeof(struct bpf_insn);
		}
	}
	return n;
}

/* ---- relocation outcome -------------------------------------------------- */

struct outcome {
	int err;
	struct bpf_insn insn[2];
};

static struct outcome relocate(struct core_ctx *ctx, const struct rec *rc)
{
	struct outcome oc;
	size_t idx = rc->r.insn_off / 8;
	struct bpf_insn *copy = malloc(rc->cnt * sizeof(*copy) + 1);
	struct core_res res;

	memset(&oc, 0, sizeof(oc));
	memcpy(copy, rc->code, rc->cnt * sizeof(*copy));
	oc.err = core_calc(ctx, &rc->r, &res);
	if (!oc.err)
		oc.err = core_patch_insn(copy, rc->cnt, idx, &rc->r, &res);
	if (!oc.err && idx < rc->cnt) {
		oc.insn[0] = copy[idx];
		if (idx + 1 < rc->cnt)
			oc.insn[1] = copy[idx + 1];
	}
	free(copy);
	return oc;
}

/* Relocate recs against full (recording into a btf_min), write the minimal
 * BTF, relocate again against it; count records whose outcome differs. */
static int min_roundtrip(const char *what, struct tobj *local, const struct btf *full, size_t *min_size,
			 uint32_t *min_types, int *nrecs)
{
	struct btf_min *m = btf_min_new(full);
	struct core_ctx *ctx = core_ctx_new(local->btf, full);
	struct rec *recs;
	size_t n = tobj_recs(local, &recs), size = 0;
	struct outcome *before = calloc(n + 1, sizeof(*before));
	struct btf *min;
	void *blob;
	int diffs = 0;

	core_ctx_set_visit(ctx, btf_min_core_visit, m);
	for (size_t i = 0; i < n; i++)
		before[i] = relocate(ctx, &recs[i]);
	core_ctx_free(ctx);
	blob = btf_min_write(m, &size, min_types);
	btf_min_free(m);
	min = blob ? btf_new(blob, size, 0, NULL) : NULL;
	if (!min) {
		printf("# %s: minimal BTF does not parse: %s\n", what, err_msg());
		free(blob);
		free(before);
		free(recs);
		return -1;
	}
	ctx = core_ctx_new(local->btf, min);
	for (size_t i = 0; i < n; i++) {
		struct outcome after = relocate(ctx, &recs[i]);

		bool same = after.err == before[i].err && !memcmp(after.insn, before[i].insn, sizeof(after.insn));

		if (!same && recs[i].r.kind == CORE_TYPE_ID_TARGET && !after.err && !before[i].err) {
			/* ids are renumbered: the same named type, or 0 for both */
			const struct btf_type *a = btf_type_by_id(full, (uint32_t)before[i].insn[0].imm);
			const struct btf_type *b = btf_type_by_id(min, (uint32_t)after.insn[0].imm);

			same = a && b && btf_kind(a) == btf_kind(b) && !strcmp(btf_name(full, a), btf_name(min, b));
		}
		if (!same) {
			char d[256];

			core_describe(local->btf, &recs[i].r, d, sizeof(d));
			if (diffs++ < 5)
				printf("# %s: %s differs: err %d/%d imm %d/%d off %d/%d\n", what, d, before[i].err,
				       after.err, before[i].insn[0].imm, after.insn[0].imm, before[i].insn[0].off,
				       after.insn[0].off);
		}
	}
	core_ctx_free(ctx);
	btf_free(min);
	free(blob);
	free(before);
	free(recs);
	*min_size = size;
	*nrecs = (int)n;
	return diffs;
}

/* ---- 1. writer ------------------------------------------------------------ */

static void writer(void)
{
	struct btfw *w = btfw_new();
	struct btf_type t = { 0 };
	uint32_t enc = 32, a, b, c, ints;
	struct btf *btf;
	size_t size;
	void *blob;
	char name[32];
	int ok = 1;

	a = btfw_str(w, "int");
	b = btfw_str(w, "long");
	c = btfw_str(w, "int");
	T_OK(a == c && a != b && btfw_str(w, "") == 0 && btfw_str(w, NULL) == 0,
	     "btfw_str deduplicates (int %u, long %u, int again %u)", a, b, c);
	/* many distinct strings force the hash to grow */
	for (int i = 0; i < 2000; i++) {
		snprintf(name, sizeof(name), "t%d", i);
		t.name_off = btfw_str(w, name);
		t.info = BTF_KIND_INT << 24;
		t.size = 4;
		ints = btfw_add(w, &t, &enc, 4);
		ok &= ints == (uint32_t)i + 1;
	}
	for (int i = 0; i < 2000; i += 7) {
		snprintf(name, sizeof(name), "t%d", i);
		t.name_off = btfw_str(w, name);
		ok &= (int32_t)t.name_off > 0;
	}
	blob = btfw_finish(w, &size);
	btf = blob ? btf_new(blob, size, 0, NULL) : NULL;
	T_OK(ok && btf && btf_nr_types(btf) == 2001, "btfw: 2000 types added in order and parsed back");
	if (btf) {
		int32_t id = btf_find(btf, "t1234", BTF_KIND_INT);

		T_OK(id == 1235, "btfw: strings survive the hash growing (t1234 is [%d])", id);
	}
	btf_free(btf);
	free(blob);
	btfw_free(w);
}

/* ---- 2. oracle targets ------------------------------------------------------ */

static const char *core_dir;

static void oracle_min(void)
{
	char path[512];
	struct tobj local, targ;

	snprintf(path, sizeof(path), "%s/local.o", core_dir);
	if (tobj_load(&local, path)) {
		T_OK(0, "%s loads (run tests/core/gen.sh first): %s", path, err_msg());
		return;
	}
	for (const char *t = "abc"; *t; t++) {
		size_t size;
		uint32_t types;
		int n, diffs;

		snprintf(path, sizeof(path), "%s/target_%c.o", core_dir, *t);
		if (tobj_load(&targ, path)) {
			T_OK(0, "%s loads: %s", path, err_msg());
			continue;
		}
		diffs = min_roundtrip(path, &local, targ.btf, &size, &types, &n);
		T_OK(diffs == 0 && n > 50,
		     "target %c: %d relocations give the same result against the minimal BTF (%zu bytes, %u of %u types)",
		     *t, n, size, types, btf_nr_types(targ.btf) - 1);
		tobj_free(&targ);
	}
	/* the object's own BTF as target (identity) */
	{
		size_t size;
		uint32_t types;
		int n, diffs = min_roundtrip("identity", &local, local.btf, &size, &types, &n);

		T_OK(diffs == 0, "local BTF as target: %d relocations, same results from %zu bytes", n, size);
	}
	tobj_free(&local);
}

/* ---- 3. live kernel BTF --------------------------------------------------- */

/* Start-up share of CO-RE, measured the way obj_load works: a fresh
 * borrowed parse of the kernel BTF, one pass to find the root type names
 * (btf_find_prepare, as prepare_kernel_names does), then core_calc and
 * core_patch_insn for every record. */
static struct {
	double parse_ms, names_ms, core_ms;
	int objs, relos;
} tm;

static void timing_start(void)
{
	memset(&tm, 0, sizeof(tm));
}

static void timing_add(struct tobj *o, const char *vmbuf, size_t vmlen)
{
	uint64_t t0 = now_ns(), t1, t2;
	struct btf *vm = btf_new(vmbuf, vmlen, 0, NULL);
	struct rec *recs;
	size_t n = tobj_recs(o, &recs);
	char **names = calloc(n + 6, sizeof(*names));
	size_t nn = 0;
	struct core_ctx *ctx;

	t1 = now_ns();
	for (size_t i = 0; i < n; i++) {
		const char *name = btf_name(o->btf, btf_type_by_id(o->btf, recs[i].r.type_id));
		const char *f = strstr(name, "___");

		if (*name)
			names[nn++] = f ? strndup(name, (size_t)(f - name)) : strdup(name);
	}
	names[nn++] = strdup("long"); /* the engine's pointer-size probe */
	names[nn++] = strdup("long int");
	names[nn++] = strdup("unsigned long");
	names[nn++] = strdup("long unsigned int");
	btf_find_prepare(vm, (const char *const *)names, nn);
	t2 = now_ns();
	ctx = core_ctx_new(o->btf, vm);
	for (size_t i = 0; i < n; i++)
		relocate(ctx, &recs[i]);
	core_ctx_free(ctx);
	tm.core_ms += (double)(now_ns() - t2) / 1e6;
	tm.names_ms += (double)(t2 - t1) / 1e6;
	tm.parse_ms += (double)(t1 - t0) / 1e6;
	tm.objs++;
	tm.relos += (int)n;
	for (size_t i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	free(recs);
	btf_free(vm);
}

static void timing_report(void)
{
	T_OK(tm.objs > 0, "timing, %d tool objects, %d CO-RE relocations against the live kernel BTF: relocation %.2f ms"
			  " in all (%.3f ms per object); per object also %.2f ms parsing the BTF and %.2f ms finding names",
	     tm.objs, tm.relos, tm.core_ms, tm.core_ms / (tm.objs ? tm.objs : 1), tm.parse_ms / (tm.objs ? tm.objs : 1),
	     tm.names_ms / (tm.objs ? tm.objs : 1));
}

static void dump_pinned(const struct btf *vm);

static void vmlinux_min(void)
{
	char *buf, path[512];
	size_t len, size;
	uint32_t types;
	struct btf *vm;
	struct tobj o;
	int n, diffs;
	DIR *d;
	struct dirent *de;
	const char *bpf_dir = "../../build/bpf";

	if (read_file("/sys/kernel/btf/vmlinux", 256 << 20, &buf, &len) || !(vm = btf_new(buf, len, 0, NULL))) {
		T_SKIP("live minimal BTF", "no /sys/kernel/btf/vmlinux");
		return;
	}
	dump_pinned(vm);
	snprintf(path, sizeof(path), "%s/bench.o", core_dir);
	if (tobj_load(&o, path) == 0) {
		diffs = min_roundtrip("bench.o", &o, vm, &size, &types, &n);
		T_OK(diffs == 0 && n == 200 && size < 256 * 1024,
		     "bench.o: %d kernel relocations, same results from a %zu-byte minimal BTF (%u types; vmlinux: %zu bytes)",
		     n, size, types, len);
		tobj_free(&o);
	} else {
		T_OK(0, "%s loads: %s", path, err_msg());
	}
	d = opendir(bpf_dir);
	timing_start();
	while (d && (de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l < 7 || strcmp(de->d_name + l - 6, ".bpf.o"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", bpf_dir, de->d_name);
		if (tobj_load(&o, path)) {
			T_OK(0, "%s loads: %s", path, err_msg());
			continue;
		}
		timing_add(&o, buf, len);
		diffs = min_roundtrip(de->d_name, &o, vm, &size, &types, &n);
		T_OK(diffs == 0 && size < 16 * 1024, "%s: %d relocations, same results from a %zu-byte minimal BTF (%u types)",
		     de->d_name, n, size, types);
		tobj_free(&o);
	}
	if (d) {
		closedir(d);
		timing_report();
	} else {
		T_SKIP("tool objects", "not built (%s)", bpf_dir);
	}
	btf_free(vm);
	free(buf);
}

/* btf_dump_c of `only` from a BTF, as a malloc'd string (NULL on error). */
static char *dump_of(const struct btf *b, const char **only)
{
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);
	int err = btf_dump_c(b, f, only);

	fclose(f);
	if (err) {
		free(out);
		return NULL;
	}
	return out;
}

/* A minimal BTF of `only` kept whole, with or without btf_min_for_dump,
 * dumped with the same list (NULL on error). */
static char *min_dump(const struct btf *vm, const char **only, bool for_dump, size_t *size)
{
	struct btf_min *m = btf_min_new(vm);
	struct btf *mb = NULL;
	uint32_t nr;
	void *blob;
	char *out = NULL;

	if (for_dump)
		btf_min_for_dump(m);
	for (int i = 0; only[i]; i++)
		btf_min_type(m, (uint32_t)btf_find(vm, only[i], -1), true);
	blob = btf_min_write(m, size, &nr);
	if (blob && (mb = btf_new(blob, *size, 0, NULL)))
		out = dump_of(mb, only);
	btf_free(mb);
	free(blob);
	btf_min_free(m);
	return out;
}

/* The pinned input of make vmlinux.h: a header dumped from the minimal BTF
 * of some types equals the one dumped from the kernel's BTF.  These types
 * reach, through pointers, named enums (task_struct -> hrtimer_restart), an
 * anonymous struct behind a typedef (mm_struct -> pgd_t) and arrays; without
 * btf_min_for_dump the two differ (the control). */
static void dump_pinned(const struct btf *vm)
{
	const char *only[] = { "task_struct", "mm_struct", "request", "sk_buff", NULL };
	char *want = dump_of(vm, only), *got, *ctl;
	size_t size = 0, csize = 0;

	got = min_dump(vm, only, true, &size);
	ctl = min_dump(vm, only, false, &csize);
	T_OK(want && got && !strcmp(want, got),
	     "btf_min_for_dump: the header of 4 types from a %zu-byte minimal BTF equals the kernel BTF's (%zu bytes)",
	     size, want ? strlen(want) : 0);
	T_OK(want && ctl && strcmp(want, ctl), "without btf_min_for_dump the header differs (the check can fail)");
	free(want);
	free(got);
	free(ctl);
}

/* ---- 4. modules: crafted split BTF ----------------------------------------- */

/* A tiny BTF builder: base (ids from 1, strings from 0) or split (ids and
 * string offsets continue after the base's). */
struct bb {
	uint32_t w[1024];
	size_t nw;
	char s[4096];
	size_t ns;
	uint32_t first_id, nr, str_base;
};

static void bb_init(struct bb *b, const struct btf *base)
{
	memset(b, 0, sizeof(*b));
	b->first_id = base ? btf_nr_types(base) : 1;
	if (base) {
		size_t sz;
		const struct btf_header *h = btf_raw(base, &sz);

		b->str_base = h->str_len; /* base strings end here (a base has no base) */
	} else {
		b->ns = 1; /* "" at offset 0 */
	}
}

static uint32_t bb_str(struct bb *b, const char *s)
{
	uint32_t off = b->str_base + (uint32_t)b->ns;

	memcpy(b->s + b->ns, s, strlen(s) + 1);
	b->ns += strlen(s) + 1;
	return off;
}

static void bb_w(struct bb *b, uint32_t w) { b->w[b->nw++] = w; }

static uint32_t bb_t(struct bb *b, const char *name, int kind, uint32_t vlen, uint32_t st)
{
	bb_w(b, name ? bb_str(b, name) : 0);
	bb_w(b, (uint32_t)kind << 24 | vlen);
	bb_w(b, st);
	return b->first_id + b->nr++;
}

static void bb_m(struct bb *b, const char *name, uint32_t type, uint32_t bit_off)
{
	bb_w(b, bb_str(b, name));
	bb_w(b, type);
	bb_w(b, bit_off);
}

static struct btf *bb_btf(struct bb *b, const struct btf *base)
{
	struct btf_header h = { .magic = BTF_MAGIC, .version = BTF_VERSION, .hdr_len = sizeof(h) };
	size_t tl = b->nw * 4, total = sizeof(h) + tl + b->ns;
	uint8_t *blob = malloc(total);
	struct btf *btf;

	h.type_len = (uint32_t)tl;
	h.str_off = (uint32_t)tl;
	h.str_len = (uint32_t)b->ns;
	memcpy(blob, &h, sizeof(h));
	memcpy(blob + sizeof(h), b->w, tl);
	memcpy(blob + sizeof(h) + tl, b->s, b->ns);
	btf = btf_new(blob, total, 1, base);
	free(blob);
	if (!btf)
		printf("# bb_btf: %s\n", err_msg());
	return btf;
}

struct mods {
	const struct btf *m[2];
	int n;
	int calls;
};

static const struct btf *more(void *arg, uint32_t i)
{
	struct mods *ms = arg;

	ms->calls++;
	return i < (uint32_t)ms->n ? ms->m[i] : NULL;
}

struct seen {
	const struct btf *btf;
	uint32_t root;
	int n;
};

static void seen_visit(void *arg, const struct core_visit *v)
{
	struct seen *s = arg;

	s->btf = v->btf;
	s->root = v->root_id;
	s->n++;
}

static void modules(void)
{
	struct bb lb, bb, mb, mb2;
	struct btf *local, *base, *mod, *mod2;
	uint32_t l_int, l_mt, l_mtf, l_bt, b_int, m_mt;
	uint32_t acc1;
	struct mods ms = { { 0 }, 0, 0 };
	struct seen seen = { 0 };
	struct core_ctx *ctx;
	struct core_res res;
	struct core_relo r = { 0 };
	int err;

	/* local: struct modtype { int a; int b; }, its flavor modtype___v2 { int b; },
	 * struct basetype { int x; } */
	bb_init(&lb, NULL);
	l_int = bb_t(&lb, "int", BTF_KIND_INT, 0, 4);
	bb_w(&lb, BTF_INT_SIGNED << 24 | 32);
	l_mt = bb_t(&lb, "modtype", BTF_KIND_STRUCT, 2, 8);
	bb_m(&lb, "a", l_int, 0);
	bb_m(&lb, "b", l_int, 32);
	l_mtf = bb_t(&lb, "modtype___v2", BTF_KIND_STRUCT, 1, 4);
	bb_m(&lb, "b", l_int, 0);
	l_bt = bb_t(&lb, "basetype", BTF_KIND_STRUCT, 1, 4);
	bb_m(&lb, "x", l_int, 0);
	acc1 = bb_str(&lb, "0:1");
	bb_str(&lb, "0:0");
	local = bb_btf(&lb, NULL);

	/* base ("vmlinux"): int, struct basetype { long pad; int x; } */
	bb_init(&bb, NULL);
	b_int = bb_t(&bb, "int", BTF_KIND_INT, 0, 4);
	bb_w(&bb, BTF_INT_SIGNED << 24 | 32);
	bb_t(&bb, "basetype", BTF_KIND_STRUCT, 2, 12);
	bb_m(&bb, "pad", b_int, 0);
	bb_m(&bb, "x", b_int, 64);
	base = bb_btf(&bb, NULL);

	/* module: struct modtype { int pad[3]... } as { int c; int a; int b; } (b at byte 8) */
	bb_init(&mb, base);
	m_mt = bb_t(&mb, "modtype", BTF_KIND_STRUCT, 3, 12);
	bb_m(&mb, "c", b_int, 0);
	bb_m(&mb, "a", b_int, 32);
	bb_m(&mb, "b", b_int, 64);
	mod = base ? bb_btf(&mb, base) : NULL;
	/* second module: the same type, b at byte 4: disagrees with the first */
	bb_init(&mb2, base);
	bb_t(&mb2, "modtype", BTF_KIND_STRUCT, 2, 8);
	bb_m(&mb2, "a", b_int, 0);
	bb_m(&mb2, "b", b_int, 32);
	mod2 = base ? bb_btf(&mb2, base) : NULL;
	if (!local || !base || !mod || !mod2) {
		T_OK(0, "crafted split BTF parses");
		goto out;
	}
	T_OK(btf_nr_types(mod) == btf_nr_types(base) + 1 && btf_find(mod, "modtype", BTF_KIND_STRUCT) == (int32_t)m_mt &&
	     btf_find(base, "modtype", -1) < 0,
	     "crafted module: split BTF on the base, modtype only in the module (id %u)", m_mt);

	/* a base type: modules never consulted */
	ms.m[0] = mod;
	ms.n = 1;
	ctx = core_ctx_new(local, base);
	core_ctx_set_more(ctx, more, &ms);
	core_ctx_set_visit(ctx, seen_visit, &seen);
	r = (struct core_relo){ .type_id = l_bt, .access_str_off = acc1 + 4 /* "0:0" */, .kind = CORE_FIELD_BYTE_OFFSET };
	err = core_calc(ctx, &r, &res);
	T_OK(err == 0 && res.new_val == 8 && !res.poison && ms.calls == 0 && seen.btf == base,
	     "type in vmlinux: found there (x at 8), module list never asked (%d calls)", ms.calls);

	/* a module-only type */
	r = (struct core_relo){ .type_id = l_mt, .access_str_off = acc1, .kind = CORE_FIELD_BYTE_OFFSET };
	err = core_calc(ctx, &r, &res);
	T_OK(err == 0 && !res.poison && res.orig_val == 4 && res.new_val == 8 && seen.btf == mod &&
	     seen.root == m_mt,
	     "type only in a module: candidate from the module's split BTF (b: 4 -> %llu, visit in module: %s)",
	     (unsigned long long)res.new_val, seen.btf == mod ? "yes" : "no");
	r.kind = CORE_TYPE_ID_TARGET;
	r.access_str_off = acc1 + 6; /* "0" (tail of "0:0") */
	err = core_calc(ctx, &r, &res);
	T_OK(err == 0 && res.new_val == m_mt, "type id target of a module type is the module's id (%llu)",
	     (unsigned long long)res.new_val);
	r = (struct core_relo){ .type_id = l_mtf, .access_str_off = acc1 + 4, .kind = CORE_FIELD_BYTE_OFFSET };
	err = core_calc(ctx, &r, &res);
	T_OK(err == 0 && !res.poison && res.new_val == 8, "flavor modtype___v2 finds the module's modtype (b at %llu)",
	     (unsigned long long)res.new_val);
	core_ctx_free(ctx);

	/* no modules: poisoned */
	ms.n = 0;
	ctx = core_ctx_new(local, base);
	core_ctx_set_more(ctx, more, &ms);
	r = (struct core_relo){ .type_id = l_mt, .access_str_off = acc1, .kind = CORE_FIELD_BYTE_OFFSET };
	err = core_calc(ctx, &r, &res);
	T_OK(err == 0 && res.poison, "module type without modules: poisoned");
	core_ctx_free(ctx);

	/* two modules that disagree: ambiguous */
	ms.m[0] = mod;
	ms.m[1] = mod2;
	ms.n = 2;
	ctx = core_ctx_new(local, base);
	core_ctx_set_more(ctx, more, &ms);
	err = core_calc(ctx, &r, &res);
	T_OK(err == -EINVAL && strstr(err_msg(), "ambiguous"), "two modules with different layouts: %s", err_msg());
	core_ctx_free(ctx);
out:
	btf_free(mod2);
	btf_free(mod);
	btf_free(base);
	btf_free(local);
}

int main(void)
{
	FILE *f;

	core_dir = getenv("CORE_TEST_DIR");
	if (!core_dir)
		core_dir = (f = fopen("../../build/test/core/local.o", "r")) ? "../../build/test/core" : "build/test/core";
	else
		f = NULL;
	if (f)
		fclose(f);
	writer();
	modules();
	oracle_min();
	vmlinux_min();
	T_EXIT();
}
