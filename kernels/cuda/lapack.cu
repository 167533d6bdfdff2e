/* What the Cholesky family's diagonal tiles and LU's panels need on a GPU
 * besides cuSOLVER's routines: the calling thread's cuSOLVER handle and
 * parameters, a tile's info carried from the device to the host without the
 * worker waiting for it, POTRF's info checked against the factor, the check
 * for a zero on the diagonal (TRTRI's, and GETRF's INFO, taken from U rather
 * than from cuSOLVER), GETRF's pivots made global, and ORMQR's copy of the
 * reflectors with their implicit unit diagonal made explicit (laswp.cu has
 * the row interchanges). */
#include <climits>
#include <cmath>
#include <cstring>
#include "check.cuh"
#include "scalar.cuh"

namespace
{

/* One cuSOLVER handle per host thread and device, as handle.cu's cuBLAS ones. */
struct thread_solvers {
    cusolverDnHandle_t h[TESS_MAX_DEVICES] = {};
    cusolverDnParams_t params = nullptr;
    ~thread_solvers()
    {
        for (cusolverDnHandle_t hd : h)
            if (hd)
                cusolverDnDestroy(hd); /* nothing to report to at thread exit */
        if (params)
            cusolverDnDestroyParams(params);
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
    double *amax;            /* an amax's slot (kern_cuda_amax) when not NULL, */
    unsigned long long bits; /* its value: a nonnegative double's bits */
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
 * error, never the caller's INFO (as on the host backend).  A slot with no dest is a
 * routine's with no INFO of its own. */
void CUDART_CB deliver(void *p)
{
    const info_slot *s = static_cast<const info_slot *>(p);
    if (s->amax) {
        double v;
        memcpy(&v, &s->bits, sizeof v);
        if (!std::isnan(*s->amax) && (std::isnan(v) || v > *s->amax))
            *s->amax = v;
        return;
    }
    if (s->value > 0 && s->dest)
        kern_info_store(s->dest, s->offset + s->value);
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

/* keep_error: a negative *out (cuSOLVER's argument error, written before) stays. */
template <class T>
__global__ void first_zero_on_diagonal(int64_t n, const T *A, int64_t lda, int *out,
                                       bool keep_error)
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
    if (threadIdx.x == 0 && !(keep_error && *out < 0))
        *out = first == INT_MAX ? 0 : first;
}

int diag_zero(kern_type_t t, cudaStream_t s, int64_t n, const void *A, int64_t lda, int *dev_out,
              bool keep_error)
{
    return kern_by_type(t, [&](auto z) -> int {
        using T = decltype(z);
        first_zero_on_diagonal<T>
            <<<1, 256, 0, s>>>(n, static_cast<const T *>(A), lda, dev_out, keep_error);
        KERN_LAUNCH_CHECK();
        return 0;
    });
}

/* Pivots local to a panel made global. */
__global__ void add_offset(int64_t n, int64_t *ipiv, int64_t offset)
{
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n)
        ipiv[i] += offset;
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

extern "C" int kern_cuda_solver_params(cusolverDnParams_t *p)
{
    if (!tl_solvers.params && CUSOLVER_OK(cusolverDnCreateParams(&tl_solvers.params)))
        return TESS_EDEVICE;
    *p = tl_solvers.params;
    return 0;
}

extern "C" int kern_cuda_getrf_finish(kern_type_t t, cudaStream_t s, int64_t mn, const void *A,
                                      int64_t lda, int64_t *ipiv, int64_t offset, int *dev_out)
{
    if (offset) {
        add_offset<<<(unsigned)((mn + 255) / 256), 256, 0, s>>>(mn, ipiv, offset);
        KERN_LAUNCH_CHECK();
    }
    return diag_zero(t, s, mn, A, lda, dev_out, true);
}

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

/* The calling thread's next slot on the current device. */
static int take_slot(info_slot **slot)
{
    kern_device dev;
    const int err = kern_current_device(&dev);
    if (err)
        return err;
    info_slot *&ring = tl_rings.ring[dev.id];
    if (!ring)
        CUDA_TRY(cudaMallocHost(&ring, INFO_RING * sizeof *ring));
    *slot = &ring[tl_rings.next[dev.id]++ % INFO_RING];
    return 0;
}

extern "C" int kern_cuda_info_to_host(cudaStream_t s, const int *dev_info, int64_t *info,
                                      int64_t offset, int *async_err)
{
    info_slot *slot;
    const int err = take_slot(&slot);
    if (err)
        return err;
    slot->amax = nullptr;
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
    return diag_zero(t, s, n, A, lda, dev_out, false);
}

/* Over reals (two per complex element): every thread that meets a nonzero writes 1. */
template <class R>
__global__ void any_nonzero(int64_t rows, int64_t n, const R *A, int64_t ld, int *out)
{
    for (int64_t j = blockIdx.y; j < n; j += gridDim.y)
        for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < rows;
             i += (int64_t)gridDim.x * blockDim.x)
            if (A[i + j * ld] != 0) {
                *out = 1;
                return;
            }
}

/* Over the elements' moduli as double bits, which order nonnegative doubles as their values
 * do and put NaN above infinity: each warp's largest, then the largest of the warps'. */
template <class R>
__global__ void amax_bits(int64_t m, int64_t n, const R *A, int64_t ld, bool cx,
                          unsigned long long *out)
{
    unsigned long long best = 0;
    for (int64_t j = blockIdx.y; j < n; j += gridDim.y)
        for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < m;
             i += (int64_t)gridDim.x * blockDim.x) {
            const R *a = A + (cx ? 2 : 1) * (i + j * ld);
            double v = cx ? hypot((double)a[0], (double)a[1]) : fabs((double)a[0]);
            unsigned long long b = (unsigned long long)__double_as_longlong(v);
            best = b > best ? b : best;
        }
    for (int d = 16; d > 0; d /= 2) {
        unsigned long long o = __shfl_down_sync(0xffffffffu, best, d);
        best = o > best ? o : best;
    }
    if ((threadIdx.x & 31) == 0)
        atomicMax(out, best);
}

extern "C" int kern_cuda_amax(kern_type_t t, cudaStream_t s, int64_t m, int64_t n, const void *A,
                              int64_t lda, void *dev_scratch, double *amax)
{
    auto *dev_out = static_cast<unsigned long long *>(dev_scratch);
    CUDA_TRY(cudaMemsetAsync(dev_out, 0, sizeof *dev_out, s));
    bool cx = t == KERN_C || t == KERN_Z;
    if (m > 0 && n > 0) {
        dim3 grid((unsigned)(m < 64 * 256 ? (m + 255) / 256 : 64), (unsigned)(n < 1024 ? n : 1024));
        if (t == KERN_S || t == KERN_C)
            amax_bits<float>
                <<<grid, 256, 0, s>>>(m, n, static_cast<const float *>(A), lda, cx, dev_out);
        else
            amax_bits<double>
                <<<grid, 256, 0, s>>>(m, n, static_cast<const double *>(A), lda, cx, dev_out);
        KERN_LAUNCH_CHECK();
    }
    info_slot *slot;
    const int err = take_slot(&slot);
    if (err)
        return err;
    slot->amax = amax;
    CUDA_TRY(cudaMemcpyAsync(&slot->bits, dev_out, sizeof slot->bits, cudaMemcpyDeviceToHost, s));
    CUDA_TRY(cudaLaunchHostFunc(s, deliver, slot));
    return 0;
}

extern "C" int kern_cuda_any_nonzero(kern_type_t t, cudaStream_t s, int64_t m, int64_t n,
                                     const void *A, int64_t lda, int *dev_out)
{
    CUDA_TRY(cudaMemsetAsync(dev_out, 0, sizeof(int), s));
    bool cx = t == KERN_C || t == KERN_Z;
    int64_t rows = cx ? 2 * m : m, ld = cx ? 2 * lda : lda;
    if (rows <= 0 || n <= 0)
        return 0;
    dim3 grid((unsigned)(rows < 64 * 256 ? (rows + 255) / 256 : 64),
              (unsigned)(n < 1024 ? n : 1024));
    if (t == KERN_S || t == KERN_C)
        any_nonzero<float>
            <<<grid, 256, 0, s>>>(rows, n, static_cast<const float *>(A), ld, dev_out);
    else
        any_nonzero<double>
            <<<grid, 256, 0, s>>>(rows, n, static_cast<const double *>(A), ld, dev_out);
    KERN_LAUNCH_CHECK();
    return 0;
}
