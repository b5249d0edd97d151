/* The C types a bpftrace program declares before its probes
 * (`struct Foo { int m; char s[8]; struct { int x; } in; unsigned a:4; }`).
 * bpftrace hands them to clang; here they become BTF types of a split BTF
 * over the kernel's (laid out as the C compiler lays them out: natural
 * alignment, bitfields packed unless they straddle their type's unit), so
 * casts, members, sizeof and the printing of struct values find them
 * exactly as they find the kernel's types.  A program's struct of a name
 * the kernel also has hides the kernel's (ctype_set_local). */
#include "bt.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf/btf.h"
#include "lib/err.h"
#include "lib/util.h"

struct rec {
	uint8_t *b;
	size_t len;
};

struct tb {
	struct bt_prog *p;
	const char *s;
	int i, end;
	const struct btf *base;
	uint32_t first;       /* id of our first type */
	uint32_t str_base;    /* offset of our first string */
	struct rec *r;
	uint32_t nr;
	char *str;
	uint32_t slen;
	uint32_t ints[2][4];  /* INT ids by sign and log2 size */
	uint32_t char_id;
	int depth;
	bool conflict;        /* 0.17 takes no type from BTF (see btf_conflict) */
	int tname_pos;        /* where base_type's "struct NAME" name was */
	int nclang;           /* clang's diagnostics printed */
};

static int tfail(struct tb *b, const char *msg)
{
	if (b->p->errpos < 0) {
		b->p->errpos = b->i;
		b->p->errend = b->i + 1;
		err_set(EINVAL, "%s", msg);
	}
	return -EINVAL;
}

static uint32_t str_add(struct tb *b, const char *s, size_t n)
{
	uint32_t off = b->slen;

	if (!n)
		return 0;
	b->str = xrealloc(b->str, b->slen + n + 1);
	memcpy(b->str + b->slen, s, n);
	b->str[b->slen + n] = 0;
	b->slen += (uint32_t)n + 1;
	return b->str_base + off;
}

/* A new type id; its record is filled by set_rec (structs: later). */
static uint32_t new_id(struct tb *b)
{
	b->r = xrealloc(b->r, (b->nr + 1) * sizeof(*b->r));
	b->r[b->nr].b = NULL;
	b->r[b->nr].len = 0;
	return b->first + b->nr++;
}

static void set_rec(struct tb *b, uint32_t id, uint32_t name, uint32_t info, uint32_t size_type, const void *tr,
		    size_t tlen)
{
	struct rec *r = &b->r[id - b->first];
	struct btf_type t = { .name_off = name, .info = info, .size = size_type };

	free(r->b);
	r->len = sizeof(t) + tlen;
	r->b = xmalloc(r->len);
	memcpy(r->b, &t, sizeof(t));
	if (tlen)
		memcpy(r->b + sizeof(t), tr, tlen);
}

static uint32_t int_id(struct tb *b, int size, int sign)
{
	/* sign 2: C's char, named so: its arrays are strings (the others
	 * need no name) */
	int k = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3;
	uint32_t *id = sign == 2 ? &b->char_id : &b->ints[sign][k], enc;

	if (!*id) {
		*id = new_id(b);
		enc = (sign ? BTF_INT_SIGNED : 0) << 24 | (uint32_t)(8 << k);
		set_rec(b, *id, sign == 2 ? str_add(b, "char", 4) : 0, BTF_KIND_INT << 24, (uint32_t)(1 << k), &enc, 4);
	}
	return *id;
}

static void blank(struct tb *b)
{
	for (;;) {
		while (b->i < b->end && isspace((unsigned char)b->s[b->i]))
			b->i++;
		if (b->i + 1 < b->end && b->s[b->i] == '/' && b->s[b->i + 1] == '/') {
			while (b->i < b->end && b->s[b->i] != '\n')
				b->i++;
		} else if (b->i + 1 < b->end && b->s[b->i] == '/' && b->s[b->i + 1] == '*') {
			const char *e = strstr(b->s + b->i + 2, "*/");

			b->i = e && e - b->s + 2 <= b->end ? (int)(e - b->s) + 2 : b->end;
		} else {
			return;
		}
	}
}

