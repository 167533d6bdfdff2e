/* Tessera's one-GPU kernels against cuBLAS on the same device data.
 *
 *   bench_kernels [OUTDIR]      writes OUTDIR/bench_kernels.csv (default ".")
 *   bench_kernels OUTDIR GROUP  only the target cases of one group, a
 *                               quick check (sweep.sh): ceil (DGEMM, copy),
 *                               trxm, gemv, symv; or trmm, trsm (DTRMM's
 *                               or DTRSM's leaf alone and whole calls, both
 *                               sides)
 *
 * Every timing is the median of several runs between CUDA events, after a
 * warm-up run, Tessera's runs alternating with cuBLAS's (time_libs), and with
 * the case's own ceiling where it has one (a "gemm" or "read" row after the
 * case's): cuBLAS DGEMM of the same shape for square TRSM/TRMM cases in
 * double, a plain read of as many bytes for GEMV/SYMV/HEMV; a ceiling's row
 * gives its time and rate in the cuBLAS columns.  Each run
 * starts from an idle stream with the L2 cache emptied of the operands, and
 * in-place routines get their input restored first (all untimed); a run of
 * the smallest cases is 16 calls in a row (job_t.inner), of which only the
 * first starts cold.  Operands come from one arena of 9 GiB, never freed
 * (dalloc).  cuBLAS TRMM is out of place (its only form), Tessera's in place.
 * Rates: TRSM/TRMM m^2 n (left) or m n^2 (right) flops, x4 for complex;
 * GEMM 2 m n k; GEMV m n elements and SYMV n(n+1)/2 elements read, in bytes;
 * the copy counts bytes read plus bytes written. */
#include <cublas_v2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_fill.h"
#include "tessera_cuda.h"

typedef struct {
    char p; /* s, d, c, z */
    int cplx;
    int isf; /* single precision */
    size_t es;
} btype_t;
static const btype_t TS = { 's', 0, 1, 4 }, TD = { 'd', 0, 0, 8 }, TC = { 'c', 1, 1, 8 },
                     TZ = { 'z', 1, 0, 16 };

static cublasHandle_t cub;
static cudaStream_t st;
static cudaEvent_t ev0, ev1;
static FILE *csv;
static char devname[256];
static void *l2_evictor; /* zeros, twice the L2 cache */
static size_t l2_evictor_bytes;

static void die(const char *what)
{
    fprintf(stderr, "bench_kernels: %s failed\n", what);
    exit(1);
}
#define CK(x) ((x) == cudaSuccess ? (void)0 : die(#x))
#define CB(x) ((x) == CUBLAS_STATUS_SUCCESS ? (void)0 : die(#x))
#define TK(x) ((x) == 0 ? (void)0 : die(#x))

/* One benchmarked operation: arguments for either library. */
typedef struct {
    const btype_t *t;
    int routine; /* R_* */
    tess_side_t side;
    tess_uplo_t uplo;
    tess_trans_t trans;
    int64_t m, n;
    void *A, *B, *C, *Bsave, *x, *y;
    int inner; /* calls between the two events (0 or 1: one); the time is per call */
} job_t;
enum { R_TRSM, R_TRMM, R_GEMV, R_SYMV, R_GEMM, R_COPY };

static const cuDoubleComplex zone = { 1.0, 0.0 }, zhalf = { 0.5, 0.0 };
static const cuComplex cone = { 1.0f, 0.0f }, chalf = { 0.5f, 0.0f };
static const double done = 1.0, dhalf = 0.5;
static const float sone = 1.0f, shalf = 0.5f;

static const void *one_of(const btype_t *t)
{
    return t == &TS   ? (const void *)&sone
           : t == &TD ? (const void *)&done
           : t == &TC ? (const void *)&cone
                      : (const void *)&zone;
}
static const void *half_of(const btype_t *t)
{
    return t == &TS   ? (const void *)&shalf
           : t == &TD ? (const void *)&dhalf
           : t == &TC ? (const void *)&chalf
                      : (const void *)&zhalf;
}

