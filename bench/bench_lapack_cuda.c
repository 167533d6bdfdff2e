/* The Cholesky family in double from host memory: Tessera's DPOTRF, DPOTRS
 * and DPOTRI against cuSOLVER on device-resident data (one GPU, its copies not
 * counted), device DGEMM on one GPU (the ceiling), and cusolverMg on the same
 * GPUs as Tessera with its host copies counted, all in one process.
 *
 *   usage: bench_lapack_cuda [--nrhs K] [--reps R] [--mg-block T] [--mg-max M] CSV-DIR NGPUS N...
 *   e.g.   bench_lapack_cuda $OUT 1,2 16384 32768
 *
 * NGPUS: the GPU counts for Tessera and cusolverMg, comma separated; g GPUs
 * are devices 0 to g-1.  cuSOLVER and DGEMM run on device 0.  Every case is
 * lower, column-major, packed (ld = n).  A is n on the diagonal and uniform in
 * [-0.5, 0.5) below it: positive definite and well conditioned.  B is n x K
 * (K = 1024).  --mg-max M runs cusolverMg at n <= M only (its DPOTRI takes
 * minutes from n = 65536).  Flops: DPOTRF n^3/3, DPOTRS 2 n^2 K, DPOTRI 2 n^3/3, DGEMM
 * 2 m^3 with m = min(n, 32768) (three m^2 matrices must fit one GPU).
 *
 * Timing: each the median of R runs (3) after an untimed warm-up.  A Tessera
 * run is: the inputs restored on the host and tess_memory_invalidate_all
 * (untimed), then the call, tess_memory_coherent_async on its output (A's
 * lower part; B for DPOTRS) and tess_sync, by the host clock: the copies
 * from and to host memory are counted.  DPOTRS and DPOTRI start from the
 * factor.  cuSOLVER runs on device data, its inputs copied in untimed, timed
 * by CUDA events.  A cusolverMg run is the copies of the operands from pinned
 * host memory into its 1-D column block-cyclic layout (T = 256 columns a
 * block), the call and the copies of the output back, by the host clock.
 *
 * Checks: Tessera's factor against cuSOLVER's on 64 sampled entries of the
 * lower triangle, and its DPOTRS solution as A x - b on 16 sampled rows of the
 * first column, |error| <= 1e-8 (sum of |terms|); a failure marks the row
 * FAIL and the exit status 1.
 *
 * Output: a table with the ratios on stdout, CSV-DIR/lapack.csv
 * (routine,n,gpus,impl,seconds,tflops). */
#include <cusolverDn.h>
#include <cusolverMg.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include "bench_cuda_check.h"
#include "bench_solver.h"
#include "bench_util.h"

enum { POTRF, POTRS, POTRI, NROUT };
static const char *const names[NROUT] = { "dpotrf", "dpotrs", "dpotri" };
static int reps = 3, nrhs = 1024, mg_block = 256, failed;
static long mg_max = -1; /* cusolverMg runs at n <= mg_max only; -1: at every n */
static FILE *csv;

static double flops(int r, long n)
{
    double x = (double)n;
    return r == POTRF ? x * x * x / 3 : r == POTRS ? 2 * x * x * nrhs : 2 * x * x * x / 3;
}

static void record(int r, long n, int g, const char *impl, double s)
{
    if (isnan(s))
        return; /* not run */
    double tf = flops(r, n) / s * 1e-12;
    fprintf(csv, "%s,%ld,%d,%s,%.6f,%.3f\n", names[r], n, g, impl, s, tf);
    fflush(csv);
}

/* A(i,j) of the symmetric matrix stored in the lower triangle */
static double sym(const double *A, long n, long i, long j)
{
    return i >= j ? A[i + j * n] : A[j + i * n];
}

/* cuSOLVER's three routines on device 0; F receives its factor.  Returns the
 * seconds (NaN for a routine that cannot take n). */
