#ifndef __VMLINUX_H__
#define __VMLINUX_H__

#ifndef BPF_NO_PRESERVE_ACCESS_INDEX
#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)
#endif

typedef unsigned char u8;

typedef short unsigned int u16;

typedef unsigned int u32;

typedef long long unsigned int u64;

typedef u64 sched_time_t;

typedef sched_time_t deadline_t;

enum job_state {
	JOB_NEW = 0,
	JOB_READY = 1,
	JOB_RUNNING = 2,
	JOB_DONE = 10,
	JOB_FAILED = 4294967295,
};

enum job_flags {
	JF_NONE = 0,
	JF_URGENT = 1,
	JF_PINNED = 2,
};

struct list_node {
	struct list_node *next;
	struct list_node *prev;
};

struct worker;

struct job_ops;

struct job {
	struct list_node node;
	const char *name;
	volatile enum job_state state;
	u32 prio: 4;
	u32 cpu: 12;
	u32 pinned: 1;
	u16 retries;
	union {
		deadline_t deadline;
		struct {
			u32 period_ms;
			u32 budget_ms;
		};
	};
	u64 flags;
	const struct job_ops *ops;
	struct worker *owner;
	struct job *deps[4];
	void *ctx;
};

typedef int (*job_fn)(struct job *, void *);

typedef void (*job_done_fn)(const struct job *, int);

struct job_ops {
	job_fn run;
	job_done_fn done;
	int (*cancel)(struct job *, const char *);
};

struct job_queue {
	struct list_node head;
	u32 len;
	u32 max_len;
	const volatile u32 *stats_ptr;
	struct job * const *slots;
	char label[16];
};

struct msg {
	u16 kind;
	u16 len;
	u32 seq;
	u8 payload[0];
};

#ifndef BPF_NO_PRESERVE_ACCESS_INDEX
#pragma clang attribute pop
#endif

#endif /* __VMLINUX_H__ */
