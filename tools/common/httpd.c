/* The small HTTP server of httpd.h.  Nothing here waits: the caller
 * polls the descriptors with its own (events, children, a sleep) and
 * hands the result to httpd_serve(). */
#include "httpd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/strbuf.h"
#include "lib/util.h"

#define STR_(x) #x
#define STR(x) STR_(x)

struct conn {
	int fd;             /* -1: free */
	uint64_t deadline;  /* ns (now_ns) */
	size_t got, sent;
	bool answering;     /* the response is in resp, being written */
	struct strbuf resp;
	char peer[64];
	char req[HTTPD_REQ_MAX];
};

struct httpd {
	const char *name;
	int lfd;
	httpd_page_fn page;
	void *ctx;
	struct conn conn[HTTPD_MAX_CONN];
};

static void logf_peer(const struct httpd *h, const struct conn *c, const char *what)
{
	fprintf(stderr, "%s: http client %s: %s\n", h->name, c->peer, what);
}

static int listen_on(const struct sockaddr *sa, socklen_t len, bool dual)
{
	int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), one = 1, zero = 0;

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (dual)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, sa, len) < 0 || listen(fd, 16) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

struct httpd *httpd_open(const char *name, const char *listen, httpd_page_fn page, void *ctx)
{
	char host[256], *colon;
	const char *port;
	struct httpd *h;
	int fd = -1;

	if (strlen(listen) >= sizeof(host) || !(colon = strrchr(strcpy(host, listen), ':')) || !colon[1]) {
		fprintf(stderr, "%s: --listen %s: want ADDR:PORT (127.0.0.1:9435, [::1]:9435, :9435)\n", name,
			listen);
		return NULL;
	}
	*colon = 0;
	port = colon + 1;
	if (host[0] == '[' && colon > host + 1 && colon[-1] == ']') { /* [v6]:port */
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = 0;
	}
	/* numeric addresses only (and localhost): a name lookup would pull
	 * the libc resolver into the binary for no use */
	{
		struct sockaddr_in6 s6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_ANY_INIT };
		struct sockaddr_in s4 = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY) };
		char *end;
		long p = strtol(port, &end, 10);

		if (*end || p < 0 || p > 65535) {
			fprintf(stderr, "%s: --listen %s: bad port '%s'\n", name, listen, port);
			return NULL;
		}
		s6.sin6_port = s4.sin_port = htons((uint16_t)p);
		if (!strcmp(host, "localhost"))
			strcpy(host, "127.0.0.1");
		errno = 0;
		if (!host[0]) { /* every address: IPv6 taking IPv4 too, else IPv4 */
			fd = listen_on((struct sockaddr *)&s6, sizeof(s6), true);
			if (fd < 0 && errno != EADDRINUSE)
				fd = listen_on((struct sockaddr *)&s4, sizeof(s4), false);
		} else if (inet_pton(AF_INET, host, &s4.sin_addr) == 1) {
			fd = listen_on((struct sockaddr *)&s4, sizeof(s4), false);
		} else if (inet_pton(AF_INET6, host, &s6.sin6_addr) == 1) {
			fd = listen_on((struct sockaddr *)&s6, sizeof(s6), false);
		} else {
			fprintf(stderr, "%s: --listen %s: '%s' is not an IPv4 or IPv6 address\n", name, listen, host);
			return NULL;
		}
	}
	if (fd < 0) {
		fprintf(stderr, "%s: cannot listen on %s: %s%s\n", name, listen, strerror(errno),
			errno == EADDRINUSE ? " (another exporter? pick another port)" : "");
		return NULL;
	}
	h = xcalloc(1, sizeof(*h));
	h->name = name;
	h->lfd = fd;
	h->page = page;
	h->ctx = ctx;
	for (int i = 0; i < HTTPD_MAX_CONN; i++)
		h->conn[i].fd = -1;
	return h;
}

int httpd_pollfds(const struct httpd *h, struct pollfd *p)
{
	int n = 0;

	p[n++] = (struct pollfd){ .fd = h->lfd, .events = POLLIN };
	for (int i = 0; i < HTTPD_MAX_CONN; i++)
		if (h->conn[i].fd >= 0)
			p[n++] = (struct pollfd){ .fd = h->conn[i].fd,
						  .events = h->conn[i].answering ? POLLOUT : POLLIN };
	return n;
}

