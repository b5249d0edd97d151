/* Local ("program side") versions of the test types, with ___flavor names.
 * Compiled by clang for the BPF local object and by the host compiler for
 * the oracle (which only needs them to classify load sizes). */
#ifndef CORE_LOCAL_TYPES_H
#define CORE_LOCAL_TYPES_H

#ifdef __bpf__
#define PAI __attribute__((preserve_access_index))
#else
#define PAI
#endif

struct inner___l {
	int x;
	char y;
} PAI;

struct s___l {
	int a;
	char b;
	long c;
	unsigned int u32f;       /* a: grows to u64 (load size adjusted) */
	int i32f;                /* a: grows to s64 (load poisoned) */
	void *ptr;
	struct inner___l in;
	int arr[4];
	int mat[3][5];
	union {
		int ua;
		long ub;
	};
	struct {
		int na;
		struct {
			short nn;
		};
	};
	unsigned int bf1 : 3, bf2 : 7;
	unsigned long long bf3 : 33;
	int sbf : 5;
	unsigned char cbf : 6;
	int gone;
	int gone_bf : 4;
} PAI;

/* Local bitfields must sit in naturally aligned storage (clang refuses
 * field info on packed ones); the targets' packed versions straddle. */
struct pk___l {
	char c;
	unsigned int st : 30;
	unsigned char b8 : 7;
	unsigned char b9 : 5;
	short tail;
} PAI;

struct fl___l {
	int n;
	int data[];
} PAI;

/* Two flavors of one renamed field. */
struct ren___old {
	int old_name;
	int keep;
} PAI;
struct ren___new {
	int new_name;
	int keep;
} PAI;

typedef struct {
	int tx;
	int ty;
} td___l;

enum en___l { EA___l = 1, EB___l = 2, ENEG___l = -3, EGONE___l = 4 };

/* An anonymous enum (as the kernel's INET_FLAGS_*): nothing but typeof
 * names it, so the relocation's root is the anonymous enum itself.  Only
 * one: clang 14 gives a second anonymous enum's relocations the first
 * one's type id, and emits no ENUM64 (hand-built BTF tests those). */
extern enum { AN_A___l = 1, AN_B___l = 2, AN_NEG___l = -3, AN_GONE___l = 4 } an_l;

struct gonetype___l {
	int z;
} PAI;

#endif
