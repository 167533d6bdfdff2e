/* The software cache: each block's copies in each device's pool, kept
 * coherent with MOSI, the host being memory space 0 (b->host_valid).
 *
 * Invariant: either the host copy is valid and every device copy is S, or
 * exactly one device copy is M (alone) or O (with S copies beside it).
 *
 * Copies are moved outside rt.cache_lock: the destination and the source are
 * pinned meanwhile, and the task graph guarantees that no writer of the block
 * runs at the same time.  A copy is only ever filled by its own device's
 * worker, so no block is fetched twice into one device. */
#include <limits.h>
#include <stdlib.h>
#include "pool.h"
#include "rt.h"

struct cache_dev {
    pool_t *pool;
    rt_block_t **res; /* blocks with memory on this device */
    size_t nres, capres;
};

static size_t tile_bytes(const rt_block_t *b)
{
    return (size_t)b->m * (size_t)b->n * b->elsize;
}

static uint8_t state(const rt_copy_t *c)
{
    return atomic_load_explicit(&c->state, memory_order_relaxed);
}

static void set_state(rt_copy_t *c, copy_state_t s)
{
    atomic_store_explicit(&c->state, (uint8_t)s, memory_order_relaxed);
}

int cache_pool_init(rt_device_t *d)
{
    d->cache = calloc(1, sizeof *d->cache);
    if (!d->cache)
        return TESS_ENOMEM;
    d->cache->pool = pool_new(d->pool_size);
    return d->cache->pool ? 0 : TESS_ENOMEM;
}

void cache_pool_free(rt_device_t *d)
{
    if (!d->cache)
        return;
    pool_delete(d->cache->pool);
    free(d->cache->res);
    free(d->cache);
    d->cache = NULL;
}

/* ---- memory of one copy (under rt.cache_lock) ----------------------------- */

static void free_copy(int dev, rt_block_t *b)
{
    struct cache_dev *cd = rt.dev[dev]->cache;
    rt_copy_t *c = &b->copies[dev];
    set_state(c, COPY_I);
    c->arrival = NULL; /* the event is its fetcher's, given back at release */
    if (!c->ptr)
        return;
    pool_free(cd->pool, (size_t)((char *)c->ptr - rt.dev[dev]->pool_base), c->bytes);
    rt_block_t *last = cd->res[--cd->nres];
    cd->res[c->slot] = last;
    last->copies[dev].slot = c->slot;
    c->ptr = NULL;
}

static int write_back_sync(rt_device_t *runner, rt_block_t *b, bool unlock, rt_scope_t *own,
                           rt_scope_t *charge);

/* Evicts the least recently used unpinned copy, clean ones first; a dirty one
 * is written back first, and its failure is charged to scope, the scope of the
 * task that wanted the room.  False when every copy is in use. */
static bool evict_one(rt_device_t *d, int *err, rt_scope_t *scope)
{
    struct cache_dev *cd = d->cache;
    rt_block_t *victim = NULL;
    bool victim_clean = false;
    for (size_t i = 0; i < cd->nres; i++) {
        rt_block_t *b = cd->res[i];
        rt_copy_t *c = &b->copies[d->id];
        if (c->pins)
            continue;
        bool clean = state(c) != COPY_M && state(c) != COPY_O;
        if (!victim || (clean && !victim_clean) ||
            (clean == victim_clean && c->lru_tick < victim->copies[d->id].lru_tick)) {
            victim = b;
            victim_clean = clean;
        }
    }
    if (!victim)
        return false;
    if (!victim_clean) {
        /* copied under the lock: an eviction is no task, so nothing else
         * orders it against a task writing the block on another device */
        *err = write_back_sync(d, victim, false, &rt.evict, scope);
        if (*err)
            return false;
    }
    free_copy(d->id, victim);
    atomic_fetch_add(&rt.evictions, 1);
    return true;
}

static int alloc_copy(rt_device_t *d, rt_block_t *b, rt_scope_t *scope)
{
    struct cache_dev *cd = d->cache;
    rt_copy_t *c = &b->copies[d->id];
    size_t bytes = tile_bytes(b), off;
    if (rt_fault(RT_FAULT_ALLOC))
        return RT_ENOMEM_FINAL;
    if (!rt_grow(&cd->res, &cd->capres, cd->nres, sizeof *cd->res, 256))
        return TESS_ENOMEM;
    while (!pool_alloc(cd->pool, bytes, &off)) {
        int err = 0;
        if (!evict_one(d, &err, scope))
            return err ? err : TESS_ENOMEM;
    }
    c->ptr = d->pool_base + off;
    c->bytes = bytes;
    c->slot = (int)cd->nres;
    cd->res[cd->nres++] = b;
    return 0;
}

