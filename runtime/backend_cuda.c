/* The CUDA backend: one device per GPU, its cache pool carved out once with
 * cudaMalloc, copies between LAPACK-layout host memory and packed tiles with
 * cudaMemcpy2DAsync, peer copies over NVLink where peer access is possible,
 * kernels on a compute stream with its own cuBLAS handle.
 *
 * Each operation waits for its own stream only, never for the whole device.
 * Operations may be issued from any thread (a write-back runs on whichever
 * worker took the task), so each makes its GPU current first. */
#include <hwloc/cudart.h>
#include <stdlib.h>
#include "cuda_ctx.h"
#include "rt.h"

#define POOL_ALIGN ((size_t)2 << 20)

typedef struct {
    int ordinal;
    cudaStream_t h2d, d2h, peer;
    struct kern_ctx ctx;                /* the compute stream and its handle */
} cuda_dev_t;

static int ok(cudaError_t e)
{
    return e == cudaSuccess ? 0 : TESS_EDEVICE;
}

static cuda_dev_t *gpu(const rt_device_t *d)
{
    return d->be_data;
}

static int make_current(rt_device_t *d)
{
    return ok(cudaSetDevice(gpu(d)->ordinal));
}

int cuda_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();             /* no driver or no GPU: not sticky */
        return 0;
    }
    return n;
}

/* Peer access both ways with every GPU opened before this one, where the
 * hardware allows it; without it, peer copies are staged by the driver. */
static int enable_peers(rt_device_t *d)
{
    for (int i = 0; i < d->id; i++) {
        int a = gpu(d)->ordinal, b = gpu(rt.dev[i])->ordinal, can_ab = 0, can_ba = 0;
        if (ok(cudaDeviceCanAccessPeer(&can_ab, a, b)) || ok(cudaDeviceCanAccessPeer(&can_ba, b, a)))
            return TESS_EDEVICE;
        if (!can_ab || !can_ba)
            continue;
        cudaError_t e1 = (cudaSetDevice(a), cudaDeviceEnablePeerAccess(b, 0));
        cudaError_t e2 = (cudaSetDevice(b), cudaDeviceEnablePeerAccess(a, 0));
        if ((e1 != cudaSuccess && e1 != cudaErrorPeerAccessAlreadyEnabled) ||
            (e2 != cudaSuccess && e2 != cudaErrorPeerAccessAlreadyEnabled))
            return TESS_EDEVICE;
        cudaGetLastError();
    }
    return make_current(d);
}

static int cuda_open(rt_device_t *d)
{
    cuda_dev_t *g = calloc(1, sizeof *g);
    if (!g)
        return TESS_ENOMEM;
    d->be_data = g;
    g->ordinal = rt.cfg.cuda_ids[d->id];
    /* streams, the handle and peer mappings first: the pool takes a share of
     * what they leave free */
    if (make_current(d) ||
        ok(cudaStreamCreateWithFlags(&g->h2d, cudaStreamNonBlocking)) ||
        ok(cudaStreamCreateWithFlags(&g->d2h, cudaStreamNonBlocking)) ||
        ok(cudaStreamCreateWithFlags(&g->peer, cudaStreamNonBlocking)) ||
        ok(cudaStreamCreateWithFlags(&g->ctx.stream, cudaStreamNonBlocking)))
        return TESS_EDEVICE;
    if (cublasCreate(&g->ctx.blas) != CUBLAS_STATUS_SUCCESS ||
        cublasSetStream(g->ctx.blas, g->ctx.stream) != CUBLAS_STATUS_SUCCESS)
        return TESS_EDEVICE;
    size_t free_b, total_b;
    if (enable_peers(d) || ok(cudaMemGetInfo(&free_b, &total_b)))
        return TESS_EDEVICE;
    size_t want = (size_t)(rt.cfg.cache_fraction * (double)free_b);
    d->pool_size = want >= POOL_ALIGN ? want / POOL_ALIGN * POOL_ALIGN : want;
    void *pool = NULL;
    if (!d->pool_size || cudaMalloc(&pool, d->pool_size) != cudaSuccess) {
        cudaGetLastError();
        return TESS_ENOMEM;
    }
    d->pool_base = pool;
    return 0;
}

