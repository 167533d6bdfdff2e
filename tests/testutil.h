/* The test helpers of every suite: the host runtime suites (tests/test_*.c)
 * and the CUDA kernel suites (tests/cuda/, which add tu_cuda.h).  Matrices of
 * any of the four element types, random data, norms and references from the
 * host BLAS, so that each test is written once for S, D, C and Z.  Host
 * matrices are plain column-major arrays of the element type; values travel
 * through the helpers as double _Complex. */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "build_config.h"
#include "tessera.h"

typedef struct {
    const char *name; /* "s", "d", "c", "z" */
    size_t es;        /* element size in bytes */
    bool is_complex;
    double eps; /* machine epsilon of the working precision */
} tu_type_t;

/* s, d, c, z: the order of the kernel tables' kern_type_t (KERN_S to KERN_Z),
 * so that a type's index here also selects its kernel table (tu_cuda.h).  The
 * helpers know a type by its place in this table: pass pointers into it. */
#define TU_NTYPES 4
extern const tu_type_t tu_types[TU_NTYPES];

/* One cmocka entry per precision, named by the type's letter and label, for
 * a test that takes its tu_type_t as state. */
#define TU_PER_TYPE(fn, label)                                                                     \
    { "s" label, fn, NULL, NULL, (void *)&tu_types[0] },                                           \
        { "d" label, fn, NULL, NULL, (void *)&tu_types[1] },                                       \
        { "c" label, fn, NULL, NULL, (void *)&tu_types[2] },                                       \
    {                                                                                              \
        "z" label, fn, NULL, NULL, (void *)&tu_types[3]                                            \
    }

/* Scalars travel as double complex and are narrowed to the type. */
void tu_scalar(const tu_type_t *t, double _Complex v, void *out);
double _Complex tu_get(const tu_type_t *t, const void *A, int64_t i, int64_t j, int64_t ld);
void tu_set(const tu_type_t *t, void *A, int64_t i, int64_t j, int64_t ld, double _Complex v);

/* Random data, uniform in [-1, 1] (both parts for complex), from two fixed
 * generators: tu_matrix draws a whole matrix from its own seed, whatever was
 * drawn before; tu_rand and tu_random draw from one stream, which a test
 * restarts with tu_seed so that its data do not depend on the tests before. */
void *tu_matrix(const tu_type_t *t, int64_t ld, int64_t n, unsigned seed); /* random, ld x n */
void tu_seed(uint64_t seed);
double _Complex tu_rand(void);
/* ld x n: rows 0 to m-1 from tu_rand, the rows below them pad. */
void *tu_random(const tu_type_t *t, int64_t m, int64_t n, int64_t ld, double _Complex pad);

/* ld x n elements (one column when n is 0), uninitialised; tu_copy copies
 * all of such an allocation. */
void *tu_alloc(const tu_type_t *t, int64_t ld, int64_t n);
void *tu_copy(const tu_type_t *t, const void *A, int64_t ld, int64_t n);
void tu_fill(const tu_type_t *t, void *A, int64_t m, int64_t n, int64_t ld, double _Complex v);
/* Frobenius norm of the m x n matrix at A; of the difference A - B.  A NaN
 * anywhere makes the result NaN, which fails every bound check. */
double tu_norm(const tu_type_t *t, const void *A, int64_t m, int64_t n, int64_t ld);
double tu_diff(const tu_type_t *t, const void *A, const void *B, int64_t m, int64_t n, int64_t ld);
bool tu_all_finite(const tu_type_t *t, const void *A, int64_t m, int64_t n, int64_t ld);
/* Whether rows m to ld-1 of each column still hold exactly v (nothing wrote there). */
bool tu_pad_intact(const tu_type_t *t, const void *A, int64_t m, int64_t n, int64_t ld,
                   double _Complex v);

/* Strided vectors: len entries with increment inc, at the multiples of |inc|
 * in an array of tu_vec_span(len, inc) elements.  The elements between the
 * entries hold TU_VEC_GAP, which no routine may write. */
#define TU_VEC_GAP 77.0
int64_t tu_vec_span(int64_t len, int64_t inc);
/* Random entries, or v in each when v is not 0 (NaN, for one): tu_vec draws
 * them as tu_matrix from seed, tu_vec_random from tu_rand's stream. */
void *tu_vec(const tu_type_t *t, int64_t len, int64_t inc, unsigned seed, double _Complex v);
void *tu_vec_random(const tu_type_t *t, int64_t len, int64_t inc, double _Complex v);
bool tu_vec_gaps_intact(const tu_type_t *t, const void *x, int64_t len, int64_t inc);
/* 2-norm of the entries of x; of x - y.  A NaN entry makes the result NaN. */
double tu_vec_norm(const tu_type_t *t, const void *x, int64_t len, int64_t inc);
double tu_vec_diff(const tu_type_t *t, const void *x, const void *y, int64_t len, int64_t inc);
/* A copy of x with zeros for its NaN entries: the y that a host reference
 * gets for beta = 0 over NaN, the same problem without relying on how the
 * host BLAS treats NaN there. */
