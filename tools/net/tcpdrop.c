/* applet tcpdrop: trace TCP drops by the kernel
 * readme: TCP segments the kernel dropped (skb:kfree_skb with a drop reason): addresses, state,
 *     flags, the kernel stack; `-4`/`-6`, `--netns-id`/`--pid-netns`
 *
 * bcc's flags and layout: "TIME PID IP SADDR:SPORT > DADDR:DPORT STATE
 * (FLAGS)", then the kernel stack, a tab before each frame (name+0xoff)
 * and a blank line after.  The drop reason (bcc prints none) is in the
 * JSON record, by its kernel name ("NETFILTER_DROP"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/types.h>

#include "btf/btf.h"
#include "lib/err.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "tools/stack/stacks.h"
#include "inet.h"
#include "tcpdrop.h"

BPF_OBJ_DECLARE(tcpdrop);

#define KEY_NETNS_ID OPT_LONG_ONLY(1)
#define KEY_PID_NETNS OPT_LONG_ONLY(2)

static const struct opt opts[] = {
	{ '4', "ipv4", NULL, "trace IPv4 family only" },
	{ '6', "ipv6", NULL, "trace IPv6 family only" },
	{ KEY_NETNS_ID, "netns-id", "NETNS_ID", "the netns id to filter by" },
	{ KEY_PID_NETNS, "pid-netns", "PID_NETNS", "the pid whose netns to filter by" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-4 | -6] [--netns-id NETNS_ID] [--pid-netns PID_NETNS]",
	.examples = "    tcpdrop           # trace kernel TCP drops\n"
		    "    tcpdrop -4        # trace IPv4 family only\n"
		    "    tcpdrop -6        # trace IPv6 family only\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static struct {
	int family;
	unsigned long netns_id;
	int pid_netns;
	char **reasons; /* enum skb_drop_reason's names by value */
	uint32_t nreasons;
	struct stacks stacks;
	struct strbuf frames;
} env;

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case '4':
	case '6':
		if (env.family)
			opt_usage_error(&help, "argument -%c/--ipv%c: not allowed with argument -%c/--ipv%c", key,
					key, env.family == 2 ? '4' : '6', env.family == 2 ? '4' : '6');
		env.family = key == '4' ? 2 : 10;
		break;
	case KEY_NETNS_ID: env.netns_id = (unsigned long)opt_num(&help, "netns-id", arg, 0, 0xffffffffLL); break;
	case KEY_PID_NETNS: env.pid_netns = opt_pid(&help, "pid-netns", arg); break;
	default: return 1; /* no positional arguments */
	}
	return 0;
}

enum { C_TIME, C_PID, C_IP, C_SRC, C_DST, C_STATE, C_FLAGS, C_SADDR, C_SPORT, C_DADDR, C_DPORT, C_REASON, C_STACK };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY },
	[C_PID] = { "pid", "PID", "%-7d ", OUT_INT },
	[C_IP] = { "ip", "IP", "%-2d ", OUT_INT },
	[C_SRC] = { NULL, "SADDR:SPORT", "%-20s > ", OUT_STR, OUT_TEXT_ONLY },
	[C_DST] = { NULL, "DADDR:DPORT", "%-20s ", OUT_STR, OUT_TEXT_ONLY },
	[C_STATE] = { "state", "STATE", "%s ", OUT_STR },
	[C_FLAGS] = { "flags", "FLAGS", "(%s)\n", OUT_STR },
	[C_SADDR] = { "saddr", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_SPORT] = { "sport", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_DADDR] = { "daddr", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_DPORT] = { "dport", NULL, NULL, OUT_INT, OUT_JSON_ONLY },
	[C_REASON] = { "reason", NULL, NULL, OUT_STR, OUT_JSON_ONLY },
	[C_STACK] = { "stack", NULL, NULL, OUT_STRV, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

/* bcc's tcp.flags2str: the TCP header's flag bits, low to high, "|" between */
static char *flags_str(unsigned flags, char *buf, size_t size)
{
	static const char *const names[] = { "FIN", "SYN", "RST", "PSH", "ACK", "URG", "ECE", "CWR" };
	size_t len = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < 8; i++)
		if (flags & (1u << i))
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "|" : "", names[i]);
	return buf;
}

/* the kernel's name of a drop reason, without SKB_DROP_REASON_ */
static const char *reason_name(uint32_t reason, char *buf, size_t size)
{
	if (reason < env.nreasons && env.reasons[reason])
		return env.reasons[reason];
	snprintf(buf, size, "%u", reason);
	return buf;
}

/* The frames of a kernel stack, NUL-separated, into env.frames; how many. */
static int stack_frames(int32_t id)
{
	const uint64_t *ips;
	char sym[256];
	int n = stacks_read(&env.stacks, id, 1, &ips);

	strbuf_reset(&env.frames);
	for (int i = 0; i < n; i++) {
		stacks_ksym(&env.stacks, ips[i], sym, sizeof(sym));
		strbuf_addn(&env.frames, sym, strlen(sym) + 1);
	}
	return n < 0 ? 0 : n;
}

