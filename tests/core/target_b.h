/* Target B: missing fields, a missing type and enumerator, a smaller array,
 * the old name of the renamed field, bitfields in other places. */
struct inner {
	int x;
	char y;
};

struct s {
	char b;
	int a;
	long c;
	unsigned int u32f;
	int i32f;
	void *ptr;
	struct inner in;
	int arr[2];
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
	int sbf : 3;
	unsigned char cbf : 8;
	unsigned long long bf3 : 63;
	unsigned int bf2 : 1, bf1 : 31;
};

struct __attribute__((packed)) pk {
	char c[3];
	unsigned int st : 30;
	unsigned char b8 : 3;
	unsigned char b9 : 8;
	short tail;
};

struct fl {
	int n;
	int data[0];
};

struct ren {
	int old_name;
	int keep;
};

typedef struct {
	int ty;
	int tx;
} td;

enum en { EA = 100, EB = 200, ENEG = -1 };

/* the anonymous enum lost an enumerator */
enum { AN_NEG = -1, AN_A = 0, AN_B = 1 } g_an __attribute__((used));

#define MISSING_s_gone PROBE
#define MISSING_s_arr3 PROBE
#define MISSING_gonetype PROBE
#define MISSING_en_gone PROBE
#define MISSING_an_gone PROBE
#define MISSING_ren_new PROBE

#define TARGET_TYPES(G) G(struct s, g_s) G(struct pk, g_pk) G(struct fl, g_fl) \
	G(struct ren, g_ren) G(td, g_td) G(enum en, g_en) G(struct inner, g_in)
