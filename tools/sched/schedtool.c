/* runqlat and cpudist: the shared user side (see schedtool.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/strbuf.h"
#include "lib/util.h"
#include "schedtool.h"

BPF_OBJ_DECLARE(schedhist);

int schedtool_parse(struct schedtool *st, int key, const char *arg)
{
	switch (key) {
	case 'T': st->iv.timestamp = true; break;
	case 'm': st->ms = true; break;
	case 'P': schedtool_set_key(st, SCHEDHIST_PID); break;
	case 'L': schedtool_set_key(st, SCHEDHIST_TID); break;
	case SCHEDTOOL_KEY_CGROUPS: schedtool_set_key(st, SCHEDHIST_CGROUP); break;
	case 'p': st->pid = (unsigned)opt_pid(st->help, "PID", arg); break;
	case 'c': st->cgroup = arg; break;
	case 0: interval_arg(st->help, &st->iv, &st->npos, arg); break;
	default: return 1;
	}
	return 0;
}

void schedtool_set_key(struct schedtool *st, enum schedhist_key key)
{
	if (st->key != SCHEDHIST_ALL && st->key != key)
		opt_usage_error(st->help, "%s can't be used together", st->mode == SCHEDHIST_RUNQLAT
				? "--pidnss, --cgroups, -P/--pids and -L/--tids"
				: "--cgroups, -P/--pids and -L/--tids");
	st->key = key;
}

struct entry {
	__u32 key;
	struct schedhist h;
};

struct report {
	struct schedtool *st;
	struct obj *o;
	__u32 *keys;
	struct schedhist *vals;
	struct entry *entries;
	bool batch;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

static int report(void *ctx)
{
	struct report *r = ctx;
	struct schedtool *st = r->st;
	const struct out_hist *oh = st->ms ? st->hist_ms : st->hist_us;
	static const char *const section[] = { NULL, "pid", "tid", "pidns", "cgroup" };
	unsigned long long count = 0;
	double total = 0, div = st->ms ? 1e6 : 1e3;
	struct strbuf head = { 0 };
	long n, i;

	n = tool_map_drain(map_fd(obj_map(r->o, "hists")), sizeof(*r->keys), sizeof(*r->vals), r->keys,
			   r->vals, SCHEDHIST_MAX_ENTRIES, &r->batch);
	if (n < 0) {
		tool_err(tool_applet, "cannot read the histograms: %s", strerror((int)-n));
		return -1;
	}
	for (i = 0; i < n; i++) {
		r->entries[i].key = r->keys[i];
		r->entries[i].h = r->vals[i];
	}
	qsort(r->entries, (size_t)n, sizeof(*r->entries), cmp_entry);
	for (i = 0; i < n; i++) {
		const struct entry *e = &r->entries[i];
		char comm[64], id[16], path[4096];
		struct out_label labels[2];
		double sum = (double)e->h.sum_ns / div;
		int nl = 0;

		strbuf_reset(&head);
		if (st->key == SCHEDHIST_CGROUP) { /* the path; the last task's name means nothing */
			const char *cg = cgroup_path_of(e->key);

			if (cg)
				str_escape(path, sizeof(path), cg, "");
			else
				snprintf(path, sizeof(path), "%u", e->key);
			strbuf_addf(&head, "\ncgroup = %s\n", path);
			labels[nl++] = (struct out_label){ "cgroup", path };
		} else if (st->key != SCHEDHIST_ALL) {
			str_escape(comm, sizeof(comm), e->h.comm, "");
			snprintf(id, sizeof(id), st->key == SCHEDHIST_PIDNS ? "%u" : "%d", e->key);
			strbuf_addf(&head, "\n%s = %s %s\n", section[st->key], id, comm);
			labels[nl++] = (struct out_label){ section[st->key], id };
			labels[nl++] = (struct out_label){ "comm", comm };
		}
		out_hist(oh, head.s, labels, nl, e->h.slots, SCHEDHIST_MAX_SLOTS, &sum);
		total += (double)e->h.sum_ns;
		for (int s = 0; s < SCHEDHIST_MAX_SLOTS; s++)
			count += e->h.slots[s];
	}
	strbuf_free(&head);
	/* bcc cpudist -e: the extension summary over every histogram */
	if (st->ext && count) {
		long long tot = (long long)(total / div);

		out_text("\navg = %lld %s, total: %lld %s, count: %llu\n", tot / (long long)count, oh->unit,
			 tot, oh->unit, count);
		out_doc_num("count", (double)count, NULL);
		out_doc_num("total", (double)tot, NULL);
	}
	return 0;
}

