/* mountsnoop's text forms (see mountsnoop_fmt.h).  mount and umount are
 * libbpf-tools 0.26's byte for byte, quirks included: its MS_* names are
 * a table by bit position (bit 14, MS_REC, reads MS_VERBOSE) and umount's
 * flags (MNT_*) go through it too.  The new mount API calls (not in 0.26)
 * have upstream's later layout with their own flag names, where upstream
 * reuses the MS_* table for fsopen, lists MOUNT_ATTR__ATIME for any atime
 * bit and never fills move_mount's flags. */
#include <string.h>

#include "tools/common/common.h"
#include "lib/util.h"
#include "mountsnoop_fmt.h"

#define CB_AT_FDCWD (-100)

static const char *const ms_names[32] = {
	"MS_RDONLY", "MS_NOSUID", "MS_NODEV", "MS_NOEXEC", "MS_SYNCHRONOUS", "MS_REMOUNT",
	"MS_MANDLOCK", "MS_DIRSYNC", "MS_NOSYMFOLLOW", "MS_NOATIME", "MS_NODIRATIME", "MS_BIND",
	"MS_MOVE", "MS_REC", "MS_VERBOSE", "MS_SILENT", "MS_POSIXACL", "MS_UNBINDABLE",
	"MS_PRIVATE", "MS_SLAVE", "MS_SHARED", "MS_RELATIME", "MS_KERNMOUNT", "MS_I_VERSION",
	"MS_STRICTATIME", "MS_LAZYTIME", "MS_SUBMOUNT", "MS_NOREMOTELOCK", "MS_NOSEC", "MS_BORN",
	"MS_ACTIVE", "MS_NOUSER",
};

struct flag_name {
	__u32 value;
	const char *name;
};

static const struct flag_name fsopen_names[] = { { 0x1, "FSOPEN_CLOEXEC" }, { 0, NULL } };
static const struct flag_name fsmount_names[] = { { 0x1, "FSMOUNT_CLOEXEC" }, { 0, NULL } };
/* the atime bits (0x70) are a field: NOATIME and STRICTATIME are values of it */
static const struct flag_name attr_names[] = {
	{ 0x1, "MOUNT_ATTR_RDONLY" }, { 0x2, "MOUNT_ATTR_NOSUID" }, { 0x4, "MOUNT_ATTR_NODEV" },
	{ 0x8, "MOUNT_ATTR_NOEXEC" }, { 0x80, "MOUNT_ATTR_NODIRATIME" },
	{ 0x100000, "MOUNT_ATTR_IDMAP" }, { 0x200000, "MOUNT_ATTR_NOSYMFOLLOW" }, { 0, NULL },
};
static const struct flag_name move_names[] = {
	{ 0x1, "MOVE_MOUNT_F_SYMLINKS" }, { 0x2, "MOVE_MOUNT_F_AUTOMOUNTS" },
	{ 0x4, "MOVE_MOUNT_F_EMPTY_PATH" }, { 0x10, "MOVE_MOUNT_T_SYMLINKS" },
	{ 0x20, "MOVE_MOUNT_T_AUTOMOUNTS" }, { 0x40, "MOVE_MOUNT_T_EMPTY_PATH" },
	{ 0x100, "MOVE_MOUNT_SET_GROUP" }, { 0x200, "MOVE_MOUNT_BENEATH" }, { 0, NULL },
};

static const char *const cmd_names[] = {
	"FSCONFIG_SET_FLAG", "FSCONFIG_SET_STRING", "FSCONFIG_SET_BINARY",
	"FSCONFIG_SET_PATH", "FSCONFIG_SET_PATH_EMPTY", "FSCONFIG_SET_FD",
	"FSCONFIG_CMD_CREATE", "FSCONFIG_CMD_RECONFIGURE", "FSCONFIG_CMD_CREATE_EXCL",
};

