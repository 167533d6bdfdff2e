/* What runs on one device: a table of tile kernels per element type.
 *
 * The runtime calls kernels only through these tables, so each backend (host,
 * cuda) supplies one table per precision and the algorithms never name a
 * precision.  Scalars are passed by address in the table's element type.
 * Every entry returns 0 or a positive TESS_E* code. */
#ifndef KERN_H
#define KERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tessera.h"

typedef enum { KERN_S, KERN_D, KERN_C, KERN_Z, KERN_NTYPES } kern_type_t;

/* The most kernel calls a caller keeps queued on one device and thread before it waits
 * for the oldest to complete: a kernel's per-call state in flight (an info on its way to
 * the host) is reused no sooner than this many calls later. */
#define KERN_MAX_PENDING 32

/* The transposition a kernel of type t is given: real types have no
 * conjugate, so every entry point passes ConjTrans on as Trans for them and
 * no kernel needs a mapping of its own for real data. */
static inline tess_trans_t kern_trans(kern_type_t t, tess_trans_t trans)
{
    return (t == KERN_S || t == KERN_D) && trans == TessConjTrans ? TessTrans : trans;
}

/* LAPACK's rules that a tile algorithm (lapack/) and a whole-matrix call on one
 * device (the legacy library's GPU path) share.  POTRS solves with A's factor
 * L (A's lower triangle, or U^H for Upper), then with L^H: the transposition
 * of A's stored triangle in the first (second) solve. */
static inline tess_trans_t kern_potrs_trans(kern_type_t t, tess_uplo_t uplo, bool second)
{
    bool plain = (uplo == TessLower) != second;
    return plain ? TessNoTrans : kern_trans(t, TessConjTrans);
}

/* TRTRI checks the diagonal for an exact zero before it inverts anything, as
 * LAPACK does, unless the diagonal is unit; POTRI inverts a non-unit factor. */
static inline bool kern_trtri_checks(tess_diag_t diag)
{
    return diag == TessNonUnit;
}

/* A backend's execution context: for CUDA a stream and its cuBLAS handle;
 * the host backend passes NULL. */
typedef struct kern_ctx kern_ctx_t;

