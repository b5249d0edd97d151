/* Target A: fields reordered and grown, bitfields moved and resized, the
 * anonymous union moved one level deeper, bigger arrays, a renamed field. */
struct inner {
	char y;
	long pad;
	int x;
};

struct s {
	long c;
	char b;
	int a;
	unsigned long long u32f;
	long i32f;
	void *ptr;
	int arr[6];
	int mat[3][5];
	struct inner in;
	struct {
		long pad2;
		union {
			long ub;
			int ua;
		};
	};
	struct {
		struct {
			short nn;
		};
		int na;
	};
	unsigned long long bf3 : 40;
	unsigned int pad3 : 1, bf2 : 9, bf1 : 5;
	int sbf : 7;
	unsigned char cbf : 2;
	int gone;
	int gone_bf : 4;
};

struct __attribute__((packed)) pk {
	short tail;
	char c;
	char c2;
	unsigned char b9 : 5;
	unsigned int st : 30;
	unsigned char b8 : 7;
};

struct fl {
	long hdr;
	int n;
	int data[];
};

struct ren {
	int pad;
	int new_name;
	int keep;
};

typedef struct {
	long pad;
	int ty;
	int tx;
} td;

enum en { EB = 20, EA = 10, ENEG = -30, EGONE = 40 };

/* Anonymous enums (globals bring them into BTF), one without any local
 * enumerator (not a candidate). */
enum { AN_B = 15, AN_A = 11, AN_NEG = -18, AN_GONE = 40 } g_an __attribute__((used));
enum { AN_DECOY = 99 } g_an_decoy __attribute__((used));

struct gonetype {
	long pad;
	int z;
};

#define MISSING_ren_old PROBE

#define TARGET_TYPES(G) G(struct s, g_s) G(struct pk, g_pk) G(struct fl, g_fl) \
	G(struct ren, g_ren) G(td, g_td) G(enum en, g_en) G(struct gonetype, g_gt) G(struct inner, g_in)
