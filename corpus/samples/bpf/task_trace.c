/* task_trace.c - BPF sample with CO-RE relocations, BTF-defined maps and globals.
 * Build: clang -target bpf -g -O2 -c task_trace.c -o task_trace.bpf.o */
#include "bpf_defs.h"

/* Kernel types as this program expects them; CO-RE relocates the accesses. */
#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)
struct list_head {
	struct list_head *next, *prev;
};

struct mm_struct {
	unsigned long total_vm;
	unsigned long hiwater_rss;
};

struct task_struct {
	int pid;
	int tgid;
	unsigned int flags;
	struct mm_struct *mm;
	struct task_struct *real_parent;
	struct list_head tasks;
	char comm[16];
	union {
		__u64 utime;
		__u64 stime_alias;
	};
	unsigned int in_iowait : 1;
	unsigned int sched_migrated : 1;
};
#pragma clang attribute pop

enum task_state_bits {
	TASK_RUNNING_BIT = 0,
	TASK_INTERRUPTIBLE_BIT = 1,
	TASK_DEAD_BIT = 64,
};

struct event {
	__u32 pid;
	__u32 ppid;
	__u64 ts;
	__u64 vm;
	char comm[16];
	__u8 iowait;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct event);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

/* Globals: .data, .bss and .rodata become DATASECs with VARs. */
__u64 seen_events = 1;
__u32 dropped;
const volatile __u32 target_tgid = 0;
char LICENSE[] SEC("license") = "GPL";

static __always_inline int fill_event(struct event *e, struct task_struct *task)
{
	struct task_struct *parent;
	struct mm_struct *mm;

	e->pid = task->pid;
	parent = task->real_parent;
	BPF_CORE_READ_INTO(&e->ppid, parent, tgid);
	mm = task->mm;
	if (mm)
		BPF_CORE_READ_INTO(&e->vm, mm, total_vm);
	BPF_CORE_READ_INTO(&e->comm, task, comm);
	if (__builtin_preserve_field_info(task->in_iowait, 2 /* FIELD_EXISTS */))
		e->iowait = __builtin_preserve_field_info(task->in_iowait, 1 /* BYTE_SIZE */);
	return 0;
}

SEC("tracepoint/sched/sched_process_exec")
int trace_exec(void *ctx)
{
	struct task_struct *task = bpf_get_current_task();
	struct event e = {};
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	__u32 zero = 0;
	__u64 *cnt;

	if (target_tgid && target_tgid != pid)
		return 0;
	e.ts = bpf_ktime_get_ns();
	fill_event(&e, task);
	if (bpf_map_update_elem(&events, &pid, &e, 0))
		dropped++;
	cnt = bpf_map_lookup_elem(&counters, &zero);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	seen_events++;
	return 0;
}

SEC("kprobe/do_exit")
int trace_exit(void *ctx)
{
	struct task_struct *task = bpf_get_current_task();
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	struct event *e;

	if (!__builtin_preserve_type_info(*task, 0 /* TYPE_EXISTS */))
		return 0;
	if (__builtin_preserve_enum_value(*(enum task_state_bits *)TASK_DEAD_BIT, 1 /* ENUMVAL_VALUE */) > 63)
		return 1;
	e = bpf_map_lookup_elem(&events, &pid);
	if (e)
		e->ts = __builtin_preserve_type_info(*task, 1 /* TYPE_SIZE */);
	return 0;
}
