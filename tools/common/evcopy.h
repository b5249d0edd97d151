/* How an event tool's callback takes a record from the ring or perf
 * buffer: copied out whole (perf buffer records are not aligned), a
 * record shorter than the tool's struct skipped, and the task name the
 * kernel wrote (comm: 16 bytes, NUL-padded, unterminated when full) made
 * a C string.  Every event tool repeated these lines; here they are once. */
#ifndef COREBOX_TOOLS_EVCOPY_H
#define COREBOX_TOOLS_EVCOPY_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define EV_COMM_LEN 16

/* Copy the record into *e (esize bytes); false when it is shorter. */
static inline bool ev_copy(void *e, size_t esize, const void *data, size_t size)
{
	if (size < esize)
		return false;
	memcpy(e, data, esize);
	return true;
}

/* comm (EV_COMM_LEN bytes) as a C string in buf; returns buf. */
static inline char *ev_comm(char buf[EV_COMM_LEN + 1], const char *comm)
{
	memcpy(buf, comm, EV_COMM_LEN);
	buf[EV_COMM_LEN] = 0;
	return buf;
}

#endif
