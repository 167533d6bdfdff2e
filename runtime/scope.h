#ifndef RT_SCOPE_H
#define RT_SCOPE_H

#include <stdatomic.h>

/* Whose errors a task's are.  The application's calls share rt.app, whose
 * errors the next tess_sync returns.  A caller that waits for its own tasks
 * alone (a legacy BLAS call made between the application's) submits them in
 * a scope of its own (rt_scope_enter on its thread), so that neither takes
 * the other's errors.  held: a task of the scope failed since the scope's
 * last sync; its write-backs and flushes fail instead of copying, so that the
 * host keeps what it held when the task failed (the tiles stay on devices),
 * and while any scope is held no dirty tile is evicted. */
typedef struct rt_scope {
    atomic_int error;    /* its tasks' first error since its last sync */
    atomic_int held;     /* the error that holds its copies to the host; 0: none */
    atomic_long pending; /* its tasks submitted and not completed */
} rt_scope_t;
/* The scope of the tasks the calling thread submits: rt.app unless it entered one. */
rt_scope_t *rt_scope_current(void);
void rt_scope_enter(rt_scope_t *s); /* NULL: rt.app again */
/* Waits for the scope's tasks (and those they wait for); their first error since the last
 * sync of the scope, which is cleared with its hold. */
int rt_scope_sync(rt_scope_t *s);
/* Keeps err for the scope's next sync unless an earlier error is already kept. */
void rt_record_error(rt_scope_t *s, int err);
/* A task of scope s failed with err: kept for its sync, and until then the
 * scope's copies to the host are held back. */
void rt_task_failed(rt_scope_t *s, int err);
/* The error a copy to the host made on own's behalf is held back with (0: none): own is a
 * task's scope, &rt.evict for an eviction (held by any scope), NULL for the user's own
 * request (never held). */
int rt_scope_hold(const rt_scope_t *own);

#endif
