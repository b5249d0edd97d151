/* Loader tests on the live kernel: tests/loader/features.bpf.c (built by
 * tests/loader/gen.sh into build/test/loader/) is opened, configured,
 * loaded and attached; the test makes N getppid() calls and checks what
 * every program computed, which mechanism each used, that a forced
 * fallback works, and that nothing stays loaded after obj_close.  Then
 * mutated copies of the object must fail to open cleanly, never crash. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "loader/obj.h"
#include "t.h"

#define OBJ_PATH "../../build/test/loader/features.bpf.o"
#define N 25

static uint64_t result(struct obj *o, uint32_t k)
{
	uint64_t v = 0;

	bpf_map_lookup(map_fd(obj_map(o, "results")), &k, &v);
	return v;
}

static uint64_t ksym(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], sym[256], t;
	unsigned long long a, found = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &t, sym) == 3 && !strcmp(sym, name)) {
			found = a;
			break;
		}
	if (f)
		fclose(f);
	return found;
}

/* Ids of the kernel programs this test loaded (other processes on the
 * machine may load programs meanwhile, so counting all would be flaky). */
static uint32_t our_ids[64];
static int nr_ids;

static void remember_ids(struct obj *o)
{
	struct prog *p;

	for (size_t i = 0; (p = obj_prog_at(o, i)); i++) {
		struct bpf_prog_info info;
		uint32_t len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (prog_fd(p) >= 0 && bpf_obj_info(prog_fd(p), &info, &len) == 0 && nr_ids < 64)
			our_ids[nr_ids++] = info.id;
	}
}

static int ids_still_loaded(void)
{
	int n = 0;

	for (int i = 0; i < nr_ids; i++) {
		int fd = bpf_prog_fd_by_id(our_ids[i]);

		if (fd >= 0) {
			n++;
			close(fd);
		}
	}
	return n;
}

static void run_once(const char *data, size_t size, int force_raw_tp)
{
	struct obj_opts opts = { .verbose = getenv("V") != NULL };
	struct utsname u;
	unsigned a = 0, b = 0, c = 0;
	struct obj *o;
	uint32_t *tgid;
	uint64_t *hits;
	int err;

	if (force_raw_tp)
		setenv("COREBOX_DISABLE", "tp_btf", 1);
	else
		unsetenv("COREBOX_DISABLE");
	o = obj_open("features", data, size);
	T_OK(o != NULL, "obj_open features.bpf.o%s", o ? "" : err_msg());
	if (!o)
		return;
	prog_set_autoload(obj_prog(o, "on_fentry"), false);
	tgid = obj_global(o, "targ_tgid", sizeof(*tgid));
	T_OK(tgid != NULL, ".rodata global targ_tgid found");
	T_OK(obj_global(o, "targ_tgid", 8) == NULL, "a size mismatch on a global is refused");
	if (tgid)
		*tgid = (uint32_t)getpid();
	err = obj_load(o, &opts);
	T_OK(err == 0, "obj_load (%s)", err ? err_msg() : "ok");
	if (!err)
		err = obj_attach(o);
	T_OK(err == 0, "obj_attach (%s)", err ? err_msg() : "ok");
	if (err) {
		obj_close(o);
		return;
	}
	remember_ids(o);
	for (int i = 0; i < N; i++)
		syscall(SYS_getppid);

	uname(&u);
	sscanf(u.release, "%u.%u.%u", &a, &b, &c);
	T_OK(result(o, 0) == N, "tracepoint program ran %d times (got %llu)", N,
	     (unsigned long long)result(o, 0));
	T_OK(result(o, 1) == 42 + ((a << 16) | (b << 8) | (c > 255 ? 255 : c)),
	     "static subprogram + .data + LINUX_KERNEL_VERSION (got %llu)", (unsigned long long)result(o, 1));
	T_OK(result(o, 2) == 2, "global subprogram + CONFIG_BPF_SYSCALL=y + missing weak CONFIG is 0 (got %llu)",
	     (unsigned long long)result(o, 2));
	T_OK(result(o, 3) == 45, "bpf_loop callback summed 0..9 (got %llu)", (unsigned long long)result(o, 3));
	T_OK(result(o, 4) == ksym("_text") && result(o, 4) != 0, "typeless __ksym _text = kallsyms address");
	T_OK(result(o, 5) == N && result(o, 6) == 3, "raw_tp program with its own copy of the static subprogram");
	T_OK(result(o, 7) == N && result(o, 8) == 42, "tp_btf program (%s) ran %llu times",
	     prog_mechanism(obj_prog(o, "on_btf")), (unsigned long long)result(o, 7));
	T_OK(result(o, 9) == 0 && prog_fd(obj_prog(o, "on_fentry")) < 0, "disabled fentry variant never loaded");
	hits = obj_global(o, "bss_hits", sizeof(*hits));
	T_OK(hits && *hits == N, ".bss counter read through the live mmap (got %llu)",
	     hits ? (unsigned long long)*hits : 0ULL);
	T_OK(!strcmp(prog_mechanism(obj_prog(o, "on_tp")), "tracepoint"), "tracepoint mechanism");
	T_OK(!strcmp(prog_mechanism(obj_prog(o, "on_raw")), "raw_tp"), "raw_tp mechanism");
	T_OK(!strcmp(prog_mechanism(obj_prog(o, "on_btf")), force_raw_tp ? "raw_tp" : "tp_btf"),
	     "tp_btf program used %s (%s)", prog_mechanism(obj_prog(o, "on_btf")),
	     force_raw_tp ? "tp_btf disabled: raw_tp fallback" : "tp_btf available");
	obj_close(o);
}

