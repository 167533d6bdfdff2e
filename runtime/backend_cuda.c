/* The CUDA backend: one device per GPU, its cache pool carved out once with
 * cudaMalloc, copies between LAPACK-layout host memory and packed tiles with
 * cudaMemcpy2DAsync, peer copies over NVLink where peer access is possible,
 * kernels on compute streams, each with its own cuBLAS handle.  The runtime's
 * streams and events are CUDA's.
 *
 * Operations may be issued from any thread (a write-back runs on whichever
 * worker took the task), so each makes its GPU current first. */
#include <hwloc/cudart.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#define KERN_CUDA_SAY rt.cfg.verbose
#include "cuda_ctx.h" /* cuSOLVER's header, before cuda_check.h */
#include "cuda_check.h"
#include "rt.h"
#include "stage_cuda.h"

#define POOL_ALIGN ((size_t)2 << 20)

typedef struct {
    int ordinal;
    int rank[TESS_MAX_DEVICES];              /* link_rank from each runtime device */
    cudaStream_t stream[RT_NSTREAMS];        /* indexed by RT_S_* */
    struct kern_ctx ctx[RT_COMPUTE_STREAMS]; /* compute streams and their handles */
    cudaEvent_t origin;                      /* event times count from it ... */
    int64_t origin_ns;                       /* ... which completed at this rt_now_ns() */
} cuda_dev_t;

static cuda_dev_t *gpu(const rt_device_t *d)
{
    return d->be_data;
}

static int make_current(rt_device_t *d)
{
    return CUDA_OK(cudaSetDevice(gpu(d)->ordinal));
}

int cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); /* no driver or no GPU: not sticky */
        return 0;
    }
    return n;
}

/* Peer access from this GPU to every other of the runtime's, where the
 * hardware allows it both ways, and the links' performance ranks as CUDA
 * reports them; without peer access, copies are staged through the host.
 * Each device's connect enables its own side, so every pair gets both. */
static int enable_peers(rt_device_t *d)
{
    cuda_dev_t *g = gpu(d);
    g->rank[d->id] = 0;
    for (int i = 0; i < rt.ndev; i++) {
        if (i == d->id)
            continue;
        int a = g->ordinal, b = gpu(rt.dev[i])->ordinal, can_ab = 0, can_ba = 0;
        if (CUDA_OK(cudaDeviceCanAccessPeer(&can_ab, a, b)) ||
            CUDA_OK(cudaDeviceCanAccessPeer(&can_ba, b, a)))
            return TESS_EDEVICE;
        g->rank[i] = INT_MAX;
        if (!can_ab || !can_ba)
            continue;
        if (CUDA_OK(cudaDeviceGetP2PAttribute(&g->rank[i], cudaDevP2PAttrPerformanceRank, b, a)))
            return TESS_EDEVICE;
        cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
        if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
            return kern_cuda_result(e, "cudaDeviceEnablePeerAccess", KERN_CUDA_SAY);
        cudaGetLastError();
    }
    return 0;
}

/* On the device's own thread, every GPU's at once (its first CUDA call makes
 * its context, which takes a large part of the start).  The thread is bound
 * as the device's worker will be, so that the staging buffers and their
 * copying threads are near the GPU.  cuSOLVER's handles are made here, not
 * on first use: making one allocates device memory, which would order the
 * device's streams in the middle of a task. */
