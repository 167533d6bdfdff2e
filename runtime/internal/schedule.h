/* Scheduling: the per-device ready queues and their workers (sched.c,
 * worker.c). */
#ifndef RT_SCHEDULE_H
#define RT_SCHEDULE_H

#include <stdbool.h>
#include "device.h"
#include "task.h"

int sched_init(void); /* loads the topology */
int sched_cores_per_device(void);
int sched_start(void); /* one worker per device */
void sched_push(rt_task_t *t);
/* The next task for device d: its own queue's first.  An idle device (none
 * in flight) also steals, and sleeps until there is a task; it gets NULL when
 * the runtime stops.  A busy one gets NULL when its queue is empty. */
rt_task_t *sched_take(rt_device_t *d, bool idle);
/* The head of d's queue if it is urgent (rt_task_t.urgent), else NULL; never waits or steals. */
rt_task_t *sched_take_urgent(rt_device_t *d);
void sched_bind_worker(rt_device_t *d);
void sched_fini(void);
void *worker_main(void *arg); /* worker.c */

#endif
