/* bpf/ on the live kernel (root): maps, batch ops, freeze, tracepoint /
 * raw_tp / uprobe programs counting exactly N events, ring buffer and perf
 * buffer consumers (with a lost-record flood), the verifier-log path,
 * feature probes, cpu lists, and no leaked programs at the end.
 * Programs are hand-assembled; nothing here needs clang. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/btf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bpf/cpus.h"
#include "bpf/perf.h"
#include "bpf/perfbuf.h"
#include "bpf/probe.h"
#include "bpf/ringbuf.h"
#include "bpf/sys.h"
#include "bpf/tracefs.h"
#include "lib/err.h"
#include "lib/util.h"
#include "t.h"

#define N 50
#define MAGIC 0x5eed1234

/* ---- a tiny BPF assembler ---- */
#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define MOV64_IMM(d, i) INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV32_IMM(d, i) INSN(BPF_ALU | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV64_REG(d, s) INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ALU64_IMM(op, d, i) INSN(BPF_ALU64 | (op) | BPF_K, d, 0, 0, i)
#define LD_MAP_FD(d, fd) INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd), INSN(0, 0, 0, 0, 0)
#define LDX_MEM(sz, d, s, o) INSN(BPF_LDX | (sz) | BPF_MEM, d, s, o, 0)
#define STX_MEM(sz, d, s, o) INSN(BPF_STX | (sz) | BPF_MEM, d, s, o, 0)
#define ST_MEM(sz, d, o, i) INSN(BPF_ST | (sz) | BPF_MEM, d, 0, o, i)
#define ATOMIC_ADD64(d, s, o) INSN(BPF_STX | BPF_DW | BPF_ATOMIC, d, s, o, BPF_ADD)
#define JMP_IMM(op, d, i, o) INSN(BPF_JMP | (op) | BPF_K, d, 0, o, i)
#define CALL(f) INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT() INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* A jump to the final "r0 = 0; exit" pair, patched by out_fix(). */
#define OUT_MARK 0x7ffe
#define JOUT(op, d, i) JMP_IMM(op, d, i, OUT_MARK)
#define RET0() MOV64_IMM(BPF_REG_0, 0), EXIT()
/* Keep only events of this process: (pid_tgid >> 32) == tgid. */
#define PID_FILTER(tgid) CALL(BPF_FUNC_get_current_pid_tgid), MOV64_REG(BPF_REG_7, BPF_REG_0), \
	ALU64_IMM(BPF_RSH, BPF_REG_0, 32), JOUT(BPF_JNE, BPF_REG_0, tgid)
/* counter[0] += 1 */
#define COUNT(map) ST_MEM(BPF_W, BPF_REG_10, -4, 0), MOV64_REG(BPF_REG_2, BPF_REG_10),     \
	ALU64_IMM(BPF_ADD, BPF_REG_2, -4), LD_MAP_FD(BPF_REG_1, map),                       \
	CALL(BPF_FUNC_map_lookup_elem), JOUT(BPF_JEQ, BPF_REG_0, 0), MOV64_IMM(BPF_REG_1, 1), \
	ATOMIC_ADD64(BPF_REG_0, BPF_REG_1, 0)

static void out_fix(struct bpf_insn *in, int cnt)
{
	for (int i = 0; i < cnt; i++)
		if (in[i].off == OUT_MARK && BPF_CLASS(in[i].code) == BPF_JMP)
			in[i].off = (int16_t)((cnt - 2) - (i + 1));
}

static uint32_t our_ids[64];
static int n_our;

static void note_id(int fd)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (fd >= 0 && bpf_obj_info(fd, &info, &len) == 0 && n_our < 64)
		our_ids[n_our++] = info.id;
}

static int load(uint32_t type, const char *name, struct bpf_insn *in, int cnt)
{
	struct bpf_prog_spec s = { .name = name, .type = type, .insns = in, .insn_cnt = (uint32_t)cnt,
				   .license = "GPL" };
	char *log = NULL;
	int fd;

	out_fix(in, cnt);
	fd = bpf_prog_load(&s, &log);
	if (fd < 0)
		printf("# load %s: %s\n# log:\n%s\n", name, err_msg(), log ? log : "(none)");
	free(log);
	note_id(fd);
	return fd;
}

