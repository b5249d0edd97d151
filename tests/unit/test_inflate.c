/* gunzip(): round trips through the gzip command, hand-built streams
 * (stored, fixed and dynamic blocks, header flags, several members), the
 * live /proc/config.gz, and corrupt input that must give an error (run
 * under ASan+UBSan: every input is handed over in an exact-size buffer). */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/inflate.h"
#include "lib/util.h"
#include "t.h"

#define MAX (64u << 20)

static uint64_t rng = 88172645463325252ull;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static uint32_t crc32(const void *buf, size_t n)
{
	const uint8_t *p = buf;
	uint32_t c = ~0u;

	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = c >> 1 ^ (c & 1 ? 0xedb88320 : 0);
	}
	return ~c;
}

/* Compress data with "gzip -c OPTS FILE" (a file, so that without -n the
 * header carries FNAME); returns a malloc'd buffer. */
static char *gz(const char *data, size_t len, const char *opts, size_t *gzlen)
{
	char tmp[] = "/tmp/corebox-inflate-XXXXXX", cmd[128];
	size_t cap = len + 4096, n = 0, r;
	char *buf = malloc(cap);
	FILE *f;
	int fd = mkstemp(tmp);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
		perror("mkstemp/write");
		exit(1);
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "gzip -c %s %s", opts, tmp);
	if (!(f = popen(cmd, "r"))) {
		perror("popen");
		exit(1);
	}
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	pclose(f);
	unlink(tmp);
	*gzlen = n;
	return buf;
}

/* gunzip() with the input in an exact-size heap copy. */
static int try(const void *in, size_t len, char **out, size_t *out_len, size_t max)
{
	char *copy = malloc(len ? len : 1);
	int r;

	memcpy(copy, in, len);
	r = gunzip(copy, len, out, out_len, max);
	free(copy);
	return r;
}

/* Decompress and compare; returns 1 when equal. */
static int same(const char *gzd, size_t gzlen, const char *want, size_t len)
{
	char *out = NULL;
	size_t n = 12345;
	int r = try(gzd, gzlen, &out, &n, MAX), ok;

	if (r)
		printf("# gunzip: %d %s\n", r, err_msg());
	ok = !r && n == len && !memcmp(out, want, len) && out[n] == 0;
	free(out);
	return ok;
}

/* Must fail with a negative errno and a message containing why (when not
 * NULL), and leave *out NULL. */
#define fails(in, len) failw(in, len, NULL)
static int failw(const void *in, size_t len, const char *why)
{
	char *out = (char *)1;
	size_t n;
	int r;

	err_clear();
	r = try(in, len, &out, &n, MAX);
	if (!r)
		free(out);
	return r < 0 && !out && err_msg()[0] && (!why || strstr(err_msg(), why));
}

static void fill(char *p, size_t n, int kind)
{
	static const char *words[] = { "CONFIG_", "BPF", "=y\n", "=m\n", "# ", " is not set\n",
				       "NET", "_SYSCALL", "DEBUG_INFO", "=\"\"\n", "0x1000\n" };

	for (size_t i = 0; i < n;) {
		if (kind == 0) { /* random bytes */
			p[i++] = (char)rnd();
		} else if (kind == 1) { /* text made of a few words */
			const char *w = words[rnd() % ARRAY_SIZE(words)];
			while (*w && i < n)
				p[i++] = *w++;
		} else { /* one byte repeated */
			p[i++] = 'z';
		}
	}
}

/* --- a tiny DEFLATE writer for hand-built streams --- */
struct bw {
	uint8_t buf[4096];
	size_t len;
	int nbits;
};

static void put(struct bw *w, uint32_t v, int n) /* n bits, LSB first */
{
	for (int i = 0; i < n; i++, v >>= 1) {
		if (!w->nbits)
			w->buf[w->len++] = 0;
		w->buf[w->len - 1] |= (v & 1) << w->nbits;
		w->nbits = (w->nbits + 1) & 7;
	}
}

static void putcode(struct bw *w, uint32_t code, int n) /* Huffman code: MSB first */
{
	while (n--)
		put(w, code >> n & 1, 1);
}

