/* Tessera: dense BLAS on every device of a server, from host memory.
 *
 * Every *_async call cuts its operation into tile tasks and returns at once.
 * Calls are ordered as submitted.  Outputs are read on the host only after
 * tess_memory_coherent_async() on them and a following tess_sync().
 *
 * Return values: 0 on success; -i when argument i (1-based, reference-BLAS
 * order) is invalid, and then nothing is submitted; a positive TESS_E* code
 * for a runtime error.  An error inside a task is returned by the next
 * tess_sync(); until then the runtime writes nothing more to host memory, so
 * the host keeps what it held when the task failed (but for the tiles
 * straddling a region that tess_memory_invalidate is asked for, written back
 * so that nothing outside it is lost). */
#ifndef TESSERA_H
#define TESSERA_H

#include <stddef.h>
#include <stdint.h>
#include <complex.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define TESS_API __attribute__((visibility("default")))
#else
#define TESS_API
#endif

/* The enums carry CBLAS's numeric values, so CBLAS constants can be passed. */
typedef enum { TessNoTrans = 111, TessTrans = 112, TessConjTrans = 113 } tess_trans_t;
typedef enum { TessUpper = 121, TessLower = 122 } tess_uplo_t;
typedef enum { TessNonUnit = 131, TessUnit = 132 } tess_diag_t;
typedef enum { TessLeft = 141, TessRight = 142 } tess_side_t;
typedef enum { TessAll = 0, TessUpperPart = 121, TessLowerPart = 122 } tess_part_t;

/* The error codes and their messages (tess_strerror), one list. */
#define TESS_ERRNO_MAP(X)                                                                          \
    X(SUCCESS, 0, "success")                                                                       \
    X(ENOTINIT, 1, "the runtime is not initialised (tess_init not called, or finalized)")          \
    X(EINIT, 2, "the runtime is already initialised")                                              \
    X(ENOMEM, 3,                                                                                   \
      "out of memory that eviction cannot cure (a task's tiles exceed one device's memory or "     \
      "2^31 - 1 rows or columns, or an operand exceeds the address space)")                        \
    X(EDEVICE, 4, "a device or its library reported a failure")                                    \
    X(ECONFIG, 5, "invalid configuration (tess_config_t field or TESS_* variable)")                \
    X(ENODEV, 6, "the requested devices do not exist or are not built in")                         \
    X(ENOTREG, 7, "the memory was not registered with tess_memory_register_async")                 \
    X(EINTERNAL, 8, "internal error (a bug in Tessera)")

enum {
#define TESS_ERRNO_ENUM(name, value, message) TESS_##name = value,
    TESS_ERRNO_MAP(TESS_ERRNO_ENUM)
#undef TESS_ERRNO_ENUM
};

#define TESS_MAX_DEVICES 16

/* Zero or NULL fields take the TESS_* environment variable, then the default. */
typedef struct {
    const char *devices;    /* TESS_DEVICES: "auto", "cuda", "cuda:0,2", "host:N" */
    int64_t nb;             /* TESS_NB: tile size */
    double cache_fraction;  /* TESS_CACHE_FRACTION: share of free GPU memory for the cache */
    size_t host_device_mem; /* TESS_HOST_DEVICE_MEM: bytes per simulated host device */
    const char *trace;      /* TESS_TRACE: Chrome trace written at tess_finalize */
    int verbose;            /* TESS_VERBOSE: statistics printed at tess_finalize */
    int window;         /* TESS_WINDOW: default-size tiles' worth of tasks in flight, 1 to 32 (8) */
    size_t cache_bytes; /* TESS_CACHE_BYTES: each GPU's cache in bytes, in place of the share */
} tess_config_t;