static void device_cusolver(long n, const double *A0, const double *B0, double *F,
                            double sec[NROUT])
{
    size_t an = (size_t)n * (size_t)n, bn = (size_t)n * (size_t)nrhs;
    double *a, *b, *work, t[NROUT][16];
    int *info, lwork = 0, lw;
    cusolverDnHandle_t h;
    cudaEvent_t e0, e1;
    CU(cudaSetDevice(0));
    CS(cusolverDnCreate(&h));
    CU(cudaMalloc((void **)&a, an * sizeof *a));
    CU(cudaMalloc((void **)&b, bn * sizeof *b));
    CU(cudaMalloc((void **)&info, sizeof *info));
    CU(cudaEventCreate(&e0));
    CU(cudaEventCreate(&e1));
    CS(cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, (int)n, a, (int)n, &lwork));
    CS(cusolverDnDpotri_bufferSize(h, CUBLAS_FILL_MODE_LOWER, (int)n, a, (int)n, &lw));
    lwork = lw > lwork ? lw : lwork;
    CU(cudaMalloc((void **)&work, (size_t)lwork * sizeof *work));
    for (int r = 0; r < NROUT; r++) {
        /* its 32-bit DPOTRI refuses a matrix of 2^31 elements or more */
        if (r == POTRI && an > INT_MAX) {
            sec[r] = NAN;
            continue;
        }
        for (int i = 0; i <= reps; i++) {
            CU(cudaMemcpy(a, r == POTRF ? A0 : F, an * sizeof *a, cudaMemcpyHostToDevice));
            if (r == POTRS)
                CU(cudaMemcpy(b, B0, bn * sizeof *b, cudaMemcpyHostToDevice));
            CU(cudaEventRecord(e0, 0));
            if (r == POTRF)
                CS(cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, (int)n, a, (int)n, work, lwork,
                                    info));
            else if (r == POTRS)
                CS(cusolverDnDpotrs(h, CUBLAS_FILL_MODE_LOWER, (int)n, nrhs, a, (int)n, b, (int)n,
                                    info));
            else
                CS(cusolverDnDpotri(h, CUBLAS_FILL_MODE_LOWER, (int)n, a, (int)n, work, lwork,
                                    info));
            CU(cudaEventRecord(e1, 0));
            CU(cudaEventSynchronize(e1));
            int hinfo;
            CU(cudaMemcpy(&hinfo, info, sizeof hinfo, cudaMemcpyDeviceToHost));
            if (hinfo)
                BENCH_FAIL(names[r], "cuSOLVER's devInfo is not 0");
            float ms;
            CU(cudaEventElapsedTime(&ms, e0, e1));
            if (i)
                t[r][i - 1] = ms * 1e-3;
        }
        if (r == POTRF)
            CU(cudaMemcpy(F, a, an * sizeof *a, cudaMemcpyDeviceToHost));
        sec[r] = bench_median(t[r], reps);
    }
    CS(cusolverDnDestroy(h));
    CU(cudaFree(a));
    CU(cudaFree(b));
    CU(cudaFree(info));
    CU(cudaFree(work));
}

/* ---- Tessera on g GPUs ---------------------------------------------------- */
static void tessera_run(int r, long n, double *A, double *B, int64_t *info)
{
    if (r == POTRF)
        TK(tess_dpotrf_async(TessLower, n, A, n, info));
    else if (r == POTRS)
        TK(tess_dpotrs_async(TessLower, n, nrhs, A, n, B, n));
    else
        TK(tess_dpotri_async(TessLower, n, A, n, info));
    if (r == POTRS)
        TK(tess_memory_coherent_async(TessAll, n, nrhs, B, n, sizeof *B));
    else
        TK(tess_memory_coherent_async(TessLowerPart, n, n, A, n, sizeof *A));
    TK(tess_sync());
}

