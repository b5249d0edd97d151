/* solisten e2e helper: after the ready/go handshake (ready_go.h), listen
 * on N TCP sockets bound to 127.0.0.1 (kernel-chosen ports, backlog
 * 1..N), one bound to ::1 (when the host has IPv6 loopback), one not
 * bound at all (listen() picks its port: the tool shows port 0, as
 * libbpf-tools), and a UDP socket (listen() fails with EOPNOTSUPP, and
 * the tool must not show it).  Then print each listen the tool should
 * show, "RET BACKLOG PROTO PORT ADDR", and "done". */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ready_go.h"

static void report(int fd, int backlog)
{
	struct sockaddr_in6 a6 = { 0 };
	struct sockaddr_in *a4 = (struct sockaddr_in *)&a6;
	socklen_t len = sizeof(a6);
	char addr[64];
	int port;

	getsockname(fd, (struct sockaddr *)&a6, &len);
	if (a6.sin6_family == AF_INET6) {
		inet_ntop(AF_INET6, &a6.sin6_addr, addr, sizeof(addr));
		port = ntohs(a6.sin6_port);
	} else {
		inet_ntop(AF_INET, &a4->sin_addr, addr, sizeof(addr));
		port = ntohs(a4->sin_port);
	}
	printf("0 %d TCPv%d %d %s\n", backlog, a6.sin6_family == AF_INET6 ? 6 : 4, port, addr);
}

int main(int argc, char **argv)
{
	int n, fds[32], fd6, fdu, fdx, ret6 = -1;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };

	if (argc != 2 || sscanf(argv[1], "%d", &n) != 1 || n < 1 || n > 32) {
		fprintf(stderr, "usage: listens N (1 <= N <= 32)\n");
		return 2;
	}
	for (int i = 0; i < n; i++) {
		fds[i] = socket(AF_INET, SOCK_STREAM, 0);
		if (fds[i] < 0 || bind(fds[i], (struct sockaddr *)&a, sizeof(a)) < 0) {
			perror("socket/bind");
			return 1;
		}
	}
	fd6 = socket(AF_INET6, SOCK_STREAM, 0);
	if (fd6 >= 0 && bind(fd6, (struct sockaddr *)&a6, sizeof(a6)) < 0) {
		close(fd6);
		fd6 = -1;
	}
	fdx = socket(AF_INET, SOCK_STREAM, 0);
	fdu = socket(AF_INET, SOCK_DGRAM, 0);
	ready_go();
	for (int i = 0; i < n; i++)
		if (listen(fds[i], i + 1) < 0) {
			perror("listen");
			return 1;
		}
	if (fd6 >= 0)
		ret6 = listen(fd6, 5);
	listen(fdx, 9);
	if (listen(fdu, 3) == 0) {
		fprintf(stderr, "UDP listen succeeded\n");
		return 1;
	}
	for (int i = 0; i < n; i++)
		report(fds[i], i + 1);
	if (ret6 == 0)
		report(fd6, 5);
	printf("0 9 TCPv4 0 0.0.0.0\n");
	printf("done\n");
	fflush(stdout);
	return 0;
}
