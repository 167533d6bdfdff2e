/* The host backend: simulated devices, each with its own memory region and
 * worker, so that every copy the cache makes is a real copy and every path of
 * the runtime (placement, coherence, eviction, tasks in flight, copies still
 * arriving) runs without a GPU.
 *
 * Kernels are the host BLAS's, run by the worker when the task calls them, so
 * the compute streams are synchronous: a record there completes its event at
 * once, and a wait there blocks the caller, which is what "nothing queued
 * after it runs before the event" means for a stream running work as it is
 * queued.  The copy streams are asynchronous, each on a thread of its own
 * (host_stream.c), as a GPU's copy engines are; TESS_HOST_LINK_GBPS slows
 * their copies down to a link's rate. */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include "host/host_blas.h"
#include "host_stream.h"
#include "rt.h"

typedef struct {
    hs_stream_t *copy[RT_S_COMPUTE]; /* indexed by RT_S_H2D, RT_S_D2H, RT_S_PEER */
} host_dev_t;

/* Past the pool, a readable tail of the tallest tile's column, never handed
 * out: OpenBLAS's complex dot kernels (0.3.21 on AMD Zen) read one stride past
 * a vector's last element, so ZLAUUM of the upper triangle of a tile at the
 * pool's end reads a column beyond it. */
static size_t pool_tail(void)
{
    return (size_t)rt.cfg.nb_max * 2 * sizeof(double);
}

static hs_stream_t *copy_stream(const rt_device_t *d, int stream)
{
    return ((host_dev_t *)d->be_data)->copy[stream];
}

/* A device's memory is an anonymous mapping: pages are committed as tiles
 * land in them, as on a device whose pool is carved out once.  An open takes
 * TESS_HOST_OPEN_DELAY first, as a GPU's context takes time to make (a
 * testing aid for the start). */
static int host_open(rt_device_t *d)
{
    double delay = rt.cfg.host_open_delay_s;
    if (delay > 0) {
        struct timespec ts = { (time_t)delay, (long)((delay - (double)(time_t)delay) * 1e9) };
        while (nanosleep(&ts, &ts) && errno == EINTR)
            continue;
        rt_open_step(d, "TESS_HOST_OPEN_DELAY");
    }
    host_dev_t *h = calloc(1, sizeof *h);
    if (!h)
        return TESS_ENOMEM;
    d->be_data = h;
    double gbps = rt.cfg.host_link_gbps; /* 1 GB/s is one byte per ns */
    for (int i = 0; i < RT_S_COMPUTE; i++) {
        int err = hs_stream_start(&h->copy[i], gbps > 0 ? 1 / gbps : 0);
        if (err)
            return err;
    }
    d->pool_size = rt.cfg.host_device_mem;
    void *p = mmap(NULL, d->pool_size + pool_tail(), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return TESS_ENOMEM;
    d->pool_base = p;
    rt_open_step(d, "copy streams and memory");
    return 0;
}

static int host_drain(rt_device_t *d)
{
    host_dev_t *h = d->be_data;
    int err = 0;
    for (int i = 0; h && i < RT_S_COMPUTE; i++)
        if (h->copy[i]) {
            int e = hs_stream_drain(h->copy[i]);
            err = err ? err : e;
        }
    return err;
}

/* Also undoes a partial host_open. */
static void host_close(rt_device_t *d)
{
    host_dev_t *h = d->be_data;
    for (int i = 0; h && i < RT_S_COMPUTE; i++)
        if (h->copy[i])
            hs_stream_stop(h->copy[i]);
    free(h);
    d->be_data = NULL;
    if (d->pool_base)
        munmap(d->pool_base, d->pool_size + pool_tail());
    d->pool_base = NULL;
}

/* Host kernels report every error as they return. */
static kern_ctx_t *host_ctx(rt_device_t *d, int stream, int *async_err)
{
    (void)d;
    (void)stream;
    (void)async_err;
    return NULL;
}

static int host_event_init(rt_device_t *d, rt_event_t *ev)
{
    (void)d;
    hs_event_t *e;
    int err = hs_event_new(&e);
    if (!err)
        ev->be = e;
    return err;
}

static void host_event_fini(rt_event_t *ev)
{
    hs_event_free(ev->be);
}

static int host_event_done(rt_event_t *ev, bool *done)
{
    return hs_event_done(ev->be, done);
}

static int host_event_sync(rt_event_t *ev)
{
    return hs_event_sync(ev->be);
}

static int64_t host_event_time(rt_event_t *ev)
{
    return hs_event_time(ev->be);
}

static int host_record(rt_device_t *d, int stream, rt_event_t *ev)
{
    if (stream >= RT_S_COMPUTE)
        return hs_event_complete(ev->be);
    return hs_record(copy_stream(d, stream), ev->be);
}

static int host_wait(rt_device_t *d, int stream, rt_event_t *ev)
{
    if (stream >= RT_S_COMPUTE)
        return hs_event_sync(ev->be);
    return hs_wait(copy_stream(d, stream), ev->be);
}

/* Simulated devices are all one memory apart. */
static int host_link_rank(const rt_device_t *dst, const rt_device_t *src)
{
    (void)dst;
    (void)src;
    return 0;
}

static int host_h2d(rt_device_t *d, void *dst, const rt_block_t *b)
{
    size_t col = (size_t)b->m * b->elsize;
    return hs_copy(copy_stream(d, RT_S_H2D), dst, col, b->ptr, (size_t)b->ld * b->elsize, col,
                   (size_t)b->n);
}

static int host_d2h(rt_device_t *d, const rt_block_t *b, const void *src, int64_t r0, int64_t r1)
{
    size_t off = (size_t)r0 * b->elsize;
    return hs_copy(copy_stream(d, RT_S_D2H), b->ptr + off, (size_t)b->ld * b->elsize,
                   (const char *)src + off, (size_t)b->m * b->elsize, (size_t)(r1 - r0) * b->elsize,
                   (size_t)b->n);
}

static int host_d2d(rt_device_t *dst_dev, void *dst, rt_device_t *src_dev, const void *src,
                    size_t bytes)
{
    (void)src_dev;
    return hs_copy(copy_stream(dst_dev, RT_S_PEER), dst, bytes, src, bytes, bytes, 1);
}

/* Each device drives the host BLAS on its share of the cores; the BLAS's own
 * thread count is given back at finalize. */
static int blas_threads_saved;

static int host_start(void)
{
    int err = host_blas_open();
    if (err)
        return err;
    blas_threads_saved = host_blas_get_threads();
    host_blas_set_threads(sched_cores_per_device());
    return 0;
}

static void host_stop(void)
{
    host_blas_set_threads(blas_threads_saved);
}

const rt_backend_t rt_backend_host = {
    .name = "host",
    .kern = kern_host_table,
    .open = host_open,
    .close = host_close,
    .ctx = host_ctx,
    .event_init = host_event_init,
    .event_fini = host_event_fini,
    .event_done = host_event_done,
    .event_sync = host_event_sync,
    .event_time = host_event_time,
    .record = host_record,
    .wait = host_wait,
    .h2d = host_h2d,
    .d2h = host_d2h,
    .d2d = host_d2d,
    .link_rank = host_link_rank,
    .start = host_start,
    .stop = host_stop,
    .drain = host_drain,
};
