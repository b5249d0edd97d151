/* bashreadline, kernel side (libbpf-tools' semantics): a uretprobe on
 * readline() (bash's own, or the libreadline it links: the user side
 * sets the target) sends the line it returned, in processes named bash
 * only (other readline users, e.g. python, are not shells). */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "bashreadline.h"

char LICENSE[] SEC("license") = "GPL";

SEC("uretprobe")
int bashreadline_ret(struct pt_regs *ctx)
{
	const char *line = (const char *)PT_REGS_RC(ctx);
	struct bashreadline_event e = {};
	char comm[16];

	if (!line)
		return 0; /* end of input */
	bpf_get_current_comm(comm, sizeof(comm));
	if (comm[0] != 'b' || comm[1] != 'a' || comm[2] != 's' || comm[3] != 'h' || comm[4] != 0)
		return 0;
	e.pid = bpf_get_current_pid_tgid() >> 32;
	bpf_probe_read_user_str(e.str, sizeof(e.str), line);
	events_output(ctx, &e, sizeof(e));
	return 0;
}
