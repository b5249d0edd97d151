/* Kernel feature probes: tiny map creates, program and BTF loads done
 * straight through sys_bpf(), so a failed probe never touches err_msg()
 * (a probe answering "no" is not an error). */
#include "probe.h"
#include "perf.h"
#include "sys.h"
#include "tracefs.h"

#include <errno.h>
#include <linux/btf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"

#define OFFEND(f) ((unsigned)(offsetof(union bpf_attr, f) + sizeof(((union bpf_attr *)0)->f)))
#define U64(p) ((uint64_t)(uintptr_t)(p))

enum { UNKNOWN, YES, NO };

bool probe_disabled(const char *feat)
{
	const char *s = getenv("COREBOX_DISABLE");
	size_t n = strlen(feat);

	while (s && *s) {
		size_t len = strcspn(s, ",");

		if (len == n && !strncmp(s, feat, n))
			return true;
		s += len;
		if (*s == ',')
			s++;
	}
	return false;
}

/* Run fn once; the COREBOX_DISABLE check comes first on every call. */
#define CACHED(feat, fn)                                        \
	do {                                                    \
		static int state;                               \
		if ((feat) && probe_disabled(feat))             \
			return false;                           \
		if (state == UNKNOWN)                           \
			state = (fn) ? YES : NO;                \
		return state == YES;                            \
	} while (0)

static void close_fd(int fd)
{
	if (fd >= 0)
		close(fd);
}

static int map_create(uint32_t type, uint32_t key, uint32_t value, uint32_t max, uint32_t flags)
{
	union cb_bpf_attr u;
	int fd;

	memset(&u, 0, sizeof(u));
	u.a.map_type = type;
	u.a.key_size = key;
	u.a.value_size = value;
	u.a.max_entries = max;
	u.a.map_flags = flags;
	fd = sys_bpf(BPF_MAP_CREATE, &u.a, OFFEND(map_flags));
	return fd < 0 ? fd : fd_good(fd);
}

static const struct bpf_insn ret0[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

static int prog_load_obj(uint32_t type, uint32_t eat, uint32_t btf_id, int btf_obj_fd, const char *name,
			 const struct bpf_insn *insns, uint32_t cnt)
{
	union cb_bpf_attr u;
	unsigned size;
	int fd = -EAGAIN, i;

	memset(&u, 0, sizeof(u));
	u.a.prog_type = type;
	u.a.insns = U64(insns);
	u.a.insn_cnt = cnt;
	u.a.license = U64("GPL");
	u.a.expected_attach_type = eat;
	u.a.attach_btf_id = btf_id;
	if (name)
		strncpy(u.a.prog_name, name, sizeof(u.a.prog_name) - 1);
	size = btf_id ? OFFEND(attach_btf_id) : OFFEND(expected_attach_type);
	if (btf_obj_fd > 0) { /* a module's function (5.11+) */
		u.a.attach_btf_obj_fd = (uint32_t)btf_obj_fd;
		size = OFFEND(attach_btf_obj_fd);
	}
	for (i = 0; i < 5 && fd == -EAGAIN; i++)
		fd = sys_bpf(BPF_PROG_LOAD, &u.a, size);
	return fd < 0 ? fd : fd_good(fd);
}

static int prog_load(uint32_t type, uint32_t eat, uint32_t btf_id, const char *name,
		     const struct bpf_insn *insns, uint32_t cnt)
{
	return prog_load_obj(type, eat, btf_id, 0, name, insns, cnt);
}

static int link_create(int prog, int target, uint32_t type)
{
	union cb_bpf_attr u;
	int fd;

	memset(&u, 0, sizeof(u));
	u.a.link_create.prog_fd = (uint32_t)prog;
	u.a.link_create.target_fd = (uint32_t)target;
	u.a.link_create.attach_type = type;
	fd = sys_bpf(BPF_LINK_CREATE, &u.a, OFFEND(link_create.flags));
	return fd < 0 ? fd : fd_good(fd);
}

static int raw_tp_open(int prog)
{
	union cb_bpf_attr u;
	int fd;

	memset(&u, 0, sizeof(u));
	u.a.raw_tracepoint.prog_fd = (uint32_t)prog;
	fd = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &u.a, OFFEND(raw_tracepoint.prog_fd));
	return fd < 0 ? fd : fd_good(fd);
}

