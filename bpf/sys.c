/* bpf(2) wrappers.  Each command memsets its attr and passes the size up
 * to the end of the last field it uses, so kernels older than our headers
 * see no unknown (non-zero) tail bytes. */
#include "sys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "err.h"
#include "util.h"

#define OFFEND(f) ((unsigned)(offsetof(union bpf_attr, f) + sizeof(((union bpf_attr *)0)->f)))
#define U64(p) ((uint64_t)(uintptr_t)(p))

#define PROG_LOAD_ATTEMPTS 5
#define LOG_MIN (64u << 10)
#define LOG_MAX (16u << 20)

int sys_bpf(int cmd, void *attr, unsigned int size)
{
	long r = syscall(__NR_bpf, cmd, attr, size);

	return r < 0 ? -errno : (int)r;
}

/* A command that returns a new fd: keep it >= 3 (bpf fds are CLOEXEC). */
static int bpf_fd(int cmd, void *attr, unsigned size)
{
	int fd = sys_bpf(cmd, attr, size);

	return fd < 0 ? fd : fd_good(fd);
}

static unsigned maxu(unsigned a, unsigned b)
{
	return a > b ? a : b;
}

/* [A-Za-z0-9_.], at most 15 chars; other characters become '_'. */
static void sanitize_name(char dst[BPF_OBJ_NAME_LEN], const char *src)
{
	size_t i;

	for (i = 0; src && src[i] && i < BPF_OBJ_NAME_LEN - 1; i++) {
		char c = src[i];

		dst[i] = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '_' || c == '.') ? c : '_';
	}
	dst[i] = 0;
}

int bpf_map_create(const struct bpf_map_spec *s)
{
	union cb_bpf_attr u;
	union bpf_attr *a = &u.a;
	unsigned size = OFFEND(map_flags);
	int fd;

	memset(&u, 0, sizeof(u));
	a->map_type = s->type;
	a->key_size = s->key_size;
	a->value_size = s->value_size;
	a->max_entries = s->max_entries;
	a->map_flags = s->flags;
	if (s->inner_map_fd > 0) {
		a->inner_map_fd = (uint32_t)s->inner_map_fd;
		size = maxu(size, OFFEND(inner_map_fd));
	}
	if (s->name && s->name[0]) {
		sanitize_name(a->map_name, s->name);
		size = maxu(size, OFFEND(map_name));
	}
	if (s->btf_fd > 0) {
		a->btf_fd = (uint32_t)s->btf_fd;
		a->btf_key_type_id = s->btf_key_type_id;
		a->btf_value_type_id = s->btf_value_type_id;
		size = maxu(size, OFFEND(btf_value_type_id));
	}
	if (s->map_extra) {
		a->map_extra = s->map_extra;
		size = maxu(size, OFFEND(map_extra));
	}
	fd = bpf_fd(BPF_MAP_CREATE, a, size);
	if (fd < 0)
		return err_sys(-fd, "cannot create map %s (type %u, key %u, value %u, entries %u)",
			       s->name ? s->name : "?", s->type, s->key_size, s->value_size,
			       s->max_entries);
	return fd;
}

static int map_elem(int cmd, int fd, const void *key, const void *value, uint64_t flags)
{
	union cb_bpf_attr u;
	int r;

	memset(&u, 0, sizeof(u));
	u.a.map_fd = (uint32_t)fd;
	u.a.key = U64(key);
	u.a.value = U64(value);
	u.a.flags = flags;
	r = sys_bpf(cmd, &u.a, OFFEND(flags));
	return r;
}

int bpf_map_lookup(int fd, const void *key, void *value)
{
	int r = map_elem(BPF_MAP_LOOKUP_ELEM, fd, key, value, 0);

	return r < 0 ? err_sys(-r, "map lookup") : 0;
}

int bpf_map_update(int fd, const void *key, const void *value, uint64_t flags)
{
	int r = map_elem(BPF_MAP_UPDATE_ELEM, fd, key, value, flags);

	return r < 0 ? err_sys(-r, "map update") : 0;
}

int bpf_map_delete(int fd, const void *key)
{
	int r = map_elem(BPF_MAP_DELETE_ELEM, fd, key, NULL, 0);

	return r < 0 ? err_sys(-r, "map delete") : 0;
}

