/* sched.h - the task, as seen by units that do not need the memory map or files: those are
 * only declared here (FWD in these units' BTF), and so is an enum (gcc writes `enum e;` as a
 * FWD too). */
#ifndef KL_SCHED_H
#define KL_SCHED_H
#include "types.h"

struct mm_struct;
struct files_struct;
struct signal_struct;
enum task_state;

struct sched_entity {
	u64 vruntime;
	u64 sum_exec_runtime;
	struct rb_node run_node;
	unsigned int on_rq;
};

struct task_struct {
	volatile long state;
	unsigned int flags;
	int prio;
	struct sched_entity se;
	struct list_head tasks;
	struct mm_struct *mm, *active_mm;
	pid_t pid;
	pid_t tgid;
	struct task_struct *real_parent;
	struct list_head children;
	char comm[16];
	unsigned sched_reset_on_fork:1;
	unsigned sched_contributes_to_load:1;
	unsigned :0;
	unsigned in_iowait:1;
	struct files_struct *files;
	struct signal_struct *signal;
	const enum task_state *exit_state;
	union {
		struct rcu_head rcu;
		struct {
			int exit_code;
			int exit_signal;
		};
	};
	atomic_t usage;
	spinlock_t alloc_lock;
};

extern struct task_struct init_task;
extern int nr_threads;
extern unsigned long total_forks;
extern int max_threads;
extern int pid_max_table[];

int wake_up_process(struct task_struct *p);
void sched_fork(struct task_struct *p, unsigned long clone_flags);
struct task_struct *find_task(pid_t nr);

#endif
