/* The host backend: simulated devices, each with its own memory region and
 * worker, so that every copy the cache makes is a real copy and every path of
 * the runtime (placement, coherence, eviction, tasks in flight) runs without
 * a GPU.  Kernels are the host BLAS's.  Its streams run each operation as it
 * is queued, so an event is complete once recorded and a wait never waits. */
#include <string.h>
#include <sys/mman.h>
#include "rt.h"

/* A device's memory is an anonymous mapping: pages are committed as tiles
 * land in them, as on a device whose pool is carved out once. */
static int host_open(rt_device_t *d)
{
    d->pool_size = rt.cfg.host_device_mem;
    void *p = mmap(NULL, d->pool_size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return TESS_ENOMEM;
    d->pool_base = p;
    return 0;
}

static void host_close(rt_device_t *d)
{
    if (d->pool_base)
        munmap(d->pool_base, d->pool_size);
    d->pool_base = NULL;
}

static kern_ctx_t *host_ctx(rt_device_t *d, int stream)
{
    (void)d;
    (void)stream;
    return NULL;
}

static int host_event_init(rt_device_t *d, rt_event_t *ev)
{
    (void)d;
    ev->be.ns = 0;
    return 0;
}

static void host_event_fini(rt_event_t *ev)
{
    (void)ev;
}

static int host_event_done(rt_event_t *ev, bool *done)
{
    (void)ev;
    *done = true;
    return 0;
}

static int host_event_sync(rt_event_t *ev)
{
    (void)ev;
    return 0;
}

static int64_t host_event_time(rt_event_t *ev)
{
    return ev->be.ns;
}

static int host_record(rt_device_t *d, int stream, rt_event_t *ev)
{
    (void)d;
    (void)stream;
    ev->be.ns = rt_now_ns();
    return 0;
}

static int host_wait(rt_device_t *d, int stream, rt_event_t *ev)
{
    (void)d;
    (void)stream;
    (void)ev;
    return 0;
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
    (void)d;
    size_t col = (size_t)b->m * b->elsize;
    for (int64_t j = 0; j < b->n; j++)
        memcpy((char *)dst + (size_t)j * col, b->ptr + (size_t)j * (size_t)b->ld * b->elsize, col);
    return 0;
}

static int host_d2h(rt_device_t *d, const rt_block_t *b, const void *src)
{
    (void)d;
    size_t col = (size_t)b->m * b->elsize;
    for (int64_t j = 0; j < b->n; j++)
        memcpy(b->ptr + (size_t)j * (size_t)b->ld * b->elsize, (const char *)src + (size_t)j * col, col);
    return 0;
}

static int host_d2d(rt_device_t *dst_dev, void *dst, rt_device_t *src_dev, const void *src,
                    size_t bytes)
{
    (void)dst_dev;
    (void)src_dev;
    memcpy(dst, src, bytes);
    return 0;
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
};
