/* applet sslsniff: show the plaintext of OpenSSL, GnuTLS and NSS reads and writes
 * readme: TLS plaintext as the application reads and writes it (uprobes on libssl, libgnutls,
 *         libnspr4): function, process, length, latency, the data
 *
 * bcc's sslsniff.py (0.26) flags and layout: "FUNC TIME(s) COMM PID LEN"
 * (-x adds UID TID, -l LAT(ms)), then for a call that moved data the
 * "----- DATA -----" block, its end mark saying how many bytes were cut
 * beyond --max-buffer-size, and an empty line.  The data is text as bcc
 * decodes it, except that control bytes other than newline, CR and tab
 * (and bytes that are not UTF-8) are shown as \xNN, never raw; --hexdump
 * prints hex in lines of 32 digits as bcc. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/perf.h"
#include "elf/elf.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/common/evcopy.h"
#include "sslsniff.h"

BPF_OBJ_DECLARE(sslsniff);

#if defined(__aarch64__)
#define TRIPLET "aarch64-linux-gnu"
#else
#define TRIPLET "x86_64-linux-gnu"
#endif

enum { LIB_OPENSSL, LIB_GNUTLS, LIB_NSS, LIB_TYPES };
static const char *const lib_types[LIB_TYPES] = { "openssl", "gnutls", "nss" };

#define EXTRA_MAX 16

static struct {
	int pid;
	long long uid;
	int extra, latency, handshake, hexdump;
	const char *comm;
	bool no[LIB_TYPES];
	long max_buf;
	int nextra;
	int extra_type[EXTRA_MAX];
	const char *extra_path[EXTRA_MAX];
} env = { .uid = -1, .max_buf = 8192 };

enum { O_HEXDUMP = OPT_LONG_ONLY(1), O_MAXBUF, O_HANDSHAKE, O_EXTRALIB };
static const struct opt opts[] = {
	{ 'p', "pid", "PID", "sniff this PID only." },
	{ 'u', "uid", "UID", "sniff this UID only." },
	{ 'x', "extra", NULL, "show extra fields (UID, TID)" },
	{ 'c', "comm", "COMM", "sniff only commands matching string." },
	{ 'o', "no-openssl", NULL, "do not show OpenSSL calls." },
	{ 'g', "no-gnutls", NULL, "do not show GnuTLS calls." },
	{ 'n', "no-nss", NULL, "do not show NSS calls." },
	{ O_HEXDUMP, "hexdump", NULL, "show data as hexdump instead of trying to decode it as UTF-8" },
	{ O_MAXBUF, "max-buffer-size", "SIZE", "Size of captured buffer (at most 16384)" },
	{ 'l', "latency", NULL, "show function latency" },
	{ O_HANDSHAKE, "handshake", NULL, "show SSL handshake latency, enabled only if latency option is on." },
	{ O_EXTRALIB, "extra-lib", "TYPE:PATH", "Intercept calls from extra library (format: lib_type:lib_path)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-p PID] [-u UID] [-x] [-c COMM] [-o] [-g] [-n] [--hexdump] [--max-buffer-size SIZE] "
		 "[-l] [--handshake] [--extra-lib TYPE:PATH]",
	.examples = "    sslsniff              # sniff OpenSSL and GnuTLS functions\n"
		    "    sslsniff -p 181       # sniff PID 181 only\n"
		    "    sslsniff -u 1000      # sniff only UID 1000\n"
		    "    sslsniff -c curl      # sniff curl command only\n"
		    "    sslsniff --no-openssl # don't show OpenSSL calls\n"
		    "    sslsniff --no-gnutls  # don't show GnuTLS calls\n"
		    "    sslsniff --no-nss     # don't show NSS calls\n"
		    "    sslsniff --hexdump    # show data as hex instead of trying to decode it as UTF-8\n"
		    "    sslsniff -x           # show process UID and TID\n"
		    "    sslsniff -l           # show function latency\n"
		    "    sslsniff -l --handshake  # show SSL handshake latency\n"
		    "    sslsniff --extra-lib openssl:/path/libssl.so.1.1 # sniff extra library\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static int parse(int key, const char *arg, void *ctx)
{
	const char *colon;
	int t;

	(void)ctx;
	switch (key) {
	case 'p': env.pid = opt_pid(&help, "PID", arg); break;
	case 'u': env.uid = opt_num(&help, "UID", arg, 0, (long long)(uint32_t)-2); break;
	case 'x': env.extra = 1; break;
	case 'c': env.comm = arg; break;
	case 'o': env.no[LIB_OPENSSL] = true; break;
	case 'g': env.no[LIB_GNUTLS] = true; break;
	case 'n': env.no[LIB_NSS] = true; break;
	case 'l': env.latency = 1; break;
	case O_HEXDUMP: env.hexdump = 1; break;
	case O_HANDSHAKE: env.handshake = 1; break;
	case O_MAXBUF: env.max_buf = (long)opt_num(&help, "max-buffer-size", arg, 0, SSLSNIFF_MAX_BUF); break;
	case O_EXTRALIB:
		if (!(colon = strchr(arg, ':')))
			opt_usage_error(&help, "Invalid SSL library param: '%s'", arg);
		for (t = 0; t < LIB_TYPES && (strlen(lib_types[t]) != (size_t)(colon - arg) ||
					      strncmp(arg, lib_types[t], (size_t)(colon - arg)));
		     t++)
			;
		if (t == LIB_TYPES)
			opt_usage_error(&help, "Invalid SSL library type: '%.*s'", (int)(colon - arg), arg);
		if (access(colon + 1, R_OK))
			opt_usage_error(&help, "Invalid library path: '%s'", colon + 1);
		if (env.nextra == EXTRA_MAX)
			opt_usage_error(&help, "at most %d --extra-lib", EXTRA_MAX);
		env.extra_type[env.nextra] = t;
		env.extra_path[env.nextra++] = colon + 1;
		break;
	default: return 1;
	}
	return 0;
}

static struct out_table table; /* (below: the output) */