static cublasSideMode_t cside(tess_side_t s)
{
    return s == TessLeft ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
}
static cublasFillMode_t cuplo(tess_uplo_t u)
{
    return u == TessLower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
}
static cublasOperation_t cop(tess_trans_t t)
{
    return t == TessNoTrans ? CUBLAS_OP_N : t == TessTrans ? CUBLAS_OP_T : CUBLAS_OP_C;
}

static void run_tessera(const job_t *j)
{
    const int64_t m = j->m, n = j->n, k = j->side == TessLeft ? m : n;
    const tess_diag_t dg = TessNonUnit;
    switch (j->routine) {
    case R_TRSM:
    case R_TRMM: {
        const int s = j->routine == R_TRSM;
        switch (j->t->p) {
        case 's':
            TK((s ? tess_cuda_strsm : tess_cuda_strmm)(st, j->side, j->uplo, j->trans, dg, m, n,
                                                       1.0f, j->A, k, j->B, m));
            break;
        case 'd':
            TK((s ? tess_cuda_dtrsm : tess_cuda_dtrmm)(st, j->side, j->uplo, j->trans, dg, m, n,
                                                       1.0, j->A, k, j->B, m));
            break;
        case 'c':
            TK((s ? tess_cuda_ctrsm : tess_cuda_ctrmm)(st, j->side, j->uplo, j->trans, dg, m, n,
                                                       1.0f, j->A, k, j->B, m));
            break;
        default:
            TK((s ? tess_cuda_ztrsm : tess_cuda_ztrmm)(st, j->side, j->uplo, j->trans, dg, m, n,
                                                       1.0, j->A, k, j->B, m));
            break;
        }
        break;
    }
    case R_GEMV:
        switch (j->t->p) {
        case 's':
            TK(tess_cuda_sgemv(st, j->trans, m, n, 1.0f, j->A, m, j->x, 1, 0.5f, j->y, 1));
            break;
        case 'd':
            TK(tess_cuda_dgemv(st, j->trans, m, n, 1.0, j->A, m, j->x, 1, 0.5, j->y, 1));
            break;
        case 'c':
            TK(tess_cuda_cgemv(st, j->trans, m, n, 1.0f, j->A, m, j->x, 1, 0.5f, j->y, 1));
            break;
        default:
            TK(tess_cuda_zgemv(st, j->trans, m, n, 1.0, j->A, m, j->x, 1, 0.5, j->y, 1));
            break;
        }
        break;
    case R_SYMV:
        switch (j->t->p) {
        case 's': TK(tess_cuda_ssymv(st, j->uplo, n, 1.0f, j->A, n, j->x, 1, 0.5f, j->y, 1)); break;
        case 'd': TK(tess_cuda_dsymv(st, j->uplo, n, 1.0, j->A, n, j->x, 1, 0.5, j->y, 1)); break;
        case 'c': TK(tess_cuda_chemv(st, j->uplo, n, 1.0f, j->A, n, j->x, 1, 0.5f, j->y, 1)); break;
        default: TK(tess_cuda_zhemv(st, j->uplo, n, 1.0, j->A, n, j->x, 1, 0.5, j->y, 1)); break;
        }
        break;
    default: die("run_tessera: routine");
    }
}