static bool do_ringbuf(void)
{
	int fd = map_create(BPF_MAP_TYPE_RINGBUF, 0, 0, (uint32_t)sysconf(_SC_PAGESIZE), 0);

	close_fd(fd);
	return fd >= 0;
}

static int ringbuf_state; /* probe_ringbuf's answer, for do_mmapable */

bool probe_ringbuf(void)
{
	if (probe_disabled("ringbuf"))
		return false;
	if (ringbuf_state == UNKNOWN)
		ringbuf_state = do_ringbuf() ? YES : NO;
	return ringbuf_state == YES;
}

static bool do_mmapable(void)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd;
	void *p;

	/* ring buffers (5.8) came after mmapable arrays (5.5): an event tool
	 * has asked about them already, and then this costs no syscall */
	if (ringbuf_state == YES)
		return true;
	fd = map_create(BPF_MAP_TYPE_ARRAY, 4, 8, 1, BPF_F_MMAPABLE);
	if (fd < 0)
		return false;
	p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return false;
	munmap(p, (size_t)page);
	return true;
}

bool probe_mmapable_array(void)
{
	CACHED("mmap", do_mmapable());
}

/* libbpf's method: with perf links, LINK_CREATE checks the perf fd first
 * and says EBADF for fd -1; without them the attach type is unknown and
 * the answer is EINVAL. */
static bool do_perf_link(void)
{
	int prog = prog_load(BPF_PROG_TYPE_TRACEPOINT, 0, 0, NULL, ret0, 2);
	int link;

	if (prog < 0)
		return false;
	link = link_create(prog, -1, BPF_PERF_EVENT);
	close_fd(link);
	close(prog);
	return link == -EBADF;
}

bool probe_perf_link(void)
{
	CACHED("perf_link", do_perf_link());
}

static bool do_cookie(void)
{
	static const struct bpf_insn insns[] = {
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_get_attach_cookie },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int prog = prog_load(BPF_PROG_TYPE_TRACEPOINT, 0, 0, NULL, insns, 3);

	close_fd(prog);
	return prog >= 0;
}

bool probe_bpf_cookie(void)
{
	CACHED("bpf_cookie", do_cookie());
}

static bool do_prog_name(void)
{
	int prog = prog_load(BPF_PROG_TYPE_TRACEPOINT, 0, 0, "cb_name_test", ret0, 2);

	close_fd(prog);
	return prog >= 0;
}

bool probe_prog_name(void)
{
	CACHED(NULL, do_prog_name());
}

/* Bounded loops (5.3): a backward jump the verifier follows to its end. */
bool probe_bounded_loop(void)
{
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_0, .imm = 1 },
		{ .code = BPF_JMP | BPF_JLT | BPF_K, .dst_reg = BPF_REG_0, .off = -2, .imm = 4 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int prog = prog_load(BPF_PROG_TYPE_TRACEPOINT, 0, 0, NULL, insns, 4);

	close_fd(prog);
	return prog >= 0;
}

/* A helper the kernel knows for tracepoint programs: called as
 * helper(fp - 8, 8, 0), which every probe_read flavour and the
 * argument-less helpers accept (bpftrace --info's list). */
bool probe_helper(int func)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_1, .src_reg = BPF_REG_10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = BPF_REG_1, .imm = -8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_2, .imm = 8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_3, .imm = 0 },
		{ .code = BPF_JMP | BPF_CALL, .imm = func },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int prog = prog_load(BPF_PROG_TYPE_TRACEPOINT, 0, 0, NULL, insns, sizeof(insns) / sizeof(insns[0]));

	close_fd(prog);
	return prog >= 0;
}

/* A raw tracepoint program that tail-calls through a program array
 * (4.17+): what the syscall dispatcher of the dynamic-tracing tools
 * needs. */
static bool do_raw_tp(void)
{
	int map = map_create(BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 1, 0), fd = -1;

	if (map >= 0) {
		const struct bpf_insn insns[] = {
			{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_2, .src_reg = BPF_PSEUDO_MAP_FD, .imm = map },
			{ 0 },
			{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_3, .imm = 0 },
			{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_tail_call },
			{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
			{ .code = BPF_JMP | BPF_EXIT },
		};

		fd = prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 0, NULL, insns, ARRAY_SIZE(insns));
	}
	close_fd(fd);
	close_fd(map);
	return fd >= 0;
}

bool probe_raw_tp(void)
{
	CACHED("raw_tp", do_raw_tp());
}

bool probe_kprobe_pmu(void)
{
	CACHED("kprobe_pmu", access("/sys/bus/event_source/devices/kprobe/type", F_OK) == 0);
}