static int cuda_open(rt_device_t *d)
{
    cuda_dev_t *g = calloc(1, sizeof *g);
    if (!g)
        return TESS_ENOMEM;
    d->be_data = g;
    g->ordinal = rt.cfg.cuda_ids[d->id];
    if (make_current(d) || CUDA_OK(cudaFree(NULL)))
        return TESS_EDEVICE;
    rt_open_step(d, "context");
    sched_bind_worker(d);
    int least, greatest;
    if (CUDA_OK(cudaDeviceGetStreamPriorityRange(&least, &greatest)))
        return TESS_EDEVICE;
    for (int i = 0; i < RT_NSTREAMS; i++)
        if (CUDA_OK(cudaStreamCreateWithPriority(&g->stream[i], cudaStreamNonBlocking,
                                                 i == RT_S_COMPUTE + RT_URGENT_STREAM ? greatest
                                                                                      : least)))
            return TESS_EDEVICE;
    for (int i = 0; i < RT_COMPUTE_STREAMS; i++) {
        struct kern_ctx *x = &g->ctx[i];
        x->stream = g->stream[RT_S_COMPUTE + i];
        if (CUBLAS_OK(cublasCreate(&x->blas)) || CUBLAS_OK(cublasSetStream(x->blas, x->stream)))
            return TESS_EDEVICE;
        if (CUDA_OK(cudaMalloc(&x->scratch, cuda_scratch_bytes(rt.cfg.nb_max)))) {
            cudaGetLastError();
            return TESS_ENOMEM;
        }
    }
    if (CUDA_OK(cudaEventCreate(&g->origin)) ||
        CUDA_OK(cudaEventRecord(g->origin, g->stream[RT_S_COMPUTE])) ||
        CUDA_OK(cudaEventSynchronize(g->origin)))
        return TESS_EDEVICE;
    g->origin_ns = rt_now_ns();
    rt_open_step(d, "streams, cuBLAS handles and scratch");
    for (int i = 0; i < RT_COMPUTE_STREAMS; i++) {
        struct kern_ctx *x = &g->ctx[i];
        if (CUSOLVER_OK(cusolverDnCreate(&x->solver)) ||
            CUSOLVER_OK(cusolverDnSetStream(x->solver, x->stream)))
            return TESS_EDEVICE;
    }
    rt_open_step(d, "cuSOLVER handles");
    if (stage_enabled()) {
        stage_prepare(d->id);
        rt_open_step(d, "staging buffers");
    }
    return 0;
}

/* Peer mappings before the pool, which takes a share of what they leave
 * free. */
static int cuda_connect(rt_device_t *d)
{
    size_t free_b, total_b;
    if (make_current(d) || enable_peers(d))
        return TESS_EDEVICE;
    rt_open_step(d, "peers");
    if (CUDA_OK(cudaMemGetInfo(&free_b, &total_b)))
        return TESS_EDEVICE;
    size_t want = (size_t)(rt.cfg.cache_fraction * (double)free_b);
    /* processes sharing this GPU (cuda:local) take equal parts of the fraction
     * of its whole memory, whichever opens first, not each a fraction of what
     * the others left */
    if (rt.cfg.gpu_share > 1) {
        size_t part = (size_t)(rt.cfg.cache_fraction * (double)total_b / rt.cfg.gpu_share);
        want = part < want ? part : want;
    }
    d->pool_size = want >= POOL_ALIGN ? want / POOL_ALIGN * POOL_ALIGN : want;
    /* a size in bytes is taken as it is: it does not move with what other
     * processes hold at the moment this one opens */
    if (rt.cfg.cache_bytes)
        d->pool_size = rt.cfg.cache_bytes;
    void *pool = NULL;
    if (!d->pool_size || CUDA_OK(cudaMalloc(&pool, d->pool_size))) {
        cudaGetLastError();
        return TESS_ENOMEM;
    }
    d->pool_base = pool;
    rt_open_step(d, "cache pool");
    return 0;
}

/* Also undoes a partial cuda_open and cuda_connect. */
static void cuda_close(rt_device_t *d)
{
    cuda_dev_t *g = gpu(d);
    if (!g)
        return;
    cudaSetDevice(g->ordinal);
    stage_release(d->id);
    for (int i = 0; i < RT_COMPUTE_STREAMS; i++) {
        if (g->ctx[i].blas)
            cublasDestroy(g->ctx[i].blas);
        if (g->ctx[i].solver)
            cusolverDnDestroy(g->ctx[i].solver);
        cudaFree(g->ctx[i].scratch);
    }
    for (int i = 0; i < RT_NSTREAMS; i++)
        if (g->stream[i])
            cudaStreamDestroy(g->stream[i]);
    if (g->origin)
        cudaEventDestroy(g->origin);
    cudaFree(d->pool_base);
    d->pool_base = NULL;
    free(g);
    d->be_data = NULL;
}