int bpf_map_next_key(int fd, const void *key, void *next_key)
{
	union cb_bpf_attr u;
	int r;

	memset(&u, 0, sizeof(u));
	u.a.map_fd = (uint32_t)fd;
	u.a.key = U64(key);
	u.a.next_key = U64(next_key);
	r = sys_bpf(BPF_MAP_GET_NEXT_KEY, &u.a, OFFEND(next_key));
	if (r == -ENOENT)
		return err_set(ENOENT, "map next key: end of map");
	return r < 0 ? err_sys(-r, "map next key") : 0;
}

int bpf_map_lookup_batch(int fd, void *in_batch, void *out_batch, void *keys,
			 void *values, uint32_t *count, int del)
{
	union cb_bpf_attr u;
	int r;

	memset(&u, 0, sizeof(u));
	u.a.batch.map_fd = (uint32_t)fd;
	u.a.batch.in_batch = U64(in_batch);
	u.a.batch.out_batch = U64(out_batch);
	u.a.batch.keys = U64(keys);
	u.a.batch.values = U64(values);
	u.a.batch.count = *count;
	r = sys_bpf(del ? BPF_MAP_LOOKUP_AND_DELETE_BATCH : BPF_MAP_LOOKUP_BATCH, &u.a,
		    OFFEND(batch.flags));
	/* The kernel writes count back on success and on ENOENT (the end). */
	*count = (r == 0 || r == -ENOENT) ? u.a.batch.count : 0;
	if (r == -ENOENT)
		return err_set(ENOENT, "map batch lookup: end of map");
	return r < 0 ? err_sys(-r, "map batch lookup") : 0;
}

int bpf_map_freeze(int fd)
{
	union cb_bpf_attr u;
	int r;

	memset(&u, 0, sizeof(u));
	u.a.map_fd = (uint32_t)fd;
	r = sys_bpf(BPF_MAP_FREEZE, &u.a, OFFEND(map_fd));
	return r < 0 ? err_sys(-r, "map freeze") : 0;
}

/* Fill a PROG_LOAD attr from the spec; returns the attr size. */
static unsigned prog_attr(union bpf_attr *a, const struct bpf_prog_spec *s)
{
	unsigned size = OFFEND(kern_version);

	a->prog_type = s->type;
	a->insns = U64(s->insns);
	a->insn_cnt = s->insn_cnt;
	a->license = U64(s->license ? s->license : "GPL");
	a->kern_version = s->kern_version;
	if (s->flags) {
		a->prog_flags = s->flags;
		size = maxu(size, OFFEND(prog_flags));
	}
	if (s->name && s->name[0]) {
		sanitize_name(a->prog_name, s->name);
		size = maxu(size, OFFEND(prog_name));
	}
	if (s->expected_attach_type) {
		a->expected_attach_type = s->expected_attach_type;
		size = maxu(size, OFFEND(expected_attach_type));
	}
	if (s->prog_btf_fd > 0) {
		a->prog_btf_fd = (uint32_t)s->prog_btf_fd;
		size = maxu(size, OFFEND(prog_btf_fd));
		if (s->func_info && s->func_info_cnt) {
			a->func_info = U64(s->func_info);
			a->func_info_rec_size = s->func_info_rec_size;
			a->func_info_cnt = s->func_info_cnt;
			size = maxu(size, OFFEND(func_info_cnt));
		}
		if (s->line_info && s->line_info_cnt) {
			a->line_info = U64(s->line_info);
			a->line_info_rec_size = s->line_info_rec_size;
			a->line_info_cnt = s->line_info_cnt;
			size = maxu(size, OFFEND(line_info_cnt));
		}
	}
	if (s->attach_btf_id) {
		a->attach_btf_id = s->attach_btf_id;
		size = maxu(size, OFFEND(attach_btf_id));
	}
	if (s->attach_btf_obj_fd > 0) {
		a->attach_btf_obj_fd = (uint32_t)s->attach_btf_obj_fd;
		size = maxu(size, OFFEND(attach_btf_obj_fd));
	}
	if (s->core_relo_cnt) {
		a->core_relos = U64(s->core_relos);
		a->core_relo_cnt = s->core_relo_cnt;
		a->core_relo_rec_size = sizeof(struct bpf_core_relo);
		size = maxu(size, OFFEND(core_relo_rec_size));
	}
	if (s->fd_array) {
		a->fd_array = U64(s->fd_array);
		size = maxu(size, OFFEND(fd_array));
	}
	return size;
}

