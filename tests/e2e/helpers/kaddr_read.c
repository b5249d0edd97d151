/* kaddr_read ADDR: read(2) from fd 4242 into ADDR (hex), a kernel address:
 * the system call fails (no such fd), but a tracer shown its arguments
 * must read what they point to as user memory, never the kernel's. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: kaddr_read ADDR\n");
		return 2;
	}
	syscall(SYS_read, 4242, (void *)strtoull(argv[1], NULL, 16), 100);
	return 0;
}
