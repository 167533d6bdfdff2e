/* The CUDA backend's kernel table: GEMM, scaling, GEAM and the symmetric BLAS-3
 * kernels on cuBLAS, POTRF, TRTRI and GETRF of a tile or panel on cuSOLVER; the triangular and BLAS-2 kernels, and the one-triangle
 * updates of GEMMT leaves and diagonal tiles, Tessera's own (kernels/cuda).
 * Everything is queued on the context's stream; the backend tracks
 * completion. */
#include <cuComplex.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "cuda/kern_cuda.h"
#include "cuda_check.h"
#include "cuda_ctx.h"
#include "dtype.h"

#define CUDA_GEMM(P, CT, FN)                                                                       \
    static int cuda_##P##gemm(kern_ctx_t *x, tess_trans_t ta, tess_trans_t tb, int64_t m,          \
                              int64_t n, int64_t k, const void *alpha, const void *A, int64_t lda, \
                              const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc)  \
    {                                                                                              \
        return CUBLAS_OK(FN(x->blas, kern_cublas_op(ta), kern_cublas_op(tb), (int)m, (int)n,       \
                            (int)k, alpha, A, (int)lda, B, (int)ldb, beta, C, (int)ldc));          \
    }

CUDA_GEMM(s, float, cublasSgemm)
CUDA_GEMM(d, double, cublasDgemm)
CUDA_GEMM(c, cuComplex, cublasCgemm)
CUDA_GEMM(z, cuDoubleComplex, cublasZgemm)

/* beta == 0 zeroes without reading (all-zero bytes are 0.0 in every type); otherwise
 * one cuBLAS call scales a contiguous tile, else one call a column. */
#define CUDA_SCAL(P, ES, FN)                                                                       \
    static int cuda_##P##scal(kern_ctx_t *x, int64_t m, int64_t n, const void *beta, void *C,      \
                              int64_t ldc)                                                         \
    {                                                                                              \
        static const unsigned char zero[ES];                                                       \
        if (!memcmp(beta, zero, ES))                                                               \
            return CUDA_OK(                                                                        \
                cudaMemset2DAsync(C, (size_t)ldc * ES, 0, (size_t)m * ES, (size_t)n, x->stream));  \
        if (ldc == m && m * n <= INT_MAX) /* cuBLAS's lengths are 32-bit */                        \
            return CUBLAS_OK(FN(x->blas, (int)(m * n), beta, C, 1));                               \
        for (int64_t j = 0; j < n; j++) {                                                          \
            int err = CUBLAS_OK(                                                                   \
                FN(x->blas, (int)m, beta, (void *)((char *)C + (size_t)(j * ldc) * ES), 1));       \
            if (err)                                                                               \
                return err;                                                                        \
        }                                                                                          \
        return 0;                                                                                  \
    }

CUDA_SCAL(s, 4, cublasSscal)
CUDA_SCAL(d, 8, cublasDscal)
CUDA_SCAL(c, 8, cublasCscal)
CUDA_SCAL(z, 16, cublasZscal)

/* B = alpha A + beta B by cuBLAS's GEAM in place (C = B, ldc = ldb, B not transposed, which
 * cuBLAS allows); alpha == 0 is a scaling, which never reads A, and beta == 0 first zeroes B
 * without reading it, then adds alpha A to those zeros. */
#define CUDA_GEADD(P, TY, CT, RT, FN)                                                              \
    static int cuda_##P##geadd(kern_ctx_t *x, int64_t m, int64_t n, const void *alpha,             \
                               const void *A, int64_t lda, const void *beta, void *B, int64_t ldb) \
    {                                                                                              \
        static const CT zero;                                                                      \
        CT one = zero;                                                                             \
        ((RT *)&one)[0] = 1;                                                                       \
        if (kern_scalar_is_zero(TY, alpha))                                                        \
            return cuda_##P##scal(x, m, n, beta, B, ldb);                                          \
        if (kern_scalar_is_zero(TY, beta)) {                                                       \
            int err = cuda_##P##scal(x, m, n, &zero, B, ldb);                                      \
            if (err)                                                                               \
                return err;                                                                        \
            beta = &one;                                                                           \
        }                                                                                          \
        return CUBLAS_OK(FN(x->blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)m, (int)n, alpha, A, (int)lda, \
                            beta, B, (int)ldb, B, (int)ldb));                                      \
    }
CUDA_GEADD(s, KERN_S, float, float, cublasSgeam)
CUDA_GEADD(d, KERN_D, double, double, cublasDgeam)
CUDA_GEADD(c, KERN_C, cuComplex, float, cublasCgeam)
CUDA_GEADD(z, KERN_Z, cuDoubleComplex, double, cublasZgeam)

static cublasFillMode_t fill(tess_uplo_t u)
{
    return u == TessLower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
}

static cublasSideMode_t side_mode(tess_side_t s)
{
    return s == TessLeft ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
}

/* A rank-k update's op(A) op(B)^T (^H when herm) as a GEMMT's transposes:
 * trans for the first operand, this for the second. */
