/* Shared test helpers: matrices of any of the four element types, their
 * norms, and a reference GEMM from the host BLAS, so that each test is
 * written once for S, D, C and Z. */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "tessera.h"

typedef struct {
    const char *name;
    size_t es;
    bool is_complex;
    double eps;
} tu_type_t;

extern const tu_type_t tu_types[4];    /* s, d, c, z */

/* Scalars travel as double complex and are narrowed to the type. */
void tu_scalar(const tu_type_t *t, double _Complex v, void *out);

void *tu_matrix(const tu_type_t *t, int64_t ld, int64_t n, unsigned seed);  /* random, ld x n */
void *tu_copy(const tu_type_t *t, const void *A, int64_t ld, int64_t n);
void tu_fill(const tu_type_t *t, void *A, int64_t m, int64_t n, int64_t ld, double _Complex v);
double tu_norm(const tu_type_t *t, const void *A, int64_t m, int64_t n, int64_t ld);
double tu_diff(const tu_type_t *t, const void *A, const void *B, int64_t m, int64_t n, int64_t ld);
bool tu_all_finite(const tu_type_t *t, const void *A, int64_t m, int64_t n, int64_t ld);
double _Complex tu_get(const tu_type_t *t, const void *A, int64_t i, int64_t j, int64_t ld);
void tu_set(const tu_type_t *t, void *A, int64_t i, int64_t j, int64_t ld, double _Complex v);

int tu_gemm_async(const tu_type_t *t, tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n,
                  int64_t k, double _Complex alpha, const void *A, int64_t lda, const void *B,
                  int64_t ldb, double _Complex beta, void *C, int64_t ldc);
void tu_gemm_ref(const tu_type_t *t, tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n,
                 int64_t k, double _Complex alpha, const void *A, int64_t lda, const void *B,
                 int64_t ldb, double _Complex beta, void *C, int64_t ldc);

/* ||C - Cref||_F / (max(1,k) eps (|alpha| ||A|| ||B|| + |beta| ||C0||)), the
 * normwise GEMM residual; the tests bound it by TU_GEMM_BOUND. */
#define TU_GEMM_BOUND 10.0
double tu_gemm_residual(const tu_type_t *t, int64_t m, int64_t n, int64_t k,
                        double _Complex alpha, double normA, double normB,
                        double _Complex beta, double normC0, const void *C, const void *Cref,
                        int64_t ldc);

/* Hands host memory back: invalidates the runtime's copies, then frees. */
void tu_release(const tu_type_t *t, void *A, int64_t ld, int64_t n);

/* cmocka group fixtures: host:2 (or TESS_TEST_DEVICES) with nb = TU_NB. */
#define TU_NB 16
int tu_group_setup(void **state);
int tu_group_teardown(void **state);

/* Initialises the runtime on host:ndev with tile size nb and device memory mem
 * (0: default); for cmocka group setups. */
int tu_init_host(int ndev, int64_t nb, size_t mem);

#endif
