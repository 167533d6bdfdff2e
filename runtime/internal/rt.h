/* The runtime's shared state and internal interfaces.
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

/* Largest tile size: a tile of 2^40 elements holds more than any device does,
 * and tile counts of any representable view stay far from overflowing. */
#define RT_MAX_NB ((int64_t)1 << 20)

/* ---- devices, backends, scheduling --------------------------------------- */
struct rt_device;

/* Device work is asynchronous.  Each device has streams, executed in order
 * and concurrently with each other: copies in, copies out, peer copies in,
 * and RT_COMPUTE_STREAMS compute streams.  An operation is queued on one; an
 * event recorded on a stream completes when everything queued before it has;
 * a stream told to wait for an event (of any device) runs nothing queued
 * after that until the event completes. */
enum { RT_S_H2D, RT_S_D2H, RT_S_PEER, RT_S_COMPUTE };
#define RT_COMPUTE_STREAMS 2
#define RT_NSTREAMS (RT_S_COMPUTE + RT_COMPUTE_STREAMS)
#define RT_MAX_WINDOW KERN_MAX_PENDING

typedef struct rt_event {
    struct rt_device *dev; /* recorded on its streams, back to its free list */
    struct rt_event *next; /* free list */
    void *be;              /* the backend's */
} rt_event_t;

typedef struct {
    const char *name;
    const kern_table_t *kern;         /* indexed by kern_type_t */
    int (*open)(struct rt_device *d); /* sets d->pool_base and d->pool_size */
    void (*close)(struct rt_device *d);
    /* the context a kernel task runs in; an error the device reports only once it has
     * run the task's work is stored to *async_err (atomic) by the time that work is done */
    kern_ctx_t *(*ctx)(struct rt_device *d, int compute_stream, int *async_err);
    int (*event_init)(struct rt_device *d, rt_event_t *ev);
    void (*event_fini)(rt_event_t *ev);
    int (*event_done)(rt_event_t *ev, bool *done);
    int (*event_sync)(rt_event_t *ev);
    int64_t (*event_time)(rt_event_t *ev); /* rt_now_ns() when it completed */
    int (*record)(struct rt_device *d, int stream, rt_event_t *ev);
    int (*wait)(struct rt_device *d, int stream, rt_event_t *ev);
    /* host view (ld in elements of elsize) <-> packed device tile, queued on
     * RT_S_H2D / RT_S_D2H of d; d2d on RT_S_PEER of dst_dev */
    int (*h2d)(struct rt_device *d, void *dst, const rt_block_t *b);
    int (*d2h)(struct rt_device *d, const rt_block_t *b, const void *src);
    int (*d2d)(struct rt_device *dst_dev, void *dst, struct rt_device *src_dev, const void *src,
               size_t bytes);
    /* how fast src's memory reaches dst: smaller is faster, INT_MAX when only
     * through the host */
    int (*link_rank)(const struct rt_device *dst, const struct rt_device *src);
    /* optional: */
    int (*start)(void); /* once the devices and the scheduler are up, before any task */
    void (*stop)(void); /* at finalize, once the workers have stopped; undoes start */
    int (*thread_init)(struct rt_device *d); /* in the device's worker, first */
    int (*near_cpuset)(struct rt_device *d, hwloc_topology_t topo, hwloc_bitmap_t set);
    /* blocks until everything queued on d's streams has run; called on every
     * device before any device's events or memory are released, since a
     * stream may still be reading another device's (after a failed issue) */
    void (*drain)(struct rt_device *d);
    /* page-locks host memory; *mine false when it was locked already (by the
     * user, say), so that only what we locked is unlocked */
    int (*pin)(void *p, size_t bytes, bool *mine);
    int (*unpin)(void *p);
} rt_backend_t;

extern const rt_backend_t rt_backend_host;
#ifdef TESS_CUDA_BACKEND
extern const rt_backend_t rt_backend_cuda;
#endif

typedef struct {
    int64_t ts_ns, dur_ns;
    const char *name;
    int track;
} rt_trace_ev_t;

typedef struct rt_device {
    int id;
    const rt_backend_t *be;
    void *be_data;
    char *pool_base;
    size_t pool_size;
    struct cache_dev *cache; /* cache.c's pool and resident set */
    pthread_t worker;
    struct rt_task *qhead, *qtail; /* ready queue, under rt.sched_lock */
    int qlen;
    pthread_mutex_t ev_lock; /* the event free list */
    rt_event_t *free_events;
    rt_event_t **all_events;
    size_t nevents, capevents;
    atomic_uint_fast64_t ntasks, nsteals, busy_ns;
    rt_trace_ev_t *trace; /* written by this device's worker only */
    size_t ntrace, captrace;
} rt_device_t;

/* Events come from their device's free list; NULL when none can be made. */
rt_event_t *event_get(rt_device_t *d);
void event_put(rt_event_t *ev);
void event_pool_free(rt_device_t *d);

int sched_init(void); /* loads the topology */
int sched_cores_per_device(void);
int sched_start(void); /* one worker per device */
void sched_push(rt_task_t *t);
/* The next task for device d: its own queue's first.  An idle device (none
 * in flight) also steals, and sleeps until there is a task; it gets NULL when
 * the runtime stops.  A busy one gets NULL when its queue is empty. */
