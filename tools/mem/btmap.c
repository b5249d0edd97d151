/* bpftrace-style map output (btmap.h). */
#include "btmap.h"

#include <stdio.h>
#include <string.h>

#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/stack/mapdump.h"
#include "tools/stack/stacks.h"
#include "memcount.h"
#include "memtool.h"

void btmap_attaching(int probes)
{
	out_info("Attaching %d probe%s...\n", probes, probes == 1 ? "" : "s");
}

static void json_entry(struct stacks *s, enum btmap_key kind, const struct memcount_key *k, uint64_t n,
		       struct strbuf *b)
{
	char comm[EV_COMM_LEN + 1], name[MEMCOUNT_NAME_LEN + 1];

	strbuf_reset(b);
	strbuf_addc(b, '{');
	if (kind == BTMAP_NAME) {
		memcpy(name, k->name, MEMCOUNT_NAME_LEN);
		name[MEMCOUNT_NAME_LEN] = 0;
		strbuf_add(b, "\"file\":");
		json_str(b, name);
	} else {
		strbuf_addf(b, "\"pid\":%u,\"comm\":", k->pid);
		json_str(b, ev_comm(comm, k->comm));
		if (kind == BTMAP_USTACK_COMM) {
			strbuf_add(b, ",\"user\":");
			stacks_json_frames(s, b, k->stackid, (int)k->pid);
		}
	}
	strbuf_addf(b, ",\"count\":%llu}", (unsigned long long)n);
}

int btmap_print(struct obj *o, const char *tool, enum btmap_key kind, bool folded)
{
	struct stacks s = { 0 };
	struct map_dump d;
	struct strbuf b = { 0 };
	struct fold_agg *agg = NULL;
	bool stacks = kind == BTMAP_USTACK_COMM;
	int ret = 0;

	/* bpftrace's ustack shows offsets; folded lines (flame graphs) must not */
	if (stacks && stacks_init(&s, map_fd(obj_map(o, "stackmap")), 127,
				  (folded ? 0 : STACKS_OFFSET) | STACKS_NO_KERNEL | STACKS_NAMES) < 0) {
		tool_err(tool, "%s", err_msg());
		return 1;
	}
	if (map_dump(map_fd(obj_map(o, "counts")), sizeof(struct memcount_key), sizeof(uint64_t), &d) < 0) {
		tool_err(tool, "cannot read the counts: %s", err_msg());
		if (stacks)
			stacks_fini(&s);
		return 1;
	}
	map_dump_sort(&d, 0, 0);
	if (out_json())
		out_doc_begin();
	else if (folded)
		agg = fold_agg_new();
	else
		printf("\n");
	for (size_t i = 0; i < d.n; i++) {
		const struct memcount_key *k = map_dump_key(&d, i);
		uint64_t n = *(const uint64_t *)map_dump_value(&d, i);
		char comm[EV_COMM_LEN + 1], name[MEMCOUNT_NAME_LEN + 1], safe[4 * MEMCOUNT_NAME_LEN + 8];

		ev_comm(comm, k->comm);
		if (out_json()) {
			json_entry(&s, kind, k, n, &b);
			out_json_value("counts", &b);
		} else if (agg) {
			struct stack_rec r = { comm, (int)k->pid, STACK_OMIT, k->stackid, n };

			stacks_folded(&s, &r, &b);
			fold_agg_add(agg, b.s, n);
		} else if (kind == BTMAP_USTACK_COMM) {
			printf("@[\n");
			stacks_print_frames(&s, stdout, "        ", k->stackid, (int)k->pid, 0, 0);
			printf(", %s]: %llu\n", str_escape(safe, sizeof(safe), comm, ""), (unsigned long long)n);
		} else if (kind == BTMAP_NAME) {
			memcpy(name, k->name, MEMCOUNT_NAME_LEN);
			name[MEMCOUNT_NAME_LEN] = 0;
			printf("@[%s]: %llu\n", str_escape(safe, sizeof(safe), name, ""), (unsigned long long)n);
		} else {
			printf("@[%u, %s]: %llu\n", k->pid, str_escape(safe, sizeof(safe), comm, ""),
			       (unsigned long long)n);
		}
	}
	if (out_json()) {
		if (out_doc_end() < 0)
			ret = 1;
	} else if (agg) {
		fold_agg_sort(agg);
		for (size_t i = 0; i < fold_agg_len(agg); i++) {
			uint64_t c;
			const char *l = fold_agg_line(agg, i, &c);

			printf("%s %llu\n", l, (unsigned long long)c);
		}
		fold_agg_free(agg);
	}
	tool_flush();
	if (stacks) {
		stacks_report_missed(&s, stderr);
		stacks_fini(&s);
	}
	strbuf_free(&b);
	map_dump_free(&d);
	return ret;
}