typedef struct {
    int ndevices;
    int64_t nb; /* the largest tile a call takes: TESS_NB, or the devices' default */
    uint64_t bytes_h2d, bytes_d2h, bytes_d2d;
    uint64_t tasks[TESS_MAX_DEVICES];  /* tasks run per device */
    uint64_t steals[TESS_MAX_DEVICES]; /* tasks taken from another device's queue */
    double busy_s[TESS_MAX_DEVICES];   /* seconds spent in kernels per device */
    uint64_t cache_hits, cache_misses; /* per tile access on a device */
    uint64_t evictions, writebacks;    /* writebacks: dirty tiles copied to the host */
} tess_stats_t;

TESS_API int tess_init(const tess_config_t *cfg);
/* Waits for every task, releases everything and returns what tess_sync
 * would.  A call in progress in another thread when it begins completes
 * first; a call made once it has begun returns TESS_ENOTINIT. */
TESS_API int tess_finalize(void);
TESS_API int tess_sync(void);
TESS_API const char *tess_strerror(int err);

/* BLAS-3, column-major, host pointers, one declaration per routine for the
 * four precisions: P is s, d, c, z; T float, double, float _Complex, double
 * _Complex; R the real type of T.  Real types take ConjTrans as Trans. */
#define TESS_BLAS3_DECL(P, T, R)                                                                   \
    /* C = alpha op(A) op(B) + beta C */                                                           \
    TESS_API int tess_##P##gemm_async(tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n,      \
                                      int64_t k, T alpha, const T *A, int64_t lda, const T *B,     \
                                      int64_t ldb, T beta, T *C, int64_t ldc);                     \
    /* C = alpha A B + beta C (side left) or alpha B A + beta C (right), A symmetric, only its  \
     * uplo triangle read */  \
    TESS_API int tess_##P##symm_async(tess_side_t side, tess_uplo_t uplo, int64_t m, int64_t n,    \
                                      T alpha, const T *A, int64_t lda, const T *B, int64_t ldb,   \
                                      T beta, T *C, int64_t ldc);                                  \
    /* C = alpha op(A) op(A)^T + beta C, only C's uplo triangle read and written; op(A) is     \
     * n x k (trans NoTrans) or A^T (Trans; ConjTrans only for real types) */   \
    TESS_API int tess_##P##syrk_async(tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k,  \
                                      T alpha, const T *A, int64_t lda, T beta, T *C,              \
                                      int64_t ldc);                                                \
    /* C = alpha op(A) op(B)^T + alpha op(B) op(A)^T + beta C, C's uplo triangle only */           \
    TESS_API int tess_##P##syr2k_async(tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k, \
                                       T alpha, const T *A, int64_t lda, const T *B, int64_t ldb,  \
                                       T beta, T *C, int64_t ldc);                                 \
    /* C = alpha op(A) op(B) + beta C on C's uplo triangle only (n x n); the other triangle    \
     * is never written */   \
    TESS_API int tess_##P##gemmt_async(tess_uplo_t uplo, tess_trans_t ta, tess_trans_t tb,         \
                                       int64_t n, int64_t k, T alpha, const T *A, int64_t lda,     \
                                       const T *B, int64_t ldb, T beta, T *C, int64_t ldc);        \
    /* B = alpha op(A)^-1 B (side left) or alpha B op(A)^-1 (right), A triangular, in place */     \
    TESS_API int tess_##P##trsm_async(tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,      \
                                      tess_diag_t diag, int64_t m, int64_t n, T alpha, const T *A, \
                                      int64_t lda, T *B, int64_t ldb);                             \
    /* B = alpha op(A) B (side left) or alpha B op(A) (right), A triangular, in place */           \
    TESS_API int tess_##P##trmm_async(tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,      \
                                      tess_diag_t diag, int64_t m, int64_t n, T alpha, const T *A, \
                                      int64_t lda, T *B, int64_t ldb);

/* The Hermitian routines, complex types only: as symm, syrk and syr2k with
 * A^H for A^T (herk, her2k: trans NoTrans or ConjTrans), real alpha (herk)
 * and beta (herk, her2k); the imaginary parts of C's diagonal become zero. */
