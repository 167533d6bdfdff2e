/* Tasks and their dependencies.
 *
 * A task is submitted with one guard dependency; each access adds an edge
 * from the block's last writer (RAW) and, for writes, from its readers since
 * that write (WAR) and the last writer (WAW).  Dropping the guard at the end
 * makes the task ready if every predecessor has already finished.
 *
 * Views that share memory without being the same block are ordered by
 * flush-invalidate tasks: before a block is used, any overlapping block that
 * was written (or, when this use writes, used at all) since its last flush is
 * written back to the host and dropped from every device, and the new use
 * waits for that. */
#include <stdlib.h>
#include <string.h>
#include "rt.h"

rt_task_t *task_new(rt_task_kind_t kind, const char *name)
{
    rt_task_t *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->kind = kind;
    t->name = name;
    atomic_init(&t->ndeps, 1);
    atomic_init(&t->done, false);
    atomic_init(&t->refs, 1);
    t->scope = rt_scope_current();
    pthread_mutex_init(&t->lock, NULL);
    return t;
}

void task_set_kernel(rt_task_t *t, rt_task_fn fn, kern_type_t type, const void *args, size_t size)
{
    t->fn = fn;
    t->type = type;
    memcpy(t->args, args, size);
}

/* A block used twice by one task is one access with the union of the modes. */
int task_access_from(rt_task_t *t, rt_block_t *b, rt_mode_t mode, int64_t row0)
{
    for (int i = 0; i < t->naccess; i++) {
        if (t->acc[i].blk == b) {
            t->acc[i].mode |= mode;
            t->acc[i].row0 = row0 < t->acc[i].row0 ? row0 : t->acc[i].row0;
            return i;
        }
    }
    if (t->naccess == RT_MAX_ACCESS) {
        t->too_many_accesses = true;
        return 0;
    }
    t->acc[t->naccess].blk = b;
    t->acc[t->naccess].mode = mode;
    t->acc[t->naccess].row0 = row0;
    return t->naccess++;
}

int task_access(rt_task_t *t, rt_block_t *b, rt_mode_t mode)
{
    return task_access_from(t, b, mode, 0);
}

void task_unref(rt_task_t *t)
{
    if (atomic_fetch_sub(&t->refs, 1) == 1) {
        pthread_mutex_destroy(&t->lock);
        free(t->succ);
        free(t);
    }
}

/* Records that succ waits for pred, unless pred is already done; false when
 * there is no memory for the edge. */
static bool add_edge(rt_task_t *pred, rt_task_t *succ)
{
    bool ok = true;
    pthread_mutex_lock(&pred->lock);
    if (!pred->done && pred != succ) {
        ok = rt_grow(&pred->succ, &pred->capsucc, pred->nsucc, sizeof *pred->succ, 4);
        if (ok) {
            pred->succ[pred->nsucc++] = succ;
            atomic_fetch_add(&succ->ndeps, 1);
        }
    }
    pthread_mutex_unlock(&pred->lock);
    return ok;
}

/* add_edge for a submitted pred: with no memory for the edge the order still
 * holds if we wait here, and succ is not pending yet, so this cannot wait on
 * itself. */
static void add_dep(rt_task_t *pred, rt_task_t *succ)
{
    if (!add_edge(pred, succ))
        task_wait_all();
}

/* A task that is done orders nothing any more (add_dep skips it), so the
 * block's references to done tasks can go at any time. */
static bool task_done(rt_task_t *t)
{
    return atomic_load_explicit(&t->done, memory_order_acquire);
}

static void drop_if_done(rt_task_t **ref)
{
    if (*ref && task_done(*ref)) {
        task_unref(*ref);
        *ref = NULL;
    }
}

static void prune_readers(rt_block_t *b)
{
    size_t n = 0;
    for (size_t i = 0; i < b->nreaders; i++) {
        if (task_done(b->readers[i]))
            task_unref(b->readers[i]);
        else
            b->readers[n++] = b->readers[i];
    }
    b->nreaders = n;
}

