/* btf/btf_data.c: the typed value printer ksnoop uses.  A small BTF made
 * here printed to the exact text libbpf 1.1 gives; crafted BTF (types
 * that contain themselves, pointer and qualifier cycles, arrays of 2^32
 * arrays, bad ids, odd sizes) and every truncation of the data: no crash,
 * no hang, an error or -E2BIG.  Where libbpf.so.1 is installed, the same
 * values and thousands of the running kernel's structs filled with
 * pseudo-random bytes are printed by both and compared byte for byte. */
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf/btf.h"
#include "btf/btf_data.h"
#include "t.h"
#include "util.h"

/* ---- a tiny BTF builder ---- */
struct bld {
	uint32_t t[1024];
	uint32_t nt;
	char s[1024];
	uint32_t ns, next;
};

static uint32_t str(struct bld *b, const char *s)
{
	uint32_t off = b->ns;

	if (!s || !*s)
		return 0;
	memcpy(b->s + b->ns, s, strlen(s) + 1);
	b->ns += strlen(s) + 1;
	return off;
}

static uint32_t ty(struct bld *b, const char *name, int kind, uint32_t vlen, int kflag, uint32_t size_type)
{
	b->t[b->nt++] = str(b, name);
	b->t[b->nt++] = (uint32_t)kind << 24 | vlen | (uint32_t)kflag << 31;
	b->t[b->nt++] = size_type;
	return b->next++;
}

static void w(struct bld *b, uint32_t v) { b->t[b->nt++] = v; }

static uint32_t int_t(struct bld *b, const char *name, uint32_t size, uint32_t enc)
{
	uint32_t id = ty(b, name, BTF_KIND_INT, 0, 0, size);

	w(b, enc << 24 | size * 8);
	return id;
}

static void member(struct bld *b, const char *name, uint32_t type, uint32_t bit_off, uint32_t bits)
{
	w(b, str(b, name));
	w(b, type);
	w(b, bits << 24 | bit_off);
}

static uint8_t *blob(struct bld *b, size_t *size)
{
	struct btf_header h = { .magic = BTF_MAGIC, .version = BTF_VERSION, .hdr_len = sizeof(h) };
	uint8_t *p;

	h.type_len = b->nt * 4;
	h.str_off = h.type_len;
	h.str_len = b->ns;
	*size = sizeof(h) + h.type_len + h.str_len;
	p = malloc(*size);
	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), b->t, h.type_len);
	memcpy(p + sizeof(h) + h.type_len, b->s, b->ns);
	return p;
}

static void init(struct bld *b)
{
	memset(b, 0, sizeof(*b));
	b->ns = 1;
	b->next = 1;
}

static char *dump(const struct btf *btf, uint32_t id, const void *d, size_t n, int indent, int *ret)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	*ret = btf_dump_data(f, btf, id, d, n, indent);
	fclose(f);
	return out;
}

/* ---- libbpf, when installed: the oracle ---- */
struct lb_opts {
	size_t sz;
	const char *indent_str;
	int indent_level;
	bool compact, skip_names, emit_zeroes;
	size_t : 0;
};
static struct {
	void *(*btf_new)(const void *, uint32_t);
	void *(*vmlinux)(void);
	void (*btf_free)(void *);
	void *(*dump_new)(const void *, void (*)(void *, const char *, va_list), void *, const void *);
	void (*dump_free)(void *);
	int (*dump_data)(void *, uint32_t, const void *, size_t, const struct lb_opts *);
} lb;

static bool lb_open(void)
{
	void *h = dlopen("libbpf.so.1", RTLD_NOW);

	if (!h)
		return false;
	lb.btf_new = dlsym(h, "btf__new");
	lb.vmlinux = dlsym(h, "btf__load_vmlinux_btf");
	lb.btf_free = dlsym(h, "btf__free");
	lb.dump_new = dlsym(h, "btf_dump__new");
	lb.dump_free = dlsym(h, "btf_dump__free");
	lb.dump_data = dlsym(h, "btf_dump__dump_type_data");
	return lb.btf_new && lb.vmlinux && lb.btf_free && lb.dump_new && lb.dump_free && lb.dump_data;
}

static void lb_printf(void *ctx, const char *fmt, va_list ap)
{
	vfprintf(ctx, fmt, ap);
}