static bool do_kprobe_legacy(void)
{
	char path[256];

	return tracefs_path(path, sizeof(path), "kprobe_events") && access(path, W_OK) == 0;
}

bool probe_kprobe_legacy(void)
{
	CACHED("kprobe", do_kprobe_legacy());
}

static bool do_kprobe_func_ip(void)
{
	static const struct bpf_insn insns[] = {
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_get_func_ip },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int prog = prog_load(BPF_PROG_TYPE_KPROBE, 0, 0, NULL, insns, 2);

	close_fd(prog);
	return prog >= 0;
}

bool probe_kprobe_func_ip(void)
{
	CACHED(NULL, do_kprobe_func_ip());
}

/* libbpf's method: a uprobe_multi link on "/" (not a regular file)
 * fails with EBADF when the link type exists. */
static bool do_uprobe_multi(void)
{
	union cb_bpf_attr u;
	struct cb_link_uprobe_multi *um = (struct cb_link_uprobe_multi *)u.raw;
	uint64_t off = 0;
	int prog = prog_load(BPF_PROG_TYPE_KPROBE, CB_BPF_TRACE_UPROBE_MULTI, 0, NULL, ret0, 2);
	int link;

	if (prog < 0)
		return false;
	memset(&u, 0, sizeof(u));
	um->prog_fd = (uint32_t)prog;
	um->attach_type = CB_BPF_TRACE_UPROBE_MULTI;
	um->path = U64("/");
	um->offsets = U64(&off);
	um->cnt = 1;
	link = sys_bpf(BPF_LINK_CREATE, u.raw, sizeof(*um));
	close_fd(link);
	close(prog);
	return link == -EBADF;
}

bool probe_uprobe_multi(void)
{
	CACHED("uprobe_multi", do_uprobe_multi());
}

/* Load a 2-insn TRACING program at btf_id (of the kernel BTF object
 * btf_obj_fd when > 0: a module) and attach it (tp_btf, fentry). */
static bool tracing_ok(uint32_t eat, uint32_t btf_id, int btf_obj_fd)
{
	int prog, link;

	if (!btf_id)
		return false;
	prog = prog_load_obj(BPF_PROG_TYPE_TRACING, eat, btf_id, btf_obj_fd, NULL, ret0, 2);
	if (prog < 0)
		return false; /* EPERM (no trampolines here), 524 on some arm64, ... */
	link = raw_tp_open(prog);
	if (link < 0)
		link = link_create(prog, 0, eat);
	close_fd(link);
	close(prog);
	return link >= 0;
}

/* Per-id cache (a handful of targets per run). */
struct idcache {
	uint32_t id[16];
	uint8_t ok[16];
	unsigned n;
};

static bool cached_id(struct idcache *c, uint32_t eat, uint32_t id)
{
	unsigned i;
	bool ok;

	for (i = 0; i < c->n; i++)
		if (c->id[i] == id)
			return c->ok[i];
	ok = tracing_ok(eat, id, 0);
	if (c->n < ARRAY_SIZE(c->id)) {
		c->id[c->n] = id;
		c->ok[c->n++] = ok;
	}
	return ok;
}

bool probe_tp_btf(uint32_t id)
{
	static struct idcache c;

	if (probe_disabled("tp_btf"))
		return false;
	return cached_id(&c, BPF_TRACE_RAW_TP, id);
}

bool probe_fentry(uint32_t id)
{
	static struct idcache c;

	if (probe_disabled("fentry"))
		return false;
	return cached_id(&c, BPF_TRACE_FENTRY, id);
}

bool probe_fentry_module(uint32_t id, int btf_obj_fd)
{
	if (probe_disabled("fentry"))
		return false;
	return tracing_ok(BPF_TRACE_FENTRY, id, btf_obj_fd);
}

/* ---- BTF kinds: tiny hand-built blobs ---- */

#define KIND(k, vlen) (((uint32_t)(k) << 24) | (vlen))
#define T_INT(name) (name), KIND(BTF_KIND_INT, 0), 4, 0x01000020u /* signed, 32 bits */

