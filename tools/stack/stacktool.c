/* The stack tools' shared user side (see stacktool.h). */
#include "stacktool.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "bpf/sys.h"
#include "lib/err.h"
#include "lib/util.h"
#include "tools/stack/mapdump.h"

/* "1,2,3" -> ids; exit 2 on a bad list. */
static int parse_ids(const struct stacktool_env *e, const char *what, const char *arg, uint32_t *ids)
{
	char *copy = xstrdup(arg), *save = NULL, *tok;
	int n = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n >= e->max_ids)
			opt_usage_error(e->help, "too many %ss (at most %d): '%s'", what, e->max_ids, arg);
		ids[n++] = (uint32_t)opt_pid(e->help, what, tok);
	}
	free(copy);
	if (!n)
		opt_usage_error(e->help, "invalid %s: '%s'", what, arg);
	return n;
}

int stacktool_parse(struct stacktool_env *e, int key, const char *arg)
{
	const struct tool_help *h = e->help;

	switch (key) {
	case 'p': e->npids = parse_ids(e, "PID", arg, e->pids); e->pid_str = arg; break;
	case 't': e->ntids = parse_ids(e, "TID", arg, e->tids); e->tid_str = arg; break;
	case 'u': e->user_threads = true; break;
	case 'k': e->kernel_threads = true; break;
	case 'U': e->user_only = true; break;
	case 'K': e->kernel_only = true; break;
	case 'd': e->delimited = true; break;
	case 'f': e->folded = true; break;
	case 'v': e->verbose = true; break;
	case STACKTOOL_KEY_SVG: {
		/* not blocking on a FIFO without a reader; truncate only files */
		int fd = open(arg, O_WRONLY | O_CREAT | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0644);
		struct stat st;

		if (fd < 0 || fstat(fd, &st) < 0) {
			tool_err(tool_applet, "cannot create %s: %s", arg, strerror(errno));
			exit(1);
		}
		if (S_ISREG(st.st_mode) && ftruncate(fd, 0) < 0) {
			tool_err(tool_applet, "cannot truncate %s: %s", arg, strerror(errno));
			exit(1);
		}
		fcntl(fd, F_SETFL, 0);
		if (e->svg_file)
			fclose(e->svg_file);
		e->svg_file = fdopen(fd, "w");
		e->svg = arg;
		break;
	}
	case STACKTOOL_KEY_DEPTH: e->depth = (long)opt_num(h, "perf max stack depth", arg, 1, 127); break;
	case STACKTOOL_KEY_STORAGE:
		e->storage = (long)opt_num(h, "stack storage size", arg, 1, 1 << 24);
		break;
	case 'm': e->min_us = (unsigned long long)opt_num(h, "min block time", arg, 0, LLONG_MAX); break;
	case 'M': e->max_us = (unsigned long long)opt_num(h, "max block time", arg, 0, LLONG_MAX); break;
	case 0: e->duration = (long)opt_one_num(h, &e->npos, "duration", arg, 1, INT_MAX); break;
	default:
		return 1;
	}
	return 0;
}

void stacktool_check_threads(const struct stacktool_env *e)
{
	if ((e->npids > 0) + (e->ntids > 0) + e->user_threads + e->kernel_threads > 1)
		opt_usage_error(e->help, "-p, -t, -u and -k are mutually exclusive");
}

void stacktool_check_stacks(const struct stacktool_env *e)
{
	if (e->user_only && e->kernel_only)
		opt_usage_error(e->help, "-U and -K are mutually exclusive");
}

void stacktool_check_block(const struct stacktool_env *e)
{
	if (e->min_us > e->max_us)
		opt_usage_error(e->help, "min block time (%llu) must not exceed max block time (%llu)",
				e->min_us, e->max_us);
}

const char *stacktool_stack_kind(const struct stacktool_env *e)
{
	return e->user_only ? "user" : e->kernel_only ? "kernel" : "user + kernel";
}

void stacktool_set_knobs(struct obj *o, const struct stacktool_env *e)
{
	struct map *stackmap = obj_map(o, "stackmap");

	if (e->npids)
		OBJ_SET(o, filter_pid, (uint8_t)1);
	if (e->ntids)
		OBJ_SET(o, filter_tid, (uint8_t)1);
	if (e->user_threads)
		OBJ_SET(o, user_threads_only, (uint8_t)1);
	if (e->kernel_threads)
		OBJ_SET(o, kernel_threads_only, (uint8_t)1);
	if (e->user_only)
		OBJ_SET(o, user_stacks_only, (uint8_t)1);
	if (e->kernel_only)
		OBJ_SET(o, kernel_stacks_only, (uint8_t)1);
	map_set_max_entries(stackmap, (uint32_t)e->storage);
	map_set_value_size(stackmap, (uint32_t)e->depth * 8);
}

static int fill_filter(struct obj *o, const char *tool, const char *map, const uint32_t *ids, int n)
{
	int fd = map_fd(obj_map(o, map));
	uint8_t one = 1;

	for (int i = 0; i < n; i++)
		if (bpf_map_update(fd, &ids[i], &one, 0) < 0) {
			tool_err(tool, "cannot fill the %s filter map: %s", map, strerror(errno));
			return -1;
		}
	return 0;
}

