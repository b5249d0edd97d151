/* mdflush, kernel side: flush requests reaching md (software RAID)
 * arrays, at md_flush_request(mddev, bio) by fentry, else a kprobe, as
 * libbpf-tools: no tracepoint marks them (block:block_bio_queue sees
 * every flush bio, not which ones md handles).  The disk is the bio's
 * (bi_bdev->bd_disk, 5.12+). */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "mdflush.h"

char LICENSE[] SEC("license") = "GPL";

struct gendisk___md {
	char disk_name[32];
} __attribute__((preserve_access_index));
struct block_device___md {
	struct gendisk___md *bd_disk;
} __attribute__((preserve_access_index));
struct bio___md {
	struct block_device___md *bi_bdev;
} __attribute__((preserve_access_index));

static __always_inline int flushed(void *ctx, struct bio___md *bio)
{
	struct mdflush_event e = {};
	struct gendisk___md *disk = BPF_CORE_READ(bio, bi_bdev, bd_disk);

	e.pid = bpf_get_current_pid_tgid() >> 32;
	bpf_probe_read_kernel_str(e.disk, sizeof(e.disk), disk->disk_name);
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	events_output(ctx, &e, sizeof(e));
	return 0;
}

SEC("fentry/md_flush_request")
int BPF_PROG(mdflush_fentry, void *mddev, struct bio___md *bio)
{
	return flushed(ctx, bio);
}

SEC("kprobe/md_flush_request")
int mdflush_kprobe(struct pt_regs *ctx)
{
	return flushed(ctx, (struct bio___md *)PT_REGS_PARM2(ctx));
}