static void fixlit(struct bw *w, int sym) /* fixed literal/length code */
{
	if (sym < 144)
		putcode(w, 0x30 + sym, 8);
	else if (sym < 256)
		putcode(w, 0x190 + sym - 144, 9);
	else if (sym < 280)
		putcode(w, sym - 256, 7);
	else
		putcode(w, 0xc0 + sym - 280, 8);
}

static void head(struct bw *w)
{
	static const uint8_t h[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };

	memcpy(w->buf, h, 10);
	w->len = 10;
	w->nbits = 0;
}

static void trail(struct bw *w, const void *data, size_t len)
{
	uint32_t c = crc32(data, len);

	w->nbits = 0;
	for (int i = 0; i < 4; i++)
		w->buf[w->len++] = (uint8_t)(c >> 8 * i);
	for (int i = 0; i < 4; i++)
		w->buf[w->len++] = (uint8_t)(len >> 8 * i);
}

/* A dynamic block.  Code-length code: symbol 1 -> "0", 2 -> "10",
 * 18 -> "11".  Literal/length lengths: 'a' = la, 256 = le, and x (if not
 * 0) = 1; distance lengths: ndist codes of length 1.  Then "aa" + EOB when
 * the code is the complete {'a','EOB'} one. */
static void dyn(struct bw *w, int la, int le, int x, int ndist)
{
	static const int order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
	int clen[19] = { 0 }, lens[300] = { 0 }, n = 257 + ndist;

	clen[1] = 1;
	clen[2] = 2;
	clen[18] = 2;
	lens['a'] = la;
	lens[256] = le;
	if (x)
		lens[x] = 1;
	for (int i = 0; i < ndist; i++)
		lens[257 + i] = 1;
	put(w, 1, 1); /* final */
	put(w, 2, 2); /* dynamic */
	put(w, 0, 5); /* HLIT: 257 */
	put(w, ndist - 1, 5);
	put(w, 14, 4); /* HCLEN: 18 code-length codes */
	for (int i = 0; i < 18; i++)
		put(w, clen[order[i]], 3);
	for (int i = 0; i < n;) {
		int z = 0;

		while (i + z < n && !lens[i + z] && z < 138)
			z++;
		if (z >= 11) {
			putcode(w, 3, 2);
			put(w, z - 11, 7);
			i += z;
		} else if (lens[i] == 1 || lens[i] == 2) {
			if (lens[i] == 1)
				putcode(w, 0, 1);
			else
				putcode(w, 2, 2);
			i++;
		} else {
			fprintf(stderr, "dyn: cannot encode length %d at %d\n", lens[i], i);
			exit(1);
		}
	}
	/* 'a' = "0", EOB = "1" when la == le == 1 */
	putcode(w, 0, 1);
	putcode(w, 0, 1);
	putcode(w, 1, 1);
}

static void test_roundtrip(void)
{
	static const size_t sizes[] = { 0, 1, 100, 4097, 70000, 300000 };
	static const char *opts[] = { "-1", "-9", "-n" };
	static const char *kinds[] = { "random", "text", "repeated" };

	for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
		char *data = malloc(sizes[s] + 1);

		for (int k = 0; k < 3; k++) {
			fill(data, sizes[s], k);
			for (size_t o = 0; o < ARRAY_SIZE(opts); o++) {
				size_t n;
				char *g = gz(data, sizes[s], opts[o], &n);

				T_OK(same(g, n, data, sizes[s]), "round trip %zu %s bytes, gzip %s (%zu bytes)",
				     sizes[s], kinds[k], opts[o], n);
				free(g);
			}
		}
		free(data);
	}
}

