/* The output layer (tools/common/out*.c) and terminal-safe strings
 * (lib/strbuf.c): text cells in the originals' formats, JSON escaping,
 * report documents, Prometheus accumulation across reports. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/strbuf.h"
#include "lib/util.h"
#include "t.h"
#include "tools/common/out.h"

#define DIR "/tmp"

static char *safe(const char *s, char *buf, size_t size)
{
	struct strbuf b = { 0 };

	strbuf_reset(&b);
	strbuf_add_safe(&b, s);
	snprintf(buf, size, "%s", b.s);
	strbuf_free(&b);
	return buf;
}

/* Run fn with stdout captured; the text, malloc'd. */
static char *capture(void (*fn)(void))
{
	char path[] = DIR "/cbx-out-XXXXXX";
	int fd = mkstemp(path), saved = dup(1);
	char *buf = calloc(1, 65536);
	ssize_t n;

	fflush(stdout);
	dup2(fd, 1);
	fn();
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, 65535);
	buf[n > 0 ? n : 0] = 0;
	close(fd);
	unlink(path);
	return buf;
}

enum { C_TIME, C_COMM, C_PID, C_LAT, C_ARGS, C_SYS, C_CALLS };
static const struct out_col cols[] = {
	[C_TIME] = { NULL, "TIME", "%-8s ", OUT_STR, OUT_TEXT_ONLY, .hfmt = "%-9s" },
	[C_COMM] = { "comm", "COMM", "%-16s ", OUT_STR },
	[C_PID] = { "pid", "PID", "%-6d ", OUT_INT },
	[C_LAT] = { "lat_ms", "LAT(ms)", "%7.2f ", OUT_FLOAT },
	[C_ARGS] = { "args", "ARGS", "%s\n", OUT_STRV },
	[C_SYS] = { "syscall", NULL, NULL, OUT_STR, OUT_JSON_ONLY | OUT_LABEL },
	[C_CALLS] = { "calls", NULL, NULL, OUT_UINT, OUT_JSON_ONLY | OUT_COUNTER, .help = "calls" },
};
static struct out_table tab = OUT_TABLE(NULL, cols);
static union out_val row[7];

static void print_header_row(void)
{
	out_header(&tab);
	out_row(&tab, row);
}

/* a COMM column cut at 10 ("%-10.10s", as tcpstates) */
static const struct out_col cut_cols[] = { { "comm", "COMM", "%-10.10s|\n", OUT_STR } };
static const struct out_table cut_tab = OUT_TABLE(NULL, cut_cols);
static union out_val cut_row[1];

static void print_cut_rows(void)
{
	static const char *const comms[] = { "\033]0;X\a\nz", "a\\b\033cdefghij", "printable-comm-x", "a\\b" };

	for (size_t i = 0; i < sizeof(comms) / sizeof(comms[0]); i++) {
		cut_row[0].s = comms[i];
		out_row(&cut_tab, cut_row);
	}
}

static void print_doc(void)
{
	static const struct out_hist h = { "latency", "latency", "usecs" };
	static const struct out_table t2 = OUT_TABLE("rows", cols);
	uint32_t slots[4] = { 0, 2, 0, 1 };
	struct out_label l = { "disk", "sda" };
	double sum = 11.5;

	out_doc_begin();
	out_row(&t2, row);
	out_hist(&h, "\ndisk = sda\n", &l, 1, slots, 4, &sum);
	out_doc_end();
}