typedef struct {
    /* C = alpha op(A) op(B) + beta C; beta == 0 never reads C */
    int (*gemm)(kern_ctx_t *ctx, tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n, int64_t k,
                const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
                const void *beta, void *C, int64_t ldc);
    /* C = beta C; beta == 0 sets C to zero without reading it */
    int (*scal)(kern_ctx_t *ctx, int64_t m, int64_t n, const void *beta, void *C, int64_t ldc);
    /* B = alpha A + beta B, m x n, A and B not overlapping; alpha == 0 never reads A, beta ==
     * 0 never reads B (the reduction of BLAS-2 partial sums, in a fixed order) */
    int (*geadd)(kern_ctx_t *ctx, int64_t m, int64_t n, const void *alpha, const void *A,
                 int64_t lda, const void *beta, void *B, int64_t ldb);
    /* C = alpha A B + beta C (side left) or alpha B A + beta C (right); A symmetric, or
     * Hermitian when herm, only its uplo triangle read */
    int (*symm)(kern_ctx_t *ctx, bool herm, tess_side_t side, tess_uplo_t uplo, int64_t m,
                int64_t n, const void *alpha, const void *A, int64_t lda, const void *B,
                int64_t ldb, const void *beta, void *C, int64_t ldc);
    /* C's uplo triangle = alpha op(A) op(A)^T + beta C, k > 0.  herm: ^H for ^T, alpha and
     * beta real, the imaginary parts of C's diagonal set to zero. */
    int (*syrk)(kern_ctx_t *ctx, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n,
                int64_t k, const void *alpha, const void *A, int64_t lda, const void *beta, void *C,
                int64_t ldc);
    /* C's uplo triangle = alpha op(A) op(B)^T + alpha op(B) op(A)^T + beta C, k > 0.  herm:
     * ^H for ^T, conj(alpha) on the second product, beta real, C's diagonal real. */
    int (*syr2k)(kern_ctx_t *ctx, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n,
                 int64_t k, const void *alpha, const void *A, int64_t lda, const void *B,
                 int64_t ldb, const void *beta, void *C, int64_t ldc);
    /* C's uplo triangle = alpha op(A) op(B) + beta C, n x n; the other triangle is never
     * written */
    int (*gemmt)(kern_ctx_t *ctx, tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb, int64_t n,
                 int64_t k, const void *alpha, const void *A, int64_t lda, const void *B,
                 int64_t ldb, const void *beta, void *C, int64_t ldc);
    /* C's uplo triangle = beta C (beta == 0: zero, C not read); herm: beta real and the
     * imaginary parts of the diagonal set to zero */
    int (*scal_tri)(kern_ctx_t *ctx, bool herm, tess_uplo_t uplo, int64_t n, const void *beta,
                    void *C, int64_t ldc);
    /* B = alpha op(A)^-1 B or alpha B op(A)^-1, in place */
    int (*trsm)(kern_ctx_t *ctx, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
                tess_diag_t diag, int64_t m, int64_t n, const void *alpha, const void *A,
                int64_t lda, void *B, int64_t ldb);
    /* B = alpha op(A) B or alpha B op(A), in place */
    int (*trmm)(kern_ctx_t *ctx, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
                tess_diag_t diag, int64_t m, int64_t n, const void *alpha, const void *A,
                int64_t lda, void *B, int64_t ldb);
    /* One tile's share of a GEMV or SYMV/HEMV: both products of the m x n tile A from one
     * read of it,
     *   y1 = alpha A x2 + beta1 y1   (y1, x1: m long)
     *   y2 = alpha op(A) x1 + beta2 y2   (y2, x2: n long), op(A) = A^T, or A^H when herm;
     * a NULL y is not computed and its x not read; beta 0 does not read y.  part
     * TessUpperPart or TessLowerPart: A is a diagonal tile (m == n), symmetric (Hermitian
     * when herm, complex types only) and stored in that triangle, which alone is read (of a
     * Hermitian diagonal, the real parts); y1 = alpha A x2 + beta1 y1 with that matrix, y2
     * NULL.  Increments as gemv's.  The sums run in an order fixed by the arguments and the
     * device model, never by timing, so that results repeat bit for bit. */
    int (*gemv2)(kern_ctx_t *ctx, tess_part_t part, bool herm, int64_t m, int64_t n,
                 const void *alpha, const void *A, int64_t lda, const void *x1, int64_t incx1,
                 const void *x2, int64_t incx2, const void *beta1, void *y1, int64_t incy1,
                 const void *beta2, void *y2, int64_t incy2);
    /* The diagonal tiles of the Cholesky family, in place on the n x n A's uplo triangle, the
     * other triangle never read nor written; complex types Hermitian.  An info is a global
     * column index: when the tile fails at its local column i (1-based), offset + i is stored
     * to *info (kern_info_store) by the time the work queued on ctx has completed; *info is
     * left as it is otherwise. */
    /* A = L L^H (Lower) or U^H U (Upper); fails where a leading minor is not positive
     * definite */
    int (*potrf)(kern_ctx_t *ctx, tess_uplo_t uplo, int64_t n, void *A, int64_t lda, int64_t *info,
                 int64_t offset);
    /* Fails at the first exactly zero element of the diagonal, nothing written */
    int (*diag_zero)(kern_ctx_t *ctx, int64_t n, const void *A, int64_t lda, int64_t *info,
                     int64_t offset);
    /* Fails (offset + 1) when the m x n A holds an element that is not zero, either part of a
     * complex one, nothing written: GELS's test for A = 0 */
    int (*any_nonzero)(kern_ctx_t *ctx, int64_t m, int64_t n, const void *A, int64_t lda,
                       int64_t *info, int64_t offset);
    /* *amax = the larger of *amax and the largest modulus of the m x n A's elements, NaN once
     * either is NaN, by the time the work queued on ctx has completed: GELS's max-norms of A and
     * B (LAPACK's ?lange 'M'), which decide its scaling */
    int (*amax)(kern_ctx_t *ctx, int64_t m, int64_t n, const void *A, int64_t lda, double *amax);
    /* A = A^-1, A triangular; fails where a diagonal element is exactly zero (never with diag
     * unit, whose diagonal is not read) */
    int (*trtri)(kern_ctx_t *ctx, tess_uplo_t uplo, tess_diag_t diag, int64_t n, void *A,
                 int64_t lda, int64_t *info, int64_t offset);
    /* A = L^H L (Lower) or U U^H (Upper), L or U the triangle; a Hermitian result's diagonal
     * is real */
    int (*lauum)(kern_ctx_t *ctx, tess_uplo_t uplo, int64_t n, void *A, int64_t lda);
    /* LU with partial pivoting.  getrf: the m x n A = P L U in place, as LAPACK's; ipiv[i] =
     * offset + the (1-based, local) row that row i + 1 was interchanged with, i < min(m, n).
     * Where U's diagonal first holds an exact zero, at local column i (1-based), the
     * factorization still completes and offset + i is stored to *info as above, the smallest
     * failure kept (kern_info_store). */
    int (*getrf)(kern_ctx_t *ctx, int64_t m, int64_t n, void *A, int64_t lda, int64_t *ipiv,
                 int64_t *info, int64_t offset);
    /* laswp: rows k1 to k2 (1-based) of the m x n A interchanged one after another, row
     * k1 + i with row ipiv[i] (1-based): from k1 up when forward, from k2 down otherwise; a
     * pivot outside 1..m (bad input: LAPACK would write outside A) is not applied. */
    int (*laswp)(kern_ctx_t *ctx, int64_t m, int64_t n, void *A, int64_t lda, int64_t k1,
                 int64_t k2, const int64_t *ipiv, bool forward);
    /* QR's panels and updates (lapack/qr.c), in LAPACK's representation. */
    /* A = Q R, m x n, as LAPACK's ?geqrf: R on and above the diagonal, the reflectors below
     * it, their min(m, n) scalars in tau */
    int (*geqrf)(kern_ctx_t *ctx, int64_t m, int64_t n, void *A, int64_t lda, void *tau);
    /* C = op(Q) C (side Left) or C op(Q) (Right), C m x n, as LAPACK's ?ormqr/?unmqr: Q from
     * the k reflectors stored below the diagonal of V (m x k for Left, n x k for Right) and
     * tau; trans NoTrans or ConjTrans (Trans for real types).  V's diagonal and what is above
     * it are never read (they may hold anything) and V is never written, not even for a
     * moment, so that tasks may read it at the same time. */
    int (*ormqr)(kern_ctx_t *ctx, tess_side_t side, tess_trans_t trans, int64_t m, int64_t n,
                 int64_t k, const void *V, int64_t ldv, const void *tau, void *C, int64_t ldc);
    /* The block reflector H = H_1 ... H_k = I - V T V^H of the k reflectors below the
     * diagonal of the m x k V (m >= k) and tau: T, k x k upper triangular, as LAPACK's ?larft
     * (forward, columnwise); V as for ormqr.  GEQRF's panel makes it once for every update. */
    int (*larft)(kern_ctx_t *ctx, int64_t m, int64_t k, const void *V, int64_t ldv, const void *tau,
                 void *T, int64_t ldt);
    /* C = op(H) C, C m x n (m >= k), H from larft's T: LAPACK's ?larfb (side Left, forward,
     * columnwise), two GEMMs and three TRMMs with a k x n workspace; trans NoTrans or
     * ConjTrans (Trans for real types); V as for ormqr. */
    int (*larfb)(kern_ctx_t *ctx, tess_trans_t trans, int64_t m, int64_t n, int64_t k,
                 const void *V, int64_t ldv, const void *T, int64_t ldt, void *C, int64_t ldc);
    /* B = A^H (A^T for real types), A m x n, B n x m; A and B do not overlap (GELS's QR of
     * A^H for m < n, and its copy back as LAPACK's LQ representation) */
    int (*transpose)(kern_ctx_t *ctx, int64_t m, int64_t n, const void *A, int64_t lda, void *B,
                     int64_t ldb);
} kern_table_t;