static void run_cublas(const job_t *j)
{
    const int64_t m = j->m, n = j->n, k = j->side == TessLeft ? m : n;
    const cublasDiagType_t dg = CUBLAS_DIAG_NON_UNIT;
    const void *one = one_of(j->t), *half = half_of(j->t);
    const cublasSideMode_t sd = cside(j->side);
    const cublasFillMode_t ul = cuplo(j->uplo);
    const cublasOperation_t op = cop(j->trans);
    switch (j->routine) {
    case R_TRSM:
        switch (j->t->p) {
        case 's': CB(cublasStrsm(cub, sd, ul, op, dg, m, n, one, j->A, k, j->B, m)); break;
        case 'd': CB(cublasDtrsm(cub, sd, ul, op, dg, m, n, one, j->A, k, j->B, m)); break;
        case 'c': CB(cublasCtrsm(cub, sd, ul, op, dg, m, n, one, j->A, k, j->B, m)); break;
        default: CB(cublasZtrsm(cub, sd, ul, op, dg, m, n, one, j->A, k, j->B, m)); break;
        }
        break;
    case R_TRMM:
        switch (j->t->p) {
        case 's': CB(cublasStrmm(cub, sd, ul, op, dg, m, n, one, j->A, k, j->B, m, j->C, m)); break;
        case 'd': CB(cublasDtrmm(cub, sd, ul, op, dg, m, n, one, j->A, k, j->B, m, j->C, m)); break;
        case 'c': CB(cublasCtrmm(cub, sd, ul, op, dg, m, n, one, j->A, k, j->B, m, j->C, m)); break;
        default: CB(cublasZtrmm(cub, sd, ul, op, dg, m, n, one, j->A, k, j->B, m, j->C, m)); break;
        }
        break;
    case R_GEMV:
        switch (j->t->p) {
        case 's': CB(cublasSgemv(cub, op, m, n, one, j->A, m, j->x, 1, half, j->y, 1)); break;
        case 'd': CB(cublasDgemv(cub, op, m, n, one, j->A, m, j->x, 1, half, j->y, 1)); break;
        case 'c': CB(cublasCgemv(cub, op, m, n, one, j->A, m, j->x, 1, half, j->y, 1)); break;
        default: CB(cublasZgemv(cub, op, m, n, one, j->A, m, j->x, 1, half, j->y, 1)); break;
        }
        break;
    case R_SYMV:
        switch (j->t->p) {
        case 's': CB(cublasSsymv(cub, ul, n, one, j->A, n, j->x, 1, half, j->y, 1)); break;
        case 'd': CB(cublasDsymv(cub, ul, n, one, j->A, n, j->x, 1, half, j->y, 1)); break;
        case 'c': CB(cublasChemv(cub, ul, n, one, j->A, n, j->x, 1, half, j->y, 1)); break;
        default: CB(cublasZhemv(cub, ul, n, one, j->A, n, j->x, 1, half, j->y, 1)); break;
        }
        break;
    case R_GEMM:
        CB(cublasDgemm(cub, CUBLAS_OP_N, CUBLAS_OP_N, m, n, m, one, j->A, m, j->B, m, one, j->C,
                       m));
        break;
    case R_COPY:
        CK(cudaMemcpyAsync(j->C, j->B, (size_t)(m * n) * j->t->es, cudaMemcpyDeviceToDevice, st));
        break;
    }
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* What a run of a case runs: Tessera's routine, cuBLAS's, or the case's own
 * ceiling (run_case_ceiling). */
enum { LIB_TESSERA, LIB_CUBLAS, LIB_CEILING, NLIBS };

/* The libraries a case times: the first two, or all three (with its
 * ceiling); the run's ceilings time cuBLAS alone. */
static const int CASE_LIBS[NLIBS] = { LIB_TESSERA, LIB_CUBLAS, LIB_CEILING };
static const int CUBLAS_ONLY[1] = { LIB_CUBLAS };

/* Bytes of A that a GEMV or SYMV/HEMV case reads. */
static size_t blas2_bytes(const job_t *j)
{
    const double elems =
        j->routine == R_GEMV ? (double)j->m * (double)j->n : (double)j->n * (double)(j->n + 1) / 2;
    return (size_t)elems * j->t->es;
}

/* A case's own ceiling, on its operands.  TRSM/TRMM: cuBLAS DGEMM of its
 * shape, C += A B (side left, m x m times m x n) or C += B A (side right,
 * m x n times n x n).  GEMV/SYMV: A's first blas2_bytes read front to back,
 * as many bytes as the case reads without its access pattern (a SYMV reads
 * one triangle, column by column): what reading them could cost at best. */
static void run_case_ceiling(const job_t *j)
{
    const int64_t m = j->m, n = j->n;
    if (j->routine == R_GEMV || j->routine == R_SYMV)
        TK(bench_read_async(j->A, blas2_bytes(j), st));
    else if (j->side == TessLeft)
        CB(cublasDgemm(cub, CUBLAS_OP_N, CUBLAS_OP_N, m, n, m, &done, j->A, m, j->Bsave, m, &done,
                       j->C, m));
    else
        CB(cublasDgemm(cub, CUBLAS_OP_N, CUBLAS_OP_N, m, n, n, &done, j->Bsave, m, j->A, n, &done,
                       j->C, m));
}

/* Milliseconds of one run (inner calls, per call) of lib (LIB_*), from an
 * idle stream and an L2 cache holding nothing of the operands (so that no
 * run gains from what the one before it left there). */
static double run_once(const job_t *j, int lib)
{
    if (j->Bsave)
        CK(cudaMemcpyAsync(j->B, j->Bsave, (size_t)(j->m * j->n) * j->t->es,
                           cudaMemcpyDeviceToDevice, st));
    TK(bench_evict_l2(l2_evictor, l2_evictor_bytes, st));
    const int inner = j->inner > 1 ? j->inner : 1;
    CK(cudaEventRecord(ev0, st));
    for (int i = 0; i < inner; i++) {
        if (lib == LIB_TESSERA)
            run_tessera(j);
        else if (lib == LIB_CUBLAS)
            run_cublas(j);
        else
            run_case_ceiling(j);
    }
    CK(cudaEventRecord(ev1, st));
    CK(cudaEventSynchronize(ev1));
    float ms;
    CK(cudaEventElapsedTime(&ms, ev0, ev1));
    return ms / inner;
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof t[0], cmp_double);
    return t[n / 2];
}

