/* The cases of bench_blas3_cuda: each routine's call on Tessera, cuBLAS-XT
 * and device cuBLAS, its flops and minimum transfers (the driver's header
 * comment gives the counts), and the check of Tessera's output on sampled
 * entries. */
#ifndef BLAS3_CASES_H
#define BLAS3_CASES_H

#include <cublasXt.h>
#include <cublas_v2.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WARM_DIM 4096 /* warm-up cases are cut to this */
#define NSAMPLE 64
#define NUPPER 16

enum { R_GEMM, R_SYMM, R_SYRK, R_SYR2K, R_GEMMT, R_TRSM, R_TRMM, R_TRSM_GEMM, R_COUNT };
extern const char *const b3_routine_name[R_COUNT];

/* One benchmarked call: the routine, its dimensions and leading dimensions
 * (the packed ones, or a warm-up's cut of them), and the triangular cases'
 * diagonal d. */
typedef struct {
    int r;
    int64_t m, n, k;
    int64_t lda, ldb, ldc;
    double d;
    int64_t dim; /* the largest dimension: the size group */
} b3_case_t;

/* Rows and columns of A, B, C (0 x 0 where the routine has no such operand;
 * trmm's C is the peers' out-of-place output). */
typedef struct {
    int64_t ar, ac, br, bc, cr, cc;
} b3_shapes_t;

b3_shapes_t b3_shapes(int r, int64_t m, int64_t n, int64_t k);
bool b3_triangular(int r);
b3_case_t b3_make_case(int r, int64_t p, int64_t q);
/* The same routine cut to at most WARM_DIM per dimension, on the same leading
 * dimensions. */
b3_case_t b3_warm_case(const b3_case_t *c);
double b3_flops(const b3_case_t *c);
/* The minimum traffic in bytes: inputs once, outputs once. */
void b3_min_bytes(const b3_case_t *c, double *h2d, double *d2h);
/* The inner dimension, for the checks' tolerance. */
double b3_inner_dim(const b3_case_t *c);
void b3_label(const b3_case_t *c, char *buf, size_t size);

/* The call on host data through Tessera (asynchronous calls, the output made
 * coherent, one sync), blocking through cuBLAS-XT, and on device data through
 * cuBLAS (queued on the handle's stream). */
void b3_tess_call(const b3_case_t *c, double *A, double *B, double *C);
void b3_xt_call(cublasXtHandle_t h, const b3_case_t *c, double *A, double *B, double *C);
void b3_dev_call(cublasHandle_t h, const b3_case_t *c, double *A, double *B, double *C);

/* What the check needs from before Tessera's last run: sampled output entries
 * (i, j) and, where the output overwrites its input, the input there. */
typedef struct {
    int ns;
    int64_t i[NSAMPLE], j[NSAMPLE];
    double before[NSAMPLE]; /* trsm: B(i, j); trsm_gemm: C(i, j) */
    double *cols;           /* trmm: B(:, j) per sample; trsm_gemm: B(:, cols3[c]) */
    int64_t cols3[3];
    int nup; /* syrk, syr2k, gemmt: C's upper entries, to stay unchanged */
    int64_t ui[NUPPER], uj[NUPPER];
    double up[NUPPER];
} b3_snap_t;

/* Before Tessera's last run; b3_snap_check after it: the worst scaled error
 * of the sampled entries (INFINITY when an upper entry changed). */
void b3_snap_take(const b3_case_t *c, const double *B, const double *C, b3_snap_t *s);
double b3_snap_check(const b3_case_t *c, const double *A, const double *B, const double *C,
                     const b3_snap_t *s);

#endif
