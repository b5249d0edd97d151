/* What the block tools' user sides share (biolatency, biosnoop,
 * biopattern, bitesize): disk names and the kernel's dev_t, the request
 * argument of block_rq_insert/issue, cmd_flags decoding. */
#ifndef COREBOX_BLK_H
#define COREBOX_BLK_H

#include <stdbool.h>

#include <stddef.h>

struct btf;
struct obj;
struct strbuf;
struct tool_help;

/* The kernel's dev_t: major << 20 | minor (what the BPF side computes
 * from a gendisk and what block tracepoints record). */
#define BLK_MKDEV(ma, mi) (((unsigned)(ma) << 20) | (unsigned)(mi))

/* /proc/partitions.  blk_disk_name: the name of dev, NULL if none (the
 * table is read again once for a disk that appeared since). */
void blk_parts_load(void);
void blk_parts_free(void);
const char *blk_disk_name(unsigned dev);

/* A -d argument: a disk name from /proc/partitions ("sda", "nvme0n1") or
 * MAJ:MIN ("259:0").  0 and *dev, or -1 after "TOOL: ..." on stderr. */
int blk_disk_arg(const char *tool, const char *arg, unsigned *dev);

/* The -d DISK option of the four tools, for their option callbacks: a
 * usage error when too long, else *disk = arg. */
void blk_disk_opt(const struct tool_help *h, const char **disk, const char *arg);
/* Read /proc/partitions, resolve disk (NULL: every disk), open the tool's
 * embedded object and set its filter_dev/targ_dev globals.  NULL after a
 * message when the disk is unknown. */
struct obj *blk_open(const char *tool, const char *disk, const char *obj, size_t len);
#define BLK_OPEN(name, disk) blk_open(#name, (disk), name##_bpf_obj, (size_t)(name##_bpf_obj_end - name##_bpf_obj))

/* 1 when btf_trace_block_rq_issue is void (*)(void *, q, rq): kernels
 * before 5.11, where block_rq_insert/issue take the queue first. */
bool blk_rq_is_second_arg(const struct btf *kbtf);

/* cmd_flags: request op and flag bit numbers from the kernel's BTF
 * (enum req_op, enum req_flag_bits), the 6.x values without BTF. */
void blk_flags_init(const struct btf *kbtf);
/* biolatency -F: "Sync-Write" as libbpf-tools prints after "flags = ". */
void blk_flags_str(unsigned cmd_flags, struct strbuf *b);
/* biosnoop's T column, the rwbs string of libbpf-tools: [F]R|W|D|DE|F|N
 * then F (FUA), A (read-ahead), S (sync), M (meta).  buf >= 8 bytes. */
void blk_rwbs(unsigned cmd_flags, char *buf);

/* Who submitted each request, for a tool whose object includes
 * issuer.bpf.h (its programs block_io_start (tp_btf), io_start_fentry,
 * io_start_kprobe and the global pid_at_issue: biosnoop, biotop): the
 * way this kernel allows is left to
 * load, the others are switched off.  Returns the way, in words (-v). */
const char *blk_choose_attribution(struct obj *o);

#endif
