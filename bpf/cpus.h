/* CPU sets from /sys/devices/system/cpu/{possible,online} ("0-3,8-11"). */
#ifndef COREBOX_CPUS_H
#define COREBOX_CPUS_H

#include <stdbool.h>

/* Number of possible CPUs (highest possible id + 1); cached. */
int cpus_possible(void);
/* Fill online[0..n-1]; returns count of online CPUs or -errno. */
int cpus_online(bool *online, int n);
/* Parse a cpu list string into mask[0..n-1]; returns highest id + 1 or -EINVAL. */
int cpus_parse(const char *s, bool *mask, int n);

#endif
