/* What the Cholesky family's diagonal tiles and QR's tasks need on a GPU
 * besides cuSOLVER's routines: the calling thread's cuSOLVER handle, a tile's
 * info carried from the device to the host without the worker waiting for
 * it, TRTRI's check for a zero on the diagonal, and ORMQR's copy of the
 * reflectors with their implicit unit diagonal made explicit. */
#include <climits>
#include "check.cuh"
#include "scalar.cuh"

namespace
{

/* One cuSOLVER handle per host thread and device, as handle.cu's cuBLAS ones. */
struct thread_solvers {
    cusolverDnHandle_t h[TESS_MAX_DEVICES] = {};
    ~thread_solvers()
    {
        for (cusolverDnHandle_t hd : h)
            if (hd)
                cusolverDnDestroy(hd); /* nothing to report to at thread exit */
    }
};

thread_local thread_solvers tl_solvers;

/* An info on its way: the device's int lands in page-locked value, then a
 * host function in stream order stores it where the task wants it.  A slot
 * is used again INFO_RING calls later on the same thread and device, by
 * which time the task that used it has retired (a worker keeps at most
 * RT_MAX_WINDOW tasks in flight), so its host function has run. */
struct info_slot {
    int value;
    int64_t *dest;
    int64_t offset;
};

constexpr unsigned INFO_RING = 128;

struct thread_rings {
    info_slot *ring[TESS_MAX_DEVICES] = {};
    unsigned next[TESS_MAX_DEVICES] = {};
    ~thread_rings()
    {
        for (info_slot *r : ring)
            if (r)
                cudaFreeHost(r);
    }
};

thread_local thread_rings tl_rings;

/* A negative value is cuSOLVER's complaint about an argument, passed on as LAPACK would. */
void CUDART_CB deliver(void *p)
{
    const info_slot *s = static_cast<const info_slot *>(p);
    if (s->value > 0)
        __atomic_store_n(s->dest, s->offset + s->value, __ATOMIC_RELEASE);
    else if (s->value < 0)
        __atomic_store_n(s->dest, (int64_t)s->value, __ATOMIC_RELEASE);
}

template <class T>
__global__ void first_zero_on_diagonal(int64_t n, const T *A, int64_t lda, int *out)
{
    __shared__ int first;
    if (threadIdx.x == 0)
        first = INT_MAX;
    __syncthreads();
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
        if (kis_zero(A[i + i * lda])) {
            atomicMin(&first, (int)i + 1);
            break;
        }
    }
    __syncthreads();
    if (threadIdx.x == 0)
        *out = first == INT_MAX ? 0 : first;
}

/* U = V's r x k reflectors with ones on the diagonal and zeros above it: one thread an
 * element, V's diagonal and upper part never read. */
template <class T>
__global__ void unit_lower(int64_t r, int64_t k, const T *V, int64_t ldv, T *U, int64_t ldu)
{
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x, j = blockIdx.y;
    if (i >= r)
        return;
    U[i + j * ldu] = i > j ? V[i + j * ldv] : i == j ? kone<T>() : kzero<T>();
}

} // namespace

extern "C" int kern_cuda_unit_lower(kern_type_t t, cudaStream_t s, int64_t r, int64_t k,
                                    const void *V, int64_t ldv, void *U, int64_t ldu)
{
    if (r <= 0 || k <= 0)
        return 0;
    return kern_by_type(t, [&](auto z) -> int {
        using T = decltype(z);
        const dim3 grid((unsigned)((r + 255) / 256), (unsigned)k);
        unit_lower<T>
            <<<grid, 256, 0, s>>>(r, k, static_cast<const T *>(V), ldv, static_cast<T *>(U), ldu);
        KERN_LAUNCH_CHECK();
        return 0;
    });
}

extern "C" int kern_cuda_solver_handle(cudaStream_t s, cusolverDnHandle_t *h)
{
    kern_device dev;
    const int err = kern_current_device(&dev);
    if (err)
        return err;
    if (!tl_solvers.h[dev.id] && CUSOLVER_OK(cusolverDnCreate(&tl_solvers.h[dev.id])))
        return TESS_EDEVICE;
    *h = tl_solvers.h[dev.id];
    return CUSOLVER_OK(cusolverDnSetStream(*h, s));
}

extern "C" int kern_cuda_info_to_host(cudaStream_t s, const int *dev_info, int64_t *info,
                                      int64_t offset)
{
    kern_device dev;
    const int err = kern_current_device(&dev);
    if (err)
        return err;
    info_slot *&ring = tl_rings.ring[dev.id];
    if (!ring)
        CUDA_TRY(cudaMallocHost(&ring, INFO_RING * sizeof *ring));
    info_slot *slot = &ring[tl_rings.next[dev.id]++ % INFO_RING];
    slot->dest = info;
    slot->offset = offset;
    CUDA_TRY(cudaMemcpyAsync(&slot->value, dev_info, sizeof(int), cudaMemcpyDeviceToHost, s));
    CUDA_TRY(cudaLaunchHostFunc(s, deliver, slot));
    return 0;
}

extern "C" int kern_cuda_diag_zero(kern_type_t t, cudaStream_t s, int64_t n, const void *A,
                                   int64_t lda, int *dev_out)
{
    return kern_by_type(t, [&](auto z) -> int {
        using T = decltype(z);
        first_zero_on_diagonal<T><<<1, 256, 0, s>>>(n, static_cast<const T *>(A), lda, dev_out);
        KERN_LAUNCH_CHECK();
        return 0;
    });
}