#define MAX_REPS 32

/* ms[l] = median milliseconds of reps runs of libs[l] (LIB_*), l < nlibs,
 * after one warm-up each, the runs alternating (ABBA, ABCCBA), so that
 * whatever drifts during a case meets every library alike. */
static void time_libs(const job_t *j, int reps, const int *libs, int nlibs, double *ms)
{
    double t[NLIBS][MAX_REPS];
    if (reps > MAX_REPS || nlibs > NLIBS)
        die("time_libs (too many runs or libraries)");
    for (int l = 0; l < nlibs; l++)
        run_once(j, libs[l]);
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < nlibs; i++) {
            const int l = r % 2 == 0 ? i : nlibs - 1 - i;
            t[l][r] = run_once(j, libs[l]);
        }
    for (int l = 0; l < nlibs; l++)
        ms[l] = median(t[l], reps);
}

/* Every case takes its operands from one device arena, taken once and
 * emptied after the case: freeing gigabytes leaves the device slower for a
 * while (DSYMV 8192 on an H200 right after an 8.6 GB cudaFree: 79-82 us for
 * Tessera and 94-96 for cuBLAS; 71-72 and 90 with nothing freed, or after
 * 50 ms asleep), which would land in the next case's timings. */
static char *arena;
static const size_t arena_size = (size_t)9 << 30; /* the largest case: 8.6 GB */
static size_t arena_used;

static void *dalloc(size_t bytes)
{
    const size_t at = (arena_used + 255) & ~(size_t)255;
    if (at + bytes > arena_size)
        die("dalloc (the arena is too small for this case)");
    arena_used = at + bytes;
    return arena + at;
}

static void dfree_all(void)
{
    arena_used = 0;
}

/* Random matrix of ld x n elements; diagonal-dominant when diag != 0. */
static void *dmatrix(const btype_t *t, int64_t ld, int64_t n, uint64_t seed, double scale,
                     double diag)
{
    void *p = dalloc((size_t)(ld * n) * t->es);
    TK(bench_fill(p, (size_t)(ld * n) * (t->cplx ? 2 : 1), seed, scale, t->isf));
    if (diag != 0)
        TK(bench_add_diag(p, n < ld ? n : ld, ld, diag, t->cplx ? 2 : 1, t->isf));
    return p;
}

