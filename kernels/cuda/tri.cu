/* What writes one triangle of square tiles on a GPU, the other left as it
 * was: GEMMT on a diagonal tile, and the triangle updates it and the scaling
 * of SYRK/HERK/SYR2K/HER2K/GEMMT diagonal tiles need.  cuBLAS has no kernel
 * that writes one triangle of a general product. */
#include "blas_dispatch.cuh"
#include "check.cuh"
#include "scalar.cuh"

namespace
{

constexpr int TRI_THREADS = 256;

/* Over the uplo triangle of blockIdx.z's n x n tile (C + z c_step, S + z
 * s_step): C(i,j) = S(i,j) + beta C(i,j) (S NULL: beta C alone; beta 0: C
 * not read); real_diag (HERK's) neither reads the diagonal's imaginary parts,
 * which BLAS takes as zero (a NaN there must not reach the real part), nor
 * leaves any. */
template <class T>
__global__ void tri_update(bool lower, int64_t n, const T *S, int64_t lds, int64_t s_step, T beta,
                           T *C, int64_t ldc, int64_t c_step, bool real_diag)
{
    C += blockIdx.z * c_step;
    if (S)
        S += blockIdx.z * s_step;
    for (int64_t j = blockIdx.y; j < n; j += gridDim.y) {
        const int64_t i0 = lower ? j : 0, i1 = lower ? n : j + 1;
        for (int64_t i = i0 + blockIdx.x * TRI_THREADS + threadIdx.x; i < i1;
             i += (int64_t)gridDim.x * TRI_THREADS) {
            T v = S ? S[i + j * lds] : kzero<T>();
            const bool diag = real_diag && i == j;
            if (!kis_zero(beta))
                v = kfma(beta, diag ? kreal(C[i + j * ldc]) : C[i + j * ldc], v);
            C[i + j * ldc] = diag ? kreal(v) : v;
        }
    }
}

/* C(j,j) = real(C(j,j)) for j < n. */
template <class T>
__global__ void real_diag(int64_t n, T *C, int64_t ldc)
{
    for (int64_t j = blockIdx.x * TRI_THREADS + threadIdx.x; j < n;
         j += (int64_t)gridDim.x * TRI_THREADS)
        C[j + j * ldc] = kreal(C[j + j * ldc]);
}

template <class T>
int tri_launch(cudaStream_t s, bool real_diag, tess_uplo_t uplo, int64_t n, int64_t count,
               const T *S, int64_t lds, int64_t s_step, T beta, T *C, int64_t ldc, int64_t c_step)
{
    if (n == 0 || count == 0)
        return 0;
    /* a column per grid row (as many as a grid has), enough blocks across for
     * the longest, a tile per grid layer */
    const dim3 grid((unsigned)kern_cdiv64(n, TRI_THREADS), (unsigned)kern_min64(n, 65535),
                    (unsigned)count);
    return kern_launch(tri_update<T>, grid, dim3(TRI_THREADS), 0, s, KERN_LAUNCH_PLAIN,
                       uplo == TessLower, n, S, lds, s_step, beta, C, ldc, c_step, real_diag);
}

/* GEMMT of n = leaf 2^L rows by levels: level l's 2^l off-diagonal blocks,
 * all of one shape, are one strided batched GEMM; the n / leaf diagonal
 * leaves are one more, into scratch, merged by one triangle update.  So a
 * tile of 4096 rows takes six cuBLAS calls and a merge instead of one call
 * per block, and the small blocks near the diagonal run side by side. */
template <class T>
int gemmt_levels(cublasHandle_t h, cudaStream_t s, T *scratch, int64_t leaf, bool real_diag,
                 tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb, int64_t n, int64_t k, T alpha,
                 const T *A, int64_t lda, const T *B, int64_t ldb, T beta, T *C, int64_t ldc)
{
    const bool lower = uplo == TessLower;
    const cublasOperation_t oa = kern_cublas_op(ta), ob = kern_cublas_op(tb);
    /* offsets of row r of op(A) and of column c of op(B) */
    auto arow = [&](int64_t r) { return ta == TessNoTrans ? r : r * lda; };
    auto bcol = [&](int64_t c) { return tb == TessNoTrans ? c * ldb : c; };
    for (int64_t size = n / 2; size >= leaf; size /= 2) {
        const int64_t step = 2 * size, r0 = lower ? size : 0, c0 = lower ? 0 : size;
        CUBLAS_TRY(kern_gemm_batched(h, oa, ob, size, size, k, alpha, A + arow(r0), lda, arow(step),
                                     B + bcol(c0), ldb, bcol(step), beta, C + r0 + c0 * ldc, ldc,
                                     step * (1 + ldc), n / step));
    }
    CUBLAS_TRY(kern_gemm_batched(h, oa, ob, leaf, leaf, k, alpha, A, lda, arow(leaf), B, ldb,
                                 bcol(leaf), kzero<T>(), scratch, leaf, leaf * leaf, n / leaf));
    return tri_launch<T>(s, real_diag, uplo, leaf, n / leaf, scratch, leaf, leaf * leaf, beta, C,
                         ldc, leaf * (1 + ldc));
}

} // namespace

extern "C" int kern_cuda_tri_update(kern_type_t t, cudaStream_t s, bool real_diag, tess_uplo_t uplo,
                                    int64_t n, const void *S, int64_t lds, const void *beta,
                                    void *C, int64_t ldc)
{
    return kern_by_type(t, [&](auto z) {
        using T = decltype(z);
        return tri_launch<T>(s, real_diag, uplo, n, 1, static_cast<const T *>(S), lds, 0,
                             *static_cast<const T *>(beta), static_cast<T *>(C), ldc, 0);
    });
}

extern "C" int kern_cuda_real_diag(kern_type_t t, cudaStream_t s, int64_t n, void *C, int64_t ldc)
{
    if (n == 0)
        return 0;
    return kern_by_type(t, [&](auto z) {
        using T = decltype(z);
        return kern_launch(real_diag<T>,
                           dim3((unsigned)kern_min64(kern_cdiv64(n, TRI_THREADS), 65535)),
                           dim3(TRI_THREADS), 0, s, KERN_LAUNCH_PLAIN, n, static_cast<T *>(C), ldc);
    });
}

extern "C" bool kern_cuda_gemmt_by_levels(int64_t n, int64_t leaf)
{
    return n >= leaf && n % leaf == 0 && ((n / leaf) & (n / leaf - 1)) == 0;
}

extern "C" int kern_cuda_gemmt(kern_type_t t, cublasHandle_t h, cudaStream_t s, void *scratch,
                               int64_t leaf, bool real_diag, tess_uplo_t uplo, tess_trans_t ta,
                               tess_trans_t tb, int64_t n, int64_t k, const void *alpha,
                               const void *A, int64_t lda, const void *B, int64_t ldb,
                               const void *beta, void *C, int64_t ldc)
{
    return kern_by_type(t, [&](auto z) {
        using T = decltype(z);
        return gemmt_levels<T>(h, s, static_cast<T *>(scratch), leaf, real_diag, uplo, ta, tb, n, k,
                               *static_cast<const T *>(alpha), static_cast<const T *>(A), lda,
                               static_cast<const T *>(B), ldb, *static_cast<const T *>(beta),
                               static_cast<T *>(C), ldc);
    });
}