static int mkmap(uint32_t type, const char *name, uint32_t k, uint32_t v, uint32_t max, uint32_t flags)
{
	struct bpf_map_spec s = { .name = name, .type = type, .key_size = k, .value_size = v,
				  .max_entries = max, .flags = flags };
	int fd = bpf_map_create(&s);

	if (fd < 0)
		printf("# map %s: %s\n", name, err_msg());
	return fd;
}

static uint64_t counter(int map)
{
	uint32_t k = 0;
	uint64_t v = 0;

	if (bpf_map_lookup(map, &k, &v) < 0)
		return (uint64_t)-1;
	return v;
}

static void do_getppid(int n)
{
	for (int i = 0; i < n; i++)
		syscall(SYS_getppid);
}

__attribute__((noinline, used)) int cb_uprobe_target(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

/* ---- ids ---- */
static int list_progs(uint32_t *ids, int max)
{
	uint32_t id = 0;
	int n = 0;

	while (n < max && bpf_prog_next_id(id, &id) == 0)
		ids[n++] = id;
	return n;
}

/* ---- ELF: file offset of a function symbol in our own binary ---- */
static int func_file_offset(const char *path, const char *name, uint64_t *off)
{
	char *buf;
	size_t len;
	int found = -1;

	if (read_file(path, 1u << 30, &buf, &len) < 0)
		return -1;
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > len)
		goto out;
	Elf64_Shdr *sh = (Elf64_Shdr *)(buf + eh->e_shoff);
	for (int i = 0; i < eh->e_shnum && found < 0; i++) {
		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		Elf64_Sym *sym = (Elf64_Sym *)(buf + sh[i].sh_offset);
		const char *str = buf + sh[sh[i].sh_link].sh_offset;
		size_t nsym = sh[i].sh_size / sizeof(*sym);
		for (size_t j = 0; j < nsym; j++) {
			if (ELF64_ST_TYPE(sym[j].st_info) != STT_FUNC || !sym[j].st_shndx ||
			    sym[j].st_shndx >= eh->e_shnum || strcmp(str + sym[j].st_name, name))
				continue;
			Elf64_Shdr *s = &sh[sym[j].st_shndx];
			*off = sym[j].st_value - s->sh_addr + s->sh_offset;
			found = 0;
			break;
		}
	}
out:
	free(buf);
	return found;
}

/* ---- BTF: raw scan of vmlinux for a type id by name and kind ---- */
static int32_t btf_scan(const char *want, int kind)
{
	static char *buf;
	static size_t len;
	struct btf_header *h;
	int32_t id = 1;

	if (!buf && read_file("/sys/kernel/btf/vmlinux", 64u << 20, &buf, &len) < 0)
		return -1;
	h = (struct btf_header *)buf;
	const uint8_t *t = (uint8_t *)buf + h->hdr_len + h->type_off, *end = t + h->type_len;
	const char *str = buf + h->hdr_len + h->str_off;
	while (t + 12 <= end) {
		const struct btf_type *bt = (const void *)t;
		int k = BTF_INFO_KIND(bt->info), vlen = BTF_INFO_VLEN(bt->info);
		size_t extra = 0;

		switch (k) {
		case BTF_KIND_INT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG: extra = 4; break;
		case BTF_KIND_ARRAY: extra = 12; break;
		case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_DATASEC: case BTF_KIND_ENUM64:
			extra = 12u * vlen; break;
		case BTF_KIND_ENUM: case BTF_KIND_FUNC_PROTO: extra = 8u * vlen; break;
		default: break;
		}
		if (k == kind && !strcmp(str + bt->name_off, want))
			return id;
		t += 12 + extra;
		id++;
	}
	return -1;
}

/* ---- consumers ---- */
struct rec_ctx {
	int n, bad;
	uint32_t pid;
};

static int check_rec(struct rec_ctx *c, const void *data, size_t size)
{
	uint64_t v[2];

	if (size < 16) {
		c->bad++;
		return 0;
	}
	memcpy(v, data, 16);
	if ((v[0] >> 32) != c->pid || v[1] != MAGIC)
		c->bad++;
	c->n++;
	return 0;
}

static int rb_cb(void *ctx, const void *data, size_t size)
{
	return check_rec(ctx, data, size);
}

static int pb_cb(void *ctx, int cpu, const void *data, size_t size)
{
	(void)cpu;
	return check_rec(ctx, data, size);
}