/* False when the reader cannot be remembered: the caller then records the
 * access as a write, which orders more than needed but never less.  A full
 * list first drops its done readers, so that a block only ever read keeps a
 * bounded list; it still doubles when that freed less than half of it, and
 * halves when less than a quarter is left, so that the scans stay amortised
 * O(1) per reader and the done tasks a list holds follow the current load,
 * not the highest it ever had. */
static bool add_reader(rt_block_t *b, rt_task_t *t)
{
    if (b->nreaders == b->capreaders && b->capreaders) {
        prune_readers(b);
        if (b->nreaders > b->capreaders / 2 &&
            !rt_grow(&b->readers, &b->capreaders, b->capreaders, sizeof *b->readers, 4))
            return false;
        if (b->capreaders > 8 && b->nreaders < b->capreaders / 4) {
            rt_task_t **r = realloc(b->readers, b->capreaders / 2 * sizeof *r);
            if (r) {
                b->readers = r;
                b->capreaders /= 2;
            }
        }
    }
    if (!rt_grow(&b->readers, &b->capreaders, b->nreaders, sizeof *b->readers, 4))
        return false;
    atomic_fetch_add(&t->refs, 1);
    b->readers[b->nreaders++] = t;
    return true;
}

/* After a flush-invalidate in submission order: no device copy, the host's whole. */
static void mark_flushed(rt_block_t *b)
{
    b->ovl_touched = b->ovl_dirty = b->coh_dirty = false;
    b->host_rows = b->m;
}

/* Runs before t is recorded on any block, so t cannot wait on itself, even
 * when two of its own operands overlap (GEMM's A and B may). */
static void order_after_overlaps(rt_task_t *t, rt_block_t *b, rt_mode_t mode)
{
    for (size_t i = 0; i < b->noverlaps; i++) {
        rt_block_t *y = b->overlaps[i];
        if (!(y->ovl_dirty || ((mode & RT_W) && y->ovl_touched))) {
            /* flushed already, but its write to the host may still be on its
             * way: t waits for it, and is poisoned if it fails */
            drop_if_done(&y->flush);
            if (y->flush)
                add_dep(y->flush, t);
            /* read once t waits: a flush that failed before then left y's
             * newest data on a device, so flush it again */
            if (!atomic_load(&y->flush_err))
                continue;
        }
        rt_task_t *f = task_new(TASK_FLUSH_INVALIDATE, "flush-invalidate");
        if (f) {
            f->prio = RT_PRIO_FIRST;
            task_access(f, y, RT_RW);
            /* before f can run: one that failed at once must still poison t */
            bool ordered = add_edge(f, t);
            task_submit(f);
            if (ordered)
                continue;
            /* no memory for the edge: t comes after the flush by waiting */
            task_wait_all();
        } else {
            /* no memory for the task: everything before is done, flush here */
            task_wait_all();
            rt_task_failed(t->scope, cache_flush_invalidate(NULL, y, true, t->scope));
            mark_flushed(y);
        }
        int err = atomic_load(&y->flush_err);
        if (err)
            atomic_store(&t->poison, err);
    }
}

int task_submit(rt_task_t *t)
{
    if (t->too_many_accesses) {
        task_unref(t);
        return TESS_EINTERNAL;
    }
    if (t->kind == TASK_KERNEL)
        for (int i = 0; i < t->naccess; i++)
            order_after_overlaps(t, t->acc[i].blk, t->acc[i].mode);
    for (int i = 0; i < t->naccess; i++) {
        rt_block_t *b = t->acc[i].blk;
        rt_mode_t mode = t->acc[i].mode;
        drop_if_done(&b->last_writer);
        if (b->last_writer)
            add_dep(b->last_writer, t);
        /* a block's write-backs run in the order asked for: the one that marks
         * it clean comes after those of its finished rows */
        for (size_t r = 0; t->kind == TASK_WRITEBACK && r < b->nreaders; r++)
            if (b->readers[r]->kind == TASK_WRITEBACK)
                add_dep(b->readers[r], t);
        if ((mode & RT_W) || !add_reader(b, t)) {
            for (size_t r = 0; r < b->nreaders; r++) {
                add_dep(b->readers[r], t);
                task_unref(b->readers[r]);
            }
            b->nreaders = 0;
            if (b->last_writer)
                task_unref(b->last_writer);
            atomic_fetch_add(&t->refs, 1);
            b->last_writer = t;
        }
        if (t->kind == TASK_FLUSH_INVALIDATE) {
            mark_flushed(b);
            if (b->flush)
                task_unref(b->flush);
            atomic_fetch_add(&t->refs, 1);
            b->flush = t;
        } else {
            b->ovl_touched = true;
            if (mode & RT_W) {
                b->ovl_dirty = b->coh_dirty = true;
                if (t->acc[i].row0 < b->host_rows)
                    b->host_rows = t->acc[i].row0;
            }
        }
    }
    atomic_fetch_add(&rt.pending, 1);
    atomic_fetch_add(&t->scope->pending, 1);
    if (atomic_fetch_sub(&t->ndeps, 1) == 1)
        sched_push(t);
    return 0;
}