int stacktool_fill_filters(struct obj *o, const struct stacktool_env *e, const char *pid_map,
			   const char *tid_map)
{
	if (fill_filter(o, tool_applet, pid_map, e->pids, e->npids) < 0 ||
	    fill_filter(o, tool_applet, tid_map, e->tids, e->ntids) < 0)
		return -1;
	return 0;
}

void stacktool_wait(const struct stacktool_env *e)
{
	if (!e->folded && e->banner != STACKTOOL_BANNER_NONE) {
		FILE *f = e->banner == STACKTOOL_BANNER_ERR || out_json() ? stderr : stdout;

		if (e->duration > 0)
			fprintf(f, " for %ld secs.\n", e->duration);
		else
			fprintf(f, "... Hit Ctrl-C to end.\n");
	}
	tool_flush();
	if (e->duration > 0)
		tool_sleep_ms(e->duration * 1000);
	else
		while (!tool_exiting)
			tool_sleep_ms(1000000);
}

const char *stacktool_comm(char buf[STACKTOOL_COMM_LEN + 1], const char *comm)
{
	memcpy(buf, comm, STACKTOOL_COMM_LEN);
	buf[STACKTOOL_COMM_LEN] = 0;
	return buf;
}

const char *stacktool_comm_text(char buf[STACKTOOL_COMM_TEXT], const char *comm)
{
	char c[STACKTOOL_COMM_LEN + 1];

	return str_escape(buf, STACKTOOL_COMM_TEXT, stacktool_comm(c, comm), NULL);
}

int stacktool_report(struct obj *o, const struct stacktool_env *e, const struct stacktool_report *r)
{
	const char *name = tool_applet;
	uint64_t div = r->value_div ? r->value_div : 1;
	struct map_dump d;
	struct stacks s;
	struct strbuf line = { 0 }, obj = { 0 };
	struct fold_agg *agg = NULL;
	bool json = out_json();
	unsigned flags = r->flags;
	int ret = 0;

	if (e->verbose)
		flags |= r->verbose_flags;
	if (e->delimited)
		flags |= STACKS_DELIM;
	if (e->user_only)
		flags |= STACKS_NO_KERNEL;
	if (e->kernel_only)
		flags |= STACKS_NO_USER;
	if (stacks_init(&s, map_fd(obj_map(o, "stackmap")), (unsigned)e->depth, flags | STACKS_NAMES) < 0) {
		tool_err(name, "%s", err_msg());
		return 1;
	}
	if (map_dump(map_fd(obj_map(o, r->map)), r->key_size, r->value_size, &d) < 0) {
		tool_err(name, "cannot read the %s: %s", r->what, err_msg());
		stacks_fini(&s);
		return 1;
	}
	map_dump_sort(&d, 0, r->descending);
	if (e->folded || e->svg) /* folded lines are summed: one per distinct stack */
		agg = fold_agg_new();
	if (json)
		out_doc_begin();
	/* every frame of the report named in one pass per symbol file */
	stacks_prefetch_begin(&s);
	for (size_t i = 0; i < d.n; i++) {
		const void *k = map_dump_key(&d, i), *v = map_dump_value(&d, i);

		if (*(const uint64_t *)v / div)
			r->fold(&s, k, v, *(const uint64_t *)v / div, &line);
	}
	stacks_prefetch_end(&s);
	for (size_t i = 0; i < d.n; i++) {
		const void *k = map_dump_key(&d, i), *v = map_dump_value(&d, i);
		uint64_t value = *(const uint64_t *)v / div;

		if (!value)
			continue;
		if (agg || json) {
			r->fold(&s, k, v, value, &line);
			if (agg)
				fold_agg_add(agg, line.s, value);
		}
		if (json) { /* {tool's fields, "value", "folded"}: frames counted once */
			struct stacks_lost lost = s.lost;

			strbuf_reset(&obj);
			strbuf_addc(&obj, '{');
			if (r->json)
				r->json(&s, k, v, value, &obj);
			s.lost = lost;
			strbuf_addf(&obj, "\"value\":%llu,\"folded\":", (unsigned long long)value);
			json_str(&obj, line.s);
			strbuf_addc(&obj, '}');
			out_json_value("stacks", &obj);
		} else if (!e->folded) {
			struct stacks_lost lost = s.lost;

			r->print(&s, k, v, value);
			if (agg) /* counted once already by the folded line */
				s.lost = lost;
		}
	}
	if (json) {
		out_doc_num("lost_stacks", (double)s.lost.all, NULL);
		if (out_doc_end() < 0)
			ret = 1;
	} else if (e->folded) {
		fold_agg_sort(agg);
		for (size_t i = 0; i < fold_agg_len(agg); i++) {
			uint64_t c;
			const char *l = fold_agg_line(agg, i, &c);

			printf("%s %llu\n", l, (unsigned long long)c);
		}
	}
	tool_flush();
	stacks_report_missed(&s, stderr);
	if (agg && e->svg_file) {
		int err = flamegraph_fwrite(e->svg_file, agg, &r->fg);

		if (fclose(e->svg_file) != 0 && !err) /* once: the report ends the tool */
			err = err_sys(errno, "cannot write");
		if (err < 0) {
			tool_err(name, "%s: %s", e->svg, err_msg());
			ret = 1;
		}
	}
	fold_agg_free(agg);
	strbuf_free(&line);
	strbuf_free(&obj);
	map_dump_free(&d);
	stacks_fini(&s);
	return ret;
}
