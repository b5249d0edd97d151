/* A small HTTP/1.1 server for GET /metrics (corebox exporter, and a
 * summarizing tool's --listen): poll-driven, never blocking the caller's
 * loop, safe against hostile clients.  Each connection has a fixed
 * request buffer (HTTPD_REQ_MAX bytes: a longer head is 431), at most
 * HTTPD_MAX_HEADERS header lines, and one deadline from its accept (a
 * client that sends nothing, or a byte a second, is dropped when it
 * passes); at most HTTPD_MAX_CONN connections (more are answered 503 and
 * closed).  Only GET and HEAD (405 otherwise); the caller's page function
 * says which paths exist (404 otherwise).  Every response closes its
 * connection.  Each refused or failed request is one line on stderr. */
#ifndef COREBOX_TOOLS_HTTPD_H
#define COREBOX_TOOLS_HTTPD_H

#include <poll.h>
#include <stdint.h>

#define HTTPD_REQ_MAX 4096
#define HTTPD_MAX_HEADERS 32
#define HTTPD_MAX_CONN 8
#define HTTPD_DEADLINE_MS 5000  /* to send the request, from the accept */
#define HTTPD_SEND_MS 10000     /* to take the response */

struct strbuf;
/* The body of path (without the query) into body, its content type into
 * *ctype: the HTTP status (200, 404, 503...). */
typedef int (*httpd_page_fn)(void *ctx, const char *path, struct strbuf *body, const char **ctype);

struct httpd;
/* Listen on ADDR:PORT ("127.0.0.1:9435", "[::1]:9435", ":9435" for every
 * address); name prefixes the log lines.  NULL after "NAME: ..." on
 * stderr. */
struct httpd *httpd_open(const char *name, const char *listen, httpd_page_fn page, void *ctx);
/* The descriptors to poll (at most HTTPD_MAX_CONN + 1) into p: how many. */
int httpd_pollfds(const struct httpd *h, struct pollfd *p);
/* Milliseconds until the nearest connection deadline, or -1. */
int httpd_timeout(const struct httpd *h);
/* After poll(): accept, read, answer, write, and drop the expired.  p/n
 * as filled by httpd_pollfds (with revents). */
void httpd_serve(struct httpd *h, const struct pollfd *p, int n);
void httpd_close(struct httpd *h);

#endif
