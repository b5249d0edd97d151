/* A kernel without BTF (armhf, OpenWrt, most embedded builds): the CO-RE
 * target made from what the kernel does describe, its tracepoint format
 * files.  The tools' tracepoint programs read their records through
 * struct trace_event_raw_NAME (vmlinux.h, preserve_access_index); each
 * such type the object's CO-RE records name becomes a struct of the same
 * name whose members are the format's fields at the format's offsets and
 * sizes, "ent" being struct trace_entry (the common_* fields).  The
 * relocations then run as usual: a field the format has is found, one it
 * lacks is poisoned, and so is everything else (task_struct, sock, ...;
 * struct pt_regs excepted: its layout is the ABI's, see regs_format): a program that reaches such a read is refused
 * by the verifier and load.c names the field and says to pass --btf.
 *
 * Which format: trace_event_raw_X is the record of the event class X, and
 * an event of the same name exists for TRACE_EVENT classes (raw_syscalls'
 * sys_enter and sys_exit serve the syscalls:* records, whose layout is
 * theirs).  For a DECLARE_EVENT_CLASS the tracepoint a program using the
 * type attaches to is an event of that class. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/tp_format.h"
#include "bpf/tracefs.h"
#include "btf/relo_core.h"
#include "lib/err.h"
#include "lib/util.h"
#include "obj_int.h"

#define RAW_PREFIX "trace_event_raw_"

struct tp_type {
	uint32_t local_id;     /* root type in the program BTF */
	char *name;            /* its essential name: trace_event_raw_X */
	const char *via;       /* a tracepoint program using it: CAT/NAME, or NULL */
	struct tp_format fmt;  /* n == 0: no format found */
};

struct synth {
	struct btfw *w;
	uint32_t ptr_sz;
	uint32_t ints[2][4];   /* [signed][log2 size]: INT ids, 0 = not yet */
	uint32_t ptr;          /* void * */
	uint32_t entry;        /* struct trace_entry */
	uint32_t entry_size;
};

/* "trace_event_raw_foo___flavor" -> malloc'd "trace_event_raw_foo", or NULL. */
static char *raw_type_name(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf_type_by_id(btf, id);
	const char *n = t ? btf_name(btf, t) : NULL;
	char *e, *fl;

	if (!n || (strncmp(n, RAW_PREFIX, sizeof(RAW_PREFIX) - 1) && strncmp(n, "pt_regs", 7)) ||
	    btf_kind(t) != BTF_KIND_STRUCT)
		return NULL;
	e = xstrdup(n);
	if ((fl = strstr(e, "___")))
		*fl = 0;
	return e;
}

/* The tracepoint program whose code holds instruction insn_off of section sec. */
static const char *tp_prog_at(const struct obj *o, const char *sec, uint32_t insn_off)
{
	for (size_t i = 0; i < o->nr_progs; i++) {
		const struct prog *p = &o->progs[i];
		size_t idx = insn_off / 8;

		if (p->kind == ATTACH_TRACEPOINT && p->target && !strcmp(p->code->name, sec) && idx >= p->start &&
		    idx < p->start + p->len)
			return p->target;
	}
	return NULL;
}

static int read_event(const char *cat, const char *ev, struct tp_format *f)
{
	int err = tp_format_read(cat, ev, f);

	if (err < 0)
		err_clear();
	return err;
}

/* The format of event EV in any category (events/ read once per type). */
static int find_event(const char *ev, struct tp_format *f)
{
	char path[512];
	struct dirent *d;
	DIR *dir;
	int err = -ENOENT;

	if (!tracefs_path(path, sizeof(path), "events"))
		return -ENOENT;
	if (!(dir = opendir(path)))
		return -ENOENT;
	while (err < 0 && (d = readdir(dir)))
		if (d->d_name[0] != '.' && strlen(d->d_name) + strlen(ev) < 200)
			err = read_event(d->d_name, ev, f);
	closedir(dir);
	return err;
}

/* struct pt_regs (kprobe and uprobe contexts) has the layout of the
 * architecture's ABI, the same with or without BTF: the UAPI struct
 * pt_regs on x86_64; user_pt_regs, orig_x0 and syscallno on arm64.  (The
 * 32-bit arm programs read uregs[] at fixed offsets, with no CO-RE.) */
static void regs_format(struct tp_format *f)
{
#if defined(__x86_64__)
	static const char names[] = "r15 r14 r13 r12 bp bx r11 r10 r9 r8 ax cx dx si di orig_ax ip cs flags sp ss";
	char text[1200], *p = text;
	const char *n = names;

	for (int off = 0; *n; off += 8) {
		size_t len = strcspn(n, " ");

		p += sprintf(p, "field:unsigned long %.*s;offset:%d;size:8;\n", (int)len, n, off);
		n += len + (n[len] == ' ');
	}
	tp_format_parse(text, f);
#elif defined(__aarch64__)
	tp_format_parse("field:u64 regs[31];offset:0;size:248;\nfield:u64 sp;offset:248;size:8;\n"
			"field:u64 pc;offset:256;size:8;\nfield:u64 pstate;offset:264;size:8;\n"
			"field:u64 orig_x0;offset:272;size:8;\nfield:int syscallno;offset:280;size:4;signed:1;\n",
			f);
#else
	(void)f;
#endif
	err_clear();
}