/* ---- attaching ------------------------------------------------------------ */

struct hook {
	int type;
	const char *func;
	const char *enter, *exit; /* programs */
	bool optional;            /* absent from older versions */
};
static const struct hook hooks[] = {
	{ LIB_OPENSSL, "SSL_write", "sslsniff_rw_enter", "sslsniff_write_exit" },
	{ LIB_OPENSSL, "SSL_read", "sslsniff_rw_enter", "sslsniff_read_exit" },
	/* bcc 0.26 has not these two (later bcc does): Python's ssl module,
	 * among others, reads and writes through them alone */
	{ LIB_OPENSSL, "SSL_write_ex", "sslsniff_rw_ex_enter", "sslsniff_write_exit", true },
	{ LIB_OPENSSL, "SSL_read_ex", "sslsniff_rw_ex_enter", "sslsniff_read_exit", true },
	{ LIB_GNUTLS, "gnutls_record_send", "sslsniff_rw_enter", "sslsniff_write_exit" },
	{ LIB_GNUTLS, "gnutls_record_recv", "sslsniff_rw_enter", "sslsniff_read_exit" },
	{ LIB_NSS, "PR_Write", "sslsniff_rw_enter", "sslsniff_write_exit" },
	{ LIB_NSS, "PR_Send", "sslsniff_rw_enter", "sslsniff_write_exit" },
	{ LIB_NSS, "PR_Read", "sslsniff_rw_enter", "sslsniff_read_exit" },
	{ LIB_NSS, "PR_Recv", "sslsniff_rw_enter", "sslsniff_read_exit" },
};

static int att_libs;

/* The programs, and per library the functions each one goes on. */
static const char *const prog_names[] = { "sslsniff_rw_enter", "sslsniff_rw_ex_enter", "sslsniff_write_exit",
					  "sslsniff_read_exit", "sslsniff_hs_enter", "sslsniff_hs_exit" };
#define MAX_PER_PROG 8
struct prog_funcs {
	uint64_t off[MAX_PER_PROG];
	const char *func[MAX_PER_PROG];
	size_t n;
};

static void add_func(struct prog_funcs *pf, const char *prog, const char *func, uint64_t off)
{
	for (size_t i = 0; i < ARRAY_SIZE(prog_names); i++)
		if (!strcmp(prog_names[i], prog) && pf[i].n < MAX_PER_PROG) {
			pf[i].off[pf[i].n] = off;
			pf[i].func[pf[i].n++] = func;
		}
}

/* Each program goes on all its functions of the library at once: one
 * uprobe_multi link per program where the kernel has them, which detaches
 * in one grace period (one perf uprobe per function waits ~100 ms each at
 * exit, one after the other).  0, or -1 after a message. */
