/* TCP ground truth for the network tools' tests (tcplife, tcpconnect,
 * tcpconnlat, tcpstates, tcpretrans).
 *
 *   tcp_pair server ADDR PORT N REPLY
 *                                  listen on ADDR:PORT (IPv4 or IPv6), print
 *                                  "ready", then serve N connections one
 *                                  after the other: read until EOF, send
 *                                  REPLY bytes, close.
 *   tcp_pair client ADDR PORT BYTES [GAP_MS]
 *                                  connect, send BYTES (in 1000-byte
 *                                  writes GAP_MS apart, default 0), shut
 *                                  down the write side, read the reply to
 *                                  EOF, then print
 *                                  "lport=L sent=S received=R retrans=T"
 *                                  (T: the kernel's tcpi_total_retrans for
 *                                  this socket) and close.
 * Every wait is bounded (SO_RCVTIMEO / SO_SNDTIMEO 20 s). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static void timeouts(int fd)
{
	struct timeval tv = { 20, 0 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static int fill(int fd, long n)
{
	static char buf[1000];

	memset(buf, 'x', sizeof(buf));
	while (n > 0) {
		ssize_t w = write(fd, buf, n < (long)sizeof(buf) ? (size_t)n : sizeof(buf));

		if (w <= 0)
			return -1;
		n -= w;
	}
	return 0;
}

static long drain(int fd)
{
	char buf[65536];
	long total = 0;
	ssize_t r;

	while ((r = read(fd, buf, sizeof(buf))) > 0)
		total += r;
	return r < 0 ? -1 : total;
}

/* ADDR:PORT -> sockaddr; its length, or 0 for a bad address */
static socklen_t make_addr(const char *addr, int port, struct sockaddr_storage *ss)
{
	struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, addr, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		a4->sin_port = htons((unsigned short)port);
		return sizeof(*a4);
	}
	if (inet_pton(AF_INET6, addr, &a6->sin6_addr) == 1) {
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons((unsigned short)port);
		return sizeof(*a6);
	}
	fprintf(stderr, "tcp_pair: bad address %s\n", addr);
	return 0;
}

static int server(const char *addr, int port, int n, long reply)
{
	struct sockaddr_storage ss;
	socklen_t len = make_addr(addr, port, &ss);
	int s, one = 1;

	if (!len)
		return 2;
	s = socket(ss.ss_family, SOCK_STREAM, 0);
	if (s < 0)
		return 1;
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s, (struct sockaddr *)&ss, len) < 0 || listen(s, 16) < 0) {
		perror("tcp_pair server");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (int i = 0; i < n; i++) {
		int c = accept(s, NULL, NULL);

		if (c < 0)
			return 1;
		timeouts(c);
		if (drain(c) < 0 || fill(c, reply) < 0)
			fprintf(stderr, "tcp_pair server: connection %d failed\n", i);
		close(c);
	}
	close(s);
	return 0;
}

static int client(const char *addr, int port, long bytes, int gap_ms)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
	socklen_t len = make_addr(addr, port, &ss);
	struct tcp_info ti;
	int s, one = 1;
	long got, sent = 0;

	if (!len)
		return 2;
	s = socket(ss.ss_family, SOCK_STREAM, 0);
	if (s < 0)
		return 1;
	timeouts(s);
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(s, (struct sockaddr *)&ss, len) < 0) {
		perror("tcp_pair client: connect");
		return 1;
	}
	while (sent < bytes) {
		long n = bytes - sent < 1000 ? bytes - sent : 1000;

		if (fill(s, n) < 0) {
			perror("tcp_pair client: write");
			return 1;
		}
		sent += n;
		if (gap_ms) {
			struct timespec ts = { gap_ms / 1000, (gap_ms % 1000) * 1000000L };

			nanosleep(&ts, NULL);
		}
	}
	shutdown(s, SHUT_WR);
	got = drain(s);
	len = sizeof(ti);
	memset(&ti, 0, sizeof(ti));
	getsockopt(s, IPPROTO_TCP, TCP_INFO, &ti, &len);
	len = sizeof(ss);
	getsockname(s, (struct sockaddr *)&ss, &len);
	printf("lport=%d sent=%ld received=%ld retrans=%u\n",
	       ntohs(ss.ss_family == AF_INET6 ? a6->sin6_port : a4->sin_port), sent, got, ti.tcpi_total_retrans);
	fflush(stdout);
	close(s);
	return got < 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "server"))
		return server(argv[2], atoi(argv[3]), atoi(argv[4]), atol(argv[5]));
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "client"))
		return client(argv[2], atoi(argv[3]), atol(argv[4]), argc == 6 ? atoi(argv[5]) : 0);
	fprintf(stderr, "usage: tcp_pair server ADDR PORT N REPLY | client ADDR PORT BYTES [GAP_MS]\n");
	return 2;
}
