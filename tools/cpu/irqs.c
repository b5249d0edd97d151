/* hardirqs and softirqs: the shared user side (see irqs.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "bpf/cpus.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/common/interval.h"
#include "irqs.h"

BPF_OBJ_DECLARE(irqs);

struct obj *irqs_open(const char *tool, bool soft, bool ns, bool dist, int cpu, const char *cgroup,
		      int *cgfd)
{
	struct obj *o = tool_open(tool, irqs_bpf_obj, (size_t)(irqs_bpf_obj_end - irqs_bpf_obj));
	static const char *const progs[][2] = { { "hardirq_entry", "hardirq_exit" },
						{ "softirq_entry", "softirq_exit" },
						{ "hardirq_entry_tp", "hardirq_exit_tp" } };
	/* hard IRQs without kernel BTF: the perf tracepoint pair (irqs.bpf.c) */
	int use = soft;

	if (!soft && tool_no_kbtf())
		use = 2;

	OBJ_SET(o, targ_ns, (uint8_t)ns);
	OBJ_SET(o, targ_dist, (uint8_t)dist);
	OBJ_SET(o, targ_cpu, (int32_t)cpu);
	if (cgroup)
		OBJ_SET(o, filter_cg, (uint8_t)1);
	for (int p = 0; p < 3; p++)
		for (int i = 0; i < 2 && p != use; i++)
			prog_set_autoload(obj_prog(o, progs[p][i]), false);
	return tool_load_attach_cgroup(o, tool, cgroup, cgfd) < 0 ? NULL : o;
}

static void add_info(struct irqs_info *sum, const struct irqs_info *v)
{
	sum->count += v->count;
	sum->total_ns += v->total_ns;
	if (v->max_ns > sum->max_ns)
		sum->max_ns = v->max_ns;
	for (int s = 0; s < IRQS_MAX_SLOTS; s++)
		sum->slots[s] += v->slots[s];
}

static int cmp_row(const void *a, const void *b)
{
	const struct irqs_row *x = a, *y = b;
	int c;

	if (x->key.vec != y->key.vec)
		return x->key.vec < y->key.vec ? -1 : 1;
	if ((c = strncmp(x->key.name, y->key.name, IRQS_NAME_LEN)))
		return c;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

long irqs_read(struct obj *o, const char *tool, bool per_cpu, struct irqs_row **rows)
{
	static bool batch = true;
	int ncpus = cpus_possible();
	size_t stride = (sizeof(struct irqs_info) + 7) / 8 * 8;
	struct irqs_key *keys;
	char *vals;
	long n, nrows = 0;

	*rows = NULL;
	if (ncpus <= 0) {
		tool_err(tool, "cannot read the possible CPUs");
		return -1;
	}
	keys = xcalloc(IRQS_MAX_ENTRIES, sizeof(*keys));
	vals = xcalloc(IRQS_MAX_ENTRIES, stride * (size_t)ncpus);
	n = tool_map_drain(map_fd(obj_map(o, "infos")), sizeof(*keys), stride * (size_t)ncpus, keys, vals,
			   IRQS_MAX_ENTRIES, &batch);
	if (n < 0) {
		tool_err(tool, "cannot read the counts: %s", strerror((int)-n));
		nrows = -1;
		goto out;
	}
	*rows = xcalloc((size_t)(n ? n : 1) * (per_cpu ? (size_t)ncpus : 1), sizeof(**rows));
	for (long i = 0; i < n; i++) {
		struct irqs_row *sum = NULL;

		keys[i].name[IRQS_NAME_LEN - 1] = 0;
		for (int c = 0; c < ncpus; c++) {
			const struct irqs_info *v = (const void *)(vals + ((size_t)i * (size_t)ncpus + (size_t)c) * stride);

			if (!v->count)
				continue;
			if (per_cpu || !sum) {
				sum = &(*rows)[nrows++];
				sum->key = keys[i];
				sum->cpu = per_cpu ? c : -1;
			}
			add_info(&sum->info, v);
		}
	}
	qsort(*rows, (size_t)nrows, sizeof(**rows), cmp_row);
out:
	free(keys);
	free(vals);
	return nrows;
}

struct run {
	struct obj *o;
	const struct irqs_report *rep;
};

static int report(void *ctx)
{
	const struct run *run = ctx;
	struct irqs_row *rows;
	long n = irqs_read(run->o, run->rep->tool, run->rep->per_cpu, &rows);

	if (n < 0)
		return -1;
	if (run->rep->table)
		out_header(run->rep->table);
	for (long i = 0; i < n; i++)
		run->rep->row(&rows[i]);
	free(rows);
	return 0;
}

int irqs_run(struct obj *o, int cgfd, const struct interval *iv, const struct irqs_report *rep)
{
	struct run run = { o, rep };
	int ret;

	tool_signals();
	out_info("Tracing %s irq event%s... Hit Ctrl-C to end.\n", rep->soft ? "soft" : "hard",
		 rep->counts ? "s" : " time");
	tool_flush();
	ret = interval_loop(iv, report, &run);
	obj_close(o);
	if (cgfd >= 0)
		close(cgfd);
	return ret;
}
