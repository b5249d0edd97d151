/* tcpaccept e2e helper: bind two TCP listeners on 127.0.0.1 and one on
 * ::1 (when the host has IPv6 loopback), kernel-chosen ports (the second
 * on PORT2 when given, for a tool's port filter); after the
 * ready/go handshake (ready_go.h) connect to the first listener N times,
 * to the second once and to the IPv6 one once, accepting each at once
 * (accept(2) and accept4(2) in turn).  Then print each accept as the tool
 * shows it, "IP RADDR RPORT LADDR LPORT", then "ports P1 P2 P6" and
 * "done". */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ready_go.h"

static int nacc;

static int port_of(const struct sockaddr_in6 *a)
{
	return ntohs(a->sin6_family == AF_INET6 ? a->sin6_port : ((const struct sockaddr_in *)a)->sin_port);
}

static const char *addr_of(const struct sockaddr_in6 *a, char *buf, size_t size)
{
	if (a->sin6_family == AF_INET6)
		return inet_ntop(AF_INET6, &a->sin6_addr, buf, size);
	return inet_ntop(AF_INET, &((const struct sockaddr_in *)a)->sin_addr, buf, size);
}

static int listener(int family, int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	int fd = socket(family, SOCK_STREAM, 0);

	a.sin_port = htons(port);
	if (fd < 0)
		return -1;
	if ((family == AF_INET ? bind(fd, (struct sockaddr *)&a, sizeof(a))
			       : bind(fd, (struct sockaddr *)&a6, sizeof(a6))) < 0 ||
	    listen(fd, 64) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* connect to listener l, accept, print the line the tool should show */
static int one(int l, char *line, size_t size)
{
	struct sockaddr_in6 la, ra;
	socklen_t len = sizeof(la);
	char ls[64], rs[64];
	int c, a;

	getsockname(l, (struct sockaddr *)&la, &len);
	c = socket(la.sin6_family, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&la, len) < 0)
		return -1;
	a = nacc++ % 2 ? accept4(l, NULL, NULL, SOCK_CLOEXEC) : accept(l, NULL, NULL);
	if (a < 0)
		return -1;
	len = sizeof(ra);
	getpeername(a, (struct sockaddr *)&ra, &len);
	snprintf(line, size, "%d %s %d %s %d", la.sin6_family == AF_INET6 ? 6 : 4, addr_of(&ra, rs, sizeof(rs)),
		 port_of(&ra), addr_of(&la, ls, sizeof(ls)), port_of(&la));
	close(a);
	close(c);
	return 0;
}

int main(int argc, char **argv)
{
	static char lines[40][200];
	struct sockaddr_in6 a;
	socklen_t len;
	int n, port2 = 0, nl = 0, l1, l2, l6, ports[3] = { 0, 0, 0 };

	if (argc < 2 || argc > 3 || sscanf(argv[1], "%d", &n) != 1 || n < 1 || n > 32 ||
	    (argc == 3 && sscanf(argv[2], "%d", &port2) != 1)) {
		fprintf(stderr, "usage: accepts N [PORT2] (1 <= N <= 32)\n");
		return 2;
	}
	l1 = listener(AF_INET, 0);
	l2 = listener(AF_INET, port2);
	l6 = listener(AF_INET6, 0);
	if (l1 < 0 || l2 < 0) {
		perror("listen");
		return 1;
	}
	int ls[3] = { l1, l2, l6 };
	for (int i = 0; i < 3; i++) {
		len = sizeof(a);
		if (ls[i] >= 0 && getsockname(ls[i], (struct sockaddr *)&a, &len) == 0)
			ports[i] = port_of(&a);
	}
	ready_go();
	for (int i = 0; i < n; i++)
		if (one(l1, lines[nl++], sizeof(lines[0])) < 0) {
			perror("connect/accept");
			return 1;
		}
	if (one(l2, lines[nl++], sizeof(lines[0])) < 0) {
		perror("connect/accept");
		return 1;
	}
	if (l6 >= 0 && one(l6, lines[nl++], sizeof(lines[0])) < 0) {
		perror("connect/accept ::1");
		return 1;
	}
	for (int i = 0; i < nl; i++)
		printf("%s\n", lines[i]);
	printf("ports %d %d %d\ndone\n", ports[0], ports[1], ports[2]);
	fflush(stdout);
	return 0;
}