static int load_retry(union cb_bpf_attr *u, unsigned size)
{
	int fd = -EAGAIN, i;

	for (i = 0; i < PROG_LOAD_ATTEMPTS && fd == -EAGAIN; i++)
		fd = bpf_fd(BPF_PROG_LOAD, &u->a, size);
	return fd;
}

/* The verifier's reason for a rejection: the last log line that is not
 * one of the statistics lines it prints at the end. */
static void last_line(const char *log, char *out, size_t n)
{
	static const char *const stats[] = { "processed ", "verification time", "stack depth",
					     "mark_read", "max_states" };
	const char *end = log + strlen(log), *b;
	size_t i;

	out[0] = 0;
	while (end > log) {
		while (end > log && (end[-1] == '\n' || end[-1] == ' '))
			end--;
		b = end;
		while (b > log && b[-1] != '\n')
			b--;
		for (i = 0; i < ARRAY_SIZE(stats); i++)
			if (!strncmp(b, stats[i], strlen(stats[i])))
				break;
		if (i == ARRAY_SIZE(stats) && end > b) {
			snprintf(out, n, "%.*s", (int)(end - b), b);
			return;
		}
		end = b;
	}
}

int bpf_prog_load(const struct bpf_prog_spec *s, char **log)
{
	union cb_bpf_attr u;
	unsigned size, lsize, true_size;
	char *buf = NULL, line[160];
	uint32_t level = s->log_level;
	int fd, first = 0;

	if (log)
		*log = NULL;
	memset(&u, 0, sizeof(u));
	size = prog_attr(&u.a, s);
	if (!level) {
		fd = load_retry(&u, size);
		if (fd >= 0)
			return fd;
		if (s->no_log || (!log && fd != -EACCES && fd != -EINVAL))
			goto fail;
		/* about this process, not the program: a log would only show
		 * the verifier's success and cost a second verification */
		if (fd == -EMFILE || fd == -ENFILE || fd == -ENOMEM || fd == -EBADF)
			goto fail;
		first = fd;
		level = 1;
	}
	/* Again with a verifier log, growing the buffer on ENOSPC.  The log
	 * attr fields end before log_true_size (6.4+, output only). */
	lsize = LOG_MIN;
	for (;;) {
		free(buf);
		buf = xmalloc(lsize);
		buf[0] = 0;
		memset(&u, 0, sizeof(u));
		size = prog_attr(&u.a, s);
		u.a.log_level = level;
		u.a.log_buf = U64(buf);
		u.a.log_size = lsize;
		size = maxu(size, CB_PROG_LOAD_LOG_TRUE_SIZE_OFF + 4);
		fd = load_retry(&u, size);
		if (fd != -ENOSPC || lsize >= LOG_MAX)
			break;
		memcpy(&true_size, u.raw + CB_PROG_LOAD_LOG_TRUE_SIZE_OFF, 4);
		lsize *= 2;
		while (true_size > lsize && lsize < LOG_MAX)
			lsize *= 2;
	}
	if (fd == -ENOSPC && first && first != -ENOSPC)
		fd = first; /* log over LOG_MAX: report the real failure */
	if (fd >= 0 && !s->log_level) {
		/* Passed on the second attempt (a transient failure). */
		free(buf);
		return fd;
	}
	if (log && buf[0])
		*log = buf;
	line[0] = 0;
	if (buf[0])
		last_line(buf, line, sizeof(line));
	if (!log || !buf[0])
		free(buf);
	if (fd >= 0)
		return fd;
	if (line[0] && (fd == -EACCES || fd == -EINVAL || fd == -E2BIG))
		return err_set(-fd, "cannot load program %s: %s (verifier: %s)",
			       s->name ? s->name : "?", strerror(-fd), line);
fail:
	return err_sys(-fd, "cannot load program %s", s->name ? s->name : "?");
}

