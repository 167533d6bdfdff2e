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

/* Blocks one task uses: a SYMV/HEMV off-diagonal tile reads A_ij, x_i and x_j and
 * updates y_i and y_j. */
#define RT_MAX_ACCESS 6
/* Largest tile size: a tile of 2^40 elements holds more than any device does,
 * and tile counts of any representable view stay far from overflowing. */
#define RT_MAX_NB ((int64_t)1 << 20)
#define RT_ARGS_BYTES 96

typedef enum { RT_R = 1, RT_W = 2, RT_RW = 3 } rt_mode_t;

/* ---- blocks and their copies (cache.c owns the copy fields) -------------- */
/* MOSI, per memory space.  The host is memory space 0, kept as host_valid. */
typedef enum { COPY_I, COPY_S, COPY_O, COPY_M } copy_state_t;

typedef struct rt_copy {
    void *ptr; /* packed, leading dimension = block m */
    size_t bytes;
    _Atomic uint8_t state;    /* copy_state_t; read unlocked by the stealer */
    int pins;                 /* tasks using it: never evicted while > 0 */
    uint64_t lru_tick;        /* last use, for eviction order */
    int slot;                 /* index in its device's resident set, when ptr */
    struct rt_event *arrival; /* while its transfer may still run: its end */
} rt_copy_t;

typedef struct rt_block {
    /* the view: an m x n tile of column-major memory */
    char *ptr;
    int64_t m, n, ld;
    size_t elsize;
    int64_t ti, tj; /* tile coordinates, for the block-cyclic map */
    /* submission side, under rt.submit_lock */
    struct rt_task *last_writer;
    struct rt_task *flush; /* its last flush-invalidate, which overlapping uses wait for */
    struct rt_task **readers;
    size_t nreaders, capreaders;
    bool ovl_touched, ovl_dirty; /* since the last flush-invalidate */
    bool coh_dirty;              /* written since the last coherent request */
    struct rt_block **overlaps;  /* other blocks sharing memory with this one */
    size_t noverlaps, capoverlaps;
    struct rt_block *hnext;
    /* cache side, under rt.cache_lock */
    bool host_valid;
    /* a write-back of it failed since its last one that succeeded: the host
     * copy may be stale although no write is pending (read unlocked when
     * submitting, to write it back again) */
    atomic_bool wb_failed;
    /* its last flush-invalidate's error: copies may be left on devices, so the
     * next use of an overlapping block flushes it again (read unlocked when
     * submitting, after waiting for that flush) */
    atomic_int flush_err;
    rt_copy_t copies[]; /* one per device */
} rt_block_t;

/* The block of exactly this view, or NULL: none has been made. */
rt_block_t *block_find(const char *ptr, int64_t m, int64_t n, int64_t ld, size_t elsize);
rt_block_t *block_get(char *ptr, int64_t m, int64_t n, int64_t ld, size_t elsize, int64_t ti,
                      int64_t tj);
/* Bytes from a view's first element to one past its last (m, n > 0). */
size_t block_span_bytes(int64_t m, int64_t n, int64_t ld, size_t es);
/* Whether the view at p (ld >= m) lies within the address space, its span
 * representable: false for sizes whose arithmetic would overflow. */
bool block_view_fits(const void *p, int64_t m, int64_t n, int64_t ld, size_t es);
/* Calls fn on every block sharing memory with the region (and, for a triangular
 * part, with that triangle of it); inside says the block lies wholly in it.
 * Returns TESS_ENOMEM, having called fn on none, when it cannot list them. */
int block_foreach_in(tess_part_t part, const char *p, int64_t m, int64_t n, int64_t ld,
                     size_t elsize, void (*fn)(rt_block_t *, bool inside, void *), void *arg);
void block_remove(rt_block_t *b);
int block_dir_init(void);
void block_dir_clear(void); /* every block removed, the table kept */
void block_dir_free(void);

/* ---- tasks --------------------------------------------------------------- */
typedef enum { TASK_KERNEL, TASK_WRITEBACK, TASK_FLUSH_INVALIDATE } rt_task_kind_t;

/* Write-backs and flushes: ahead of every kernel task. */
#define RT_PRIO_FIRST INT_MAX

typedef struct rt_exec {
    const kern_table_t *kern; /* the device's table for the task's type */
    kern_ctx_t *ctx;
    const void *args;
    void *ptr[RT_MAX_ACCESS]; /* device copies, in access order */
    int64_t ld[RT_MAX_ACCESS];
} rt_exec_t;