static void report(const char *routine, const job_t *j, const char *unit, double work,
                   double tess_ms, double cub_ms)
{
    const char *cs = j->routine == R_TRSM || j->routine == R_TRMM || j->routine == R_GEMM
                         ? (j->side == TessLeft ? "L" : "R")
                         : "-";
    const char *cu = j->routine == R_GEMV ? "-" : (j->uplo == TessLower ? "L" : "U");
    const char *ct = j->routine == R_SYMV      ? "-"
                     : j->trans == TessNoTrans ? "N"
                     : j->trans == TessTrans   ? "T"
                                               : "C";
    const double tr = tess_ms > 0 ? work / (tess_ms * 1e-3) : 0;
    const double cr = work / (cub_ms * 1e-3);
    printf("%-6s %c %s%s%s %6lld %6lld | %9.3f %9.3f | %8.2f %8.2f %-7s | %5.2fx\n", routine,
           j->t->p, cs, cu, ct, (long long)j->m, (long long)j->n, tess_ms, cub_ms, tr, cr, unit,
           tess_ms > 0 ? cub_ms / tess_ms : 0);
    fprintf(csv, "\"%s\",%s,%c,%s,%s,%s,%lld,%lld,%s,%.6f,%.6f,%.4f,%.4f,%.4f\n", devname, routine,
            j->t->p, cs, cu, ct, (long long)j->m, (long long)j->n, unit, tess_ms, cub_ms, tr, cr,
            tess_ms > 0 ? cub_ms / tess_ms : 0);
    fflush(stdout);
    fflush(csv);
}

static double trxm_flops(const job_t *j)
{
    const double k = (double)(j->side == TessLeft ? j->m : j->n);
    return k * k * (double)(j->side == TessLeft ? j->n : j->m) * (j->t->cplx ? 4 : 1);
}

/* Runs of each library in a DTRSM/DTRMM case at 16384^2: with 5, the ratio
 * of the medians moved between processes by up to 6%. */
enum { SQUARE_REPS = 9 };

/* TRSM or TRMM, Tessera in place against cuBLAS on the same A and B.  A
 * square case in double also times cuBLAS DGEMM of its shape, its runs among
 * the case's (a "gemm" row after the case's): the ceiling that the case's
 * share of DGEMM is taken against, under the same load.  The run's first
 * DGEMM, on an idle device (bench_ceilings), is faster: BENCHMARKS.md gives
 * both. */
static void bench_trxm(const btype_t *t, int routine, tess_side_t side, tess_uplo_t uplo,
                       tess_trans_t trans, int64_t m, int64_t n, int reps, int inner)
{
    const int64_t k = side == TessLeft ? m : n;
    const int with_gemm = t == &TD && m == n;
    job_t j = { t, routine, side, uplo, trans, m, n, NULL, NULL, NULL, NULL, NULL, NULL, inner };
    j.A = dmatrix(t, k, k, 1, 1.0 / (double)k, 2.0);
    j.Bsave = dmatrix(t, m, n, 2, 1.0, 0);
    j.B = dalloc((size_t)(m * n) * t->es);
    if (routine == R_TRMM)
        j.C = dalloc((size_t)(m * n) * t->es);
    else if (with_gemm)
        j.C = dmatrix(t, m, n, 8, 1.0, 0); /* the DGEMM's C, filled as bench_gemm's */
    fprintf(stderr, "  %s %c side=%d uplo=%d trans=%d m=%lld n=%lld\n",
            routine == R_TRSM ? "trsm" : "trmm", t->p, side, uplo, trans, (long long)m,
            (long long)n);
    double ms[NLIBS];
    time_libs(&j, reps, CASE_LIBS, with_gemm ? 3 : 2, ms);
    report(routine == R_TRSM ? "trsm" : "trmm", &j, "TFLOP/s", trxm_flops(&j) * 1e-12,
           ms[LIB_TESSERA], ms[LIB_CUBLAS]);
    if (with_gemm) {
        job_t g = j;
        g.routine = R_GEMM;
        report("gemm", &g, "TFLOP/s", 2.0 * (double)m * (double)n * (double)k * 1e-12, 0,
               ms[LIB_CEILING]);
    }
    dfree_all();
}