#define TESS_BLAS3_HERM_DECL(P, T, R)                                                              \
    TESS_API int tess_##P##hemm_async(tess_side_t side, tess_uplo_t uplo, int64_t m, int64_t n,    \
                                      T alpha, const T *A, int64_t lda, const T *B, int64_t ldb,   \
                                      T beta, T *C, int64_t ldc);                                  \
    TESS_API int tess_##P##herk_async(tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k,  \
                                      R alpha, const T *A, int64_t lda, R beta, T *C,              \
                                      int64_t ldc);                                                \
    TESS_API int tess_##P##her2k_async(tess_uplo_t uplo, tess_trans_t trans, int64_t n, int64_t k, \
                                       T alpha, const T *A, int64_t lda, const T *B, int64_t ldb,  \
                                       R beta, T *C, int64_t ldc);

TESS_BLAS3_DECL(s, float, float)
TESS_BLAS3_DECL(d, double, double)
TESS_BLAS3_DECL(c, float _Complex, float)
TESS_BLAS3_DECL(z, double _Complex, double)
TESS_BLAS3_HERM_DECL(c, float _Complex, float)
TESS_BLAS3_HERM_DECL(z, double _Complex, double)

/* BLAS-2, column-major, host pointers, as BLAS-3: P, T, R as for TESS_BLAS3_DECL.
 * Vectors take reference BLAS's increments: a negative one walks the vector from
 * its far end (element 0 at x + (len - 1) |inc|); zero is invalid.  A matrix
 * stays on the devices between calls, so repeated products with it read it
 * from device memory.  Real types take ConjTrans as Trans. */
#define TESS_BLAS2_DECL(P, T, R)                                                                   \
    /* y = alpha op(A) x + beta y, A m x n: x n long and y m long (trans NoTrans), else x m    \
     * and y n long */   \
    TESS_API int tess_##P##gemv_async(tess_trans_t trans, int64_t m, int64_t n, T alpha,           \
                                      const T *A, int64_t lda, const T *x, int64_t incx, T beta,   \
                                      T *y, int64_t incy);

/* y = alpha A x + beta y, A n x n symmetric (NAME symv: s, d) or Hermitian (hemv:
 * c, z), only its uplo triangle read (of a Hermitian diagonal, the real parts). */
#define TESS_BLAS2_SYMV_DECL(P, NAME, T)                                                           \
    TESS_API int tess_##P##NAME##_async(tess_uplo_t uplo, int64_t n, T alpha, const T *A,          \
                                        int64_t lda, const T *x, int64_t incx, T beta, T *y,       \
                                        int64_t incy);

TESS_BLAS2_DECL(s, float, float)
TESS_BLAS2_DECL(d, double, double)
TESS_BLAS2_DECL(c, float _Complex, float)
TESS_BLAS2_DECL(z, double _Complex, double)
TESS_BLAS2_SYMV_DECL(s, symv, float)
TESS_BLAS2_SYMV_DECL(d, symv, double)
TESS_BLAS2_SYMV_DECL(c, hemv, float _Complex)
TESS_BLAS2_SYMV_DECL(z, hemv, double _Complex)

/* The Cholesky family, column-major, host pointers, as BLAS-3: P, T, R as for
 * TESS_BLAS3_DECL; complex types are Hermitian.  Only the uplo triangle of A
 * is read or written; the other triangle is never touched.  Argument errors
 * return -i in reference LAPACK's numbering (a NULL info at its own
 * position).  *info belongs to the call until the next tess_sync, which
 * finds it written: 0, or k > 0 as LAPACK reports it (potrf, posv: the
 * leading minor of order k is not positive definite; trtri, potri: A(k,k) is
 * exactly zero).  After a failed potrf the leading minor of order k - 1
 * holds its factor, the columns (rows, for Upper) of the tiles before k's the
 * finished factor, and no later step runs; posv then leaves B untouched;
 * trtri and potri, as LAPACK's, leave A untouched.  Calls chained after a
 * failed one run on what A holds. */
