/* Loader and kernel BTF on the live kernel (issue 3):
 *
 * 1. Program BTF sanitized for older kernels: btf_sanitized() leaves no
 *    kind the kernel lacks (FLOAT, DECL_TAG, TYPE_TAG, ENUM64 on a crafted
 *    blob, FUNC, DATASEC...) and keeps every id; then tests/loader/
 *    features.bpf.o and btfkinds.bpf.o load and run with each BTF probe
 *    forced off (COREBOX_DISABLE=btf_float,...), the kernel taking the
 *    sanitized BTF; with no BTF at all (btf, or btf_func: no func_info) the
 *    bpf_loop program fails with a clear error and the rest loads.
 * 2. Poisoned CO-RE relocations: a guarded read of a missing field loads;
 *    a reachable one fails naming the program, the relocation and the
 *    instruction, also from a subprogram appended to the program.
 * 3. Module BTF: with COREBOX_SYSFS_BTF pointing at a directory holding
 *    the kernel's vmlinux BTF and a crafted split BTF "module", a type that
 *    exists only in the module relocates against it.
 * 4. Kernel BTF files: a raw copy of the kernel's BTF works through
 *    opts.btf_path; a truncated file gives a one-line error naming it; a
 *    kernel without BTF (COREBOX_SYSFS_BTF=/nonexistent) and no --btf says
 *    what to pass, and with --btf tp_btf falls back to raw_tp.
 * 5. Anonymous kernel enums: tests/loader/anonenum.bpf.o reads
 *    bpf_core_enum_value() of INET_FLAGS_* (an enum without a name since
 *    6.6) and gets the values a plain walk of the kernel's BTF finds. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "loader/obj_int.h"
#include "t.h"

#define LDIR "../../build/test/loader"
#define N 7

struct blob {
	char *data;
	size_t size;
};

static struct blob features, kinds, poison, anonenum;
static char tmpdir[] = "/tmp/cbx-loader-btf.XXXXXX";

static uint32_t prog_btf_id(struct prog *p)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (!p || prog_fd(p) < 0 || bpf_obj_info(prog_fd(p), &info, &len))
		return 0;
	return info.btf_id;
}

static uint32_t map_btf_id(struct map *m)
{
	struct bpf_map_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (!m || map_fd(m) < 0 || bpf_obj_info(map_fd(m), &info, &len))
		return 0;
	return info.btf_id;
}

/* The BTF the kernel took: the program's, or (no FUNC support: no
 * func_info, so programs load without BTF, as with libbpf) a map's. */
static uint32_t used_btf_id(struct prog *p, struct map *m, const char *disable)
{
	return strcmp(disable, "btf_func") ? prog_btf_id(p) : map_btf_id(m);
}

static uint64_t result(struct obj *o, uint32_t k)
{
	uint64_t v = 0;

	bpf_map_lookup(map_fd(obj_map(o, "results")), &k, &v);
	return v;
}

static void set_tgid(struct obj *o)
{
	OBJ_SET(o, targ_tgid, (uint32_t)getpid());
}

static void getppids(void)
{
	for (int i = 0; i < N; i++)
		syscall(SYS_getppid);
}

/* ---- 1. sanitization ------------------------------------------------------ */

static const int forbidden[] = {
	BTF_KIND_FUNC, BTF_KIND_FUNC_PROTO, BTF_KIND_VAR, BTF_KIND_DATASEC, BTF_KIND_FLOAT,
	BTF_KIND_DECL_TAG, BTF_KIND_TYPE_TAG, BTF_KIND_ENUM64,
};

static int count_kinds(const struct btf *btf, int kind)
{
	int n = 0;

	for (uint32_t id = 1; id < btf_nr_types(btf); id++)
		n += btf_kind(btf_type_by_id(btf, id)) == kind;
	return n;
}

