/* bpftrace --info: what this kernel lets the compiler use, in 0.17's
 * layout (sections, "name: yes/no"), every answer asked of the kernel
 * (a tiny program load or map create) or of the file system, never
 * inferred from the version number. */
#include <linux/bpf.h>
#include <stdio.h>
#include <unistd.h>

#include "bpf/probe.h"
#include "bpf/sys.h"
#include "bpf/tracefs.h"
#include "lib/err.h"
#include "lib/util.h"
#include "loader/obj.h"
#include "tools/bpftrace/bt_print.h"
#include "tools/common/common.h"

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

/* A map of that type can be made (the smallest one the kernel takes). */
static bool map_ok(uint32_t type, uint32_t key, uint32_t val)
{
	struct bpf_map_spec sp = { .type = type, .key_size = key, .value_size = val, .max_entries = 1 };
	int fd = bpf_map_create(&sp);

	if (fd < 0) {
		err_clear();
		return false;
	}
	close(fd);
	return true;
}

int bt_info(void)
{
	static const struct { const char *name; int func; } helpers[] = {
		{ "probe_read", BPF_FUNC_probe_read },
		{ "probe_read_str", BPF_FUNC_probe_read_str },
		{ "probe_read_user", BPF_FUNC_probe_read_user },
		{ "probe_read_user_str", BPF_FUNC_probe_read_user_str },
		{ "probe_read_kernel", BPF_FUNC_probe_read_kernel },
		{ "probe_read_kernel_str", BPF_FUNC_probe_read_kernel_str },
		{ "get_current_cgroup_id", BPF_FUNC_get_current_cgroup_id },
		{ "send_signal", BPF_FUNC_send_signal },
		{ "get_boot_ns", BPF_FUNC_ktime_get_boot_ns },
		{ "get_numa_node_id", BPF_FUNC_get_numa_node_id },
	};
	static const struct { const char *name; uint32_t type, key, val; } maps[] = {
		{ "hash", BPF_MAP_TYPE_HASH, 8, 8 },
		{ "percpu hash", BPF_MAP_TYPE_PERCPU_HASH, 8, 8 },
		{ "array", BPF_MAP_TYPE_ARRAY, 4, 8 },
		{ "percpu array", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8 },
		{ "stack_trace", BPF_MAP_TYPE_STACK_TRACE, 4, 8 },
		{ "perf_event_array", BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4 },
	};
	char path[512];
	struct obj *o = obj_new("bpftrace");
	bool kfunc = obj_fentry_ok(o, "vfs_read"); /* a trampoline the kernel loads */

	obj_close(o);
	err_clear();

	printf("Build\n  version: corebox %s\n  LLVM: no\n  libdw (DWARF support): no\n\nKernel helpers\n", corebox_version);
	for (size_t i = 0; i < ARRAY_SIZE(helpers); i++)
		printf("  %s: %s\n", helpers[i].name, yes_no(probe_helper(helpers[i].func)));
	/* uprobe refcount: the kernel keeps USDT semaphores (4.20+), as corebox asks it to */
	printf("\nKernel features\n  Instruction limit: 1000000\n  Loop support: %s\n  btf: %s\n"
	       "  uprobe refcount (depends on Build:bcc bpf_attach_uprobe refcount): %s\n  ringbuf: %s\n\nMap types\n",
	       yes_no(probe_bounded_loop()), yes_no(access("/sys/kernel/btf/vmlinux", R_OK) == 0),
	       yes_no(access("/sys/bus/event_source/devices/uprobe/format/ref_ctr_offset", R_OK) == 0),
	       yes_no(probe_ringbuf()));
	for (size_t i = 0; i < ARRAY_SIZE(maps); i++)
		printf("  %s: %s\n", maps[i].name, yes_no(map_ok(maps[i].type, maps[i].key, maps[i].val)));
	printf("\nProbe types\n  kprobe: %s\n  tracepoint: %s\n  perf_event: yes\n  uprobe: %s\n"
	       "  kfunc: %s\n  iter:task: no\n  iter:task_file: no\n  kprobe_multi: no\n  raw_tp_special: %s\n",
	       yes_no(probe_kprobe_pmu() || probe_kprobe_legacy()),
	       yes_no(tracefs_path(path, sizeof(path), "events") && access(path, R_OK) == 0),
	       yes_no(access("/sys/bus/event_source/devices/uprobe/type", R_OK) == 0), yes_no(kfunc), yes_no(probe_raw_tp()));
	return tool_finish(0);
}
