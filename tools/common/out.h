/* The output layer: a tool describes its records and summaries once and
 * gets text (the columns of libbpf-tools/bcc, byte for byte), JSON lines
 * (-j/--json) and the Prometheus text exposition format (--prom FILE).
 *
 * Records.  A table is an array of columns; each column has a JSON key
 * (also its Prometheus label or metric name), a text header and the
 * printf formats of the original tool.  A row is an array of values, one
 * per column, indexed like the columns:
 *
 *	enum { C_COMM, C_PID, C_RET };
 *	static const struct out_col cols[] = {
 *		[C_COMM] = { "comm", "PCOMM", "%-16s ", OUT_STR },
 *		[C_PID]  = { "pid", "PID", "%-6d ", OUT_INT },
 *		[C_RET]  = { "ret", "RET", "%3d\n", OUT_INT, .hfmt = "%3s\n" },
 *	};
 *	static struct out_table tab = OUT_TABLE(NULL, cols);
 *	out_header(&tab);                   text: the header line
 *	union out_val v[3] = { [C_COMM].s = comm, [C_PID].i = pid, [C_RET].i = ret };
 *	out_row(&tab, v);
 *
 * Text prints each visible column with its format (a column's format
 * carries its own separator, as the originals' printf calls do); JSON
 * prints one object per row, {"time": RFC 3339 wall clock, key: value...},
 * numbers as numbers, strings escaped.  Columns can be switched off by the
 * tool's options (out_show).
 *
 * Summaries (interval tools).  Between out_doc_begin() and out_doc_end()
 * rows and histograms belong to one report: text prints them as they come;
 * JSON prints one document per report at out_doc_end():
 *	{"time": ..., "TABLE": [rows...], "HIST": [{labels..., "unit": ...,
 *	 "buckets": [{"low": 0, "high": 1, "count": 0}, ...]}]}
 * and with --prom FILE, out_doc_end() rewrites FILE (temp file + rename,
 * for node_exporter's textfile collector) with every series seen so far:
 * OUT_COUNTER columns add up across reports (counters never go down),
 * OUT_GAUGE columns keep the last value, histograms accumulate buckets,
 * _sum and _count; OUT_LABEL columns label the series.  Metric names are
 * corebox_TOOL_KEY (time units in seconds).
 *
 * All output goes to stdout through stdio; a write error is caught by
 * tool_flush()/tool_finish() (common.h). */
#ifndef COREBOX_TOOLS_OUT_H
#define COREBOX_TOOLS_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum out_format { OUT_TEXT, OUT_JSON };

/* Set by the option parser (-j/--json, --prom FILE) before the tool runs. */
struct out_settings {
	enum out_format format;
	const char *prom_path; /* NULL: no Prometheus file */
	const char *tool;      /* metric prefix: corebox_TOOL_ */
	bool cgroup_column;    /* --show-cgroup: event rows start with CGROUP */
	const char *listen;    /* --listen ADDR:PORT: the series served at /metrics */
};
extern struct out_settings out_cfg;

static inline bool out_json(void) { return out_cfg.format == OUT_JSON; }
/* Prometheus series are kept (--prom FILE or --listen ADDR:PORT). */
static inline bool out_prom_on(void) { return out_cfg.prom_path || out_cfg.listen; }

/* Value types of a column. */
enum out_type {
	OUT_STR,   /* v.s, NUL-terminated (NULL prints as "" / null) */
	OUT_INT,   /* v.i */
	OUT_UINT,  /* v.u */
	OUT_FLOAT, /* v.f */
	OUT_STRV,  /* v.strv: n strings, each NUL-terminated, back to back
		    * (exec arguments); JSON: an array of strings */
	OUT_HEX,   /* v.u; JSON: "0x..." string (addresses, flags) */
	OUT_BOOL,  /* v.i; text as an int, JSON true/false */
};

