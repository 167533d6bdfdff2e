/* The device side of the test helpers (testutil.h), for the CUDA kernel
 * suites: device copies of host matrices, the public device API dispatched on
 * the type, and a suite's start.  Reference results come from the host
 * backend's kernel table (kern_host_table, OpenBLAS), compiled into this
 * library, so the suites compare Tessera's CUDA kernels with the host BLAS on
 * the same inputs. */
#ifndef TU_CUDA_H
#define TU_CUDA_H

#include "testutil.h"
#include "kern.h"
#include "tessera_cuda.h"

/* t's kernel table, of the same index as t in tu_types. */
kern_type_t tu_kern(const tu_type_t *t);

/* true when a CUDA GPU is usable; tests that need one call skip() otherwise */
bool tu_have_gpu(void);
#define TU_REQUIRE_GPU()                                                                           \
    do {                                                                                           \
        if (!tu_have_gpu())                                                                        \
            skip();                                                                                \
    } while (0)

/* Device copies: tu_to_device allocates and uploads ld x n; tu_to_host
 * downloads into a host array it allocates. */
void *tu_to_device(const tu_type_t *t, const void *A, int64_t ld, int64_t n);
void *tu_to_host(const tu_type_t *t, const void *dA, int64_t ld, int64_t n);
void tu_free_device(void *dA);

/* The public device API of the given precision, scalars as double _Complex. */
int tu_cuda_trsm(const tu_type_t *t, cudaStream_t s, tess_side_t side, tess_uplo_t uplo,
                 tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n, double _Complex alpha,
                 const void *dA, int64_t lda, void *dB, int64_t ldb);
int tu_cuda_trmm(const tu_type_t *t, cudaStream_t s, tess_side_t side, tess_uplo_t uplo,
                 tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n, double _Complex alpha,
                 const void *dA, int64_t lda, void *dB, int64_t ldb);
int tu_cuda_gemv(const tu_type_t *t, cudaStream_t s, tess_trans_t trans, int64_t m, int64_t n,
                 double _Complex alpha, const void *dA, int64_t lda, const void *dx, int64_t incx,
                 double _Complex beta, void *dy, int64_t incy);
int tu_cuda_symv(const tu_type_t *t, cudaStream_t s, tess_uplo_t uplo, int64_t n,
                 double _Complex alpha, const void *dA, int64_t lda, const void *dx, int64_t incx,
                 double _Complex beta, void *dy, int64_t incy);

/* A suite's start: TCU_FILTER=pattern runs only the matching tests (cmocka's
 * * and ?), so a slow tool such as compute-sanitizer can take a few small
 * ones; and the host BLAS that the references (kern_host_table) call is
 * opened.  0, or the TESS_E* code of host_blas_open. */
int tu_cuda_start(void);

#endif