/* A tile's failure at global column col stored to *info, atomically: the smallest failure is
 * kept (LAPACK reports the first). */
static inline void kern_info_store(int64_t *info, int64_t col)
{
    int64_t cur = __atomic_load_n(info, __ATOMIC_ACQUIRE);
    while ((cur <= 0 || cur > col) &&
           !__atomic_compare_exchange_n(info, &cur, col, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        ;
}

/* A GEMMT of n x n computed by halves: the off-diagonal block is one GEMM of
 * tab, the diagonal halves recurse, and blocks of at most leaf rows go to
 * leaf_fn (a GEMMT of its own that writes only its triangle).  es: the
 * element size of tab's type.  Both backends build their gemmt on it. */
int kern_gemmt_recursive(const kern_table_t *tab, size_t es, int64_t leaf,
                         int (*leaf_fn)(kern_ctx_t *, tess_uplo_t, tess_trans_t, tess_trans_t,
                                        int64_t, int64_t, const void *, const void *, int64_t,
                                        const void *, int64_t, const void *, void *, int64_t),
                         kern_ctx_t *ctx, tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb,
                         int64_t n, int64_t k, const void *alpha, const void *A, int64_t lda,
                         const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc);

/* LAUUM of n x n by halves, for a backend with no LAUUM of its own: with A = [A11; A21 A22]
 * (Lower), A11 = lauum(A11) + A21^H A21 (syrk), A21 = A22^H A21 (trmm), A22 = lauum(A22);
 * blocks of at most leaf rows go to leaf_fn.  Upper is the transpose. */
int kern_lauum_recursive(const kern_table_t *tab, size_t es, bool complex_type, int64_t leaf,
                         int (*leaf_fn)(kern_ctx_t *, tess_uplo_t, int64_t, void *, int64_t),
                         kern_ctx_t *ctx, tess_uplo_t uplo, int64_t n, void *A, int64_t lda);

/* The host backend's kernels, on OpenBLAS, indexed by kern_type_t. */
extern const kern_table_t kern_host_table[KERN_NTYPES];

#endif
