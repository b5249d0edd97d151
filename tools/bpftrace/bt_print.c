/* bpftrace 0.17's output layout (measured against Debian's bpftrace 0.17
 * on the same programs): see bt_print.h. */
#include "bt_print.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "loader/obj.h"
#include "tools/common/common.h"
#include "tools/probe/spec.h"
#include "tools/stack/ksyms.h"
#include "tools/stack/mapdump.h"
#include "tools/stack/usyms.h"

/* -f json: strings go out whole, JSON escapes their control bytes */
static bool raw_text;
static bool in_key; /* a map key being printed (stack frames indent less) */

static int map_fd_of(struct bt_out *b, const struct bt_map *m)
{
	return map_fd(obj_map_at(b->o, (size_t)m->idx));
}

void bt_out_attaching(struct bt_out *b, int n)
{
	if (b->json)
		printf("{\"type\": \"attached_probes\", \"data\": {\"probes\": %d}}\n", n);
	else
		printf("Attaching %d probe%s...\n", n, n == 1 ? "" : "s");
	fflush(stdout);
}

int bt_out_open(struct bt_out *b, struct obj *o)
{
	b->o = o;
	raw_text = b->json;
	if (b->prog->uses_kstack || b->prog->uses_ustack || b->prog->uses_ksym) {
		b->stk_ok = stacks_init(&b->stk, -1, 127, 0) == 0;
		if (!b->stk_ok)
			err_clear();
	}
	return 0;
}

void bt_out_close(struct bt_out *b)
{
	if (b->stk_ok)
		stacks_fini(&b->stk);
	b->stk_ok = false;
}

/* Control bytes of traced data never reach the terminal raw. */
static void add_safe(struct strbuf *sb, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 || c == 0x7f) && !raw_text)
			strbuf_addf(sb, "\\x%02x", c);
		else
			strbuf_addc(sb, (char)c);
	}
}

/* A stack as bpftrace prints it in a key: "\n" then "    frame\n" each. */
static void add_stack(struct bt_out *b, struct strbuf *sb, uint64_t v, bool user, int depth)
{
	const uint64_t *ips;
	int32_t id = (int32_t)(uint32_t)v;
	int pid = (int)(v >> 32), n;
	char buf[512];
	struct map *m;

	bt_stack_map_name(depth, buf, sizeof(buf));
	if (!b->stk_ok || !(m = obj_map(b->o, buf)))
		return;
	b->stk.map_fd = map_fd(m); /* the map of this depth */
	b->stk.depth = (unsigned)depth;
	if ((n = stacks_read(&b->stk, id, !user, &ips)) <= 0)
		return;
	if (n > depth)
		n = depth;
	strbuf_addc(sb, '\n');
	for (int i = 0; i < n; i++) {
		if (!user) {
			struct ksym k;

			if (b->stk.ksyms && ksyms_lookup(b->stk.ksyms, ips[i], &k) == 0 && k.name)
				snprintf(buf, sizeof(buf), "%s+%llu", k.name, (unsigned long long)k.offset);
			else
				snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)ips[i]);
		} else {
			struct usym u;

			if (b->stk.usyms && usyms_lookup(b->stk.usyms, pid, ips[i], &u) == 0 && u.name)
				snprintf(buf, sizeof(buf), "%s+%llu", u.name, (unsigned long long)u.offset);
			else
				snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)ips[i]);
		}
		strbuf_add(sb, in_key ? "    " : "        "); /* 0.17: 4 in a map key, else 8 */
		add_safe(sb, buf, sizeof(buf));
		strbuf_addc(sb, '\n');
	}
}

/* strftime(FMT, NSECS): NSECS counts from boot (nsecs): the wall clock
 * is the boot time plus NSECS, as 0.17; %f is the microseconds. */
static void add_time(struct strbuf *sb, const char *fmt, uint64_t ns)
{
	static int64_t boot_ns = -1;
	struct timespec rt, bt;
	char f[256], out[512];
	size_t k = 0;
	int64_t wall;
	time_t sec;
	struct tm tm;

	if (boot_ns < 0 && clock_gettime(CLOCK_REALTIME, &rt) == 0 && clock_gettime(CLOCK_BOOTTIME, &bt) == 0)
		boot_ns = (rt.tv_sec - bt.tv_sec) * 1000000000LL + rt.tv_nsec - bt.tv_nsec;
	wall = (boot_ns < 0 ? 0 : boot_ns) + (int64_t)(ns & INT64_MAX);
	sec = (time_t)(wall / 1000000000);
	for (size_t i = 0; fmt[i] && k + 8 < sizeof(f); i++) {
		if (fmt[i] == '%' && fmt[i + 1] == 'f') {
			k += (size_t)snprintf(f + k, sizeof(f) - k, "%06d", (int)(wall % 1000000000 / 1000));
			i++;
		} else {
			if (fmt[i] == '%' && fmt[i + 1] == '%')
				f[k++] = fmt[i++]; /* %% stays whole for strftime */
			f[k++] = fmt[i];
		}
	}
	f[k] = 0;
	if (!localtime_r(&sec, &tm) || !strftime(out, sizeof(out), f, &tm))
		out[0] = 0;
	add_safe(sb, out, strlen(out));
}