int cache_make_room(rt_device_t *d, bool *others, rt_scope_t *scope)
{
    int err = 0;
    pthread_mutex_lock(&rt.cache_lock);
    while (evict_one(d, &err, scope))
        ;
    *others = d->cache->nres > 0;
    /* a task pins copies only while a worker has it (counted in rt.inflight
     * from before it pins until after it lets go), and the caller's holds
     * none: pinned copies with no other task to hold them are a bug */
    if (!err && *others && atomic_load(&rt.inflight) <= 1)
        err = TESS_EINTERNAL;
    pthread_mutex_unlock(&rt.cache_lock);
    return err;
}

/* ---- sources and owners (under rt.cache_lock) ----------------------------- */

int cache_owner(const rt_block_t *b)
{
    int shared = -1;
    for (int i = 0; i < rt.ndev; i++) {
        uint8_t s = state(&b->copies[i]);
        if (s == COPY_M || s == COPY_O)
            return i;
        if (s == COPY_S && shared < 0)
            shared = i;
    }
    return shared;
}

int cache_resident(const rt_block_t *b, int dev)
{
    return state(&b->copies[dev]) != COPY_I;
}

/* The nearest valid copy for device d: the device with a valid copy over the
 * best direct link (a peer link beats a host transfer on every machine this
 * runtime targets), else the host (-1); with no valid host copy, the owner's
 * whatever the link. */
static int nearest_source(const rt_block_t *b, int d)
{
    int best = -1, best_rank = INT_MAX;
    for (int i = 0; i < rt.ndev; i++) {
        if (i == d || state(&b->copies[i]) == COPY_I)
            continue;
        int rank = rt.dev[d]->be->link_rank(rt.dev[d], rt.dev[i]);
        if (rank < best_rank) {
            best = i;
            best_rank = rank;
        }
    }
    if (best < 0 && !b->host_valid)
        best = cache_owner(b);
    return best == d ? -1 : best;
}

/* ---- the task-facing operations ------------------------------------------- */

/* The events around one transfer on device d: *done always, *start only when
 * tracing.  Either both are taken or neither. */
static int transfer_events(rt_device_t *d, rt_event_t **start, rt_event_t **done)
{
    *done = event_get(d);
    *start = rt.cfg.trace ? event_get(d) : NULL;
    if (*done && (*start || !rt.cfg.trace))
        return 0;
    event_put(*done);
    event_put(*start);
    *start = *done = NULL;
    return TESS_ENOMEM;
}

/* Queues the transfer of b into c from the nearest valid copy, under
 * rt.cache_lock, which it drops meanwhile (from pageable host memory the
 * backend copies synchronously).  c stays invalid until the transfer is
 * queued, so no other device takes it as a source before then; from then on
 * c->arrival says when its data is there. */
static int fetch(rt_device_t *d, rt_block_t *b, rt_copy_t *c, cache_use_t *u)
{
    int src = nearest_source(b, d->id);
    if (src < 0 && !b->host_valid)
        return TESS_EINTERNAL;
    size_t bytes = tile_bytes(b);
    rt_event_t *start, *done;
    if (transfer_events(d, &start, &done))
        return TESS_ENOMEM;
    rt_copy_t *sc = src >= 0 ? &b->copies[src] : NULL;
    rt_event_t *after = sc ? sc->arrival : NULL;
    int stream = sc ? RT_S_PEER : RT_S_H2D;
    if (sc)
        sc->pins++;
    pthread_mutex_unlock(&rt.cache_lock);
    int err = rt_fault(sc ? RT_FAULT_D2D : RT_FAULT_H2D) ? TESS_EDEVICE : 0;
    if (!err && after)
        err = d->be->wait(d, stream, after);
    if (!err && start)
        err = d->be->record(d, stream, start);
    if (!err)
        err = sc ? d->be->d2d(d, c->ptr, rt.dev[src], sc->ptr, bytes) : d->be->h2d(d, c->ptr, b);
    if (!err)
        err = d->be->record(d, stream, done);
    pthread_mutex_lock(&rt.cache_lock);
    if (err) {
        if (sc)
            sc->pins--;
        event_put(done);
        event_put(start);
        return err;
    }
    if (sc) {
        atomic_fetch_add(&rt.bytes_d2d, bytes);
        if (state(sc) == COPY_M)
            set_state(sc, COPY_O);
    } else {
        atomic_fetch_add(&rt.bytes_h2d, bytes);
    }
    c->arrival = done;
    set_state(c, COPY_S);
    u->fetched = done;
    u->fetch_start = start;
    u->src = src;
    return 0;
}

