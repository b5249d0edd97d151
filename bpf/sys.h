/* bpf(2): thin, checked wrappers.  Every function returns a new fd (>= 3,
 * close-on-exec) or 0 on success, and a negative errno with err_msg() set
 * on failure.  No policy here: the loader decides what to retry. */
#ifndef COREBOX_BPF_SYS_H
#define COREBOX_BPF_SYS_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uapi_ext.h"

/* The raw syscall: result or -errno, no message, no fd fix-up. */
int sys_bpf(int cmd, void *attr, unsigned int size);

struct bpf_map_spec {
	const char *name;       /* truncated/sanitised to 15 chars [A-Za-z0-9_.];
				 * NULL on kernels without object names (< 4.15:
				 * the caller asks probe_prog_name()) */
	uint32_t type;
	uint32_t key_size;
	uint32_t value_size;
	uint32_t max_entries;
	uint32_t flags;
	uint64_t map_extra;
	int btf_fd;             /* 0: no BTF */
	uint32_t btf_key_type_id;
	uint32_t btf_value_type_id;
	int inner_map_fd;       /* 0: none */
};
int bpf_map_create(const struct bpf_map_spec *spec);
int bpf_map_lookup(int fd, const void *key, void *value);
int bpf_map_update(int fd, const void *key, const void *value, uint64_t flags);
int bpf_map_delete(int fd, const void *key);
int bpf_map_next_key(int fd, const void *key, void *next_key); /* key NULL: first; -ENOENT at end */
/* Batch lookup (del != 0: lookup-and-delete).  in_batch NULL starts;
 * *count in: capacity, out: number returned.  Returns 0, or -ENOENT when
 * the map is exhausted (entries returned are still valid). */
int bpf_map_lookup_batch(int fd, void *in_batch, void *out_batch, void *keys,
			 void *values, uint32_t *count, int del);
int bpf_map_freeze(int fd);

struct bpf_prog_spec {
	const char *name;       /* as bpf_map_spec.name */
	uint32_t type;
	uint32_t expected_attach_type;
	const struct bpf_insn *insns;
	uint32_t insn_cnt;
	const char *license;
	uint32_t kern_version;
	uint32_t flags;
	uint32_t attach_btf_id;
	int attach_btf_obj_fd;
	int prog_btf_fd;        /* 0: no BTF; func/line info ignored then */
	const void *func_info;
	uint32_t func_info_rec_size, func_info_cnt;
	const void *line_info;
	uint32_t line_info_rec_size, line_info_cnt;
	const int *fd_array;
	/* CO-RE records (struct bpf_core_relo, 16 bytes each) the kernel
	 * applies itself (5.17+); it reads them only with func_info */
	const void *core_relos;
	uint32_t core_relo_cnt;
	uint32_t log_level;     /* 0: log only on failure; else log from the
				 * first attempt and return it even on success */
	bool no_log;            /* a failure returns at once: no second
				 * verification for a log */
};
/* Load a program.  On failure (other than EAGAIN, retried) it loads again
 * with log_level 1, growing the buffer on ENOSPC, and returns the
 * verifier log through *log (malloc'd, caller frees; NULL if none). */
int bpf_prog_load(const struct bpf_prog_spec *spec, char **log);
/* Load BTF; on failure *log gets the kernel's BTF log (may be NULL). */
int bpf_btf_load(const void *data, size_t size, char **log);

int bpf_link_create(int prog_fd, int target_fd, uint32_t attach_type,
		    uint32_t target_btf_id, uint64_t cookie);
/* uprobe_multi link (6.6+): cnt file offsets in one binary; the program
 * was loaded as KPROBE with expected_attach_type CB_BPF_TRACE_UPROBE_MULTI.
 * flags: CB_BPF_F_UPROBE_MULTI_RETURN; ref_ctr_offsets (USDT semaphores,
 * file offsets, 0 none) and cookies may be NULL; pid <= 0: all. */
int bpf_link_create_uprobe_multi(int prog_fd, const char *path, const uint64_t *offsets,
				 const uint64_t *ref_ctr_offsets, const uint64_t *cookies, uint32_t cnt,
				 uint32_t flags, int pid);
/* kprobe_multi link (5.18+, CONFIG_FPROBE): cnt kernel functions by
 * name, with a cookie each (NULL: none), on a KPROBE program loaded with
 * expected_attach_type BPF_TRACE_KPROBE_MULTI. */
int bpf_link_create_kprobe_multi(int prog_fd, const char *const *syms, const uint64_t *cookies, uint32_t cnt, bool ret);
int bpf_raw_tp_open(const char *name, int prog_fd);
/* Run a program once in this task (raw tracepoint programs: ctx is its
 * u64 arguments), 5.10+.  0 or -errno. */
int bpf_prog_test_run_ctx(int prog_fd, const void *ctx, uint32_t ctx_size, uint32_t *retval); /* name NULL for tp_btf/fentry */
int bpf_obj_info(int fd, void *info, uint32_t *info_len);
int bpf_prog_bind_map(int prog_fd, int map_fd);

/* Id iteration (for tests and `corebox` self-checks). */
int bpf_prog_next_id(uint32_t start, uint32_t *next);
int bpf_link_next_id(uint32_t start, uint32_t *next);
int bpf_map_next_id(uint32_t start, uint32_t *next);
int bpf_prog_fd_by_id(uint32_t id);
int bpf_link_fd_by_id(uint32_t id);
int bpf_btf_fd_by_id(uint32_t id);
int bpf_btf_next_id(uint32_t start, uint32_t *next);

#endif
