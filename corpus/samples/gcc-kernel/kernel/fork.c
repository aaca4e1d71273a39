/* fork.c - creates tasks; defines the counters sched.h declares (so gcc lists each variable
 * twice: the extern declaration and the definition), uses the memory map in full. */
#include "../include/sched.h"
#include "../include/mm.h"

int nr_threads;
unsigned long total_forks;
int max_threads = 4096;
int *max_threads_p = &max_threads;	/* .data.rel.local, not .data */
DEFINE_PER_CPU(unsigned long, process_counts);

static const char *const clone_names[] = { "vm", "fs", "files", "sighand" };	/* .data.rel.ro */

struct task_struct init_task = {
	.state = 0,
	.prio = 120,
	.comm = "swapper",
};

static struct task_struct *dup_task_struct(struct task_struct *orig)
{
	static struct task_struct slot;

	slot = *orig;
	atomic_inc_return(&slot.usage);
	return &slot;
}

const char *clone_name(unsigned int i)
{
	return i < 4 ? clone_names[i] : "?";
}

struct task_struct *copy_process(unsigned long clone_flags, struct task_struct *parent)
{
	struct task_struct *p = dup_task_struct(parent);

	p->real_parent = parent;
	INIT_LIST_HEAD(&p->children);
	list_add(&p->tasks, &init_task.tasks);
	if (!(clone_flags & 0x100)) {
		p->mm = mm_alloc();
		p->mm->owner = p;
	}
	sched_fork(p, clone_flags);
	nr_threads++;
	total_forks++;
	process_counts++;
	return nr_threads > *max_threads_p ? 0 : p;
}

pid_t kernel_clone(unsigned long flags)
{
	struct task_struct *p = copy_process(flags, &init_task);

	if (!p)
		return -11;
	wake_up_process(p);
	return p->pid;
}