typedef int (*rt_task_fn)(const rt_exec_t *x);

typedef struct rt_task {
    rt_task_kind_t kind;
    rt_task_fn fn;
    const char *name;
    kern_type_t type;
    int naccess;
    struct {
        rt_block_t *blk;
        rt_mode_t mode;
    } acc[RT_MAX_ACCESS];
    _Alignas(16) unsigned char args[RT_ARGS_BYTES];
    atomic_int ndeps;
    atomic_int refs;
    pthread_mutex_t lock;
    atomic_bool done; /* set under lock; read unlocked to drop done tasks */
    struct rt_task **succ;
    size_t nsucc, capsucc;
    /* a ready queue runs higher first, in order of readiness among equals:
     * the critical path of a call ahead of its bulk work */
    int prio;
    /* placed where its first block (a BLAS-2 task's matrix tile) is, when a device holds
     * it, rather than by the block it writes */
    bool place_by_first;
    /* a flush-invalidate it waited for failed: the host may hold stale data
     * for it, so a kernel task fails with this error instead of running */
    atomic_int poison;
    struct rt_scope *scope; /* whose errors its are (rt_scope_current when made) */
    /* its kernel's error known only once the device ran it (backend ctx) */
    atomic_int async_err;
    bool too_many_accesses; /* a bug: task_submit refuses the task */
    struct rt_task *qnext, *qprev;
} rt_task_t;

rt_task_t *task_new(rt_task_kind_t kind, const char *name);
void task_set_kernel(rt_task_t *t, rt_task_fn fn, kern_type_t type, const void *args, size_t size);
/* task_set_kernel with the argument struct a, checked to fit when compiled. */
#define TASK_SET_ARGS(t, fn, type, a)                                                              \
    do {                                                                                           \
        _Static_assert(sizeof(a) <= RT_ARGS_BYTES, "task arguments exceed RT_ARGS_BYTES");         \
        task_set_kernel(t, fn, type, &(a), sizeof(a));                                             \
    } while (0)
/* Returns the access's slot in rt_exec_t: a block used twice is one slot.
 * Past RT_MAX_ACCESS blocks the task is marked and task_submit refuses it. */
int task_access(rt_task_t *t, rt_block_t *b, rt_mode_t mode);
/* Under rt.submit_lock.  TESS_EINTERNAL, the task freed and nothing
 * submitted, when it has more accesses than RT_MAX_ACCESS. */
int task_submit(rt_task_t *t);
void task_complete(rt_task_t *t, int err);
void task_unref(rt_task_t *t);
void task_wait_all(void);

/* ---- error scopes ---------------------------------------------------------- */
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
int cuda_device_count(void);
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
/* Whether the calling thread is a device's worker, where host kernels run:
 * a host BLAS whose CBLAS calls its own Fortran routines (netlib's) reaches
 * the legacy library's entry points from there. */
bool rt_on_worker(void);

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
 * waited for (an injected allocation fault): TESS_ENOMEM, not retried. */
#define RT_ENOMEM_FINAL 1000
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
    int64_t nb_max;     /* the largest tile; each call picks its own (blas3/tiling.c) */
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
/* Whether the environment variable is set to anything but "" or "0": the one
 * rule for on/off switches (TESS_VERBOSE), in the runtime and the legacy
 * library alike. */
bool rt_env_flag(const char *name);
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

/* The monotonic clock in ns; inline, so that the legacy library (which
 * compiles in none of the runtime's code but its type tables) reads it too. */
static inline int64_t rt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
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

/* 0 when the runtime can take calls, else TESS_ENOTINIT: an early answer,
 * taken without the guard below. */
int rt_check_ready(void);
/* Every public call that uses the runtime runs between rt_enter (0, or
 * TESS_ENOTINIT with nothing held) and rt_leave: tess_finalize waits for the
 * calls inside, and calls after it get TESS_ENOTINIT. */
int rt_enter(void);
void rt_leave(void);
/* Page-locking in the background (pinning.c). */
/* Operands of 1 MiB or more are page-locked on first use, unless the
 * submission in progress on this thread sets this (legacy_iface.c: calls
 * that give their operands back at once). */
extern _Thread_local bool pin_skip_first_use;
int pin_init(void);
int pin_request(void *p, size_t bytes, bool user); /* user: tess_memory_register_async */
void pin_wait_idle(void);
int pin_unregister(void *p);
void pin_release_inside(const void *p, size_t bytes);
void pin_fini(void);

#endif
