/* /proc/kallsyms, streamed: names for the addresses asked (see ksyms.h). */
#include "tools/stack/ksyms.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/kallsyms.h"
#include "err.h"
#include "util.h"

/* One address named. */
struct kans {
	uint64_t addr;     /* the address asked */
	uint64_t sym;      /* its symbol's start */
	const char *name;  /* in the arena; NULL: below every symbol */
	const char *mod;   /* NULL: vmlinux */
};

/* Names live in blocks that never move (a lookup's pointers stay valid). */
struct block {
	struct block *next;
	size_t used, size;
	char s[];
};

struct ksyms {
	char *path;
	struct kans *a;    /* sorted by addr */
	size_t n, cap;
	uint64_t *want;    /* asked, not named yet (unsorted, may repeat) */
	size_t nwant, wcap;
	struct block *arena;
	size_t count;      /* text symbols the last pass saw */
	bool counted;
};

/* ---- the file, one text symbol at a time ---- */

/* Called for each text symbol; non-zero stops the scan. */
typedef int (*ksym_fn)(void *ctx, const struct kallsym *l);

struct text_scan {
	ksym_fn fn;
	void *ctx;
	size_t n_text;
};

static int text_only(void *ctx, const struct kallsym *l)
{
	struct text_scan *ts = ctx;

	if (!kallsym_is_text(l))
		return 0;
	ts->n_text++;
	return ts->fn(ts->ctx, l);
}

/* One pass (bpf/kallsyms.c), fn for each text symbol.  *count: text
 * symbols seen (the scan stopped early: so far).  0, or -errno with a
 * message. */
static int scan(const char *path, ksym_fn fn, void *ctx, size_t *count)
{
	struct text_scan ts = { fn, ctx, 0 };
	int err = kallsyms_each(path, text_only, &ts);

	if (count)
		*count = ts.n_text;
	return err;
}

/* ---- opening: is the file there, are its addresses visible? ---- */

static int first_text(void *ctx, const struct kallsym *l)
{
	*(uint64_t *)ctx = l->addr;
	return 1;
}

int ksyms_load_file(const char *path, struct ksyms **out)
{
	uint64_t first = 0;
	size_t seen = 0;
	int err;

	*out = NULL;
	if ((err = scan(path, first_text, &first, &seen)) < 0)
		return err;
	if (!seen)
		return err_set(ENOENT, "%s holds no text symbols", path);
	if (!first) /* kptr_restrict shows every address as 0 */
		return err_set(EPERM, "kernel symbol addresses are hidden in %s (kptr_restrict): run as root, "
			       "or set kernel.kptr_restrict=0", path);
	*out = xcalloc(1, sizeof(**out));
	(*out)->path = xstrdup(path);
	return 0;
}

int ksyms_load(struct ksyms **out)
{
	return ksyms_load_file("/proc/kallsyms", out);
}

void ksyms_free(struct ksyms *ks)
{
	if (!ks)
		return;
	free(ks->path);
	free(ks->a);
	free(ks->want);
	while (ks->arena) {
		struct block *b = ks->arena;

		ks->arena = b->next;
		free(b);
	}
	free(ks);
}

/* ---- naming ---- */

static int nothing(void *ctx, const struct kallsym *l)
{
	(void)ctx;
	(void)l;
	return 0;
}

size_t ksyms_count(const struct ksyms *cks)
{
	struct ksyms *ks = (struct ksyms *)cks; /* a cache: logically const */

	if (!ks)
		return 0;
	if (!ks->counted && scan(ks->path, nothing, NULL, &ks->count) == 0)
		ks->counted = true;
	err_clear();
	return ks->count;
}

