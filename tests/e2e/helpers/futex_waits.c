/* futex_waits N: a thread named cbx_futex makes exactly N FUTEX_WAITs
 * that are woken (return 0) on one futex word, each after about 2 ms:
 * the main thread wakes it 2 ms after /proc shows it asleep in futex(2).
 * Prints "ready PID TID 0xADDR", waits for SIGUSR1, then "done N" with
 * the waits that returned 0, and stays until SIGTERM (a tool reading its
 * user stacks at exit finds its mappings).  The waiting goes through cbx_futex_wait
 * (not inlined, frame pointers) so the user stack names cbx_futex_waiter. */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint32_t word;
static int n;
static volatile int woken;
static volatile int tid;
static volatile sig_atomic_t go, stop;

static void on_sig(int sig) { if (sig == SIGUSR1) go = 1; else stop = 1; }

/* 1 once the waiter is blocked in futex(2): /proc/self/task/TID/syscall
 * names the syscall a blocked task is in ("running" while it runs) */
static int waiter_asleep(void)
{
	char path[64], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	if (!(f = fopen(path, "r")))
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return atol(buf) == SYS_futex && buf[0] >= '0' && buf[0] <= '9';
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

__attribute__((noinline)) long cbx_futex_wait(uint32_t *w)
{
	return syscall(SYS_futex, w, FUTEX_WAIT, 0, NULL, NULL, 0);
}

__attribute__((noinline)) void *cbx_futex_waiter(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "cbx_futex");
	tid = (int)gettid();
	while (!go) /* no wait before the tool is there */
		sleep_us(1000);
	while (woken < n)
		if (cbx_futex_wait(&word) == 0)
			woken++;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc != 2)
		return 2;
	n = atoi(argv[1]);
	alarm(60);
	signal(SIGUSR1, on_sig);
	signal(SIGTERM, on_sig);
	if (pthread_create(&t, NULL, cbx_futex_waiter, NULL) != 0)
		return 1;
	while (!tid)
		sleep_us(1000);
	printf("ready %d %d %p\n", (int)getpid(), tid, (void *)&word);
	fflush(stdout);
	while (!go)
		sleep_us(1000); /* (the signal may go to the other thread) */
	for (int i = 0; i < n; i++) {
		/* the 2 ms start once the waiter is asleep in its next wait:
		 * timed from the last wake, a waiter slow to be scheduled waited
		 * only what was left of them (0.7 ms seen); timed from its return
		 * it could be preempted before futex(2) (0.16 ms seen in CI) */
		while (woken < i || !waiter_asleep())
			sleep_us(50);
		sleep_us(2000);
		while (syscall(SYS_futex, &word, FUTEX_WAKE, 1, NULL, NULL, 0) != 1)
			sleep_us(100);
	}
	pthread_join(t, NULL);
	printf("done %d\n", woken);
	fflush(stdout);
	while (!stop)
		sleep_us(1000); /* (the signal may go to the other thread) */
	return 0;
}