static char *lb_dump(void *lbtf, uint32_t id, const void *d, size_t n, int indent, int *ret)
{
	struct lb_opts o = { .sz = sizeof(o), .indent_str = " ", .indent_level = indent };
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	void *dd = lb.dump_new(lbtf, lb_printf, f, NULL);

	*ret = dd ? lb.dump_data(dd, id, d, n, &o) : -ENOMEM;
	if (dd)
		lb.dump_free(dd);
	fclose(f);
	return out;
}

/* ---- the sample ---- */
struct sample {
	int32_t a;
	char name[8];
	uint64_t next;
	uint32_t k;
	uint32_t bits; /* x:3 y:5 */
	struct { uint16_t p, q; } in;
	uint32_t arr[3];
	uint8_t after;
	uint8_t pad[7];
	uint64_t fn;
	int64_t big;
	uint32_t zero_first[2]; /* struct zf { u32 z; u32 nz; } */
};

static uint32_t sample_btf(struct bld *b, uint32_t *u8p)
{
	uint32_t i32, chr, u32, u16, u8, u64, s64, ptr, en, arr8, in, arr3, proto, fptr, zf, cptr, voidp;

	init(b);
	i32 = int_t(b, "int", 4, BTF_INT_SIGNED);
	chr = int_t(b, "char", 1, BTF_INT_SIGNED);
	u32 = int_t(b, "unsigned int", 4, 0);
	u16 = int_t(b, "u16", 2, 0);
	u8 = int_t(b, "u8", 1, 0);
	u64 = int_t(b, "long unsigned int", 8, 0);
	s64 = int_t(b, "long long int", 8, BTF_INT_SIGNED);
	uint32_t ptr_at = b->nt + 2; /* its target, struct sample, is added last */

	ptr = ty(b, NULL, BTF_KIND_PTR, 0, 0, 0);
	en = ty(b, "mode", BTF_KIND_ENUM, 2, 0, 4);
	w(b, str(b, "M_OFF")), w(b, 0);
	w(b, str(b, "M_ON")), w(b, 7);
	arr8 = ty(b, NULL, BTF_KIND_ARRAY, 0, 0, 0);
	w(b, chr), w(b, u32), w(b, 8);
	in = ty(b, NULL, BTF_KIND_STRUCT, 2, 0, 4);
	member(b, "p", u16, 0, 0);
	member(b, "q", u16, 16, 0);
	arr3 = ty(b, NULL, BTF_KIND_ARRAY, 0, 0, 0);
	w(b, u32), w(b, u32), w(b, 3);
	cptr = ty(b, NULL, BTF_KIND_PTR, 0, 0, chr);
	proto = ty(b, NULL, BTF_KIND_FUNC_PROTO, 2, 0, 0);
	w(b, 0), w(b, i32);
	w(b, str(b, "s")), w(b, cptr);
	fptr = ty(b, NULL, BTF_KIND_PTR, 0, 0, proto);
	zf = ty(b, "zf", BTF_KIND_STRUCT, 2, 0, 8);
	member(b, "z", u32, 0, 0);
	member(b, "nz", u32, 32, 0);
	voidp = ty(b, NULL, BTF_KIND_PTR, 0, 0, 0);
	(void)voidp;
	{
		uint32_t me = ty(b, "sample", BTF_KIND_STRUCT, 13, 1, sizeof(struct sample));

		b->t[ptr_at] = me;
		member(b, "a", i32, 0, 0);
		member(b, "name", arr8, 32, 0);
		member(b, "next", ptr, 128, 0);
		member(b, "k", en, 192, 0);
		member(b, "x", u32, 224, 3);
		member(b, "y", u32, 227, 5);
		member(b, "in", in, 256, 0);
		member(b, "arr", arr3, 288, 0);
		member(b, "after", u8, 384, 0);
		member(b, "fn", fptr, 448, 0);
		member(b, "big", s64, 512, 0);
		member(b, "zf", zf, 576, 0);
		member(b, "", in, 256, 0); /* an anonymous member */
		*u8p = u8;
		(void)u64;
		return me;
	}
}