int httpd_timeout(const struct httpd *h)
{
	uint64_t now = now_ns(), best = UINT64_MAX;

	for (int i = 0; i < HTTPD_MAX_CONN; i++)
		if (h->conn[i].fd >= 0 && h->conn[i].deadline < best)
			best = h->conn[i].deadline;
	if (best == UINT64_MAX)
		return -1;
	return best <= now ? 0 : (int)((best - now) / 1000000 + 1);
}

static void drop(struct conn *c)
{
	close(c->fd);
	c->fd = -1;
	c->answering = false;
	strbuf_free(&c->resp);
}

static const char *reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 400: return "Bad Request";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 431: return "Request Header Fields Too Large";
	case 503: return "Service Unavailable";
	default: return "Error";
	}
}

/* Put the response in c->resp and start writing it. */
static void respond(struct conn *c, int status, const char *ctype, const struct strbuf *body, bool head)
{
	size_t blen = body && body->s ? body->len : 0;

	strbuf_reset(&c->resp);
	strbuf_addf(&c->resp, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%s"
			      "Connection: close\r\n\r\n",
		    status, reason(status), ctype, blen, status == 405 ? "Allow: GET, HEAD\r\n" : "");
	if (blen && !head)
		strbuf_addn(&c->resp, body->s, blen);
	c->answering = true;
	c->sent = 0;
	c->deadline = now_ns() + HTTPD_SEND_MS * 1000000ull;
}

static void refuse(struct httpd *h, struct conn *c, int status, const char *why)
{
	struct strbuf b = { 0 };
	char msg[160];

	snprintf(msg, sizeof(msg), "%s (%d)", why, status);
	logf_peer(h, c, msg);
	strbuf_reset(&b);
	strbuf_addf(&b, "%d %s\n", status, reason(status));
	respond(c, status, "text/plain; charset=utf-8", &b, false);
	strbuf_free(&b);
}

static bool is_token_char(char ch)
{
	return ch >= 'A' && ch <= 'Z';
}

/* The head is complete at req[0..len): answer it. */
static void handle(struct httpd *h, struct conn *c, size_t len)
{
	char *line_end = memchr(c->req, '\n', len), *sp1, *sp2, *q;
	char path[256], msg[128];
	const char *ctype = "text/plain; charset=utf-8";
	struct strbuf body = { 0 };
	unsigned lines = 0;
	bool head;
	int status;

	for (size_t i = 0; i < len; i++)
		lines += c->req[i] == '\n';
	if (lines > HTTPD_MAX_HEADERS + 2) { /* the request line, headers, the empty line */
		refuse(h, c, 431, "too many header lines");
		return;
	}
	if (!line_end) {
		refuse(h, c, 400, "malformed request line");
		return;
	}
	*line_end = 0;
	if (line_end > c->req && line_end[-1] == '\r')
		line_end[-1] = 0;
	sp1 = strchr(c->req, ' ');
	sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
	if (!sp1 || !sp2 || sp1 == c->req || sp1 - c->req > 16 || sp2[1] == 0 || strchr(sp2 + 1, ' ') ||
	    strncmp(sp2 + 1, "HTTP/1.", 7) || sp1[1] != '/') {
		refuse(h, c, 400, "malformed request line");
		return;
	}
	for (char *m = c->req; m < sp1; m++)
		if (!is_token_char(*m)) {
			refuse(h, c, 400, "malformed method");
			return;
		}
	*sp1 = *sp2 = 0;
	for (char *t = sp1 + 1; *t; t++)
		if ((unsigned char)*t <= ' ' || *t == 0x7f) {
			refuse(h, c, 400, "control byte in the path");
			return;
		}
	head = !strcmp(c->req, "HEAD");
	if (!head && strcmp(c->req, "GET")) {
		snprintf(msg, sizeof(msg), "method %.16s not allowed", c->req);
		refuse(h, c, 405, msg);
		return;
	}
	snprintf(path, sizeof(path), "%s", sp1 + 1);
	if ((q = strchr(path, '?')))
		*q = 0;
	strbuf_reset(&body);
	status = h->page(h->ctx, path, &body, &ctype);
	if (status == 404) {
		struct strbuf esc = { 0 };

		strbuf_reset(&esc);
		strbuf_add_escaped(&esc, path, NULL);
		snprintf(msg, sizeof(msg), "no page %.64s (404)", esc.s);
		strbuf_free(&esc);
		logf_peer(h, c, msg);
	}
	respond(c, status, ctype, &body, head);
	strbuf_free(&body);
}

