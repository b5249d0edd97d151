#include "perf_cpus.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/cpus.h"
#include "bpf/perf.h"
#include "lib/err.h"
#include "lib/util.h"
#include "loader/obj.h"

int perf_cpus_attach(struct perf_cpus *pc, struct prog *p, uint32_t type, uint64_t config, bool freq,
		     uint64_t rate)
{
	int ncpus = cpus_possible(), err = 0;
	struct perf_event_attr a;
	bool *online;

	memset(pc, 0, sizeof(*pc));
	if (ncpus <= 0)
		return err_set(EINVAL, "cannot read the possible CPUs");
	online = xcalloc((size_t)ncpus, sizeof(*online));
	if (cpus_online(online, ncpus) < 0)
		for (int i = 0; i < ncpus; i++)
			online[i] = true;
	pc->fds = xcalloc((size_t)ncpus, sizeof(*pc->fds));
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.freq = freq;
	if (freq)
		a.sample_freq = rate;
	else
		a.sample_period = rate;
	for (int cpu = 0; cpu < ncpus && !err; cpu++) {
		int fd, r;

		if (!online[cpu])
			continue;
		fd = perf_event_open(&a, -1, cpu, -1, 0);
		if (fd == -ENODEV) /* went offline meanwhile */
			continue;
		if (fd < 0) {
			err = err_sys(-fd, "perf_event_open (type %u, config %llu) on CPU %d", type,
				      (unsigned long long)config, cpu);
			break;
		}
		pc->fds[pc->n++] = fd;
		if ((r = prog_attach_perf_fd(p, fd)) < 0)
			err = err_prefix(r, "attaching to the perf event of CPU %d", cpu);
	}
	if (!err && !pc->n)
		err = err_set(ENODEV, "no online CPU");
	free(online);
	return err;
}

void perf_cpus_close(struct perf_cpus *pc)
{
	for (int i = 0; i < pc->n; i++)
		close(pc->fds[i]);
	free(pc->fds);
	memset(pc, 0, sizeof(*pc));
}
