/* sslsniff, kernel side: the plaintext of TLS library reads and writes
 * (OpenSSL SSL_read/SSL_write and their _ex forms, GnuTLS gnutls_record_recv/send, NSS
 * PR_Read/Recv/Write/Send), and with -l --handshake SSL_do_handshake's
 * time, from uprobes as bcc's sslsniff: the entry keeps the buffer
 * address (every one of these functions has it as its second argument)
 * and the time per thread, the return copies what the call moved.  The
 * user side attaches each program to each library function it found. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "sslsniff.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid = 0;
const volatile __u32 target_uid = 0xffffffff; /* -1: all */
const volatile __u32 max_buf = 8192;          /* --max-buffer-size */

struct call {
	__u64 buf;
	__u64 ts;
	__u64 lenp; /* SSL_read_ex/SSL_write_ex: where the length goes (size_t *) */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct call);
} calls SEC(".maps");

CB_HEAP(heap, struct sslsniff_event);

static __always_inline int wanted(__u64 id, __u32 uid)
{
	return (!target_pid || (__u32)(id >> 32) == target_pid) && (target_uid == 0xffffffff || uid == target_uid);
}

static __always_inline int enter(struct pt_regs *ctx, __u64 buf, __u64 lenp)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct call c = { buf, bpf_ktime_get_ns(), lenp };

	if (!wanted(id, (__u32)bpf_get_current_uid_gid()))
		return 0;
	bpf_map_update_elem(&calls, &tid, &c, BPF_ANY);
	return 0;
}

static __always_inline int leave(struct pt_regs *ctx, __u32 rw)
{
	__u64 id = bpf_get_current_pid_tgid(), ts = bpf_ktime_get_ns();
	__u32 tid = (__u32)id, zero = 0, n = 0;
	struct call *c = bpf_map_lookup_elem(&calls, &tid);
	struct sslsniff_event *e;
	int len = (int)PT_REGS_RC(ctx);

	if (!c)
		return 0;
	if (c->lenp) { /* the _ex calls return 1 and store the length */
		__u64 moved = 0;

		if (len != 1 || bpf_probe_read_user(&moved, sizeof(moved), (void *)c->lenp))
			len = 0;
		else
			len = moved > 0x7fffffff ? 0x7fffffff : (int)moved;
	}
	e = bpf_map_lookup_elem(&heap, &zero);
	if (len <= 0 || !e)
		goto out;
	e->ts_ns = ts;
	e->delta_ns = ts - c->ts;
	e->pid = id >> 32;
	e->tid = tid;
	e->uid = (__u32)bpf_get_current_uid_gid();
	e->len = (__u32)len;
	e->rw = rw;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	if (rw != SSL_HANDSHAKE) {
		n = (__u32)len < max_buf ? (__u32)len : max_buf;
		if (n > SSLSNIFF_MAX_BUF)
			n = SSLSNIFF_MAX_BUF;
		if (bpf_probe_read_user(e->buf, n, (void *)c->buf))
			n = 0;
	}
	e->buf_size = n;
	if (n > SSLSNIFF_MAX_BUF) /* (for the verifier) */
		goto out;
	events_output(ctx, e, SSLSNIFF_HEAD_SIZE + n);
out:
	bpf_map_delete_elem(&calls, &tid);
	return 0;
}

SEC("uprobe")
int sslsniff_rw_enter(struct pt_regs *ctx)
{
	return enter(ctx, PT_REGS_PARM2(ctx), 0);
}

/* SSL_read_ex/SSL_write_ex(ssl, buf, num, size_t *readbytes/written):
 * OpenSSL 1.1.1+, what Python's ssl module calls */
SEC("uprobe")
int sslsniff_rw_ex_enter(struct pt_regs *ctx)
{
	return enter(ctx, PT_REGS_PARM2(ctx), PT_REGS_PARM4(ctx));
}

SEC("uretprobe")
int sslsniff_read_exit(struct pt_regs *ctx)
{
	return leave(ctx, SSL_READ);
}

SEC("uretprobe")
int sslsniff_write_exit(struct pt_regs *ctx)
{
	return leave(ctx, SSL_WRITE);
}

SEC("uprobe")
int sslsniff_hs_enter(struct pt_regs *ctx)
{
	return enter(ctx, 0, 0);
}

SEC("uretprobe")
int sslsniff_hs_exit(struct pt_regs *ctx)
{
	return leave(ctx, SSL_HANDSHAKE);
}