static tess_trans_t second_op(bool herm, tess_trans_t trans)
{
    return trans != TessNoTrans ? TessNoTrans : herm ? TessConjTrans : TessTrans;
}

/* A scalar of the table's type from s, which is real when real is set (HERK's
 * alpha and beta); NULL is zero. */
#define CUDA_WIDEN(P, CT, RT)                                                                      \
    static CT widen_##P(const void *s, bool real)                                                  \
    {                                                                                              \
        CT v;                                                                                      \
        memset(&v, 0, sizeof v);                                                                   \
        if (s)                                                                                     \
            memcpy(&v, s, real ? sizeof(RT) : sizeof(CT));                                         \
        return v;                                                                                  \
    }
CUDA_WIDEN(s, float, float)
CUDA_WIDEN(d, double, double)
CUDA_WIDEN(c, cuComplex, float)
CUDA_WIDEN(z, cuDoubleComplex, double)

/* The symmetric and Hermitian kernels; for real types the Hermitian names are
 * the symmetric routines (herm is never set).  A GEMMT leaf computes its
 * whole square into the context's scratch and merges one triangle into C;
 * a tile of leaf 2^L rows (every full tile, nb being a power of two) goes
 * by levels, every level one batched GEMM (kern_cuda_gemmt). */
#define CUDA_SYM3(P, TY, CT, RT, SYMM, HEMM, SYRK, HERK, SYR2K, HER2K)                             \
    static int cuda_##P##symm(kern_ctx_t *x, bool herm, tess_side_t side, tess_uplo_t uplo,        \
                              int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda, \
                              const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc)  \
    {                                                                                              \
        return CUBLAS_OK((herm ? HEMM : SYMM)(x->blas, side_mode(side), fill(uplo), (int)m,        \
                                              (int)n, alpha, A, (int)lda, B, (int)ldb, beta, C,    \
                                              (int)ldc));                                          \
    }                                                                                              \
    /* a diagonal tile of leaf 2^L rows: a GEMMT by levels, which runs faster than cuBLAS's     \
     * SYRK on such tiles */  \
    static int cuda_##P##syrk(kern_ctx_t *x, bool herm, tess_uplo_t uplo, tess_trans_t trans,      \
                              int64_t n, int64_t k, const void *alpha, const void *A, int64_t lda, \
                              const void *beta, void *C, int64_t ldc)                              \
    {                                                                                              \
        if (kern_cuda_gemmt_by_levels(n, CUDA_GEMMT_LEAF)) {                                       \
            CT a = widen_##P(alpha, herm), b = widen_##P(beta, herm);                              \
            tess_trans_t ta = trans, tb = second_op(herm, trans);                                  \
            return kern_cuda_gemmt(TY, x->blas, x->stream, x->scratch, CUDA_GEMMT_LEAF, herm,      \
                                   uplo, ta, tb, n, k, &a, A, lda, A, lda, &b, C, ldc);            \
        }                                                                                          \
        if (herm) {                                                                                \
            int err = kern_cuda_real_diag(TY, x->stream, n, C, ldc);                               \
            return err ? err                                                                       \
                       : CUBLAS_OK(HERK(x->blas, fill(uplo), kern_cublas_op(trans), (int)n,        \
                                        (int)k, alpha, A, (int)lda, beta, C, (int)ldc));           \
        }                                                                                          \
        return CUBLAS_OK(SYRK(x->blas, fill(uplo), kern_cublas_op(trans), (int)n, (int)k, alpha,   \
                              A, (int)lda, beta, C, (int)ldc));                                    \
    }                                                                                              \
    /* by levels as syrk: two GEMMTs, alpha op(A) op(B)^T + beta C then alpha' op(B) op(A)^T */    \
    static int cuda_##P##syr2k(kern_ctx_t *x, bool herm, tess_uplo_t uplo, tess_trans_t trans,     \
                               int64_t n, int64_t k, const void *alpha, const void *A,             \
                               int64_t lda, const void *B, int64_t ldb, const void *beta, void *C, \
                               int64_t ldc)                                                        \
    {                                                                                              \
        if (kern_cuda_gemmt_by_levels(n, CUDA_GEMMT_LEAF)) {                                       \
            CT a2 = widen_##P(alpha, false), b = widen_##P(beta, herm), one = widen_##P(0, 0);     \
            if (herm && sizeof(CT) > sizeof(RT))                                                   \
                ((RT *)&a2)[1] = -((RT *)&a2)[1];                                                  \
            ((RT *)&one)[0] = 1;                                                                   \
            tess_trans_t ta = trans, tb = second_op(herm, trans);                                  \
            /* herm: the first pass reads C's diagonal real parts alone, as HER2K does */          \
            int err = kern_cuda_gemmt(TY, x->blas, x->stream, x->scratch, CUDA_GEMMT_LEAF, herm,   \
                                      uplo, ta, tb, n, k, alpha, A, lda, B, ldb, &b, C, ldc);      \
            return err ? err                                                                       \
                       : kern_cuda_gemmt(TY, x->blas, x->stream, x->scratch, CUDA_GEMMT_LEAF,      \
                                         herm, uplo, ta, tb, n, k, &a2, B, ldb, A, lda, &one, C,   \
                                         ldc);                                                     \
        }                                                                                          \
        if (herm) {                                                                                \
            int err = kern_cuda_real_diag(TY, x->stream, n, C, ldc);                               \
            return err ? err                                                                       \
                       : CUBLAS_OK(HER2K(x->blas, fill(uplo), kern_cublas_op(trans), (int)n,       \
                                         (int)k, alpha, A, (int)lda, B, (int)ldb, beta, C,         \
                                         (int)ldc));                                               \
        }                                                                                          \
        return CUBLAS_OK(SYR2K(x->blas, fill(uplo), kern_cublas_op(trans), (int)n, (int)k, alpha,  \
                               A, (int)lda, B, (int)ldb, beta, C, (int)ldc));                      \
    }                                                                                              \
    static int cuda_##P##gemmt_leaf(kern_ctx_t *x, tess_uplo_t uplo, tess_trans_t ta,              \
                                    tess_trans_t tb, int64_t n, int64_t k, const void *alpha,      \
                                    const void *A, int64_t lda, const void *B, int64_t ldb,        \
                                    const void *beta, void *C, int64_t ldc)                        \
    {                                                                                              \
        static const CT zero;                                                                      \
        int err = cuda_##P##gemm(x, ta, tb, n, n, k, alpha, A, lda, B, ldb, &zero, x->scratch, n); \
        return err ? err                                                                           \
                   : kern_cuda_tri_update(TY, x->stream, false, uplo, n, x->scratch, n, beta, C,   \
                                          ldc);                                                    \
    }                                                                                              \
    static int cuda_##P##gemmt(kern_ctx_t *x, tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb,  \
                               int64_t n, int64_t k, const void *alpha, const void *A,             \
                               int64_t lda, const void *B, int64_t ldb, const void *beta, void *C, \
                               int64_t ldc)                                                        \
    {                                                                                              \
        if (kern_cuda_gemmt_by_levels(n, CUDA_GEMMT_LEAF))                                         \
            return kern_cuda_gemmt(TY, x->blas, x->stream, x->scratch, CUDA_GEMMT_LEAF, false,     \
                                   uplo, ta, tb, n, k, alpha, A, lda, B, ldb, beta, C, ldc);       \
        return kern_gemmt_recursive(&kern_cuda_table[TY], sizeof(CT), CUDA_GEMMT_LEAF,             \
                                    cuda_##P##gemmt_leaf, x, uplo, ta, tb, n, k, alpha, A, lda, B, \
                                    ldb, beta, C, ldc);                                            \
    }                                                                                              \
    static int cuda_##P##scal_tri(kern_ctx_t *x, bool herm, tess_uplo_t uplo, int64_t n,           \
                                  const void *beta, void *C, int64_t ldc)                          \
    {                                                                                              \
        CT b = widen_##P(beta, herm);                                                              \
        return kern_cuda_tri_update(TY, x->stream, herm, uplo, n, NULL, 0, &b, C, ldc);            \
    }

