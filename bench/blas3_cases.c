/* The cases of bench_blas3_cuda (blas3_cases.h). */
#include <float.h>
#include <math.h>
#include <string.h>
#include "bench_cuda_check.h"
#include "bench_util.h"
#include "blas3_cases.h"
#include "tessera.h"

const char *const b3_routine_name[R_COUNT] = { "gemm",  "symm", "syrk", "syr2k",
                                               "gemmt", "trsm", "trmm", "trsm_gemm" };

b3_shapes_t b3_shapes(int r, int64_t m, int64_t n, int64_t k)
{
    switch (r) {
    case R_GEMM: return (b3_shapes_t){ m, k, k, n, m, n };
    case R_SYMM: return (b3_shapes_t){ m, m, m, n, m, n };
    case R_SYRK: return (b3_shapes_t){ n, k, 0, 0, n, n };
    case R_SYR2K:
    case R_GEMMT: return (b3_shapes_t){ n, k, n, k, n, n };
    case R_TRSM: return (b3_shapes_t){ m, m, m, n, 0, 0 };
    case R_TRMM: return (b3_shapes_t){ m, m, m, n, m, n };
    default: /* R_TRSM_GEMM */ return (b3_shapes_t){ m, m, m, n, n, n };
    }
}

bool b3_triangular(int r)
{
    return r == R_TRSM || r == R_TRMM || r == R_TRSM_GEMM;
}

b3_case_t b3_make_case(int r, int64_t p, int64_t q)
{
    b3_case_t c = { .r = r };
    if (r == R_GEMM || r == R_SYRK || r == R_SYR2K || r == R_GEMMT) {
        c.m = c.n = p;
        c.k = q;
    } else { /* symm and the triangular cases: A is m x m */
        c.m = c.k = p;
        c.n = q;
    }
    b3_shapes_t s = b3_shapes(r, c.m, c.n, c.k);
    c.lda = s.ar;
    c.ldb = s.br > 0 ? s.br : 1;
    c.ldc = s.cr > 0 ? s.cr : 1;
    c.d = (double)c.m;
    c.dim = p > q ? p : q;
    return c;
}

/* The same routine cut to at most WARM_DIM per dimension, on the same leading
 * dimensions: a leading submatrix, whose diagonal is still A's (b3_make_case's
 * equal dimensions stay equal). */
b3_case_t b3_warm_case(const b3_case_t *c)
{
    b3_case_t w = *c;
    w.m = c->m < WARM_DIM ? c->m : WARM_DIM;
    w.n = c->n < WARM_DIM ? c->n : WARM_DIM;
    w.k = c->k < WARM_DIM ? c->k : WARM_DIM;
    return w;
}

double b3_flops(const b3_case_t *c)
{
    double m = (double)c->m, n = (double)c->n, k = (double)c->k;
    switch (c->r) {
    case R_GEMM: return 2 * m * n * k;
    case R_SYMM: return 2 * m * m * n;
    case R_SYRK:
    case R_GEMMT: return n * n * k;
    case R_SYR2K: return 2 * n * n * k;
    case R_TRSM:
    case R_TRMM: return m * m * n;
    default: return m * m * n + 2 * n * n * m;
    }
}

static double tri(int64_t x)
{
    return (double)x * (double)(x + 1) / 2;
}

/* The minimum traffic in bytes (header comment): inputs once, outputs once. */
void b3_min_bytes(const b3_case_t *c, double *h2d, double *d2h)
{
    double m = (double)c->m, n = (double)c->n, k = (double)c->k;
    switch (c->r) {
    case R_GEMM:
        *h2d = m * k + k * n;
        *d2h = m * n;
        break;
    case R_SYMM:
        *h2d = tri(c->m) + m * n;
        *d2h = m * n;
        break;
    case R_SYRK:
        *h2d = n * k;
        *d2h = tri(c->n);
        break;
    case R_SYR2K:
    case R_GEMMT:
        *h2d = 2 * n * k;
        *d2h = tri(c->n);
        break;
    case R_TRSM:
    case R_TRMM:
        *h2d = tri(c->m) + m * n;
        *d2h = m * n;
        break;
    default:
        *h2d = tri(c->m) + m * n + n * n;
        *d2h = n * n;
        break;
    }
    *h2d *= sizeof(double);
    *d2h *= sizeof(double);
}