static void sanitize_blob(void)
{
	struct obj *o = obj_open("btfkinds", kinds.data, kinds.size);
	const struct btf *btf = o ? obj_btf(o) : NULL;
	unsigned all = 127;
	struct btf *s;
	size_t size;
	void *out;
	int bad = 0;

	if (!btf) {
		T_OK(0, "btfkinds.bpf.o opens: %s", err_msg());
		obj_close(o);
		return;
	}
	T_OK(count_kinds(btf, BTF_KIND_FLOAT) && count_kinds(btf, BTF_KIND_DECL_TAG) &&
	     count_kinds(btf, BTF_KIND_TYPE_TAG) && count_kinds(btf, BTF_KIND_FUNC) &&
	     count_kinds(btf, BTF_KIND_DATASEC),
	     "btfkinds.bpf.o has FLOAT, DECL_TAG, TYPE_TAG, FUNC and DATASEC");
	out = btf_sanitized(btf, all, &size);
	s = btf_new(out, size, 0, NULL);
	for (size_t k = 0; s && k < ARRAY_SIZE(forbidden); k++)
		bad += count_kinds(s, forbidden[k]);
	for (uint32_t id = 1; s && id < btf_nr_types(s); id++) {
		const struct btf_type *t = btf_type_by_id(s, id);

		bad += strchr(btf_name(s, t), '.') != NULL && btf_kind(t) == BTF_KIND_STRUCT;
	}
	T_OK(s && btf_nr_types(s) == btf_nr_types(btf) && bad == 0,
	     "everything missing: no FUNC/VAR/DATASEC/FLOAT/tags left, same %u ids, sections renamed (%d bad)",
	     s ? btf_nr_types(s) : 0, bad);
	btf_free(s);
	free(out);

	/* one kind missing at a time: the kernel (which knows them all)
	 * must still accept the rewritten blob */
	for (unsigned bit = 1; bit < 128; bit <<= 1) {
		char *log = NULL;
		int fd;

		out = btf_sanitized(btf, bit, &size);
		fd = bpf_btf_load(out, size, &log);
		if (bit == BTF_MISSING_FUNC)
			/* FUNC_PROTO -> ENUM of the parameters, as libbpf does for
			 * pre-5.0 kernels; a modern kernel refuses unnamed
			 * enumerators, so only report */
			printf("# FUNC missing: sanitized BTF %s by this kernel\n", fd >= 0 ? "accepted" : "refused");
		else
			T_OK(fd >= 0, "kind bit %#x missing: the kernel takes the sanitized BTF (%s)", bit,
			     fd >= 0 ? "ok" : log ? log : err_msg());
		if (fd >= 0)
			close(fd);
		free(log);
		free(out);
	}
	obj_close(o);

	/* ENUM64 and a signed ENUM (clang 14 emits neither): crafted */
	{
		struct {
			struct btf_header h;
			uint32_t t[3 + 6 + 3 + 2];
			char s[16];
		} b;
		struct btf *in;

		memset(&b, 0, sizeof(b));
		b.h.magic = BTF_MAGIC;
		b.h.version = BTF_VERSION;
		b.h.hdr_len = sizeof(b.h);
		b.h.type_len = sizeof(b.t);
		b.h.str_off = sizeof(b.t);
		b.h.str_len = sizeof(b.s);
		memcpy(b.s, "\0e64\0A\0B\0es\0C", 14);
		/* [1] enum64 e64 : 8 { A = 1 << 32, B = 2 } */
		b.t[0] = 1;
		b.t[1] = (uint32_t)BTF_KIND_ENUM64 << 24 | 2;
		b.t[2] = 8;
		b.t[3] = 5; b.t[4] = 0; b.t[5] = 1;
		b.t[6] = 7; b.t[7] = 2; b.t[8] = 0;
		/* [2] enum es (signed) : 4 { C = -1 } */
		b.t[9] = 9;
		b.t[10] = 1u << 31 | (uint32_t)BTF_KIND_ENUM << 24 | 1;
		b.t[11] = 4;
		b.t[12] = 12;
		b.t[13] = (uint32_t)-1;
		in = btf_new(&b, sizeof(b), 1, NULL);
		out = in ? btf_sanitized(in, BTF_MISSING_ENUM64, &size) : NULL;
		s = out ? btf_new(out, size, 0, NULL) : NULL;
		if (s) {
			const struct btf_type *u = btf_type_by_id(s, 1), *e = btf_type_by_id(s, 2);
			const struct btf_type *ph = btf_type_by_id(s, 3);
			char *log = NULL;
			int fd = bpf_btf_load(out, size, &log);

			T_OK(btf_kind(u) == BTF_KIND_UNION && btf_vlen(u) == 2 && u->size == 8 &&
			     btf_members(u)[0].type == 3 && !strcmp(btf_name(s, u), "e64") && !btf_kflag(e) &&
			     ph && btf_kind(ph) == BTF_KIND_INT && !strcmp(btf_name(s, ph), "enum64_placeholder"),
			     "ENUM64 -> union of enum64_placeholder ints, signed ENUM flag cleared");
			T_OK(fd >= 0, "the kernel takes the ENUM64-free BTF (%s)", fd >= 0 ? "ok" : log ? log : err_msg());
			if (fd >= 0)
				close(fd);
			free(log);
		} else {
			T_OK(0, "crafted ENUM64 BTF sanitizes: %s", err_msg());
		}
		btf_free(s);
		free(out);
		btf_free(in);
	}
}