CUDA_SYM3(s, KERN_S, float, float, cublasSsymm, cublasSsymm, cublasSsyrk, cublasSsyrk, cublasSsyr2k,
          cublasSsyr2k)
CUDA_SYM3(d, KERN_D, double, double, cublasDsymm, cublasDsymm, cublasDsyrk, cublasDsyrk,
          cublasDsyr2k, cublasDsyr2k)
CUDA_SYM3(c, KERN_C, cuComplex, float, cublasCsymm, cublasChemm, cublasCsyrk, cublasCherk,
          cublasCsyr2k, cublasCher2k)
CUDA_SYM3(z, KERN_Z, cuDoubleComplex, double, cublasZsymm, cublasZhemm, cublasZsyrk, cublasZherk,
          cublasZsyr2k, cublasZher2k)

#define CUDA_OWN(P, T)                                                                             \
    static int cuda_##P##trsm(kern_ctx_t *x, tess_side_t side, tess_uplo_t uplo,                   \
                              tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n,          \
                              const void *alpha, const void *A, int64_t lda, void *B, int64_t ldb) \
    {                                                                                              \
        return kern_cuda_trsm(T, x->blas, x->stream, side, uplo, trans, diag, m, n, alpha, A, lda, \
                              B, ldb);                                                             \
    }                                                                                              \
    static int cuda_##P##trmm(kern_ctx_t *x, tess_side_t side, tess_uplo_t uplo,                   \
                              tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n,          \
                              const void *alpha, const void *A, int64_t lda, void *B, int64_t ldb) \
    {                                                                                              \
        return kern_cuda_trmm(T, x->blas, x->stream, side, uplo, trans, diag, m, n, alpha, A, lda, \
                              B, ldb);                                                             \
    }

