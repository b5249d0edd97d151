/* /proc/kallsyms: text symbols sorted by address, names in one pool. */
#include "tools/stack/ksyms.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "util.h"

struct kent {
	uint64_t addr;
	uint32_t name;    /* pool offsets; mod 0 = vmlinux */
	uint32_t mod;
};

struct ksyms {
	struct kent *e;
	size_t n;
	char *pool;
};

static int kent_cmp(const void *a, const void *b)
{
	const struct kent *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* equal addresses: file order (the pool grows in file order) */
	return x->name < y->name ? -1 : x->name > y->name;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

struct kparse {
	struct ksyms *ks;
	size_t cap, pcap, plen, nonzero, lastmod;
};

/* One line "ADDR TYPE NAME[\t[MOD]]" (NUL-terminated, no newline). */
static void parse_line(struct kparse *kp, char *p)
{
	struct ksyms *ks = kp->ks;
	char *q = p, *name, *mod = NULL;
	size_t nlen, mlen = 0;
	uint64_t addr = 0;
	int d, type;

	for (; (d = hexval((unsigned char)*q)) >= 0 && q - p < 16; q++)
		addr = addr << 4 | (unsigned)d;
	if (q == p || q[0] != ' ' || !q[1] || q[2] != ' ')
		return;
	type = q[1];
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return;
	name = q + 3;
	nlen = strcspn(name, " \t");
	if (!nlen || nlen > 4096)
		return;
	if (name[nlen]) {
		mod = name + nlen + strspn(name + nlen, " \t");
		if (*mod == '[') {
			mod++;
			mlen = strcspn(mod, "]");
		} else {
			mod = NULL;
		}
	}
	if (ks->n == kp->cap) {
		kp->cap = kp->cap ? kp->cap * 2 : 65536;
		ks->e = xrealloc(ks->e, kp->cap * sizeof(*ks->e));
	}
	if (kp->plen + nlen + mlen + 2 > kp->pcap) {
		kp->pcap = (kp->plen + nlen + mlen + 2) * 2;
		ks->pool = xrealloc(ks->pool, kp->pcap);
	}
	ks->e[ks->n].addr = addr;
	ks->e[ks->n].name = (uint32_t)kp->plen;
	memcpy(ks->pool + kp->plen, name, nlen);
	ks->pool[kp->plen + nlen] = 0;
	kp->plen += nlen + 1;
	ks->e[ks->n].mod = 0;
	if (mod && mlen) {
		/* modules come in runs: intern against the previous one */
		size_t lm = kp->lastmod;

		if (lm && !strncmp(ks->pool + lm, mod, mlen) && !ks->pool[lm + mlen]) {
			ks->e[ks->n].mod = (uint32_t)lm;
		} else {
			memcpy(ks->pool + kp->plen, mod, mlen);
			ks->pool[kp->plen + mlen] = 0;
			ks->e[ks->n].mod = (uint32_t)(kp->lastmod = kp->plen);
			kp->plen += mlen + 1;
		}
	}
	kp->nonzero += addr != 0;
	ks->n++;
}

/* Streamed in 64 KiB reads: the file (~10 MB) is never held whole. */
int ksyms_load_file(const char *path, struct ksyms **out)
{
	struct kparse kp = { 0 };
	size_t have = 0, bufsz = 65536;
	char *buf;
	int fd, err = 0;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_sys(errno, "cannot open %s", path);
	kp.ks = xcalloc(1, sizeof(*kp.ks));
	kp.pcap = 1u << 20;
	kp.ks->pool = xmalloc(kp.pcap);
	kp.ks->pool[0] = 0;
	kp.plen = 1;
	buf = xmalloc(bufsz + 1);
	for (;;) {
		ssize_t n = read(fd, buf + have, bufsz - have);
		char *p, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = err_sys(errno, "cannot read %s", path);
			break;
		}
		have += (size_t)n;
		buf[have] = 0;
		for (p = buf; (nl = memchr(p, '\n', have - (size_t)(p - buf))) != NULL; p = nl + 1) {
			*nl = 0;
			parse_line(&kp, p);
		}
		if (n == 0 || have - (size_t)(p - buf) == bufsz) {  /* EOF, or an absurd line */
			if (p < buf + have)
				parse_line(&kp, p);
			break;
		}
		have -= (size_t)(p - buf);
		memmove(buf, p, have);
		if (kp.plen > UINT32_MAX - (1u << 20)) {
			err = err_set(EFBIG, "%s: symbol names exceed 4 GiB", path);
			break;
		}
	}
	close(fd);
	free(buf);
	if (!err && !kp.ks->n)
		err = err_set(ENOENT, "%s holds no text symbols", path);
	if (!err && !kp.nonzero)
		err = err_set(EPERM, "kernel symbol addresses are hidden in %s (kptr_restrict): run as root, "
			      "or set kernel.kptr_restrict=0", path);
	if (err) {
		ksyms_free(kp.ks);
		return err;
	}
	kp.ks->e = xrealloc(kp.ks->e, kp.ks->n * sizeof(*kp.ks->e));
	kp.ks->pool = xrealloc(kp.ks->pool, kp.plen);
	qsort(kp.ks->e, kp.ks->n, sizeof(*kp.ks->e), kent_cmp);
	*out = kp.ks;
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
	free(ks->e);
	free(ks->pool);
	free(ks);
}

size_t ksyms_count(const struct ksyms *ks)
{
	return ks ? ks->n : 0;
}

int ksyms_lookup(const struct ksyms *ks, uint64_t addr, struct ksym *out)
{
	size_t lo = 0, hi;

	if (!ks || !ks->n || addr < ks->e[0].addr)
		return -ENOENT;
	hi = ks->n;
	while (hi - lo > 1) {  /* invariant: e[lo].addr <= addr, e[hi] > addr or hi == n */
		size_t mid = lo + (hi - lo) / 2;

		if (ks->e[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	while (lo && ks->e[lo - 1].addr == ks->e[lo].addr)
		lo--;  /* aliases: the first in kallsyms order */
	out->name = ks->pool + ks->e[lo].name;
	out->module = ks->e[lo].mod ? ks->pool + ks->e[lo].mod : NULL;
	out->addr = ks->e[lo].addr;
	out->offset = addr - ks->e[lo].addr;
	return 0;
}

int ksyms_addr(const struct ksyms *ks, const char *name, uint64_t *addr)
{
	for (size_t i = 0; ks && i < ks->n; i++)
		if (!strcmp(ks->pool + ks->e[i].name, name)) {
			*addr = ks->e[i].addr;
			return 0;
		}
	return -ENOENT;
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