static void test_handmade(void)
{
	struct bw w;
	char want[300];
	size_t n;

	/* stored blocks: empty non-final, "hello", final " world" */
	head(&w);
	put(&w, 0, 3);
	w.nbits = 0;
	memcpy(w.buf + w.len, "\0\0\xff\xff", 4);
	w.len += 4;
	put(&w, 0, 3);
	w.nbits = 0;
	memcpy(w.buf + w.len, "\5\0\xfa\xffhello", 9);
	w.len += 9;
	put(&w, 1, 3); /* final, stored */
	w.nbits = 0;
	memcpy(w.buf + w.len, "\6\0\xf9\xff world", 10);
	w.len += 10;
	trail(&w, "hello world", 11);
	T_OK(same((char *)w.buf, w.len, "hello world", 11), "stored blocks");
	w.buf[10 + 1 + 4 + 1 + 2] ^= 1; /* NLEN of "hello" */
	T_OK(failw(w.buf, w.len, "length check"), "stored block with bad NLEN fails");

	/* fixed block: 'a', match length 258 at distance 1, 'b' */
	head(&w);
	put(&w, 1, 1);
	put(&w, 1, 2);
	fixlit(&w, 'a');
	fixlit(&w, 285);
	putcode(&w, 0, 5);
	fixlit(&w, 'b');
	fixlit(&w, 256);
	memset(want, 'a', 259);
	want[259] = 'b';
	trail(&w, want, 260);
	T_OK(same((char *)w.buf, w.len, want, 260), "fixed block with a 258-byte overlapping match");
	n = w.len;
	err_clear();
	{
		char *out = (char *)1;
		size_t ol;
		int r = try(w.buf, n, &out, &ol, 259);

		T_OK(r == -EFBIG && !out, "output above max_out gives -EFBIG (%d: %s)", r, err_msg());
		r = try(w.buf, n, &out, &ol, 260);
		T_OK(r == 0 && ol == 260, "output of exactly max_out is fine");
		free(out);
	}

	/* distance beyond the start of the output */
	head(&w);
	put(&w, 3, 3); /* final, fixed */
	fixlit(&w, 'a');
	fixlit(&w, 257); /* length 3 */
	putcode(&w, 1, 5); /* distance 2 */
	fixlit(&w, 256);
	trail(&w, "aaaa", 4);
	T_OK(failw(w.buf, w.len, "too far"), "distance beyond output start fails: %s", err_msg());

	/* distance code 30 (unused) */
	head(&w);
	put(&w, 3, 3); /* final, fixed */
	fixlit(&w, 'a');
	fixlit(&w, 257);
	putcode(&w, 30, 5);
	fixlit(&w, 256);
	trail(&w, "aaaa", 4);
	T_OK(failw(w.buf, w.len, "distance code"), "distance code 30 fails: %s", err_msg());

	/* length symbol 286 (unused) */
	head(&w);
	put(&w, 3, 3); /* final, fixed */
	fixlit(&w, 'a');
	fixlit(&w, 286);
	putcode(&w, 0, 5);
	fixlit(&w, 256);
	trail(&w, "aaaa", 4);
	T_OK(failw(w.buf, w.len, "length symbol"), "length symbol 286 fails: %s", err_msg());

	/* two members: "ab" then a match reaching back into the first one */
	head(&w);
	put(&w, 3, 3); /* final, fixed */
	fixlit(&w, 'a');
	fixlit(&w, 'b');
	fixlit(&w, 256);
	trail(&w, "ab", 2);
	n = w.len;
	{
		struct bw w2;

		head(&w2);
		put(&w2, 3, 3);
		fixlit(&w2, 'c');
		fixlit(&w2, 256);
		trail(&w2, "c", 1);
		memcpy(w.buf + n, w2.buf, w2.len);
		w.len = n + w2.len;
		T_OK(same((char *)w.buf, w.len, "abc", 3), "two concatenated members");
		memcpy(w.buf + w.len, "\0\0\0", 3);
		T_OK(same((char *)w.buf, w.len + 3, "abc", 3), "trailing zero bytes ignored");

		head(&w2);
		put(&w2, 3, 3);
		fixlit(&w2, 257);
		putcode(&w2, 0, 5);
		fixlit(&w2, 256);
		trail(&w2, "bbb", 3);
		memcpy(w.buf + n, w2.buf, w2.len);
		w.len = n + w2.len;
		T_OK(failw(w.buf, w.len, "too far"), "match reaching into the previous member fails: %s", err_msg());
	}

	/* dynamic blocks */
	head(&w);
	dyn(&w, 1, 1, 0, 1);
	trail(&w, "aa", 2);
	T_OK(same((char *)w.buf, w.len, "aa", 2), "dynamic block, one distance code");
	head(&w);
	dyn(&w, 1, 1, 0, 2);
	trail(&w, "aa", 2);
	T_OK(same((char *)w.buf, w.len, "aa", 2), "dynamic block, two distance codes");
	head(&w);
	dyn(&w, 1, 2, 0, 1);
	trail(&w, "aa", 2);
	T_OK(failw(w.buf, w.len, "incomplete"), "incomplete literal/length code fails: %s", err_msg());
	head(&w);
	dyn(&w, 1, 1, 'b', 1);
	trail(&w, "aa", 2);
	T_OK(failw(w.buf, w.len, "over-subscribed"), "over-subscribed literal/length code fails: %s", err_msg());
	head(&w);
	dyn(&w, 1, 1, 0, 3);
	trail(&w, "aa", 2);
	T_OK(failw(w.buf, w.len, "over-subscribed"), "over-subscribed distance code fails: %s", err_msg());
	head(&w);
	dyn(&w, 1, 0, 0, 1);
	trail(&w, "a", 1);
	T_OK(failw(w.buf, w.len, "end-of-block"), "no end-of-block code fails: %s", err_msg());

	/* code-length code: all 19 lengths 1 (over-subscribed), or only two
	 * codes of length 2 (incomplete) */
	head(&w);
	put(&w, 5, 3);
	put(&w, 0, 5);
	put(&w, 0, 5);
	put(&w, 15, 4);
	for (int i = 0; i < 19; i++)
		put(&w, 3, 3); /* final, fixed */
	put(&w, 0, 32);
	trail(&w, "", 0);
	T_OK(failw(w.buf, w.len, "over-subscribed"), "over-subscribed code-length code fails: %s", err_msg());
	head(&w);
	put(&w, 5, 3);
	put(&w, 0, 5);
	put(&w, 0, 5);
	put(&w, 0, 4);
	put(&w, 2, 3);
	put(&w, 0, 3);
	put(&w, 2, 3);
	put(&w, 0, 3);
	put(&w, 0, 32);
	trail(&w, "", 0);
	T_OK(failw(w.buf, w.len, "incomplete"), "incomplete code-length code fails: %s", err_msg());
	head(&w);
	put(&w, 7, 3);
	put(&w, 0, 32);
	trail(&w, "", 0);
	T_OK(failw(w.buf, w.len, "block type"), "block type 3 fails: %s", err_msg());
}

