/* applet ttysnoop: watch live output written to a tty or pts device
 * readme: what is written to a tty/pts (libbpf-tools'; fentry or a kprobe on tty_write: it has no tracepoint)
 *
 * libbpf-tools' options: DEVICE as /dev/pts/N, N or a path; -C, -s
 * SIZE, -c COUNT.  The data is printed as it was written, except control
 * bytes other than newline, carriage return, tab and backspace, which are
 * shown as \xNN (libbpf-tools passes escape sequences to the terminal
 * raw); the screen is cleared (without -C) only when stdout is a
 * terminal.  -j: one {"time", "data"} object per write chunk.  On a
 * kernel with neither kprobes nor fentry the tool says so in one line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/types.h>

#include "lib/strbuf.h"
#include "lib/util.h"
#include "tools/common/common.h"
#include "tools/common/kfunc.h"
#include "ttysnoop.h"

BPF_OBJ_DECLARE(ttysnoop);

static const struct opt opts[] = {
	{ 'C', "noclear", NULL, "Don't clear the screen" },
	{ 's', "datasize", "SIZE", "size of the transmitting buffer (default 256)" },
	{ 'c', "datacount", "COUNT", "number of times we check for 'data-size' data (default 16)" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-C] [-s SIZE] [-c COUNT] DEVICE",
	.examples = "    ttysnoop /dev/pts/2    # snoop output from /dev/pts/2\n"
		    "    ttysnoop 2             # snoop output from /dev/pts/2 (shortcut)\n"
		    "    ttysnoop /dev/console  # snoop output from the system console\n"
		    "    ttysnoop /dev/tty0     # snoop output from /dev/tty0\n"
		    "    ttysnoop 2 -s 1024     # snoop output from /dev/pts/2 with data size 1024\n"
		    "    ttysnoop 2 -c 2        # snoop output from /dev/pts/2 with 2 checks for 256 bytes of data in buffer "
		    "(potentially retrieving 512 bytes)\n",
	.opts = opts,
	.flags = OPT_EVENTS,
};

static struct {
	bool noclear, verbose_way;
	long size, count;
	const char *device;
	enum kfunc_way way;
} env = { .size = 256, .count = 16 };

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	switch (key) {
	case 'C': env.noclear = true; break;
	case 's': env.size = (long)opt_num(&help, "data size", arg, 1, 1L << 30); break;
	case 'c': env.count = (long)opt_num(&help, "data count", arg, 1, 1L << 30); break;
	case 0:
		if (env.device)
			opt_usage_error(&help, "too many devices");
		env.device = arg;
		break;
	default: return 1;
	}
	return 0;
}

static const struct out_col cols[] = {
	{ "data", "DATA", "%s", OUT_STR, OUT_JSON_ONLY },
};
static struct out_table table = OUT_TABLE(NULL, cols);

static int on_event(void *ctx, const void *data, size_t size)
{
	const struct ttysnoop_event *e = data;
	static struct strbuf b;
	size_t n;

	(void)ctx;
	if (size < offsetof(struct ttysnoop_event, buf))
		return 0;
	n = e->count;
	if (n > size - offsetof(struct ttysnoop_event, buf))
		n = size - offsetof(struct ttysnoop_event, buf);
	strbuf_reset(&b);
	if (out_json()) {
		char *s = xmalloc(n + 1);
		union out_val v;

		memcpy(s, e->buf, n);
		s[n] = 0; /* (a NUL written to the tty ends the JSON string) */
		v.s = s;
		out_row(&table, &v);
		free(s);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)e->buf[i];

		if ((c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\b') || c == 0x7f)
			strbuf_addf(&b, "\\x%02x", c);
		else
			strbuf_addc(&b, (char)c);
	}
	fwrite(b.s, 1, b.len, stdout);
	return 0;
}

static int after_load(struct obj *o)
{
	(void)o;
	if (tool_common.verbose)
		fprintf(stderr, "ttysnoop: %s on tty_write\n", kfunc_way_name(env.way));
	if (!env.noclear && !out_json() && isatty(1))
		fputs("\033[H\033[2J", stdout);
	return 0;
}

int ttysnoop_main(int argc, char **argv)
{
	static const char *const tty_write[] = { "tty_write" };
	struct tool_events te = { "ttysnoop", .after_load = after_load, .on_event = on_event };
	char path[4096];
	struct stat st;
	struct obj *o;

	opt_parse(argc, argv, &help, parse, NULL);
	if (!env.device)
		opt_usage_error(&help, "the following arguments are required: DEVICE");
	if (env.device[0] != '/')
		snprintf(path, sizeof(path), "/dev/pts/%s", env.device);
	else
		snprintf(path, sizeof(path), "%s", env.device);
	if (stat(path, &st) < 0)
		opt_usage_error(&help, "cannot stat %s: %s (give /dev/pts/N, N, or a tty's path)", path, strerror(errno));
	o = BPF_OBJ_OPEN(ttysnoop);
	kfunc_pick(o, tty_write, 1, &env.way);
	if (env.way == KFUNC_NONE) {
		tool_err("ttysnoop", "tty_write has no tracepoint, and this kernel has no kprobes and refuses fentry: "
				     "a kernel with either (CONFIG_KPROBES, or BPF trampolines) is needed");
		obj_close(o);
		return 1;
	}
	OBJ_SET(o, pts_ino, (__u64)st.st_ino);
	OBJ_SET(o, read_bytes, (__u32)(env.size >= TTY_BUF ? TTY_BUF - 1 : env.size));
	OBJ_SET(o, read_count, (__u32)(env.count > TTY_MAX_CHUNKS ? TTY_MAX_CHUNKS : env.count));
	prog_set_autoload(obj_prog(o, "tty_write_fentry"), env.way == KFUNC_FENTRY);
	prog_set_autoload(obj_prog(o, "tty_write_kprobe"), env.way == KFUNC_KPROBE);
	tool_signals();
	return tool_run_events(o, &te);
}
