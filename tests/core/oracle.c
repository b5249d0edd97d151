/* The host compiler's view of one target (TARGET_H): for every check of
 * checks.h, the value a correct CO-RE relocation must produce.  Offsets and
 * sizes come from offsetof/sizeof, bitfield positions from setting the field
 * to all ones and looking at the bytes, enum values from the enumerators.
 * Output lines, one per relocated function ("core/<name>" section):
 *   NAME = VALUE        exact value
 *   NAME poison         instruction must be poisoned
 *   NAME window         bitfield window, checked against "BASE bitfield"
 *   NAME error          relocation must fail (bitfield no aligned 8-byte
 *                       load can hold)
 *   BASE bitfield BITOFF BITSZ SIGNED
 *   NAME ld OFF SIZE    load: new offset and access size
 *   NAME tid TYPENAME   target type id of the type named TYPENAME
 *   NAME lid TYPENAME   local type id of the type named TYPENAME */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "local_types.h"
#include TARGET_H
#include "checks.h"

/* IF_MISSING(key, a, b): a if the target defines MISSING_<key> as PROBE. */
#define PROBE ~, 1
#define SECOND_(a, b, ...) b
#define SECOND(...) SECOND_(__VA_ARGS__)
#define IS_MISSING(key) SECOND(MISSING_##key, 0, 0)
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define IF_MISSING(key, a, b) CAT(SEL_, IS_MISSING(key))(a, b)
#define SEL_1(a, b) a
#define SEL_0(a, b) b

#define SIGNED(x) ((__typeof__(x))-1 < (__typeof__(x))0)
#define EQ(n, v) printf("%s = %lld\n", n, (long long)(v))
#define POISON(n) printf("%s poison\n", n)

static void bits(const void *p, size_t n, int *off, int *sz)
{
	const unsigned char *b = p;
	size_t i;

	*off = -1;
	*sz = 0;
	for (i = 0; i < n * 8; i++)
		if (b[i / 8] >> (i % 8) & 1) {
			if (*off < 0)
				*off = (int)i;
			++*sz;
		}
}

#define FLD_Y(n, lt, tt, f)                                                   \
	{                                                                     \
		tt v;                                                         \
		EQ(#n "_off", offsetof(tt, f));                               \
		EQ(#n "_sz", sizeof(v.f));                                    \
		EQ(#n "_ex", 1);                                              \
		EQ(#n "_sg", SIGNED(v.f));                                    \
		EQ(#n "_ls", 64 - 8 * sizeof(v.f));                           \
		EQ(#n "_rs", 64 - 8 * sizeof(v.f));                           \
	}
#define FLD_N(n, lt, tt, f)                                                   \
	{                                                                     \
		POISON(#n "_off"); POISON(#n "_sz"); EQ(#n "_ex", 0);         \
		POISON(#n "_sg"); POISON(#n "_ls"); POISON(#n "_rs");         \
	}
#define FLD(n, lt, tt, f, key) IF_MISSING(key, FLD_N, FLD_Y)(n, lt, tt, f)

#define AGG_Y(n, lt, tt, f)                                                   \
	{                                                                     \
		tt v;                                                         \
		EQ(#n "_off", offsetof(tt, f));                               \
		EQ(#n "_sz", sizeof(v.f));                                    \
		EQ(#n "_ex", 1);                                              \
	}
#define AGG_N(n, lt, tt, f) { POISON(#n "_off"); POISON(#n "_sz"); EQ(#n "_ex", 0); }
#define AGG(n, lt, tt, f, key) IF_MISSING(key, AGG_N, AGG_Y)(n, lt, tt, f)

#define BF_Y(n, lt, tt, f)                                                    \
	do {                                                                  \
		tt v;                                                         \
		int off, sz;                                                  \
		memset(&v, 0, sizeof(v));                                     \
		v.f = -1;                                                     \
		bits(&v, sizeof(v), &off, &sz);                               \
		if (off / 64 != (off + sz - 1) / 64) {                        \
			printf("%s error\n%s error\n%s error\n%s error\n%s error\n", \
			       #n "_off", #n "_sz", #n "_sg", #n "_ls", #n "_rs"); \
			EQ(#n "_ex", 1);                                      \
			break;                                                \
		}                                                             \
		printf("%s bitfield %d %d %d\n", #n, off, sz, v.f < 0);       \
		printf("%s window\n%s window\n%s window\n", #n "_off", #n "_sz", #n "_ls"); \
		EQ(#n "_ex", 1);                                              \
		EQ(#n "_sg", v.f < 0);                                        \
		EQ(#n "_rs", 64 - sz);                                        \
	} while (0);
#define BF(n, lt, tt, f, key) IF_MISSING(key, FLD_N, BF_Y)(n, lt, tt, f)

#define IDX_Y(n, lt, tt, i, f) EQ(#n "_off", (i) * sizeof(tt) + offsetof(tt, f));
#define IDX_N(n, lt, tt, i, f) POISON(#n "_off");
#define IDX(n, lt, tt, i, f, key) IF_MISSING(key, IDX_N, IDX_Y)(n, lt, tt, i, f)

/* Loads keep their size, change it when both sides zero-extend (pointers,
 * unsigned ints), else are poisoned. */
#define KIND(x) (__builtin_classify_type(x) == 5 ? 'p' : SIGNED(x) ? 's' : 'u')
#define LD_Y(n, lt, tt, f)                                                    \
	{                                                                     \
		tt v;                                                         \
		lt l;                                                         \
		if (sizeof(v.f) == sizeof(l.f) || (KIND(v.f) == KIND(l.f) && KIND(v.f) != 's')) \
			printf("%s ld %zu %zu\n", #n "_ld", offsetof(tt, f), sizeof(v.f)); \
		else                                                          \
			POISON(#n "_ld");                                     \
	}
#define LD_N(n, lt, tt, f) POISON(#n "_ld");
#define LD(n, lt, tt, f, key) IF_MISSING(key, LD_N, LD_Y)(n, lt, tt, f)

#define TY_Y(n, lt, tt)                                                       \
	{                                                                     \
		EQ(#n "_ex", 1);                                              \
		EQ(#n "_sz", sizeof(tt));                                     \
		printf("%s tid %s\n", #n "_id", #tt);                         \
		printf("%s lid %s\n", #n "_lid", #lt);                        \
	}
#define TY_N(n, lt, tt)                                                       \
	{                                                                     \
		EQ(#n "_ex", 0); EQ(#n "_sz", 0); EQ(#n "_id", 0);            \
		printf("%s lid %s\n", #n "_lid", #lt);                        \
	}
#define TY(n, lt, tt, key) IF_MISSING(key, TY_N, TY_Y)(n, lt, tt)

#define EN_Y(n, tv) { EQ(#n "_ex", 1); EQ(#n "_val", tv); }
#define EN_N(n, tv) { EQ(#n "_ex", 0); POISON(#n "_val"); }
#define EN(n, lt, lv, tt, tv, key) IF_MISSING(key, EN_N, EN_Y)(n, tv)

int main(void)
{
	CHECKS
	return 0;
}