#define TESS_LAPACK_DECL(P, T, R)                                                                  \
    /* A = L L^H (uplo Lower) or U^H U (Upper), in place */                                        \
    TESS_API int tess_##P##potrf_async(tess_uplo_t uplo, int64_t n, T *A, int64_t lda,             \
                                       int64_t *info);                                             \
    /* B = A^-1 B with A's factor from potrf; B is n x nrhs */                                     \
    TESS_API int tess_##P##potrs_async(tess_uplo_t uplo, int64_t n, int64_t nrhs, const T *A,      \
                                       int64_t lda, T *B, int64_t ldb);                            \
    /* potrf, then potrs when it succeeded (B untouched otherwise) */                              \
    TESS_API int tess_##P##posv_async(tess_uplo_t uplo, int64_t n, int64_t nrhs, T *A,             \
                                      int64_t lda, T *B, int64_t ldb, int64_t *info);              \
    /* A = A^-1, A triangular, in place */                                                         \
    TESS_API int tess_##P##trtri_async(tess_uplo_t uplo, tess_diag_t diag, int64_t n, T *A,        \
                                       int64_t lda, int64_t *info);                                \
    /* A = L^H L (Lower) or U U^H (Upper) on the triangle, in place */                             \
    TESS_API int tess_##P##lauum_async(tess_uplo_t uplo, int64_t n, T *A, int64_t lda);            \
    /* A = A^-1 from potrf's factor (trtri then lauum), in place */                                \
    TESS_API int tess_##P##potri_async(tess_uplo_t uplo, int64_t n, T *A, int64_t lda,             \
                                       int64_t *info);                                             \
    /* A = P L U, m x n (any shape), in place; ipiv 1-based as LAPACK's */                         \
    /* (row i swapped with ipiv[i - 1]); ipiv and *info written by the next tess_sync */           \
    TESS_API int tess_##P##getrf_async(int64_t m, int64_t n, T *A, int64_t lda, int64_t *ipiv,     \
                                       int64_t *info);                                             \
    /* op(A) X = B with getrf's factors; B is n x nrhs */                                          \
    TESS_API int tess_##P##getrs_async(tess_trans_t trans, int64_t n, int64_t nrhs, const T *A,    \
                                       int64_t lda, const int64_t *ipiv, T *B, int64_t ldb);       \
    /* getrf, then getrs when it succeeded (B untouched otherwise) */                              \
    TESS_API int tess_##P##gesv_async(int64_t n, int64_t nrhs, T *A, int64_t lda, int64_t *ipiv,   \
                                      T *B, int64_t ldb, int64_t *info);                           \
    /* LAPACK's laswp: rows k1..k2 of A's n columns (A is lda x n) interchanged */                 \
    /* as ipiv says; incx as LAPACK's (negative: in reverse; |incx| > 1 strides) */                \
    TESS_API int tess_##P##laswp_async(int64_t n, T *A, int64_t lda, int64_t k1, int64_t k2,       \
                                       const int64_t *ipiv, int64_t incx);

TESS_LAPACK_DECL(s, float, float)
TESS_LAPACK_DECL(d, double, double)
TESS_LAPACK_DECL(c, float _Complex, float)
TESS_LAPACK_DECL(z, double _Complex, double)

/* QR and least squares, column-major, host pointers, in LAPACK's representation: after geqrf
 * A holds R on and above its diagonal and the Householder vectors below it, tau their
 * min(m, n) scalars, so that the host LAPACK's ?orgqr/?ungqr and ?ormqr/?unmqr read them, and
 * Tessera's ormqr/unmqr reads the host LAPACK's.  Argument errors return -i in LAPACK's
 * numbering (a NULL operand or info at its own position), nothing submitted.  tau and *info
 * belong to the call until the next tess_sync, which finds them written. */