/* A stream whose work failed has stopped: its error is the device's to report
 * elsewhere.  A GPU that cannot be made current was not waited for at all. */
static int cuda_drain(rt_device_t *d)
{
    cuda_dev_t *g = gpu(d);
    if (!g)
        return 0;
    if (make_current(d))
        return TESS_EDEVICE;
    for (int i = 0; i < RT_NSTREAMS; i++)
        if (g->stream[i] && cudaStreamSynchronize(g->stream[i]) != cudaSuccess)
            cudaGetLastError();
    return 0;
}

static kern_ctx_t *cuda_ctx(rt_device_t *d, int compute_stream, int *async_err)
{
    struct kern_ctx *x = &gpu(d)->ctx[compute_stream];
    x->async_err = async_err;
    return x;
}

/* Events keep timing: the trace and the busy time come from them. */
static int cuda_event_init(rt_device_t *d, rt_event_t *ev)
{
    cudaEvent_t e;
    if (make_current(d) || CUDA_OK(cudaEventCreate(&e)))
        return TESS_EDEVICE;
    ev->be = e;
    return 0;
}

static void cuda_event_fini(rt_event_t *ev)
{
    cudaSetDevice(gpu(ev->dev)->ordinal);
    cudaEventDestroy(ev->be);
}

static int cuda_event_done(rt_event_t *ev, bool *done)
{
    cudaError_t e = cudaEventQuery(ev->be);
    *done = e == cudaSuccess;
    if (e == cudaErrorNotReady) {
        cudaGetLastError();
        return 0;
    }
    return kern_cuda_result(e, "cudaEventQuery", KERN_CUDA_SAY);
}

static int cuda_event_sync(rt_event_t *ev)
{
    return CUDA_OK(cudaEventSynchronize(ev->be));
}

static int64_t cuda_event_time(rt_event_t *ev)
{
    cuda_dev_t *g = gpu(ev->dev);
    float ms = 0;
    if (cudaEventElapsedTime(&ms, g->origin, ev->be) != cudaSuccess)
        cudaGetLastError(); /* a time is a statistic: never an error */
    return g->origin_ns + (int64_t)((double)ms * 1e6);
}

static int cuda_record(rt_device_t *d, int stream, rt_event_t *ev)
{
    if (make_current(d))
        return TESS_EDEVICE;
    return CUDA_OK(cudaEventRecord(ev->be, gpu(d)->stream[stream]));
}

static int cuda_wait(rt_device_t *d, int stream, rt_event_t *ev)
{
    if (make_current(d))
        return TESS_EDEVICE;
    return CUDA_OK(cudaStreamWaitEvent(gpu(d)->stream[stream], ev->be, 0));
}

/* A tile's copy between host and device memory.  Page-locked memory is
 * copied directly, pageable memory through the staging slots; a copy that
 * finds no slot is direct.  A tile over the edge of a locked range (part of
 * it locked by a registration of a smaller view) is refused by CUDA as an
 * invalid argument before anything is queued: it is staged instead, whatever
 * TESS_STAGING says. */
static int stage_copy(const rt_device_t *d, cudaStream_t s, const rt_block_t *b, void *dev,
                      bool h2d, int64_t r0, int64_t r1)
{
    return h2d ? stage_h2d(d->id, s, dev, b) : stage_d2h(d->id, s, b, dev, r0, r1);
}