int bpf_btf_load(const void *data, size_t size, char **log)
{
	union cb_bpf_attr u;
	unsigned lsize = LOG_MIN;
	char *buf = NULL;
	int fd;

	if (log)
		*log = NULL;
	if (size > UINT32_MAX)
		return err_set(E2BIG, "BTF too large (%zu bytes)", size);
	memset(&u, 0, sizeof(u));
	u.a.btf = U64(data);
	u.a.btf_size = (uint32_t)size;
	fd = bpf_fd(BPF_BTF_LOAD, &u.a, OFFEND(btf_log_level));
	if (fd >= 0)
		return fd;
	if (!log)
		return err_sys(-fd, "cannot load BTF");
	for (;;) {
		free(buf);
		buf = xmalloc(lsize);
		buf[0] = 0;
		memset(&u, 0, sizeof(u));
		u.a.btf = U64(data);
		u.a.btf_size = (uint32_t)size;
		u.a.btf_log_buf = U64(buf);
		u.a.btf_log_size = lsize;
		u.a.btf_log_level = 1;
		fd = bpf_fd(BPF_BTF_LOAD, &u.a, OFFEND(btf_log_level));
		if (fd != -ENOSPC || lsize >= LOG_MAX)
			break;
		lsize *= 2;
	}
	if (fd >= 0) {
		free(buf);
		return fd;
	}
	if (buf[0])
		*log = buf;
	else
		free(buf);
	return err_sys(-fd, "cannot load BTF");
}

int bpf_link_create(int prog_fd, int target_fd, uint32_t attach_type,
		    uint32_t target_btf_id, uint64_t cookie)
{
	union cb_bpf_attr u;
	unsigned size = OFFEND(link_create.flags);
	int fd;

	memset(&u, 0, sizeof(u));
	u.a.link_create.prog_fd = (uint32_t)prog_fd;
	u.a.link_create.target_fd = (uint32_t)target_fd;
	u.a.link_create.attach_type = attach_type;
	if (attach_type == BPF_PERF_EVENT) {
		if (cookie) {
			u.a.link_create.perf_event.bpf_cookie = cookie;
			size = maxu(size, OFFEND(link_create.perf_event.bpf_cookie));
		}
	} else {
		if (target_btf_id) {
			u.a.link_create.target_btf_id = target_btf_id;
			size = maxu(size, OFFEND(link_create.target_btf_id));
		}
		if (cookie) {
			u.a.link_create.tracing.cookie = cookie;
			size = maxu(size, OFFEND(link_create.tracing.cookie));
		}
	}
	fd = bpf_fd(BPF_LINK_CREATE, &u.a, size);
	if (fd < 0)
		return err_sys(-fd, "cannot create BPF link (attach type %u)", attach_type);
	return fd;
}

int bpf_link_create_uprobe_multi(int prog_fd, const char *path, const uint64_t *offsets,
				 const uint64_t *ref_ctr_offsets, const uint64_t *cookies, uint32_t cnt,
				 uint32_t flags, int pid)
{
	union cb_bpf_attr u;
	struct cb_link_uprobe_multi *um = (struct cb_link_uprobe_multi *)u.raw;
	int fd;

	memset(&u, 0, sizeof(u));
	um->prog_fd = (uint32_t)prog_fd;
	um->attach_type = CB_BPF_TRACE_UPROBE_MULTI;
	um->path = U64(path);
	um->offsets = U64(offsets);
	um->ref_ctr_offsets = U64(ref_ctr_offsets);
	um->cookies = U64(cookies);
	um->cnt = cnt;
	um->um_flags = flags;
	um->pid = pid > 0 ? (uint32_t)pid : 0;
	fd = bpf_fd(BPF_LINK_CREATE, u.raw,
		    (unsigned)(offsetof(struct cb_link_uprobe_multi, pid) + sizeof(um->pid)));
	if (fd < 0)
		return err_sys(-fd, "cannot create uprobe_multi link on %s (%u offsets)", path, cnt);
	return fd;
}

int bpf_link_create_kprobe_multi(int prog_fd, const char *const *syms, const uint64_t *cookies, uint32_t cnt, bool ret)
{
	union cb_bpf_attr u;
	int fd;

	memset(&u, 0, sizeof(u));
	u.a.link_create.prog_fd = (uint32_t)prog_fd;
	u.a.link_create.attach_type = BPF_TRACE_KPROBE_MULTI;
	u.a.link_create.kprobe_multi.flags = ret; /* BPF_F_KPROBE_MULTI_RETURN */
	u.a.link_create.kprobe_multi.cnt = cnt;
	u.a.link_create.kprobe_multi.syms = U64(syms);
	u.a.link_create.kprobe_multi.cookies = U64(cookies);
	fd = bpf_fd(BPF_LINK_CREATE, &u.a, OFFEND(link_create.kprobe_multi.cookies));
	if (fd < 0)
		return err_sys(-fd, "cannot create kprobe_multi link (%u functions)", cnt);
	return fd;
}