/* Tessera's factor against cuSOLVER's, and its solution's residual, on samples. */
static bool tessera_checks(long n, const double *A0, const double *L, const double *F,
                           const double *B0, const double *X)
{
    uint64_t x = 12345;
    for (int s = 0; s < 64; s++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        long i = (long)(x >> 33) % n, j = (long)(x >> 13) % (i + 1);
        double d = fabs(L[i + j * n] - F[i + j * n]), scale = fabs(F[i + j * n]) + 1;
        if (!(d <= 1e-8 * scale * sqrt((double)n)))
            return false;
    }
    for (int s = 0; s < 16; s++) {
        long i = (long)((x = x * 6364136223846793005ull + 1) >> 33) % n;
        double r = -B0[i], sum = fabs(B0[i]);
        for (long j = 0; j < n; j++) {
            r += sym(A0, n, i, j) * X[j];
            sum += fabs(sym(A0, n, i, j) * X[j]);
        }
        if (!(fabs(r) <= 1e-8 * sum))
            return false;
    }
    return true;
}

static void tessera(int g, int have, long n, const double *A0, const double *B0, double *A,
                    double *B, double *F, const double *Fcs, double sec[NROUT], bool *ok)
{
    char dev[256];
    bench_cuda_devices(g, have, dev, sizeof dev);
    tess_config_t cfg = { .devices = dev };
    TK(tess_init(&cfg));
    size_t an = (size_t)n * (size_t)n, bn = (size_t)n * (size_t)nrhs;
    int64_t info = 0;
    double t[16];
    /* warm-up: kernels loaded, handles made */
    long w = n < 4096 ? n : 4096;
    for (long j = 0; j < w; j++)
        memcpy(A + j * w, A0 + j * n, (size_t)w * sizeof *A);
    tessera_run(POTRF, w, A, B, &info);
    for (int r = 0; r < NROUT; r++) {
        for (int i = 0; i < reps; i++) {
            memcpy(A, r == POTRF ? A0 : F, an * sizeof *A);
            if (r == POTRS)
                memcpy(B, B0, bn * sizeof *B);
            TK(tess_memory_invalidate_all());
            double t0 = bench_now();
            tessera_run(r, n, A, B, &info);
            t[i] = bench_now() - t0;
            if (info)
                BENCH_FAIL(names[r], "Tessera's info is not 0");
        }
        if (r == POTRF)
            memcpy(F, A, an * sizeof *F);
        sec[r] = bench_median(t, reps);
    }
    *ok = tessera_checks(n, A0, F, Fcs, B0, B);
    TK(tess_finalize());
}

/* ---- cusolverMg on g GPUs, its copies counted ----------------------------- */
typedef struct {
    double *a[16], *b[16], *work[16];
    long acols[16], bcols[16];
} mg_mem_t;