static const struct kans *find(const struct ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->a[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ks->n && ks->a[lo].addr == addr ? &ks->a[lo] : NULL;
}

bool ksyms_known(const struct ksyms *ks, uint64_t addr)
{
	return ks && find(ks, addr);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void ksyms_want(struct ksyms *ks, uint64_t addr)
{
	if (!ks || find(ks, addr))
		return;
	if (ks->nwant == ks->wcap) {
		if (ks->wcap >= 1024) { /* repeats: drop them before growing */
			size_t m = 0;

			qsort(ks->want, ks->nwant, sizeof(*ks->want), cmp_u64);
			for (size_t i = 0; i < ks->nwant; i++)
				if (!m || ks->want[i] != ks->want[m - 1])
					ks->want[m++] = ks->want[i];
			ks->nwant = m;
		}
		if (ks->nwant * 2 > ks->wcap || !ks->wcap) {
			ks->wcap = ks->wcap ? ks->wcap * 2 : 256;
			ks->want = xrealloc(ks->want, ks->wcap * sizeof(*ks->want));
		}
	}
	ks->want[ks->nwant++] = addr;
}

/* The best symbol so far for the wanted addresses in (W[i-1], W[i]]. */
struct cand {
	uint64_t sym;
	char *name;        /* NULL: none yet */
	size_t cap;
	int mod;           /* index in pass.mods, -1 for vmlinux */
};

struct pass {
	const uint64_t *w; /* sorted, distinct */
	size_t m;
	struct cand *c;
	char **mods;       /* module names seen in this pass */
	size_t nmods;
};

/* A symbol at A is the best candidate of the first wanted address at or
 * above it when it beats the one there: every other wanted address above
 * A then has a candidate at least as near (see ksyms_resolve). */
static int consider(void *ctx, const struct kallsym *l)
{
	struct pass *ps = ctx;
	size_t lo = 0, hi = ps->m;
	struct cand *c;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ps->w[mid] < l->addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ps->m)
		return 0;
	c = &ps->c[lo];
	if (c->name && l->addr <= c->sym)
		return 0; /* equal: the first in file order stays (aliases) */
	if (l->nlen + 1 > c->cap) {
		c->cap = l->nlen + 1 > 64 ? l->nlen + 1 : 64;
		free(c->name);
		c->name = xmalloc(c->cap);
	}
	memcpy(c->name, l->name, l->nlen);
	c->name[l->nlen] = 0;
	c->sym = l->addr;
	c->mod = -1;
	if (l->mod) {
		size_t k;

		for (k = ps->nmods; k-- > 0;)
			if (!strncmp(ps->mods[k], l->mod, l->mlen) && !ps->mods[k][l->mlen])
				break;
		if (k == (size_t)-1) {
			ps->mods = xrealloc(ps->mods, (ps->nmods + 1) * sizeof(*ps->mods));
			k = ps->nmods++;
			ps->mods[k] = xmalloc(l->mlen + 1);
			memcpy(ps->mods[k], l->mod, l->mlen);
			ps->mods[k][l->mlen] = 0;
		}
		c->mod = (int)k;
	}
	return 0;
}

static const char *keep(struct ksyms *ks, const char *s)
{
	size_t n = strlen(s) + 1;
	struct block *b = ks->arena;
	char *at;

	if (!b || b->used + n > b->size) {
		size_t size = n > 4000 ? n : 4000;

		b = xmalloc(sizeof(*b) + size);
		b->next = ks->arena;
		b->used = 0;
		b->size = size;
		ks->arena = b;
	}
	at = b->s + b->used;
	memcpy(at, s, n);
	b->used += n;
	return at;
}

static int cmp_kans(const void *a, const void *b)
{
	return cmp_u64(&((const struct kans *)a)->addr, &((const struct kans *)b)->addr);
}

/* The nearest symbol at or below W[i] is the largest candidate among
 * slots 0..i: a symbol at A <= W[i] went to the first wanted address at
 * or above A, which is at or below W[i]. */
int ksyms_resolve(struct ksyms *ks)
{
	struct pass ps = { 0 };
	const struct cand *best = NULL;
	const char *best_name = NULL, *best_mod = NULL, **mods;
	size_t m = 0, count;
	int err;

	if (!ks || !ks->nwant)
		return 0;
	qsort(ks->want, ks->nwant, sizeof(*ks->want), cmp_u64);
	for (size_t i = 0; i < ks->nwant; i++)
		if ((!m || ks->want[i] != ks->want[m - 1]) && !find(ks, ks->want[i]))
			ks->want[m++] = ks->want[i];
	ks->nwant = 0;
	if (!m)
		return 0;
	ps.w = ks->want;
	ps.m = m;
	ps.c = xcalloc(m, sizeof(*ps.c));
	err = scan(ks->path, consider, &ps, &count);
	if (!err) {
		ks->count = count;
		ks->counted = true;
	}
	mods = xcalloc(ps.nmods ? ps.nmods : 1, sizeof(*mods));
	if (ks->n + m > ks->cap) {
		ks->cap = (ks->n + m) * 2;
		ks->a = xrealloc(ks->a, ks->cap * sizeof(*ks->a));
	}
	for (size_t i = 0; i < m; i++) {
		struct kans *k = &ks->a[ks->n++];
		const struct cand *c = &ps.c[i];

		if (c->name && (!best || c->sym > best->sym)) {
			best = c;
			best_name = keep(ks, c->name);
			best_mod = NULL;
			if (c->mod >= 0) {
				if (!mods[c->mod])
					mods[c->mod] = keep(ks, ps.mods[c->mod]);
				best_mod = mods[c->mod];
			}
		}
		k->addr = ps.w[i];
		k->sym = best && !err ? best->sym : 0;
		k->name = best && !err ? best_name : NULL;
		k->mod = best && !err ? best_mod : NULL;
	}
	qsort(ks->a, ks->n, sizeof(*ks->a), cmp_kans);
	for (size_t i = 0; i < m; i++)
		free(ps.c[i].name);
	for (size_t i = 0; i < ps.nmods; i++)
		free(ps.mods[i]);
	free(ps.mods);
	free(ps.c);
	free(mods);
	return err;
}

int ksyms_lookup(const struct ksyms *cks, uint64_t addr, struct ksym *out)
{
	struct ksyms *ks = (struct ksyms *)cks; /* a cache: logically const */
	const struct kans *k;

	if (!ks)
		return -ENOENT;
	if (!(k = find(ks, addr))) {
		ksyms_want(ks, addr);
		if (ksyms_resolve(ks) < 0)
			err_clear();
		if (!(k = find(ks, addr)))
			return -ENOENT;
	}
	if (!k->name)
		return -ENOENT;
	out->name = k->name;
	out->module = k->mod;
	out->addr = k->sym;
	out->offset = addr - k->sym;
	return 0;
}

struct by_name {
	const char *name;
	size_t len;
	uint64_t addr;
	bool found;
};

static int match_name(void *ctx, const struct kallsym *l)
{
	struct by_name *b = ctx;

	if (l->nlen != b->len || memcmp(l->name, b->name, b->len))
		return 0;
	b->addr = l->addr;
	b->found = true;
	return 1;
}

int ksyms_addr(const struct ksyms *ks, const char *name, uint64_t *addr)
{
	struct by_name b = { name, strlen(name), 0, false };

	if (!ks || scan(ks->path, match_name, &b, NULL) < 0) {
		err_clear();
		return -ENOENT;
	}
	if (!b.found)
		return -ENOENT;
	*addr = b.addr;
	return 0;
}

char *ksyms_format(const struct ksyms *ks, uint64_t addr, int with_offset, char *buf, size_t size)
{
	struct ksym k;

	if (ksyms_lookup(ks, addr, &k))
		snprintf(buf, size, "[unknown]");
	else if (!with_offset)
		snprintf(buf, size, "%s", k.name);
	else
		snprintf(buf, size, "%s+0x%llx%s%s%s", k.name, (unsigned long long)k.offset,
			 k.module ? " [" : "", k.module ? k.module : "", k.module ? "]" : "");
	return buf;
}