CUDA_OWN(s, KERN_S)
CUDA_OWN(d, KERN_D)
CUDA_OWN(c, KERN_C)
CUDA_OWN(z, KERN_Z)

/* A BLAS-2 tile's products in a fixed order (kernels/cuda/gemv2.cu), its partial
 * sums in the context's scratch, which holds those of any tile of up to nb. */
#define CUDA_GEMV2(P, T)                                                                           \
    static int cuda_##P##gemv2(                                                                    \
        kern_ctx_t *x, tess_part_t part, bool herm, int64_t m, int64_t n, const void *alpha,       \
        const void *A, int64_t lda, const void *x1, int64_t incx1, const void *x2, int64_t incx2,  \
        const void *beta1, void *y1, int64_t incy1, const void *beta2, void *y2, int64_t incy2)    \
    {                                                                                              \
        return kern_cuda_gemv2(T, x->stream, x->scratch, cuda_scratch_bytes(m > n ? m : n), part,  \
                               herm, m, n, alpha, A, lda, x1, incx1, x2, incx2, beta1, y1, incy1,  \
                               beta2, y2, incy2);                                                  \
    }

CUDA_GEMV2(s, KERN_S)
CUDA_GEMV2(d, KERN_D)
CUDA_GEMV2(c, KERN_C)
CUDA_GEMV2(z, KERN_Z)

/* The Cholesky family's diagonal tiles: POTRF and TRTRI on cuSOLVER, its
 * info at the head of the context's scratch and its workspace after it (or
 * in stream-ordered memory when it does not fit); LAUUM by halves
 * (kernels/lauum.c) with leaves of L^H L computed whole into the scratch by a
 * TRMM and their triangle merged into the tile. */
#define INFO_BYTES 256

/* The context's cuSOLVER handle, bound to its stream by whoever made the
 * context (cuda_ctx.h). */
static int solver(kern_ctx_t *x, cusolverDnHandle_t *h)
{
    *h = x->solver;
    return *h ? 0 : TESS_EINTERNAL;
}

static int info_to_host(kern_ctx_t *x, int64_t *info, int64_t offset)
{
    return kern_cuda_info_to_host(x->stream, x->scratch, info, offset, x->async_err);
}

/* The devInfo of a cuSOLVER routine that fails only on our arguments (GEQRF, ORMQR): a
 * negative one fails the task with TESS_EINTERNAL, as a diagonal tile's does. */
static int status_to_host(kern_ctx_t *x)
{
    return info_to_host(x, NULL, 0);
}

static int work_get(kern_ctx_t *x, int64_t n, size_t bytes, void **w)
{
    if (INFO_BYTES + bytes <= cuda_scratch_bytes(n)) {
        *w = (char *)x->scratch + INFO_BYTES;
        return 0;
    }
    return cudaMallocAsync(w, bytes, x->stream) == cudaSuccess ? 0 : TESS_ENOMEM;
}

static int work_put(kern_ctx_t *x, void *w, int err)
{
    if (w && w != (char *)x->scratch + INFO_BYTES && cudaFreeAsync(w, x->stream) != cudaSuccess)
        return err ? err : TESS_EDEVICE;
    return err;
}

/* cuSOLVER's host workspace (none for TRTRI, GETRF and LARFT as of CUDA 13), which must
 * outlive the queued call: the stream is waited for before it is freed. */
static int host_work_get(size_t bytes, void **hw)
{
    return bytes && !(*hw = malloc(bytes)) ? TESS_ENOMEM : 0;
}

static int host_work_put(kern_ctx_t *x, void *hw, int err)
{
    if (hw && cudaStreamSynchronize(x->stream) != cudaSuccess && !err)
        err = TESS_EDEVICE;
    free(hw);
    return err;
}

/* Copies the diagonal of an n x n tile (pitches in elements of es bytes). */
static int diag_copy(cudaStream_t s, void *dst, int64_t ldd, const void *src, int64_t lds,
                     size_t es, int64_t n)
{
    return CUDA_OK(cudaMemcpy2DAsync(dst, (size_t)(ldd + 1) * es, src, (size_t)(lds + 1) * es, es,
                                     (size_t)n, cudaMemcpyDeviceToDevice, s));
}

/* cuSOLVER's TRTRI.  With a unit diagonal cuSOLVER writes the diagonal, which LAPACK leaves
 * as it was: it is kept after the workspace and put back. */