int bpf_prog_test_run_ctx(int prog_fd, const void *ctx, uint32_t ctx_size, uint32_t *retval)
{
	union cb_bpf_attr u;
	int err;

	memset(&u, 0, sizeof(u));
	u.a.test.prog_fd = (uint32_t)prog_fd;
	u.a.test.ctx_in = U64(ctx);
	u.a.test.ctx_size_in = ctx_size;
	err = sys_bpf(BPF_PROG_TEST_RUN, &u.a, OFFEND(test.batch_size));
	if (err < 0)
		return err_sys(-err, "cannot run the program (BPF_PROG_TEST_RUN)");
	if (retval)
		*retval = u.a.test.retval;
	return 0;
}

int bpf_raw_tp_open(const char *name, int prog_fd)
{
	union cb_bpf_attr u;
	int fd;

	memset(&u, 0, sizeof(u));
	u.a.raw_tracepoint.name = U64(name);
	u.a.raw_tracepoint.prog_fd = (uint32_t)prog_fd;
	fd = bpf_fd(BPF_RAW_TRACEPOINT_OPEN, &u.a, OFFEND(raw_tracepoint.prog_fd));
	if (fd < 0)
		return err_sys(-fd, "cannot attach raw tracepoint %s", name ? name : "(BTF target)");
	return fd;
}

int bpf_obj_info(int fd, void *info, uint32_t *info_len)
{
	union cb_bpf_attr u;
	int r;

	memset(&u, 0, sizeof(u));
	u.a.info.bpf_fd = (uint32_t)fd;
	u.a.info.info_len = *info_len;
	u.a.info.info = U64(info);
	r = sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &u.a, OFFEND(info.info));
	if (r < 0)
		return err_sys(-r, "cannot get BPF object info");
	*info_len = u.a.info.info_len;
	return 0;
}

int bpf_prog_bind_map(int prog_fd, int map_fd)
{
	union cb_bpf_attr u;
	int r;

	memset(&u, 0, sizeof(u));
	u.a.prog_bind_map.prog_fd = (uint32_t)prog_fd;
	u.a.prog_bind_map.map_fd = (uint32_t)map_fd;
	r = sys_bpf(BPF_PROG_BIND_MAP, &u.a, OFFEND(prog_bind_map.flags));
	return r < 0 ? err_sys(-r, "cannot bind map to program") : 0;
}

static int next_id(int cmd, uint32_t start, uint32_t *next)
{
	union cb_bpf_attr u;
	int r;

	memset(&u, 0, sizeof(u));
	u.a.start_id = start;
	r = sys_bpf(cmd, &u.a, OFFEND(open_flags));
	if (r == -ENOENT)
		return -ENOENT; /* the normal end, no message */
	if (r < 0)
		return err_sys(-r, "cannot iterate BPF object ids");
	*next = u.a.next_id;
	return 0;
}

int bpf_prog_next_id(uint32_t start, uint32_t *next)
{
	return next_id(BPF_PROG_GET_NEXT_ID, start, next);
}

int bpf_link_next_id(uint32_t start, uint32_t *next)
{
	return next_id(BPF_LINK_GET_NEXT_ID, start, next);
}

int bpf_map_next_id(uint32_t start, uint32_t *next)
{
	return next_id(BPF_MAP_GET_NEXT_ID, start, next);
}

int bpf_btf_next_id(uint32_t start, uint32_t *next)
{
	return next_id(BPF_BTF_GET_NEXT_ID, start, next);
}

static int fd_by_id(int cmd, uint32_t id, const char *what)
{
	union cb_bpf_attr u;
	int fd;

	memset(&u, 0, sizeof(u));
	u.a.prog_id = id; /* same slot as map_id, btf_id, link_id */
	fd = bpf_fd(cmd, &u.a, OFFEND(open_flags));
	return fd < 0 ? err_sys(-fd, "cannot open BPF %s id %u", what, id) : fd;
}

int bpf_prog_fd_by_id(uint32_t id)
{
	return fd_by_id(BPF_PROG_GET_FD_BY_ID, id, "program");
}

int bpf_link_fd_by_id(uint32_t id)
{
	return fd_by_id(BPF_LINK_GET_FD_BY_ID, id, "link");
}

int bpf_btf_fd_by_id(uint32_t id)
{
	return fd_by_id(BPF_BTF_GET_FD_BY_ID, id, "BTF");
}
