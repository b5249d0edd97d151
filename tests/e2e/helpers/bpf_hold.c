/* bpflist e2e helper: create MAPS array maps and load PROGS trivial socket
 * filter programs (r0 = 0; exit), print "ready", then hold the
 * descriptors until killed.  Plain bpf(2) calls; needs root. */
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

int main(int argc, char **argv)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int maps, progs;

	if (argc != 3 || (maps = atoi(argv[1])) < 0 || (progs = atoi(argv[2])) < 0) {
		fprintf(stderr, "usage: bpf_hold MAPS PROGS\n");
		return 2;
	}
	for (int i = 0; i < maps; i++) {
		union bpf_attr a;

		memset(&a, 0, sizeof(a));
		a.map_type = BPF_MAP_TYPE_ARRAY;
		a.key_size = 4;
		a.value_size = 8;
		a.max_entries = 1;
		if (sys_bpf(BPF_MAP_CREATE, &a) < 0) {
			perror("BPF_MAP_CREATE");
			return 1;
		}
	}
	for (int i = 0; i < progs; i++) {
		union bpf_attr a;

		memset(&a, 0, sizeof(a));
		a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
		a.insns = (unsigned long)insns;
		a.insn_cnt = 2;
		a.license = (unsigned long)"GPL";
		if (sys_bpf(BPF_PROG_LOAD, &a) < 0) {
			perror("BPF_PROG_LOAD");
			return 1;
		}
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