static _Thread_local rt_scope_t *current_scope;

rt_scope_t *rt_scope_current(void)
{
    return current_scope ? current_scope : &rt.app;
}

void rt_scope_enter(rt_scope_t *s)
{
    current_scope = s;
}

void rt_record_error(rt_scope_t *s, int err)
{
    int none = 0;
    if (err)
        atomic_compare_exchange_strong(&s->error, &none, err);
}

void rt_task_failed(rt_scope_t *s, int err)
{
    int none = 0;
    if (err && atomic_compare_exchange_strong(&s->held, &none, err))
        atomic_fetch_add(&rt.nheld, 1);
    rt_record_error(s, err);
}

int rt_scope_hold(const rt_scope_t *own)
{
    if (!own)
        return 0;
    if (own == &rt.evict)
        return atomic_load(&rt.nheld) ? TESS_ENOMEM : 0;
    return atomic_load(&own->held);
}

int rt_scope_sync(rt_scope_t *s)
{
    pthread_mutex_lock(&rt.done_lock);
    while (atomic_load(&s->pending) > 0)
        pthread_cond_wait(&rt.done_cond, &rt.done_lock);
    pthread_mutex_unlock(&rt.done_lock);
    if (atomic_exchange(&s->held, 0))
        atomic_fetch_sub(&rt.nheld, 1);
    return atomic_exchange(&s->error, 0);
}

void task_complete(rt_task_t *t, int err)
{
    rt_scope_t *scope = t->scope;
    rt_task_failed(scope, err);
    pthread_mutex_lock(&t->lock);
    atomic_store_explicit(&t->done, true, memory_order_release);
    rt_task_t **succ = t->succ;
    size_t nsucc = t->nsucc;
    t->succ = NULL;
    t->nsucc = t->capsucc = 0;
    pthread_mutex_unlock(&t->lock);
    for (size_t i = 0; i < nsucc; i++) {
        /* a failed flush leaves stale host data; another scope's task would read what a
         * failed task of this one left, and its caller would never hear of the failure */
        if (err && (t->kind == TASK_FLUSH_INVALIDATE || succ[i]->scope != scope))
            atomic_store(&succ[i]->poison, err);
        if (atomic_fetch_sub(&succ[i]->ndeps, 1) == 1)
            sched_push(succ[i]);
    }
    free(succ);
    task_unref(t);
    /* both counts fall before the wake-up, so that a waiter on either sees its own */
    bool scope_done = atomic_fetch_sub(&scope->pending, 1) == 1;
    if (atomic_fetch_sub(&rt.pending, 1) == 1 || scope_done) {
        pthread_mutex_lock(&rt.done_lock);
        pthread_cond_broadcast(&rt.done_cond);
        pthread_mutex_unlock(&rt.done_lock);
    }
}

void task_wait_all(void)
{
    pthread_mutex_lock(&rt.done_lock);
    while (atomic_load(&rt.pending) > 0)
        pthread_cond_wait(&rt.done_cond, &rt.done_lock);
    pthread_mutex_unlock(&rt.done_lock);
}