/* features.bpf.o and btfkinds.bpf.o with COREBOX_DISABLE=disable. */
static void load_with(const char *disable)
{
	struct obj_opts opts = { .verbose = getenv("V") != NULL };
	bool no_func_info = !strcmp(disable, "btf") || !strcmp(disable, "btf_func");
	struct obj *o;
	int err;

	setenv("COREBOX_DISABLE", disable, 1);
	o = obj_open("features", features.data, features.size);
	if (!o) {
		T_OK(0, "features.bpf.o opens: %s", err_msg());
		return;
	}
	prog_set_autoload(obj_prog(o, "on_fentry"), false);
	set_tgid(o);
	err = obj_load(o, &opts);
	if (no_func_info) {
		T_OK(err < 0 && strstr(err_msg(), "program on_tp") && strstr(err_msg(), "callback") &&
		     strstr(err_msg(), "bpf_loop"),
		     "[%s] the bpf_loop program is refused with a clear error: %s", disable, err_msg());
		obj_close(o);
		o = obj_open("features", features.data, features.size);
		prog_set_autoload(obj_prog(o, "on_fentry"), false);
		prog_set_autoload(obj_prog(o, "on_tp"), false);
		set_tgid(o);
		err = obj_load(o, &opts);
	}
	if (!err)
		err = obj_attach(o);
	T_OK(err == 0, "[%s] features.bpf.o loads and attaches%s (%s)", disable,
	     no_func_info ? " without its bpf_loop program" : "", err ? err_msg() : "ok");
	if (!err) {
		uint32_t bid = used_btf_id(obj_prog(o, "on_raw"), obj_map(o, "results"), disable);

		getppids();
		if (no_func_info)
			T_OK(result(o, 5) == N && result(o, 6) == 3 && result(o, 7) == N,
			     "[%s] raw_tp and tp_btf programs ran (%llu, %llu)", disable,
			     (unsigned long long)result(o, 5), (unsigned long long)result(o, 7));
		else
			T_OK(result(o, 0) == N && result(o, 3) == 45 && result(o, 2) == 2 && result(o, 7) == N,
			     "[%s] programs ran: bpf_loop callback, global subprogram, tp_btf (%llu, %llu, %llu)", disable,
			     (unsigned long long)result(o, 3), (unsigned long long)result(o, 2),
			     (unsigned long long)result(o, 7));
		if (!strcmp(disable, "btf"))
			T_OK(bid == 0, "[btf] programs loaded without BTF");
		else
			T_OK(bid != 0, "[%s] the kernel took the sanitized program BTF (btf id %u)", disable, bid);
	}
	obj_close(o);

	o = obj_open("btfkinds", kinds.data, kinds.size);
	if (!o) {
		T_OK(0, "btfkinds.bpf.o opens: %s", err_msg());
		return;
	}
	set_tgid(o);
	err = obj_load(o, &opts);
	if (!err)
		err = obj_attach(o);
	T_OK(err == 0, "[%s] btfkinds.bpf.o loads (%s)", disable, err ? err_msg() : "ok");
	if (!err) {
		uint64_t *runs = obj_global(o, "runs", sizeof(uint64_t));
		uint32_t bid = used_btf_id(obj_prog(o, "kinds"), obj_map(o, "tagged_map"), disable);

		getppids();
		T_OK(runs && *runs == N, "[%s] btfkinds program ran %llu times", disable,
		     runs ? (unsigned long long)*runs : 0ULL);
		T_OK(!strcmp(disable, "btf") ? bid == 0 : bid != 0, "[%s] program BTF %s (btf id %u)", disable,
		     !strcmp(disable, "btf") ? "not used" : "taken by the kernel", bid);
	}
	obj_close(o);
	unsetenv("COREBOX_DISABLE");
}

