/* Block tools' shared user side: disks, request argument layout, flags. */
#include "blk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/perf.h"
#include "btf/btf.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/scan.h"
#include "tools/common/common.h"
#include "tools/common/kfunc.h"

/* ---- /proc/partitions: name <-> dev ------------------------------------ */

struct part {
	unsigned dev;
	char name[64];
};
static struct part *parts;
static size_t nparts;

void blk_parts_free(void)
{
	free(parts);
	parts = NULL;
	nparts = 0;
}

void blk_parts_load(void)
{
	FILE *f = fopen("/proc/partitions", "re");
	char line[256], name[64];
	unsigned maj, min;
	unsigned long long blocks;

	blk_parts_free();
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (str_scan(line, "%u %u %llu %63s", &maj, &min, &blocks, name) != 4)
			continue;
		parts = xrealloc(parts, (nparts + 1) * sizeof(*parts));
		parts[nparts].dev = BLK_MKDEV(maj, min);
		snprintf(parts[nparts].name, sizeof(parts[nparts].name), "%s", name);
		nparts++;
	}
	fclose(f);
}

const char *blk_disk_name(unsigned dev)
{
	static int reloaded;
	size_t i;

	for (i = 0; i < nparts; i++)
		if (parts[i].dev == dev)
			return parts[i].name;
	if (!reloaded) { /* a disk that appeared since start-up */
		reloaded = 1;
		blk_parts_load();
		return blk_disk_name(dev);
	}
	return NULL;
}

/* Block requests carry the whole disk (gendisk major, first_minor): a
 * partition's dev would never match, so say so instead of tracing nothing. */
static bool is_partition(unsigned dev)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition", dev >> 20, dev & 0xfffff);
	return access(path, F_OK) == 0;
}

int blk_disk_arg(const char *tool, const char *arg, unsigned *dev)
{
	unsigned maj, min;
	const char *name = NULL;
	char tail;
	size_t i;

	if (!nparts)
		blk_parts_load();
	if (str_scan(arg, "%u:%u%c", &maj, &min, &tail) == 2) {
		if (maj >= 4096 || min >= (1u << 20)) {
			tool_err(tool, "invalid disk '%s': major or minor number out of range", arg);
			return -1;
		}
		*dev = BLK_MKDEV(maj, min);
		if (!(name = blk_disk_name(*dev))) {
			tool_err(tool, "no disk %u:%u in /proc/partitions", maj, min);
			return -1;
		}
	} else {
		for (i = 0; i < nparts && !name; i++)
			if (!strcmp(parts[i].name, arg)) {
				*dev = parts[i].dev;
				name = parts[i].name;
			}
		if (!name) {
			tool_err(tool, "invalid partition name: '%s' is not in /proc/partitions", arg);
			return -1;
		}
	}
	if (is_partition(*dev)) {
		tool_err(tool, "%s is a partition: block requests are counted per disk (name the disk)", name);
		return -1;
	}
	return 0;
}

/* ---- the request argument of block_rq_insert/issue --------------------- */

bool blk_rq_is_second_arg(const struct btf *btf)
{
	const struct btf_type *t;
	int32_t id;

	if (!btf)
		return false;
	id = btf_find(btf, "btf_trace_block_rq_issue", BTF_KIND_TYPEDEF);
	if (id <= 0)
		return false;
	t = btf_type_by_id(btf, (uint32_t)id);
	if (!t || !(t = btf_type_by_id(btf, t->type)) || btf_kind(t) != BTF_KIND_PTR)
		return false;
	t = btf_type_by_id(btf, t->type);
	if (!t || btf_kind(t) != BTF_KIND_FUNC_PROTO)
		return false;
	return btf_vlen(t) >= 3;
}

/* ---- cmd_flags ---------------------------------------------------------- */