#define TESS_QR_DECL(P, T, R)                                                                      \
    /* A = Q R, A m x n */                                                                         \
    TESS_API int tess_##P##geqrf_async(int64_t m, int64_t n, T *A, int64_t lda, T *tau);           \
    /* least squares (op(A) has at least as many rows as columns) or minimum norm solutions of  \
     * op(A) X = B, as LAPACK's ?gels: trans NoTrans, or Trans (s, d) or ConjTrans (c, z); B is  \
     * max(m, n) x nrhs and holds X; for a least-squares problem its rows after X hold the part  \
     * whose norm is the residual's.  *info = i when the i-th diagonal element of the           \
     * triangular factor is exactly zero (A has not full rank; X is not computed), except that  \
     * A = 0 gives X = 0 and *info = 0, as LAPACK's; A and B whose largest elements lie beyond  \
     * LAPACK's safe range are scaled into it first and X back after, as LAPACK's; A holds the  \
     * factorization (of A so scaled), ?geqrf's for m >= n and ?gelqf's for m < n. */  \
    TESS_API int tess_##P##gels_async(tess_trans_t trans, int64_t m, int64_t n, int64_t nrhs,      \
                                      T *A, int64_t lda, T *B, int64_t ldb, int64_t *info);

/* C = op(Q) C (side Left, Q of order m) or C op(Q) (Right, order n), C m x n, Q = H_1 ... H_k
 * from geqrf's first k reflectors (below A's diagonal, which with what is above it is never
 * read) and tau: NAME ormqr (s, d: trans NoTrans or Trans) or unmqr (c, z: NoTrans or
 * ConjTrans). */
#define TESS_ORMQR_DECL(P, NAME, T)                                                                \
    TESS_API int tess_##P##NAME##_async(tess_side_t side, tess_trans_t trans, int64_t m,           \
                                        int64_t n, int64_t k, const T *A, int64_t lda,             \
                                        const T *tau, T *C, int64_t ldc);

TESS_QR_DECL(s, float, float)
TESS_QR_DECL(d, double, double)
TESS_QR_DECL(c, float _Complex, float)
TESS_QR_DECL(z, double _Complex, double)
TESS_ORMQR_DECL(s, ormqr, float)
TESS_ORMQR_DECL(d, ormqr, double)
TESS_ORMQR_DECL(c, unmqr, float _Complex)
TESS_ORMQR_DECL(z, unmqr, double _Complex)

/* The host copy of the m x n matrix at A (or its upper/lower part) is valid
 * after the next tess_sync(); device copies stay valid for later calls. */
TESS_API int tess_memory_coherent_async(tess_part_t part, int64_t m, int64_t n, const void *A,
                                        int64_t lda, size_t elsize);
/* The host copy of the region becomes the only valid one: call it before the
 * host writes there.  Waits for the tasks submitted so far; dirty tiles that
 * lie wholly inside the region are discarded, tiles that straddle its border
 * are written back first so that nothing outside the region is lost. */
TESS_API int tess_memory_invalidate(int64_t m, int64_t n, const void *A, int64_t lda,
                                    size_t elsize);
/* The host wrote behind the runtime's back: every device copy is dropped. */
TESS_API int tess_memory_invalidate_all(void);
/* Page-locks bytes at p, in the background, so that copies from and to it run
 * at the link's rate; pageable memory is copied through staging buffers. */
TESS_API int tess_memory_register_async(void *p, size_t bytes);
/* Unlocks the range registered at p once it has been unregistered as often
 * as registered: waits for the tasks submitted so far, whose copies may use
 * it.  TESS_ENOTREG when none is. */
TESS_API int tess_memory_unregister(void *p);
TESS_API int tess_get_stats(tess_stats_t *s);

#ifdef __cplusplus
}
#endif
#endif
