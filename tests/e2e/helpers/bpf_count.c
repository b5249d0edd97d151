/* List the BPF programs, maps and links loaded in the kernel, one per line:
 *   prog ID NAME
 *   map ID NAME
 *   link ID PROG_ID PROG_NAME
 * e2e tests compare the lists taken before and after a tool run to check
 * that the tool left nothing loaded.  Needs root.  Plain bpf(2) calls. */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int next_id(int cmd, unsigned int start, unsigned int *next)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.start_id = start;
	if (sys_bpf(cmd, &a) < 0)
		return -errno;
	*next = a.next_id;
	return 0;
}

static int fd_by_id(int cmd, unsigned int id)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	if (cmd == BPF_PROG_GET_FD_BY_ID)
		a.prog_id = id;
	else if (cmd == BPF_MAP_GET_FD_BY_ID)
		a.map_id = id;
	else
		a.link_id = id;
	return (int)sys_bpf(cmd, &a);
}

static int info(int fd, void *buf, unsigned int len)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (unsigned int)fd;
	a.info.info_len = len;
	a.info.info = (unsigned long)buf;
	return (int)sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a);
}

int main(void)
{
	unsigned int id = 0;
	int err;

	while (!(err = next_id(BPF_PROG_GET_NEXT_ID, id, &id))) {
		struct bpf_prog_info pi;
		int fd = fd_by_id(BPF_PROG_GET_FD_BY_ID, id);

		memset(&pi, 0, sizeof(pi));
		if (fd < 0)
			continue; /* gone meanwhile */
		if (info(fd, &pi, sizeof(pi)) == 0)
			printf("prog %u %s\n", id, pi.name[0] ? pi.name : "-");
		close(fd);
	}
	if (err != -ENOENT) {
		fprintf(stderr, "bpf_count: BPF_PROG_GET_NEXT_ID: %s\n", strerror(-err));
		return 1;
	}
	id = 0;
	while (!(err = next_id(BPF_MAP_GET_NEXT_ID, id, &id))) {
		struct bpf_map_info mi;
		int fd = fd_by_id(BPF_MAP_GET_FD_BY_ID, id);

		memset(&mi, 0, sizeof(mi));
		if (fd < 0)
			continue; /* gone meanwhile */
		if (info(fd, &mi, sizeof(mi)) == 0)
			printf("map %u %s\n", id, mi.name[0] ? mi.name : "-");
		close(fd);
	}
	if (err != -ENOENT) {
		fprintf(stderr, "bpf_count: BPF_MAP_GET_NEXT_ID: %s\n", strerror(-err));
		return 1;
	}
	id = 0;
	while (!(err = next_id(BPF_LINK_GET_NEXT_ID, id, &id))) {
		struct bpf_link_info li;
		int fd = fd_by_id(BPF_LINK_GET_FD_BY_ID, id);

		memset(&li, 0, sizeof(li));
		if (fd < 0)
			continue;
		if (info(fd, &li, sizeof(li)) == 0) {
			struct bpf_prog_info pi;
			int pfd = fd_by_id(BPF_PROG_GET_FD_BY_ID, li.prog_id);

			memset(&pi, 0, sizeof(pi));
			if (pfd >= 0) {
				info(pfd, &pi, sizeof(pi));
				close(pfd);
			}
			printf("link %u %u %s\n", id, li.prog_id, pi.name[0] ? pi.name : "-");
		}
		close(fd);
	}
	if (err != -ENOENT && err != -EINVAL) { /* EINVAL: kernel without links */
		fprintf(stderr, "bpf_count: BPF_LINK_GET_NEXT_ID: %s\n", strerror(-err));
		return 1;
	}
	return 0;
}