static void find_format(struct tp_type *ty)
{
	const char *ev = ty->name + sizeof(RAW_PREFIX) - 1, *slash = ty->via ? strchr(ty->via, '/') : NULL;
	char cat[128];

	if (!strcmp(ty->name, "pt_regs")) {
		regs_format(&ty->fmt);
		return;
	}
	if (slash && (size_t)(slash - ty->via) < sizeof(cat)) {
		memcpy(cat, ty->via, (size_t)(slash - ty->via));
		cat[slash - ty->via] = 0;
		if (!strcmp(slash + 1, ev) && read_event(cat, ev, &ty->fmt) == 0)
			return;
	}
	if (find_event(ev, &ty->fmt) == 0)
		return;
	if (slash)
		read_event(cat, slash + 1, &ty->fmt); /* an event of class X */
}

static int log2sz(uint32_t size)
{
	return size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : -1;
}

static uint32_t add(struct synth *s, const char *name, uint32_t info, uint32_t size_or_type, const void *tr,
		    size_t len)
{
	struct btf_type t = { btfw_str(s->w, name), info, { size_or_type } };

	return btfw_add(s->w, &t, tr, len);
}

static uint32_t int_type(struct synth *s, uint32_t size, bool sign)
{
	static const char *const names[2][4] = { { "u8", "u16", "u32", "u64" }, { "s8", "s16", "s32", "s64" } };
	int l = log2sz(size);
	uint32_t enc;

	if (l < 0)
		return 0;
	if (!s->ints[sign][l]) {
		enc = (sign ? BTF_INT_SIGNED : 0) << 24 | size * 8;
		s->ints[sign][l] = add(s, names[sign][l], BTF_KIND_INT << 24, size, &enc, sizeof(enc));
	}
	return s->ints[sign][l];
}

static uint32_t array_of(struct synth *s, uint32_t elem, uint32_t n)
{
	struct btf_array a = { elem, int_type(s, 4, false), n };

	return add(s, NULL, BTF_KIND_ARRAY << 24, 0, &a, sizeof(a));
}

/* The member type of a field; *name may become __data_loc_NAME. */
static uint32_t field_type(struct synth *s, const struct tp_field *f, char *name, size_t nsize)
{
	const char *t = f->type, *br = strchr(t, '[');
	bool ptr = strchr(t, '*') != NULL;

	if (f->data_loc || strstr(t, "__rel_loc")) {
		/* a u32 (offset | length << 16) named as vmlinux.h names it */
		snprintf(name, nsize, "%s_%s", f->data_loc ? "__data_loc" : "__rel_loc", f->name);
		return int_type(s, 4, false);
	}
	snprintf(name, nsize, "%s", f->name);
	if (br) {
		unsigned long n = strtoul(br + 1, NULL, 10);
		uint32_t elem;

		if (n > f->size) /* (size < 64 KiB: tp_format_parse checked) */
			n = 0;

		if (ptr && n && f->size == n * s->ptr_sz) {
			if (!s->ptr)
				s->ptr = add(s, NULL, BTF_KIND_PTR << 24, 0, NULL, 0);
			elem = s->ptr;
		} else if (!n || f->size % n || !(elem = int_type(s, f->size / (uint32_t)n, f->sign))) {
			n = f->size; /* bytes, when the element size is not clear */
			elem = int_type(s, 1, f->sign);
		}
		return array_of(s, elem, (uint32_t)n);
	}
	if (ptr && f->size == s->ptr_sz) {
		if (!s->ptr)
			s->ptr = add(s, NULL, BTF_KIND_PTR << 24, 0, NULL, 0);
		return s->ptr;
	}
	if (!strncmp(t, "enum ", 5)) /* anonymous: CO-RE matches it to any enum */
		return add(s, NULL, BTF_KIND_ENUM << 24, f->size, NULL, 0);
	if (!strncmp(t, "struct ", 7) || !strncmp(t, "union ", 6)) /* opaque, for CO-RE any struct */
		return add(s, NULL, BTF_KIND_STRUCT << 24, f->size, NULL, 0);
	{
		uint32_t id = int_type(s, f->size, f->sign);

		return id ? id : array_of(s, int_type(s, 1, false), f->size);
	}
}

static bool is_common(const struct tp_field *f)
{
	return !strncmp(f->name, "common_", 7);
}

