/* Recursive TRSM and TRMM on one GPU, in place (Charara, Ltaief, Keyes).
 *
 * The triangular dimension k is split at the largest power of two below it
 * (half of it when k is one), so that every leaf but the last is full and the
 * off-diagonal products are large GEMMs; cuBLAS does those, and the leaf
 * kernel finishes the diagonal blocks of up to two leaf tiles (the bottom
 * level's product included).  Nothing the size of B is allocated.
 *
 * With T = op(A) on the side of B, call "first" the half of B that the other
 * half depends on: the top rows when T is lower (side left), the left columns
 * when T is upper (side right), and the other half otherwise.  Then
 *   solve:     first := T11^-1 alpha first;  second := alpha second - T21 first;
 *              second := T22^-1 second
 *   multiply:  second := alpha T22 second + alpha T21 first;  first := alpha T11 first
 * where T21 is op() of A's off-diagonal block, on the side of B it acts from.
 *
 * Every leaf but a call's first is launched to overlap the product before it
 * (programmatic dependent launch): it stages its tiles of A, which nothing in
 * the call writes, while that product ends, then waits for it before reading
 * B.  That saves each leaf most of its start-up, which matters with few
 * right-hand sides (BENCHMARKS.md). */
#include "blas_dispatch.cuh"
#include "check.cuh"
#include "scalar.cuh"
#include "trxm_leaf.cuh"

namespace
{

struct trxm_case {
    cublasHandle_t h;
    cudaStream_t s;
    bool solve;
    tess_side_t side;
    tess_uplo_t uplo;
    tess_trans_t trans;
    tess_diag_t diag;
};

/* Largest power of two strictly below k (k >= 2). */
int64_t split_point(int64_t k)
{
    int64_t p = 1;
    while (2 * p < k)
        p *= 2;
    return p;
}

/* overlap: the kernel queued before this part's first is the call's own
 * product, which never writes A (true for all but the call's first leaf). */
template <class T>
int trxm_rec(const trxm_case &c, int64_t m, int64_t n, T alpha, const T *A, int64_t lda, T *B,
             int64_t ldb, bool overlap)
{
    const bool left = c.side == TessLeft;
    const int64_t k = left ? m : n;
    if (k <= kern_leaf_max<T>())
        return kern_trxm_leaf<T>(c.s, c.solve, c.side, c.uplo, c.trans, c.diag, k, left ? n : m,
                                 alpha, A, lda, B, ldb, overlap);

    const int64_t k1 = split_point(k), k2 = k - k1;
    const bool lower = c.uplo == TessLower;
    /* does the top/left half of B come first: is T lower (left) or upper (right) */
    const bool forward = lower != (left ? c.trans != TessNoTrans : c.trans == TessNoTrans);
    const T *A11 = A, *A22 = A + k1 + k1 * lda;
    const T *Aoff = lower ? A + k1 : A + k1 * lda;
    T *B1 = B, *B2 = left ? B + k1 : B + k1 * ldb;

    const T *Af = forward ? A11 : A22, *As = forward ? A22 : A11;
    T *Bf = forward ? B1 : B2, *Bs = forward ? B2 : B1;
    const int64_t kf = forward ? k1 : k2, ks = forward ? k2 : k1;
    const int64_t mf = left ? kf : m, nf = left ? n : kf;
    const int64_t ms = left ? ks : m, ns = left ? n : ks;

    /* second = ga * T21 first + gb * second */
    auto update = [&](T ga, T gb) -> int {
        const cublasOperation_t op = kern_cublas_op(c.trans);
        if (left)
            CUBLAS_TRY(
                kern_gemm(c.h, op, CUBLAS_OP_N, ks, n, kf, ga, Aoff, lda, Bf, ldb, gb, Bs, ldb));
        else
            CUBLAS_TRY(
                kern_gemm(c.h, CUBLAS_OP_N, op, m, ks, kf, ga, Bf, ldb, Aoff, lda, gb, Bs, ldb));
        return 0;
    };

    int err;
    if (c.solve) {
        const T minus_one = kfms(kone<T>(), kone<T>(), kzero<T>());
        if ((err = trxm_rec(c, mf, nf, alpha, Af, lda, Bf, ldb, overlap)) ||
            (err = update(minus_one, alpha)) ||
            (err = trxm_rec(c, ms, ns, kone<T>(), As, lda, Bs, ldb, true)))
            return err;
    } else {
        if ((err = trxm_rec(c, ms, ns, alpha, As, lda, Bs, ldb, overlap)) ||
            (err = update(alpha, kone<T>())) ||
            (err = trxm_rec(c, mf, nf, alpha, Af, lda, Bf, ldb, true)))
            return err;
    }
    return 0;
}

template <class T>
int trxm_typed(trxm_case c, int64_t m, int64_t n, const void *alpha_p, const void *A, int64_t lda,
               void *B, int64_t ldb)
{
    const T alpha = *static_cast<const T *>(alpha_p);
    if (kis_zero(alpha)) {
        /* reference BLAS: B = 0 without reading it, so NaNs in B do not survive */
        CUDA_TRY(cudaMemset2DAsync(B, (size_t)ldb * sizeof(T), 0, (size_t)m * sizeof(T), (size_t)n,
                                   c.s));
        return 0;
    }
    int err = kern_cublas_bind(&c.h, c.s);
    if (err)
        return err;
    return trxm_rec<T>(c, m, n, alpha, static_cast<const T *>(A), lda, static_cast<T *>(B), ldb,
                       false);
}

int trxm(bool solve, kern_type_t t, cublasHandle_t h, cudaStream_t s, tess_side_t side,
         tess_uplo_t uplo, tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n,
         const void *alpha, const void *A, int64_t lda, void *B, int64_t ldb)
{
    if (m == 0 || n == 0)
        return 0;
    trxm_case c = { h, s, solve, side, uplo, trans, diag };
    return kern_by_type(
        t, [&](auto z) { return trxm_typed<decltype(z)>(c, m, n, alpha, A, lda, B, ldb); });
}

} // namespace

extern "C" int kern_cuda_trsm(kern_type_t t, cublasHandle_t h, cudaStream_t s, tess_side_t side,
                              tess_uplo_t uplo, tess_trans_t trans, tess_diag_t diag, int64_t m,
                              int64_t n, const void *alpha, const void *A, int64_t lda, void *B,
                              int64_t ldb)
{
    return trxm(true, t, h, s, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
}

extern "C" int kern_cuda_trmm(kern_type_t t, cublasHandle_t h, cudaStream_t s, tess_side_t side,
                              tess_uplo_t uplo, tess_trans_t trans, tess_diag_t diag, int64_t m,
                              int64_t n, const void *alpha, const void *A, int64_t lda, void *B,
                              int64_t ldb)
{
    return trxm(false, t, h, s, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
}