/* ---- 2. poisoned relocations ---------------------------------------------- */

/* The same object with CO-RE applied by the kernel (the default where
 * the running kernel's BTF is the target, 5.17+) and by the loader
 * (COREBOX_DISABLE=kernel_core): the same programs load, relocated alike. */
static void poisoned_via(bool kernel)
{
	const char *via = kernel ? "kernel-side CO-RE" : "the loader's CO-RE";
	struct obj_opts opts = { 0 };
	struct obj *o;
	int err;

	if (!kernel)
		setenv("COREBOX_DISABLE", "kernel_core", 1);
	o = obj_open("poison", poison.data, poison.size);
	if (!o) {
		T_OK(0, "poison.bpf.o opens: %s", err_msg());
		unsetenv("COREBOX_DISABLE");
		return;
	}
	set_tgid(o);
	err = obj_load(o, &opts);
	/* the kernel refuses the poisoned program: the loader's CO-RE names it */
	T_OK(err < 0 &&
	     strstr(err_msg(), "program reached: CO-RE relocation failed: struct task_struct___cbx::cbx_no_such_field (0:0) not found in kernel BTF (instruction ") &&
	     !strchr(err_msg(), '\n') && !o->kernel_core,
	     "[%s] a reachable poisoned relocation in a subprogram is named: %s", via, err_msg());
	obj_close(o);

	o = obj_open("poison", poison.data, poison.size);
	prog_set_autoload(obj_prog(o, "reached"), false);
	set_tgid(o);
	err = obj_load(o, &opts);
	if (!err)
		err = obj_attach(o);
	T_OK(err == 0, "[%s] the same relocation under bpf_core_field_exists() loads (%s)", via,
	     err ? err_msg() : "ok");
	if (!err) {
		uint64_t *runs = obj_global(o, "guarded_runs", 8), *val = obj_global(o, "guarded_val", 8);
		uint64_t *mex = obj_global(o, "mod_exists", 8);

		T_OK(o->kernel_core == kernel, "[%s] the records were applied by the %s", via,
		     o->kernel_core ? "kernel" : "loader");
		getppids();
		T_OK(runs && *runs == N && val && *val == (uint64_t)getpid() && mex && *mex == 0,
		     "[%s] guarded program ran %llu times, took the fallback (pid %llu), no module type (exists %llu)",
		     via, runs ? (unsigned long long)*runs : 0ULL, val ? (unsigned long long)*val : 0ULL,
		     mex ? (unsigned long long)*mex : 9ULL);
	}
	obj_close(o);
	unsetenv("COREBOX_DISABLE");
}

static void poisoned(void)
{
	poisoned_via(true);
	poisoned_via(false);
}

/* ---- 3. module BTF ----------------------------------------------------------- */

static int write_all(const char *path, const void *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t w = fd >= 0 ? write(fd, data, size) : -1;

	if (fd >= 0)
		close(fd);
	return w == (ssize_t)size ? 0 : -1;
}

/* Split BTF on base: struct cbx_modtype { int x; int a; long pad; int b; }
 * (b at byte 16) and FUNC cbx_mod_func. */
