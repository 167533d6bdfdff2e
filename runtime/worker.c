/* A device's worker: it keeps up to rt.cfg.window tiles' worth of tasks in
 * flight (tiles of the devices' default size; a task on smaller tiles counts
 * its share, so a call on small tiles keeps as much work ahead, up to
 * RT_MAX_WINDOW tasks).
 *
 * Issuing a kernel task queues the transfers of its missing inputs on the
 * copy streams, then its kernel on one of the compute streams (the urgent one
 * for a task on its call's critical path), behind the events saying those
 * inputs have arrived, then an event after the kernel.
 * While that kernel runs the worker issues the next tasks, so their inputs
 * arrive meanwhile.  A task retires, releasing its tiles and its successors,
 * when its event has completed; nothing waits for a whole device. */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <time.h>
#include "rt.h"

/* With work in flight and nothing to issue, a worker looks at its events
 * again at once (yielding its core to any thread that wants it) for SPIN_NS
 * from when it first found nothing to do after issuing or retiring a task,
 * then every POLL_NS.  A chain of short kernels (a GEMV's tiles, a
 * factorization's panel) releases each task when the one before retires: a
 * sleep between looks would add itself to every step, and Linux's default
 * timer slack stretches a sleep of 20 us to some 70. */
#define SPIN_NS 200000
#define POLL_NS 20000
#define TIMER_SLACK_NS 1000
#define UNITS_PER_TILE 4 /* a tile of half the default size is one unit */

typedef struct {
    rt_task_t *t;
    int err;
    int stream; /* compute stream of a kernel task */
    int nuse;
    cache_use_t use[RT_MAX_ACCESS];
    int units;                /* its share of the window, in UNITS_PER_TILE of a tile */
    int wb_src;               /* write-back tasks: the device copied from */
    rt_event_t *start, *done; /* around the task's device work; done NULL: none */
    bool running;             /* its kernel's end cannot be known: what it uses is kept */
} flight_t;

typedef struct {
    flight_t f[RT_MAX_WINDOW]; /* in issue order */
    int n;
    int units; /* the flights' */
    int next_stream;
    int64_t busy_until; /* end of the last kernel counted as busy time */
} window_t;

/* Gives back what an issue that failed had taken; the transfers it queued
 * are waited for first, since their destinations return to the pool. */
static void abandon(rt_device_t *d, flight_t *f)
{
    for (int i = 0; i < f->nuse; i++) {
        if (f->use[i].fetched)
            rt_record_error(f->t->scope, d->be->event_sync(f->use[i].fetched));
        cache_release(d, &f->use[i]);
    }
    f->nuse = 0;
    event_put(f->start);
    event_put(f->done);
    f->start = f->done = NULL;
}

static int issue_kernel(rt_device_t *d, flight_t *f)
{
    rt_task_t *t = f->t;
    int s = RT_S_COMPUTE + f->stream, err = 0;
    rt_exec_t x = { .kern = &d->be->kern[t->type],
                    .ctx = d->be->ctx(d, f->stream, &t->async_err),
                    .args = t->args };
    while (!err && f->nuse < t->naccess) {
        cache_use_t *u = &f->use[f->nuse];
        err = cache_acquire(d, t->acc[f->nuse].blk, t->acc[f->nuse].mode, u, t->scope);
        if (!err) {
            x.ptr[f->nuse] = u->ptr;
            x.ld[f->nuse] = u->blk->m;
            f->nuse++;
        }
    }
    for (int i = 0; i < f->nuse && !err; i++)
        if (f->use[i].ready)
            err = d->be->wait(d, s, f->use[i].ready);
    if (!err && (!(f->start = event_get(d)) || !(f->done = event_get(d))))
        err = TESS_ENOMEM;
    if (!err)
        err = d->be->record(d, s, f->start);
    if (err)
        return err;
    /* From here the kernel may have been queued: whatever fails, the task is never issued
     * again, and its error is kept for tess_sync while the flight goes on. */
    f->err = rt_fault(RT_FAULT_KERNEL) ? TESS_EDEVICE : t->fn(&x);
    int rec = d->be->record(d, s, f->done);
    if (rec) {
        /* with no event after it, the kernel's end is known only once the device is idle;
         * one that cannot be waited for may still run it, so its tiles stay pinned and its
         * start event held for good rather than handed to other work */
        f->running = d->be->drain && d->be->drain(d);
        event_put(f->done);
        f->done = NULL;
        f->err = f->err ? f->err : rec;
    }
    if (f->err && rt.cfg.verbose)
        fprintf(stderr, "tessera: device %d: a %s task on tiles of %lld x %lld: %s\n", d->id,
                t->name, (long long)t->acc[0].blk->m, (long long)t->acc[0].blk->n,
                tess_strerror(f->err));
    rt_task_failed(t->scope, f->err); /* at once: its copies to the host stop now */
    return 0;
}

static bool retire_all(rt_device_t *d, window_t *w);

