/* Per-device ready queues and workers.
 *
 * Owner computes: a ready task goes to the device holding the newest copy of
 * the block it writes; a block with no copy yet goes to its home on a 2-D
 * block-cyclic map of the devices.  A worker with an empty queue steals from
 * the longest queue, preferring the task whose blocks it already holds. */
#include <hwloc.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>
#include "rt.h"

#define STEAL_SCAN 8

static hwloc_topology_t topo;
static hwloc_bitmap_t allowed; /* the process's binding when the runtime started */
static int ncores;             /* cores meeting it */
static int nstarted;           /* workers running */

static int home_device(const rt_block_t *b)
{
    int p = (int)(b->ti % rt.grid_p), q = (int)(b->tj % rt.grid_q);
    return p * rt.grid_q + q;
}

/* A task flagged place_by_first (a BLAS-2 tile task) follows its first block,
 * its matrix tile, which is large where the pieces of y it writes are small:
 * the matrix then stays where it is, from one call to the next and whatever
 * the transpose, and only the pieces of y move. */
static int place(const rt_task_t *t)
{
    const rt_block_t *b = t->acc[0].blk;
    for (int i = 0; i < t->naccess && !t->place_by_first; i++) {
        if (t->acc[i].mode & RT_W) {
            b = t->acc[i].blk;
            break;
        }
    }
    pthread_mutex_lock(&rt.cache_lock);
    int d = cache_owner(b);
    pthread_mutex_unlock(&rt.cache_lock);
    return d >= 0 ? d : home_device(b);
}

/* After the last task of at least its priority: one step when all are equal. */
static void enqueue(rt_device_t *d, rt_task_t *t)
{
    rt_task_t *after = d->qtail;
    while (after && after->prio < t->prio)
        after = after->qprev;
    t->qprev = after;
    t->qnext = after ? after->qnext : d->qhead;
    if (t->qnext)
        t->qnext->qprev = t;
    else
        d->qtail = t;
    if (after)
        after->qnext = t;
    else
        d->qhead = t;
    d->qlen++;
}

static void unlink_task(rt_device_t *d, rt_task_t *t)
{
    if (t->qprev)
        t->qprev->qnext = t->qnext;
    else
        d->qhead = t->qnext;
    if (t->qnext)
        t->qnext->qprev = t->qprev;
    else
        d->qtail = t->qprev;
    d->qlen--;
}

void sched_push(rt_task_t *t)
{
    rt_device_t *d = rt.dev[place(t)];
    pthread_mutex_lock(&rt.sched_lock);
    enqueue(d, t);
    if (rt.nsleeping)
        pthread_cond_broadcast(&rt.sched_cond);
    pthread_mutex_unlock(&rt.sched_lock);
}

static int resident_inputs(const rt_task_t *t, int dev)
{
    int n = 0;
    for (int i = 0; i < t->naccess; i++)
        n += cache_resident(t->acc[i].blk, dev);
    return n;
}

/* Under rt.sched_lock. */
static rt_task_t *steal(rt_device_t *self)
{
    rt_device_t *victim = NULL;
    for (int i = 0; i < rt.ndev; i++)
        if (rt.dev[i] != self && rt.dev[i]->qlen > 0 && (!victim || rt.dev[i]->qlen > victim->qlen))
            victim = rt.dev[i];
    if (!victim)
        return NULL;
    rt_task_t *best = NULL;
    int best_score = -1, scanned = 0;
    for (rt_task_t *t = victim->qtail; t && scanned < STEAL_SCAN; t = t->qprev, scanned++) {
        /* a BLAS-2 tile task's matrix tile would cost more to move than its kernel does, and
         * would then stay: it is stolen only by a device that holds the tile */
        if (t->place_by_first && !cache_resident(t->acc[0].blk, self->id))
            continue;
        int s = resident_inputs(t, self->id);
        if (s > best_score) {
            best = t;
            best_score = s;
        }
    }
    if (!best)
        return NULL;
    unlink_task(victim, best);
    atomic_fetch_add(&self->nsteals, 1);
    return best;
}

/* The i-th core meeting the process's binding. */
static hwloc_obj_t allowed_core(int i)
{
    hwloc_obj_t core = NULL;
    while ((core = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_CORE, core)))
        if (core->cpuset && hwloc_bitmap_intersects(core->cpuset, allowed) && i-- == 0)
            return core;
    return NULL;
}