int main(void)
{
	uint32_t before[4096], after[4096];
	int nbefore, nafter, pid = getpid();
	uint64_t t0;

	if (geteuid() != 0) {
		T_SKIP("bpf_live", "needs root");
		return 0;
	}
	nbefore = list_progs(before, 4096);

	/* ---- cpus ---- */
	{
		bool m[16];
		T_OK(cpus_parse("0-3,8-11\n", m, 16) == 12 && m[0] && m[3] && !m[4] && m[8] && m[11] && !m[12],
		     "cpus_parse 0-3,8-11");
		T_OK(cpus_parse("0-3,8-11", m, 10) == -EINVAL, "cpus_parse rejects cpu beyond the mask");
		T_OK(cpus_parse("3-1", m, 16) == -EINVAL && cpus_parse("a", m, 16) == -EINVAL &&
		     cpus_parse("0-", m, 16) == -EINVAL && cpus_parse("99999999999", m, 16) == -EINVAL &&
		     cpus_parse("1,,2", m, 16) == -EINVAL, "cpus_parse rejects malformed lists");
		T_OK(cpus_parse("", m, 16) == 0 && cpus_parse("5", m, 16) == 6 && m[5] && !m[4], "cpus_parse single/empty");
		int np = cpus_possible();
		bool on[64];
		int non = cpus_online(on, np < 64 ? np : 64);
		T_OK(np >= 1 && non >= 1 && non <= np, "cpus possible %d online %d", np, non);
	}

	/* ---- maps ---- */
	{
		int a = mkmap(BPF_MAP_TYPE_ARRAY, "cbt_array", 4, 8, 4, 0);
		uint32_t k = 1, nk = 99;
		uint64_t v = 42, r = 0;
		T_OK(a >= 3, "array map create (fd %d)", a);
		T_OK(bpf_map_update(a, &k, &v, BPF_ANY) == 0 && bpf_map_lookup(a, &k, &r) == 0 && r == 42,
		     "array update/lookup");
		T_OK(bpf_map_next_key(a, NULL, &nk) == 0 && nk == 0, "array next_key(NULL) = 0");
		k = 3;
		T_OK(bpf_map_next_key(a, &k, &nk) == -ENOENT, "array next_key at end = -ENOENT");
		T_OK(bpf_map_delete(a, &k) == -EINVAL, "array delete = -EINVAL");
		T_OK(bpf_map_freeze(a) == 0, "freeze");
		T_OK(bpf_map_update(a, &k, &v, BPF_ANY) == -EPERM, "update after freeze = -EPERM (%s)", err_msg());
		close(a);

		int h = mkmap(BPF_MAP_TYPE_HASH, "cbt_hash-with-a-long-name", 4, 8, 128, 0);
		struct bpf_map_info mi;
		uint32_t ml = sizeof(mi);
		memset(&mi, 0, sizeof(mi));
		T_OK(h >= 3 && bpf_obj_info(h, &mi, &ml) == 0 && !strcmp(mi.name, "cbt_hash_with_a"),
		     "map name sanitised to '%s'", mi.name);
		for (k = 0; k < 100; k++) {
			v = k * 3;
			bpf_map_update(h, &k, &v, BPF_NOEXIST);
		}
		k = 7;
		T_OK(bpf_map_delete(h, &k) == 0 && bpf_map_lookup(h, &k, &r) == -ENOENT, "hash delete");
		v = 21;
		bpf_map_update(h, &k, &v, BPF_NOEXIST);
		uint32_t keys[128], cnt = 128, ok = 1;
		uint64_t vals[128], outb = 0;
		int br = bpf_map_lookup_batch(h, NULL, &outb, keys, vals, &cnt, 0);
		for (uint32_t i = 0; i < cnt; i++)
			ok &= vals[i] == keys[i] * 3ull;
		T_OK(br == -ENOENT && cnt == 100 && ok, "batch lookup: ret %d count %u values ok %u", br, cnt, ok);
		cnt = 128;
		br = bpf_map_lookup_batch(h, NULL, &outb, keys, vals, &cnt, 1);
		T_OK(br == -ENOENT && cnt == 100 && bpf_map_next_key(h, NULL, &nk) == -ENOENT,
		     "batch lookup-and-delete empties the map");
		close(h);
	}

	/* ---- tracepoint program via perf_attach_bpf ---- */
	{
		int m = mkmap(BPF_MAP_TYPE_ARRAY, "cbt_cnt", 4, 8, 1, 0);
		struct bpf_insn in[] = { PID_FILTER(pid), COUNT(m), RET0() };
		int p = load(BPF_PROG_TYPE_TRACEPOINT, "cbt_tp", in, ARRAY_SIZE(in));
		int id = perf_tp_id("syscalls", "sys_enter_getppid");
		int pfd = id > 0 ? perf_open_tracepoint(id) : -1, link = -1;
		T_OK(p >= 3 && id > 0 && pfd >= 3, "tracepoint prog load, tp id %d, perf fd %d", id, pfd);
		t0 = now_ns();
		int ar = perf_attach_bpf(pfd, p, 0, &link);
		printf("# perf_attach_bpf: %.1f us, link fd %d\n", (now_ns() - t0) / 1e3, link);
		T_OK(ar == 0, "perf_attach_bpf (%s)", ar ? err_msg() : "ok");
		do_getppid(N);
		T_OK(counter(m) == N, "tracepoint counted %llu == %d", (unsigned long long)counter(m), N);
		if (link >= 0)
			close(link);
		close(pfd);
		do_getppid(5);
		T_OK(counter(m) == N, "detached: count stays %d", N);
		close(p);
		close(m);
	}

	/* ---- bpf cookie through a perf link ---- */
	if (probe_perf_link() && probe_bpf_cookie()) {
		int m = mkmap(BPF_MAP_TYPE_ARRAY, "cbt_cookie", 4, 8, 1, 0);
		struct bpf_insn in[] = {
			CALL(BPF_FUNC_get_attach_cookie), MOV64_REG(BPF_REG_6, BPF_REG_0), PID_FILTER(pid),
			ST_MEM(BPF_W, BPF_REG_10, -4, 0), MOV64_REG(BPF_REG_2, BPF_REG_10),
			ALU64_IMM(BPF_ADD, BPF_REG_2, -4), LD_MAP_FD(BPF_REG_1, m),
			CALL(BPF_FUNC_map_lookup_elem), JOUT(BPF_JEQ, BPF_REG_0, 0),
			STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_6, 0), RET0(),
		};
		int p = load(BPF_PROG_TYPE_TRACEPOINT, "cbt_cookie", in, ARRAY_SIZE(in));
		int pfd = perf_open_tracepoint(perf_tp_id("syscalls", "sys_enter_getppid")), link = -1;
		int ar = perf_attach_bpf(pfd, p, 0xc00c1e, &link);
		do_getppid(1);
		T_OK(ar == 0 && link >= 3 && counter(m) == 0xc00c1e, "bpf cookie 0x%llx delivered",
		     (unsigned long long)counter(m));
		if (link >= 0)
			close(link);
		close(pfd);
		close(p);
		close(m);
	}

	/* ---- the PERF_EVENT_IOC_SET_BPF fallback (no perf links) ---- */
	{
		setenv("COREBOX_DISABLE", "perf_link", 1);
		int m = mkmap(BPF_MAP_TYPE_ARRAY, "cbt_cnt", 4, 8, 1, 0);
		struct bpf_insn in[] = { PID_FILTER(pid), COUNT(m), RET0() };
		int p = load(BPF_PROG_TYPE_TRACEPOINT, "cbt_tp_ioctl", in, ARRAY_SIZE(in));
		int pfd = perf_open_tracepoint(perf_tp_id("syscalls", "sys_enter_getppid")), link = 7;
		T_OK(perf_attach_bpf(pfd, p, 1, &link) == -EOPNOTSUPP, "no perf link: cookie refused (%s)", err_msg());
		int ar = perf_attach_bpf(pfd, p, 0, &link);
		do_getppid(N);
		T_OK(ar == 0 && link == -1 && counter(m) == N, "ioctl attach: link %d, counted %llu == %d", link,
		     (unsigned long long)counter(m), N);
		close(pfd);
		do_getppid(3);
		T_OK(counter(m) == N, "closing the perf fd detaches");
		close(p);
		close(m);
		unsetenv("COREBOX_DISABLE");
	}

	/* ---- fds stay >= 3 with stdin closed ---- */
	{
		int save = fcntl(0, F_DUPFD_CLOEXEC, 3);
		close(0);
		int m = mkmap(BPF_MAP_TYPE_ARRAY, "cbt_fd", 4, 4, 1, 0);
		int fl = m >= 0 ? fcntl(m, F_GETFD) : 0;
		T_OK(m >= 3 && (fl & FD_CLOEXEC), "map fd %d >= 3 and CLOEXEC with fd 0 closed", m);
		if (m >= 0)
			close(m);
		int pfd = perf_open_tracepoint(perf_tp_id("syscalls", "sys_enter_getppid"));
		fl = pfd >= 0 ? fcntl(pfd, F_GETFD) : 0;
		T_OK(pfd >= 3 && (fl & FD_CLOEXEC), "perf fd %d >= 3 and CLOEXEC with fd 0 closed", pfd);
		if (pfd >= 0)
			close(pfd);
		dup2(save, 0);
		close(save);
	}

	/* ---- raw tracepoint ---- */
	{
		int m = mkmap(BPF_MAP_TYPE_ARRAY, "cbt_cnt", 4, 8, 1, 0);
		struct bpf_insn in[] = { LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_1, 8),
					 JOUT(BPF_JNE, BPF_REG_2, SYS_getppid), PID_FILTER(pid), COUNT(m), RET0() };
		int p = load(BPF_PROG_TYPE_RAW_TRACEPOINT, "cbt_raw_tp", in, ARRAY_SIZE(in));
		int l = bpf_raw_tp_open("sys_enter", p);
		T_OK(p >= 3 && l >= 3, "raw_tp sys_enter attach (%s)", l < 0 ? err_msg() : "ok");
		do_getppid(N);
		T_OK(counter(m) == N, "raw_tp counted %llu == %d", (unsigned long long)counter(m), N);
		close(l);
		close(p);
		close(m);
	}

	/* ---- ring buffer ---- */
	{
		int m = mkmap(BPF_MAP_TYPE_RINGBUF, "cbt_rb", 0, 0, 64 << 10, 0);
		struct bpf_insn in[] = {
			PID_FILTER(pid), STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_7, -16),
			ST_MEM(BPF_DW, BPF_REG_10, -8, MAGIC), LD_MAP_FD(BPF_REG_1, m),
			MOV64_REG(BPF_REG_2, BPF_REG_10), ALU64_IMM(BPF_ADD, BPF_REG_2, -16),
			MOV64_IMM(BPF_REG_3, 16), MOV64_IMM(BPF_REG_4, 0), CALL(BPF_FUNC_ringbuf_output), RET0(),
		};
		int p = load(BPF_PROG_TYPE_TRACEPOINT, "cbt_rb", in, ARRAY_SIZE(in));
		int pfd = perf_open_tracepoint(perf_tp_id("syscalls", "sys_enter_getppid")), link = -1;
		struct rec_ctx c = { .pid = (uint32_t)pid };
		struct ringbuf *rb = ringbuf_new(m, rb_cb, &c);
		T_OK(p >= 3 && rb && perf_attach_bpf(pfd, p, 0, &link) == 0, "ringbuf setup (%s)", err_msg());
		if (rb) {
			T_OK(ringbuf_epoll_fd(rb) >= 3, "ringbuf epoll fd");
			do_getppid(N);
			t0 = now_ns();
			for (int i = 0; i < 20 && c.n < N; i++)
				if (ringbuf_poll(rb, 100) < 0)
					break;
			printf("# ringbuf: %d records consumed in %.1f us\n", c.n, (now_ns() - t0) / 1e3);
			T_OK(c.n == N && c.bad == 0, "ringbuf %d records == %d, %d bad", c.n, N, c.bad);
			T_OK(ringbuf_consume(rb) == 0, "ringbuf empty afterwards");
			/* the data area is mapped once: 24-byte records in a 64 KiB
			 * ring straddle its end at the first pass (body split 8 + 8)
			 * and start right at it at the second (body all at the
			 * start); both must come out whole */
			c.n = 0;
			for (int round = 0; round < 6; round++) {
				do_getppid(1000);
				for (int i = 0; i < 20 && c.n < 1000 * (round + 1); i++)
					if (ringbuf_poll(rb, 100) < 0)
						break;
			}
			T_OK(c.n == 6000 && c.bad == 0, "ringbuf across its end twice: %d records == 6000, %d bad",
			     c.n, c.bad);
		}
		ringbuf_free(rb);
		if (link >= 0)
			close(link);
		close(pfd);
		close(p);
		close(m);
	}

	/* ---- perf buffer ---- */
	int np = cpus_possible();
	for (int flood = 0; flood < 2; flood++) {
		int m = mkmap(BPF_MAP_TYPE_PERF_EVENT_ARRAY, "cbt_pb", 4, 4, (uint32_t)np, 0);
		struct bpf_insn in[] = {
			MOV64_REG(BPF_REG_6, BPF_REG_1), PID_FILTER(pid),
			STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_7, -16), ST_MEM(BPF_DW, BPF_REG_10, -8, MAGIC),
			MOV64_REG(BPF_REG_1, BPF_REG_6), LD_MAP_FD(BPF_REG_2, m),
			MOV32_IMM(BPF_REG_3, -1) /* BPF_F_CURRENT_CPU */, MOV64_REG(BPF_REG_4, BPF_REG_10),
			ALU64_IMM(BPF_ADD, BPF_REG_4, -16), MOV64_IMM(BPF_REG_5, 16),
			CALL(BPF_FUNC_perf_event_output), RET0(),
		};
		int p = load(BPF_PROG_TYPE_TRACEPOINT, "cbt_pb", in, ARRAY_SIZE(in));
		int pfd = perf_open_tracepoint(perf_tp_id("syscalls", "sys_enter_getppid")), link = -1;
		struct rec_ctx c = { .pid = (uint32_t)pid };
		struct perfbuf *pb = perfbuf_new(m, flood ? 1 : 8, pb_cb, NULL, &c);
		T_OK(p >= 3 && pb && perf_attach_bpf(pfd, p, 0, &link) == 0, "perfbuf setup %s (%s)",
		     flood ? "1 page" : "8 pages", err_msg());
		if (pb && !flood) {
			do_getppid(N);
			for (int i = 0; i < 20 && c.n < N; i++)
				if (perfbuf_poll(pb, 100) < 0)
					break;
			T_OK(c.n == N && c.bad == 0 && perfbuf_lost(pb) == 0, "perfbuf %d records == %d, %d bad, %llu lost",
			     c.n, N, c.bad, (unsigned long long)perfbuf_lost(pb));
		} else if (pb) {
			do_getppid(5000); /* 32-byte records, 4 KiB ring: ~128 fit */
			perfbuf_poll(pb, 100);
			do_getppid(10); /* the kernel writes the LOST record with the next one */
			for (int i = 0; i < 5 && !perfbuf_lost(pb); i++)
				perfbuf_poll(pb, 100);
			printf("# perfbuf flood: %d received, %llu lost of %d\n", c.n,
			       (unsigned long long)perfbuf_lost(pb), 5010);
			T_OK(perfbuf_lost(pb) > 0 && c.bad == 0 && c.n + perfbuf_lost(pb) <= 5010,
			     "perfbuf lost records counted (%llu)", (unsigned long long)perfbuf_lost(pb));
		}
		perfbuf_free(pb);
		if (link >= 0)
			close(link);
		close(pfd);
		close(p);
		close(m);
	}

	/* ---- uprobe / uretprobe on ourselves ---- */
	{
		char exe[512];
		uint64_t off = 0;
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = 0;
		int fo = func_file_offset(exe, "cb_uprobe_target", &off);
		T_OK(fo == 0 && off > 0, "file offset of cb_uprobe_target = 0x%llx", (unsigned long long)off);
		for (int ret = 0; ret < 2 && fo == 0; ret++) {
			int m = mkmap(BPF_MAP_TYPE_ARRAY, "cbt_cnt", 4, 8, 1, 0);
			struct bpf_insn in[] = { PID_FILTER(pid), COUNT(m), RET0() };
			int p = load(BPF_PROG_TYPE_KPROBE, "cbt_uprobe", in, ARRAY_SIZE(in));
			int pfd = perf_open_uprobe(exe, off, ret, pid), link = -1;
			int ar = pfd >= 0 ? perf_attach_bpf(pfd, p, 0, &link) : -1;
			T_OK(p >= 3 && pfd >= 3 && ar == 0, "%s attach (%s)", ret ? "uretprobe" : "uprobe", err_msg());
			volatile int acc = 0;
			for (int i = 0; i < N; i++)
				acc += cb_uprobe_target(i);
			T_OK(counter(m) == N, "%s counted %llu == %d", ret ? "uretprobe" : "uprobe",
			     (unsigned long long)counter(m), N);
			if (link >= 0)
				close(link);
			if (pfd >= 0)
				close(pfd);
			close(p);
			close(m);
		}
	}

	/* ---- uprobe_multi link ---- */
	if (probe_uprobe_multi()) {
		char exe[512];
		uint64_t off = 0, cookie = 0xabc;
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = 0;
		int m = mkmap(BPF_MAP_TYPE_ARRAY, "cbt_cnt", 4, 8, 1, 0);
		struct bpf_insn in[] = { PID_FILTER(pid), COUNT(m), RET0() };
		struct bpf_prog_spec s = { .name = "cbt_umulti", .type = BPF_PROG_TYPE_KPROBE,
					   .expected_attach_type = CB_BPF_TRACE_UPROBE_MULTI, .insns = in,
					   .insn_cnt = ARRAY_SIZE(in), .license = "GPL" };
		out_fix(in, ARRAY_SIZE(in));
		int p = bpf_prog_load(&s, NULL), l = -1;
		note_id(p);
		if (func_file_offset(exe, "cb_uprobe_target", &off) == 0 && p >= 0)
			l = bpf_link_create_uprobe_multi(p, exe, &off, NULL, &cookie, 1, 0, pid);
		volatile int acc = 0;
		for (int i = 0; i < N; i++)
			acc += cb_uprobe_target(i);
		T_OK(p >= 3 && l >= 3 && counter(m) == N, "uprobe_multi link counted %llu == %d (%s)",
		     (unsigned long long)counter(m), N, l < 0 ? err_msg() : "ok");
		if (l >= 0)
			close(l);
		if (p >= 0)
			close(p);
		close(m);
	} else {
		T_OK(0, "probe_uprobe_multi yes on this kernel");
	}

	/* ---- verifier log ---- */
	{
		struct bpf_insn in[] = { EXIT() };
		struct bpf_prog_spec s = { .name = "cbt_bad", .type = BPF_PROG_TYPE_TRACEPOINT, .insns = in,
					   .insn_cnt = 1, .license = "GPL" };
		char *log = NULL;
		int fd = bpf_prog_load(&s, &log);
		T_OK(fd < 0 && log && strstr(log, "R0 !read_ok"), "invalid prog: %d, log has 'R0 !read_ok'", fd);
		T_OK(strstr(err_msg(), "R0 !read_ok") != NULL, "error message: %s", err_msg());
		free(log);
		/* a log larger than the first 64 KiB buffer: grown on ENOSPC */
		{
			int cnt = 12000;
			struct bpf_insn *big = calloc((size_t)cnt, sizeof(*big));
			for (int i = 0; i < cnt - 1; i++)
				big[i] = MOV64_IMM(BPF_REG_1, i);
			big[cnt - 1] = EXIT();
			struct bpf_prog_spec bs = s;
			bs.insns = big;
			bs.insn_cnt = (uint32_t)cnt;
			t0 = now_ns();
			fd = bpf_prog_load(&bs, &log);
			printf("# big invalid prog: %d, log %zu B in %.1f ms\n", fd, log ? strlen(log) : 0,
			       (now_ns() - t0) / 1e6);
			T_OK(fd == -EACCES && log && strlen(log) > (64 << 10) && strstr(log, "R0 !read_ok"),
			     "verifier log grown past 64 KiB (%zu B)", log ? strlen(log) : 0);
			free(log);
			free(big);
		}
		fd = bpf_prog_load(&s, NULL);
		T_OK(fd == -EACCES, "invalid prog without log buffer: %d", fd);
		/* log_level on success returns the log too */
		struct bpf_insn ok[] = { RET0() };
		s.insns = ok;
		s.insn_cnt = 2;
		s.log_level = 1;
		s.name = "cbt_bad-name-too-long";
		fd = bpf_prog_load(&s, &log);
		struct bpf_prog_info pi;
		uint32_t pl = sizeof(pi);
		memset(&pi, 0, sizeof(pi));
		note_id(fd);
		T_OK(fd >= 3 && log && bpf_obj_info(fd, &pi, &pl) == 0 && !strcmp(pi.name, "cbt_bad_name_to"),
		     "log_level 1 success returns log (%zu B), name '%s'", log ? strlen(log) : 0, pi.name);
		free(log);
		if (fd >= 0)
			close(fd);
	}

	/* ---- probes ---- */
	{
		int32_t tp = btf_scan("btf_trace_sched_switch", BTF_KIND_TYPEDEF);
		int32_t fn = btf_scan("vfs_read", BTF_KIND_FUNC);
		T_OK(tp > 0 && fn > 0, "BTF ids: btf_trace_sched_switch %d, vfs_read %d", tp, fn);
		t0 = now_ns();
		bool rb = probe_ringbuf(), tb = probe_tp_btf((uint32_t)tp), fe = probe_fentry((uint32_t)fn);
		bool kp = probe_kprobe_pmu(), kl = probe_kprobe_legacy(), pl = probe_perf_link();
		bool ck = probe_bpf_cookie(), nm = probe_prog_name(), mm = probe_mmapable_array();
		bool bf = probe_btf_func(), bg = probe_btf_global_func(), bd = probe_btf_datasec();
		bool bfl = probe_btf_float(), bdt = probe_btf_decl_tag(), btt = probe_btf_type_tag();
		bool be = probe_btf_enum64();
		printf("# probes (%.2f ms): ringbuf=%d tp_btf=%d fentry=%d kprobe_pmu=%d kprobe_legacy=%d "
		       "perf_link=%d cookie=%d prog_name=%d mmap=%d btf_func=%d global=%d datasec=%d "
		       "float=%d decl_tag=%d type_tag=%d enum64=%d\n",
		       (now_ns() - t0) / 1e6, rb, tb, fe, kp, kl, pl, ck, nm, mm, bf, bg, bd, bfl, bdt, btt, be);
		T_OK(rb, "probe_ringbuf yes");
		T_OK(tb, "probe_tp_btf(sched_switch) yes");
		T_OK(!fe, "probe_fentry(vfs_read) no (EPERM here)");
		T_OK(!kp && !kl, "no kprobe PMU, no kprobe_events");
		T_OK(pl && ck && nm && mm, "perf_link, bpf_cookie, prog_name, mmapable array yes");
		T_OK(bf && bg && bd && bfl && bdt && btt && be, "BTF func/global/datasec/float/decl_tag/type_tag/enum64 yes");
		t0 = now_ns();
		probe_ringbuf();
		probe_tp_btf((uint32_t)tp);
		T_OK(now_ns() - t0 < 100000, "probes cached (%.1f us)", (now_ns() - t0) / 1e3);
		setenv("COREBOX_DISABLE", "tp_btf,ringbuf", 1);
		T_OK(!probe_ringbuf() && !probe_tp_btf((uint32_t)tp) && probe_perf_link(),
		     "COREBOX_DISABLE=tp_btf,ringbuf");
		setenv("COREBOX_DISABLE", "ringbufx,xringbuf", 1);
		T_OK(probe_ringbuf(), "COREBOX_DISABLE needs exact names");
		unsetenv("COREBOX_DISABLE");

		int r = perf_open_kprobe_pmu("vfs_read", 0, false);
		T_OK(r == -ENOENT && strstr(err_msg(), "no kprobe support"), "kprobe PMU: %d %s", r, err_msg());
		char ev[64];
		r = perf_open_kprobe_legacy("vfs_read", 0, false, ev, sizeof(ev));
		T_OK(r == -ENOENT, "legacy kprobe: %d %s", r, err_msg());
		perf_kprobe_legacy_gc();
		T_OK(tracefs_root() != NULL, "tracefs at %s", tracefs_root());
		T_OK(perf_tp_id("nosuchcat", "nosuch") == -ENOENT && perf_tp_exists("sched", "sched_switch") &&
		     !perf_tp_exists("sched", "nosuch"), "tracepoint existence");
		int sw = perf_open_sw_sampling(PERF_COUNT_SW_CPU_CLOCK, true, 99, -1, 0);
		T_OK(sw >= 3, "software cpu-clock sampling fd");
		if (sw >= 0)
			close(sw);
	}

	/* ---- nothing left behind ---- */
	{
		int leaked = 0, foreign = 0;
		for (int tries = 0; tries < 20; tries++) {
			leaked = foreign = 0;
			nafter = list_progs(after, 4096);
			for (int i = 0; i < nafter; i++) {
				int known = 0;
				for (int j = 0; j < nbefore && !known; j++)
					known = before[j] == after[i];
				if (known)
					continue;
				int ours = 0;
				for (int j = 0; j < n_our; j++)
					ours |= our_ids[j] == after[i];
				int fd = bpf_prog_fd_by_id(after[i]);
				if (fd >= 0) {
					struct bpf_prog_info pi;
					uint32_t pl = sizeof(pi);
					memset(&pi, 0, sizeof(pi));
					if (bpf_obj_info(fd, &pi, &pl) == 0 &&
					    (!strncmp(pi.name, "cbt_", 4) || !strncmp(pi.name, "cb_", 3)))
						ours = 1;
					close(fd);
				} else {
					continue; /* gone meanwhile */
				}
				if (ours)
					leaked++;
				else
					foreign++;
			}
			if (!leaked)
				break;
			usleep(50000);
		}
		T_OK(leaked == 0, "no BPF programs left behind (%d ours recorded, %d leaked, %d foreign new)",
		     n_our, leaked, foreign);
	}
	T_EXIT();
}
