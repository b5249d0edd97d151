/* xz_decode(): round trips through the xz command (presets, checks,
 * several blocks, stored chunks, every lc/lp/pb corner), BCJ refused, the
 * output bound, and corrupt input (truncations at every length, flipped
 * bytes) that must give an error, never a crash (run under ASan+UBSan:
 * every input is handed over in an exact-size buffer). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/xz.h"
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

/* "xz -c OPTS" of data; malloc'd, NULL when xz is missing or fails. */
static uint8_t *xz(const uint8_t *data, size_t len, const char *opts, size_t *xzlen)
{
	char tmp[] = "/tmp/corebox-xz-XXXXXX", cmd[256];
	size_t cap = len + 65536, n = 0, r;
	uint8_t *buf = malloc(cap);
	FILE *f;
	int fd = mkstemp(tmp);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
		perror("mkstemp/write");
		exit(1);
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "xz -c %s %s 2>/dev/null", opts, tmp);
	if (!(f = popen(cmd, "r"))) {
		perror("popen");
		exit(1);
	}
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	if (pclose(f) != 0 || !n) {
		free(buf);
		buf = NULL;
	}
	unlink(tmp);
	*xzlen = n;
	return buf;
}

/* xz_decode() of an exact-size copy */
static int try(const uint8_t *in, size_t len, uint8_t **out, size_t *out_len, size_t max)
{
	uint8_t *copy = malloc(len ? len : 1);
	int r;

	memcpy(copy, in, len);
	r = xz_decode(copy, len, out, out_len, max);
	free(copy);
	return r;
}

static void fill(uint8_t *p, size_t n, int kind)
{
	static const char *words[] = { "main", "cbx_", "_ZN5cbxns", ".text", "\0\0\0\0", "GLIBC_2.34",
				       "\x7f" "ELF", "symtab" };

	for (size_t i = 0; i < n;) {
		if (kind == 0) {
			p[i++] = (uint8_t)rnd();
		} else if (kind == 1) {
			const char *w = words[rnd() % (sizeof(words) / sizeof(words[0]))];
			size_t l = strlen(w) ? strlen(w) : 4;

			for (size_t k = 0; k < l && i < n; k++)
				p[i++] = (uint8_t)w[k];
		} else {
			p[i++] = 'z';
		}
	}
}

int main(void)
{
	static const char *const opts[] = {
		"-0", "-6", "-9e", "--check=crc32", "--check=none", "--check=sha256", "-6 --block-size=65536",
		"--lzma2=lc=4,lp=0,pb=0", "--lzma2=lc=0,lp=4,pb=4", "--lzma2=preset=1,lc=1,lp=3,pb=2",
		"--lzma2=preset=0,mf=hc3,nice=8", "--lzma2=preset=9,nice=273",
	};
	static const size_t sizes[] = { 0, 1, 100, 70000, 600000 };
	size_t xl, n;
	uint8_t *data = malloc(600000), *z, *out;
	int ok = 1, runs = 0, r;

	z = xz((const uint8_t *)"x", 1, "", &xl);
	if (!z) {
		T_SKIP("xz round trips", "no xz command (tests/install-deps.sh installs xz-utils)");
		T_EXIT();
	}
	free(z);
	for (size_t k = 0; k < 3; k++)
		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
			for (size_t o = 0; o < sizeof(opts) / sizeof(opts[0]); o++) {
				fill(data, sizes[s], (int)k);
				z = xz(data, sizes[s], opts[o], &xl);
				if (!z) {
					printf("# xz %s failed\n", opts[o]);
					ok = 0;
					continue;
				}
				r = try(z, xl, &out, &n, MAX);
				if (r || n != sizes[s] || memcmp(out, data, n)) {
					printf("# %s, %zu bytes of kind %zu: %d %s\n", opts[o], sizes[s], k, r, r ? err_msg() : "");
					ok = 0;
				}
				free(out);
				free(z);
				runs++;
			}
	T_OK(ok, "%d round trips (presets, checks, blocks, lc/lp/pb corners; random, text, runs)", runs);

	fill(data, 70000, 1);
	z = xz(data, 70000, "-6", &xl);
	err_clear();
	r = try(z, xl, &out, &n, 69999);
	T_OK(r == -EFBIG && !out, "output bound: -EFBIG (%s)", err_msg());
	free(z);
	z = xz(data, 70000, "--x86 --lzma2", &xl);
	r = z ? try(z, xl, &out, &n, MAX) : -ENOTSUP;
	T_OK(r == -ENOTSUP && !out, "a BCJ filter chain: -ENOTSUP");
	free(z);

	/* corrupt input: every truncation, flipped bytes, random bytes */
	z = xz(data, 70000, "-6", &xl);
	ok = 1;
	for (size_t cut = 0; cut < xl; cut += cut < 200 ? 1 : 97) {
		err_clear();
		r = try(z, cut, &out, &n, MAX);
		if (r == 0 || out || !err_msg()[0]) {
			printf("# truncated at %zu: %d\n", cut, r);
			ok = 0;
		}
	}
	T_OK(ok, "every truncation of a %zu-byte stream: an error with a message", xl);
	runs = 0;
	for (int i = 0; i < 3000; i++) {
		uint8_t *c = malloc(xl);

		memcpy(c, z, xl);
		for (int k = 0; k < 1 + i % 4; k++)
			c[12 + rnd() % (xl - 12)] ^= (uint8_t)(1 + rnd() % 255);
		r = try(c, xl, &out, &n, MAX);
		if (r == 0)
			free(out);
		else
			runs++;
		free(c);
	}
	T_OK(1, "3000 streams with flipped bytes: no crash (%d refused)", runs);
	for (int i = 0; i < 2000; i++) {
		fill(data, 64, 0);
		memcpy(data, "\xfd" "7zXZ\0\0\0", 8);
		data[12] = (uint8_t)(rnd() % 4);
		r = try(data, 64 + rnd() % 200, &out, &n, 1 << 20);
		if (r == 0)
			free(out);
	}
	T_OK(1, "2000 random streams behind a valid magic: no crash");
	free(z);
	free(data);
	T_EXIT();
}