static int write_module(const char *path, const struct btf *base)
{
	size_t bsize;
	const struct btf_header *bh = btf_raw(base, &bsize);
	int32_t int_id = btf_find(base, "int", BTF_KIND_INT), long_id = btf_find(base, "long int", BTF_KIND_INT);
	uint32_t first = btf_nr_types(base), sb = bh->str_len;
	static const char strs[] = "cbx_modtype\0x\0a\0pad\0b\0cbx_mod_func";
	uint32_t t[64], n = 0;
	struct {
		struct btf_header h;
		uint32_t t[64];
		char s[sizeof(strs)];
	} b;

	if (int_id <= 0 || long_id <= 0)
		return -1;
	/* [first] struct cbx_modtype, size 24, 4 members */
	t[n++] = sb + 0;
	t[n++] = (uint32_t)BTF_KIND_STRUCT << 24 | 4;
	t[n++] = 24;
	t[n++] = sb + 12; t[n++] = (uint32_t)int_id; t[n++] = 0;     /* x */
	t[n++] = sb + 14; t[n++] = (uint32_t)int_id; t[n++] = 32;    /* a */
	t[n++] = sb + 16; t[n++] = (uint32_t)long_id; t[n++] = 64;   /* pad */
	t[n++] = sb + 20; t[n++] = (uint32_t)int_id; t[n++] = 128;   /* b */
	/* [first+1] func_proto void (void); [first+2] FUNC cbx_mod_func */
	t[n++] = 0;
	t[n++] = (uint32_t)BTF_KIND_FUNC_PROTO << 24;
	t[n++] = 0;
	t[n++] = sb + 22;
	t[n++] = (uint32_t)BTF_KIND_FUNC << 24 | 1;
	t[n++] = first + 1;
	memset(&b, 0, sizeof(b));
	b.h.magic = BTF_MAGIC;
	b.h.version = BTF_VERSION;
	b.h.hdr_len = sizeof(b.h);
	b.h.type_len = n * 4;
	b.h.str_off = n * 4;
	b.h.str_len = sizeof(strs);
	memcpy(b.t, t, n * 4);
	memcpy((char *)b.t + n * 4, strs, sizeof(strs));
	return write_all(path, &b, sizeof(b.h) + n * 4 + sizeof(strs));
}

static void modules(const struct btf *vm)
{
	struct obj_opts opts = { 0 };
	char dir[256], path[300];
	struct obj *o;
	int err;

	snprintf(dir, sizeof(dir), "%s/sysfs", tmpdir);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/vmlinux", dir);
	if (symlink("/sys/kernel/btf/vmlinux", path) || (snprintf(path, sizeof(path), "%s/cbxfake", dir),
							  write_module(path, vm))) {
		T_OK(0, "fake sysfs BTF directory with a module");
		return;
	}
	setenv("COREBOX_SYSFS_BTF", dir, 1);
	o = obj_open("poison", poison.data, poison.size);
	prog_set_autoload(obj_prog(o, "reached"), false);
	set_tgid(o);
	err = obj_load(o, &opts);
	if (!err)
		err = obj_attach(o);
	T_OK(err == 0, "with a module BTF present: loads (%s)", err ? err_msg() : "ok");
	if (!err) {
		uint64_t *mex = obj_global(o, "mod_exists", 8), *moff = obj_global(o, "mod_off", 8);

		getppids();
		T_OK(mex && *mex == 1 && moff && *moff == 16,
		     "struct cbx_modtype (only in module cbxfake) relocated against the module: b exists, at %llu",
		     moff ? (unsigned long long)*moff : 0ULL);
	}
	obj_close(o);

	/* fentry to a function only in that module: found there; the fake
	 * module has no kernel BTF object, which the error must say */
	o = obj_open("features", features.data, features.size);
	prog_set_autoload(obj_prog(o, "on_tp"), false);
	prog_set_attach_target(obj_prog(o, "on_fentry"), "cbx_mod_func");
	err = obj_load(o, &opts);
	T_OK(err < 0 && strstr(err_msg(), "cbx_mod_func is in module cbxfake") &&
	     strstr(err_msg(), "no kernel BTF object for module cbxfake"),
	     "fentry target only in a module: looked up there (%s)", err_msg());
	obj_close(o);
	unsetenv("COREBOX_SYSFS_BTF");
}

/* ---- 4. kernel BTF files ------------------------------------------------------ */