static int attach_lib(struct obj *o, int type, const char *path)
{
	struct prog_funcs pf[ARRAY_SIZE(prog_names)];
	struct elf_view ev;
	const void *data;
	size_t size;
	int ret = 0;

	if (elf_map_file(path, &data, &size) < 0 || elf_open(&ev, data, size) < 0) {
		tool_err("sslsniff", "cannot read %s: %s", path, err_msg());
		return -1;
	}
	memset(pf, 0, sizeof(pf));
	for (size_t i = 0; i < ARRAY_SIZE(hooks) && !ret; i++) {
		uint64_t off;
		int r;

		if (hooks[i].type != type)
			continue;
		if ((r = elf_uprobe_func_offset(&ev, hooks[i].func, &off)) < 0) {
			if (hooks[i].optional && r != -ENOTSUP) {
				err_clear();
				continue;
			}
			tool_err("sslsniff", "%s: %s", path, err_msg());
			ret = -1;
			break;
		}
		add_func(pf, hooks[i].enter, hooks[i].func, off);
		add_func(pf, hooks[i].exit, hooks[i].func, off);
	}
	if (!ret && type == LIB_OPENSSL && env.latency && env.handshake) {
		uint64_t off;

		if (elf_uprobe_func_offset(&ev, "SSL_do_handshake", &off) < 0) {
			tool_err("sslsniff", "%s: %s", path, err_msg());
			ret = -1;
		} else {
			add_func(pf, "sslsniff_hs_enter", "SSL_do_handshake", off);
			add_func(pf, "sslsniff_hs_exit", "SSL_do_handshake", off);
		}
	}
	elf_unmap_file(data, size);
	for (size_t i = 0; i < ARRAY_SIZE(prog_names) && !ret; i++) {
		struct prog *p = obj_prog(o, prog_names[i]);
		char funcs[256] = "";

		if (!pf[i].n || prog_attach_uprobes(p, path, pf[i].off, pf[i].n, env.pid) == 0)
			continue;
		for (size_t k = 0; k < pf[i].n; k++)
			snprintf(funcs + strlen(funcs), sizeof(funcs) - strlen(funcs), "%s%s", k ? ", " : "",
				 pf[i].func[k]);
		tool_err("sslsniff", "cannot attach a %s to %s in %s: %s",
			 prog_kind(p) == ATTACH_URETPROBE ? "uretprobe" : "uprobe", funcs, path, err_msg());
		ret = -1;
	}
	att_libs += !ret;
	return ret;
}

/* The library of a type in the usual directories (bcc: by its short name
 * through ld.so's cache), or NULL. */
static const char *find_lib(int type, char *path, size_t size)
{
	static const char *const dirs[] = { "/lib/" TRIPLET, "/usr/lib/" TRIPLET, "/lib64", "/usr/lib64",
					    "/lib", "/usr/lib" };
	static const char *const names[LIB_TYPES][3] = {
		{ "libssl.so.3", "libssl.so.1.1", "libssl.so" },
		{ "libgnutls.so.30", "libgnutls.so", NULL },
		{ "libnspr4.so", NULL, NULL },
	};

	for (int n = 0; n < 3 && names[type][n]; n++)
		for (size_t d = 0; d < ARRAY_SIZE(dirs); d++) {
			snprintf(path, size, "%s/%s", dirs[d], names[type][n]);
			if (!access(path, R_OK))
				return path;
		}
	return NULL;
}

static int after_load(struct obj *o)
{
	char path[256];

	for (int t = 0; t < LIB_TYPES; t++)
		if (!env.no[t] && find_lib(t, path, sizeof(path)) && attach_lib(o, t, path) < 0)
			return -1;
	for (int i = 0; i < env.nextra; i++)
		if (attach_lib(o, env.extra_type[i], env.extra_path[i]) < 0)
			return -1;
	if (!att_libs) {
		tool_err("sslsniff", "no TLS library found to trace (OpenSSL's libssl, GnuTLS's libgnutls, "
			 "NSS's libnspr4 in the usual directories): name one with --extra-lib TYPE:PATH");
		return -1;
	}
	out_header(&table); /* bcc's header line: the last column's padding, then the newline */
	out_text("\n");
	return 0;
}


/* ---- output ----------------------------------------------------------------- */