int main(void)
{
	struct strbuf b = { 0 };
	char buf[128], *s;
	static const char argv_[] = "ls\0-l\0a b";

	/* ---- safe strings ---- */
	T_OK(!strcmp(safe("a\033[2Jb\tc\n", buf, sizeof(buf)), "a\\x1b[2Jb\tc\n"), "ESC escaped, tab/newline kept: %s", buf);
	T_OK(!strcmp(safe("caf\xc3\xa9 \xe2\x82\xac", buf, sizeof(buf)), "caf\xc3\xa9 \xe2\x82\xac"), "valid UTF-8 kept");
	T_OK(!strcmp(safe("x\xc2\x9b" "y\xff\xc3", buf, sizeof(buf)), "x\\xc2\\x9by\\xff\\xc3"), "C1 CSI, invalid bytes, truncated sequence escaped: %s", buf);
	{
		char again[128];

		safe("a\033b\x9b", buf, sizeof(buf));
		T_OK(!strcmp(safe(buf, again, sizeof(again)), buf), "escaping twice changes nothing");
	}
	T_OK(!strcmp(safe("0123456789", buf, 5), "0123"), "truncated to the buffer");

	/* ---- JSON strings ---- */
	strbuf_reset(&b);
	json_str(&b, "q\"b\\s\n\x01\x7f\xc3\xa9\xff");
	T_OK(!strcmp(b.s, "\"q\\\"b\\\\s\\n\\u0001\\u007f\xc3\xa9\\u00ff\""), "JSON escapes quotes, controls, invalid bytes: %s", b.s);
	strbuf_reset(&b);
	json_strn(&b, "ab\0cd", 5);
	T_OK(!strcmp(b.s, "\"ab\""), "json_strn stops at NUL");

	/* ---- text rows ---- */
	row[C_TIME].s = "12:00:01";
	row[C_COMM].s = "bash";
	row[C_PID].i = 42;
	row[C_LAT].f = 1.5;
	row[C_ARGS].strv.p = argv_;
	row[C_ARGS].strv.size = sizeof(argv_);
	row[C_ARGS].strv.n = 3;
	row[C_SYS].s = "read";
	row[C_CALLS].u = 7;
	s = capture(print_header_row);
	T_OK(!strcmp(s, "TIME     COMM             PID    LAT(ms) ARGS\n"
			"12:00:01 bash             42        1.50 ls -l a b\n"), "text: the originals' formats, header widths from them:\n%s", s);
	free(s);
	out_show(&tab, C_TIME, false);
	out_show(&tab, C_LAT, false);
	s = capture(print_header_row);
	T_OK(!strcmp(s, "COMM             PID    ARGS\nbash             42     ls -l a b\n"), "columns switched off:\n%s", s);
	free(s);

	/* every text string cell is escaped: a hostile comm and argv */
	out_show(&tab, C_LAT, true);
	row[C_COMM].s = "\033]0;X\a\n";
	row[C_ARGS].strv.p = "a\nb\0c\\d\0e\\\033";
	row[C_ARGS].strv.size = 11;
	s = capture(print_header_row);
	T_OK(!strcmp(s, "COMM             PID    LAT(ms) ARGS\n"
			"\\x1b]0;X\\x07\\x0a 42        1.50 a\\x0ab c\\d e\\\\\\x1b\n"),
	     "text: comm and each argument escaped on its own, printable ones unchanged:\n%s", s);
	free(s);
	row[C_COMM].s = "bash";
	row[C_ARGS].strv.p = argv_;
	row[C_ARGS].strv.size = sizeof(argv_);
	out_show(&tab, C_LAT, false);
	/* a column cut at a width: between escapes (never "\x1b]0;X\x"),
	 * printable text cut as printf cuts it */
	s = capture(print_cut_rows);
	T_OK(!strcmp(s, "\\x1b]0;X  |\na\\\\b\\x1bcd|\nprintable-|\na\\b       |\n"),
	     "text: a cut column is cut between escapes:\n%s", s);
	free(s);

	/* ---- the event's cgroup (--show-cgroup, JSON "cgroup") ---- */
	out_cfg.cgroup_column = true;
	out_event_cgroup(7, "/a\033b");
	s = capture(print_header_row);
	T_OK(!strcmp(s, "CGROUP                   COMM             PID    ARGS\n"
			"/a\\x1bb                  bash             42     ls -l a b\n"),
	     "text: CGROUP first, the path escaped:\n%s", s);
	free(s);
	out_event_cgroup(9, NULL);
	s = capture(print_header_row);
	T_OK(strstr(s, "\n9                        bash ") != NULL, "text: an unknown cgroup as its id:\n%s", s);
	free(s);
	out_cfg.cgroup_column = false;
	out_cfg.format = OUT_JSON;
	out_event_cgroup(7, "/a\"b");
	s = capture(print_header_row);
	T_OK(!strncmp(s, "{\"time\":\"", 9) && strstr(s, "\",\"cgroup\":\"/a\\\"b\",\"cgroup_id\":7,\"comm\":\"bash\",") &&
	     !strchr(strchr(s, '\n') + 1, '\n'), "JSON: time, then cgroup and cgroup_id: %s", s);
	free(s);
	out_event_cgroup(9, NULL);
	s = capture(print_header_row);
	T_OK(strstr(s, "\",\"cgroup\":null,\"cgroup_id\":9,\"comm\"") != NULL, "JSON: an unknown path is null: %s", s);
	free(s);
	out_event_cgroup(0, NULL);
	s = capture(print_header_row);
	T_OK(!strstr(s, "cgroup"), "JSON: no cgroup recorded, no fields: %s", s);
	free(s);
	out_cfg.format = OUT_TEXT;

	/* ---- JSON rows (events) ---- */
	out_cfg.format = OUT_JSON;
	s = capture(print_header_row);
	T_OK(!strncmp(s, "{\"time\":\"", 9) &&
	     strstr(s, "\",\"comm\":\"bash\",\"pid\":42,\"args\":[\"ls\",\"-l\",\"a b\"],\"syscall\":\"read\",\"calls\":7}\n") &&
	     !strchr(strchr(s, '\n') + 1, '\n'), "JSON: one line, no header, hidden columns out, time first: %s", s);
	free(s);

	/* ---- reports and Prometheus ---- */
	out_cfg.tool = "t";
	out_cfg.prom_path = DIR "/cbx-unit.prom";
	row[C_COMM].s = "we\"ird\\";
	s = capture(print_doc);
	T_OK(strstr(s, "\"rows\":[{\"comm\":\"we\\\"ird\\\\\",\"pid\":42") &&
	     strstr(s, "\"latency\":[{\"disk\":\"sda\",\"unit\":\"usecs\",\"count\":3,\"sum\":11.5,\"buckets\":"
		       "[{\"low\":0,\"high\":1,\"count\":0},{\"low\":2,\"high\":3,\"count\":2},"
		       "{\"low\":4,\"high\":7,\"count\":0},{\"low\":8,\"high\":15,\"count\":1}]}]}"),
	     "JSON report: rows and histogram buckets with bounds: %s", s);
	free(s);
	free(capture(print_doc)); /* a second report: counters and buckets add up */
	{
		char *p = NULL;
		size_t n = 0;
		FILE *f = fopen(DIR "/cbx-unit.prom", "r");

		if (f) {
			n = fread(p = calloc(1, 8192), 1, 8191, f);
			fclose(f);
		}
		T_OK(p && n && strstr(p, "# HELP corebox_t_calls_total calls\n# TYPE corebox_t_calls_total counter\n"
				"corebox_t_calls_total{syscall=\"read\"} 14\n"),
		     "Prometheus: counter with label, summed over two reports: %s", p ? p : "");
		T_OK(p && strstr(p, "# TYPE corebox_t_latency_seconds histogram\n"
				"corebox_t_latency_seconds_bucket{disk=\"sda\",le=\"2e-06\"} 0\n"
				"corebox_t_latency_seconds_bucket{disk=\"sda\",le=\"4e-06\"} 4\n"
				"corebox_t_latency_seconds_bucket{disk=\"sda\",le=\"8e-06\"} 4\n"
				"corebox_t_latency_seconds_bucket{disk=\"sda\",le=\"+Inf\"} 6\n"
				"corebox_t_latency_seconds_sum{disk=\"sda\"} 2.3e-05\n"
				"corebox_t_latency_seconds_count{disk=\"sda\"} 6\n"),
		     "Prometheus: cumulative buckets in seconds, +Inf = count, _sum");
		free(p);
	}
	{ /* the temporary file, DIR/.cbx-unit.prom.XXXXXX, is gone */
		glob_t g;

		T_OK(glob(DIR "/.cbx-unit.prom.*", 0, NULL, &g) == GLOB_NOMATCH, "no temp file left");
		globfree(&g);
	}
	unlink(DIR "/cbx-unit.prom");
	{ /* label values: the format's three escapes; what a scraper would
	   * refuse (controls, DEL, bytes that are not UTF-8) as U+FFFD */
		struct strbuf l = { 0 };

		prom_label_value(&l, "a\\b\"c\nd\te\x7f\xc3\xa9\xff\xe2\x82");
		T_OK(l.s && !strcmp(l.s, "a\\\\b\\\"c\\nd\xef\xbf\xbd" "e\xef\xbf\xbd" "\xc3\xa9" "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"),
		     "Prometheus label value: \\ \" newline escaped, tab DEL 0xff and a cut sequence as U+FFFD, UTF-8 kept: %s",
		     l.s ? l.s : "");
		strbuf_free(&l);
	}
	out_cfg.prom_path = DIR "/no/such/dir/x.prom";
	out_doc_begin();
	T_OK(out_doc_end() < 0, "an unwritable --prom path is an error");
	strbuf_free(&b);
	T_EXIT();
}
