/* Pieces shared by the GEMV and SYMV/HEMV kernels. */
#ifndef KERN_CUDA_BLAS2_COMMON_CUH
#define KERN_CUDA_BLAS2_COMMON_CUH

#include <stdint.h>
#include "check.cuh"
#include "scalar.cuh"

/* Two vertically adjacent elements of a column, read in one access: 16 bytes
 * for double and complex float (8 for float; complex double is two 16-byte
 * accesses), which is what keeps a memory-bound kernel near peak bandwidth. */
template <class T>
struct alignas(2 * sizeof(T) > 16 ? 16 : 2 * sizeof(T)) kpair {
    T a, b;
};

/* Can columns of A be read in pairs from even rows: the pointer aligned for
 * kpair and, unless an element is already 16 bytes, an even ld. */
template <class T>
static inline bool kern_pairs_aligned(const T *A, int64_t lda)
{
    const uintptr_t align = alignof(kpair<T>);
    return (uintptr_t)A % align == 0 && (sizeof(T) >= 16 || lda % 2 == 0);
}

/* Reference BLAS walks a vector with a negative increment from its far end:
 * element i of a length-len vector is at base[i * inc] with this base. */
template <class T>
static inline T *kern_vec_base(T *v, int64_t len, int64_t inc)
{
    return inc < 0 ? v - (len - 1) * inc : v;
}

#ifdef __CUDACC__
/* *y = beta *y, where beta == 0 writes zero without reading *y, so that a
 * NaN there does not survive (reference BLAS). */
template <class T>
__device__ __forceinline__ void kern_scale_elem(T beta, T *y)
{
    *y = kis_zero(beta) ? kzero<T>() : kmul(beta, *y);
}

template <class T>
__global__ void kern_scale_kernel(int64_t len, T beta, T *y, int64_t incy)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        kern_scale_elem(beta, &y[i * incy]);
}

/* y = beta y before the kernels add alpha op(A) x with atomics; beta == 0
 * writes zeros without reading y, so NaNs there do not survive. */
template <class T>
static int kern_scale_vec(cudaStream_t s, int64_t len, T beta, T *y, int64_t incy)
{
    if (kis_one(beta) || len == 0)
        return 0;
    const int threads = 256;
    kern_scale_kernel<T>
        <<<(unsigned)kern_cdiv64(len, threads), threads, 0, s>>>(len, beta, y, incy);
    KERN_LAUNCH_CHECK();
    return 0;
}
#endif

#endif
