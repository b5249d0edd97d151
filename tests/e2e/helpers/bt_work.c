/* Ground truth for tests/e2e/bpftrace.sh:
 *   bt_work calls N [MS]     N calls of cbx_bt_target(), then MS ms alive
 *   bt_work open PATH K      K open(PATH) (the file need not exist)
 *   bt_work read A SA B SB   A reads of SA bytes, then B of SB, from
 *                            /dev/zero on fd 99
 *   bt_work struct M N TEXT  one call of cbxrec_take() with a struct
 *                            cbx_bt_rec holding M, N, TEXT, {M, N, M + N},
 *                            bitfields M & 15 and N & 255, M * 1000 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) int cbx_bt_target(int i)
{
	__asm__ volatile("" ::: "memory");
	return i * 2;
}

struct cbx_bt_rec {
	int m;
	short n;
	char name[8];
	int arr[3];
	unsigned lo : 4, hi : 8;
	long big;
};

__attribute__((noinline)) int cbxrec_take(struct cbx_bt_rec *r)
{
	__asm__ volatile("" : : "r"(r) : "memory");
	return r->m;
}

int main(int argc, char **argv)
{
	static char buf[65536];
	int sum = 0;

	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "calls")) {
		for (int i = 0; i < atoi(argv[2]); i++)
			sum += cbx_bt_target(i);
		if (argc == 4)
			usleep((useconds_t)atoi(argv[3]) * 1000);
		return sum == -1;
	}
	if (argc == 4 && !strcmp(argv[1], "open")) {
		for (int i = 0; i < atoi(argv[3]); i++) {
			int fd = open(argv[2], O_RDONLY);

			if (fd >= 0)
				close(fd);
		}
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "struct")) {
		struct cbx_bt_rec r = { .m = atoi(argv[2]), .n = (short)atoi(argv[3]) };

		strncpy(r.name, argv[4], sizeof(r.name) - 1);
		r.arr[0] = r.m;
		r.arr[1] = r.n;
		r.arr[2] = r.m + r.n;
		r.lo = (unsigned)r.m & 15;
		r.hi = (unsigned)r.n & 255;
		r.big = r.m * 1000L;
		return cbxrec_take(&r) != r.m;
	}
	if (argc == 6 && !strcmp(argv[1], "read")) {
		int fd = open("/dev/zero", O_RDONLY);

		if (fd < 0 || dup2(fd, 99) < 0)
			return 1;
		for (int r = 0; r < 2; r++) {
			int n = atoi(argv[2 + 2 * r]), size = atoi(argv[3 + 2 * r]);

			if (size < 0 || size > (int)sizeof(buf))
				return 2;
			for (int i = 0; i < n; i++)
				if (read(99, buf, (size_t)size) != size)
					return 1;
		}
		return 0;
	}
	return 2;
}
