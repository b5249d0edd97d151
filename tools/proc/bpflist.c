/* applet bpflist: list the processes holding BPF programs and maps
 * readme: processes holding BPF programs and maps (from /proc/PID/fd), `-v` bcc's kprobes/uprobes
 *
 * bcc's bpflist: one "PID COMM TYPE COUNT" row per process and kind of
 * BPF object it has a descriptor of (the "anon_inode:bpf-KIND" links in
 * /proc/PID/fd: prog, map; links are "anon_inode:bpf_link", not counted,
 * as bcc), by PID; the TYPE column one wider
 * than its longest value.  -v also counts the kprobes and uprobes bcc
 * created (their tracefs names carry "_bcc_PID"), -vv lists those files
 * first.  No BPF of its own: it reads /proc. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/tracefs.h"
#include "lib/util.h"
#include "tools/common/common.h"

static int verbosity;

static const struct opt opts[] = {
	{ 'v', "verbosity", NULL, "count and display kprobes/uprobes as well" },
	{ 0 },
};

static const struct tool_help help = {
	.usage = "[-h] [-v]",
	.examples = "    bpflist     # display all processes currently using BPF\n"
		    "    bpflist -v  # also count kprobes/uprobes\n"
		    "    bpflist -vv # display kprobes/uprobes and count them\n",
	.opts = opts,
};

static int parse(int key, const char *arg, void *ctx)
{
	(void)ctx;
	(void)arg;
	if (key != 'v')
		return 1;
	verbosity++;
	return 0;
}

struct count {
	int pid;
	char type[32];
	unsigned long n;
	size_t order; /* first seen: bcc's dict keeps that order within a PID */
};

static struct count *counts;
static size_t ncounts, cap;

static void add(int pid, const char *type, size_t len)
{
	struct count *c;

	if (len >= sizeof(c->type))
		len = sizeof(c->type) - 1;
	for (size_t i = 0; i < ncounts; i++)
		if (counts[i].pid == pid && strlen(counts[i].type) == len && !memcmp(counts[i].type, type, len)) {
			counts[i].n++;
			return;
		}
	if (ncounts == cap) {
		cap = cap ? cap * 2 : 64;
		counts = xrealloc(counts, cap * sizeof(*counts));
	}
	c = &counts[ncounts];
	*c = (struct count){ .pid = pid, .n = 1, .order = ncounts };
	memcpy(c->type, type, len);
	c->type[len] = 0;
	ncounts++;
}

/* -v: bcc's probes in tracefs kprobe_events/uprobe_events ("p:kprobes/
 * p_do_sys_open_bcc_1234 do_sys_open"); -vv prints each line.  A
 * kernel without the file (no kprobes, as here) has none to count. */
static void probes(const char *typ)
{
	char rel[32], path[512], line[1024];
	FILE *f;

	snprintf(rel, sizeof(rel), "%s_events", typ);
	f = tracefs_path(path, sizeof(path), rel) ? fopen(path, "re") : NULL;
	if (verbosity > 1)
		printf("open %ss:\n", typ);
	while (f && fgets(line, sizeof(line), f)) {
		const char *m = strstr(line, "_bcc_");

		if (m && isdigit((unsigned char)m[5])) {
			char *end;
			long pid = strtol(m + 5, &end, 10);

			if (isspace((unsigned char)*end) && pid > 0 && pid < 1L << 22)
				add((int)pid, typ, strlen(typ));
		}
		if (verbosity > 1) {
			char safe[sizeof(line) * 4];

			line[strcspn(line, "\n")] = 0;
			printf("%s\n", str_escape(safe, sizeof(safe), line, ""));
		}
	}
	if (f)
		fclose(f);
	if (verbosity > 1)
		printf("\n");
}

/* Each "anon_inode:bpf-KIND" descriptor of process pid. */
static void scan_fds(int pid)
{
	char dir[32], path[300], link[128];
	struct dirent *d;
	DIR *fds;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	if (!(fds = opendir(dir)))
		return; /* gone, or not ours to read */
	while ((d = readdir(fds))) {
		ssize_t n;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		if (!strncmp(link, "anon_inode:bpf-", 15)) {
			size_t len = strspn(link + 15, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");

			if (len)
				add(pid, link + 15, len);
		}
	}
	closedir(fds);
}

static int by_pid(const void *a, const void *b)
{
	const struct count *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

enum { C_PID, C_COMM, C_TYPE, C_COUNT };
static struct out_col cols[] = {
	[C_PID] = { "pid", "PID", "%-6d ", OUT_INT, OUT_LABEL, .hfmt = "%-6s " },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR, OUT_LABEL },
	[C_TYPE] = { "type", "TYPE", NULL, OUT_STR, OUT_LABEL },
	[C_COUNT] = { "count", "COUNT", "%lu\n", OUT_UINT, .hfmt = "%s\n", .help = "BPF objects held" },
};
static struct out_table table = OUT_TABLE("bpf", cols);

int bpflist_main(int argc, char **argv)
{
	char tfmt[32], comm_path[32], comm[64];
	size_t width = 0;
	struct dirent *d;
	DIR *proc;

	opt_parse(argc, argv, &help, parse, NULL);
	if (verbosity > 0) {
		probes("kprobe");
		probes("uprobe");
	}
	if (!(proc = opendir("/proc"))) {
		tool_err("bpflist", "cannot read /proc: %s (is procfs mounted?)", strerror(errno));
		return 1;
	}
	while ((d = readdir(proc))) {
		char *end;
		long pid = strtol(d->d_name, &end, 10);

		if (isdigit((unsigned char)d->d_name[0]) && !*end && pid > 0 && pid <= INT32_MAX)
			scan_fds((int)pid);
	}
	closedir(proc);
	qsort(counts, ncounts, sizeof(*counts), by_pid);
	for (size_t i = 0; i < ncounts; i++)
		if (strlen(counts[i].type) > width)
			width = strlen(counts[i].type);
	snprintf(tfmt, sizeof(tfmt), "%%-%zus ", width + 1);
	cols[C_TYPE].fmt = tfmt;

	out_doc_begin();
	out_header(&table);
	for (size_t i = 0; i < ncounts; i++) {
		union out_val v[ARRAY_SIZE(cols)];
		FILE *f;

		snprintf(comm_path, sizeof(comm_path), "/proc/%d/comm", counts[i].pid);
		strcpy(comm, "[unknown]");
		if ((f = fopen(comm_path, "re"))) {
			if (fgets(comm, sizeof(comm), f))
				comm[strcspn(comm, "\n")] = 0;
			fclose(f);
		}
		v[C_PID].i = counts[i].pid;
		v[C_COMM].s = comm;
		v[C_TYPE].s = counts[i].type;
		v[C_COUNT].u = counts[i].n;
		out_row(&table, v);
	}
	free(counts);
	return out_doc_end() < 0 ? 1 : 0;
}
