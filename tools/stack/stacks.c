/* Stack ids -> frames -> multi-line, folded and aggregated output. */
#include "tools/stack/stacks.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/sys.h"
#include "tools/common/out.h"
#include "err.h"
#include "util.h"

/* A folded frame: control characters escaped as in every text column
 * (they would break the line), ';' (it would split the frame) as ':'. */
static void fold_add(struct strbuf *b, const char *s, const char *suffix)
{
	if (b->len)
		strbuf_add(b, ";");
	size_t at = b->len;

	strbuf_add_escaped(b, s, NULL); /* (out_escaped's rule) */
	for (char *p = b->s + at; *p; p++)
		if (*p == ';')
			*p = ':';
	if (suffix)
		strbuf_add(b, suffix);
}

void stacks_fold_name(struct strbuf *b, const char *name)
{
	fold_add(b, name, NULL);
}

/* ---- set-up ---- */

int stacks_init(struct stacks *s, int map_fd, unsigned depth, unsigned flags)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->map_fd = map_fd;
	s->depth = depth ? depth : 127;
	s->flags = flags;
	if (!(flags & STACKS_NO_KERNEL)) {
		err = ksyms_load(&s->ksyms);
		if (err)
			return err;
	}
	if (!(flags & STACKS_NO_USER))
		s->usyms = usyms_new(flags & STACKS_RAW_NAMES ? USYMS_RAW_NAMES : 0);
	s->ips = xcalloc(s->depth + 1, sizeof(*s->ips));
	return 0;
}

void stacks_fini(struct stacks *s)
{
	ksyms_free(s->ksyms);
	usyms_free(s->usyms);
	free(s->ips);
	memset(s, 0, sizeof(*s));
}

/* ---- reading ---- */

static int has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

unsigned stack_skip_trace_frames(const struct ksyms *ks, const uint64_t *ips, unsigned n)
{
	static const char *const pfx[] = {
		"bpf_prog_", "bpf_trace_run", "__bpf_trace_", "__traceiter_", "bpf_dispatcher_",
		"trace_call_bpf", "perf_trace_", "perf_syscall_", "bpf_get_stack", "__bpf_get_stack",
		"bpf_overflow_handler", "__perf_event_overflow", "perf_tp_event",
	};
	unsigned i;

	for (i = 0; i < n; i++) {
		struct ksym k;
		size_t j;

		if (ksyms_lookup(ks, ips[i], &k))
			break;
		if (k.module && !strcmp(k.module, "bpf"))
			continue;
		for (j = 0; j < ARRAY_SIZE(pfx); j++)
			if (has_prefix(k.name, pfx[j]))
				break;
		if (j == ARRAY_SIZE(pfx))
			break;
	}
	return i;
}

/* Every kernel address in the stack map, for the next ksyms_resolve. */
static void want_map(struct stacks *s)
{
	uint64_t *ips = xcalloc(s->depth, sizeof(*ips));
	uint32_t key, next;
	int err;

	for (err = bpf_map_next_key(s->map_fd, NULL, &next); !err; err = bpf_map_next_key(s->map_fd, &key, &next)) {
		key = next;
		if (bpf_map_lookup(s->map_fd, &key, ips) < 0)
			continue;
		for (unsigned i = 0; i < s->depth && ips[i]; i++)
			if ((int64_t)ips[i] < 0) /* kernel addresses have the top bit set */
				ksyms_want(s->ksyms, ips[i]);
	}
	err_clear();
	free(ips);
}

/* Kernel frames are named in one pass over /proc/kallsyms for many
 * addresses (ksyms.h): a stack with an address not named yet brings in
 * its own and every kernel address of the stack map, so a report costs
 * one pass, or one per interval with new stacks. */
static void name_kernel(struct stacks *s, const uint64_t *ips, unsigned n)
{
	unsigned i;

	if (!s->ksyms)
		return;
	for (i = 0; i < n && ksyms_known(s->ksyms, ips[i]); i++)
		;
	if (i == n)
		return;
	for (i = 0; i < n; i++)
		ksyms_want(s->ksyms, ips[i]);
	if (s->map_fd >= 0 && !s->lookup)
		want_map(s);
	if (ksyms_resolve(s->ksyms) < 0)
		err_clear(); /* the frames show as [unknown] */
}