static void btf_files(const char *raw, size_t raw_size)
{
	struct obj_opts opts = { 0 };
	char path[300], trunc[300];
	struct kbtf k;
	struct obj *o;
	int err;

	snprintf(path, sizeof(path), "%s/vmlinux.btf", tmpdir);
	snprintf(trunc, sizeof(trunc), "%s/truncated.btf", tmpdir);
	if (write_all(path, raw, raw_size) || write_all(trunc, raw, raw_size / 2)) {
		T_OK(0, "write BTF copies to %s", tmpdir);
		return;
	}
	err = kbtf_open(&k, path);
	T_OK(err == 0 && btf_nr_types(k.btf) > 1000, "raw BTF file (a copy of the kernel's) opens: %u types",
	     err ? 0 : btf_nr_types(k.btf));
	if (!err)
		kbtf_close(&k);
	err = kbtf_open(&k, trunc);
	T_OK(err < 0 && strstr(err_msg(), trunc) && !strchr(err_msg(), '\n'),
	     "truncated BTF file: one line naming it: %s", err_msg());

	setenv("COREBOX_SYSFS_BTF", "/nonexistent", 1);
	err = kbtf_open(&k, NULL);
	T_OK(err == -ENOENT && strstr(err_msg(), "--btf FILE") && strstr(err_msg(), "COREBOX_BTF") &&
	     !strchr(err_msg(), '\n'),
	     "kernel without BTF: %s", err_msg());
	o = obj_open("features", features.data, features.size);
	prog_set_autoload(obj_prog(o, "on_fentry"), false);
	err = obj_load(o, &opts);
	T_OK(err < 0 && strstr(err_msg(), "--btf FILE"), "a tp_btf object without kernel BTF: %s", err_msg());
	obj_close(o);

	/* --btf FILE on a kernel "without BTF": CO-RE from the file, and
	 * tp_btf falls back to raw_tp (the kernel could not take BTF ids) */
	opts.btf_path = path;
	o = obj_open("features", features.data, features.size);
	prog_set_autoload(obj_prog(o, "on_fentry"), false);
	set_tgid(o);
	err = obj_load(o, &opts);
	if (!err)
		err = obj_attach(o);
	T_OK(err == 0 && !strcmp(prog_mechanism(obj_prog(o, "on_btf")), "raw_tp"),
	     "--btf FILE without kernel BTF: loads, tp_btf program as %s (%s)",
	     err ? "-" : prog_mechanism(obj_prog(o, "on_btf")), err ? err_msg() : "ok");
	if (!err) {
		getppids();
		T_OK(result(o, 7) == N && result(o, 3) == 45, "and runs (%llu)", (unsigned long long)result(o, 7));
	}
	obj_close(o);
	unsetenv("COREBOX_SYSFS_BTF");

	/* --btf FILE with kernel BTF: tp_btf ids still come from the kernel */
	o = obj_open("features", features.data, features.size);
	prog_set_autoload(obj_prog(o, "on_fentry"), false);
	set_tgid(o);
	err = obj_load(o, &opts);
	if (!err)
		err = obj_attach(o);
	T_OK(err == 0 && !strcmp(prog_mechanism(obj_prog(o, "on_btf")), "tp_btf"),
	     "--btf FILE with kernel BTF: tp_btf attaches by the kernel's own ids (%s)", err ? err_msg() : "ok");
	if (!err) {
		getppids();
		T_OK(result(o, 7) == N, "and runs (%llu)", (unsigned long long)result(o, 7));
	}
	obj_close(o);
	unlink(path);
	unlink(trunc);
}

/* ---- 5. anonymous kernel enums ----------------------------------------------- */

/* Enumerator NAME of an enum without a name in kernel BTF, by a plain walk
 * over the types (not the CO-RE engine): 1 and its value, or 0. */
static int kernel_anon_enumerator(const struct btf *vm, const char *name, int64_t *val)
{
	for (uint32_t id = 1; id < btf_nr_types(vm); id++) {
		const struct btf_type *t = btf_type_by_id(vm, id);
		int is64 = btf_kind(t) == BTF_KIND_ENUM64;

		if (t->name_off || (btf_kind(t) != BTF_KIND_ENUM && !is64))
			continue;
		for (uint32_t j = 0; j < btf_vlen(t); j++) {
			uint32_t off = is64 ? btf_enums64(t)[j].name_off : btf_enums(t)[j].name_off;

			if (strcmp(btf_str(vm, off), name))
				continue;
			*val = is64 ? (int64_t)((uint64_t)btf_enums64(t)[j].val_hi32 << 32 | btf_enums64(t)[j].val_lo32)
				    : (int64_t)(int32_t)btf_enums(t)[j].val;
			return 1;
		}
	}
	return 0;
}