static int on_event(void *ctx, const void *data, size_t size)
{
	struct tcpdrop_event e;
	union out_val v[ARRAY_SIZE(cols)];
	char hms[16], saddr[48], daddr[48], src[64], dst[64], flags[40], reason[16];
	const char *p;

	(void)ctx;
	if (!ev_copy(&e, sizeof(e), data, size))
		return 0;
	inet_addr_str(e.family, e.saddr, saddr, sizeof(saddr));
	inet_addr_str(e.family, e.daddr, daddr, sizeof(daddr));
	snprintf(src, sizeof(src), "%s:%u", saddr, e.sport);
	snprintf(dst, sizeof(dst), "%s:%u", daddr, e.dport);
	v[C_TIME].s = tool_hms(hms, sizeof(hms));
	v[C_PID].i = e.pid;
	v[C_IP].i = inet_ip_version(e.family);
	v[C_SRC].s = src;
	v[C_DST].s = dst;
	v[C_STATE].s = tcp_state_name(e.state);
	v[C_FLAGS].s = flags_str(e.tcpflags, flags, sizeof(flags));
	v[C_SADDR].s = saddr;
	v[C_SPORT].i = e.sport;
	v[C_DADDR].s = daddr;
	v[C_DPORT].i = e.dport;
	v[C_REASON].s = reason_name(e.reason, reason, sizeof(reason));
	v[C_STACK].strv.n = stack_frames(e.stack_id);
	v[C_STACK].strv.p = env.frames.s;
	v[C_STACK].strv.size = env.frames.len;
	out_row(&table, v);
	if (!out_json()) { /* bcc: a tab before each frame, a blank line after */
		p = env.frames.s;
		for (int i = 0; i < v[C_STACK].strv.n; i++, p += strlen(p) + 1)
			printf("\t%s\n", p);
		printf("\n");
	}
	return 0;
}

static int after_load(struct obj *o)
{
	if (stacks_init(&env.stacks, map_fd(obj_map(o, "stackmap")), 127,
			STACKS_SKIP_TRACE | STACKS_OFFSET | STACKS_NO_USER) < 0) {
		tool_err("tcpdrop", "%s", err_msg());
		return -1;
	}
	return 0;
}

/* The kernel's enum skb_drop_reason: the names for JSON, copied (the
 * loader lets go of the kernel's BTF once loaded), and the value of
 * NOT_SPECIFIED (bcc reports only the drops with a reason above it). */
static void reasons_init(struct obj *o)
{
	struct obj_opts oo = { .btf_path = tool_common.btf_path, .verbose = tool_common.verbose };
	const struct btf *kbtf = obj_kernel_btf(o, &oo);
	int32_t id = kbtf ? btf_find(kbtf, "skb_drop_reason", BTF_KIND_ENUM) : -1;
	const struct btf_type *t = id > 0 ? btf_type_by_id(kbtf, (uint32_t)id) : NULL;
	uint32_t i, n = t ? btf_vlen(t) : 0;

	for (i = 0; i < n; i++)
		if (btf_enums(t)[i].val >= 0 && (uint32_t)btf_enums(t)[i].val < 4096 &&
		    (uint32_t)btf_enums(t)[i].val >= env.nreasons)
			env.nreasons = (uint32_t)btf_enums(t)[i].val + 1;
	env.reasons = env.nreasons ? xcalloc(env.nreasons, sizeof(*env.reasons)) : NULL;
	for (i = 0; i < n; i++) {
		const char *name = btf_str(kbtf, btf_enums(t)[i].name_off);
		int32_t val = btf_enums(t)[i].val;

		if (!name || val < 0 || (uint32_t)val >= env.nreasons)
			continue;
		if (!strcmp(name, "SKB_DROP_REASON_NOT_SPECIFIED"))
			OBJ_SET(o, reason_not_specified, (uint32_t)val);
		if (!strncmp(name, "SKB_DROP_REASON_", 16))
			name += 16;
		env.reasons[val] = xstrdup(name);
	}
}

int tcpdrop_main(int argc, char **argv)
{
	struct tool_events te = { "tcpdrop", NULL, after_load, on_event, &table };
	struct obj *o;
	int ret;

	opt_parse(argc, argv, &help, parse, NULL);
	if (env.pid_netns) {
		char path[64];
		struct stat st;

		if (env.netns_id) {
			tool_err("tcpdrop", "--pid-netns and --netns-id not allowed together");
			return 2;
		}
		snprintf(path, sizeof(path), "/proc/%d/ns/net", env.pid_netns);
		if (stat(path, &st) < 0) {
			tool_err("tcpdrop", "cannot read %s: %s", path, strerror(errno));
			return 1;
		}
		env.netns_id = (unsigned long)st.st_ino;
	}
	tool_signals();
	o = BPF_OBJ_OPEN(tcpdrop);
	if (!o)
		return 1;
	reasons_init(o);
	OBJ_SET(o, target_family, (uint16_t)env.family);
	OBJ_SET(o, target_netns, (uint32_t)env.netns_id);
	ret = tool_run_events(o, &te);
	stacks_report_missed(&env.stacks, stderr);
	stacks_fini(&env.stacks);
	strbuf_free(&env.frames);
	for (uint32_t i = 0; i < env.nreasons; i++)
		free(env.reasons[i]);
	free(env.reasons);
	return ret;
}