int stacks_read(struct stacks *s, int32_t id, int kernel, const uint64_t **ips)
{
	unsigned n = 0;

	*ips = s->ips;
	if (id == STACK_OMIT || id == -EFAULT)
		return 0;
	if (id < 0) {
		s->lost.all++;
		s->lost.user += !kernel;
		if (id == -ENOMEM || id == -EEXIST) {
			s->full = 1;
			s->lost.full++;
		} else {
			s->lost.error++;
		}
		return -1;
	}
	memset(s->ips, 0, s->depth * sizeof(*s->ips));
	if (s->lookup ? s->lookup(s->lookup_ctx, id, s->ips, s->depth) < 0
		      : s->map_fd < 0 || bpf_map_lookup(s->map_fd, &id, s->ips) < 0) {
		err_clear();
		s->lost.all++;
		s->lost.user += !kernel;
		s->lost.gone++;
		return -1;
	}
	while (n < s->depth && s->ips[n])
		n++;
	if (kernel && s->prefetch) { /* names come later: all the frames */
		for (unsigned i = 0; i < n; i++)
			ksyms_want(s->ksyms, s->ips[i]);
		return (int)n;
	}
	if (kernel)
		name_kernel(s, s->ips, n);
	if (kernel && (s->flags & STACKS_SKIP_TRACE)) {
		unsigned k = stack_skip_trace_frames(s->ksyms, s->ips, n);

		*ips = s->ips + k;
		n -= k;
	}
	return (int)n;
}

void stacks_prefetch_begin(struct stacks *s)
{
	s->prefetch = 1;
	s->saved_lost = s->lost;
	s->saved_full = s->full;
}

void stacks_prefetch_end(struct stacks *s)
{
	s->prefetch = 0;
	s->lost = s->saved_lost;
	s->full = s->saved_full;
	if (s->ksyms && ksyms_resolve(s->ksyms) < 0)
		err_clear(); /* the frames show as [unknown] */
	if (s->usyms)
		usyms_resolve(s->usyms);
}

char *stacks_ksym(struct stacks *s, uint64_t ip, char *buf, size_t size)
{
	if (s->prefetch) {
		ksyms_want(s->ksyms, ip);
		return buf[0] = 0, buf;
	}
	return ksyms_format(s->ksyms, ip, !!(s->flags & (STACKS_OFFSET | STACKS_VERBOSE | STACKS_ADDRESS)), buf, size);
}

char *stacks_usym(struct stacks *s, int pid, uint64_t ip, char *buf, size_t size)
{
	if (!s->usyms)
		return strcpy(buf, "[unknown]");
	if (s->prefetch) {
		usyms_want(s->usyms, pid, ip);
		return buf[0] = 0, buf;
	}
	return usyms_format(s->usyms, pid, ip, !!(s->flags & (STACKS_OFFSET | STACKS_VERBOSE | STACKS_ADDRESS)),
			   !!(s->flags & (STACKS_UNKNOWN_MODULE | STACKS_VERBOSE)), buf, size);
}

/* ---- output ---- */

static const char *missed_text(int pid)
{
	return pid < 0 ? "[Missed Kernel Stack]" : "[Missed User Stack]";
}

int stacks_print_frames(struct stacks *s, FILE *f, const char *indent, int32_t id, int pid,
			int root_first, unsigned skip)
{
	const uint64_t *ips;
	char buf[1024];
	int n = stacks_read(s, id, pid < 0, &ips);

	if (n < 0) {
		fprintf(f, "%s%s\n", indent, missed_text(pid));
		return -1;
	}
	if ((unsigned)n <= skip)
		return 0;
	ips += skip;
	n -= (int)skip;
	for (int i = 0; i < n; i++) {
		int j = root_first ? n - 1 - i : i;
		char *t = pid < 0 ? stacks_ksym(s, ips[j], buf, sizeof(buf))
				  : stacks_usym(s, pid, ips[j], buf, sizeof(buf));

		if (s->flags & STACKS_VERBOSE)
			fprintf(f, "%s#%-2d 0x%016llx %s\n", indent, i, (unsigned long long)ips[j], t);
		else if (s->flags & STACKS_ADDRESS)
			fprintf(f, pid < 0 ? "%s0x%-16llx %s\n" : "%s0x%016llx %s\n", indent, (unsigned long long)ips[j], t);
		else
			fprintf(f, "%s%s\n", indent, t);
	}
	return n;
}