static void on_readable(struct httpd *h, struct conn *c)
{
	ssize_t r = read(c->fd, c->req + c->got, sizeof(c->req) - 1 - c->got);
	char *end;

	if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
		if (c->got)
			logf_peer(h, c, r == 0 ? "closed before the request was complete"
					       : "read failed; dropped");
		drop(c);
		return;
	}
	if (r < 0)
		return;
	c->got += (size_t)r;
	c->req[c->got] = 0;
	if (memchr(c->req, 0, c->got)) {
		refuse(h, c, 400, "NUL byte in the request");
		return;
	}
	/* the head ends at an empty line; len takes its last line's end */
	if ((end = strstr(c->req, "\r\n\r\n")) || (end = strstr(c->req, "\n\n"))) {
		handle(h, c, (size_t)(end - c->req) + (*end == '\r' ? 2 : 1));
		return;
	}
	if (c->got >= sizeof(c->req) - 1)
		refuse(h, c, 431, "request head over " STR(HTTPD_REQ_MAX) " bytes");
}

static void on_writable(struct httpd *h, struct conn *c)
{
	ssize_t w = send(c->fd, c->resp.s + c->sent, c->resp.len - c->sent, MSG_NOSIGNAL | MSG_DONTWAIT);

	if (w < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (w < 0) {
		logf_peer(h, c, "went away before the response was sent");
		drop(c);
		return;
	}
	c->sent += (size_t)w;
	if (c->sent == c->resp.len) {
		shutdown(c->fd, SHUT_WR);
		drop(c);
	}
}

static void on_accept(struct httpd *h)
{
	for (int k = 0; k < HTTPD_MAX_CONN; k++) { /* what the backlog holds, bounded */
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		int fd = accept4(h->lfd, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct conn *c = NULL;
		char addr[INET6_ADDRSTRLEN] = "?";
		unsigned port = 0;

		if (fd < 0)
			return;
		if (ss.ss_family == AF_INET) {
			struct sockaddr_in *s = (struct sockaddr_in *)&ss;

			inet_ntop(AF_INET, &s->sin_addr, addr, sizeof(addr));
			port = ntohs(s->sin_port);
		} else if (ss.ss_family == AF_INET6) {
			struct sockaddr_in6 *s = (struct sockaddr_in6 *)&ss;

			inet_ntop(AF_INET6, &s->sin6_addr, addr, sizeof(addr));
			port = ntohs(s->sin6_port);
		}
		for (int i = 0; i < HTTPD_MAX_CONN && !c; i++)
			if (h->conn[i].fd < 0)
				c = &h->conn[i];
		if (!c) { /* full: a one-line 503 if the socket takes it, then gone */
			static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
						   "Connection: close\r\n\r\n";

			fprintf(stderr, "%s: http client %s:%u: over %d connections; refused (503)\n", h->name, addr,
				port, HTTPD_MAX_CONN);
			if (send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
				(void)0;
			close(fd);
			continue;
		}
		memset(c, 0, offsetof(struct conn, req));
		c->fd = fd;
		c->deadline = now_ns() + HTTPD_DEADLINE_MS * 1000000ull;
		snprintf(c->peer, sizeof(c->peer), "%s:%u", addr, port);
	}
}

void httpd_serve(struct httpd *h, const struct pollfd *p, int n)
{
	uint64_t now;

	for (int k = 0; k < n; k++) {
		struct conn *c = NULL;

		if (!p[k].revents)
			continue;
		if (p[k].fd == h->lfd) {
			on_accept(h);
			continue;
		}
		for (int i = 0; i < HTTPD_MAX_CONN && !c; i++)
			if (h->conn[i].fd == p[k].fd)
				c = &h->conn[i];
		if (!c)
			continue;
		if (c->answering)
			on_writable(h, c);
		else
			on_readable(h, c);
	}
	now = now_ns();
	for (int i = 0; i < HTTPD_MAX_CONN; i++) {
		struct conn *c = &h->conn[i];

		if (c->fd < 0 || now < c->deadline)
			continue;
		logf_peer(h, c, c->answering ? "did not take the response in time; dropped"
					     : "request not complete within " STR(HTTPD_DEADLINE_MS) " ms; dropped");
		drop(c);
	}
}

void httpd_close(struct httpd *h)
{
	if (!h)
		return;
	for (int i = 0; i < HTTPD_MAX_CONN; i++)
		if (h->conn[i].fd >= 0)
			drop(&h->conn[i]);
	close(h->lfd);
	free(h);
}