static const struct flagname {
	const char *enumerator;
	const char *str;
	int fallback; /* bit / op value of the 6.x kernels */
} flag_names[] = {
	{ "__REQ_NOWAIT", "NoWait-", 21 },
	{ "__REQ_BACKGROUND", "Background-", 20 },
	{ "__REQ_RAHEAD", "ReadAhead-", 19 },
	{ "__REQ_PREFLUSH", "PreFlush-", 18 },
	{ "__REQ_FUA", "FUA-", 17 },
	{ "__REQ_INTEGRITY", "Integrity-", 16 },
	{ "__REQ_IDLE", "Idle-", 15 },
	{ "__REQ_NOMERGE", "NoMerge-", 14 },
	{ "__REQ_PRIO", "Priority-", 13 },
	{ "__REQ_META", "Metadata-", 12 },
	{ "__REQ_SYNC", "Sync-", 11 },
}, op_names[] = {
	{ "REQ_OP_READ", "Read", 0 },
	{ "REQ_OP_WRITE", "Write", 1 },
	{ "REQ_OP_FLUSH", "Flush", 2 },
	{ "REQ_OP_DISCARD", "Discard", 3 },
	{ "REQ_OP_SECURE_ERASE", "SecureErase", 5 },
	{ "REQ_OP_ZONE_RESET", "ZoneReset", 17 },
	{ "REQ_OP_WRITE_SAME", "WriteSame", -1 },
	{ "REQ_OP_ZONE_RESET_ALL", "ZoneResetAll", 19 },
	{ "REQ_OP_WRITE_ZEROES", "WriteZeroes", 9 },
	{ "REQ_OP_ZONE_OPEN", "ZoneOpen", 11 },
	{ "REQ_OP_ZONE_CLOSE", "ZoneClose", 13 },
	{ "REQ_OP_ZONE_FINISH", "ZoneFinish", 15 },
	{ "REQ_OP_SCSI_IN", "SCSIIn", -1 },
	{ "REQ_OP_SCSI_OUT", "SCSIOut", -1 },
	{ "REQ_OP_DRV_IN", "DrvIn", 34 },
	{ "REQ_OP_DRV_OUT", "DrvOut", 35 },
	{ "REQ_OP_ZONE_APPEND", "ZoneAppend", 7 },
};
enum { F_NOWAIT, F_BACKGROUND, F_RAHEAD, F_PREFLUSH, F_FUA, F_INTEGRITY, F_IDLE, F_NOMERGE, F_PRIO,
       F_META, F_SYNC };
enum { OP_READ, OP_WRITE, OP_FLUSH, OP_DISCARD, OP_SECURE_ERASE, OP_ZONE_RESET, OP_WRITE_SAME };
static int flag_bit[ARRAY_SIZE(flag_names)];
static int op_val[ARRAY_SIZE(op_names)];
static unsigned op_mask = 0xff;
static bool flags_ready;

/* The kernel BTF's enum ENUM_NAME, or NULL. */
static const struct btf_type *btf_enum_type(const struct btf *btf, const char *enum_name)
{
	int32_t id = btf ? btf_find(btf, enum_name, BTF_KIND_ENUM) : -ENOENT;

	return id > 0 ? btf_type_by_id(btf, (uint32_t)id) : NULL;
}

/* Value of enumerator NAME in enum type t (NULL: not in the BTF), or def. */
static long long btf_enum_val(const struct btf *btf, const struct btf_type *t, const char *name, long long def)
{
	if (!t)
		return def;
	for (uint32_t i = 0; i < btf_vlen(t); i++) {
		const struct btf_enum *e = &btf_enums(t)[i];

		if (!strcmp(btf_str(btf, e->name_off) ? btf_str(btf, e->name_off) : "", name))
			return e->val;
	}
	/* the enum exists but lacks the name: not on this kernel */
	return -1;
}

void blk_flags_init(const struct btf *btf)
{
	/* each enum looked up once: a lookup before the load is a scan of
	 * the kernel's types (btf_find.c) */
	const struct btf_type *flags = btf_enum_type(btf, "req_flag_bits"), *ops = btf_enum_type(btf, "req_op");
	long long bits;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(flag_names); i++)
		flag_bit[i] = (int)btf_enum_val(btf, flags, flag_names[i].enumerator, flag_names[i].fallback);
	for (i = 0; i < ARRAY_SIZE(op_names); i++)
		op_val[i] = (int)btf_enum_val(btf, ops, op_names[i].enumerator, op_names[i].fallback);
	/* REQ_OP_BITS == the first flag bit (__REQ_FAILFAST_DEV) */
	bits = btf_enum_val(btf, flags, "__REQ_FAILFAST_DEV", 8);
	if (bits > 0 && bits < 32)
		op_mask = (1u << bits) - 1;
	flags_ready = true;
}

static bool has_flag(unsigned flags, int f)
{
	if (!flags_ready)
		blk_flags_init(NULL);
	return flag_bit[f] >= 0 && flag_bit[f] < 32 && (flags & (1u << flag_bit[f]));
}

