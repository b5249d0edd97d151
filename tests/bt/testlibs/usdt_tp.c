/* libusdt_tp.so: USDT probes in a shared library, tracetestlib:lib_probe_1
 * (two sites) and tracetestlib2:lib_probe_2, fired by each tick(). */
#include <sys/sdt.h>
#include <sys/time.h>

long tick(void)
{
	struct timeval tv;

	gettimeofday(&tv, 0);
	DTRACE_PROBE2(tracetestlib, lib_probe_1, tv.tv_sec, "Hello world");
	DTRACE_PROBE2(tracetestlib, lib_probe_1, tv.tv_sec, "Hello world2");
	DTRACE_PROBE2(tracetestlib2, lib_probe_2, tv.tv_sec, "Hello world3");
	return tv.tv_sec;
}
