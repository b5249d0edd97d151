/* The TCP tools' shared user side (see inet.h). */
#include "inet.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "bpf/sys.h"
#include "lib/util.h"

static const char *const states[] = {
	[1] = "ESTABLISHED", [2] = "SYN_SENT",  [3] = "SYN_RECV",  [4] = "FIN_WAIT1",
	[5] = "FIN_WAIT2",   [6] = "TIME_WAIT", [7] = "CLOSE",     [8] = "CLOSE_WAIT",
	[9] = "LAST_ACK",    [10] = "LISTEN",   [11] = "CLOSING",  [12] = "NEW_SYN_RECV",
};

const char *tcp_state_name(int state)
{
	if (state > 0 && (size_t)state < sizeof(states) / sizeof(states[0]))
		return states[state];
	return "UNKNOWN";
}

char *inet_addr_str(int family, const void *addr, char *buf, size_t size)
{
	if (!inet_ntop(family == 10 ? AF_INET6 : AF_INET, addr, buf, (socklen_t)size))
		snprintf(buf, size, "?");
	return buf;
}

double inet_since_first_s(uint64_t ts_ns)
{
	static uint64_t first_ns;

	if (!first_ns)
		first_ns = ts_ns;
	return (double)((ts_ns - first_ns) / 1000) / 1e6;
}

int inet_ports_parse(const struct tool_help *h, const char *what, const char *list, uint16_t *ports,
		     int max)
{
	const char *p = list;
	int n = 0;

	for (;;) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || v < 1 || v > 65535 || (*end && *end != ','))
			opt_usage_error(h, "invalid %s: '%s' (a comma-separated list of ports 1..65535)", what,
					list);
		if (n >= max)
			opt_usage_error(h, "too many %s: at most %d", what, max);
		ports[n++] = (uint16_t)v;
		if (!*end)
			return n;
		p = end + 1;
	}
}

int inet_ports_fill(struct obj *o, const char *tool, const char *map, const uint16_t *ports, int n)
{
	int fd = map_fd(obj_map(o, map));
	uint8_t one = 1;

	for (int i = 0; i < n; i++) {
		int r = bpf_map_update(fd, &ports[i], &one, 0);

		if (r < 0) {
			tool_err(tool, "cannot fill the port filter: %s", strerror(-r));
			return -1;
		}
	}
	return 0;
}

void inet_state_filter_set(struct obj *o, const struct inet_state_filter *f)
{
	OBJ_SET(o, target_family, (uint16_t)f->family);
	OBJ_SET(o, filter_sport, (uint8_t)(f->nsports > 0));
	OBJ_SET(o, filter_dport, (uint8_t)(f->ndports > 0));
}

int inet_state_filter_fill(struct obj *o, const char *tool, const struct inet_state_filter *f)
{
	return inet_ports_fill(o, tool, "sports", f->sports, f->nsports) < 0 ||
	       inet_ports_fill(o, tool, "dports", f->dports, f->ndports) < 0 ? -1 : 0;
}

static int flows_desc;

static int cmp_flow(const void *a, const void *b)
{
	const struct inet_flow_count *x = a, *y = b;

	if (x->k.family != y->k.family)
		return x->k.family < y->k.family ? -1 : 1;
	if (x->n != y->n)
		return (x->n > y->n) == flows_desc ? -1 : 1;
	return memcmp(&x->k, &y->k, sizeof(x->k));
}

long inet_flows_read(struct obj *o, const char *tool, int desc, struct inet_flow_count **rows)
{
	struct inet_flow *keys = xcalloc(INET_MAX_FLOWS, sizeof(*keys));
	uint64_t *vals = xcalloc(INET_MAX_FLOWS, sizeof(*vals));
	bool batch = true;
	long n = tool_map_drain(map_fd(obj_map(o, "counts")), sizeof(*keys), sizeof(*vals), keys, vals,
				INET_MAX_FLOWS, &batch);

	*rows = NULL;
	if (n < 0) {
		tool_err(tool, "cannot read the counts: %s", strerror((int)-n));
	} else {
		*rows = xcalloc((size_t)n + 1, sizeof(**rows));
		for (long i = 0; i < n; i++) {
			(*rows)[i].k = keys[i];
			(*rows)[i].n = vals[i];
		}
		flows_desc = desc;
		qsort(*rows, (size_t)n, sizeof(**rows), cmp_flow);
	}
	free(keys);
	free(vals);
	return n < 0 ? -1 : n;
}

int inet_flows_report(struct obj *o, const char *tool, int desc, void (*header)(void),
		      void (*row)(const struct inet_flow_count *r))
{
	struct inet_flow_count *rows;
	long n;

	tool_flush();
	while (!tool_exiting)
		tool_sleep_ms(3600 * 1000);
	n = inet_flows_read(o, tool, desc, &rows);
	if (n < 0)
		return -1;
	out_doc_begin();
	header();
	for (long i = 0; i < n; i++)
		row(&rows[i]);
	free(rows);
	return out_doc_end() < 0 ? -1 : 1;
}
