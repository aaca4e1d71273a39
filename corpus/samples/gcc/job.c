/* job.c - job submission and execution; sees struct worker only as a pointer. */
#include "sched.h"

static u32 submitted;
const char job_version[] = "sched-1.0";

int job_submit(struct job *job, struct worker *w)
{
	if (job->flags & JF_HUGE_MEM)
		job->prio = 0;
	job->owner = w;
	job->state = JOB_NEW;
	submitted++;
	return queue_push(&ready_queue, job);
}

int job_run(struct job *job)
{
	int rc, i;

	for (i = 0; i < 4; i++)
		if (job->deps[i] && job->deps[i]->state != JOB_DONE)
			return -1;
	job->state = JOB_RUNNING;
	rc = job->ops->run(job, job->ctx);
	job->state = rc ? JOB_FAILED : JOB_DONE;
	if (job->ops->done)
		job->ops->done(job, rc);
	return rc;
}

union value job_result(const struct job *job)
{
	union value v;

	v.u = job->deadline + job->retries;
	return v;
}
