/* bashreadline: the event record shared by the BPF and user sides. */
#ifndef COREBOX_BASHREADLINE_H
#define COREBOX_BASHREADLINE_H

#define BASHREADLINE_LINE_LEN 80 /* libbpf-tools' MAX_LINE_SIZE: longer lines are cut */

struct bashreadline_event {
	__u32 pid;
	char str[BASHREADLINE_LINE_LEN];
};

#endif
