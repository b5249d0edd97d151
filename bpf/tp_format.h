/* Tracepoint format files (TRACEFS/events/CAT/EV/format): the record
 * layout of a perf tracepoint, field by field.  The tracing compiler types
 * its args-> fields with it; without kernel BTF the loader relocates the
 * tools' trace_event_raw_* reads against it (loader/kbtf_tracefs.c). */
#ifndef COREBOX_TP_FORMAT_H
#define COREBOX_TP_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

struct tp_field {
	char *name;
	char *type;          /* as written: "const char *", "char[16]" */
	uint32_t off, size;  /* both below TP_FORMAT_MAX_OFF (checked) */
	bool sign, data_loc;
};
struct tp_format {
	struct tp_field *f;
	int n;
	int first_arg;       /* syscalls: index of the first syscall argument field */
};
/* A record never reaches this (it lives in one ring-buffer page). */
#define TP_FORMAT_MAX_OFF 65536

/* TRACEFS/events/CAT/EV/format; 0 or -errno with a message. */
int tp_format_read(const char *cat, const char *ev, struct tp_format *out);
int tp_format_parse(const char *text, struct tp_format *out);
void tp_format_free(struct tp_format *f);
const struct tp_field *tp_field(const struct tp_format *f, const char *name);

#endif