static const char *const op_names[] = {
	[MOUNTSNOOP_MOUNT] = "MOUNT", [MOUNTSNOOP_UMOUNT] = "UMOUNT",
	[MOUNTSNOOP_FSOPEN] = "FSOPEN", [MOUNTSNOOP_FSCONFIG] = "FSCONFIG",
	[MOUNTSNOOP_FSMOUNT] = "FSMOUNT", [MOUNTSNOOP_MOVE_MOUNT] = "MOVE_MOUNT",
};

const char *mountsnoop_op_name(unsigned op)
{
	return op < ARRAY_SIZE(op_names) && op_names[op] ? op_names[op] : "N/A";
}

const char *mountsnoop_cmd_name(unsigned cmd)
{
	return cmd < ARRAY_SIZE(cmd_names) ? cmd_names[cmd] : "UNKNOWN";
}

const char *mountsnoop_ret(char *buf, size_t size, int ret)
{
	const char *name = ret < 0 ? errno_name(-ret) : NULL;

	if (!ret)
		return "0";
	if (name)
		snprintf(buf, size, "-%s", name);
	else
		snprintf(buf, size, "%d", ret);
	return buf;
}

/* names joined by " | " into buf (NUL-terminated, possibly empty) */
static void join(char *buf, size_t size, size_t *n, const char *name)
{
	if (*n < size)
		*n += (size_t)snprintf(buf + *n, size - *n, "%s%s", *n ? " | " : "", name);
}

static const char *names_of(char *buf, size_t size, __u32 flags, const struct flag_name *t)
{
	size_t n = 0;

	buf[0] = 0;
	for (; t->name; t++)
		if (flags & t->value)
			join(buf, size, &n, t->name);
	return buf;
}

const char *mountsnoop_attr_flags(char *buf, size_t size, __u32 attr)
{
	size_t n;

	names_of(buf, size, attr, attr_names);
	n = strlen(buf);
	if ((attr & 0x70) == 0x10)
		join(buf, size, &n, "MOUNT_ATTR_NOATIME");
	else if ((attr & 0x70) == 0x20)
		join(buf, size, &n, "MOUNT_ATTR_STRICTATIME");
	return buf;
}

const char *mountsnoop_flags(char *buf, size_t size, const struct mountsnoop_event *e)
{
	size_t n = 0;

	switch (e->op) {
	case MOUNTSNOOP_FSOPEN:
		return e->flags ? names_of(buf, size, (__u32)e->flags, fsopen_names) : "0x0";
	case MOUNTSNOOP_FSMOUNT:
		return e->flags ? names_of(buf, size, (__u32)e->flags, fsmount_names) : "0x0";
	case MOUNTSNOOP_MOVE_MOUNT:
		return names_of(buf, size, (__u32)e->flags, move_names);
	default: /* mount, umount: 0.26's table */
		if (!e->flags)
			return "0x0";
		buf[0] = 0;
		for (int i = 0; i < 32; i++)
			if (e->flags & (1ull << i))
				join(buf, size, &n, ms_names[i]);
		return buf;
	}
}

