/* sched.c - the run queue; defines the enum sched.h only declares. */
#include "../include/sched.h"

enum task_state {
	TASK_RUNNING,
	TASK_INTERRUPTIBLE,
	TASK_UNINTERRUPTIBLE,
	TASK_DEAD = 64,
};

struct cfs_rq {
	unsigned int nr_running;
	u64 min_vruntime;
	struct rb_node *rb_leftmost;
	struct sched_entity *curr, *next;
};

struct rq {
	spinlock_t lock;
	unsigned int nr_running;
	struct cfs_rq cfs;
	struct task_struct *curr, *idle;
	u64 clock;
};

DEFINE_PER_CPU(struct rq, runqueues);
int pid_max_table[4] = { 32768, 32768, 4194304, 4194304 };
static const enum task_state dead = TASK_DEAD;

void sched_fork(struct task_struct *p, unsigned long clone_flags)
{
	p->se.on_rq = 0;
	p->se.vruntime = runqueues.cfs.min_vruntime;
	p->exit_state = clone_flags & 1 ? &dead : 0;
	p->state = TASK_RUNNING;
}

int wake_up_process(struct task_struct *p)
{
	runqueues.nr_running++;
	runqueues.cfs.nr_running++;
	runqueues.curr = p;
	return 1;
}

struct task_struct *find_task(pid_t nr)
{
	return runqueues.curr && runqueues.curr->pid == nr ? runqueues.curr : 0;
}