static void cusolver_mg(int g, long n, const double *F, double *A, double *B, const double *A0,
                        const double *B0, double sec[NROUT])
{
    cusolverMgHandle_t h;
    cudaLibMgGrid_t grid;
    cudaLibMgMatrixDesc_t da, db;
    int ids[16];
    mg_mem_t m = { 0 };
    for (int p = 0; p < g; p++)
        ids[p] = p;
    CS(cusolverMgCreate(&h));
    CS(cusolverMgDeviceSelect(h, g, ids));
    CS(cusolverMgCreateDeviceGrid(&grid, 1, g, ids, CUDALIBMG_GRID_MAPPING_COL_MAJOR));
    CS(cusolverMgCreateMatrixDesc(&da, n, n, n, mg_block, CUDA_R_64F, grid));
    CS(cusolverMgCreateMatrixDesc(&db, n, nrhs, n, mg_block, CUDA_R_64F, grid));
    for (int p = 0; p < g; p++) {
        long ablk = (n + mg_block - 1) / mg_block, bblk = (nrhs + mg_block - 1) / mg_block;
        m.acols[p] = (ablk / g + (p < ablk % g)) * mg_block;
        m.bcols[p] = (bblk / g + (p < bblk % g)) * mg_block;
        CU(cudaSetDevice(p));
        CU(cudaMalloc((void **)&m.a[p], (size_t)n * (size_t)(m.acols[p] + 1) * sizeof(double)));
        CU(cudaMalloc((void **)&m.b[p], (size_t)n * (size_t)(m.bcols[p] + 1) * sizeof(double)));
    }
    int64_t lwork = 0, lw;
    CS(cusolverMgPotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, (int)n, (void **)m.a, 1, 1, da,
                                  CUDA_R_64F, &lwork));
    CS(cusolverMgPotrs_bufferSize(h, CUBLAS_FILL_MODE_LOWER, (int)n, nrhs, (void **)m.a, 1, 1, da,
                                  (void **)m.b, 1, 1, db, CUDA_R_64F, &lw));
    lwork = lw > lwork ? lw : lwork;
    CS(cusolverMgPotri_bufferSize(h, CUBLAS_FILL_MODE_LOWER, (int)n, (void **)m.a, 1, 1, da,
                                  CUDA_R_64F, &lw));
    lwork = lw > lwork ? lw : lwork;
    for (int p = 0; p < g; p++) {
        CU(cudaSetDevice(p));
        CU(cudaMalloc((void **)&m.work[p], (size_t)lwork * sizeof(double)));
    }
    double t[16];
    for (int r = 0; r < NROUT; r++) {
        for (int i = 0; i <= reps; i++) {
            memcpy(A, r == POTRF ? A0 : F, (size_t)n * (size_t)n * sizeof *A);
            memcpy(B, B0, (size_t)n * (size_t)nrhs * sizeof *B);
            int info = 0;
            double t0 = bench_now();
            bench_mg_copy(g, mg_block, m.a, A, n, n, true);
            if (r == POTRS)
                bench_mg_copy(g, mg_block, m.b, B, n, nrhs, true);
            if (r == POTRF)
                CS(cusolverMgPotrf(h, CUBLAS_FILL_MODE_LOWER, (int)n, (void **)m.a, 1, 1, da,
                                   CUDA_R_64F, (void **)m.work, lwork, &info));
            else if (r == POTRS)
                CS(cusolverMgPotrs(h, CUBLAS_FILL_MODE_LOWER, (int)n, nrhs, (void **)m.a, 1, 1, da,
                                   (void **)m.b, 1, 1, db, CUDA_R_64F, (void **)m.work, lwork,
                                   &info));
            else
                CS(cusolverMgPotri(h, CUBLAS_FILL_MODE_LOWER, (int)n, (void **)m.a, 1, 1, da,
                                   CUDA_R_64F, (void **)m.work, lwork, &info));
            for (int p = 0; p < g; p++) {
                CU(cudaSetDevice(p));
                CU(cudaDeviceSynchronize());
            }
            if (r == POTRS)
                bench_mg_copy(g, mg_block, m.b, B, n, nrhs, false);
            else
                bench_mg_copy(g, mg_block, m.a, A, n, n, false);
            if (i)
                t[i - 1] = bench_now() - t0;
            if (info)
                BENCH_FAIL(names[r], "cusolverMg's info is not 0");
        }
        sec[r] = bench_median(t, reps);
    }
    for (int p = 0; p < g; p++) {
        CU(cudaSetDevice(p));
        CU(cudaFree(m.a[p]));
        CU(cudaFree(m.b[p]));
        CU(cudaFree(m.work[p]));
    }
    CS(cusolverMgDestroyMatrixDesc(da));
    CS(cusolverMgDestroyMatrixDesc(db));
    CS(cusolverMgDestroyGrid(grid));
    CS(cusolverMgDestroy(h));
}