/* Column flags. */
enum {
	OUT_TEXT_ONLY = 1 << 0, /* not in JSON (the HH:MM:SS column: JSON has "time") */
	OUT_JSON_ONLY = 1 << 1, /* not in text (parts a text column prints combined) */
	OUT_LABEL = 1 << 2,     /* Prometheus: labels the row's series */
	OUT_COUNTER = 1 << 3,   /* Prometheus: counter, rows add to it */
	OUT_GAUGE = 1 << 4,     /* Prometheus: gauge, last row's value */
};

union out_val {
	const char *s;
	long long i;
	unsigned long long u;
	double f;
	struct {
		const char *p;
		size_t size; /* bytes at p (the last string may be unterminated) */
		int n;       /* strings to take */
	} strv;
};

struct out_col;
/* A column whose text form is not one printf (quoting, lists). */
typedef void (*out_text_fn)(FILE *f, const struct out_col *c, const union out_val *v);

/* A column's Prometheus metric when it is not the key's value: its name
 * ("latency_seconds" for a "total_ns" column) and value = value * scale
 * (0: 1), e.g. 1e-9 ns -> s.  Apart from out_col, which is in every
 * tool's tables (a pointer where a name and a double were: 8 bytes less
 * a column, 4 KB). */
struct out_metric {
	const char *name;
	double scale;
};

struct out_col {
	const char *key;  /* JSON key; Prometheus label or metric (after the tool name) */
	const char *head; /* text header */
	const char *fmt;  /* text: printf format of the value (with its separator) */
	uint8_t type;     /* enum out_type */
	uint8_t flags;    /* OUT_* flags */
	const char *hfmt; /* text header format; NULL: fmt's width applied to %s */
	const char *help; /* Prometheus HELP of a counter/gauge */
	const struct out_metric *metric; /* NULL: the key, unscaled */
	out_text_fn text; /* custom text form, instead of fmt */
};

struct out_table {
	const char *name; /* JSON: the report's array of rows; NULL: the row's
			   * fields go into the report itself (one-row reports) */
	const struct out_col *cols;
	unsigned ncols;
	uint64_t hidden;  /* bit i: column i switched off */
};
#define OUT_TABLE(name, cols) { (name), (cols), sizeof(cols) / sizeof((cols)[0]), 0 }

/* The cgroup of the event being handled (tools/common/event_tool.c sets
 * it from the record's head around the tool's callback; id 0: none).
 * Each event's JSON line gets "cgroup": PATH (null when unknown) and
 * "cgroup_id": ID after "time"; with --show-cgroup, text rows and the
 * header of event tables start with a CGROUP column. */
void out_event_cgroup(uint64_t id, const char *path);
/* For text that is not a table (free lines, field lists): the event's
 * cgroup as the CGROUP column shows it (escaped path, else the id, else
 * "-"), into buf; and, with --show-cgroup, that cell printed first on
 * the line (nothing otherwise). */
const char *out_cgroup_text(char *buf, size_t size);
void out_cgroup_prefix(void);
/* The same for a line built in a buffer (b), and its header cell
 * ("CGROUP", through out_info); both nothing without --show-cgroup or
 * under -j. */
struct strbuf;
void out_cgroup_add(struct strbuf *b);
void out_cgroup_head(void);
/* JSON lines a tool writes itself: "cgroup":PATH,"cgroup_id":ID of the
 * event being handled (out_event_cgroup), appended to b; for an event
 * with a cgroup id (0: none recorded, the keys left out as out_row does). */
void out_cgroup_fields(struct strbuf *b);

/* Switch column i on or off. */
void out_show(struct out_table *t, unsigned i, bool on);
/* Text: the header line (nothing in JSON). */
void out_header(const struct out_table *t);
/* One row (an event, or a row of the current report). */
void out_row(const struct out_table *t, const union out_val *v);
/* A row of the current report that is not shown (beyond a top-N cut):
 * it still counts in the Prometheus series. */
void out_row_unshown(const struct out_table *t, const union out_val *v);

