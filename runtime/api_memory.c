/* Coherence, invalidation and registration of host memory. */
#include <stdlib.h>
#include <string.h>
#include "rt.h"

static bool valid_elsize(size_t es)
{
    return es == 4 || es == 8 || es == 16;
}

/* The checks shared by the region calls; first is the position of m.  On
 * success the caller is inside the runtime (rt_enter) and must rt_leave.  A
 * region that does not fit in the address space is TESS_ENOMEM. */
static int enter_region(int first, int64_t m, int64_t n, const void *A, int64_t lda, size_t es)
{
    if (m < 0)
        return -first;
    if (n < 0)
        return -(first + 1);
    if (!A && m > 0 && n > 0)
        return -(first + 2);
    if (lda < (m > 1 ? m : 1))
        return -(first + 3);
    if (!valid_elsize(es))
        return -(first + 4);
    if (!block_view_fits(A, m, n, lda, es))
        return TESS_ENOMEM;
    return rt_enter();
}

static int submit_writeback(rt_block_t *b, cache_rows_t rows)
{
    rt_task_t *t = task_new(TASK_WRITEBACK, "writeback");
    if (!t)
        return TESS_ENOMEM;
    t->prio = RT_PRIO_FIRST;
    task_access(t, b, RT_R);
    memcpy(t->args, &rows, sizeof rows);
    task_submit(t);
    b->host_rows = rows.r1;
    return 0;
}

int block_coherent_async(rt_block_t *b)
{
    bool failed = atomic_load(&b->wb_failed);
    if (!b->coh_dirty && !failed)
        return 0;
    /* after a failure, whatever rows it left stale */
    int err = submit_writeback(b, (cache_rows_t){ failed ? 0 : b->host_rows, b->m, false });
    if (!err)
        b->coh_dirty = false;
    return err;
}

static _Thread_local bool hold_host;

void rt_hold_host_writes(bool hold)
{
    hold_host = hold;
}

int block_write_behind_async(rt_block_t *b)
{
    return hold_host ? 0 : block_coherent_async(b);
}

int block_writeback_rows_async(rt_block_t *b, int64_t r1)
{
    r1 = r1 < b->m ? r1 : b->m;
    if (hold_host || !b->coh_dirty || r1 <= b->host_rows)
        return 0;
    return submit_writeback(b, (cache_rows_t){ b->host_rows, r1, true });
}

static void writeback_block(rt_block_t *b, bool inside, void *arg)
{
    (void)inside;
    int *err = arg;
    int e = block_coherent_async(b);
    if (e)
        *err = e;
}

TESS_API int tess_memory_coherent_async(tess_part_t part, int64_t m, int64_t n, const void *A,
                                        int64_t lda, size_t elsize)
{
    if (part != TessAll && part != TessUpperPart && part != TessLowerPart)
        return -1;
    int err = enter_region(2, m, n, A, lda, elsize);
    if (err)
        return err;
    pthread_mutex_lock(&rt.submit_lock);
    int task_err = 0;
    err = block_foreach_in(part, A, m, n, lda, elsize, writeback_block, &task_err);
    pthread_mutex_unlock(&rt.submit_lock);
    rt_leave();
    return err ? err : task_err;
}

/* Blocks wholly inside the region are dropped: the host copy is the one that
 * counts now.  Blocks that straddle its border keep data outside it, so they
 * are written back first. */
static void invalidate_block(rt_block_t *b, bool inside, void *arg)
{
    int *err = arg;
    int e = cache_flush_invalidate(NULL, b, !inside, NULL);
    if (e) {
        *err = e;
        return;
    }
    block_remove(b);
}

uint64_t rt_writeback_tick(void)
{
    return atomic_load(&rt.wb_clock);
}

typedef struct {
    uint64_t tick;
    bool written;
} written_t;

static void note_written(rt_block_t *b, bool inside, void *arg)
{
    (void)inside;
    written_t *w = arg;
    pthread_mutex_lock(&rt.cache_lock);
    w->written |= b->wb_tick > w->tick;
    pthread_mutex_unlock(&rt.cache_lock);
}

bool rt_region_written_since(tess_part_t part, const void *A, int64_t m, int64_t n, int64_t lda,
                             size_t elsize, uint64_t tick)
{
    written_t w = { tick, false };
    if (rt_enter())
        return true;
    pthread_mutex_lock(&rt.submit_lock);
    int err = block_foreach_in(part, A, m, n, lda, elsize, note_written, &w);
    pthread_mutex_unlock(&rt.submit_lock);
    rt_leave();
    return err || w.written;
}

/* A block with a write still to run, or whose newest copy is on a device (a write-back not
 * yet done, or one that failed). */
static void note_pending(rt_block_t *b, bool inside, void *arg)
{
    (void)inside;
    bool *pending = arg;
    if (b->last_writer && !atomic_load(&b->last_writer->done))
        *pending = true;
    pthread_mutex_lock(&rt.cache_lock);
    *pending |= !b->host_valid || atomic_load(&b->wb_failed);
    pthread_mutex_unlock(&rt.cache_lock);
}

bool rt_region_host_current(const void *A, int64_t m, int64_t n, int64_t lda, size_t elsize)
{
    bool pending = false;
    if (rt_enter())
        return false;
    pthread_mutex_lock(&rt.submit_lock);
    int err = block_foreach_in(TessAll, A, m, n, lda, elsize, note_pending, &pending);
    pthread_mutex_unlock(&rt.submit_lock);
    rt_leave();
    return !err && !pending;
}

TESS_API int tess_memory_invalidate(int64_t m, int64_t n, const void *A, int64_t lda, size_t elsize)
{
    int err = enter_region(1, m, n, A, lda, elsize);
    if (err)
        return err;
    pthread_mutex_lock(&rt.submit_lock);
    task_wait_all();
    int blk_err = 0;
    err = block_foreach_in(TessAll, A, m, n, lda, elsize, invalidate_block, &blk_err);
    pthread_mutex_unlock(&rt.submit_lock);
    /* the host owns this memory again, and may free it */
    if (m > 0 && n > 0)
        pin_release_inside(A, block_span_bytes(m, n, lda, elsize));
    rt_leave();
    return err ? err : blk_err;
}

TESS_API int tess_memory_invalidate_all(void)
{
    int err = rt_enter();
    if (err)
        return err;
    pthread_mutex_lock(&rt.submit_lock);
    task_wait_all();
    block_dir_clear();
    pthread_mutex_unlock(&rt.submit_lock);
    rt_leave();
    return 0;
}

TESS_API int tess_memory_register_async(void *p, size_t bytes)
{
    if (!p)
        return -1;
    if (!bytes || bytes > UINTPTR_MAX - (uintptr_t)p)
        return -2;
    int err = rt_enter();
    if (err)
        return err;
    err = pin_request(p, bytes, true);
    rt_leave();
    return err;
}

TESS_API int tess_memory_unregister(void *p)
{
    if (!p)
        return -1;
    int err = rt_enter();
    if (err)
        return err;
    /* a copy in flight may be reading or writing the range */
    pthread_mutex_lock(&rt.submit_lock);
    task_wait_all();
    pthread_mutex_unlock(&rt.submit_lock);
    err = pin_unregister(p);
    rt_leave();
    return err;
}
