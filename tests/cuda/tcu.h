/* Helpers for the device-kernel tests: one test body serves S, D, C and Z.
 *
 * Host matrices are plain arrays of the element type; values travel through
 * the helpers as double _Complex.  Reference results come from the host
 * backend's kernel table (OpenBLAS), so the tests compare Tessera's CUDA
 * kernels with the host BLAS on the same inputs. */
#ifndef TCU_H
#define TCU_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "kern.h"
#include "tessera_cuda.h"

typedef struct {
    kern_type_t t;
    const char *name; /* "s", "d", "c", "z" */
    size_t es;        /* element size in bytes */
    bool cplx;
    double eps; /* machine epsilon of the working precision */
} tcu_type_t;

extern const tcu_type_t tcu_types[KERN_NTYPES];

/* true when a CUDA GPU is usable; tests that need one call skip() otherwise */
bool tcu_have_gpu(void);
#define TCU_REQUIRE_GPU()                                                                          \
    do {                                                                                           \
        if (!tcu_have_gpu())                                                                       \
            skip();                                                                                \
    } while (0)

/* Uniform in [-1, 1] (both parts for complex), from a fixed-seed generator. */
double _Complex tcu_rand(void);
void tcu_seed(uint64_t seed);

void *tcu_alloc(const tcu_type_t *t, int64_t ld, int64_t n); /* ld x n, host */
void *tcu_random(const tcu_type_t *t, int64_t m, int64_t n, int64_t ld, double _Complex pad);
void *tcu_copy(const tcu_type_t *t, const void *A, int64_t ld, int64_t n);
double _Complex tcu_get(const tcu_type_t *t, const void *A, int64_t i, int64_t j, int64_t ld);
void tcu_set(const tcu_type_t *t, void *A, int64_t i, int64_t j, int64_t ld, double _Complex v);
/* The scalar v in the element type, at out. */
void tcu_scalar(const tcu_type_t *t, double _Complex v, void *out);

/* Frobenius norm of the m x n matrix at A; of the difference A - B. */
double tcu_norm(const tcu_type_t *t, const void *A, int64_t m, int64_t n, int64_t ld);
double tcu_diff(const tcu_type_t *t, const void *A, const void *B, int64_t m, int64_t n,
                int64_t ld);
/* Do rows m..ld-1 of each column still hold exactly v (nothing wrote there)? */
bool tcu_pad_intact(const tcu_type_t *t, const void *A, int64_t m, int64_t n, int64_t ld,
                    double _Complex v);

/* Device copies: tcu_to_device allocates and uploads ld x n; tcu_to_host
 * downloads into a host array it allocates. */
void *tcu_to_device(const tcu_type_t *t, const void *A, int64_t ld, int64_t n);
void *tcu_to_host(const tcu_type_t *t, const void *dA, int64_t ld, int64_t n);
void tcu_free_device(void *dA);

/* The public device API of the given precision, scalars as double _Complex. */
int tcu_trsm(const tcu_type_t *t, cudaStream_t s, tess_side_t side, tess_uplo_t uplo,
             tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n, double _Complex alpha,
             const void *dA, int64_t lda, void *dB, int64_t ldb);
int tcu_trmm(const tcu_type_t *t, cudaStream_t s, tess_side_t side, tess_uplo_t uplo,
             tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n, double _Complex alpha,
             const void *dA, int64_t lda, void *dB, int64_t ldb);
int tcu_gemv(const tcu_type_t *t, cudaStream_t s, tess_trans_t trans, int64_t m, int64_t n,
             double _Complex alpha, const void *dA, int64_t lda, const void *dx, int64_t incx,
             double _Complex beta, void *dy, int64_t incy);
int tcu_symv(const tcu_type_t *t, cudaStream_t s, tess_uplo_t uplo, int64_t n,
             double _Complex alpha, const void *dA, int64_t lda, const void *dx, int64_t incx,
             double _Complex beta, void *dy, int64_t incy);

/* A suite's start: TCU_FILTER=pattern runs only the matching tests (cmocka's
 * * and ?), so a slow tool such as compute-sanitizer can take a few small
 * ones; and the host BLAS that the references (kern_host_table) call is
 * opened.  0, or the TESS_E* code of host_blas_open. */
int tcu_start(void);

/* Length in elements of a vector of len entries with increment inc. */
int64_t tcu_vec_span(int64_t len, int64_t inc);

/* One cmocka entry per precision for a test taking its tcu_type_t as state. */
#define PER_TYPE(fn, label)                                                                        \
    { "s" label, fn, NULL, NULL, (void *)&tcu_types[KERN_S] },                                     \
        { "d" label, fn, NULL, NULL, (void *)&tcu_types[KERN_D] },                                 \
        { "c" label, fn, NULL, NULL, (void *)&tcu_types[KERN_C] },                                 \
    {                                                                                              \
        "z" label, fn, NULL, NULL, (void *)&tcu_types[KERN_Z]                                      \
    }

#endif