/* How a tuple/struct/array prints: a value ({ .m = 1 }), in a key
 * ({.m=1}), or in JSON. */
enum { AS_VALUE, AS_KEY, AS_JSON };
static int agg_style;

static void add_value(struct bt_out *b, struct strbuf *sb, const struct bt_type *t, const uint8_t *p);

static void add_agg(struct bt_out *b, struct strbuf *sb, const struct bt_type *t, const uint8_t *p)
{
	const struct bt_shape *s = &b->prog->shapes[t->depth];
	bool json = agg_style == AS_JSON, spaced = agg_style == AS_VALUE;

	strbuf_addc(sb, s->kind == 't' ? (json ? '[' : '(') : s->kind == 'a' ? '[' : '{');
	if (s->kind == 's' && (spaced || json))
		strbuf_addc(sb, ' ');
	for (int i = 0; i < s->n; i++) {
		const struct bt_field *f = &s->f[i];

		if (i)
			strbuf_add(sb, s->kind == 'a' || (json && s->kind == 't') ? "," : spaced || json ? ", " : ",");
		if (s->kind == 's')
			strbuf_addf(sb, json ? "\"%s\": " : spaced ? ".%s = " : ".%s=", f->name);
		if (json && f->t.vt == VT_STR) {
			struct strbuf v = { 0 };

			strbuf_reset(&v);
			add_safe(&v, (const char *)p + f->off, f->t.size);
			json_str(sb, v.s);
			strbuf_free(&v);
		} else {
			add_value(b, sb, &f->t, p + f->off);
		}
	}
	if (s->kind == 's' && (spaced || json))
		strbuf_addc(sb, ' ');
	strbuf_addc(sb, s->kind == 't' ? (json ? ']' : ')') : s->kind == 'a' ? ']' : '}');
}

/* A buf() value {length, bytes} as %r prints it: printable ASCII as
 * itself, other bytes \xNN; %rx: every byte \xNN; %rh: "48 65 6c". */
static void add_buf(struct strbuf *sb, const struct bt_type *t, const uint8_t *p, char mode)
{
	uint64_t n;

	memcpy(&n, p, 8);
	if (n > t->size)
		n = t->size;
	for (uint64_t i = 0; i < n; i++) {
		unsigned char c = p[8 + i];

		if (mode == 'h')
			strbuf_addf(sb, i ? " %02x" : "%02x", c);
		else if (mode == 'x' || c < 0x20 || c > 0x7e)
			strbuf_addf(sb, "\\x%02x", c);
		else
			strbuf_addc(sb, (char)c);
	}
}

/* username: the uid's name from /etc/passwd as 0.17 reads it (no NSS);
 * nothing when the uid has none. */
static void add_user(struct strbuf *sb, uint64_t uid)
{
	FILE *f = fopen("/etc/passwd", "re");
	char line[512], *name, *id;

	while (f && fgets(line, sizeof(line), f)) {
		name = strtok(line, ":");
		if (name && strtok(NULL, ":") && (id = strtok(NULL, ":")) && strtoull(id, NULL, 10) == uid) {
			add_safe(sb, name, strlen(name));
			break;
		}
	}
	if (f)
		fclose(f);
}

/* The entry of inode id under the directory open at fd (closed), in
 * 0.17's order (depth first, as read): appended to path[len..] ("/a/b");
 * true when found. */
static bool cg_find(int fd, uint64_t id, char *path, size_t len, int depth)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	bool found = false;

	if (!d) {
		close(fd);
		return false;
	}
	while (!found && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		struct stat st;
		int sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || len + n + 2 > 4096 ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		path[len] = '/';
		memcpy(path + len + 1, de->d_name, n + 1);
		/* any entry, as 0.17 (a file's inode may be the number asked) */
		found = st.st_ino == id ||
			(S_ISDIR(st.st_mode) && depth < 32 &&
			 (sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)) >= 0 &&
			 cg_find(sub, id, path, len + 1 + n, depth + 1));
	}
	closedir(d);
	return found;
}

struct cg_root {
	char name[64], dir[256];
};

static int root_cmp(const void *x, const void *y)
{
	const struct cg_root *a = x, *b = y;

	return strcmp(a->name, "unified") ? strcmp(b->name, "unified") ? strcmp(a->name, b->name) : 1 : -1;
}

/* cgroup_path(ID, FILTER) as 0.17 words it: "NAME:PATH" of every cgroup
 * hierarchy mounted (cgroup2 is "unified" and first, a v1 one its
 * folder's name, then by name) whose name FILTER matches and where a
 * folder has inode ID, joined by ','. */