static int cuda_trtri(kern_ctx_t *x, cudaDataType dt, size_t es, tess_uplo_t uplo, tess_diag_t diag,
                      int64_t n, void *A, int64_t lda, int64_t *info, int64_t offset)
{
    cusolverDnHandle_t h;
    size_t dbytes = 0, hbytes = 0;
    void *w = NULL, *hw = NULL;
    cublasDiagType_t d = diag == TessUnit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
    int err = solver(x, &h);
    if (!err)
        err = CUSOLVER_OK(
            cusolverDnXtrtri_bufferSize(h, fill(uplo), d, n, dt, A, lda, &dbytes, &hbytes));
    size_t keep = (dbytes + 255) / 256 * 256; /* where the unit diagonal is kept */
    if (!err)
        err = work_get(x, n, keep + (size_t)n * es, &w);
    if (!err)
        err = host_work_get(hbytes, &hw);
    if (!err && diag == TessUnit)
        err = diag_copy(x->stream, (char *)w + keep, 0, A, lda, es, n);
    if (!err)
        err = CUSOLVER_OK(
            cusolverDnXtrtri(h, fill(uplo), d, n, dt, A, lda, w, dbytes, hw, hbytes, x->scratch));
    if (!err && diag == TessUnit)
        err = diag_copy(x->stream, A, lda, (char *)w + keep, 0, es, n);
    if (!err)
        err = info_to_host(x, info, offset);
    return work_put(x, w, host_work_put(x, hw, err));
}

/* A panel's LU on cuSOLVER's 64-bit getrf, which writes 64-bit pivots; then the pivots made
 * global and the info taken from U's diagonal (kern_cuda_getrf_finish), cuSOLVER's own not
 * trusted (its POTRF's misreports in CUDA 13) unless negative, an argument error that fails
 * the task. */
static int cuda_getrf(kern_ctx_t *x, kern_type_t t, cudaDataType dt, int64_t m, int64_t n, void *A,
                      int64_t lda, int64_t *ipiv, int64_t *info, int64_t offset)
{
    cusolverDnHandle_t h;
    cusolverDnParams_t params;
    size_t dbytes = 0, hbytes = 0;
    void *w = NULL, *hw = NULL;
    int err = solver(x, &h);
    if (!err)
        err = kern_cuda_solver_params(&params);
    if (!err)
        err = CUSOLVER_OK(
            cusolverDnXgetrf_bufferSize(h, params, m, n, dt, A, lda, dt, &dbytes, &hbytes));
    if (!err)
        err = work_get(x, n, dbytes > 0 ? dbytes : 1, &w);
    if (!err)
        err = host_work_get(hbytes, &hw);
    if (!err)
        err = CUSOLVER_OK(cusolverDnXgetrf(h, params, m, n, dt, A, lda, ipiv, dt, w, dbytes, hw,
                                           hbytes, x->scratch));
    if (!err)
        err = kern_cuda_getrf_finish(t, x->stream, m < n ? m : n, A, lda, ipiv, offset, x->scratch);
    if (!err)
        err = info_to_host(x, info, offset);
    return work_put(x, w, host_work_put(x, hw, err));
}