/* Also undoes a partial cuda_open. */
static void cuda_close(rt_device_t *d)
{
    cuda_dev_t *g = gpu(d);
    if (!g)
        return;
    cudaSetDevice(g->ordinal);
    if (g->ctx.blas)
        cublasDestroy(g->ctx.blas);
    cudaStream_t streams[] = { g->h2d, g->d2h, g->peer, g->ctx.stream };
    for (size_t i = 0; i < sizeof streams / sizeof *streams; i++)
        if (streams[i])
            cudaStreamDestroy(streams[i]);
    cudaFree(d->pool_base);
    d->pool_base = NULL;
    free(g);
    d->be_data = NULL;
}

static kern_ctx_t *cuda_ctx(rt_device_t *d)
{
    return &gpu(d)->ctx;
}

static int wait_for(cudaStream_t s)
{
    return ok(cudaStreamSynchronize(s));
}

static int cuda_h2d(rt_device_t *d, void *dst, const rt_block_t *b)
{
    size_t row = (size_t)b->m * b->elsize;
    if (make_current(d) ||
        ok(cudaMemcpy2DAsync(dst, row, b->ptr, (size_t)b->ld * b->elsize, row, (size_t)b->n,
                             cudaMemcpyHostToDevice, gpu(d)->h2d)))
        return TESS_EDEVICE;
    return wait_for(gpu(d)->h2d);
}

static int cuda_d2h(rt_device_t *d, const rt_block_t *b, const void *src)
{
    size_t row = (size_t)b->m * b->elsize;
    if (make_current(d) ||
        ok(cudaMemcpy2DAsync(b->ptr, (size_t)b->ld * b->elsize, src, row, row, (size_t)b->n,
                             cudaMemcpyDeviceToHost, gpu(d)->d2h)))
        return TESS_EDEVICE;
    return wait_for(gpu(d)->d2h);
}

static int cuda_d2d(rt_device_t *dst_dev, void *dst, rt_device_t *src_dev, const void *src,
                    size_t bytes)
{
    if (make_current(dst_dev) ||
        ok(cudaMemcpyPeerAsync(dst, gpu(dst_dev)->ordinal, src, gpu(src_dev)->ordinal, bytes,
                               gpu(dst_dev)->peer)))
        return TESS_EDEVICE;
    return wait_for(gpu(dst_dev)->peer);
}

static int cuda_finish(rt_device_t *d)
{
    return wait_for(gpu(d)->ctx.stream);
}

static int cuda_near_cpuset(rt_device_t *d, hwloc_topology_t topo, hwloc_bitmap_t set)
{
    return hwloc_cudart_get_device_cpuset(topo, gpu(d)->ordinal, set);
}

/* Memory registered elsewhere (by the user, say) is already what we want. */
static int cuda_pin(void *p, size_t bytes)
{
    cudaError_t e = cudaHostRegister(p, bytes, cudaHostRegisterPortable);
    if (e == cudaErrorHostMemoryAlreadyRegistered) {
        cudaGetLastError();
        return 0;
    }
    return ok(e);
}

static int cuda_unpin(void *p)
{
    cudaError_t e = cudaHostUnregister(p);
    if (e == cudaErrorHostMemoryNotRegistered) {
        cudaGetLastError();
        return 0;
    }
    return ok(e);
}

const rt_backend_t rt_backend_cuda = {
    .name = "cuda",
    .kern = kern_cuda_table,
    .open = cuda_open,
    .close = cuda_close,
    .ctx = cuda_ctx,
    .h2d = cuda_h2d,
    .d2h = cuda_d2h,
    .d2d = cuda_d2d,
    .thread_init = make_current,
    .finish = cuda_finish,
    .near_cpuset = cuda_near_cpuset,
    .pin = cuda_pin,
    .unpin = cuda_unpin,
};