static void test_header(void)
{
	const char *text = "CONFIG_BPF=y\nCONFIG_BPF_SYSCALL=y\n";
	size_t len = strlen(text), n, m;
	char *g = gz(text, len, "-n", &n);
	uint8_t *h = malloc(n + 64);
	uint32_t c;

	/* FEXTRA + FNAME + FCOMMENT + FHCRC */
	memcpy(h, g, 10);
	h[3] = 4 | 8 | 16 | 2;
	m = 10;
	memcpy(h + m, "\5\0XY\3\0z", 7);
	m += 7;
	memcpy(h + m, "name\0", 5);
	m += 5;
	memcpy(h + m, "a comment\0", 10);
	m += 10;
	c = crc32(h, m);
	h[m++] = (uint8_t)c;
	h[m++] = (uint8_t)(c >> 8);
	memcpy(h + m, g + 10, n - 10);
	m += n - 10;
	T_OK(same((char *)h, m, text, len), "header with FEXTRA, FNAME, FCOMMENT, FHCRC");
	h[m - (n - 10) - 1] ^= 0x40;
	T_OK(failw(h, m, "header CRC"), "bad header CRC fails: %s", err_msg());
	h[m - (n - 10) - 1] ^= 0x40;
	T_OK(failw(h, 10 + 7 + 3, "truncated"), "name without its NUL fails");
	h[3] |= 0x20;
	T_OK(failw(h, m, "flags"), "reserved flag bit fails: %s", err_msg());

	memcpy(h, g, n);
	h[0] = 0x1e;
	T_OK(failw(h, n, "magic"), "bad magic fails: %s", err_msg());
	memcpy(h, g, n);
	h[2] = 7;
	T_OK(failw(h, n, "method"), "method 7 fails: %s", err_msg());
	memcpy(h, g, n);
	h[n - 8] ^= 1;
	T_OK(failw(h, n, "CRC mismatch"), "bad CRC fails: %s", err_msg());
	memcpy(h, g, n);
	h[n - 1] ^= 0x80;
	T_OK(failw(h, n, "length mismatch"), "bad ISIZE fails: %s", err_msg());
	memcpy(h, g, n);
	h[n - 4]++;
	T_OK(failw(h, n, "length mismatch"), "ISIZE one too large fails: %s", err_msg());
	T_OK(fails("", 0), "empty input fails: %s", err_msg());
	T_OK(fails("\x1f", 1), "1-byte input fails");
	free(h);
	free(g);
}

