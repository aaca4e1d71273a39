/* queue.c - intrusive doubly linked job queue. */
#include "sched.h"

struct job_queue ready_queue;
static volatile u32 queue_stats[4];

void queue_init(struct job_queue *q, const char *label, u32 max_len)
{
	u32 i;

	q->head.next = &q->head;
	q->head.prev = &q->head;
	q->len = 0;
	q->max_len = max_len;
	q->stats_ptr = queue_stats;
	q->slots = 0;
	for (i = 0; i + 1 < sizeof(q->label) && label[i]; i++)
		q->label[i] = label[i];
	q->label[i] = 0;
}

int queue_push(struct job_queue *q, struct job *job)
{
	if (q->len >= q->max_len)
		return -1;
	job->node.prev = q->head.prev;
	job->node.next = &q->head;
	q->head.prev->next = &job->node;
	q->head.prev = &job->node;
	q->len++;
	job->state = JOB_READY;
	queue_stats[0]++;
	return 0;
}

struct job *queue_pop(struct job_queue *q)
{
	struct list_node *n = q->head.next;

	if (n == &q->head)
		return 0;
	n->prev->next = n->next;
	n->next->prev = n->prev;
	q->len--;
	queue_stats[1]++;
	return (struct job *)n;
}
