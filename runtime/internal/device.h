/* Devices: their streams and events, the backend that runs them, and each
 * device's state (event.c keeps the event pools). */
#ifndef RT_DEVICE_H
#define RT_DEVICE_H

#include <hwloc.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "block.h"
#include "build_config.h"
#include "kern.h"
#include "task.h"

struct rt_device;

/* Device work is asynchronous.  Each device has streams, executed in order
 * and concurrently with each other: copies in, copies out, peer copies in,
 * and RT_COMPUTE_STREAMS compute streams.  An operation is queued on one; an
 * event recorded on a stream completes when everything queued before it has;
 * a stream told to wait for an event (of any device) runs nothing queued
 * after that until the event completes. */
enum { RT_S_H2D, RT_S_D2H, RT_S_PEER, RT_S_COMPUTE };
/* The last compute stream is the urgent one: it runs the kernels of tasks on a call's critical
 * path (rt_task_t.urgent), at the device's highest priority where the backend has priorities,
 * so that they take the device's cores as the bulk kernels queued before them on the others
 * give them up, rather than after those kernels have all run. */
#define RT_COMPUTE_STREAMS 3
#define RT_URGENT_STREAM (RT_COMPUTE_STREAMS - 1)
#define RT_NSTREAMS (RT_S_COMPUTE + RT_COMPUTE_STREAMS)
#define RT_MAX_WINDOW KERN_MAX_PENDING

typedef struct rt_event {
    struct rt_device *dev; /* recorded on its streams, back to its free list */
    struct rt_event *next; /* free list */
    void *be;              /* the backend's */
} rt_event_t;

typedef struct {
    const char *name;
    const kern_table_t *kern; /* indexed by kern_type_t */
    /* every device's at once, each on a thread of its own: what needs no other
     * device; sets d->pool_base and d->pool_size unless connect does */
    int (*open)(struct rt_device *d);
    void (*close)(struct rt_device *d); /* also undoes a partial open and connect */
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
     * RT_S_H2D / RT_S_D2H of d (d2h: rows r0 to r1 - 1 of each column); d2d on
     * RT_S_PEER of dst_dev */
    int (*h2d)(struct rt_device *d, void *dst, const rt_block_t *b);
    int (*d2h)(struct rt_device *d, const rt_block_t *b, const void *src, int64_t r0, int64_t r1);
    int (*d2d)(struct rt_device *dst_dev, void *dst, struct rt_device *src_dev, const void *src,
               size_t bytes);
    /* how fast src's memory reaches dst: smaller is faster, INT_MAX when only
     * through the host */
    int (*link_rank)(const struct rt_device *dst, const struct rt_device *src);
    /* optional: */
    /* once every device is open, every device's at once as open: what needs
     * the other devices (peer access), and what must follow it */
    int (*connect)(struct rt_device *d);
    int (*start)(void); /* once the devices and the scheduler are up, before any task */
    void (*stop)(void); /* at finalize, once the workers have stopped; undoes start */
    int (*thread_init)(struct rt_device *d); /* in the device's worker, first */
    int (*near_cpuset)(struct rt_device *d, hwloc_topology_t topo, hwloc_bitmap_t set);
    /* blocks until everything queued on d's streams has run; called on every
     * device before any device's events or memory are released, since a
     * stream may still be reading another device's (after a failed issue).
     * 0, or an error when it could not wait: work may still be running then,
     * and nothing that work may use can be released */
    int (*drain)(struct rt_device *d);
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
    const char *task; /* a worker's issue: the task's name */
    int track;
} rt_trace_ev_t;

/* A step of a device's open, for TESS_VERBOSE's report of the start. */
typedef struct {
    const char *name;
    int64_t end_ns; /* rt_now_ns() */
} rt_open_step_t;
#define RT_OPEN_STEPS 8

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
    rt_open_step_t step[RT_OPEN_STEPS]; /* where its open went, in order */
    int nsteps;
} rt_device_t;

/* Records the end of a step of d's open (a backend's open and connect call
 * it after each step they time); steps past RT_OPEN_STEPS are not kept. */
void rt_open_step(rt_device_t *d, const char *name);

/* Events come from their device's free list; NULL when none can be made. */
rt_event_t *event_get(rt_device_t *d);
void event_put(rt_event_t *ev);
void event_pool_free(rt_device_t *d);

#endif