/* A write leaves this copy the only valid one.  Another copy that a queued
 * transfer still reads (pinned as its source: the fetch that this very
 * acquire may have just queued) is only invalidated; eviction takes its
 * memory back once the reading task has retired. */
static void take_ownership(rt_device_t *d, rt_block_t *b)
{
    for (int i = 0; i < rt.ndev; i++) {
        rt_copy_t *c = &b->copies[i];
        if (i == d->id || !c->ptr)
            continue;
        if (c->pins) {
            set_state(c, COPY_I);
            c->arrival = NULL;
        } else {
            free_copy(i, b);
        }
    }
    set_state(&b->copies[d->id], COPY_M);
    b->host_valid = false;
}

int cache_acquire(rt_device_t *d, rt_block_t *b, rt_mode_t mode, cache_use_t *u, rt_scope_t *scope)
{
    *u = (cache_use_t){ .blk = b, .src = -1 };
    rt_copy_t *c = &b->copies[d->id];
    int err = 0;
    pthread_mutex_lock(&rt.cache_lock);
    if (state(c) != COPY_I) {
        atomic_fetch_add(&rt.hits, 1);
    } else {
        if (!c->ptr)
            err = alloc_copy(d, b, scope);
        if (!err && (mode & RT_R)) {
            atomic_fetch_add(&rt.misses, 1);
            c->pins++;
            err = fetch(d, b, c, u);
            c->pins--;
        }
    }
    if (!err) {
        c->pins++;
        c->lru_tick = ++rt.lru_clock;
        if (mode & RT_W)
            take_ownership(d, b);
        u->ptr = c->ptr;
        u->ready = c->arrival;
    }
    pthread_mutex_unlock(&rt.cache_lock);
    return err;
}

void cache_release(rt_device_t *d, cache_use_t *u)
{
    rt_copy_t *c = &u->blk->copies[d->id];
    pthread_mutex_lock(&rt.cache_lock);
    c->pins--;
    c->lru_tick = ++rt.lru_clock;
    if (u->src >= 0)
        u->blk->copies[u->src].pins--;
    if (u->fetched && c->arrival == u->fetched)
        c->arrival = NULL;
    pthread_mutex_unlock(&rt.cache_lock);
    event_put(u->fetched);
    event_put(u->fetch_start);
}

/* Queues the copy of the newest version to the host, under rt.cache_lock
 * (dropped meanwhile with unlock: only for tasks, whose dependencies keep
 * writers of the block away).  *done is NULL when the host was valid.  own:
 * on whose behalf, which may hold it back (rt_scope_hold); charge: the scope
 * whose tasks' error its failure is (own, or for an eviction the scope of the
 * task it makes room for; NULL: nobody's). */
static int queue_d2h(rt_block_t *b, const cache_rows_t *rows, bool unlock, rt_scope_t *own,
                     rt_scope_t *charge, int *src, rt_event_t **start, rt_event_t **done)
{
    *src = -1;
    *start = *done = NULL;
    if (b->host_valid)
        return 0;
    int held = rt_scope_hold(own);
    if (held)
        return held;
    int o = cache_owner(b);
    if (o < 0)
        return TESS_EINTERNAL;
    rt_device_t *od = rt.dev[o];
    rt_copy_t *oc = &b->copies[o];
    if (transfer_events(od, start, done))
        return TESS_ENOMEM;
    oc->pins++;
    if (unlock)
        pthread_mutex_unlock(&rt.cache_lock);
    int err = rt_fault(RT_FAULT_D2H) ? TESS_EDEVICE : 0;
    if (!err && *start)
        err = od->be->record(od, RT_S_D2H, *start);
    /* a whole write-back whose rows all went out in partial ones copies nothing */
    if (!err && rows->r1 > rows->r0)
        err = od->be->d2h(od, b, oc->ptr, rows->r0, rows->r1);
    if (!err)
        err = od->be->record(od, RT_S_D2H, *done);
    if (unlock)
        pthread_mutex_lock(&rt.cache_lock);
    if (err) {
        /* held from now, not from when the task behind it retires: another
         * device's eviction must not write to the host meanwhile */
        if (charge)
            rt_task_failed(charge, err);
        oc->pins--;
        event_put(*done);
        event_put(*start);
        *start = *done = NULL;
        return err;
    }
    *src = o;
    return 0;
}

