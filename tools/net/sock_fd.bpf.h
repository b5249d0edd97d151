/* The socket behind a file descriptor of the current task, for tools
 * that see a socket call only as its syscall events (solisten at listen,
 * tcpaccept at accept's return): the task's file table gives the struct
 * file, whose private_data is the struct socket. */
#ifndef COREBOX_NET_SOCK_FD_BPF_H
#define COREBOX_NET_SOCK_FD_BPF_H

#include "corebox.bpf.h"
#include "inet.bpf.h"

/* The fields read here, as CO-RE flavors: the object's BTF then carries
 * these few members instead of task_struct's, file's and sock's whole
 * type graphs (about 10 KB compressed per tool); the trimmed vmlinux.h
 * has struct socket only by name anyway. */
struct file___sfd {
	void *private_data; /* a socket's file: its struct socket */
} __attribute__((preserve_access_index));
struct fdtable___sfd {
	unsigned int max_fds;
	struct file___sfd **fd;
} __attribute__((preserve_access_index));
struct files_struct___sfd {
	struct fdtable___sfd *fdt;
} __attribute__((preserve_access_index));
struct task_struct___sfd {
	struct files_struct___sfd *files;
} __attribute__((preserve_access_index));

struct socket___cb {
	short type; /* SOCK_STREAM, SOCK_DGRAM, ... */
	struct sock___cb *sk; /* inet.bpf.h's flavor of struct sock */
} __attribute__((preserve_access_index));

struct sock___proto {
	__u16 sk_protocol; /* a u16 since 5.6 (a bitfield before) */
} __attribute__((preserve_access_index));

/* NULL when fd is not open; the caller checks the socket's family,
 * since any file's private_data is read as a socket here. */
static __always_inline struct socket___cb *fd_socket(__u64 fd)
{
	struct task_struct___sfd *task = (void *)bpf_get_current_task();
	struct fdtable___sfd *fdt = BPF_CORE_READ(task, files, fdt);
	struct file___sfd **fds, *f = NULL;

	if (!fdt || fd >= BPF_CORE_READ(fdt, max_fds))
		return NULL;
	fds = BPF_CORE_READ(fdt, fd);
	bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
	return f ? (struct socket___cb *)BPF_CORE_READ(f, private_data) : NULL;
}

static __always_inline __u16 sk_protocol(const struct sock___cb *sk)
{
	return BPF_CORE_READ((const struct sock___proto *)sk, sk_protocol);
}

#endif
