/* A stand-in for HotSpot's libjvm.so (no JVM is installed here): a shared
 * library named libjvm.so whose USDT probes have hotspot's provider and
 * names (gc__begin, gc__end, mem__pool__gc__begin, mem__pool__gc__end),
 * so javagc finds it in /proc/PID/maps as it finds a JVM's.  cbx_gc(kind,
 * ms) is one collection: the begin probe, a sleep of ms milliseconds, the
 * end probe; kind 0 uses gc__*, 1 mem__pool__gc__*. */
#include <sys/sdt.h>
#include <time.h>

void cbx_gc(int kind, long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	if (kind)
		DTRACE_PROBE4(hotspot, mem__pool__gc__begin, 0, 0, 0, 0);
	else
		DTRACE_PROBE1(hotspot, gc__begin, 0);
	if (ms)
		nanosleep(&ts, 0);
	if (kind)
		DTRACE_PROBE4(hotspot, mem__pool__gc__end, 0, 0, 0, 0);
	else
		DTRACE_PROBE(hotspot, gc__end);
}