/* Rows r0 to r1 - 1 of every column (h2d: all of them). */
static int host_copy(rt_device_t *d, const rt_block_t *b, void *dev, bool h2d, int64_t r0,
                     int64_t r1)
{
    if (make_current(d))
        return TESS_EDEVICE;
    cuda_dev_t *g = gpu(d);
    cudaStream_t s = g->stream[h2d ? RT_S_H2D : RT_S_D2H];
    int err;
    if (stage_wanted(b) && (err = stage_copy(d, s, b, dev, h2d, r0, r1)) >= 0)
        return err;
    size_t off = (size_t)r0 * b->elsize, width = (size_t)(r1 - r0) * b->elsize;
    size_t row = (size_t)b->m * b->elsize, hld = (size_t)b->ld * b->elsize;
    char *host = b->ptr + off, *on_dev = (char *)dev + off;
    cudaError_t e = h2d ? cudaMemcpy2DAsync(on_dev, row, host, hld, width, (size_t)b->n,
                                            cudaMemcpyHostToDevice, s)
                        : cudaMemcpy2DAsync(host, hld, on_dev, row, width, (size_t)b->n,
                                            cudaMemcpyDeviceToHost, s);
    if (e == cudaErrorInvalidValue) {
        cudaGetLastError();
        if ((err = stage_copy(d, s, b, dev, h2d, r0, r1)) >= 0)
            return err;
    }
    return kern_cuda_result(e, "cudaMemcpy2DAsync", KERN_CUDA_SAY);
}

static int cuda_h2d(rt_device_t *d, void *dst, const rt_block_t *b)
{
    return host_copy(d, b, dst, true, 0, b->m);
}

static int cuda_d2h(rt_device_t *d, const rt_block_t *b, const void *src, int64_t r0, int64_t r1)
{
    return host_copy(d, b, (void *)src, false, r0, r1);
}

static int cuda_d2d(rt_device_t *dst_dev, void *dst, rt_device_t *src_dev, const void *src,
                    size_t bytes)
{
    if (make_current(dst_dev))
        return TESS_EDEVICE;
    return CUDA_OK(cudaMemcpyPeerAsync(dst, gpu(dst_dev)->ordinal, src, gpu(src_dev)->ordinal,
                                       bytes, gpu(dst_dev)->stream[RT_S_PEER]));
}

static int cuda_link_rank(const rt_device_t *dst, const rt_device_t *src)
{
    return gpu(dst)->rank[src->id];
}

static int cuda_near_cpuset(rt_device_t *d, hwloc_topology_t topo, hwloc_bitmap_t set)
{
    return hwloc_cudart_get_device_cpuset(topo, gpu(d)->ordinal, set);
}

/* Memory registered elsewhere (by the user, say) is already what we want. */
static int cuda_pin(void *p, size_t bytes, bool *mine)
{
    cudaError_t e = cudaHostRegister(p, bytes, cudaHostRegisterPortable);
    *mine = e == cudaSuccess;
    if (e == cudaErrorHostMemoryAlreadyRegistered) {
        cudaGetLastError();
        return 0;
    }
    return kern_cuda_result(e, "cudaHostRegister", KERN_CUDA_SAY);
}

static int cuda_unpin(void *p)
{
    cudaError_t e = cudaHostUnregister(p);
    if (e == cudaErrorHostMemoryNotRegistered) {
        cudaGetLastError();
        return 0;
    }
    return kern_cuda_result(e, "cudaHostUnregister", KERN_CUDA_SAY);
}

const rt_backend_t rt_backend_cuda = {
    .name = "cuda",
    .kern = kern_cuda_table,
    .open = cuda_open,
    .connect = cuda_connect,
    .close = cuda_close,
    .drain = cuda_drain,
    .ctx = cuda_ctx,
    .event_init = cuda_event_init,
    .event_fini = cuda_event_fini,
    .event_done = cuda_event_done,
    .event_sync = cuda_event_sync,
    .event_time = cuda_event_time,
    .record = cuda_record,
    .wait = cuda_wait,
    .h2d = cuda_h2d,
    .d2h = cuda_d2h,
    .d2d = cuda_d2d,
    .link_rank = cuda_link_rank,
    .thread_init = make_current,
    .near_cpuset = cuda_near_cpuset,
    .pin = cuda_pin,
    .unpin = cuda_unpin,
};