static void mutations(const char *data, size_t size)
{
	char *copy = xmalloc(size);
	size_t opened = 0, refused = 0, silent = 0;

	/* truncations */
	for (size_t cut = 0; cut < size; cut += size / 97 + 1) {
		struct obj *o;

		err_clear();
		memcpy(copy, data, cut);
		o = obj_open("trunc", copy, cut);
		if (o) {
			opened++;
			obj_close(o);
		} else {
			refused++;
			silent += !err_msg()[0];
		}
	}
	T_OK(refused > 0 && silent == 0, "truncated objects: %zu refused with a message, %zu opened", refused, opened);
	/* byte flips over headers and tables */
	srand(1);
	opened = refused = silent = 0;
	for (int i = 0; i < 3000; i++) {
		struct obj *o;
		size_t pos = (size_t)rand() % size;

		memcpy(copy, data, size);
		copy[pos] ^= (char)(1 + rand() % 255);
		if (i % 3 == 0)
			copy[(size_t)rand() % 64] ^= (char)(1 + rand() % 255);
		err_clear();
		o = obj_open("flip", copy, size);
		if (o) {
			opened++;
			obj_close(o);
		} else {
			refused++;
			silent += !err_msg()[0];
		}
	}
	T_OK(silent == 0, "3000 corrupted objects: %zu refused with a message, %zu opened, none crashed", refused,
	     opened);
	free(copy);
}

int main(void)
{
	char *data;
	size_t size;

	if (read_file(OBJ_PATH, 1 << 24, &data, &size) < 0) {
		T_OK(0, "read %s (run tests/loader/gen.sh): %s", OBJ_PATH, err_msg());
		T_EXIT();
	}
	run_once(data, size, 0);
	run_once(data, size, 1);
	/* the kernel frees programs after an RCU grace period: allow 2 s */
	for (int i = 0; i < 200 && ids_still_loaded(); i++)
		usleep(10000);
	T_OK(nr_ids >= 6 && ids_still_loaded() == 0, "none of the %d programs loaded is left after obj_close",
	     nr_ids);
	mutations(data, size);
	free(data);
	T_EXIT();
}