int main(int argc, char **argv)
{
    const char *prog = argv[0];
    int a = 1;
    for (; a + 1 < argc && !strncmp(argv[a], "--", 2); a += 2) {
        int v = atoi(argv[a + 1]);
        if (!strcmp(argv[a], "--nrhs") && v > 0)
            nrhs = v;
        else if (!strcmp(argv[a], "--reps") && v > 0 && v <= 15)
            reps = v;
        else if (!strcmp(argv[a], "--mg-block") && v > 0)
            mg_block = v;
        else if (!strcmp(argv[a], "--mg-max") && v > 0)
            mg_max = v;
        else
            a = argc;
    }
    int gpus[16], ng = argc - a >= 3 ? bench_parse_list(argv[a + 1], gpus, 16) : -1, have = 0;
    CU(cudaGetDeviceCount(&have));
    if (ng < 1 || a >= argc) {
        fprintf(stderr,
                "usage: %s [--nrhs K] [--reps R] [--mg-block T] [--mg-max M] CSV-DIR NGPUS N...\n",
                prog);
        return 2;
    }
    for (int i = 0; i < ng; i++)
        if (gpus[i] > have) {
            fprintf(stderr, "%s: %d GPUs asked, %d present\n", prog, gpus[i], have);
            return 2;
        }
    if (!(csv = bench_csv(argv[a], "lapack.csv")))
        return 1;
    fprintf(csv, "routine,n,gpus,impl,seconds,tflops\n");
    printf("%-7s %6s %4s %9s %9s %9s %9s %9s  %8s %8s %8s\n", "routine", "n", "gpus", "tessera",
           "cusolver", "dgemm", "mg", "TF/s", "/cusolv", "/g*gemm", "/mg");
    for (int k = a + 2; k < argc; k++) {
        long n = atol(argv[k]);
        if (n < 1)
            continue;
        size_t an = (size_t)n * (size_t)n, bn = (size_t)n * (size_t)nrhs;
        double *A0 = bench_host_array(prog, an, 1), *B0 = bench_host_array(prog, bn, 2);
        for (long j = 0; j < n; j++)
            A0[j + j * n] = (double)n;
        double *A = bench_xmalloc(prog, an * sizeof *A), *B = bench_xmalloc(prog, bn * sizeof *B);
        double *F = bench_xmalloc(prog, an * sizeof *F), *Fcs = bench_xmalloc(prog, an * sizeof *F);
        CU(cudaHostRegister(A, an * sizeof *A, cudaHostRegisterDefault));
        CU(cudaHostRegister(B, bn * sizeof *B, cudaHostRegisterDefault));
        double gemm = bench_device_dgemm(n < 32768 ? n : 32768, A0, n, reps), cs[NROUT];
        long gm = n < 32768 ? n : 32768;
        fprintf(csv, "dgemm,%ld,1,cublas_device,%.6f,%.3f\n", gm,
                2.0 * gm * gm * gm / (gemm * 1e12), gemm);
        device_cusolver(n, A0, B0, Fcs, cs);
        for (int r = 0; r < NROUT; r++)
            record(r, n, 1, "cusolver_device", cs[r]);
        for (int i = 0; i < ng; i++) {
            double ts[NROUT], mg[NROUT];
            bool ok;
            tessera(gpus[i], have, n, A0, B0, A, B, F, Fcs, ts, &ok);
            failed |= !ok;
            bool with_mg = mg_max < 0 || n <= mg_max;
            if (with_mg)
                cusolver_mg(gpus[i], n, F, A, B, A0, B0, mg);
            for (int r = 0; r < NROUT; r++) {
                if (!with_mg)
                    mg[r] = NAN;
                record(r, n, gpus[i], "tessera", ts[r]);
                record(r, n, gpus[i], "cusolvermg_copies", mg[r]);
                double tf = flops(r, n) / ts[r] * 1e-12;
                printf("%-7s %6ld %4d %9.3f %9.3f %9.1f %9.3f %9.1f  %8.2f %8.2f %8.2f %s\n",
                       names[r], n, gpus[i], ts[r], cs[r], gemm, mg[r], tf, cs[r] / ts[r],
                       tf / (gpus[i] * gemm), mg[r] / ts[r], ok ? "" : "FAIL");
            }
            fflush(stdout);
        }
        CU(cudaHostUnregister(A));
        CU(cudaHostUnregister(B));
        free(A0);
        free(B0);
        free(A);
        free(B);
        free(F);
        free(Fcs);
    }
    fclose(csv);
    return failed;
}