int schedtool_run(struct schedtool *st)
{
	const char *name = tool_applet;
	struct report r = { .st = st, .batch = true };
	int cgfd, ret;
	bool tp = tool_no_kbtf();
	struct obj *o;

	if (tp && st->key == SCHEDHIST_PIDNS) {
		tool_err(name, "--pidnss reads task_struct, and this kernel has no BTF: pass --btf FILE "
			 "('corebox btf min' makes one from the kernel's vmlinux, see README)");
		return 1;
	}
	o = tool_open(name, schedhist_bpf_obj, (size_t)(schedhist_bpf_obj_end - schedhist_bpf_obj));
	OBJ_SET(o, mode, (uint8_t)st->mode);
	OBJ_SET(o, key_mode, (uint8_t)st->key);
	OBJ_SET(o, targ_ms, (uint8_t)st->ms);
	OBJ_SET(o, include_idle, (uint8_t)st->idle);
	OBJ_SET(o, targ_tgid, (uint32_t)st->pid);
	/* runqlat's histogram has libbpf-tools' 26 slots (the last one
	 * holds everything from 2^25 up), cpudist's 36 */
	OBJ_SET(o, max_slots, (uint32_t)(st->mode == SCHEDHIST_RUNQLAT ? 26 : SCHEDHIST_MAX_SLOTS));
	if (st->cgroup)
		OBJ_SET(o, filter_cg, (uint8_t)1);
	/* threads timed at once: runnable ones (runqlat), running ones
	 * (on-CPU), but every sleeping one off-CPU; the hash's buckets cost
	 * kernel memory by max_entries even without preallocation */
	if (st->mode != SCHEDHIST_OFFCPU)
		map_set_max_entries(obj_map(o, "start"), SCHEDHIST_MAX_ENTRIES);
	/* the tp_btf programs (raw_tp on older kernels), or without kernel
	 * BTF the perf tracepoints, whose records name the threads */
	static const char *const progs[] = { "sched_switch", "sched_wakeup", "sched_wakeup_new" };
	char nm[32];

	for (int i = 0; i < 3; i++)
		for (int t = 0; t < 2; t++) {
			snprintf(nm, sizeof(nm), "%s%s", progs[i], t ? "_tp" : "");
			if (t != tp || (i && st->mode != SCHEDHIST_RUNQLAT))
				prog_set_autoload(obj_prog(o, nm), false);
		}
	if (tool_load_attach_cgroup(o, name, st->cgroup, &cgfd) < 0)
		return 1;
	r.o = o;
	r.keys = xcalloc(SCHEDHIST_MAX_ENTRIES, sizeof(*r.keys));
	r.vals = xcalloc(SCHEDHIST_MAX_ENTRIES, sizeof(*r.vals));
	r.entries = xcalloc(SCHEDHIST_MAX_ENTRIES, sizeof(*r.entries));
	tool_signals();
	out_info("%s", st->banner);
	tool_flush();
	ret = interval_loop(&st->iv, report, &r);
	free(r.keys);
	free(r.vals);
	free(r.entries);
	obj_close(o);
	if (cgfd >= 0)
		close(cgfd);
	return ret;
}