static void test_corrupt(void)
{
	/* 40 KB (text, then random bytes: dynamic and stored blocks) keeps
	 * each of the ~20,000 decodes below short: under ASan 150 KB made this
	 * the slowest unit test (40 s); the cuts and flips are denser instead */
	size_t len = 40000, n, bad = 0, tried = 0;
	char *data = malloc(len);
	char *g, *h, *out;

	fill(data, len / 2, 1);
	fill(data + len / 2, len / 2, 0);
	g = gz(data, len, "-6", &n);
	for (size_t cut = 0; cut < n; cut += 23, tried++)
		bad += !fails(g, cut);
	bad += !fails(g, n - 1);
	T_OK(!bad, "truncated at every 23rd byte (%zu cuts) fails", tried + 1);

	/* one flipped bit anywhere: an error, or (header fields such as MTIME
	 * are unchecked) the right output */
	h = malloc(n);
	bad = tried = 0;
	for (size_t bit = 0; bit < n * 8; bit += 1 + rnd() % 14, tried++) {
		size_t ol;
		int r;

		memcpy(h, g, n);
		h[bit / 8] ^= (char)(1 << bit % 8);
		r = try(h, n, &out, &ol, MAX);
		if (!r) {
			bad += ol != len || memcmp(out, data, len);
			free(out);
		}
	}
	T_OK(!bad, "%zu single bit flips detected (%zu missed)", tried, bad);

	/* random garbage after a valid header, and random bytes in the
	 * middle of a valid stream: must not crash */
	for (int i = 0; i < 3000; i++) {
		size_t m = 10 + rnd() % 600, ol;

		memcpy(h, g, 10);
		for (size_t j = 10; j < m; j++)
			h[j] = (char)rnd();
		if (!try(h, m, &out, &ol, 1 << 20))
			free(out);
	}
	for (int i = 0; i < 300; i++) {
		size_t ol;

		memcpy(h, g, n);
		for (int j = 0; j < 8; j++)
			h[10 + rnd() % (n - 18)] = (char)rnd();
		if (!try(h, n, &out, &ol, MAX))
			free(out);
	}
	T_OK(1, "3300 random corruptions survived");
	free(h);
	free(g);
	free(data);
}

static void test_live(void)
{
	char *buf, *out;
	size_t len, ol;
	uint64_t t, best = ~0ull;
	int r = 0;

	if (access("/proc/config.gz", R_OK)) {
		T_SKIP("/proc/config.gz", "no /proc/config.gz");
		return;
	}
	r = read_file("/proc/config.gz", 16 << 20, &buf, &len);
	T_OK(!r, "read /proc/config.gz");
	if (r)
		return;
	for (int i = 0; i < 5 && !r; i++) {
		t = now_ns();
		r = gunzip(buf, len, &out, &ol, 16 << 20);
		t = now_ns() - t;
		best = t < best ? t : best;
		if (!r && i < 4)
			free(out);
	}
	T_OK(!r && strstr(out, "CONFIG_BPF=y"),
	     "/proc/config.gz: %zu -> %zu bytes, has CONFIG_BPF=y (%.2f ms under ASan)", len, ol,
	     best / 1e6);
	if (!r)
		free(out);
	free(buf);
}