enum { C_FUNC, C_TIME, C_COMM, C_PID, C_LEN, C_UID, C_TID, C_LAT, C_DATA };
static const struct out_col cols[] = {
	[C_FUNC] = { "func", "FUNC", "%-12s ", OUT_STR },
	[C_TIME] = { "time_s", "TIME(s)", "%-18.9f ", OUT_FLOAT, .hfmt = "%-18s " },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_PID] = { "pid", "PID", "%-7lld ", OUT_INT, .hfmt = "%-7s " },
	[C_LEN] = { "len", "LEN", "%-6lld", OUT_INT, .hfmt = "%-7s" },
	[C_UID] = { "uid", "UID", " %-7lld", OUT_INT, .hfmt = " %-7s" },
	[C_TID] = { "tid", "TID", " %-7lld", OUT_INT, .hfmt = " %-7s" },
	[C_LAT] = { "lat_ms", "LAT(ms)", " %-7s", OUT_STR, .hfmt = " %-7s" },
	[C_DATA] = { "data", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

/* bcc's text: UTF-8 as it is, newline, CR and tab too; anything else a
 * terminal would act on as \xNN */
static void print_text(const unsigned char *p, size_t n)
{
	char *s = xmalloc(n + 8), piece[5];
	bool escaping;

	memcpy(s, p, n);
	memset(s + n, 0, 8);
	escaping = memchr(s, 0, n) || str_needs_escape(s, "\n\r\t");
	for (size_t i = 0; i < n;) {
		if (!s[i]) {
			fputs("\\x00", stdout);
			i++;
			continue;
		}
		i += str_escape_piece((const unsigned char *)s + i, "\n\r\t", escaping, piece);
		fputs(piece, stdout);
	}
	free(s);
}

/* Python's textwrap.fill(hexlify(buf), width=32): 32 digits a line */
static void print_hex(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i && i % 16 == 0)
			putchar('\n');
		printf("%02x", p[i]);
	}
}

static char *hex_string(const unsigned char *p, size_t n)
{
	char *s = xmalloc(2 * n + 1);

	for (size_t i = 0; i < n; i++)
		sprintf(s + 2 * i, "%02x", p[i]);
	s[2 * n] = 0;
	return s;
}

static int on_event(void *ctx, const void *data, size_t size)
{
	static uint64_t start;
	static const char *const funcs[] = { "READ/RECV", "WRITE/SEND", "HANDSHAKE" };
	struct sslsniff_event *e;
	char comm[EV_COMM_LEN + 1], lat[32], *json_data = NULL;
	union out_val v[ARRAY_SIZE(cols)];
	size_t n;

	(void)ctx;
	if (size < SSLSNIFF_HEAD_SIZE)
		return 0;
	e = xmalloc(sizeof(*e));
	memset(e, 0, sizeof(*e));
	memcpy(e, data, size < sizeof(*e) ? size : sizeof(*e));
	n = e->buf_size;
	if (n > size - SSLSNIFF_HEAD_SIZE || n > SSLSNIFF_MAX_BUF)
		n = 0;
	if (n > (size_t)env.max_buf)
		n = (size_t)env.max_buf;
	ev_comm(comm, e->comm);
	if (env.comm && strcmp(env.comm, comm))
		goto out;
	if (!start)
		start = e->ts_ns;
	if (e->delta_ns)
		snprintf(lat, sizeof(lat), "%.3f", (double)e->delta_ns / 1000000);
	else
		snprintf(lat, sizeof(lat), "N/A");
	v[C_FUNC].s = funcs[e->rw < 3 ? e->rw : 0];
	v[C_TIME].f = (double)(e->ts_ns - start) / 1000000000;
	v[C_COMM].s = comm;
	v[C_PID].i = e->pid;
	v[C_LEN].i = e->len;
	v[C_UID].i = e->uid;
	v[C_TID].i = e->tid;
	v[C_LAT].s = lat;
	if (out_json()) {
		if (env.hexdump) {
			json_data = hex_string((const unsigned char *)e->buf, n);
		} else {
			json_data = xmalloc(n + 1);
			memcpy(json_data, e->buf, n);
			json_data[n] = 0;
		}
	}
	v[C_DATA].s = json_data;
	out_row(&table, v);
	if (!out_json()) {
		if (n) {
			fputs("\n----- DATA -----\n", stdout);
			if (env.hexdump)
				print_hex((const unsigned char *)e->buf, n);
			else
				print_text((const unsigned char *)e->buf, n);
			if (e->len > n)
				printf("\n----- END DATA (TRUNCATED, %zu bytes lost) -----\n\n", (size_t)e->len - n);
			else
				fputs("\n----- END DATA -----\n\n", stdout);
		}
		putchar('\n');
	}
out:
	free(json_data);
	free(e);
	return 0;
}

int sslsniff_main(int argc, char **argv)
{
	struct tool_events te = { .name = "sslsniff", .after_load = after_load, .on_event = on_event };
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	tool_signals();
	o = BPF_OBJ_OPEN(sslsniff);
	for (size_t i = 0; i < ARRAY_SIZE(prog_names); i++)
		prog_set_uprobe_offsets(obj_prog(o, prog_names[i]));
	OBJ_SET(o, target_pid, (uint32_t)env.pid);
	OBJ_SET(o, target_uid, (uint32_t)env.uid);
	OBJ_SET(o, max_buf, (uint32_t)env.max_buf);
	out_show(&table, C_UID, env.extra);
	out_show(&table, C_TID, env.extra);
	out_show(&table, C_LAT, env.latency);
	return tool_run_events(o, &te);
}
