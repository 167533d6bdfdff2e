/* The in-place kernel that finishes recursive TRSM and TRMM on a diagonal
 * block of at most kern_leaf_max<T>() rows (trxm_leaf_launch.cuh and the
 * trxm_leaf_*.cuh headers it includes). */
#ifndef KERN_CUDA_TRXM_LEAF_CUH
#define KERN_CUDA_TRXM_LEAF_CUH

#include <stdint.h>
#include "kern_cuda.h"

/* Leaf size: 64, except complex double, whose 64 x 64 tile would not leave
 * shared memory for several blocks per multiprocessor. */
template <class T>
__host__ __device__ constexpr int kern_leaf_nb()
{
    return sizeof(T) > 8 ? 32 : 64;
}

/* The largest block the kernel finishes in one launch: two leaf tiles. */
template <class T>
__host__ __device__ constexpr int kern_leaf_max()
{
    return 2 * kern_leaf_nb<T>();
}

/* On the k x k triangle at A (k <= kern_leaf_max<T>()):
 *   solve: B = alpha op(A)^-1 B, or alpha B op(A)^-1 (side right);
 *   else:  B = alpha op(A) B,    or alpha B op(A).
 * B is k x nvec (side left) or nvec x k (side right).  Queued on s; 0 or
 * TESS_EDEVICE.  overlap: the kernel queued just before on s never writes A
 * (it is one of the same call's), so this one may start, and read A, before
 * that kernel ends. */
template <class T>
int kern_trxm_leaf(cudaStream_t s, bool solve, tess_side_t side, tess_uplo_t uplo,
                   tess_trans_t trans, tess_diag_t diag, int64_t k, int64_t nvec, T alpha,
                   const T *A, int64_t lda, T *B, int64_t ldb, bool overlap);

#endif
