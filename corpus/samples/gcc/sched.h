/* sched.h - shared header of a tiny job scheduler used as a BTF sample.
 * Included by every .c file here so the same types appear in every object
 * (the input btfkit link must deduplicate). */
#ifndef SCHED_H
#define SCHED_H

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef u64 sched_time_t;          /* typedef chain: deadline_t -> sched_time_t -> u64 */
typedef sched_time_t deadline_t;

/* Defined only in worker.c; everyone else sees it through pointers. */
struct worker;

enum job_state {
	JOB_NEW,
	JOB_READY,
	JOB_RUNNING,
	JOB_DONE = 10,
	JOB_FAILED = -1,
};

/* Needs 64 bits: gcc 12 BTF drops the enumerator above 32 bits. */
enum job_flags {
	JF_NONE = 0,
	JF_URGENT = 1u << 0,
	JF_PINNED = 1u << 1,
	JF_HUGE_MEM = 1ull << 40,
};

struct list_node {
	struct list_node *next;
	struct list_node *prev;
};

struct job;
typedef int (*job_fn)(struct job *job, void *ctx);
typedef void (*job_done_fn)(const struct job *job, int status);

struct job_ops {
	job_fn run;
	job_done_fn done;
	int (*cancel)(struct job *job, const char *reason);
};

struct job {
	struct list_node node;
	const char *name;
	volatile enum job_state state;
	u32 prio : 4;
	u32 cpu : 12;
	u32 pinned : 1;
	u32 : 0;
	u16 retries;
	union {                     /* anonymous union */
		deadline_t deadline;
		struct {                /* anonymous struct inside it */
			u32 period_ms;
			u32 budget_ms;
		};
	};
	u64 flags;                  /* enum job_flags bits */
	const struct job_ops *ops;
	struct worker *owner;       /* forward-declared struct */
	struct job *deps[4];
	void *ctx;
};

struct job_queue {
	struct list_node head;
	u32 len;
	u32 max_len;
	const volatile u32 *stats_ptr;
	struct job *const *slots;
	char label[16];
};

/* Message with a flexible array member. */
struct msg {
	u16 kind;
	u16 len;
	u32 seq;
	u8 payload[];
};

union value {
	u64 u;
	long long s;
	double d;
	void *p;
	char bytes[8];
};

extern struct job_queue ready_queue;

void queue_init(struct job_queue *q, const char *label, u32 max_len);
int queue_push(struct job_queue *q, struct job *job);
struct job *queue_pop(struct job_queue *q);
int job_submit(struct job *job, struct worker *w);
int job_run(struct job *job);
struct worker *worker_create(int cpu);
int worker_step(struct worker *w, struct msg *out, u32 cap);
union value job_result(const struct job *job);

#endif
