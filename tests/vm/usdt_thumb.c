/* A 32-bit ARM guest program of make vmtest (tests/vm/t_usdt.c): built
 * by run.sh as Thumb-2 code (-mthumb, Debian armhf gcc's default), with
 * one function forced to ARM code, each holding a USDT probe site
 * (<sys/sdt.h>): cbxvm:arm_site in cbxvm_arm_fn, cbxvm:thumb_site in
 * cbxvm_thumb_fn.  After a byte on stdin it calls both N times with
 * arguments 100 + i and 200 + i, prints "done" and exits 0; run.sh also
 * packs a stripped copy (no .symtab: no symbol says which code is Thumb). */
#include <stdio.h>
#include <sys/sdt.h>
#include <unistd.h>

#define CBXVM_USDT_N 5

__attribute__((noinline, target("arm"))) void cbxvm_arm_fn(int i)
{
	DTRACE_PROBE1(cbxvm, arm_site, i);
}

/* 4-aligned: the site the arm kernel's uprobes would not refuse (it
 * refuses only an address that is not a multiple of 4) */
__attribute__((noinline, aligned(4))) void cbxvm_thumb_fn(int i)
{
	DTRACE_PROBE1(cbxvm, thumb_site, i);
}

int main(void)
{
	char c;

	if (read(0, &c, 1) != 1)
		return 2;
	for (int i = 0; i < CBXVM_USDT_N; i++) {
		cbxvm_arm_fn(100 + i);
		cbxvm_thumb_fn(200 + i);
	}
	printf("done\n");
	return 0;
}