int main(void)
{
	struct bld b;
	uint32_t u8, sid = sample_btf(&b, &u8);
	size_t size;
	uint8_t *raw;
	struct btf *btf;
	struct sample s = { .a = -5, .name = "hi\x01!", .next = 0xffff888012345678ull, .k = 7, .bits = 5 | 17 << 3,
			    .in = { 3, 0 }, .arr = { 0, 2, 0 }, .after = 'Q', .fn = 0xffffffff81000000ull,
			    .big = -3, .zero_first = { 0, 4 } };
	char *out;
	int ret;
	bool have_lb = lb_open();

	raw = blob(&b, &size);
	btf = btf_new(raw, size, 0, NULL);
	T_OK(btf != NULL, "sample BTF parses");
	if (!btf)
		T_EXIT();
	out = dump(btf, sid, &s, sizeof(s), 2, &ret);
	T_OK(ret == (int)sizeof(s), "sample: returns the size (%d)", ret);
	T_OK(strstr(out, "  (struct sample){\n   .a = (int)-5,\n") == out, "sample: header and first member");
	T_OK(strstr(out, "   .name = (char[8])[\n    'h',\n    'i',\n    1,\n    '!',\n   ],\n"),
	     "sample: char array: printable chars quoted, zeros left out");
	T_OK(strstr(out, "   .next = (struct sample *)0xffff888012345678,\n"), "sample: pointer");
	T_OK(strstr(out, "   .k = (enum mode)M_ON,\n"), "sample: enum by name");
	T_OK(strstr(out, "   .x = (unsigned int)0x5,\n   .y = (unsigned int)0x11,\n"), "sample: bitfields in hex");
	T_OK(strstr(out, "   .in = (struct){\n    .p = (u16)3,\n   },\n"), "sample: nested anonymous struct type");
	T_OK(strstr(out, "   .arr = (unsigned int[3])[\n    2,\n   ],\n"),
	     "sample: after a char array, zero elements of an int array are left out too (libbpf)");
	T_OK(strstr(out, "   .after = (u8)'Q',\n"), "sample: 1-byte int after a char array prints as a char (libbpf)");
	T_OK(strstr(out, "   .fn = (void (*)(int, char *s))0xffffffff81000000,\n"), "sample: function pointer cast");
	T_OK(strstr(out, "   .big = (long long int)-3,\n"), "sample: signed 64-bit");
	T_OK(!strstr(out, ".zf"), "sample: struct with a zero first member left out");
	T_OK(strstr(out, "   (struct){\n    .p = (u16)3,\n   },\n  }") != NULL, "sample: anonymous member, closing");
	if (have_lb) {
		void *lbtf = lb.btf_new(raw, size);
		int lret;
		char *lout = lbtf ? lb_dump(lbtf, sid, &s, sizeof(s), 2, &lret) : NULL;

		T_OK(lout && !strcmp(out, lout) && ret == lret, "sample: identical to libbpf's (%d/%d)\n%s\n---\n%s",
		     ret, lret, out, lout ? lout : "");
		free(lout);
		if (lbtf)
			lb.btf_free(lbtf);
	} else {
		T_SKIP("sample: identical to libbpf's", "no libbpf.so.1");
	}
	free(out);

	/* every truncation: -E2BIG, never a read past the end (ASan) */
	{
		bool ok = true;

		for (size_t n = 0; n < sizeof(s); n++) {
			uint8_t *cut = malloc(n ? n : 1);

			memcpy(cut, &s, n);
			free(dump(btf, sid, cut, n, 0, &ret));
			/* from 76 on only zf.nz is cut, and zf is left out: its first member is zero */
			if (ret != (n < offsetof(struct sample, zero_first) + 4 ? -E2BIG : (int)sizeof(s)))
				printf("# cut at %zu: %d\n", n, ret), ok = false;
			free(cut);
		}
		T_OK(ok, "every truncation of the sample gives -E2BIG (but where only what is left out is cut)");
	}
	btf_free(btf);
	free(raw);

	/* crafted BTF */
	{
		uint8_t data[64] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
		uint32_t self, pa, pb, ca, big, big2, bad, odd, bf, e;

		init(&b);
		u8 = int_t(&b, "u8", 1, 0);
		self = ty(&b, "self", BTF_KIND_STRUCT, 2, 0, 8); /* contains itself */
		member(&b, "me", self, 0, 0);
		member(&b, "b", u8, 8, 0);
		pa = ty(&b, NULL, BTF_KIND_PTR, 0, 0, 4); /* 3 -> 4 -> 3 */
		pb = ty(&b, NULL, BTF_KIND_PTR, 0, 0, 3);
		ca = ty(&b, NULL, BTF_KIND_CONST, 0, 0, 5); /* const of itself */
		big = ty(&b, NULL, BTF_KIND_ARRAY, 0, 0, 0);
		w(&b, u8), w(&b, u8), w(&b, 0xffffffff);
		big2 = ty(&b, NULL, BTF_KIND_ARRAY, 0, 0, 0); /* 2^32 x 2^32 */
		w(&b, big), w(&b, u8), w(&b, 0xffffffff);
		bad = ty(&b, "bad", BTF_KIND_STRUCT, 1, 0, 4);
		member(&b, "m", 999, 0, 0);
		odd = int_t(&b, "odd", 3, 0);
		bf = ty(&b, "bf", BTF_KIND_STRUCT, 1, 1, 4);
		member(&b, "wide", u8, 0, 200);
		e = ty(&b, "e", BTF_KIND_ENUM, 0, 0, 3);
		raw = blob(&b, &size);
		btf = btf_new(raw, size, 0, NULL);
		T_OK(btf != NULL, "crafted BTF parses");
		if (btf) {
			uint32_t ids[] = { self, pa, pb, ca, big, big2, bad, odd, bf, e, 0, 12345 };
			bool ok = true;

			for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
				for (size_t n = 0; n <= sizeof(data); n += 7) {
					for (int indent = 0; indent < 2; indent++) {
						out = dump(btf, ids[i], data, n, indent, &ret);
						ok &= ret < 0 || ret <= (int)n || ids[i] == big || ids[i] == self;
						for (char *p = out; *p; p++)
							ok &= (*p >= ' ' && *p < 0x7f) || *p == '\n';
						free(out);
						out = NULL;
						size_t len;
						FILE *f = open_memstream(&out, &len);

						btf_dump_cast(f, btf, ids[i]);
						fclose(f);
						free(out);
					}
				}
			T_OK(ok, "crafted BTF: every id and length ends, printable text only");
			out = dump(btf, self, data, sizeof(data), 0, &ret);
			T_OK(ret == -EINVAL, "a struct that contains itself: -EINVAL (%d)", ret);
			free(out);
			out = dump(btf, odd, data, sizeof(data), 0, &ret);
			T_OK(ret == -EINVAL, "a 3-byte int: -EINVAL (%d)", ret);
			free(out);
			btf_free(btf);
		}
		free(raw);
	}

	/* the running kernel's structs, against libbpf */
	if (!have_lb) {
		T_SKIP("kernel structs identical to libbpf's", "no libbpf.so.1");
	} else {
		size_t ksize = 0;
		char *kraw = NULL;

		read_file("/sys/kernel/btf/vmlinux", 64 << 20, &kraw, &ksize);
		struct btf *kbtf = kraw ? btf_new(kraw, ksize, 0, NULL) : NULL;
		void *lbtf = kbtf ? lb.vmlinux() : NULL;
		unsigned compared = 0, differ = 0;
		uint64_t seed = 88172645463325252ull;

		if (!lbtf) {
			T_SKIP("kernel structs identical to libbpf's", "no kernel BTF");
		} else {
			for (uint32_t id = 1; id < btf_nr_types(kbtf); id += 7) {
				const struct btf_type *t = btf_type_by_id(kbtf, id);
				uint8_t *d;
				char *a, *l;
				int ra, rl;

				if ((btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_UNION) || !t->size ||
				    t->size > 4096)
					continue;
				d = malloc(t->size);
				for (uint32_t i = 0; i < t->size; i++) {
					seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
					/* mostly zeros: members left out, first-member rule */
					d[i] = seed % 3 ? 0 : (uint8_t)(seed >> 8);
				}
				a = dump(kbtf, id, d, t->size, 36, &ra);
				l = lb_dump(lbtf, id, d, t->size, 36, &rl);
				compared++;
				if (strcmp(a, l) || ra != rl) {
					if (!differ++)
						printf("# [%u] ours %d:\n%s\n# libbpf %d:\n%s\n", id, ra, a, rl, l);
				}
				free(a);
				free(l);
				free(d);
			}
			T_OK(compared > 1000 && !differ, "%u kernel structs with random bytes: %u differ from libbpf",
			     compared, differ);
			lb.btf_free(lbtf);
		}
		btf_free(kbtf);
		free(kraw);
	}
	T_EXIT();
}