static bool btf_ok(const uint32_t *types, size_t tlen, const char *strs, size_t slen)
{
	struct btf_header h;
	union cb_bpf_attr u;
	uint8_t *buf;
	size_t size = sizeof(h) + tlen + slen;
	int fd;

	memset(&h, 0, sizeof(h));
	h.magic = BTF_MAGIC;
	h.version = BTF_VERSION;
	h.hdr_len = sizeof(h);
	h.type_off = 0;
	h.type_len = (uint32_t)tlen;
	h.str_off = (uint32_t)tlen;
	h.str_len = (uint32_t)slen;
	buf = xmalloc(size);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), types, tlen);
	memcpy(buf + sizeof(h) + tlen, strs, slen);
	memset(&u, 0, sizeof(u));
	u.a.btf = U64(buf);
	u.a.btf_size = (uint32_t)size;
	fd = sys_bpf(BPF_BTF_LOAD, &u.a, OFFEND(btf_log_level));
	free(buf);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

#define BTF_OK(t, s) btf_ok(t, sizeof(t), s, sizeof(s))

/* strings: 0 "", 1 "int", 5 "x", 7 "a", 9 ".data", 15 "tag", 19 "float", 25 "e" */
static const char strs[] = "\0int\0x\0a\0.data\0tag\0float\0e";

static bool do_btf_func(int linkage)
{
	const uint32_t t[] = {
		T_INT(1),                                /* [1] int */
		0, KIND(BTF_KIND_FUNC_PROTO, 1), 1, 7, 1, /* [2] int (int a) */
		5, KIND(BTF_KIND_FUNC, (uint32_t)linkage), 2, /* [3] x */
	};

	return BTF_OK(t, strs);
}

static bool do_btf(void)
{
	const uint32_t t[] = {
		T_INT(1), /* [1] int */
	};

	return BTF_OK(t, strs);
}

/* COREBOX_DISABLE=btf switches every BTF kind off: no program BTF at all. */
#define BTF_CACHED(feat, fn)                                    \
	do {                                                    \
		if (probe_disabled("btf"))                      \
			return false;                           \
		CACHED(feat, fn);                               \
	} while (0)

bool probe_btf(void)
{
	BTF_CACHED("btf", do_btf());
}

bool probe_btf_func(void)
{
	BTF_CACHED("btf_func", do_btf_func(0));
}

bool probe_btf_global_func(void)
{
	if (probe_disabled("btf_func"))
		return false;
	BTF_CACHED("btf_global_func", do_btf_func(1 /* BTF_FUNC_GLOBAL */));
}

static bool do_datasec(void)
{
	const uint32_t t[] = {
		T_INT(1),                             /* [1] int */
		5, KIND(BTF_KIND_VAR, 0), 1, 1,       /* [2] x: global allocated */
		9, KIND(BTF_KIND_DATASEC, 1), 4, 2, 0, 4, /* [3] .data {x @0, 4} */
	};

	return BTF_OK(t, strs);
}

bool probe_btf_datasec(void)
{
	BTF_CACHED("btf_datasec", do_datasec());
}

static bool do_float(void)
{
	const uint32_t t[] = {
		19, KIND(BTF_KIND_FLOAT, 0), 4, /* [1] float */
	};

	return BTF_OK(t, strs);
}

bool probe_btf_float(void)
{
	BTF_CACHED("btf_float", do_float());
}

static bool do_decl_tag(void)
{
	const uint32_t t[] = {
		T_INT(1),                                 /* [1] int */
		5, KIND(BTF_KIND_VAR, 0), 1, 1,           /* [2] x */
		15, KIND(BTF_KIND_DECL_TAG, 0), 2, (uint32_t)-1, /* [3] tag on x */
	};

	return BTF_OK(t, strs);
}

bool probe_btf_decl_tag(void)
{
	BTF_CACHED("btf_decl_tag", do_decl_tag());
}

static bool do_type_tag(void)
{
	const uint32_t t[] = {
		T_INT(1),                           /* [1] int */
		15, KIND(BTF_KIND_TYPE_TAG, 0), 1,  /* [2] tag int */
		0, KIND(BTF_KIND_PTR, 0), 2,        /* [3] ptr -> [2] */
	};

	return BTF_OK(t, strs);
}

bool probe_btf_type_tag(void)
{
	BTF_CACHED("btf_type_tag", do_type_tag());
}

static bool do_enum64(void)
{
	const uint32_t t[] = {
		5, KIND(BTF_KIND_ENUM64, 1), 8, 25, 0, 1, /* [1] enum x : 8 { e = 1 << 32 } */
	};

	return BTF_OK(t, strs);
}

bool probe_btf_enum64(void)
{
	BTF_CACHED("btf_enum64", do_enum64());
}