static size_t task_bytes(const rt_task_t *t)
{
    size_t bytes = 0;
    for (int i = 0; i < t->naccess; i++) {
        const rt_block_t *b = t->acc[i].blk;
        bytes += (size_t)b->m * (size_t)b->n * b->elsize;
    }
    return bytes;
}

/* Issues a kernel task, making room when its tiles do not fit.  By then the
 * cache has evicted every copy here that nothing pins: what is left is the
 * task's own tiles, tiles of this device's tasks in flight, and copies that
 * other devices' tasks read as sources.  So first everything in flight here
 * retires; then the pool is emptied of all but what others pin, waiting
 * while they do (they release them when their tasks retire), and the task
 * tried again: from an empty pool, tiles that fit together are allocated
 * side by side, whatever sizes fragmented it.  One device at a time goes
 * this far (rt.room_lock), holding no pins, so no two wait for each other.
 * TESS_ENOMEM once the task failed in a pool holding nothing else. */
static int issue_kernel_task(rt_device_t *d, window_t *w, flight_t *f)
{
    bool room = false, others = true;
    int err;
    for (;;) {
        f->stream = f->t->urgent ? RT_URGENT_STREAM : w->next_stream;
        err = issue_kernel(d, f);
        if (!err)
            break;
        abandon(d, f);
        if (err != TESS_ENOMEM || (room && !others))
            break;
        if (w->n) {
            retire_all(d, w);
            continue;
        }
        if (!room) {
            pthread_mutex_lock(&rt.room_lock);
            room = true;
        } else {
            nanosleep(&(struct timespec){ 0, POLL_NS }, NULL);
        }
        if ((err = cache_make_room(d, &others, f->t->scope)))
            break;
    }
    if (room)
        pthread_mutex_unlock(&rt.room_lock);
    if (err == RT_ENOMEM_FINAL)
        err = TESS_ENOMEM;
    if (err == TESS_ENOMEM && rt.cfg.verbose)
        fprintf(stderr,
                "tessera: device %d: a %s task needs %zu bytes of tiles at once; the "
                "device holds %zu: TESS_ENOMEM\n",
                d->id, f->t->name, task_bytes(f->t), d->pool_size);
    return err;
}

/* A kernel task's share of the window: its largest tile against one of the
 * default size, in units, rounded up; a flush a whole tile's.  A write-back
 * runs on the copy engine, not the SMs, and takes one unit: those a
 * factorization asks for as its tiles become final do not keep its kernels
 * from being issued. */
static int units_of(const rt_task_t *t)
{
    if (t->kind == TASK_WRITEBACK)
        return 1;
    if (t->kind != TASK_KERNEL)
        return UNITS_PER_TILE;
    double nb = (double)rt.cfg.nb_default, most = 0;
    for (int i = 0; i < t->naccess; i++) {
        double area = (double)t->acc[i].blk->m * (double)t->acc[i].blk->n;
        most = area > most ? area : most;
    }
    double u = ceil(UNITS_PER_TILE * most / (nb * nb));
    return u < 1 ? 1 : u > UNITS_PER_TILE ? UNITS_PER_TILE : (int)u;
}

static bool window_full(const window_t *w)
{
    return w->n == RT_MAX_WINDOW || w->units >= UNITS_PER_TILE * rt.cfg.window;
}

/* A full window still takes an urgent task, up to one tile's worth beyond it: the critical
 * path is not held until the bulk issued before it retires. */
static bool urgent_room(const window_t *w)
{
    return w->n < RT_MAX_WINDOW && w->units < UNITS_PER_TILE * (rt.cfg.window + 1);
}

static void issue(rt_device_t *d, window_t *w, rt_task_t *t)
{
    flight_t f = { .t = t, .wb_src = -1, .units = units_of(t) };
    int64_t t0 = rt.cfg.trace ? rt_now_ns() : 0;
    int err;
    /* counted from now: the pins it takes while issued make other devices wait */
    atomic_fetch_add(&rt.inflight, 1);
    switch (t->kind) {
    case TASK_KERNEL:
        /* fetched now, its inputs could be stale host data, cached for later */
        err = atomic_load(&t->poison);
        if (!err)
            err = issue_kernel_task(d, w, &f);
        if (!t->urgent) /* the bulk take turns on the other compute streams */
            w->next_stream = (w->next_stream + 1) % RT_URGENT_STREAM;
        break;
    case TASK_WRITEBACK:
        err = cache_writeback_start(t->acc[0].blk, (const cache_rows_t *)t->args, t->scope,
                                    &f.wb_src, &f.start, &f.done);
        break;
    case TASK_FLUSH_INVALIDATE:
        err = cache_flush_invalidate(d, t->acc[0].blk, true, t->scope);
        break;
    default: err = TESS_EINTERNAL;
    }
    if (err) {
        f.err = err;
        rt_task_failed(t->scope, err);
    }
    w->units += f.units;
    w->f[w->n++] = f;
    if (rt.cfg.trace)
        trace_issue(d, t->name, t0);
}