/* A worker and the host BLAS threads it drives share the cores given to its
 * device, so devices do not oversubscribe the machine.  The cores are those
 * of the process's binding (an MPI launcher's, one rank's cores), all of the
 * machine's when it has none.  Binding is a hint: where the system refuses
 * it the worker runs unbound. */
void sched_bind_worker(rt_device_t *d)
{
    if (!topo || ncores <= 0)
        return;
    int per = ncores / rt.ndev > 0 ? ncores / rt.ndev : 1;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set)
        return;
    /* a GPU's worker goes to the cores nearest that GPU, of those it may use */
    if (d->be->near_cpuset && !d->be->near_cpuset(d, topo, set)) {
        hwloc_bitmap_and(set, set, allowed);
        if (!hwloc_bitmap_iszero(set))
            per = 0;
    }
    for (int c = 0; c < per; c++) {
        hwloc_obj_t core = allowed_core((d->id * per + c) % ncores);
        if (core)
            hwloc_bitmap_or(set, set, core->cpuset);
    }
    hwloc_bitmap_and(set, set, allowed);
    hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD);
    hwloc_bitmap_free(set);
}

rt_task_t *sched_take(rt_device_t *d, bool idle)
{
    pthread_mutex_lock(&rt.sched_lock);
    for (;;) {
        rt_task_t *t = d->qhead;
        if (t)
            unlink_task(d, t);
        else if (idle)
            t = steal(d);
        if (t || !idle || rt.stopping) {
            pthread_mutex_unlock(&rt.sched_lock);
            return t;
        }
        rt.nsleeping++;
        pthread_cond_wait(&rt.sched_cond, &rt.sched_lock);
        rt.nsleeping--;
    }
}

rt_task_t *sched_take_urgent(rt_device_t *d)
{
    pthread_mutex_lock(&rt.sched_lock);
    rt_task_t *t = d->qhead;
    if (t && t->urgent)
        unlink_task(d, t);
    else
        t = NULL;
    pthread_mutex_unlock(&rt.sched_lock);
    return t;
}

/* Cores per device, for the host BLAS each worker drives. */
int sched_cores_per_device(void)
{
    return ncores / rt.ndev > 0 ? ncores / rt.ndev : 1;
}

/* Without a topology (hwloc failed) workers run unbound, and the host BLAS
 * threads are split over the processors online. */
static void no_topology(void)
{
    topo = NULL;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    ncores = n > 0 && n < INT_MAX ? (int)n : 1;
}

int sched_init(void)
{
    nstarted = 0;
    rt.stopping = false;
    if (hwloc_topology_init(&topo)) {
        no_topology();
        return 0;
    }
    if (hwloc_topology_load(topo)) {
        hwloc_topology_destroy(topo);
        no_topology();
        return 0;
    }
    hwloc_bitmap_t bound = hwloc_bitmap_alloc();
    allowed = hwloc_bitmap_dup(hwloc_topology_get_topology_cpuset(topo));
    if (!bound || !allowed) {
        hwloc_bitmap_free(bound);
        hwloc_bitmap_free(allowed);
        hwloc_topology_destroy(topo);
        topo = NULL;
        return TESS_ENOMEM;
    }
    /* a binding that cannot be read, or that meets no core, counts as none */
    if (!hwloc_get_cpubind(topo, bound, HWLOC_CPUBIND_PROCESS) &&
        hwloc_bitmap_intersects(bound, allowed))
        hwloc_bitmap_and(allowed, allowed, bound);
    hwloc_bitmap_free(bound);
    ncores = 0;
    while (allowed_core(ncores))
        ncores++;
    return 0;
}

int sched_start(void)
{
    for (; nstarted < rt.ndev; nstarted++)
        if (pthread_create(&rt.dev[nstarted]->worker, NULL, worker_main, rt.dev[nstarted]))
            return TESS_EINTERNAL;
    return 0;
}

/* Stops the workers that started (all of them once the queues are empty) and
 * releases the topology. */
void sched_fini(void)
{
    pthread_mutex_lock(&rt.sched_lock);
    rt.stopping = true;
    pthread_cond_broadcast(&rt.sched_cond);
    pthread_mutex_unlock(&rt.sched_lock);
    for (int i = 0; i < nstarted; i++)
        pthread_join(rt.dev[i]->worker, NULL);
    nstarted = 0;
    if (topo) {
        hwloc_bitmap_free(allowed);
        hwloc_topology_destroy(topo);
        topo = NULL;
    }
}