static void add_cgroup(struct strbuf *sb, uint64_t id, const char *filter)
{
	FILE *f = fopen("/proc/mounts", "re");
	struct cg_root r[32];
	char line[512], path[4096];
	int n = 0;

	while (f && n < 32 && fgets(line, sizeof(line), f)) {
		char *dir = strchr(line, ' '), *end, *base;

		if (!dir || (strncmp(line, "cgroup ", 7) && strncmp(line, "cgroup2 ", 8)) || !(end = strchr(++dir, ' ')))
			continue;
		*end = 0;
		base = strrchr(dir, '/');
		snprintf(r[n].name, sizeof(r->name), "%s", line[6] == '2' ? "unified" : base ? base + 1 : dir);
		snprintf(r[n].dir, sizeof(r->dir), "%s", dir);
		n += glob_match(filter, r[n].name);
	}
	if (f)
		fclose(f);
	qsort(r, (size_t)n, sizeof(*r), root_cmp);
	for (int i = 0, k = 0, fd; i < n; i++) {
		struct stat st;

		strcpy(path, "/"); /* the hierarchy's root itself */
		if ((fd = open(r[i].dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 || fstat(fd, &st) < 0 ||
		    (st.st_ino != id ? !cg_find(fd, id, path, 0, 0) : close(fd) < 0))
			continue;
		strbuf_addf(sb, k++ ? ",%s:" : "%s:", r[i].name);
		add_safe(sb, path, sizeof(path));
	}
}

static void add_value(struct bt_out *b, struct strbuf *sb, const struct bt_type *t, const uint8_t *p)
{
	uint64_t v;

	if (t->vt == VT_STR) {
		add_safe(sb, (const char *)p, t->size);
		return;
	}
	if (t->vt == VT_AGG) {
		add_agg(b, sb, t, p);
		return;
	}
	if (t->vt == VT_INT && t->size && t->size < 8) { /* a tuple's or struct's narrow integer */
		int sh = 64 - 8 * t->size;

		v = 0;
		memcpy(&v, p, t->size);
		strbuf_addf(sb, "%lld", t->sign ? (long long)((int64_t)(v << sh) >> sh) : (long long)v);
		return;
	}
	if (t->vt == VT_BUF) {
		add_buf(sb, t, p, 'r');
		return;
	}
	memcpy(&v, p, 8);
	if (t->vt == VT_INET) {
		char buf[INET6_ADDRSTRLEN];

		if ((v == AF_INET || v == AF_INET6) && inet_ntop((int)v, p + 8, buf, sizeof(buf)))
			strbuf_add(sb, buf);
		return;
	}
	if (t->vt == VT_USYM) {
		struct usym u;
		uint64_t pid;

		memcpy(&pid, p + 8, 8);
		if (b->stk_ok && b->stk.usyms && usyms_lookup(b->stk.usyms, (int)pid, v, &u) == 0 && u.name)
			add_safe(sb, u.name, strlen(u.name));
		else
			strbuf_addf(sb, v ? "0x%llx" : "0", (unsigned long long)v); /* C++'s showbase: 0, 0x1 */
		return;
	}
	if (t->vt == VT_TIME && t->depth < b->prog->ntfmts) {
		add_time(sb, b->prog->tfmts[t->depth], v);
		return;
	}
	if (t->vt == VT_CGPATH && t->depth < b->prog->ntfmts) {
		add_cgroup(sb, v, b->prog->tfmts[t->depth]);
		return;
	}
	if (t->vt == VT_MAC) { /* 0.17: upper case */
		strbuf_addf(sb, "%02X:%02X:%02X:%02X:%02X:%02X", p[0], p[1], p[2], p[3], p[4], p[5]);
		return;
	}
	if (t->vt == VT_KSYM) {
		struct ksym k;

		if (b->stk_ok && b->stk.ksyms && ksyms_lookup(b->stk.ksyms, v, &k) == 0 && k.name)
			add_safe(sb, k.name, strlen(k.name));
		else
			strbuf_addf(sb, v ? "0x%llx" : "0", (unsigned long long)v);
		return;
	}
	if (t->vt == VT_ERRNO) { /* glibc's words for numbers it lacks, as 0.17 prints */
		const char *w = strerror((int)v);

		if (!strcmp(w, strerror(-1)))
			strbuf_addf(sb, "Unknown error %d", (int)v);
		else
			strbuf_add(sb, w);
		return;
	}
	if (t->vt == VT_USER) {
		add_user(sb, v);
		return;
	}
	if (t->vt == VT_KSTACK || t->vt == VT_USTACK)
		add_stack(b, sb, v, t->vt == VT_USTACK, t->depth ? t->depth : 127);
	else
		strbuf_addf(sb, t->ptr && in_key ? "0x%llx" : t->sign || in_key ? "%lld" : "%llu", (long long)v); /* 0.17: pointers in keys in hex */
}

/* printf with bpftrace's conversions: without l/ll an integer is 32 bits. */
static void format_printf(struct bt_out *b, const struct bt_action *a, const uint8_t *rec, struct strbuf *sb)
{
	const char *f = a->fmt;
	int ai = 0;

	for (size_t i = 0; f[i]; i++) {
		char spec[32], out[512];
		size_t s = i, k = 0;
		bool wide = false;
		uint64_t v;

		if (f[i] != '%') {
			strbuf_addc(sb, f[i]);
			continue;
		}
		if (f[i + 1] == '%') {
			strbuf_add(sb, "%%"); /* 0.17 prints both */
			i++;
			continue;
		}
		i++;
		while (f[i] && strchr("-+ #0", f[i]))
			i++;
		while (f[i] >= '0' && f[i] <= '9')
			i++;
		if (f[i] == '.')
			for (i++; f[i] >= '0' && f[i] <= '9'; i++)
				;
		if (i - s > 20 || ai >= a->nargs)
			return;
		memcpy(spec, f + s, i - s);
		k = i - s;
		while (f[i] && strchr("hlzjt", f[i])) {
			wide |= f[i] != 'h';
			i++;
		}
		if (!f[i])
			return;
		if (f[i] == 'r') {
			char mode = f[i + 1] == 'x' || f[i + 1] == 'h' ? f[++i] : 'r';

			if (a->args[ai].vt == VT_BUF)
				add_buf(sb, &a->args[ai], rec + a->off[ai], mode);
			ai++;
			continue;
		}
		if (f[i] == 's') {
			struct strbuf tmp = { 0 };

			strbuf_reset(&tmp);
			add_value(b, &tmp, &a->args[ai], rec + a->off[ai]);
			spec[k] = 's';
			spec[k + 1] = 0;
			strbuf_addf(sb, spec, tmp.s);
			strbuf_free(&tmp);
			ai++;
			continue;
		}
		memcpy(&v, rec + a->off[ai], 8);
		ai++;
		if (f[i] == 'p') {
			spec[k] = 0;
			strbuf_addf(sb, "0x%llx", (unsigned long long)v);
			continue;
		}
		if (f[i] == 'c') {
			spec[k] = 'c';
			spec[k + 1] = 0;
			snprintf(out, sizeof(out), spec, (int)(unsigned char)v);
		} else if (wide) {
			spec[k] = 'l';
			spec[k + 1] = 'l';
			spec[k + 2] = f[i];
			spec[k + 3] = 0;
			snprintf(out, sizeof(out), spec, (long long)v);
		} else {
			spec[k] = f[i];
			spec[k + 1] = 0;
			snprintf(out, sizeof(out), spec, (int)v);
		}
		strbuf_add(sb, out);
	}
}

static void print_map(struct bt_out *b, const struct bt_map *m, int top, int div);

/* A text record: as it is, or -f json {"type": TYPE, "data": "TEXT"}
 * (quoted = false: a number, as it is). */
static void bt_text(struct bt_out *b, const char *type, const char *s, size_t len, bool quoted)
{
	struct strbuf j = { 0 };

	if (!b->json) {
		fwrite(s, 1, len, stdout);
		return;
	}
	strbuf_reset(&j);
	if (quoted)
		json_str(&j, s);
	else
		strbuf_add(&j, s);
	printf("{\"type\": \"%s\", \"data\": %s}\n", type, j.s);
	strbuf_free(&j);
}

int bt_out_record(struct bt_out *b, const void *data, size_t size)
{
	const uint8_t *rec = data;
	const struct bt_action *a;
	uint64_t id;

	if (size < 8)
		return 0;
	memcpy(&id, rec, 8);
	if (id >= (uint64_t)b->prog->nacts)
		return 0;
	a = &b->prog->acts[id];
	if (size < (size_t)a->size)
		return 0;
	switch (a->kind) {
	case BA_PRINTF: {
		struct strbuf sb = { 0 };

		strbuf_reset(&sb);
		format_printf(b, a, rec, &sb);
		bt_text(b, "printf", sb.s, sb.len, true);
		strbuf_free(&sb);
		return 0;
	}
	case BA_SYSTEM: {
		/* the formatted command through sh, its output ours (0.17) */
		struct strbuf sb = { 0 }, o = { 0 };
		char buf[4096];
		ssize_t k;
		int fd[2] = { -1, -1 }, st;
		pid_t pid = -1;

		strbuf_reset(&sb);
		strbuf_reset(&o);
		format_printf(b, a, rec, &sb);
		fflush(stdout);
		/* fork + sh rather than popen: popen would pull posix_spawn in */
		if (pipe2(fd, O_CLOEXEC) == 0 && (pid = fork()) == 0) {
			dup2(fd[1], 1);
			execl("/bin/sh", "sh", "-c", sb.s, (char *)NULL);
			_exit(127);
		}
		if (pid < 0) {
			fprintf(stderr, "bpftrace: system(\"%s\"): cannot start sh: %s\n", sb.s, strerror(errno));
			if (fd[0] >= 0) {
				close(fd[0]);
				close(fd[1]);
			}
		} else {
			close(fd[1]);
			while ((k = read(fd[0], buf, sizeof(buf))) > 0 || (k < 0 && errno == EINTR))
				if (k > 0)
					strbuf_addn(&o, buf, (size_t)k);
			close(fd[0]);
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
		}
		bt_text(b, "syscall", o.s, o.len, true);
		strbuf_free(&sb);
		strbuf_free(&o);
		return 0;
	}
	case BA_TIME: {
		char buf[256];
		time_t now = time(NULL);
		struct tm tm;

		localtime_r(&now, &tm);
		if (!strftime(buf, sizeof(buf), a->fmt, &tm))
			return 0;
		bt_text(b, "time", buf, strlen(buf), true);
		return 0;
	}
	case BA_EXIT:
		return 1;
	case BA_CAT: {
		char buf[4096];
		struct strbuf sb = { 0 };
		ssize_t n;
		long max, total = 0;
		int fd;

		strbuf_reset(&sb);
		format_printf(b, a, rec, &sb); /* the file's name */
		fd = open(sb.s, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			int e = errno;

			fputs("ERROR: failed to open file '", stderr); /* a traced name may hold control bytes */
			fputs_escaped(sb.s, NULL, stderr);
			fprintf(stderr, "': %s\n", strerror(e));
			strbuf_free(&sb);
			return 0;
		}
		strbuf_reset(&sb);
		/* BPFTRACE_CAT_BYTES_MAX (10k): the bytes of the file shown */
		max = getenv("BPFTRACE_CAT_BYTES_MAX") ? atol(getenv("BPFTRACE_CAT_BYTES_MAX")) : 10240;
		while (total < max && (n = read(fd, buf, sizeof(buf) < (size_t)(max - total) ? sizeof(buf) : (size_t)(max - total))) > 0)
			for (ssize_t i = 0; i < n; i++, total++) {
				unsigned char ch = (unsigned char)buf[i];

				if ((ch < 0x20 && ch != '\n' && ch != '\t') || ch == 0x7f)
					strbuf_addf(&sb, "\\x%02x", ch);
				else
					strbuf_addc(&sb, (char)ch);
			}
		close(fd);
		bt_text(b, "cat", sb.s, sb.len, true);
		strbuf_free(&sb);
		return 0;
	}
	case BA_JOIN: {
		struct strbuf sb = { 0 };
		uint64_t n;
		int sl = b->prog->strlen;

		memcpy(&n, rec + 8, 8);
		strbuf_reset(&sb);
		for (uint64_t i = 0; i < n && i < BT_JOIN_MAX; i++) {
			if (i)
				strbuf_add(&sb, a->fmt);
			add_safe(&sb, (const char *)rec + 16 + i * (uint64_t)sl, (size_t)sl);
		}
		if (!b->json) /* 0.17's JSON join has no line end */
			strbuf_addc(&sb, '\n');
		bt_text(b, "join", sb.s, sb.len, true);
		strbuf_free(&sb);
		return 0;
	}
	case BA_PRINT:
		if (a->map >= 0) {
			print_map(b, &b->prog->maps[a->map], a->top, a->div);
			return 0;
		}
		{ /* print(VALUE): the value and a newline; JSON: a "value" */
			struct strbuf sb = { 0 };

			strbuf_reset(&sb);
			agg_style = b->json ? AS_JSON : AS_VALUE;
			add_value(b, &sb, &a->args[0], rec + a->off[0]);
			if (!b->json)
				strbuf_addc(&sb, '\n');
			bt_text(b, "value", sb.s, sb.len, a->args[0].vt != VT_INT && a->args[0].vt != VT_AGG &&
				a->args[0].vt < VT_ERRNO); /* 0.17 leaves strerror(), macaddr(), cgroup_path() unquoted */
			strbuf_free(&sb);
			return 0;
		}
	case BA_HELPER: {
		/* -k: stdin:L:C-C: WARNING: Failed to NAME: ERROR (-N), the
		 * line and the range under it, as 0.17 */
		int64_t rc;

		memcpy(&rc, rec + 8, 8);
		if (b->json) {
			int line = 1, col = 1, ls = 0, at = bt_loc_begin(b->prog->text, a->top);

			for (int i = 0; i < at && b->prog->text[i]; i++, col++)
				if (b->prog->text[i] == '\n') {
					line++;
					col = 0;
					ls = i + 1;
				}
			col += bt_col_skew(b->prog->text, ls, at);
			printf("{\"type\": \"helper_error\", \"helper\": \"%s\", \"retcode\": %lld, \"line\": %d, \"col\": %d}\n",
			       a->fmt, (long long)rc, line, col);
		} else {
			char msg[160];

			if (rc)
				snprintf(msg, sizeof(msg), "Failed to %s: %s (%lld)", a->fmt, strerror((int)-rc), (long long)rc);
			else
				snprintf(msg, sizeof(msg), "Failed to %s: 0", a->fmt);
			fflush(stdout); /* (the output: stdout, or -o FILE) */
			bt_report_kind(stdout, b->file, b->prog->text, a->top, a->div, "WARNING", msg);
		}
		return 0;
	}
	case BA_CLEAR:
	case BA_ZERO: {
		const struct bt_map *m = &b->prog->maps[a->map];
		struct map_dump d;

		if (map_dump(map_fd_of(b, m), (size_t)m->key_size, (size_t)m->val_size, &d) < 0) {
			err_clear();
			return 0;
		}
		for (size_t i = 0; i < d.n; i++) {
			if (a->kind == BA_CLEAR) {
				bpf_map_delete(map_fd_of(b, m), map_dump_key(&d, i));
			} else {
				memset(map_dump_value(&d, i), 0, (size_t)m->val_size);
				bpf_map_update(map_fd_of(b, m), map_dump_key(&d, i), map_dump_value(&d, i), 0);
			}
		}
		err_clear();
		map_dump_free(&d);
		return 0;
	}
	}
	return 0;
}

/* ---- maps ---- */

struct row {
	const uint8_t *key, *val;
	int64_t sortv;
	size_t order;
	uint64_t *slots;      /* hist/lhist */
	int nslots;
};

static size_t tie_key_len; /* hist maps: ties in key byte order (bpftrace groups them in a std::map) */
static bool sort_unsigned; /* values typed uint64 (count, @x = nsecs...) sort so */

static int row_cmp(const void *x, const void *y)
{
	const struct row *a = x, *b = y;

	if (a->sortv != b->sortv)
		return (sort_unsigned ? (uint64_t)a->sortv < (uint64_t)b->sortv : a->sortv < b->sortv) ? -1 : 1;
	if (tie_key_len) {
		int c = memcmp(a->key, b->key, tie_key_len);

		if (c)
			return c;
	}
	return a->order < b->order ? -1 : a->order > b->order;
}

static void add_key(struct bt_out *b, const struct bt_map *m, const uint8_t *key, struct strbuf *sb, bool json)
{
	int off = 0;

	agg_style = AS_KEY;
	for (int i = 0; i < m->nkeys; i++) {
		if (i)
			strbuf_add(sb, json ? "," : ", ");
		in_key = true;
		add_value(b, sb, &m->keys[i], key + off);
		in_key = false;
		off += (bt_type_size(&m->keys[i]) + 7) & ~7;
	}
}

/* "1K", "512": the hist label numbers. */
static void hist_num(char *buf, size_t size, uint64_t n)
{
	static const char suffix[] = "KMGTPE";
	int k = 0;

	while (n >= 1024 && n % 1024 == 0 && k < 6) {
		n /= 1024;
		k++;
	}
	if (k)
		snprintf(buf, size, "%llu%c", (unsigned long long)n, suffix[k - 1]);
	else
		snprintf(buf, size, "%llu", (unsigned long long)n);
}

/* "2K", "3M", "1500": an lhist label number, as 0.17 shortens it */
static void lhist_num(char *buf, int64_t n)
{
	int k = n && n % 1048576 == 0 ? 1048576 : n && n % 1024 == 0 ? 1024 : 1;

	sprintf(buf, k > 1 ? "%lld%c" : "%lld", (long long)(n / k), k > 1024 ? 'M' : 'K');
}

/* Bucket i's label, and its min/max for JSON. */
static void bucket(const struct bt_map *m, int i, int nslots, char *buf, size_t size, int64_t *lo, int64_t *hi)
{
	char a[32], c[32];

	if (m->agg == AG_HIST) {
		if (i == 0) {
			snprintf(buf, size, "(..., 0)");
			*lo = INT64_MIN;
			*hi = -1;
		} else if (i == 1 || i == 2) {
			snprintf(buf, size, "[%d]", i - 1);
			*lo = *hi = i - 1;
		} else {
			uint64_t l = 1ull << (i - 2), h = l << 1;

			hist_num(a, sizeof(a), l);
			hist_num(c, sizeof(c), h);
			snprintf(buf, size, "[%s, %s)", a, c);
			*lo = (int64_t)l;
			*hi = (int64_t)h - 1;
			if (i == 33) { /* 0.17's int arithmetic: 1 << 31, (1 << 32) - 1 */
				*lo = INT32_MIN;
				*hi = 0;
			}
		}
		return;
	}
	if (i == 0) {
		lhist_num(a, m->lmin);
		snprintf(buf, size, "(..., %s)", a);
		*lo = INT64_MIN;
		*hi = m->lmin - 1;
	} else if (i == nslots - 1) {
		lhist_num(a, m->lmax);
		snprintf(buf, size, "[%s, ...)", a);
		*lo = m->lmax;
		*hi = INT64_MAX;
	} else {
		*lo = m->lmin + (int64_t)(i - 1) * m->lstep;
		*hi = *lo + m->lstep - 1;
		lhist_num(a, *lo);
		lhist_num(c, *lo + m->lstep);
		snprintf(buf, size, "[%s, %s)", a, c);
	}
}

static void print_hist(const struct bt_map *m, const struct row *r, struct strbuf *sb, bool json, int div)
{
	int first = -1, last = -1;
	uint64_t max = 0;
	char label[80];
	int64_t lo, hi;

	for (int i = 0; i < r->nslots; i++)
		if (r->slots[i]) {
			if (first < 0)
				first = i;
			last = i;
			if (r->slots[i] > max)
				max = r->slots[i];
		}
	if (json) {
		strbuf_addc(sb, '[');
		for (int i = first; first >= 0 && i <= last; i++) {
			bucket(m, i, r->nslots, label, sizeof(label), &lo, &hi);
			if (sb->s[sb->len - 1] != '[')
				strbuf_add(sb, ", ");
			strbuf_addc(sb, '{');
			if (lo != INT64_MIN) /* the open ends have no bound there */
				strbuf_addf(sb, "\"min\": %lld, ", (long long)lo);
			if (hi != INT64_MAX)
				strbuf_addf(sb, "\"max\": %lld, ", (long long)hi);
			strbuf_addf(sb, "\"count\": %llu}", (unsigned long long)r->slots[i] / (unsigned)div);
		}
		strbuf_addc(sb, ']');
		return;
	}
	for (int i = first; first >= 0 && i <= last; i++) {
		int bar = (int)((float)r->slots[i] / (float)max * 52); /* 0.17's float, undivided */

		bucket(m, i, r->nslots, label, sizeof(label), &lo, &hi);
		strbuf_addf(sb, "%-16s%8llu |", label, (unsigned long long)r->slots[i] / (unsigned)div);
		for (int k = 0; k < 52; k++)
			strbuf_addc(sb, k < bar ? '@' : ' ');
		strbuf_add(sb, "|\n");
	}
}

static int nslots_of(const struct bt_map *m)
{
	return m->agg == AG_HIST ? 66 : (int)((m->lmax - m->lmin) / m->lstep) + 2;
}

static void print_map(struct bt_out *b, const struct bt_map *m, int top, int div)
{
	struct map_dump d;
	struct row *rows;
	size_t nr = 0;
	bool hist = m->agg == AG_HIST || m->agg == AG_LHIST;
	int tuple = hist ? m->key_size - 8 : m->key_size;
	struct strbuf sb = { 0 };

	if (div <= 0)
		div = 1;
	if (map_dump(map_fd_of(b, m), (size_t)m->key_size, (size_t)m->val_size, &d) < 0) {
		tool_err("bpftrace", "cannot read %s: %s", m->name, err_msg());
		return;
	}
	for (int i = 0; d.n && i < m->nkeys; i++)
		if (m->keys[i].vt == VT_CGPATH || m->keys[i].agg) { /* 0.17 cannot print such a key: it stops there */
			fflush(stdout);
			fputs("ERROR: invalid mapkey argument type\n", stderr);
			b->failed = true;
			map_dump_free(&d);
			return;
		}
	rows = xcalloc(d.n + 1, sizeof(*rows));
	for (size_t i = 0; i < d.n; i++) {
		const uint8_t *k = map_dump_key(&d, i), *v = map_dump_value(&d, i);
		uint64_t x, slot;
		struct row *r = NULL;

		memcpy(&x, v, 8);
		if (hist) {
			memcpy(&slot, k + tuple, 8);
			if (m->agg == AG_HIST && slot > 33 && slot < 66)
				slot = 33; /* 0.17's log2 stops at 2^31 */
			for (size_t j = 0; j < nr; j++)
				if (!memcmp(rows[j].key, k, (size_t)tuple))
					r = &rows[j];
			if (!r) {
				r = &rows[nr++];
				r->key = k;
				r->order = i;
				r->nslots = nslots_of(m);
				r->slots = xcalloc((size_t)r->nslots, sizeof(uint64_t));
			}
			if (slot < (uint64_t)r->nslots) {
				r->slots[slot] += x;
				r->sortv += (int64_t)x;
			}
			continue;
		}
		/* 0.17 keeps max from 0 (a negative is never stored) and min as
		 * 0xffffffff - value (stored while that is >= 0; 0 prints 0) */
		if ((m->agg == AG_MAX && (int64_t)x < 0) || (m->agg == AG_MIN && (int64_t)(0xffffffffULL - x) < 0))
			continue;
		if (m->agg == AG_MIN && x == 0xffffffffULL)
			x = 0;
		r = &rows[nr++];
		r->key = k;
		r->val = v;
		r->order = i;
		if (m->agg == AG_AVG || m->agg == AG_STATS) {
			uint64_t cnt = x, tot;

			memcpy(&tot, v + 8, 8);
			r->sortv = cnt ? (int64_t)tot / (int64_t)cnt : 0;
		} else if (m->agg != AG_VALUE || m->val.vt == VT_INT) {
			r->sortv = (int64_t)x;
		}
	}
	tie_key_len = hist || m->agg == AG_AVG || m->agg == AG_STATS ? (size_t)tuple : 0;
	sort_unsigned = !m->val.sign && m->val.vt == VT_INT && !hist;
	qsort(rows, nr, sizeof(*rows), row_cmp);
	strbuf_reset(&sb);
	if (b->json && !nr && (m->nkeys || m->agg != AG_COUNT)) {
		/* an empty map: nothing at all in JSON (a count without keys reads 0) */
	} else if (b->json) {
		const char *type = hist ? "hist" : m->agg == AG_AVG || m->agg == AG_STATS ? "stats" : "map";

		strbuf_addf(&sb, "{\"type\": \"%s\", \"data\": {", type);
		json_str(&sb, m->name);
		strbuf_add(&sb, ": ");
		if (m->nkeys)
			strbuf_addc(&sb, '{');
	} else if (!nr && !m->nkeys && m->agg == AG_COUNT) {
		strbuf_addf(&sb, "%s: 0\n", m->name); /* a cleared count reads 0 */
	} else if (!nr) {
		/* an empty map: a blank line (two for avg/stats) */
		strbuf_add(&sb, m->agg == AG_AVG || m->agg == AG_STATS ? "\n\n" : "\n");
	}
	for (size_t i = top > 0 && nr > (size_t)top && m->agg != AG_STATS ? nr - (size_t)top : 0; i < nr; i++) {
		const struct row *r = &rows[i];

		if (b->json) {
			if (m->nkeys) {
				struct strbuf k = { 0 };

				strbuf_reset(&k);
				add_key(b, m, r->key, &k, true);
				if (sb.s[sb.len - 1] != '{')
					strbuf_add(&sb, ", ");
				json_str(&sb, k.s);
				strbuf_add(&sb, ": ");
				strbuf_free(&k);
			}
		} else {
			strbuf_add(&sb, m->name);
			if (m->nkeys) {
				strbuf_addc(&sb, '[');
				add_key(b, m, r->key, &sb, false);
				strbuf_addc(&sb, ']');
			}
			strbuf_add(&sb, hist ? ": \n" : ": ");
		}
		if (hist) {
			print_hist(m, r, &sb, b->json, m->agg == AG_HIST ? div : 1); /* lhist: no div in 0.17 */
			if (!b->json)
				strbuf_addc(&sb, '\n');
		} else if (m->agg == AG_AVG || m->agg == AG_STATS) {
			uint64_t cnt, tot;

			memcpy(&cnt, r->val, 8);
			memcpy(&tot, r->val + 8, 8);
			if (m->agg == AG_AVG)
				strbuf_addf(&sb, "%lld", cnt ? (long long)tot / (long long)cnt / div : 0);
			else if (b->json)
				strbuf_addf(&sb, "{\"count\": %llu, \"average\": %lld, \"total\": %lld}", (unsigned long long)cnt,
					    cnt ? (long long)tot / (long long)cnt : 0, (long long)tot);
			else
				strbuf_addf(&sb, "count %llu, average %lld, total %lld", (unsigned long long)cnt,
					    cnt ? (long long)tot / (long long)cnt : 0, (long long)tot);
			if (!b->json)
				strbuf_addc(&sb, '\n');
		} else if (m->agg == AG_VALUE && m->val.vt == VT_AGG) {
			agg_style = b->json ? AS_JSON : AS_VALUE;
			add_value(b, &sb, &m->val, r->val);
			if (!b->json)
				strbuf_addc(&sb, '\n');
		} else if (m->agg == AG_VALUE && m->val.vt > VT_INT) {
			if (b->json && m->val.vt != VT_TIME && m->val.vt < VT_ERRNO) {
				struct strbuf v = { 0 };

				strbuf_reset(&v);
				add_value(b, &v, &m->val, r->val);
				json_str(&sb, v.s);
				strbuf_free(&v);
			} else { /* a time: unquoted in JSON too, as 0.17 prints it */
				add_value(b, &sb, &m->val, r->val);
				if (!b->json)
					strbuf_addc(&sb, '\n');
			}
		} else {
			if (sort_unsigned)
				strbuf_addf(&sb, "%llu", (unsigned long long)r->sortv / (unsigned)div);
			else
				strbuf_addf(&sb, "%lld", (long long)r->sortv / div);
			if (!b->json)
				strbuf_addc(&sb, '\n');
		}
	}
	if (b->json && !nr && (m->nkeys || m->agg != AG_COUNT)) {
	} else if (b->json) {
		if (m->nkeys)
			strbuf_addc(&sb, '}');
		else if (!nr)
			strbuf_addc(&sb, '0');
		strbuf_add(&sb, "}}\n");
	} else if (nr && (m->agg == AG_AVG || m->agg == AG_STATS)) {
		strbuf_addc(&sb, '\n');
	}
	fwrite(sb.s, 1, sb.len, stdout);
	strbuf_free(&sb);
	for (size_t i = 0; i < nr; i++)
		free(rows[i].slots);
	free(rows);
	map_dump_free(&d);
}

static int name_cmp(const void *x, const void *y)
{
	const struct bt_map *a = *(const struct bt_map *const *)x, *b = *(const struct bt_map *const *)y;

	return strcmp(a->name, b->name);
}

void bt_out_exit(struct bt_out *b)
{
	fputs("\n\n", stdout);
	bt_out_maps(b);
}

void bt_out_maps(struct bt_out *b)
{
	const struct bt_map **order = xcalloc((size_t)b->prog->nmaps + 1, sizeof(*order));

	for (int i = 0; i < b->prog->nmaps; i++)
		order[i] = &b->prog->maps[i];
	qsort(order, (size_t)b->prog->nmaps, sizeof(*order), name_cmp);
	for (int i = 0; i < b->prog->nmaps && !b->failed; i++)
		print_map(b, order[i], 0, 0);
	free(order);
	fflush(stdout);
}

void bt_out_dump(const struct bt_prog *p)
{
	static const char *const agg[] = { "value", "count", "sum", "min", "max", "avg", "stats", "hist", "lhist" };
	static const char *const vt[] = { "none", "int64", "string", "kstack", "ustack", "ksym", "inet", "usym", "time",
					  "tuple/struct/array", "buffer", "username", "strerror", "mac_address", "cgroup_path" };

	printf("Program\n");
	for (int i = 0; i < p->np; i++) {
		printf(" probe %d:", i);
		for (int k = 0; k < p->p[i].nap; k++)
			printf(" %s", p->p[i].ap[k].text);
		printf("%s\n", p->p[i].pred ? " (predicate)" : "");
	}
	for (int i = 0; i < p->nmaps; i++) {
		const struct bt_map *m = &p->maps[i];

		printf(" map %s: %s, %d key%s (%d bytes) [", m->name, agg[m->agg], m->nkeys, m->nkeys == 1 ? "" : "s",
		       m->key_size);
		for (int k = 0; k < m->nkeys; k++)
			printf("%s%s", k ? ", " : "", vt[m->keys[k].vt]);
		printf("], value %d bytes\n", m->val_size);
	}
	for (int i = 0; i < p->nvars; i++)
		printf(" variable %s (probe %d): %s\n", p->vars[i].name, p->vars[i].probe, vt[p->vars[i].t.vt]);
	for (int i = 0; i < p->nacts; i++)
		printf(" action %d: %s, record %d bytes\n", i,
		       (const char *const[]){ "printf", "print", "clear", "zero", "exit", "time", "join", "cat" }[p->acts[i].kind],
		       p->acts[i].size);
}
