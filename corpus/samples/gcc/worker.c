/* worker.c - defines struct worker, which the other files see only as a pointer. */
#include "sched.h"

struct worker_stats {
	u64 runs;
	u64 failures;
	sched_time_t busy_ns;
};

struct worker {
	int cpu;
	enum job_state last_state;
	struct job_queue *queue;
	struct job *current;
	struct worker_stats stats;
	struct worker *peer;
	u8 online : 1;
	u8 draining : 1;
	u8 reserved : 6;
	char name[12];
};

static struct worker workers[2];

struct worker *worker_create(int cpu)
{
	struct worker *w = &workers[cpu & 1];

	w->cpu = cpu;
	w->queue = &ready_queue;
	w->online = 1;
	w->peer = &workers[!(cpu & 1)];
	return w;
}

int worker_step(struct worker *w, struct msg *out, u32 cap)
{
	struct job *j = queue_pop(w->queue);
	int rc;

	if (!j)
		return 0;
	w->current = j;
	rc = job_run(j);
	w->last_state = j->state;
	w->stats.runs++;
	if (rc)
		w->stats.failures++;
	if (cap >= sizeof(*out) + sizeof(rc)) {
		out->kind = 1;
		out->len = sizeof(rc);
		out->seq = (u32)w->stats.runs;
		__builtin_memcpy(out->payload, &rc, sizeof(rc));
	}
	return 1;
}