#define CUDA_LAPACK(P, TY, CT, RT, DT, CPLX, POTRF, POTRF_BS)                                        \
    static int cuda_##P##potrf(kern_ctx_t *x, tess_uplo_t uplo, int64_t n, void *A, int64_t lda,     \
                               int64_t *info, int64_t offset)                                        \
    {                                                                                                \
        cusolverDnHandle_t h;                                                                        \
        int lwork = 0;                                                                               \
        void *w = NULL;                                                                              \
        int err = solver(x, &h);                                                                     \
        if (!err)                                                                                    \
            err = CUSOLVER_OK(POTRF_BS(h, fill(uplo), (int)n, A, (int)lda, &lwork));                 \
        if (!err)                                                                                    \
            err = work_get(x, n, (size_t)(lwork > 0 ? lwork : 1) * sizeof(CT), &w);                  \
        if (!err)                                                                                    \
            err = CUSOLVER_OK(POTRF(h, fill(uplo), (int)n, A, (int)lda, w, lwork, x->scratch));      \
        if (!err)                                                                                    \
            err = kern_cuda_potrf_info(TY, x->stream, n, A, lda, x->scratch);                        \
        if (!err)                                                                                    \
            err = info_to_host(x, info, offset);                                                     \
        return work_put(x, w, err);                                                                  \
    }                                                                                                \
    static int cuda_##P##trtri(kern_ctx_t *x, tess_uplo_t uplo, tess_diag_t diag, int64_t n,         \
                               void *A, int64_t lda, int64_t *info, int64_t offset)                  \
    {                                                                                                \
        return cuda_trtri(x, DT, sizeof(CT), uplo, diag, n, A, lda, info, offset);                   \
    }                                                                                                \
    static int cuda_##P##diag_zero(kern_ctx_t *x, int64_t n, const void *A, int64_t lda,             \
                                   int64_t *info, int64_t offset)                                    \
    {                                                                                                \
        int err = kern_cuda_diag_zero(TY, x->stream, n, A, lda, x->scratch);                         \
        return err ? err : info_to_host(x, info, offset);                                            \
    }                                                                                                \
    static int cuda_##P##any_nonzero(kern_ctx_t *x, int64_t m, int64_t n, const void *A,             \
                                     int64_t lda, int64_t *info, int64_t offset)                     \
    {                                                                                                \
        int err = kern_cuda_any_nonzero(TY, x->stream, m, n, A, lda, x->scratch);                    \
        return err ? err : info_to_host(x, info, offset);                                            \
    }                                                                                                \
    static int cuda_##P##amax(kern_ctx_t *x, int64_t m, int64_t n, const void *A, int64_t lda,       \
                              double *amax)                                                          \
    {                                                                                                \
        return kern_cuda_amax(TY, x->stream, m, n, A, lda, x->scratch, amax);                        \
    }                                                                                                \
    /* the lower triangle of L^H B (upper of B U^H) needs only B's: B is a copy of the tile, its   \
     * other triangle zeroed, since the TRMM multiplies the factor's zeros by it (0 x NaN) */ \
    static int cuda_##P##lauum_leaf(kern_ctx_t *x, tess_uplo_t uplo, int64_t n, void *A,             \
                                    int64_t lda)                                                     \
    {                                                                                                \
        CT one = widen_##P(NULL, false), zero = one;                                                 \
        ((RT *)&one)[0] = 1;                                                                         \
        tess_uplo_t other = uplo == TessLower ? TessUpper : TessLower;                               \
        int err = CUDA_OK(cudaMemcpy2DAsync(x->scratch, (size_t)n * sizeof(CT), A,                   \
                                            (size_t)lda * sizeof(CT), (size_t)n * sizeof(CT),        \
                                            (size_t)n, cudaMemcpyDeviceToDevice, x->stream));        \
        if (!err)                                                                                    \
            err = cuda_##P##scal_tri(x, false, other, n, &zero, x->scratch, n);                      \
        if (!err)                                                                                    \
            err = diag_copy(x->stream, x->scratch, n, A, lda, sizeof(CT), n);                        \
        if (!err)                                                                                    \
            err = cuda_##P##trmm(x, uplo == TessLower ? TessLeft : TessRight, uplo,                  \
                                 CPLX ? TessConjTrans : TessTrans, TessNonUnit, n, n, &one, A,       \
                                 lda, x->scratch, n);                                                \
        return err ? err                                                                             \
                   : kern_cuda_tri_update(TY, x->stream, CPLX, uplo, n, x->scratch, n, &zero, A,     \
                                          lda);                                                      \
    }                                                                                                \
    static int cuda_##P##lauum(kern_ctx_t *x, tess_uplo_t uplo, int64_t n, void *A, int64_t lda)     \
    {                                                                                                \
        return kern_lauum_recursive(&kern_cuda_table[TY], sizeof(CT), CPLX, CUDA_GEMMT_LEAF,         \
                                    cuda_##P##lauum_leaf, x, uplo, n, A, lda);                       \
    }                                                                                                \
    static int cuda_##P##getrf(kern_ctx_t *x, int64_t m, int64_t n, void *A, int64_t lda,            \
                               int64_t *ipiv, int64_t *info, int64_t offset)                         \
    {                                                                                                \
        return cuda_getrf(x, TY, DT, m, n, A, lda, ipiv, info, offset);                              \
    }                                                                                                \
    static int cuda_##P##laswp(kern_ctx_t *x, int64_t m, int64_t n, void *A, int64_t lda,            \
                               int64_t k1, int64_t k2, const int64_t *ipiv, bool forward)            \
    {                                                                                                \
        return kern_cuda_laswp(TY, x->stream, m, n, A, lda, k1, k2, ipiv, forward);                  \
    }

CUDA_LAPACK(s, KERN_S, float, float, CUDA_R_32F, false, cusolverDnSpotrf,
            cusolverDnSpotrf_bufferSize)
CUDA_LAPACK(d, KERN_D, double, double, CUDA_R_64F, false, cusolverDnDpotrf,
            cusolverDnDpotrf_bufferSize)
CUDA_LAPACK(c, KERN_C, cuComplex, float, CUDA_C_32F, true, cusolverDnCpotrf,
            cusolverDnCpotrf_bufferSize)
CUDA_LAPACK(z, KERN_Z, cuDoubleComplex, double, CUDA_C_64F, true, cusolverDnZpotrf,
            cusolverDnZpotrf_bufferSize)

/* kern.h's larft: cuSOLVER's on a copy of V with an explicit unit diagonal, as ORMQR's below,
 * with its workspace after the copy. */
static int cuda_larft(kern_ctx_t *x, kern_type_t t, cudaDataType dt, int64_t m, int64_t k,
                      const void *V, int64_t ldv, const void *tau, void *T, int64_t ldt)
{
    cusolverDnHandle_t h;
    cusolverDnParams_t params;
    size_t ubytes = ((size_t)(m * k) * kern_dtypes[t].size + 255) / 256 * 256, dbytes = 0,
           hbytes = 0;
    void *w = NULL, *hw = NULL;
    int err = solver(x, &h);
    if (!err)
        err = kern_cuda_solver_params(&params);
    if (!err)
        err = CUSOLVER_OK(cusolverDnXlarft_bufferSize(h, params, CUBLAS_DIRECT_FORWARD,
                                                      CUBLAS_STOREV_COLUMNWISE, m, k, dt, V, m, dt,
                                                      tau, dt, T, ldt, dt, &dbytes, &hbytes));
    if (!err)
        err = work_get(x, k, ubytes + (dbytes > 0 ? dbytes : 1), &w);
    if (!err)
        err = host_work_get(hbytes, &hw);
    if (!err)
        err = kern_cuda_unit_lower(t, x->stream, m, k, V, ldv, w, m);
    if (!err)
        err = CUSOLVER_OK(cusolverDnXlarft(h, params, CUBLAS_DIRECT_FORWARD,
                                           CUBLAS_STOREV_COLUMNWISE, m, k, dt, w, m, dt, tau, dt, T,
                                           ldt, dt, (char *)w + ubytes, dbytes, hw, hbytes));
    return work_put(x, w, host_work_put(x, hw, err));
}

