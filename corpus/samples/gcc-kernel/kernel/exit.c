/* exit.c - ends tasks: the memory map and files are only declared here, and so is a buffer
 * type that two other units define differently (a declaration no input can resolve). */
#include "../include/sched.h"

struct buffer;
struct buffer *exit_log;

static int pid_limit(unsigned int i)
{
	return pid_max_table[i];	/* an array of unknown bound: gcc indexes it by void */
}

void release_task(struct task_struct *p)
{
	nr_threads--;
	p->mm = 0;
	p->files = 0;
}

int do_exit(long code)
{
	struct task_struct *tsk = find_task(0);

	if (!tsk)
		return -3;
	tsk->exit_code = (int)code;
	release_task(tsk);
	return pid_limit((unsigned int)code & 3);
}