int stacks_fold_frames(struct stacks *s, struct strbuf *b, int32_t id, int pid, int leaf_first,
		       unsigned skip)
{
	const uint64_t *ips;
	char buf[1024];
	int n = stacks_read(s, id, pid < 0, &ips);
	const char *ann = pid < 0 && (s->flags & STACKS_ANNOTATE) ? "_[k]" : NULL;

	if (n < 0) {
		fold_add(b, missed_text(pid), NULL);
		return -1;
	}
	if ((unsigned)n <= skip)
		return 0;
	ips += skip;
	n -= (int)skip;
	for (int i = 0; i < n; i++) {
		int j = leaf_first ? i : n - 1 - i;

		fold_add(b, pid < 0 ? stacks_ksym(s, ips[j], buf, sizeof(buf))
				    : stacks_usym(s, pid, ips[j], buf, sizeof(buf)), ann);
	}
	return n;
}

int stacks_json_frames(struct stacks *s, struct strbuf *b, int32_t id, int pid)
{
	const uint64_t *ips;
	char buf[1024];
	int n = stacks_read(s, id, pid < 0, &ips);

	strbuf_addc(b, '[');
	if (n < 0)
		json_str(b, missed_text(pid));
	for (int i = 0; i < n; i++) {
		if (i)
			strbuf_addc(b, ',');
		json_str(b, pid < 0 ? stacks_ksym(s, ips[i], buf, sizeof(buf))
				    : stacks_usym(s, pid, ips[i], buf, sizeof(buf)));
	}
	strbuf_addc(b, ']');
	return n;
}

void stacks_json(struct stacks *s, const struct stack_rec *r, struct strbuf *b)
{
	strbuf_add(b, "\"comm\":");
	json_str(b, r->comm ? r->comm : "");
	strbuf_addf(b, ",\"pid\":%d,", r->pid);
	if (r->kid != STACK_OMIT) {
		strbuf_add(b, "\"kernel\":");
		stacks_json_frames(s, b, r->kid, -1);
		strbuf_addc(b, ',');
	}
	if (r->uid != STACK_OMIT) {
		strbuf_add(b, "\"user\":");
		stacks_json_frames(s, b, r->uid, r->pid);
		strbuf_addc(b, ',');
	}
}

void stacks_print(struct stacks *s, FILE *f, const struct stack_rec *r)
{
	if (r->kid != STACK_OMIT)
		stacks_print_frames(s, f, "    ", r->kid, -1, 0, 0);
	if (r->uid != STACK_OMIT) {
		if ((s->flags & STACKS_DELIM) && r->kid >= 0 && r->uid >= 0)
			fprintf(f, "    --\n");
		stacks_print_frames(s, f, "    ", r->uid, r->pid, 0, 0);
	}
	fprintf(f, "    %-16s ", "-");
	fputs_escaped(r->comm ? r->comm : "", NULL, f);
	fprintf(f, " (%d)\n", r->pid);
	fprintf(f, "        %llu\n\n", (unsigned long long)r->value);
}

void stacks_folded(struct stacks *s, const struct stack_rec *r, struct strbuf *line)
{
	strbuf_reset(line);
	fold_add(line, r->comm && *r->comm ? r->comm : "[unknown]", NULL);
	if (r->uid != STACK_OMIT)
		stacks_fold_frames(s, line, r->uid, r->pid, 0, 0);
	if (r->kid != STACK_OMIT) {
		if ((s->flags & STACKS_DELIM) && r->kid >= 0 && r->uid >= 0)
			fold_add(line, "-", NULL);
		stacks_fold_frames(s, line, r->kid, -1, 0, 0);
	}
}

void stacks_folded_offwake(struct stacks *s, const struct offwake_rec *r, struct strbuf *line)
{
	int delim = !!(s->flags & STACKS_DELIM);

	strbuf_reset(line);
	fold_add(line, r->tcomm && *r->tcomm ? r->tcomm : "[unknown]", NULL);
	if (r->tuid != STACK_OMIT)
		stacks_fold_frames(s, line, r->tuid, r->tpid, 0, 0);
	if (r->tkid != STACK_OMIT) {
		if (delim && r->tkid >= 0 && r->tuid >= 0)
			fold_add(line, "-", NULL);
		stacks_fold_frames(s, line, r->tkid, -1, 0, 0);
	}
	fold_add(line, "--", NULL);
	if (r->wkid != STACK_OMIT)
		stacks_fold_frames(s, line, r->wkid, -1, 1, 0);
	if (r->wuid != STACK_OMIT) {
		if (delim && r->wkid >= 0 && r->wuid >= 0)
			fold_add(line, "-", NULL);
		stacks_fold_frames(s, line, r->wuid, r->wpid, 1, 0);
	}
	fold_add(line, r->wcomm && *r->wcomm ? r->wcomm : "[unknown]", NULL);
}