static bool is_op(unsigned flags, int op)
{
	if (!flags_ready)
		blk_flags_init(NULL);
	return op_val[op] >= 0 && (unsigned)op_val[op] == (flags & op_mask);
}

void blk_flags_str(unsigned flags, struct strbuf *b)
{
	const char *name = "Unknown";
	size_t i;

	strbuf_reset(b);
	for (i = 0; i < ARRAY_SIZE(flag_names); i++)
		if (has_flag(flags, (int)i))
			strbuf_add(b, flag_names[i].str);
	for (i = 0; i < ARRAY_SIZE(op_names); i++)
		if (is_op(flags, (int)i)) {
			name = op_names[i].str;
			break;
		}
	strbuf_add(b, name);
}

void blk_rwbs(unsigned flags, char *buf)
{
	int i = 0;

	if (has_flag(flags, F_PREFLUSH))
		buf[i++] = 'F';
	if (is_op(flags, OP_WRITE) || is_op(flags, OP_WRITE_SAME)) {
		buf[i++] = 'W';
	} else if (is_op(flags, OP_DISCARD)) {
		buf[i++] = 'D';
	} else if (is_op(flags, OP_SECURE_ERASE)) {
		buf[i++] = 'D';
		buf[i++] = 'E';
	} else if (is_op(flags, OP_FLUSH)) {
		buf[i++] = 'F';
	} else if (is_op(flags, OP_READ)) {
		buf[i++] = 'R';
	} else {
		buf[i++] = 'N';
	}
	if (has_flag(flags, F_FUA))
		buf[i++] = 'F';
	if (has_flag(flags, F_RAHEAD))
		buf[i++] = 'A';
	if (has_flag(flags, F_SYNC))
		buf[i++] = 'S';
	if (has_flag(flags, F_META))
		buf[i++] = 'M';
	buf[i] = 0;
}

/* ---- the -d DISK filter -------------------------------------------------- */

void blk_disk_opt(const struct tool_help *h, const char **disk, const char *arg)
{
	if (strlen(arg) >= 32)
		opt_usage_error(h, "invalid disk name: too long");
	*disk = arg;
}

struct obj *blk_open(const char *tool, const char *disk, const char *obj, size_t len)
{
	unsigned dev = 0;
	struct obj *o;

	blk_parts_load();
	if (disk && blk_disk_arg(tool, disk, &dev) < 0)
		return NULL;
	o = tool_open(tool, obj, len);
	if (disk) {
		OBJ_SET(o, filter_dev, (uint8_t)1);
		OBJ_SET(o, targ_dev, (uint32_t)dev);
	}
	return o;
}

/* Who submitted each request: the block_io_start tracepoint (6.5+), else
 * blk_account_io_start (or its older __ name) by fentry or kprobe, else
 * the task current at insert/issue time (right for direct and
 * synchronous I/O; a flusher thread for writeback). */
const char *blk_choose_attribution(struct obj *o)
{
	static const char *const fns[] = { "blk_account_io_start", "__blk_account_io_start" };
	static char how[96];
	enum kfunc_way h = KFUNC_NONE;
	int which = 0;

	if (perf_tp_exists("block", "block_io_start")) {
		prog_set_autoload(obj_prog(o, "io_start_fentry"), false);
		prog_set_autoload(obj_prog(o, "io_start_kprobe"), false);
		return "the block_io_start tracepoint";
	}
	prog_set_autoload(obj_prog(o, "block_io_start"), false);
	which = kfunc_pick(o, fns, (int)ARRAY_SIZE(fns), &h);
	if (h != KFUNC_FENTRY)
		prog_set_autoload(obj_prog(o, "io_start_fentry"), false);
	else
		prog_set_attach_target(obj_prog(o, "io_start_fentry"), fns[which]);
	if (h != KFUNC_KPROBE)
		prog_set_autoload(obj_prog(o, "io_start_kprobe"), false);
	else
		prog_set_attach_target(obj_prog(o, "io_start_kprobe"), fns[which]);
	if (h == KFUNC_NONE) {
		OBJ_SET(o, pid_at_issue, (uint8_t)1);
		return "the task current at insert/issue (no block_io_start tracepoint, no fentry or kprobe "
		       "on blk_account_io_start)";
	}
	snprintf(how, sizeof(how), "%s on %s", kfunc_way_name(h), fns[which]);
	return how;
}