/* GEMV (sym = 0) or SYMV/HEMV on one n x n (m x n) matrix. */
static void bench_blas2(const btype_t *t, int routine, tess_trans_t trans, tess_uplo_t uplo,
                        int64_t m, int64_t n, int reps)
{
    job_t j = { t, routine, TessLeft, uplo, trans, m, n, NULL, NULL, NULL, NULL, NULL, NULL, 1 };
    j.A = dmatrix(t, m, n, 3, 1.0, 0);
    j.x = dmatrix(t, m > n ? m : n, 1, 4, 1.0, 0);
    j.y = dmatrix(t, m > n ? m : n, 1, 5, 1.0, 0);
    fprintf(stderr, "  %s %c m=%lld n=%lld\n", routine == R_GEMV ? "gemv" : "symv", t->p,
            (long long)m, (long long)n);
    const double tb = (double)blas2_bytes(&j) * 1e-12;
    double ms[NLIBS];
    time_libs(&j, reps, CASE_LIBS, 3, ms);
    report(routine == R_GEMV ? "gemv" : (t->cplx ? "hemv" : "symv"), &j, "TB/s", tb,
           ms[LIB_TESSERA], ms[LIB_CUBLAS]);
    report("read", &j, "TB/s", tb, 0, ms[LIB_CEILING]);
    dfree_all();
}

/* cuBLAS DGEMM C += A B with A m x m, B and C m x n (the shape of the
 * recursion's off-diagonal products on side left). */
static void bench_gemm(int64_t m, int64_t n, int reps, int inner)
{
    job_t g = { &TD,  R_GEMM, TessLeft, TessLower, TessNoTrans, m,    n,
                NULL, NULL,   NULL,     NULL,      NULL,        NULL, inner };
    g.A = dmatrix(&TD, m, m, 6, 1.0, 0);
    g.B = dmatrix(&TD, m, n, 7, 1.0, 0);
    g.C = dmatrix(&TD, m, n, 8, 1.0, 0);
    fprintf(stderr, "  dgemm m=k=%lld n=%lld\n", (long long)m, (long long)n);
    double gm;
    time_libs(&g, reps, CUBLAS_ONLY, 1, &gm);
    report("gemm", &g, "TFLOP/s", 2.0 * (double)m * (double)n * (double)m * 1e-12, 0, gm);
    dfree_all();
}

/* The two ceilings of the run: cuBLAS DGEMM and a device-to-device copy. */
static void bench_ceilings(void)
{
    const int64_t n = 16384;
    bench_gemm(n, n, 5, 1);
    /* copy 4 GiB, as many bytes as a GEMV reads at 16384 x 32768 */
    job_t c = { &TD,  R_COPY, TessLeft, TessLower, TessNoTrans, n,    2 * n,
                NULL, NULL,   NULL,     NULL,      NULL,        NULL, 1 };
    c.B = dmatrix(&TD, n, 2 * n, 9, 1.0, 0);
    c.C = dalloc((size_t)(n * 2 * n) * 8);
    fprintf(stderr, "  device-to-device copy, %lld MiB\n", (long long)(n * 2 * n * 8 >> 20));
    double cm;
    time_libs(&c, 10, CUBLAS_ONLY, 1, &cm);
    report("copy", &c, "TB/s", 2.0 * (double)(n * 2 * n) * 8 * 1e-12, 0, cm);
    dfree_all();
}

/* Where recursive DTRSM at 16384 spends its time: one leaf over all of B on
 * each side, and the off-diagonal products of each recursion level.  The
 * small ones are timed 16 calls at a time, so that the device time of one
 * call shows rather than the host's time to issue it. */
static void bench_parts(void)
{
    const int64_t n = 16384;
    bench_trxm(&TD, R_TRSM, TessLeft, TessLower, TessNoTrans, 64, n, 5, 16);
    bench_trxm(&TD, R_TRSM, TessRight, TessUpper, TessNoTrans, n, 64, 5, 16);
    for (int64_t k = 64; k <= 8192; k *= 2)
        bench_gemm(k, n, 5, k <= 512 ? 16 : 1);
}

/* The target cases of the one-GPU kernels that group serves, with the
 * repetitions of the full run; 0 when group is unknown. */