/* A text column's string made safe for a terminal and a log line, by
 * the one rule of lib/util.h str_escape: control bytes (newline, tab,
 * ESC...) as \xNN and, in a string that has one, backslashes as \\;
 * printable text unchanged.  out_row applies it to every text string
 * cell; a tool that prints a column itself (.text) calls it. */
struct strbuf;
void out_escaped(struct strbuf *b, const char *s);

/* Text only (nothing in JSON): banners, interval time stamps, section
 * lines.  out_info prints to stdout in text and to stderr in JSON, for
 * lines a user watching should still see ("Tracing... Hit Ctrl-C"). */
void out_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void out_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Reports of interval tools. */
void out_doc_begin(void);
/* A number in the report itself ("lost": N ...); also a gauge with --prom
 * when help is given. */
void out_doc_num(const char *key, double value, const char *help);
/* Print the JSON document, write the Prometheus file.  0, or -1 after a
 * message (the Prometheus file could not be written). */
int out_doc_end(void);
/* --prom FILE, before the tool starts: 0, or -errno with a message
 * (err_msg) when FILE exists and is not a regular file (it is never
 * replaced) or no file can be created in its directory (out_file.h). */
int out_prom_check(const char *path);

/* Histograms. */
struct out_label {
	const char *key, *val;
};
struct out_hist {
	const char *key;  /* JSON array and metric name ("latency") */
	const char *help; /* Prometheus HELP */
	const char *unit; /* text header unit: "usecs", "msecs", "nsecs", "kbytes", ... */
	bool linear;      /* linear buckets: base + i * step; else log2 */
	unsigned base, step;
	bool bcc;         /* log2 slots of bcc's bpf_log2l (slot 0 holds 0, slot i
			   * [2^(i-1), 2^i)) printed in bcc's layout (table.py
			   * print_log2_hist: from slot 1, "count     distribution") */
};
/* One histogram of the report: text prints text_head (if any) then the
 * libbpf-tools layout; JSON adds {labels, unit, count, [sum], buckets};
 * Prometheus accumulates it.  sum: total of the values in `unit` (exact,
 * not from the buckets), or NULL when the tool does not know it (no _sum
 * line then). */
void out_hist(const struct out_hist *h, const char *text_head, const struct out_label *labels,
	      int nlabels, const uint32_t *slots, int nslots, const double *sum);
void out_hist64(const struct out_hist *h, const char *text_head, const struct out_label *labels,
		int nlabels, const uint64_t *slots, int nslots, const double *sum);
/* The Prometheus and JSON parts alone, for a tool that prints its own
 * text layout (bpftrace's): true when the output is JSON (no text then). */
bool out_hist64_data(const struct out_hist *h, const struct out_label *labels, int nlabels,
		     const uint64_t *slots, int nslots, const double *sum);

/* The text layouts alone (libbpf-tools print_log2_hist, linear). */
void print_log2_hist(const uint32_t *vals, int n, const char *unit);
void print_linear_hist(const uint32_t *vals, int n, unsigned base, unsigned step, const char *unit);

/* JSON building blocks (tools/common/out_json.c), for shapes the tables
 * do not cover (stacks): a string escaped as a JSON string (quotes
 * included; invalid UTF-8 bytes as \u00XX), and the wall clock as RFC 3339
 * with microseconds and the local offset. */
struct strbuf;
void json_str(struct strbuf *b, const char *s);
/* A Prometheus label value (without its quotes): \ " and newline escaped
 * as the format wants; other control bytes, DEL and bytes that are not
 * UTF-8 (a scraper refuses the whole page for one) become U+FFFD. */
void prom_label_value(struct strbuf *b, const char *val);
void json_strn(struct strbuf *b, const char *s, size_t n);
void json_time(struct strbuf *b);
/* Emit one complete JSON value as a line of its own (events), or add it
 * to the current report's array `key` (inside out_doc_begin/end). */
void out_json_value(const char *key, const struct strbuf *value);

#endif