void stacks_report_missed(const struct stacks *s, FILE *f)
{
	const char *sep = ":";

	if (!s->lost.all)
		return;
	fprintf(f, "WARNING: %llu stack traces could not be displayed (%llu user, %llu kernel)",
		(unsigned long long)s->lost.all, (unsigned long long)s->lost.user,
		(unsigned long long)(s->lost.all - s->lost.user));
	if (s->lost.full) {
		fprintf(f, "%s %llu stack map hash collisions or a full map", sep,
			(unsigned long long)s->lost.full);
		sep = ",";
	}
	if (s->lost.gone) {
		fprintf(f, "%s %llu no longer in the stack map", sep, (unsigned long long)s->lost.gone);
		sep = ",";
	}
	if (s->lost.error)
		fprintf(f, "%s %llu not captured by the kernel", sep, (unsigned long long)s->lost.error);
	fprintf(f, ".%s\n", s->full ? " Consider increasing --stack-storage-size." : "");
}

/* ---- aggregation of folded lines ---- */

struct fold_ent {
	char *line;
	uint64_t count;
};

struct fold_agg {
	struct fold_ent *e;
	size_t n, cap;
	uint32_t *tab;         /* open addressing: index + 1, 0 = empty */
	size_t tsize;          /* power of two, > 2 * n */
};

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void agg_rehash(struct fold_agg *a, size_t tsize)
{
	free(a->tab);
	a->tsize = tsize;
	a->tab = xcalloc(tsize, sizeof(*a->tab));
	for (size_t i = 0; i < a->n; i++) {
		size_t h = hash_str(a->e[i].line) & (tsize - 1);

		while (a->tab[h])
			h = (h + 1) & (tsize - 1);
		a->tab[h] = (uint32_t)(i + 1);
	}
}

struct fold_agg *fold_agg_new(void)
{
	struct fold_agg *a = xcalloc(1, sizeof(*a));

	agg_rehash(a, 256);
	return a;
}

void fold_agg_free(struct fold_agg *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++)
		free(a->e[i].line);
	free(a->e);
	free(a->tab);
	free(a);
}

void fold_agg_add(struct fold_agg *a, const char *line, uint64_t count)
{
	size_t h = hash_str(line) & (a->tsize - 1);

	for (; a->tab[h]; h = (h + 1) & (a->tsize - 1))
		if (!strcmp(a->e[a->tab[h] - 1].line, line)) {
			a->e[a->tab[h] - 1].count += count;
			return;
		}
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 64;
		a->e = xrealloc(a->e, a->cap * sizeof(*a->e));
	}
	a->e[a->n].line = xstrdup(line);
	a->e[a->n].count = count;
	a->tab[h] = (uint32_t)++a->n;
	if (a->n * 2 >= a->tsize)
		agg_rehash(a, a->tsize * 2);
}

size_t fold_agg_len(const struct fold_agg *a)
{
	return a->n;
}

static int ent_cmp(const void *x, const void *y)
{
	return strcmp(((const struct fold_ent *)x)->line, ((const struct fold_ent *)y)->line);
}

void fold_agg_sort(struct fold_agg *a)
{
	if (a->n)
		qsort(a->e, a->n, sizeof(*a->e), ent_cmp);
	agg_rehash(a, a->tsize);
}

const char *fold_agg_line(const struct fold_agg *a, size_t i, uint64_t *count)
{
	if (i >= a->n)
		return NULL;
	if (count)
		*count = a->e[i].count;
	return a->e[i].line;
}

int fold_agg_read(struct fold_agg *a, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	while ((len = getline(&line, &cap, f)) > 0) {
		char *sp, *end;
		unsigned long long c;

		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		sp = strrchr(line, ' ');
		if (!sp || sp == line)
			continue;
		c = strtoull(sp + 1, &end, 10);
		if (end == sp + 1 || *end)
			continue;
		*sp = 0;
		fold_agg_add(a, line, c);
	}
	free(line);
	return ferror(f) ? err_set(EIO, "cannot read folded stacks") : 0;
}