static char peek(struct tb *b)
{
	blank(b);
	return b->i < b->end ? b->s[b->i] : 0;
}

/* The next identifier (empty when none) into w. */
static int word(struct tb *b, char *w, size_t size)
{
	size_t n = 0;

	blank(b);
	while (b->i < b->end && (isalnum((unsigned char)b->s[b->i]) || b->s[b->i] == '_')) {
		if (n + 1 < size)
			w[n++] = b->s[b->i];
		b->i++;
	}
	w[n] = 0;
	return (int)n;
}

static long number(struct tb *b)
{
	char *e;
	long v;

	blank(b);
	v = strtol(b->s + b->i, &e, 0);
	if (e == b->s + b->i || e - b->s > b->end)
		return -1;
	b->i = (int)(e - b->s);
	return v;
}

static uint32_t align_of_size(uint32_t size)
{
	uint32_t a = 1;

	while (a < 8 && !(size & a))
		a <<= 1;
	return size ? a : 1;
}

static int body(struct tb *b, uint32_t id, uint32_t name, bool is_union, uint32_t *size, uint32_t *align);

/* 0.17 hands the declarations to clang after a header of the BTF types
 * the program uses; when a declaration redefines one of those, it drops
 * the header and the declarations stand alone: a member of a kernel
 * struct by value is then clang's error, printed as clang prints it
 * (file definitions.h: its first line includes the header). */
static void clang_incomplete(struct tb *b, int mpos, int tpos, uint32_t kid)
{
	const struct btf_type *t = btf_type_by_id(b->base, kid);
	const char *kw = btf_kind(t) == BTF_KIND_UNION ? "union" : "struct", *nm = btf_name(b->base, t);
	int line = 2, ls = 0;

	if (btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_UNION)
		return;

	for (int i = 0; i < mpos; i++)
		if (b->s[i] == '\n') {
			line++;
			ls = i + 1;
		}
	fprintf(stderr,
		"definitions.h:%d:%d: error: field has incomplete type '%s %s'\n"
		"definitions.h:%d:%d: note: forward declaration of '%s %s'\n",
		line, mpos - ls + 1, kw, nm, line, tpos - ls + 1, kw, nm);
	b->nclang++;
}

/* Does kernel type id hold a struct or union named name by value (itself,
 * a member's, an array's element's, through typedefs)?  seen: ids done. */
static bool holds(const struct btf *k, uint32_t id, const char *name, uint8_t *seen, int depth)
{
	const struct btf_type *t;

	while ((id = btf_resolve(k, id, &t)) && btf_kind(t) == BTF_KIND_ARRAY)
		id = btf_array_info(t)->type;
	if (!id || depth > 64 || (btf_kind(t) != BTF_KIND_STRUCT && btf_kind(t) != BTF_KIND_UNION) ||
	    seen[id >> 3] >> (id & 7) & 1)
		return false;
	seen[id >> 3] |= (uint8_t)(1u << (id & 7));
	if (!strcmp(btf_name(k, t), name))
		return true;
	for (uint32_t i = 0; i < btf_vlen(t); i++)
		if (holds(k, btf_members(t)[i].type, name, seen, depth + 1))
			return true;
	return false;
}

/* The kernel types the probes use, as 0.17's field analyser finds them
 * (curtask's task_struct, "struct X" of casts and sizeof): does one hold
 * by value a struct the program declares again? */
