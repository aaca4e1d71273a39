/* main.c - wires a worker to a couple of jobs. */
#include "sched.h"

static int say_hello(struct job *job, void *ctx)
{
	(void)ctx;
	return job->name[0] == 'h' ? 0 : 1;
}

static void finished(const struct job *job, int status)
{
	(void)job;
	(void)status;
}

static const struct job_ops hello_ops = {
	.run = say_hello,
	.done = finished,
};

static struct job jobs[2] = {
	{ .name = "hello", .ops = &hello_ops, .prio = 3 },
	{ .name = "world", .ops = &hello_ops, .flags = JF_URGENT | JF_HUGE_MEM },
};

int main(void)
{
	unsigned char buf[sizeof(struct msg) + 16];
	struct worker *w = worker_create(0);
	int i, n = 0;

	queue_init(&ready_queue, "ready", 8);
	for (i = 0; i < 2; i++)
		job_submit(&jobs[i], w);
	while (worker_step(w, (struct msg *)buf, sizeof(buf)))
		n++;
	return n == 2 ? 0 : 1;
}
