/* mountsnoop: how a call reads as text, libbpf-tools' way: the CALL
 * column ("mount(\"src\", \"dest\", \"fs\", MS_RDONLY, \"data\") = -ENOENT")
 * and the -d block of one field a line. */
#ifndef COREBOX_MOUNTSNOOP_FMT_H
#define COREBOX_MOUNTSNOOP_FMT_H

#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

#include "mountsnoop.h"

/* "MOUNT", "UMOUNT", "FSOPEN", ... ("N/A" for an unknown op) */
const char *mountsnoop_op_name(unsigned op);
/* "0", "-ENOENT", or the number when the error has no name */
const char *mountsnoop_ret(char *buf, size_t size, int ret);
/* The flags as the call's own names joined by " | " ("0x0" for none; for
 * fsmount's attributes and move_mount's flags "" for none, as upstream). */
const char *mountsnoop_flags(char *buf, size_t size, const struct mountsnoop_event *e);
/* fsmount's attribute flags */
const char *mountsnoop_attr_flags(char *buf, size_t size, __u32 attr);
/* fsconfig's command name ("FSCONFIG_SET_STRING"; "UNKNOWN") */
const char *mountsnoop_cmd_name(unsigned cmd);
/* The CALL column */
void mountsnoop_call(char *buf, size_t size, const struct mountsnoop_event *e);
/* -d: the block of e (indented by 4 after a time stamp line when hms;
 * a CGROUP: line after MNT_NS: when cgroup, --show-cgroup) */
void mountsnoop_detailed(FILE *f, const struct mountsnoop_event *e, const char *comm,
			 const char *hms, const char *cgroup);

#endif