/* kern.h's larfb on the type's own table: W = V^H C (V's unit lower triangle by TRMM, the
 * rows below by GEMM), W = op(T) W, C -= V W, W (k x n) in the context's scratch or
 * stream-ordered memory. */
static int cuda_larfb(kern_ctx_t *x, kern_type_t t, tess_trans_t trans, int64_t m, int64_t n,
                      int64_t k, const void *V, int64_t ldv, const void *T, int64_t ldt, void *C,
                      int64_t ldc)
{
    const kern_table_t *kt = &kern_cuda_table[t];
    size_t es = kern_dtypes[t].size;
    tess_trans_t ct = kern_dtypes[t].is_complex ? TessConjTrans : TessTrans;
    unsigned char one[16], minus[16];
    kern_dtype_one(t, one);
    kern_dtype_minus_one(t, minus);
    const char *V2 = (const char *)V + (size_t)k * es;
    char *C2 = (char *)C + (size_t)k * es;
    void *W = NULL;
    int err = work_get(x, k, (size_t)(k * n) * es, &W);
    if (!err)
        err = CUDA_OK(cudaMemcpy2DAsync(W, (size_t)k * es, C, (size_t)ldc * es, (size_t)k * es,
                                        (size_t)n, cudaMemcpyDeviceToDevice, x->stream));
    if (!err)
        err = kt->trmm(x, TessLeft, TessLower, ct, TessUnit, k, n, one, V, ldv, W, k);
    if (!err && m > k)
        err = kt->gemm(x, ct, TessNoTrans, k, n, m - k, one, V2, ldv, C2, ldc, one, W, k);
    if (!err)
        err = kt->trmm(x, TessLeft, TessUpper, trans == TessNoTrans ? TessNoTrans : ct, TessNonUnit,
                       k, n, one, T, ldt, W, k);
    if (!err && m > k)
        err =
            kt->gemm(x, TessNoTrans, TessNoTrans, m - k, n, k, minus, V2, ldv, W, k, one, C2, ldc);
    if (!err)
        err = kt->trmm(x, TessLeft, TessLower, TessNoTrans, TessUnit, k, n, one, V, ldv, W, k);
    if (!err)
        err = kt->geadd(x, k, n, minus, W, k, one, C, ldc);
    return work_put(x, W, err);
}

/* QR's tasks on cuSOLVER: GEQRF of a panel, and ORMQR/UNMQR on a copy of the reflectors
 * with an explicit unit diagonal (kern.h: V's diagonal and above are never read, nor is V
 * written, which cuSOLVER does not promise), the copy and the workspace together in the
 * context's scratch or in stream-ordered memory.  Neither routine fails on valid arguments:
 * the devInfo cuSOLVER writes to the scratch's head can only say that one of ours was not
 * (status_to_host). */
