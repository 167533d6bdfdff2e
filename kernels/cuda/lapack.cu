/* What the Cholesky family's diagonal tiles need on a GPU besides cuSOLVER's
 * routines: the calling thread's cuSOLVER handle, a tile's info carried from
 * the device to the host without the worker waiting for it, POTRF's info
 * checked against the factor, and TRTRI's check for a zero on the diagonal. */
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
 * KERN_MAX_PENDING tasks in flight), so its host function has run. */
struct info_slot {
    int value;
    int64_t *dest;
    int64_t offset;
    int *async_err;
};

constexpr unsigned INFO_RING = 128;
static_assert(INFO_RING > KERN_MAX_PENDING,
              "an info slot is used again only once its task has retired");

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

/* A negative value is cuSOLVER's complaint about an argument we passed: the task's
 * error, never the caller's INFO (as on the host backend). */
void CUDART_CB deliver(void *p)
{
    const info_slot *s = static_cast<const info_slot *>(p);
    if (s->value > 0)
        __atomic_store_n(s->dest, s->offset + s->value, __ATOMIC_RELEASE);
    else if (s->value < 0 && s->async_err)
        __atomic_store_n(s->async_err, (int)TESS_EINTERNAL, __ATOMIC_RELEASE);
}

__device__ inline float real_part(float a)
{
    return a;
}
__device__ inline double real_part(double a)
{
    return a;
}
__device__ inline float real_part(cuComplex a)
{
    return a.x;
}
__device__ inline double real_part(cuDoubleComplex a)
{
    return a.x;
}

/* LAPACK's POTRF fails at the first column whose pivot is not positive (NaN included). */
template <class T>
__global__ void first_nonpositive_pivot(int64_t n, const T *A, int64_t lda, int *info)
{
    __shared__ int first;
    if (threadIdx.x == 0)
        first = *info > 0 ? *info : INT_MAX;
    __syncthreads();
    for (int64_t i = threadIdx.x; i < n && i < first; i += blockDim.x) {
        if (!(real_part(A[i + i * lda]) > 0)) {
            atomicMin(&first, (int)i + 1);
            break;
        }
    }
    __syncthreads();
    if (threadIdx.x == 0 && *info >= 0)
        *info = first == INT_MAX ? 0 : first;
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

} // namespace

extern "C" int kern_cuda_thread_solver(cudaStream_t s, cusolverDnHandle_t *h)
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
                                      int64_t offset, int *async_err)
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
    slot->async_err = async_err;
    CUDA_TRY(cudaMemcpyAsync(&slot->value, dev_info, sizeof(int), cudaMemcpyDeviceToHost, s));
    CUDA_TRY(cudaLaunchHostFunc(s, deliver, slot));
    return 0;
}

extern "C" int kern_cuda_potrf_info(kern_type_t t, cudaStream_t s, int64_t n, const void *A,
                                    int64_t lda, int *dev_info)
{
    return kern_by_type(t, [&](auto z) -> int {
        using T = decltype(z);
        first_nonpositive_pivot<T><<<1, 256, 0, s>>>(n, static_cast<const T *>(A), lda, dev_info);
        KERN_LAUNCH_CHECK();
        return 0;
    });
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