void *tu_vec_nan_to_zero(const tu_type_t *t, const void *x, int64_t len, int64_t inc);
/* The runtime's tess_memory_coherent_async and tu_release for the vector. */
int tu_vec_coherent_async(const tu_type_t *t, const void *x, int64_t len, int64_t inc);
void tu_vec_release(const tu_type_t *t, void *x, int64_t len, int64_t inc);

int tu_gemm_async(const tu_type_t *t, tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n,
                  int64_t k, double _Complex alpha, const void *A, int64_t lda, const void *B,
                  int64_t ldb, double _Complex beta, void *C, int64_t ldc);
void tu_gemm_ref(const tu_type_t *t, tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n,
                 int64_t k, double _Complex alpha, const void *A, int64_t lda, const void *B,
                 int64_t ldb, double _Complex beta, void *C, int64_t ldc);

/* ||C - Cref||_F / (max(1,k) eps (|alpha| ||A|| ||B|| + |beta| ||C0||)), the
 * normwise GEMM residual; the tests bound it by TU_GEMM_BOUND. */
#define TU_GEMM_BOUND 10.0
double tu_gemm_residual(const tu_type_t *t, int64_t m, int64_t n, int64_t k, double _Complex alpha,
                        double normA, double normB, double _Complex beta, double normC0,
                        const void *C, const void *Cref, int64_t ldc);

/* The symmetric BLAS-3 routines, dispatched on t like tu_gemm_async, and
 * their OpenBLAS references.  herm selects the Hermitian routine (hemm, herk,
 * her2k) for complex types; for real types the two are one routine.  herk's
 * alpha and beta and her2k's beta are real: their real parts are passed. */
int tu_symm_async(const tu_type_t *t, bool herm, tess_side_t side, tess_uplo_t uplo, int64_t m,
                  int64_t n, double _Complex alpha, const void *A, int64_t lda, const void *B,
                  int64_t ldb, double _Complex beta, void *C, int64_t ldc);
void tu_symm_ref(const tu_type_t *t, bool herm, tess_side_t side, tess_uplo_t uplo, int64_t m,
                 int64_t n, double _Complex alpha, const void *A, int64_t lda, const void *B,
                 int64_t ldb, double _Complex beta, void *C, int64_t ldc);
int tu_syrk_async(const tu_type_t *t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n,
                  int64_t k, double _Complex alpha, const void *A, int64_t lda,
                  double _Complex beta, void *C, int64_t ldc);
void tu_syrk_ref(const tu_type_t *t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n,
                 int64_t k, double _Complex alpha, const void *A, int64_t lda, double _Complex beta,
                 void *C, int64_t ldc);
int tu_syr2k_async(const tu_type_t *t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n,
                   int64_t k, double _Complex alpha, const void *A, int64_t lda, const void *B,
                   int64_t ldb, double _Complex beta, void *C, int64_t ldc);
void tu_syr2k_ref(const tu_type_t *t, bool herm, tess_uplo_t uplo, tess_trans_t trans, int64_t n,
                  int64_t k, double _Complex alpha, const void *A, int64_t lda, const void *B,
                  int64_t ldb, double _Complex beta, void *C, int64_t ldc);
int tu_gemmt_async(const tu_type_t *t, tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb,
                   int64_t n, int64_t k, double _Complex alpha, const void *A, int64_t lda,
                   const void *B, int64_t ldb, double _Complex beta, void *C, int64_t ldc);
/* The host BLAS has no GEMMT: a GEMM into a copy of C, of which only the uplo
 * triangle is copied back. */
void tu_gemmt_ref(const tu_type_t *t, tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb, int64_t n,
                  int64_t k, double _Complex alpha, const void *A, int64_t lda, const void *B,
                  int64_t ldb, double _Complex beta, void *C, int64_t ldc);

/* The normwise residual of an update whose error diff = ||C - Cref||_F is
 * known: diff / (max(1,k) eps (|alpha| ||A|| ||B|| + |beta| ||C0||)), as
 * tu_gemm_residual; 0 when diff and the scale are both 0. */
double tu_residual(const tu_type_t *t, double diff, int64_t k, double _Complex alpha, double normA,
                   double normB, double _Complex beta, double normC0);
/* ||A - B||_F over the uplo triangle of n x n matrices, diagonal included. */
double tu_tri_diff(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *A, const void *B,
                   int64_t ld);
/* ||A||_F over the uplo triangle of the n x n A, diagonal included. */
double tu_tri_norm(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *A, int64_t ld);
/* Whether the uplo triangle of the n x n A is finite, diagonal included. */
bool tu_tri_finite(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *A, int64_t ld);
/* ||A||_F of the n x n symmetric (herm: Hermitian) matrix whose uplo triangle
 * is stored at A; the rest of A is never read. */