static void anon_enums(const struct btf *vm)
{
	static const char *const names[] = {
		"INET_FLAGS_PKTINFO", "INET_FLAGS_FREEBIND", "INET_FLAGS_TRANSPARENT",
		"INET_FLAGS_BIND_ADDRESS_NO_PORT", "INET_FLAGS_CBX_NO_SUCH",
	};
	struct obj_opts opts = { 0 };
	struct obj *o = obj_open("anonenum", anonenum.data, anonenum.size);
	struct utsname u;
	int err, major = 0, minor = 0, found = 0;

	if (!o) {
		T_OK(0, "anonenum.bpf.o opens: %s", err_msg());
		return;
	}
	set_tgid(o);
	err = obj_load(o, &opts);
	if (!err)
		err = obj_attach(o);
	T_OK(err == 0, "bpf_core_enum_value on an anonymous kernel enum loads (%s)", err ? err_msg() : "ok");
	if (!err) {
		uint64_t *runs = obj_global(o, "runs", 8), *ex = obj_global(o, "exists", 40);
		uint64_t *v = obj_global(o, "vals", 40);

		getppids();
		T_OK(runs && *runs == N && ex && v, "anonenum ran %llu times", runs ? (unsigned long long)*runs : 0ULL);
		for (size_t i = 0; runs && ex && v && i < ARRAY_SIZE(names); i++) {
			int64_t want = 0;
			int in_kernel = kernel_anon_enumerator(vm, names[i], &want);

			found += in_kernel;
			T_OK(ex[i] == (uint64_t)in_kernel && (!in_kernel || v[i] == (uint64_t)want),
			     "%s: kernel BTF %s %lld, the program saw exists %llu value %lld", names[i],
			     in_kernel ? "has it =" : "lacks it", (long long)want, (unsigned long long)ex[i],
			     (long long)v[i]);
		}
	}
	obj_close(o);
	/* INET_FLAGS_* exist since 6.6: there the check above is not 0 == 0 */
	if (uname(&u) == 0)
		sscanf(u.release, "%d.%d", &major, &minor);
	if (major > 6 || (major == 6 && minor >= 6))
		T_OK(err || found == 4, "kernel %s has the 4 INET_FLAGS_* enumerators in an anonymous enum (%d)",
		     u.release, found);
}

static int load_blob(struct blob *b, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", LDIR, name);
	if (read_file(path, 1 << 24, &b->data, &b->size) < 0) {
		T_OK(0, "read %s (run tests/loader/gen.sh): %s", path, err_msg());
		return -1;
	}
	return 0;
}

int main(void)
{
	static const char *const disables[] = {
		"", "btf_func", "btf_global_func", "btf_datasec", "btf_float", "btf_decl_tag", "btf_type_tag",
		"btf_enum64", "btf_global_func,btf_datasec,btf_float,btf_decl_tag,btf_type_tag,btf_enum64", "btf",
	};
	char *raw = NULL, sub[300];
	size_t raw_size = 0;
	struct btf *vm = NULL;

	if (load_blob(&features, "features.bpf.o") || load_blob(&kinds, "btfkinds.bpf.o") ||
	    load_blob(&poison, "poison.bpf.o") || load_blob(&anonenum, "anonenum.bpf.o"))
		T_EXIT();
	if (!mkdtemp(tmpdir)) {
		T_OK(0, "mkdtemp");
		T_EXIT();
	}
	sanitize_blob();
	for (size_t i = 0; i < ARRAY_SIZE(disables); i++)
		load_with(disables[i]);
	poisoned();
	if (read_file("/sys/kernel/btf/vmlinux", 256 << 20, &raw, &raw_size) == 0 &&
	    (vm = btf_new(raw, raw_size, 0, NULL))) {
		modules(vm);
		btf_files(raw, raw_size);
		anon_enums(vm);
	} else {
		T_SKIP("module and BTF file tests", "no /sys/kernel/btf/vmlinux");
	}
	btf_free(vm);
	free(raw);
	snprintf(sub, sizeof(sub), "%s/sysfs/cbxfake", tmpdir);
	unlink(sub);
	snprintf(sub, sizeof(sub), "%s/sysfs/vmlinux", tmpdir);
	unlink(sub);
	snprintf(sub, sizeof(sub), "%s/sysfs", tmpdir);
	rmdir(sub);
	rmdir(tmpdir);
	free(features.data);
	free(kinds.data);
	free(poison.data);
	free(anonenum.data);
	T_EXIT();
}