/* The inner dimension, for the checks' tolerance. */
double b3_inner_dim(const b3_case_t *c)
{
    switch (c->r) {
    case R_GEMM:
    case R_SYRK:
    case R_GEMMT: return (double)c->k;
    case R_SYR2K: return 2.0 * (double)c->k;
    case R_TRSM_GEMM: return 2.0 * (double)c->m;
    default: return (double)c->m;
    }
}

void b3_label(const b3_case_t *c, char *buf, size_t size)
{
    snprintf(buf, size, "d%s m=%lld n=%lld k=%lld", b3_routine_name[c->r], (long long)c->m,
             (long long)c->n, (long long)c->k);
}

void b3_tess_call(const b3_case_t *c, double *A, double *B, double *C)
{
    const double one = 1.0, zero = 0.0;
    switch (c->r) {
    case R_GEMM:
        TK(tess_dgemm_async(TessNoTrans, TessNoTrans, c->m, c->n, c->k, one, A, c->lda, B, c->ldb,
                            zero, C, c->ldc));
        TK(tess_memory_coherent_async(TessAll, c->m, c->n, C, c->ldc, sizeof *C));
        break;
    case R_SYMM:
        TK(tess_dsymm_async(TessLeft, TessLower, c->m, c->n, one, A, c->lda, B, c->ldb, zero, C,
                            c->ldc));
        TK(tess_memory_coherent_async(TessAll, c->m, c->n, C, c->ldc, sizeof *C));
        break;
    case R_SYRK:
        TK(tess_dsyrk_async(TessLower, TessNoTrans, c->n, c->k, one, A, c->lda, zero, C, c->ldc));
        TK(tess_memory_coherent_async(TessLowerPart, c->n, c->n, C, c->ldc, sizeof *C));
        break;
    case R_SYR2K:
        TK(tess_dsyr2k_async(TessLower, TessNoTrans, c->n, c->k, one, A, c->lda, B, c->ldb, zero, C,
                             c->ldc));
        TK(tess_memory_coherent_async(TessLowerPart, c->n, c->n, C, c->ldc, sizeof *C));
        break;
    case R_GEMMT:
        TK(tess_dgemmt_async(TessLower, TessNoTrans, TessTrans, c->n, c->k, one, A, c->lda, B,
                             c->ldb, zero, C, c->ldc));
        TK(tess_memory_coherent_async(TessLowerPart, c->n, c->n, C, c->ldc, sizeof *C));
        break;
    case R_TRSM:
        TK(tess_dtrsm_async(TessLeft, TessLower, TessNoTrans, TessNonUnit, c->m, c->n, c->d, A,
                            c->lda, B, c->ldb));
        TK(tess_memory_coherent_async(TessAll, c->m, c->n, B, c->ldb, sizeof *B));
        break;
    case R_TRMM:
        TK(tess_dtrmm_async(TessLeft, TessLower, TessNoTrans, TessNonUnit, c->m, c->n, 1.0 / c->d,
                            A, c->lda, B, c->ldb));
        TK(tess_memory_coherent_async(TessAll, c->m, c->n, B, c->ldb, sizeof *B));
        break;
    default:
        TK(tess_dtrsm_async(TessLeft, TessLower, TessNoTrans, TessNonUnit, c->m, c->n, c->d, A,
                            c->lda, B, c->ldb));
        TK(tess_dgemm_async(TessTrans, TessNoTrans, c->n, c->n, c->m, -one, B, c->ldb, B, c->ldb,
                            one, C, c->ldc));
        TK(tess_memory_coherent_async(TessAll, c->n, c->n, C, c->ldc, sizeof *C));
        break;
    }
    TK(tess_sync());
}