static bool btf_conflict(struct tb *b, int from)
{
	const char *s = b->s + from;
	uint8_t *seen;
	bool hit = false;

	if (!b->base)
		return false;
	seen = xcalloc(btf_nr_types(b->base) / 8 + 1, 1);
	while (!hit && *s) {
		char nm[128];
		size_t n = 0;
		int32_t kid = -1;

		if (!strncmp(s, "curtask", 7)) {
			kid = btf_find(b->base, "task_struct", BTF_KIND_STRUCT);
			s += 7;
		} else if ((!strncmp(s, "struct ", 7) || !strncmp(s, "union ", 6)) && (s == b->s || !isalnum((unsigned char)s[-1]))) {
			bool un = *s == 'u';

			for (s += un ? 6 : 7; *s == ' '; s++)
				;
			while ((isalnum((unsigned char)*s) || *s == '_') && n + 1 < sizeof(nm))
				nm[n++] = *s++;
			nm[n] = 0;
			kid = n ? btf_find(b->base, nm, un ? BTF_KIND_UNION : BTF_KIND_STRUCT) : -1;
		} else {
			s++;
		}
		for (int k = 0; kid > 0 && k < b->p->ndecls && !hit; k++) { /* (a name of its own: held by none) */
			memset(seen, 0, btf_nr_types(b->base) / 8 + 1);
			hit = holds(b->base, (uint32_t)kid, b->p->tnames[k], seen, 0);
		}
	}
	free(seen);
	return hit;
}

static bool is_int_word(const char *w)
{
	static const char *const k[] = { "unsigned", "signed", "short", "long", "int", "char" };

	for (size_t i = 0; i < ARRAY_SIZE(k); i++)
		if (!strcmp(w, k[i]))
			return true;
	return false;
}

/* A member's type before its declarators: id, size, alignment. */
static int base_type(struct tb *b, uint32_t *id, uint32_t *size, uint32_t *align)
{
	char w[128], text[256] = "";
	int save;

	for (;;) {
		save = b->i;
		if (!word(b, w, sizeof(w))) {
			if (text[0])
				break;
			return tfail(b, "syntax error in a struct declaration");
		}
		if (!strcmp(w, "const") || !strcmp(w, "volatile"))
			continue;
		if (!strcmp(w, "struct") || !strcmp(w, "union") || !strcmp(w, "enum")) {
			bool un = w[0] == 'u';
			char nm[128];
			int32_t kid;

			if (w[0] == 'e') {
				word(b, nm, sizeof(nm));
				if (peek(b) == '{') { /* enum { A, B }: its values are ints */
					while (b->i < b->end && b->s[b->i] != '}')
						b->i++;
					b->i++;
				}
				*id = int_id(b, 4, false);
				*size = *align = 4;
				return 0;
			}
			word(b, nm, sizeof(nm));
			b->tname_pos = b->i - (int)strlen(nm);
			if (peek(b) == '{') {
				if (++b->depth > 16)
					return tfail(b, "struct declarations nest too deeply");
				*id = new_id(b);
				b->i++;
				return body(b, *id, str_add(b, nm, strlen(nm)), un, size, align);
			}
			if (!nm[0])
				return tfail(b, "syntax error in a struct declaration");
			kid = ctype_find_rec(b->base, nm, un);
			if (kid < 0) {
				char msg[200];

				snprintf(msg, sizeof(msg), "%s %s is neither declared before nor in the kernel's BTF",
					 un ? "union" : "struct", nm);
				return tfail(b, msg);
			}
			*id = (uint32_t)kid;
			*size = 0; /* not complete yet (a pointer to itself): 0 */
			if (kid < (int32_t)b->first)
				*size = (uint32_t)btf_type_size(b->base, *id);
			else if (b->r[kid - (int32_t)b->first].b)
				*size = ((const struct btf_type *)b->r[kid - (int32_t)b->first].b)->size;
			*align = align_of_size(*size);
			return 0;
		}
		if (is_int_word(w) || !text[0]) {
			snprintf(text + strlen(text), sizeof(text) - strlen(text), " %s", w);
			if (is_int_word(w))
				continue;
			break; /* a typedef name */
		}
		b->i = save; /* the declarator's name */
		break;
	}
	{
		struct ctype t;

		if (ctype_parse(text, b->base, &t, NULL) < 0)
			return tfail(b, err_msg());
		if (t.base == CT_INT && !t.ptr && !t.arr) {
			*id = int_id(b, t.size, t.chr ? 2 : t.sign);
			*size = *align = t.size;
		} else if (t.base == CT_REC && !t.ptr && !t.arr) {
			*id = t.btf_id;
			*size = t.rec_size;
			*align = align_of_size(*size);
		} else if (t.base == CT_VOID && !t.ptr) {
			*id = 0;
			*size = 0;
			*align = 1;
		} else {
			*id = int_id(b, 8, false); /* a typedef of a pointer: 8 bytes */
			*size = *align = 8;
		}
	}
	return 0;
}