static int64_t when(const rt_event_t *ev)
{
    return ev->dev->be->event_time((rt_event_t *)ev);
}

static void account_kernel(rt_device_t *d, window_t *w, const flight_t *f)
{
    int64_t t0 = when(f->start), t1 = when(f->done);
    int64_t from = t0 > w->busy_until ? t0 : w->busy_until;
    if (t1 > from)
        atomic_fetch_add(&d->busy_ns, (uint64_t)(t1 - from));
    if (t1 > w->busy_until)
        w->busy_until = t1;
    trace_span(d, RT_S_COMPUTE + f->stream, f->t->name, t0, t1);
}

static void retire(rt_device_t *d, window_t *w, flight_t *f)
{
    rt_task_t *t = f->t;
    if (t->kind == TASK_WRITEBACK) {
        cache_writeback_done(t->acc[0].blk, (const cache_rows_t *)t->args, f->wb_src, !f->err);
        if (f->start && f->done && !f->err)
            trace_span(d, RT_S_D2H, "d2h", when(f->start), when(f->done));
    } else if (t->kind == TASK_KERNEL) {
        int late = __atomic_load_n(&t->async_err, __ATOMIC_ACQUIRE);
        f->err = f->err ? f->err : late;
        if (f->done && !f->err)
            account_kernel(d, w, f);
    }
    for (int i = 0; i < f->nuse && !f->running; i++) {
        cache_use_t *u = &f->use[i];
        if (u->fetch_start && !f->err)
            trace_span(d, u->src >= 0 ? RT_S_PEER : RT_S_H2D, u->src >= 0 ? "d2d" : "h2d",
                       when(u->fetch_start), when(u->fetched));
        cache_release(d, u);
    }
    if (!f->running)
        event_put(f->start);
    event_put(f->done);
    atomic_fetch_add(&d->ntasks, 1);
    atomic_fetch_sub(&rt.inflight, 1);
    task_complete(t, f->err);
}

static void remove_flight(window_t *w, int i)
{
    w->units -= w->f[i].units;
    for (; i + 1 < w->n; i++)
        w->f[i] = w->f[i + 1];
    w->n--;
}

/* Retires every flight whose device work is over; true if any was. */
static bool retire_done(rt_device_t *d, window_t *w)
{
    bool any = false;
    for (int i = 0; i < w->n;) {
        flight_t *f = &w->f[i];
        bool over = true;
        if (f->done) {
            int err = f->done->dev->be->event_done(f->done, &over);
            if (err && !f->err)
                f->err = err;
            over = over || err;
        }
        if (!over) {
            i++;
            continue;
        }
        flight_t done = *f;
        remove_flight(w, i);
        retire(d, w, &done);
        any = true;
    }
    return any;
}

static void wait_oldest(rt_device_t *d, window_t *w)
{
    flight_t *f = &w->f[0];
    if (f->done) {
        int64_t t0 = rt.cfg.trace ? rt_now_ns() : 0;
        int err = f->done->dev->be->event_sync(f->done);
        if (rt.cfg.trace)
            trace_event(d, TRACE_WORKER, "wait", t0);
        if (err && !f->err)
            f->err = err;
    }
}

static bool retire_all(rt_device_t *d, window_t *w)
{
    bool any = w->n > 0;
    while (w->n) {
        wait_oldest(d, w);
        retire_done(d, w);
    }
    return any;
}

static _Thread_local bool on_worker;

bool rt_on_worker(void)
{
    return on_worker;
}

void *worker_main(void *arg)
{
    rt_device_t *d = arg;
    on_worker = true;
    sched_bind_worker(d);
    if (d->be->thread_init)
        rt_record_error(&rt.app, d->be->thread_init(d));
#ifdef PR_SET_TIMERSLACK
    prctl(PR_SET_TIMERSLACK, (unsigned long)TIMER_SLACK_NS, 0, 0, 0);
#endif
    window_t w = { .n = 0 };
    int64_t idle_since = 0; /* when it last found nothing to do after progress; 0: busy since */
    for (;;) {
        bool retired = retire_done(d, &w);
        if (!window_full(&w)) {
            /* steal only when idle: a device with work in flight is not */
            rt_task_t *t = sched_take(d, w.n == 0);
            if (t) {
                issue(d, &w, t);
                idle_since = 0;
                continue;
            }
            if (!w.n)
                break; /* the runtime stops */
        }
        if (retired) {
            idle_since = 0;
            continue;
        }
        if (window_full(&w)) {
            rt_task_t *t = urgent_room(&w) ? sched_take_urgent(d) : NULL;
            if (t)
                issue(d, &w, t);
            else
                wait_oldest(d, &w);
            continue;
        }
        /* the clock is read only here (and around each issue when tracing) */
        int64_t now = rt_now_ns();
        if (!idle_since)
            idle_since = now;
        if (now - idle_since < SPIN_NS)
            sched_yield();
        else
            nanosleep(&(struct timespec){ 0, POLL_NS }, NULL);
    }
    return NULL;
}