static int bench_group(const char *group)
{
    const int64_t N = 16384;
    if (strcmp(group, "ceil") == 0) {
        bench_ceilings();
    } else if (strcmp(group, "trxm") == 0) {
        bench_trxm(&TD, R_TRSM, TessLeft, TessLower, TessNoTrans, 64, N, 5, 16);
        bench_trxm(&TD, R_TRSM, TessRight, TessUpper, TessNoTrans, N, 64, 5, 16);
        bench_trxm(&TD, R_TRSM, TessLeft, TessLower, TessNoTrans, N, N, SQUARE_REPS, 1);
        bench_trxm(&TD, R_TRSM, TessRight, TessUpper, TessNoTrans, N, N, SQUARE_REPS, 1);
        static const int64_t rhs[] = { 64, 256, 1024 };
        for (int r = 0; r < 3; r++)
            bench_trxm(&TD, R_TRSM, TessLeft, TessLower, TessNoTrans, N, rhs[r], 7, 1);
        bench_trxm(&TD, R_TRMM, TessLeft, TessLower, TessNoTrans, N, N, SQUARE_REPS, 1);
    } else if (strcmp(group, "trmm") == 0) {
        /* one two-tile leaf over 16384 vectors, each side, and the whole call */
        bench_trxm(&TD, R_TRMM, TessLeft, TessLower, TessNoTrans, 128, N, 5, 16);
        bench_trxm(&TD, R_TRMM, TessRight, TessUpper, TessTrans, N, 128, 5, 16);
        bench_trxm(&TD, R_TRMM, TessLeft, TessLower, TessNoTrans, N, N, SQUARE_REPS, 1);
        bench_trxm(&TD, R_TRMM, TessRight, TessUpper, TessTrans, N, N, SQUARE_REPS, 1);
    } else if (strcmp(group, "trsm") == 0) {
        /* the same for the solve, and its case with few right-hand sides */
        bench_trxm(&TD, R_TRSM, TessLeft, TessLower, TessNoTrans, 128, N, 5, 16);
        bench_trxm(&TD, R_TRSM, TessRight, TessUpper, TessNoTrans, N, 128, 5, 16);
        bench_trxm(&TD, R_TRSM, TessLeft, TessLower, TessNoTrans, N, N, SQUARE_REPS, 1);
        bench_trxm(&TD, R_TRSM, TessRight, TessUpper, TessNoTrans, N, N, SQUARE_REPS, 1);
        bench_trxm(&TD, R_TRSM, TessLeft, TessLower, TessNoTrans, N, 1024, 7, 1);
    } else if (strcmp(group, "gemv") == 0) {
        bench_blas2(&TD, R_GEMV, TessNoTrans, TessLower, 2 * N, 2 * N, 20);
        bench_blas2(&TD, R_GEMV, TessTrans, TessLower, 2 * N, 2 * N, 20);
        bench_blas2(&TD, R_GEMV, TessTrans, TessLower, N / 2, N / 2, 20);
    } else if (strcmp(group, "symv") == 0) {
        bench_blas2(&TD, R_SYMV, TessNoTrans, TessLower, 2 * N, 2 * N, 20);
        bench_blas2(&TD, R_SYMV, TessNoTrans, TessUpper, 2 * N, 2 * N, 20);
        bench_blas2(&TD, R_SYMV, TessNoTrans, TessLower, N / 2, N / 2, 20);
    } else {
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    const char *outdir = argc > 1 ? argv[1] : ".";
    const char *group = argc > 2 ? argv[2] : NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/bench_kernels%s%s.csv", outdir, group ? "_" : "",
             group ? group : "");
    csv = fopen(path, "w");
    if (!csv)
        die("fopen(csv)");
    struct cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    snprintf(devname, sizeof devname, "%s", prop.name);
    l2_evictor_bytes = 2 * (size_t)prop.l2CacheSize;
    CK(cudaMalloc((void **)&arena, arena_size));
    CK(cudaMalloc(&l2_evictor, l2_evictor_bytes));
    CK(cudaMemset(l2_evictor, 0, l2_evictor_bytes));
    CK(cudaStreamCreate(&st));
    CK(cudaEventCreate(&ev0));
    CK(cudaEventCreate(&ev1));
    CB(cublasCreate(&cub));
    CB(cublasSetStream(cub, st));
    fprintf(csv, "device,routine,prec,side,uplo,trans,m,n,unit,tessera_ms,cublas_ms,"
                 "tessera_rate,cublas_rate,speedup\n");
    printf("device: %s (%d SMs)\n", devname, prop.multiProcessorCount);
    printf("%-6s p case %6s %6s | %9s %9s | %8s %8s %-7s | %s\n", "op", "m", "n", "tess ms",
           "cublas ms", "tess", "cublas", "unit", "speedup");
    if (group) {
        const int known = bench_group(group);
        fclose(csv);
        CB(cublasDestroy(cub));
        if (!known)
            fprintf(stderr, "bench_kernels: unknown group %s\n", group);
        return known ? 0 : 2;
    }

    fprintf(stderr, "[1/7] ceilings\n");
    bench_ceilings();
    fprintf(stderr, "[2/7] dtrsm parts: leaves, products per recursion level\n");
    bench_parts();

    static const tess_side_t sides[] = { TessLeft, TessRight };
    static const tess_uplo_t uplos[] = { TessLower, TessUpper };
    static const tess_trans_t trs[] = { TessNoTrans, TessTrans };
    const int64_t N = 16384;
    fprintf(stderr, "[3/7] dtrsm, 8 cases and small right-hand sides\n");
    for (int s = 0; s < 2; s++)
        for (int u = 0; u < 2; u++)
            for (int t = 0; t < 2; t++)
                bench_trxm(&TD, R_TRSM, sides[s], uplos[u], trs[t], N, N, SQUARE_REPS, 1);
    static const int64_t rhs[] = { 64, 256, 1024 };
    for (int r = 0; r < 3; r++)
        bench_trxm(&TD, R_TRSM, TessLeft, TessLower, TessNoTrans, N, rhs[r], 7, 1);

    fprintf(stderr, "[4/7] dtrmm, 8 cases\n");
    for (int s = 0; s < 2; s++)
        for (int u = 0; u < 2; u++)
            for (int t = 0; t < 2; t++)
                bench_trxm(&TD, R_TRMM, sides[s], uplos[u], trs[t], N, N, SQUARE_REPS, 1);

    fprintf(stderr, "[5/7] s/c/z trsm\n");
    bench_trxm(&TS, R_TRSM, TessLeft, TessLower, TessNoTrans, N, N, 5, 1);
    bench_trxm(&TC, R_TRSM, TessLeft, TessLower, TessNoTrans, N / 2, N / 2, 5, 1);
    bench_trxm(&TZ, R_TRSM, TessLeft, TessLower, TessNoTrans, N / 2, N / 2, 5, 1);
    bench_trxm(&TZ, R_TRSM, TessRight, TessUpper, TessConjTrans, N / 2, N / 2, 5, 1);

    fprintf(stderr, "[6/7] gemv\n");
    bench_blas2(&TD, R_GEMV, TessNoTrans, TessLower, 2 * N, 2 * N, 20);
    bench_blas2(&TD, R_GEMV, TessTrans, TessLower, 2 * N, 2 * N, 20);

    fprintf(stderr, "[7/7] symv/hemv\n");
    bench_blas2(&TD, R_SYMV, TessNoTrans, TessLower, 2 * N, 2 * N, 20);
    bench_blas2(&TD, R_SYMV, TessNoTrans, TessUpper, 2 * N, 2 * N, 20);
    bench_blas2(&TD, R_SYMV, TessNoTrans, TessLower, N / 2, N / 2, 20);
    bench_blas2(&TS, R_SYMV, TessNoTrans, TessLower, 2 * N, 2 * N, 20);
    bench_blas2(&TZ, R_SYMV, TessNoTrans, TessLower, N, N, 20);

    fclose(csv);
    CB(cublasDestroy(cub));
    return 0;
}
