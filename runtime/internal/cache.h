/* The cache: each block's copies on the devices, MOSI, and the device
 * pools (cache.c). */
#ifndef RT_CACHE_H
#define RT_CACHE_H

#include <stdbool.h>
#include "block.h"
#include "device.h"
#include "scope.h"
#include "task.h"
#include "tessera.h"

/* One task's use of one block on one device, from cache_acquire to
 * cache_release (once the device work reading or writing it is over). */
typedef struct {
    rt_block_t *blk;
    void *ptr;               /* the device copy */
    rt_event_t *ready;       /* the copy is there once this completes; NULL: now */
    rt_event_t *fetched;     /* the copy this acquire queued, with ... */
    rt_event_t *fetch_start; /* ... its start when traced */
    int src;                 /* device whose copy it read, pinned meanwhile; -1 */
} cache_use_t;

int cache_pool_init(rt_device_t *d);
void cache_pool_free(rt_device_t *d);
/* Makes the block's copy on d usable in mode: allocated (evicting if need
 * be), its transfer queued when it must be read and is not there.  The copy
 * stays pinned until cache_release.  scope: the acquiring task's, which an
 * eviction's failed write-back is charged to. */
int cache_acquire(rt_device_t *d, rt_block_t *b, rt_mode_t mode, cache_use_t *u, rt_scope_t *scope);
/* cache_acquire's failure when no memory can be had whatever is evicted or
 * waited for (an injected allocation fault): TESS_ENOMEM, not retried.  It is
 * negative, outside the TESS_E* codes (all positive), and the worker turns it
 * into TESS_ENOMEM before anything else sees it. */
#define RT_ENOMEM_FINAL (-TESS_ENOMEM)
_Static_assert(TESS_ENOMEM > 0, "RT_ENOMEM_FINAL lies outside the TESS_E* codes");
void cache_release(rt_device_t *d, cache_use_t *u);
/* What a write-back copies: rows r0 to r1 - 1 of every column.  A partial one
 * leaves the block as dirty as it was (rows a factorization has finished,
 * block_writeback_rows_async); otherwise the host copy is whole once it is
 * done, its rows above r0 being the host's already. */
typedef struct {
    int64_t r0, r1;
    bool partial;
} cache_rows_t;
/* A write-back task: queues the newest copy's transfer to the host, *done
 * (NULL: the host was valid already) recorded after it, *start before it when
 * tracing; cache_writeback_done once *done has completed, with *src. */
int cache_writeback_start(rt_block_t *b, const cache_rows_t *rows, rt_scope_t *own, int *src,
                          struct rt_event **start, struct rt_event **done);
void cache_writeback_done(rt_block_t *b, const cache_rows_t *rows, int src, bool ok);
/* Frees every device copy of b, a dirty one written back first unless
 * !keep_dirty; own: on whose behalf (rt_scope_hold).  Records the error in
 * b->flush_err. */
int cache_flush_invalidate(rt_device_t *d, rt_block_t *b, bool keep_dirty, rt_scope_t *own);
/* Evicts every copy on d that nothing pins, dirty ones written back first
 * (a failure charged to scope, the scope of the task wanting the room).
 * *others: copies remain, pinned by other tasks in flight (they let go when
 * those retire).  TESS_EINTERNAL for pins that no task in flight can hold. */
int cache_make_room(rt_device_t *d, bool *others, rt_scope_t *scope);
void cache_drop(rt_block_t *b);       /* frees every device copy, dirty or not */
int cache_owner(const rt_block_t *b); /* device with the newest copy, or -1 */
int cache_resident(const rt_block_t *b, int dev);

#endif