/* cuBLAS-XT on host pointers; it returns when its outputs are on the host. */
void b3_xt_call(cublasXtHandle_t h, const b3_case_t *c, double *A, double *B, double *C)
{
    const double one = 1.0, zero = 0.0, minus = -1.0, d = c->d, dinv = 1.0 / c->d;
    size_t m = (size_t)c->m, n = (size_t)c->n, k = (size_t)c->k;
    size_t lda = (size_t)c->lda, ldb = (size_t)c->ldb, ldc = (size_t)c->ldc;
    switch (c->r) {
    case R_GEMM:
        CB(cublasXtDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, lda, B, ldb, &zero, C,
                         ldc));
        break;
    case R_SYMM:
        CB(cublasXtDsymm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, m, n, &one, A, lda, B, ldb,
                         &zero, C, ldc));
        break;
    case R_SYRK:
        CB(cublasXtDsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, k, &one, A, lda, &zero, C,
                         ldc));
        break;
    case R_SYR2K:
        CB(cublasXtDsyr2k(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, k, &one, A, lda, B, ldb, &zero,
                          C, ldc));
        break;
    case R_GEMMT:
        CB(cublasXtDsyrkx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, k, &one, A, lda, B, ldb, &zero,
                          C, ldc));
        break;
    case R_TRSM:
        CB(cublasXtDtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                         CUBLAS_DIAG_NON_UNIT, m, n, &d, A, lda, B, ldb));
        break;
    case R_TRMM:
        CB(cublasXtDtrmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                         CUBLAS_DIAG_NON_UNIT, m, n, &dinv, A, lda, B, ldb, C, ldc));
        break;
    default:
        CB(cublasXtDtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                         CUBLAS_DIAG_NON_UNIT, m, n, &d, A, lda, B, ldb));
        CB(cublasXtDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, m, &minus, B, ldb, B, ldb, &one, C,
                         ldc));
        break;
    }
}

/* cuBLAS on device pointers, queued on the handle's (default) stream. */
void b3_dev_call(cublasHandle_t h, const b3_case_t *c, double *A, double *B, double *C)
{
    const double one = 1.0, zero = 0.0, minus = -1.0, d = c->d, dinv = 1.0 / c->d;
    int m = (int)c->m, n = (int)c->n, k = (int)c->k;
    int lda = (int)c->lda, ldb = (int)c->ldb, ldc = (int)c->ldc;
    switch (c->r) {
    case R_GEMM:
        CB(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, lda, B, ldb, &zero, C, ldc));
        break;
    case R_SYMM:
        CB(cublasDsymm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, m, n, &one, A, lda, B, ldb,
                       &zero, C, ldc));
        break;
    case R_SYRK:
        CB(cublasDsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, k, &one, A, lda, &zero, C, ldc));
        break;
    case R_SYR2K:
        CB(cublasDsyr2k(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, k, &one, A, lda, B, ldb, &zero,
                        C, ldc));
        break;
    case R_GEMMT:
        CB(cublasDsyrkx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, k, &one, A, lda, B, ldb, &zero,
                        C, ldc));
        break;
    case R_TRSM:
        CB(cublasDtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                       CUBLAS_DIAG_NON_UNIT, m, n, &d, A, lda, B, ldb));
        break;
    case R_TRMM:
        CB(cublasDtrmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                       CUBLAS_DIAG_NON_UNIT, m, n, &dinv, A, lda, B, ldb, C, ldc));
        break;
    default:
        CB(cublasDtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                       CUBLAS_DIAG_NON_UNIT, m, n, &d, A, lda, B, ldb));
        CB(cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, m, &minus, B, ldb, B, ldb, &one, C, ldc));
        break;
    }
}
