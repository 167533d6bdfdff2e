/* The runtime's shared state (rt_t), and every internal interface of its
 * modules, each in its own header, included here.
 *
 * Locks, always taken in this order when nested:
 *   rt.submit_lock  the block directory and each block's submission-side
 *                   dependency state; held for the whole of one API call, so
 *                   each call's tasks are submitted atomically.
 *   rt.room_lock    one worker at a time emptying its pool for a task whose
 *                   tiles did not fit (rare); held while it issues that task.
 *   rt.sched_lock   the per-device ready queues.
 *   rt.cache_lock   every block's copies (MOSI state) and every device pool.
 *   task->lock      one task's successor list and done flag. */
#ifndef RT_H
#define RT_H

#include <hwloc.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "build_config.h"
#include "tessera.h"
#include "kern.h"
#include "dtype.h"
#include "block.h"
#include "call.h"
#include "scope.h"
#include "task.h"
#include "cache.h"
#include "config.h"
#include "device.h"
#include "pin.h"
#include "schedule.h"
#include "trace.h"

/* Largest tile size: a tile of 2^40 elements holds more than any device does,
 * and tile counts of any representable view stay far from overflowing. */
#define RT_MAX_NB ((int64_t)1 << 20)

typedef struct {
    rt_config_t cfg;
    int ndev;
    rt_device_t *dev[TESS_MAX_DEVICES];
    int grid_p, grid_q; /* block-cyclic device grid, p * q = ndev */
    pthread_mutex_t submit_lock, room_lock, sched_lock, cache_lock, done_lock;
    pthread_cond_t sched_cond, done_cond;
    int nsleeping;
    bool stopping;
    atomic_long pending; /* submitted, not yet completed */
    atomic_int inflight; /* tasks taken by workers, not yet retired */
    rt_scope_t app;      /* the application's errors (tess_sync) */
    rt_scope_t evict;    /* evictions' stand-in for rt_scope_hold; has no tasks */
    atomic_int nheld;    /* scopes held */
    atomic_uint_fast64_t bytes_h2d, bytes_d2h, bytes_d2d;
    atomic_uint_fast64_t hits, misses, evictions, writebacks;
    uint64_t lru_clock;              /* under cache_lock */
    atomic_uint_fast64_t wb_clock;   /* host copies written, for rt_writeback_tick */
    atomic_int_fast64_t fault_count; /* operations of the kind TESS_FAULT names */
} rt_t;
extern rt_t rt;

/* Whether this operation of kind k is the one TESS_FAULT says fails: one
 * compare when it is unset. */
static inline bool rt_fault(rt_fault_t k)
{
    return rt.cfg.fault_op == (int)k && atomic_fetch_add(&rt.fault_count, 1) + 1 == rt.cfg.fault_n;
}

/* Makes room for one more element in a growing array (*arr, *cap elements
 * of size bytes, n in use).  False, with the array unchanged, when memory
 * ran out. */
bool rt_grow(void *arr, size_t *cap, size_t n, size_t size, size_t first);

#endif
