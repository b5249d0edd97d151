/* getppid() at a steady rate: prints "ready PID", waits for SIGUSR1,
 * makes RATE calls a second for SECONDS (in 1 ms steps), prints
 * "done CALLS ACHIEVED_RATE" and exits.
 * Usage: paced RATE SECONDS */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t go;
static void on_usr1(int s) { (void)s; go = 1; }

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long rate = argc > 1 ? atol(argv[1]) : 10000, done = 0, total;
	double secs = argc > 2 ? atof(argv[2]) : 2, t0;

	signal(SIGUSR1, on_usr1);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (!go)
		pause();
	total = (long)(rate * secs);
	t0 = now();
	while (done < total) {
		/* catch up to where the clock says we should be */
		long due = (long)((now() - t0) * rate) + rate / 1000 + 1;

		if (due > total)
			due = total;
		while (done < due) {
			syscall(SYS_getppid);
			done++;
		}
		if (done < total) {
			struct timespec ts = { 0, 500000 };

			nanosleep(&ts, NULL);
		}
	}
	printf("done %ld %.0f\n", done, done / (now() - t0));
	fflush(stdout);
	return 0;
}