rt_task_t *sched_take(rt_device_t *d, bool idle);
void sched_bind_worker(rt_device_t *d);
void sched_fini(void);
void *worker_main(void *arg); /* worker.c */

/* ---- cache --------------------------------------------------------------- */
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
 * stays pinned until cache_release. */
int cache_acquire(rt_device_t *d, rt_block_t *b, rt_mode_t mode, cache_use_t *u);
/* cache_acquire's failure when no memory can be had whatever is evicted or
 * waited for (an injected allocation fault): TESS_ENOMEM, not retried.  It is
 * negative, outside the TESS_E* codes (all positive), and the worker turns it
 * into TESS_ENOMEM before anything else sees it. */
#define RT_ENOMEM_FINAL (-TESS_ENOMEM)
_Static_assert(TESS_ENOMEM > 0, "RT_ENOMEM_FINAL lies outside the TESS_E* codes");
void cache_release(rt_device_t *d, cache_use_t *u);
/* A write-back task: queues the newest copy's transfer to the host, *done
 * (NULL: the host was valid already) recorded after it, *start before it when
 * tracing; cache_writeback_done once *done has completed, with *src. */
int cache_writeback_start(rt_block_t *b, rt_scope_t *own, int *src, struct rt_event **start,
                          struct rt_event **done);
void cache_writeback_done(rt_block_t *b, int src, bool ok);
/* Frees every device copy of b, a dirty one written back first unless
 * !keep_dirty; own: on whose behalf (rt_scope_hold).  Records the error in
 * b->flush_err. */
int cache_flush_invalidate(rt_device_t *d, rt_block_t *b, bool keep_dirty, rt_scope_t *own);
/* Evicts every copy on d that nothing pins, dirty ones written back first.
 * *others: copies remain, pinned by other tasks in flight (they let go when
 * those retire).  TESS_EINTERNAL for pins that no task in flight can hold. */
int cache_make_room(rt_device_t *d, bool *others);
void cache_drop(rt_block_t *b);       /* frees every device copy, dirty or not */
int cache_owner(const rt_block_t *b); /* device with the newest copy, or -1 */
int cache_resident(const rt_block_t *b, int dev);

/* ---- configuration, statistics, tracing ---------------------------------- */
typedef struct {
    int ndev;
    bool cuda;
    bool host_fallback; /* auto: host devices when no GPU is found */
    int cuda_ids[TESS_MAX_DEVICES];
    int gpu_share;      /* cuda:local: processes on each of its GPUs (0: one) */
    int64_t nb_max;     /* the largest tile; each call picks its own (tile/tiling.c) */
    bool nb_fixed;      /* TESS_NB or tess_config_t.nb: every call takes nb */
    int64_t nb_default; /* the devices' default tile: a window counts tiles of this size */
    int window;         /* work in flight per device, in tiles of nb_default */
    double cache_fraction;
    size_t host_device_mem;
    double host_link_gbps; /* host devices' copy rate; 0: as fast as memcpy */
    char *trace;
    int verbose;
    int fault_op;    /* TESS_FAULT: rt_fault_t, RT_FAULT_NONE when unset */
    int64_t fault_n; /* ... failing its fault_n-th operation (from 1) */
} rt_config_t;
int config_resolve(const tess_config_t *user, rt_config_t *out); /* nb 0: not set */
void config_device_defaults(rt_config_t *c);
/* A whole decimal number, nothing else: 0, or TESS_ECONFIG. */
int config_parse_int(const char *s, int64_t *v);
/* TESS_DEVICES=cuda:local: this process's share of the count GPUs it sees,
 * from the launcher's local rank (config_env.c gives the rule). */
int config_local_gpus(int count, rt_config_t *c);

/* Fault injection, a testing aid: TESS_FAULT=op:n makes the n-th operation of
 * that kind fail as the device would fail it.  Checked by the runtime just
 * before it asks the backend, so every backend fails the same way. */
typedef enum {
    RT_FAULT_NONE,
    RT_FAULT_H2D,    /* a fetch from the host: TESS_EDEVICE */
    RT_FAULT_D2H,    /* a write-back, eviction or flush: TESS_EDEVICE */
    RT_FAULT_D2D,    /* a fetch from another device: TESS_EDEVICE */
    RT_FAULT_KERNEL, /* a task's kernel: TESS_EDEVICE */
    RT_FAULT_ALLOC,  /* a tile's device memory: TESS_ENOMEM, not retried */
    RT_NFAULTS
} rt_fault_t;

void trace_start(void);
void trace_event(rt_device_t *d, int track, const char *name, int64_t t0);
void trace_span(rt_device_t *d, int track, const char *name, int64_t t0, int64_t t1);
int trace_write(const char *path);
void rt_stats(tess_stats_t *s); /* tess_get_stats, for callers inside the runtime */
void stats_print(void);

/* ---- the runtime --------------------------------------------------------- */
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

/* Page-locking in the background (pinning.c). */
int pin_init(void);
void pin_wait_idle(void);
int pin_unregister(void *p);
void pin_release_inside(const void *p, size_t bytes);
void pin_fini(void);

#endif