/* Members up to '}' into struct/union record id. */
static int body(struct tb *b, uint32_t id, uint32_t name, bool is_union, uint32_t *size, uint32_t *align)
{
	struct btf_member *m = NULL;
	uint32_t nm = 0, bit = 0, maxalign = 1, maxsize = 0;
	bool kflag = false;
	int err = 0;

	while (!err) {
		uint32_t bid = 0, bsize = 0, balign = 1;

		if (peek(b) == '}') {
			b->i++;
			break;
		}
		if (peek(b) == ';') {
			b->i++;
			continue;
		}
		if (!peek(b)) {
			err = tfail(b, "syntax error in a struct declaration");
			break;
		}
		if ((err = base_type(b, &bid, &bsize, &balign)) < 0)
			break;
		for (;;) { /* declarators */
			char mn[128];
			uint32_t tid = bid, tsize = bsize, talign = balign, dims[8], nd = 0;
			long bits = -1;

			while (peek(b) == '*') {
				uint32_t pid = new_id(b);

				set_rec(b, pid, 0, BTF_KIND_PTR << 24, tid, NULL, 0);
				tid = pid;
				tsize = talign = 8;
				b->i++;
				if (peek(b) == 'c' && !strncmp(b->s + b->i, "const", 5))
					b->i += 5;
			}
			word(b, mn, sizeof(mn));
			if (b->conflict && tid == bid && bid && bid < b->first && peek(b) != '[' && peek(b) != ':')
				clang_incomplete(b, b->i - (int)strlen(mn), b->tname_pos, bid);
			while (peek(b) == '[') {
				long n;

				b->i++;
				n = number(b);
				if (n < 0 || n > 1 << 20 || peek(b) != ']' || nd == ARRAY_SIZE(dims))
					return free(m), tfail(b, "syntax error in a struct declaration");
				b->i++;
				dims[nd++] = (uint32_t)n;
			}
			while (nd) {
				struct btf_array a = { .type = tid, .index_type = int_id(b, 4, true), .nelems = dims[--nd] };
				uint32_t aid = new_id(b);

				set_rec(b, aid, 0, BTF_KIND_ARRAY << 24, 0, &a, sizeof(a));
				tid = aid;
				tsize *= a.nelems;
			}
			if (peek(b) == ':') {
				b->i++;
				bits = number(b);
				if (bits < 0 || bits > (long)bsize * 8 || nd || tid != bid)
					return free(m), tfail(b, "syntax error in a struct declaration");
				tid = int_id(b, (int)bsize, false); /* bpftrace reads bitfields unsigned */
			}
			if (!tsize && tid)
				return free(m), tfail(b, "a struct member of an incomplete type (a pointer to it would do)");
			m = xrealloc(m, (nm + 1) * sizeof(*m));
			m[nm].name_off = str_add(b, mn, strlen(mn));
			m[nm].type = tid;
			if (talign > maxalign)
				maxalign = talign;
			if (is_union) {
				m[nm].offset = 0;
				if (tsize > maxsize)
					maxsize = tsize;
			} else if (bits >= 0) {
				uint32_t unit = bsize * 8;

				kflag = true;
				if (!bits || bit / unit != (bit + (uint32_t)bits - 1) / unit)
					bit = (bit + unit - 1) / unit * unit;
				m[nm].offset = (uint32_t)bits << 24 | bit;
				bit += (uint32_t)bits;
			} else {
				uint32_t off = (bit + 7) / 8;

				off = (off + talign - 1) / talign * talign;
				m[nm].offset = off * 8;
				bit = (off + tsize) * 8;
			}
			if (bits) /* a zero-width bitfield only aligns */
				nm++;
			if (peek(b) == ',') {
				b->i++;
				continue;
			}
			break;
		}
		if (peek(b) != ';' && peek(b) != '}')
			err = tfail(b, "syntax error in a struct declaration");
	}
	if (err < 0) {
		free(m);
		return err;
	}
	*size = is_union ? maxsize : (bit + 7) / 8;
	*size = (*size + maxalign - 1) / maxalign * maxalign;
	*align = maxalign;
	set_rec(b, id, name, (uint32_t)(kflag) << 31 | (uint32_t)(is_union ? BTF_KIND_UNION : BTF_KIND_STRUCT) << 24 | nm,
		*size, m, nm * sizeof(*m));
	free(m);
	b->depth--;
	return 0;
}