void mountsnoop_call(char *buf, size_t size, const struct mountsnoop_event *e)
{
	char rbuf[32], fbuf[512], abuf[256], fd[16];
	const char *ret = mountsnoop_ret(rbuf, sizeof(rbuf), e->ret);
	const char *flags = mountsnoop_flags(fbuf, sizeof(fbuf), e);

	switch (e->op) {
	case MOUNTSNOOP_MOUNT:
		snprintf(buf, size, "mount(\"%s\", \"%s\", \"%s\", %s, \"%s\") = %s", e->src, e->dest,
			 e->fs, flags, e->data, ret);
		break;
	case MOUNTSNOOP_UMOUNT:
		snprintf(buf, size, "umount(\"%s\", %s) = %s", e->dest, flags, ret);
		break;
	case MOUNTSNOOP_FSOPEN:
		snprintf(buf, size, "fsopen(\"%s\", %s) = %s", e->fs, flags, ret);
		break;
	case MOUNTSNOOP_FSCONFIG:
		snprintf(buf, size, "fsconfig(%d, \"%s\", \"%s\", \"%s\", %d) = %s", e->fd,
			 mountsnoop_cmd_name(e->cmd), e->src, e->data, e->aux, ret);
		break;
	case MOUNTSNOOP_FSMOUNT:
		snprintf(buf, size, "fsmount(%d, \"%s\", \"%s\") = %s", e->fd, flags,
			 mountsnoop_attr_flags(abuf, sizeof(abuf), e->attr_flags), ret);
		break;
	case MOUNTSNOOP_MOVE_MOUNT:
		if (e->to_fd == CB_AT_FDCWD)
			snprintf(fd, sizeof(fd), "AT_FDCWD");
		else
			snprintf(fd, sizeof(fd), "%d", e->to_fd);
		snprintf(buf, size, "move_mount(%d, \"%s\", %s, \"%s\", \"%s\") = %s", e->fd, e->src,
			 fd, e->dest, flags, ret);
		break;
	default:
		buf[0] = 0;
		break;
	}
}

void mountsnoop_detailed(FILE *f, const struct mountsnoop_event *e, const char *comm,
			 const char *hms, const char *cgroup)
{
	char rbuf[32], fbuf[512], abuf[256];
	const char *in = hms ? "    " : "";
	const char *flags = mountsnoop_flags(fbuf, sizeof(fbuf), e);

	if (hms)
		fprintf(f, "%s \n", hms);
	fprintf(f, "%sPID:    %u\n%sTID:    %u\n%sCOMM:   %s\n", in, e->pid, in, e->tid, in, comm);
	fprintf(f, "%sOP:     %s\n%sRET:    %s\n", in, mountsnoop_op_name(e->op), in,
		mountsnoop_ret(rbuf, sizeof(rbuf), e->ret));
	fprintf(f, "%sLAT:    %lluus\n%sMNT_NS: %u\n", in, (unsigned long long)(e->delta_ns / 1000),
		in, e->mnt_ns);
	if (cgroup)
		fprintf(f, "%sCGROUP: %s\n", in, cgroup);
	switch (e->op) {
	case MOUNTSNOOP_MOUNT:
	case MOUNTSNOOP_UMOUNT: /* 0.26 prints every mount field for umount too */
		fprintf(f, "%sFS:     %s\n%sSOURCE: %s\n%sTARGET: %s\n", in, e->fs, in, e->src, in,
			e->dest);
		fprintf(f, "%sDATA:   %s\n%sFLAGS:  %s\n", in, e->data, in, flags);
		break;
	case MOUNTSNOOP_FSOPEN:
		fprintf(f, "%sFS:     %s\n%sFLAGS:  %s\n", in, e->fs, in, flags);
		break;
	case MOUNTSNOOP_FSCONFIG:
		fprintf(f, "%sFD:     %d\n%sCMD:    %s\n", in, e->fd, in, mountsnoop_cmd_name(e->cmd));
		fprintf(f, "%sKEY:    %s\n%sVALUE:  %s\n", in, e->src, in, e->data);
		break;
	case MOUNTSNOOP_FSMOUNT:
		fprintf(f, "%sFS_FD:       %d\n%sFLAGS:       %s\n", in, e->fd, in, flags);
		fprintf(f, "%sATTR_FLAGS:  %s\n", in,
			mountsnoop_attr_flags(abuf, sizeof(abuf), e->attr_flags));
		break;
	case MOUNTSNOOP_MOVE_MOUNT:
		fprintf(f, "%sFROM_DFD:       %d\n%sFROM_PATHNAME:  %s\n", in, e->fd, in, e->src);
		fprintf(f, "%sTO_DFD:         %d\n%sTO_PATHNAME:    %s\n", in, e->to_fd, in, e->dest);
		fprintf(f, "%sFLAGS:          %s\n", in, flags);
		break;
	}
	fprintf(f, "\n");
}