/* cbz_unpack(): packed data (tools/bpfpack.py's format) with and without a
 * preset dictionary; matches that reach into the dictionary, and ones
 * past its start; header checks. */
static void cbzhead(struct bw *w, int flags, const void *data, size_t len)
{
	const uint8_t *d = data;
	uint32_t a = 1, b = 0, c;

	for (size_t i = 0; i < len; i++) { /* Adler-32 */
		a = (a + d[i]) % 65521;
		b = (b + a) % 65521;
	}
	c = b << 16 | a;

	memcpy(w->buf, "cbz", 3);
	w->buf[3] = (uint8_t)flags;
	for (int i = 0; i < 4; i++)
		w->buf[4 + i] = (uint8_t)(len >> 8 * i);
	for (int i = 0; i < 4; i++)
		w->buf[8 + i] = (uint8_t)(c >> 8 * i);
	w->len = 12;
	w->nbits = 0;
}

static int cbz_try(const struct bw *w, const char *dict, size_t dict_len, char **out, size_t *n)
{
	char *copy = malloc(w->len), *d = dict_len ? malloc(dict_len) : NULL;
	int r;

	memcpy(copy, w->buf, w->len);
	if (d)
		memcpy(d, dict, dict_len);
	*out = (char *)1;
	err_clear();
	r = cbz_unpack(copy, w->len, d, dict_len, out, n, MAX);
	free(copy);
	free(d);
	return r;
}

static void test_cbz(void)
{
	struct bw w;
	char *out;
	size_t n;
	int r;

	/* "xyz" + a match of 4 at distance 6: 3 bytes of the dictionary
	 * "abcdef" ("def") and then its own first byte ("x") */
	cbzhead(&w, CBZ_DICT, "xyzdefx", 7);
	put(&w, 3, 3); /* final, fixed */
	fixlit(&w, 'x');
	fixlit(&w, 'y');
	fixlit(&w, 'z');
	fixlit(&w, 258); /* length 4 */
	putcode(&w, 4, 5); /* distance code 4: 5..6, one extra bit */
	put(&w, 1, 1);     /* distance 6 */
	fixlit(&w, 256);
	r = cbz_try(&w, "abcdef", 6, &out, &n);
	T_OK(r == 0 && n == 7 && !memcmp(out, "xyzdefx", 8), "match reaching into the dictionary (%d: %s)", r,
	     err_msg());
	if (!r)
		free(out);
	r = cbz_try(&w, NULL, 0, &out, &n);
	T_OK(r == -EINVAL && !out && strstr(err_msg(), "dictionary"), "data that needs a dictionary fails without: %s",
	     err_msg());
	r = cbz_try(&w, "ef", 2, &out, &n);
	T_OK(r == -EBADMSG && !out && strstr(err_msg(), "too far"), "a match past the dictionary's start fails: %s",
	     err_msg());
	r = cbz_try(&w, "abcdeX", 6, &out, &n);
	T_OK(r == -EBADMSG && !out && strstr(err_msg(), "checksum"), "another dictionary gives a checksum mismatch: %s",
	     err_msg());
	w.buf[3] = 2;
	r = cbz_try(&w, "abcdef", 6, &out, &n);
	T_OK(r == -EBADMSG && !out && strstr(err_msg(), "flags"), "unknown flags fail: %s", err_msg());
	w.buf[3] = CBZ_DICT;
	w.buf[4] = 8;
	r = cbz_try(&w, "abcdef", 6, &out, &n);
	T_OK(r < 0 && !out, "a size larger than the data fails: %s", err_msg());
	w.buf[4] = 6;
	r = cbz_try(&w, "abcdef", 6, &out, &n);
	T_OK(r == -EFBIG && !out, "data longer than its size fails: %s", err_msg());

	/* no dictionary: a dictionary given is ignored; truncation */
	cbzhead(&w, 0, "ab", 2);
	put(&w, 3, 3);
	fixlit(&w, 'a');
	fixlit(&w, 'b');
	fixlit(&w, 256);
	r = cbz_try(&w, "zzz", 3, &out, &n);
	T_OK(r == 0 && n == 2 && !memcmp(out, "ab", 3), "without CBZ_DICT the dictionary is not used (%d: %s)", r,
	     err_msg());
	if (!r)
		free(out);
	for (size_t cut = 0; cut < w.len; cut++) {
		struct bw t = w;

		t.len = cut;
		r = cbz_try(&t, NULL, 0, &out, &n);
		if (r >= 0 || out) {
			T_OK(0, "truncated to %zu bytes fails", cut);
			break;
		}
	}
	T_OK(1, "every truncation of a packed stream fails");
}