int bt_declare_types(struct bt_prog *p)
{
	struct tb b = { .p = p, .s = p->text };
	struct btf_header h = { .magic = BTF_MAGIC, .version = BTF_VERSION, .hdr_len = sizeof(h) };
	size_t raw_size = 0, tlen = 0;
	struct btf *btf;
	uint8_t *blob;
	int err = 0;

	if (!p->ndecls)
		return 0;
	b.base = probe_kernel_btf();
	if (b.base) {
		const struct btf_header *bh = btf_raw(b.base, &raw_size);

		b.first = btf_nr_types(b.base);
		b.str_base = raw_size >= sizeof(*bh) ? bh->str_len : 0;
	} else {
		b.first = 1;
	}
	b.str = xcalloc(1, 1);
	b.slen = 1;
	p->tnames = xcalloc((size_t)p->ndecls, sizeof(*p->tnames));
	p->tids = xcalloc((size_t)p->ndecls, sizeof(*p->tids));
	/* every name first: members may point to a struct declared later */
	for (int k = 0; k < p->ndecls; k++) {
		char kw[16], nm[128];

		b.i = p->decls[2 * k];
		b.end = p->decls[2 * k + 1];
		word(&b, kw, sizeof(kw));
		word(&b, nm, sizeof(nm));
		p->tnames[k] = xstrdup(nm);
		p->tids[k] = new_id(&b);
	}
	p->ntypes = p->ndecls;
	b.conflict = btf_conflict(&b, p->decls[2 * p->ndecls - 1]);
	ctype_set_local(p->tnames, p->tids, p->ntypes);
	for (int k = 0; k < p->ndecls && !err; k++) {
		char kw[16], nm[128];
		uint32_t size, align;

		b.i = p->decls[2 * k];
		b.end = p->decls[2 * k + 1];
		b.depth = 0;
		word(&b, kw, sizeof(kw));
		word(&b, nm, sizeof(nm));
		if (peek(&b) != '{') {
			err = tfail(&b, "syntax error in a struct declaration");
			break;
		}
		b.i++;
		err = body(&b, p->tids[k], str_add(&b, nm, strlen(nm)), kw[0] == 'u', &size, &align);
	}
	if (!err && b.nclang) {
		p->errpos = -2; /* printed */
		err = err_set(EINVAL, "the program's struct declarations do not compile");
	}
	for (uint32_t k = 0; k < b.nr; k++)
		tlen += b.r[k].len;
	h.type_len = (uint32_t)tlen;
	h.str_off = (uint32_t)tlen;
	h.str_len = b.slen;
	blob = xmalloc(sizeof(h) + tlen + b.slen);
	memcpy(blob, &h, sizeof(h));
	tlen = sizeof(h);
	for (uint32_t k = 0; k < b.nr; k++) {
		if (b.r[k].b)
			memcpy(blob + tlen, b.r[k].b, b.r[k].len);
		tlen += b.r[k].len;
		free(b.r[k].b);
	}
	memcpy(blob + tlen, b.str, b.slen);
	free(b.r);
	free(b.str);
	if (err < 0) {
		free(blob);
		ctype_set_local(NULL, NULL, 0);
		return err;
	}
	btf = btf_new(blob, tlen + b.slen, 1, b.base);
	free(blob);
	if (!btf) {
		char msg[200];

		snprintf(msg, sizeof(msg), "the program's struct declarations: %s", err_msg());
		p->errpos = p->decls[0];
		p->errend = p->decls[1];
		ctype_set_local(NULL, NULL, 0);
		return err_set(EINVAL, "%s", msg);
	}
	probe_set_btf_overlay(btf);
	return 0;
}
