/* Section names -> program types: the libbpf SEC() conventions this
 * loader knows, read once when an object is opened or a program is
 * generated (the attach mechanism is chosen later, in target.c/attach.c). */
#include <errno.h>
#include <string.h>

#include "lib/err.h"
#include "lib/util.h"
#include "obj_int.h"

struct sec_def {
	const char *prefix;   /* "name/" = prefix with a target; "name" = exact */
	enum attach_kind kind;
	uint32_t prog_type;
	uint32_t eat;         /* expected attach type */
	bool sleepable;
};

static const struct sec_def sec_defs[] = {
	{ "tracepoint/", ATTACH_TRACEPOINT, BPF_PROG_TYPE_TRACEPOINT, 0 },
	{ "tp/", ATTACH_TRACEPOINT, BPF_PROG_TYPE_TRACEPOINT, 0 },
	{ "raw_tracepoint/", ATTACH_RAW_TP, BPF_PROG_TYPE_RAW_TRACEPOINT, 0 },
	{ "raw_tp/", ATTACH_RAW_TP, BPF_PROG_TYPE_RAW_TRACEPOINT, 0 },
	{ "tp_btf/", ATTACH_TP_BTF, BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP },
	{ "fentry/", ATTACH_FENTRY, BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY },
	{ "fexit/", ATTACH_FEXIT, BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT },
	{ "fentry.s/", ATTACH_FENTRY, BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, true },
	{ "fexit.s/", ATTACH_FEXIT, BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT, true },
	{ "kprobe/", ATTACH_KPROBE, BPF_PROG_TYPE_KPROBE, 0 },
	{ "kretprobe/", ATTACH_KRETPROBE, BPF_PROG_TYPE_KPROBE, 0 },
	{ "ksyscall/", ATTACH_KSYSCALL, BPF_PROG_TYPE_KPROBE, 0 },
	{ "kretsyscall/", ATTACH_KRETSYSCALL, BPF_PROG_TYPE_KPROBE, 0 },
	{ "uprobe/", ATTACH_UPROBE, BPF_PROG_TYPE_KPROBE, 0 },
	{ "uretprobe/", ATTACH_URETPROBE, BPF_PROG_TYPE_KPROBE, 0 },
	{ "iter/", ATTACH_ITER, BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER },
	/* USDT: uprobe programs reading their arguments through the
	 * usdt.bpf.h maps; attaching them (notes, specs, cookies) is for the
	 * dynamic-tracing layer: for now they load and stay unattached */
	{ "usdt/", ATTACH_USDT, BPF_PROG_TYPE_KPROBE, 0 },
	{ "usdt.s/", ATTACH_USDT, BPF_PROG_TYPE_KPROBE, 0, true },
	/* no automatic attachment */
	{ "kprobe", ATTACH_KPROBE, BPF_PROG_TYPE_KPROBE, 0 },
	/* attached by hand: prog_attach_kprobes */
	{ "kprobe.multi", ATTACH_NONE, BPF_PROG_TYPE_KPROBE, BPF_TRACE_KPROBE_MULTI },
	{ "kretprobe.multi", ATTACH_NONE, BPF_PROG_TYPE_KPROBE, BPF_TRACE_KPROBE_MULTI },
	{ "kretprobe", ATTACH_KRETPROBE, BPF_PROG_TYPE_KPROBE, 0 },
	{ "uprobe", ATTACH_UPROBE, BPF_PROG_TYPE_KPROBE, 0 },
	{ "uretprobe", ATTACH_URETPROBE, BPF_PROG_TYPE_KPROBE, 0 },
	{ "usdt", ATTACH_USDT, BPF_PROG_TYPE_KPROBE, 0 },
	{ "usdt.s", ATTACH_USDT, BPF_PROG_TYPE_KPROBE, 0, true },
	{ "tracepoint", ATTACH_TRACEPOINT, BPF_PROG_TYPE_TRACEPOINT, 0 },
	{ "raw_tp", ATTACH_RAW_TP, BPF_PROG_TYPE_RAW_TRACEPOINT, 0 },
	{ "perf_event", ATTACH_NONE, BPF_PROG_TYPE_PERF_EVENT, 0 },
	{ "socket", ATTACH_NONE, BPF_PROG_TYPE_SOCKET_FILTER, 0 },
};

int prog_setup_type(struct prog *p)
{
	for (size_t i = 0; i < ARRAY_SIZE(sec_defs); i++) {
		const struct sec_def *d = &sec_defs[i];
		size_t n = strlen(d->prefix);

		if (d->prefix[n - 1] == '/' ? strncmp(p->sec_name, d->prefix, n)
					    : strcmp(p->sec_name, d->prefix))
			continue;
		p->kind = d->kind;
		p->type = d->prog_type;
		p->expected_attach_type = d->eat;
		p->sleepable = d->sleepable;
		if (d->prefix[n - 1] == '/' && p->sec_name[n])
			p->target = xstrdup(p->sec_name + n);
		return 0;
	}
	return err_set(ENOTSUP, "program %s: unknown section name '%s'", p->name, p->sec_name);
}