/* CBZ_LZMA2: raw LZMA2 against the dictionary, as tools/bpfpack.py
 * writes it (liblzma, preset_dict; its first chunk, 0xc0, resets the
 * state and not the dictionary): the data's words come from the
 * dictionary's. */
static void test_cbz_lzma2(void)
{
	static const char dict[] = "corebox packs its BPF objects against one dictionary; ";
	static const char data[] = "its BPF objects: one dictionary, packed by corebox. BPF objects!";
	static const uint8_t lz[] = { 0xc0, 0x00, 0x3f, 0x00, 0x18, 0x00, 0x00, 0xaa, 0x57, 0x0a, 0xaa,
				      0x74, 0x10, 0xaa, 0xfe, 0xae, 0x86, 0x50, 0x64, 0x12, 0xee, 0x17,
				      0x16, 0xf4, 0xf8, 0x1d, 0xa1, 0x8d, 0x25, 0x70, 0xd2, 0x00 };
	struct bw w;
	char *out;
	size_t n;
	int r;

	cbzhead(&w, CBZ_DICT | CBZ_LZMA2, data, strlen(data));
	memcpy(w.buf + w.len, lz, sizeof(lz));
	w.len += sizeof(lz);
	r = cbz_try(&w, dict, strlen(dict), &out, &n);
	T_OK(r == 0 && n == strlen(data) && !memcmp(out, data, n + 1), "LZMA2 against the dictionary (%d: %s)", r,
	     err_msg());
	if (!r)
		free(out);
	r = cbz_try(&w, NULL, 0, &out, &n);
	T_OK(r == -EINVAL && !out, "LZMA2 data that needs a dictionary fails without: %s", err_msg());
	r = cbz_try(&w, "corebox", 7, &out, &n);
	T_OK(r == -EBADMSG && !out, "LZMA2 with a shorter dictionary fails: %s", err_msg());
	r = cbz_try(&w, "Corebox packs its BPF objects against one dictionary; ", strlen(dict), &out, &n);
	T_OK(r == -EBADMSG && !out && strstr(err_msg(), "checksum"), "another dictionary: checksum mismatch: %s",
	     err_msg());
	w.buf[4]++; /* one byte longer than it is */
	r = cbz_try(&w, dict, strlen(dict), &out, &n);
	T_OK(r == -EBADMSG && !out, "LZMA2 shorter than its header says fails: %s", err_msg());
	w.buf[4] -= 2;
	r = cbz_try(&w, dict, strlen(dict), &out, &n);
	T_OK(r < 0 && !out, "LZMA2 longer than its header says fails: %s", err_msg());
	w.buf[4]++;
	for (size_t cut = CBZ_HEADER; cut < w.len; cut++) {
		struct bw t = w;

		t.len = cut;
		r = cbz_try(&t, dict, strlen(dict), &out, &n);
		T_OK(r < 0 && !out, "LZMA2 truncated to %zu bytes fails", cut);
	}
}

int main(void)
{
	test_roundtrip();
	test_handmade();
	test_header();
	test_corrupt();
	test_live();
	test_cbz();
	test_cbz_lzma2();
	T_EXIT();
}
