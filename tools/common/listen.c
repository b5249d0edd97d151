/* --listen ADDR:PORT of a summarizing tool: its series (those --prom
 * writes) served at GET /metrics by the small server of httpd.h, from
 * inside the tool's own waits (tool_sleep_ms, the event loop): one
 * process, no file, and a client can never hold the tracing loop up. */
#include "common.h"

#include <string.h>

#include "httpd.h"
#include "lib/strbuf.h"
#include "out_int.h"

static struct httpd *srv;

static int page(void *ctx, const char *path, struct strbuf *body, const char **ctype)
{
	(void)ctx;
	if (strcmp(path, "/metrics"))
		return 404;
	prom_render(body);
	*ctype = "text/plain; version=0.0.4; charset=utf-8";
	return 200;
}

int tool_listen_open(const char *name, const char *addr)
{
	srv = httpd_open(name, addr, page, NULL);
	return srv ? 0 : -1;
}

bool tool_listening(void)
{
	return srv != NULL;
}

short tool_listen_poll(int fd, int timeout_ms)
{
	struct pollfd p[HTTPD_MAX_CONN + 2];
	int n, t;

	p[0] = (struct pollfd){ .fd = fd, .events = 0 };
	n = 1 + httpd_pollfds(srv, p + 1);
	if ((t = httpd_timeout(srv)) >= 0 && (timeout_ms < 0 || t < timeout_ms))
		timeout_ms = t;
	if (poll(p, (nfds_t)n, timeout_ms) < 0)
		return 0;
	httpd_serve(srv, p + 1, n - 1); /* also drops the connections past their deadline */
	return fd >= 0 ? p[0].revents : 0;
}