/* struct trace_entry from the common_* fields (the same in every format). */
static uint32_t entry_type(struct synth *s, const struct tp_format *fmt, uint32_t *end)
{
	struct btf_member m[8];
	uint32_t n = 0;
	char name[80];

	*end = 0;
	for (int i = 0; i < fmt->n && n < 8; i++) {
		const struct tp_field *f = &fmt->f[i];

		if (!is_common(f))
			continue;
		m[n].type = field_type(s, f, name, sizeof(name));
		m[n].name_off = btfw_str(s->w, name + 7);
		m[n++].offset = f->off * 8;
		if (f->off + f->size > *end)
			*end = f->off + f->size;
	}
	return add(s, "trace_entry", BTF_KIND_STRUCT << 24 | n, *end, m, n * sizeof(*m));
}

static void raw_type(struct synth *s, const struct tp_type *ty)
{
	struct btf_member *m = xcalloc((size_t)ty->fmt.n + 1, sizeof(*m));
	uint32_t n = 0, end, size;
	char name[300];

	end = 0;
	if (is_common(&ty->fmt.f[0])) {
		if (!s->entry)
			s->entry = entry_type(s, &ty->fmt, &s->entry_size);
		m[n++] = (struct btf_member){ btfw_str(s->w, "ent"), s->entry, 0 };
		end = s->entry_size;
	}
	for (int i = 0; i < ty->fmt.n; i++) {
		const struct tp_field *f = &ty->fmt.f[i];

		if (is_common(f))
			continue;
		m[n].type = field_type(s, f, name, sizeof(name));
		m[n].name_off = btfw_str(s->w, name);
		m[n++].offset = f->off * 8;
		if (f->off + f->size > end)
			end = f->off + f->size;
	}
	size = (end + s->ptr_sz - 1) / s->ptr_sz * s->ptr_sz;
	add(s, ty->name, BTF_KIND_STRUCT << 24 | n, size, m, n * sizeof(*m));
	free(m);
}

/* The kernel's pointer size, as its formats show it: a pointer field's or
 * a long's size, else this program's own. */
static uint32_t kernel_ptr_size(const struct tp_type *tys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < tys[i].fmt.n; k++) {
			const struct tp_field *f = &tys[i].fmt.f[k];

			if ((f->size == 4 || f->size == 8) &&
			    ((strchr(f->type, '*') && !strchr(f->type, '[')) || !strcmp(f->type, "long ") ||
			     !strcmp(f->type, "unsigned long ")))
				return f->size;
		}
	return sizeof(void *);
}

static void add_type(struct obj *o, struct tp_type **tys, size_t *n, uint32_t id, const char *via)
{
	char *name = raw_type_name(o->btf, id);

	if (!name)
		return;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*tys)[i].name, name)) {
			if (!(*tys)[i].via)
				(*tys)[i].via = via;
			free(name);
			return;
		}
	*tys = xrealloc(*tys, (*n + 1) * sizeof(**tys));
	(*tys)[(*n)++] = (struct tp_type){ id, name, via, { 0 } };
}

int kbtf_from_tracefs(struct obj *o, struct kbtf *k)
{
	struct tp_type *tys = NULL;
	struct synth s = { 0 };
	size_t n = 0, found = 0, size;
	void *blob;

	memset(k, 0, sizeof(*k));
	for (uint32_t sec = 0; o->has_ext && sec < o->ext.nr_core; sec++) {
		const struct btf_ext_sec *es = &o->ext.core[sec];

		for (uint32_t r = 0; r < es->nr; r++) {
			const struct core_relo *rec = (const void *)((const char *)es->recs + (size_t)r * es->rec_size);

			add_type(o, &tys, &n, rec->type_id, tp_prog_at(o, es->sec_name, rec->insn_off));
		}
	}
	for (size_t i = 0; i < n; i++) {
		find_format(&tys[i]);
		if (tys[i].fmt.n)
			found++;
	}
	/* even with no type found (32-bit arm reads pt_regs without CO-RE):
	 * the relocations then poison, refusing only programs that reach one
	 * (syscount's -P branch, not its count) */
	s.w = btfw_new();
	s.ptr_sz = kernel_ptr_size(tys, n);
	/* "long": relo_core takes the target's pointer size from it */
	add(&s, "long", BTF_KIND_INT << 24, s.ptr_sz, &(uint32_t){ BTF_INT_SIGNED << 24 | s.ptr_sz * 8 }, 4);
	for (size_t i = 0; i < n; i++)
		if (tys[i].fmt.n)
			raw_type(&s, &tys[i]);
	blob = btfw_finish(s.w, &size);
	btfw_free(s.w);
	if (blob) {
		k->btf = btf_new(blob, size, 1, NULL);
		free(blob);
	}
	snprintf(k->path, sizeof(k->path), "tracepoint formats");
	if (o->verbose)
		fprintf(stderr, "%s: no kernel BTF: %zu of %zu record types from tracepoint formats"
				" (pt_regs: the ABI's)\n", o->name, found, n);
	for (size_t i = 0; i < n; i++) {
		tp_format_free(&tys[i].fmt);
		free(tys[i].name);
	}
	free(tys);
	return k->btf ? 0 : -ENOENT;
}
