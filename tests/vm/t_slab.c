/* VM check of slabratetop where kmem:kmem_cache_alloc's record has no
 * cache name (6.1 and 6.12: the tool reads the tracepoint's arguments,
 * tp_btf or in the .fallback run raw_tp; the build host's 6.18 record has
 * it, tested by tests/e2e/slabratetop.sh).  Ground truth:
 * a gated child opens N_UDP IPv4 UDP sockets, one object of the "UDP"
 * cache each (or of the cache SLUB merged it into); slabratetop -C -p
 * CHILD must count exactly N_UDP of them over its reports. */
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "vm.h"

#define N_UDP 17

static void udp_work(void)
{
	int fds[N_UDP];

	for (int i = 0; i < N_UDP; i++)
		fds[i] = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	for (int i = 0; i < N_UDP; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* SLUB merges caches of one size and flags: 6.1's UDP sockets come from
 * a cache named for the first of them (signal_cache in the guest), as
 * libbpf-tools' cachep->name shows too.  name is the UDP cache when its
 * /sys/kernel/slab entry is the one UDP's leads to (or, with no such
 * directory, when it is "UDP"). */
static int is_udp_cache(const char *name)
{
	char path[128], mine[PATH_MAX], udp[PATH_MAX];

	if (!strcmp(name, "UDP"))
		return 1;
	snprintf(path, sizeof(path), "/sys/kernel/slab/%s", name);
	return realpath("/sys/kernel/slab/UDP", udp) && realpath(path, mine) && !strcmp(mine, udp);
}

static void test_slabratetop(const char *test, const char *disable)
{
	char pidarg[16], c[] = "-C", p[] = "-p", *argv[] = { "corebox", "slabratetop", c, p, pidarg, NULL };
	unsigned long long allocs = 0, bytes = 0;
	int rc, rows = 0;
	pid_t child;

	if ((rc = run_with_child(test, argv, pidarg, disable, "CACHE ", udp_work, &child)) == -1)
		return;
	for (const char *s = out; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL) {
		char name[40];
		unsigned long long a, b;

		if (sscanf(s, "%39s %llu %llu", name, &a, &b) == 3 && is_udp_cache(name))
			allocs += a, bytes += b, rows++;
	}
	result(test, allocs == N_UDP && bytes >= N_UDP * 64ull && rc == 0,
	       "-p child: the UDP cache %llu allocations (%d sockets), %llu bytes, in %d rows; exit %d", allocs, N_UDP, bytes,
	       rows, rc);
	if (!last_ok)
		dump_output(test);
}

VM_TEST("slabratetop", test_slabratetop);
