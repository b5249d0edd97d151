/* Target C: narrower and signed-changed fields, no anonymous union at all,
 * no renamed-field struct, enum values shuffled, bitfields straddling
 * differently in the packed struct. */
struct inner {
	long x;
	short y;
};

struct s {
	short a;
	long long c;
	unsigned short u32f;
	char b;
	int i32f;
	struct inner in;
	void *ptr;
	int arr[4];
	int mat[4][6];
	struct {
		struct {
			char pad;
			short nn;
		};
		long na;
	};
	unsigned int bf1 : 1;
	unsigned long long pad1 : 50, bf3 : 33;
	unsigned int bf2 : 20;
	signed char sbf : 5;
	unsigned char cbf : 1;
	short gone;
	char gone_bf : 7;
};

struct __attribute__((packed)) pk {
	char c;
	char d;
	unsigned char b9 : 1;
	unsigned int st : 30;
	unsigned char b8 : 7;
	short tail;
};

struct fl {
	char n;
	int data[0];
};

typedef struct {
	int tx;
	char pad[7];
	int ty;
} td;

enum en { ENEG = -7, EGONE = 0x7fffffff, EB = 0, EA = 3 };

/* the anonymous enum split in two: an enumerator of one, then of the
 * other, must both resolve (candidates of an anonymous enum are never
 * narrowed to the first match) */
enum { AN_GONE = 1, AN_NEG = -2 } g_an __attribute__((used));
enum { AN_A = 0x7ffffffe, AN_B = 2 } g_an2 __attribute__((used));

struct gonetype {
	int z;
};

#define MISSING_s_ua PROBE
#define MISSING_ren PROBE
#define MISSING_ren_old PROBE
#define MISSING_ren_new PROBE

#define TARGET_TYPES(G) G(struct s, g_s) G(struct pk, g_pk) G(struct fl, g_fl) \
	G(td, g_td) G(enum en, g_en) G(struct gonetype, g_gt) G(struct inner, g_in)
