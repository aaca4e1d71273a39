/* core_reads.c - BPF sample exercising every CO-RE relocation kind against real kernel
 * types: field offsets/sizes of nested, anonymous and array members, all bitfield kinds,
 * field and type existence, ___flavour names, enum values, type ids, sizes and matches.
 * Build: clang -target bpf -g -O2 -c core_reads.c -o core_reads.bpf.o */
#include "bpf_defs.h"

typedef int pid_t;

#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)
struct sched_entity {
	__u64 vruntime;
};

struct task_struct {
	pid_t pid;
	char comm[16];
	struct sched_entity se;
	unsigned int sched_reset_on_fork : 1;
	unsigned int in_iowait : 1;
};

/* an older kernel's view: 'state' became '__state' in 5.14 */
struct task_struct___old {
	long state;
};

struct task_struct___new {
	unsigned int __state;
};

struct sk_buff {
	union {
		struct {
			struct sk_buff *next;
			struct sk_buff *prev;
		};
	};
	unsigned int len;
};

struct no_such_kernel_struct {
	int x;
};
#pragma clang attribute pop

enum bpf_map_type___local {
	BPF_MAP_TYPE_RINGBUF___x = 27,
	BPF_MAP_TYPE_NO_SUCH___x = 999,
};

#define FIELD(expr, kind) __builtin_preserve_field_info(expr, kind)

__u64 out[32];
char LICENSE[] SEC("license") = "GPL";

SEC("kprobe/do_exit")
int fields(void *ctx)
{
	struct task_struct *t = bpf_get_current_task();
	struct sk_buff *skb = (void *)t;

	out[0] = FIELD(t->pid, 0);                      /* byte_off */
	out[1] = FIELD(t->se.vruntime, 0);              /* nested struct */
	out[2] = FIELD(t->comm[2], 0);                  /* array element */
	out[3] = FIELD(t->comm, 1);                     /* byte_sz of an array */
	out[4] = FIELD(t->pid, 3);                      /* signed */
	out[5] = FIELD(t->sched_reset_on_fork, 0);      /* bitfield: every kind */
	out[6] = FIELD(t->sched_reset_on_fork, 1);
	out[7] = FIELD(t->sched_reset_on_fork, 3);
	out[8] = FIELD(t->sched_reset_on_fork, 4);
	out[9] = FIELD(t->sched_reset_on_fork, 5);
	out[10] = FIELD(t->in_iowait, 4);
	out[11] = FIELD(skb->next, 0);                  /* inside anonymous union and struct */
	out[12] = FIELD(skb->len, 1);
	out[13] = FIELD(((struct task_struct___old *)t)->state, 2);   /* exists: no */
	out[14] = FIELD(((struct task_struct___new *)t)->__state, 2); /* exists: yes */
	out[15] = FIELD(((struct task_struct___new *)t)->__state, 0);
	return 0;
}

SEC("kprobe/do_fork")
int types(void *ctx)
{
	out[16] = __builtin_preserve_type_info(*(struct task_struct *)0, 0);          /* type_exists */
	out[17] = __builtin_preserve_type_info(*(struct no_such_kernel_struct *)0, 0);
	out[18] = __builtin_preserve_type_info(*(struct task_struct *)0, 1);          /* type_size */
	out[19] = __builtin_preserve_type_info(*(pid_t *)0, 1);
	out[20] = __builtin_btf_type_id(*(struct task_struct *)0, 0);                 /* local id */
	out[21] = __builtin_btf_type_id(*(struct task_struct *)0, 1);                 /* target id */
	out[22] = __builtin_preserve_enum_value(*(enum bpf_map_type___local *)BPF_MAP_TYPE_RINGBUF___x, 0);
	out[23] = __builtin_preserve_enum_value(*(enum bpf_map_type___local *)BPF_MAP_TYPE_RINGBUF___x, 1);
	out[24] = __builtin_preserve_enum_value(*(enum bpf_map_type___local *)BPF_MAP_TYPE_NO_SUCH___x, 0);
	out[25] = __builtin_preserve_type_info(*(pid_t *)0, 0);                      /* a typedef exists */
	return 0;
}