#define CUDA_QR(P, TY, CT, DT, GEQRF, GEQRF_BS, ORMQR, ORMQR_BS)                                   \
    static int cuda_##P##geqrf(kern_ctx_t *x, int64_t m, int64_t n, void *A, int64_t lda,          \
                               void *tau)                                                          \
    {                                                                                              \
        cusolverDnHandle_t h;                                                                      \
        int lwork = 0;                                                                             \
        void *w = NULL;                                                                            \
        int err = solver(x, &h);                                                                   \
        if (!err)                                                                                  \
            err = CUSOLVER_OK(GEQRF_BS(h, (int)m, (int)n, A, (int)lda, &lwork));                   \
        if (!err)                                                                                  \
            err = work_get(x, n, (size_t)(lwork > 0 ? lwork : 1) * sizeof(CT), &w);                \
        if (!err)                                                                                  \
            err = CUSOLVER_OK(GEQRF(h, (int)m, (int)n, A, (int)lda, tau, w, lwork, x->scratch));   \
        if (!err)                                                                                  \
            err = status_to_host(x);                                                               \
        return work_put(x, w, err);                                                                \
    }                                                                                              \
    static int cuda_##P##ormqr(kern_ctx_t *x, tess_side_t side, tess_trans_t trans, int64_t m,     \
                               int64_t n, int64_t k, const void *V, int64_t ldv, const void *tau,  \
                               void *C, int64_t ldc)                                               \
    {                                                                                              \
        cusolverDnHandle_t h;                                                                      \
        int64_t r = side == TessLeft ? m : n;                                                      \
        size_t ubytes = ((size_t)(r * k) * sizeof(CT) + 255) / 256 * 256;                          \
        int lwork = 0;                                                                             \
        void *w = NULL;                                                                            \
        cublasSideMode_t sm = side_mode(side);                                                     \
        cublasOperation_t op = kern_cublas_op(trans);                                              \
        int err = solver(x, &h);                                                                   \
        if (!err)                                                                                  \
            err = CUSOLVER_OK(                                                                     \
                ORMQR_BS(h, sm, op, (int)m, (int)n, (int)k, V, (int)r, tau, C, (int)ldc, &lwork)); \
        if (!err)                                                                                  \
            err = work_get(x, k, ubytes + (size_t)(lwork > 0 ? lwork : 1) * sizeof(CT), &w);       \
        if (!err)                                                                                  \
            err = kern_cuda_unit_lower(TY, x->stream, r, k, V, ldv, w, r);                         \
        if (!err)                                                                                  \
            err = CUSOLVER_OK(ORMQR(h, sm, op, (int)m, (int)n, (int)k, w, (int)r, tau, C,          \
                                    (int)ldc, (CT *)((char *)w + ubytes), lwork, x->scratch));     \
        if (!err)                                                                                  \
            err = status_to_host(x);                                                               \
        return work_put(x, w, err);                                                                \
    }                                                                                              \
    static int cuda_##P##larft(kern_ctx_t *x, int64_t m, int64_t k, const void *V, int64_t ldv,    \
                               const void *tau, void *T, int64_t ldt)                              \
    {                                                                                              \
        return cuda_larft(x, TY, DT, m, k, V, ldv, tau, T, ldt);                                   \
    }                                                                                              \
    static int cuda_##P##larfb(kern_ctx_t *x, tess_trans_t trans, int64_t m, int64_t n, int64_t k, \
                               const void *V, int64_t ldv, const void *T, int64_t ldt, void *C,    \
                               int64_t ldc)                                                        \
    {                                                                                              \
        return cuda_larfb(x, TY, trans, m, n, k, V, ldv, T, ldt, C, ldc);                          \
    }                                                                                              \
    static int cuda_##P##transpose(kern_ctx_t *x, int64_t m, int64_t n, const void *A,             \
                                   int64_t lda, void *B, int64_t ldb)                              \
    {                                                                                              \
        return kern_cuda_transpose(TY, x->stream, m, n, A, lda, B, ldb);                           \
    }

CUDA_QR(s, KERN_S, float, CUDA_R_32F, cusolverDnSgeqrf, cusolverDnSgeqrf_bufferSize,
        cusolverDnSormqr, cusolverDnSormqr_bufferSize)
CUDA_QR(d, KERN_D, double, CUDA_R_64F, cusolverDnDgeqrf, cusolverDnDgeqrf_bufferSize,
        cusolverDnDormqr, cusolverDnDormqr_bufferSize)
CUDA_QR(c, KERN_C, cuComplex, CUDA_C_32F, cusolverDnCgeqrf, cusolverDnCgeqrf_bufferSize,
        cusolverDnCunmqr, cusolverDnCunmqr_bufferSize)
CUDA_QR(z, KERN_Z, cuDoubleComplex, CUDA_C_64F, cusolverDnZgeqrf, cusolverDnZgeqrf_bufferSize,
        cusolverDnZunmqr, cusolverDnZunmqr_bufferSize)

#define CUDA_TABLE(P)                                                                              \
    {                                                                                              \
        .gemm = cuda_##P##gemm, .scal = cuda_##P##scal, .geadd = cuda_##P##geadd,                  \
        .trsm = cuda_##P##trsm, .trmm = cuda_##P##trmm, .symm = cuda_##P##symm,                    \
        .syrk = cuda_##P##syrk, .syr2k = cuda_##P##syr2k, .gemmt = cuda_##P##gemmt,                \
        .scal_tri = cuda_##P##scal_tri, .gemv2 = cuda_##P##gemv2, .potrf = cuda_##P##potrf,        \
        .trtri = cuda_##P##trtri, .lauum = cuda_##P##lauum, .diag_zero = cuda_##P##diag_zero,      \
        .any_nonzero = cuda_##P##any_nonzero, .amax = cuda_##P##amax, .getrf = cuda_##P##getrf,    \
        .laswp = cuda_##P##laswp, .geqrf = cuda_##P##geqrf, .ormqr = cuda_##P##ormqr,              \
        .larft = cuda_##P##larft, .larfb = cuda_##P##larfb, .transpose = cuda_##P##transpose       \
    }

const kern_table_t kern_cuda_table[KERN_NTYPES] = {
    [KERN_S] = CUDA_TABLE(s),
    [KERN_D] = CUDA_TABLE(d),
    [KERN_C] = CUDA_TABLE(c),
    [KERN_Z] = CUDA_TABLE(z),
};