/* queue_d2h, and a write-back that could not start leaves the block marked:
 * whoever reads its host copy next flushes it again first. */
static int write_back_start(rt_block_t *b, const cache_rows_t *rows, bool unlock, rt_scope_t *own,
                            rt_scope_t *charge, int *src, rt_event_t **start, rt_event_t **done)
{
    int err = queue_d2h(b, rows, unlock, own, charge, src, start, done);
    if (err)
        atomic_store(&b->wb_failed, true);
    return err;
}

/* Under rt.cache_lock, once the transfer write_back_start queued is over. */
static void write_back_done(rt_block_t *b, const cache_rows_t *rows, int src, bool ok)
{
    if (src < 0)
        return;
    rt_copy_t *oc = &b->copies[src];
    oc->pins--;
    if (!ok) {
        /* the owner's copy stays as it was: nothing is lost, and the block is
         * written back whole when asked again (a block's write-backs run in
         * order, so none has marked it clean meanwhile) */
        atomic_store(&b->wb_failed, true);
        return;
    }
    atomic_fetch_add(&rt.bytes_d2h, (size_t)(rows->r1 - rows->r0) * (size_t)b->n * b->elsize);
    atomic_fetch_add(&rt.writebacks, 1);
    b->wb_tick = atomic_fetch_add(&rt.wb_clock, 1) + 1;
    /* the rows above a whole write-back's are the host's only if no write-back failed
     * meanwhile (one of another scope's, whose failure does not hold this one's) */
    if (rows->partial || (rows->r0 > 0 && atomic_load(&b->wb_failed)))
        return;
    atomic_store(&b->wb_failed, false);
    b->host_valid = true;
    if (state(oc) == COPY_M || state(oc) == COPY_O)
        set_state(oc, COPY_S);
}

static int write_back_sync(rt_device_t *runner, rt_block_t *b, bool unlock, rt_scope_t *own,
                           rt_scope_t *charge)
{
    int64_t t0 = rt_now_ns();
    int src;
    rt_event_t *start, *done;
    cache_rows_t whole = { 0, b->m, false };
    int err = write_back_start(b, &whole, unlock, own, charge, &src, &start, &done);
    if (err || !done)
        return err;
    if (unlock)
        pthread_mutex_unlock(&rt.cache_lock);
    err = done->dev->be->event_sync(done);
    if (unlock)
        pthread_mutex_lock(&rt.cache_lock);
    if (err && charge)
        rt_task_failed(charge, err);
    write_back_done(b, &whole, src, !err);
    event_put(start);
    event_put(done);
    if (runner)
        trace_event(runner, RT_S_D2H, "d2h", t0);
    return err;
}

int cache_writeback_start(rt_block_t *b, const cache_rows_t *rows, rt_scope_t *own, int *src,
                          rt_event_t **start, rt_event_t **done)
{
    pthread_mutex_lock(&rt.cache_lock);
    int err = write_back_start(b, rows, true, own, own, src, start, done);
    pthread_mutex_unlock(&rt.cache_lock);
    return err;
}

void cache_writeback_done(rt_block_t *b, const cache_rows_t *rows, int src, bool ok)
{
    pthread_mutex_lock(&rt.cache_lock);
    write_back_done(b, rows, src, ok);
    pthread_mutex_unlock(&rt.cache_lock);
}

int cache_flush_invalidate(rt_device_t *runner, rt_block_t *b, bool keep_dirty, rt_scope_t *own)
{
    pthread_mutex_lock(&rt.cache_lock);
    int err = keep_dirty ? write_back_sync(runner, b, runner != NULL, own, own) : 0;
    if (!err) {
        for (int i = 0; i < rt.ndev; i++)
            free_copy(i, b);
        b->host_valid = true;
    }
    atomic_store(&b->flush_err, err);
    pthread_mutex_unlock(&rt.cache_lock);
    return err;
}

void cache_drop(rt_block_t *b)
{
    cache_flush_invalidate(NULL, b, false, NULL);
}