double tu_sym_norm(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *A, int64_t ld);
/* Fills the strict triangle of the n x n matrix at A opposite to uplo, the
 * part a routine on uplo neither reads nor writes. */
void tu_fill_other_triangle(const tu_type_t *t, tess_uplo_t uplo, int64_t n, void *A, int64_t ld,
                            double _Complex v);
/* Whether the m x n matrices A and B hold the same bits, outside the wm x wn
 * window at (i0, j0) (wm or wn 0: everywhere); NaNs compare by their bits. */
bool tu_same_outside(const tu_type_t *t, const void *A, const void *B, int64_t m, int64_t n,
                     int64_t ld, int64_t i0, int64_t j0, int64_t wm, int64_t wn);
/* Whether the strict triangle opposite to uplo holds the same bits in A and B. */
bool tu_other_triangle_same(const tu_type_t *t, tess_uplo_t uplo, int64_t n, const void *A,
                            const void *B, int64_t ld);
/* Whether every diagonal element of the n x n A has an imaginary part of
 * exactly zero (true for real types). */
bool tu_real_diagonal(const tu_type_t *t, int64_t n, const void *A, int64_t ld);

/* TRSM (solve) or TRMM of the type's precision, scalars as double complex. */
int tu_trsm_async(const tu_type_t *t, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
                  tess_diag_t diag, int64_t m, int64_t n, double _Complex alpha, const void *A,
                  int64_t lda, void *B, int64_t ldb);
int tu_trmm_async(const tu_type_t *t, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
                  tess_diag_t diag, int64_t m, int64_t n, double _Complex alpha, const void *A,
                  int64_t lda, void *B, int64_t ldb);
/* GEMV, and SYMV (real types) or HEMV (complex), of the type's precision,
 * and their OpenBLAS references. */
/* B = alpha A + beta B0 (geadd) element by element within 4 eps (|alpha| |A| + |beta| |B0|),
 * computed in double complex; A or Bv NULL: that matrix (all NaN) taken as 0.  Bv is B0's
 * values, B0 its array as it was (ld ldb): the rows of B past m keep B0's bits. */
void tu_check_geadd(const tu_type_t *t, int64_t m, int64_t n, double _Complex alpha, const void *A,
                    int64_t lda, double _Complex beta, const void *Bv, const void *B0,
                    const void *B, int64_t ldb);
int tu_gemv_async(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n,
                  double _Complex alpha, const void *A, int64_t lda, const void *x, int64_t incx,
                  double _Complex beta, void *y, int64_t incy);
void tu_gemv_ref(const tu_type_t *t, tess_trans_t trans, int64_t m, int64_t n,
                 double _Complex alpha, const void *A, int64_t lda, const void *x, int64_t incx,
                 double _Complex beta, void *y, int64_t incy);
int tu_symv_async(const tu_type_t *t, tess_uplo_t uplo, int64_t n, double _Complex alpha,
                  const void *A, int64_t lda, const void *x, int64_t incx, double _Complex beta,
                  void *y, int64_t incy);
void tu_symv_ref(const tu_type_t *t, tess_uplo_t uplo, int64_t n, double _Complex alpha,
                 const void *A, int64_t lda, const void *x, int64_t incx, double _Complex beta,
                 void *y, int64_t incy);
/* Whether element (i, j) lies in the uplo triangle. */
bool tu_in_triangle(tess_uplo_t uplo, int64_t i, int64_t j);
/* The triangle a TRSM/TRMM call defines from the k x k A (in lda), dense in
 * k x k (ld k): zeros outside it, ones on the diagonal when diag is unit. */
void *tu_tri_dense(const tu_type_t *t, const void *A, int64_t k, int64_t lda, tess_uplo_t uplo,
                   tess_diag_t diag);
/* Bytes of the tiles of a k x k triangle on the nb grid. */
uint64_t tu_triangle_tile_bytes(int64_t k, int64_t nb, tess_uplo_t uplo, size_t es);
/* The runtime's statistics so far: bytes host to device; tasks run on all devices. */
uint64_t tu_h2d_bytes(void);
uint64_t tu_tasks_run(void);

/* Hands host memory back: invalidates the runtime's copies, then frees. */
void tu_release(const tu_type_t *t, void *A, int64_t ld, int64_t n);

/* cmocka group fixtures: host:2 (or TESS_TEST_DEVICES) with nb = TU_NB. */
#define TU_NB 16
int tu_group_setup(void **state);
int tu_group_teardown(void **state);
/* The same devices with the tile size unset (nb 0; meson sets no TESS_NB):
 * each call picks its own tiles, as users' calls do. */
int tu_group_setup_default_nb(void **state);

/* Initialises the runtime on host:ndev with tile size nb and device memory mem
 * (0: default); for cmocka group setups. */
int tu_init_host(int ndev, int64_t nb, size_t mem);

#endif
