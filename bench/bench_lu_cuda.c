/* LU in double from host memory: Tessera's DGETRF and DGESV against cuSOLVER's
 * on device-resident data (one GPU, its copies not counted) and device DGEMM on
 * one GPU (the ceiling), in one process.
 *
 *   usage: bench_lu_cuda [--nrhs K] [--reps R] CSV-DIR NGPUS N...
 *   e.g.   bench_lu_cuda $OUT 1,2,4 16384 32768
 *
 * NGPUS: the GPU counts for Tessera, comma separated; g GPUs are devices 0 to
 * g-1.  cuSOLVER and DGEMM run on device 0.  A is n x n uniform in [-0.5, 0.5)
 * (ld = n): partial pivoting swaps rows at nearly every column.  B is n x K
 * (K = 1024).  Flops: DGETRF 2 n^3 / 3, DGESV 2 n^3 / 3 + 2 n^2 K, DGEMM 2 m^3
 * with m = min(n, 32768).
 *
 * Timing: the median of R runs (3) after an untimed warm-up.  A Tessera run:
 * the inputs restored on the host and tess_memory_invalidate_all (untimed),
 * then the call, tess_memory_coherent_async on A (and B) and on ipiv, and
 * tess_sync, by the host clock: the copies are counted.  cuSOLVER runs
 * cusolverDnDgetrf (and cusolverDnDgetrs) on device data copied in untimed,
 * timed by CUDA events.
 *
 * cusolverMg's DGETRF on the same g GPUs, its copies counted (from the host to
 * its 1-D block-cyclic column blocks, the factorization, and back), with
 * column blocks of 256 and 1024 (MG_BLOCKS): a status other than success from
 * its workspace query or its call is printed and the row left out, so that
 * the run says which sizes it takes.
 *
 * Checks: Tessera's pivots equal cuSOLVER's on the first 64 rows (random data:
 * no ties), its factor equals cuSOLVER's on 64 sampled entries to 1e-8 n^1/2
 * relative, and its DGESV solution's residual A x - b on 16 sampled rows of
 * the first column is within 1e-8 of the sum of |terms|; a failure marks the
 * row FAIL and the exit status 1.
 *
 * Output: a table with the ratios on stdout, CSV-DIR/lu.csv
 * (routine,n,gpus,impl,seconds,tflops). */
#include <cusolverDn.h>
#include <cusolverMg.h>
#include <math.h>
#include <string.h>
#include "bench_cuda_check.h"
#include "bench_solver.h"
#include "bench_util.h"

enum { GETRF, GESV, NROUT };
static const char *const names[NROUT] = { "dgetrf", "dgesv" };
static int reps = 3, nrhs = 1024, failed;
static FILE *csv;

static double flops(int r, long n)
{
    double x = (double)n;
    return 2 * x * x * x / 3 + (r == GESV ? 2 * x * x * nrhs : 0);
}

static void record(int r, long n, int g, const char *impl, double s)
{
    fprintf(csv, "%s,%ld,%d,%s,%.6f,%.3f\n", names[r], n, g, impl, s, flops(r, n) / s * 1e-12);
    fflush(csv);
}

/* cuSOLVER's DGETRF and DGESV (getrf + getrs) on device 0; F and piv receive its factor. */
static void device_cusolver(long n, const double *A0, const double *B0, double *F, int *piv,
                            double sec[NROUT])
{
    size_t an = (size_t)n * (size_t)n, bn = (size_t)n * (size_t)nrhs;
    double *a, *b, *work, t[16];
    int *ipiv, *info, lwork = 0, hinfo;
    cusolverDnHandle_t h;
    cudaEvent_t e0, e1;
    CU(cudaSetDevice(0));
    CS(cusolverDnCreate(&h));
    CU(cudaMalloc((void **)&a, an * sizeof *a));
    CU(cudaMalloc((void **)&b, bn * sizeof *b));
    CU(cudaMalloc((void **)&ipiv, (size_t)n * sizeof *ipiv));
    CU(cudaMalloc((void **)&info, sizeof *info));
    CU(cudaEventCreate(&e0));
    CU(cudaEventCreate(&e1));
    CS(cusolverDnDgetrf_bufferSize(h, (int)n, (int)n, a, (int)n, &lwork));
    CU(cudaMalloc((void **)&work, (size_t)lwork * sizeof *work));
    for (int r = 0; r < NROUT; r++) {
        for (int i = 0; i <= reps; i++) {
            CU(cudaMemcpy(a, A0, an * sizeof *a, cudaMemcpyHostToDevice));
            if (r == GESV)
                CU(cudaMemcpy(b, B0, bn * sizeof *b, cudaMemcpyHostToDevice));
            CU(cudaEventRecord(e0, 0));
            CS(cusolverDnDgetrf(h, (int)n, (int)n, a, (int)n, work, ipiv, info));
            if (r == GESV)
                CS(cusolverDnDgetrs(h, CUBLAS_OP_N, (int)n, nrhs, a, (int)n, ipiv, b, (int)n,
                                    info));
            CU(cudaEventRecord(e1, 0));
            CU(cudaEventSynchronize(e1));
            CU(cudaMemcpy(&hinfo, info, sizeof hinfo, cudaMemcpyDeviceToHost));
            if (hinfo)
                BENCH_FAIL(names[r], "cuSOLVER's devInfo is not 0");
            float ms;
            CU(cudaEventElapsedTime(&ms, e0, e1));
            if (i)
                t[i - 1] = ms * 1e-3;
        }
        if (r == GETRF) {
            CU(cudaMemcpy(F, a, an * sizeof *a, cudaMemcpyDeviceToHost));
            CU(cudaMemcpy(piv, ipiv, (size_t)n * sizeof *piv, cudaMemcpyDeviceToHost));
        }
        sec[r] = bench_median(t, reps);
    }
    CS(cusolverDnDestroy(h));
    CU(cudaFree(a));
    CU(cudaFree(b));
    CU(cudaFree(ipiv));
    CU(cudaFree(info));
    CU(cudaFree(work));
}

/* ---- cusolverMg on g GPUs, its copies counted ----------------------------- */
static const int mg_blocks[] = { 256, 1024 };
#define MG_BLOCKS (int)(sizeof mg_blocks / sizeof *mg_blocks)

/* The median time of cusolverMg's DGETRF with blocks of T on g GPUs, copies counted; 0 when
 * it refuses (its status printed). */
static double mg_getrf(int g, long T, long n, const double *A0, double *A)
{
    cusolverMgHandle_t h;
    cudaLibMgGrid_t grid;
    cudaLibMgMatrixDesc_t da;
    int ids[16], *piv[16], info = 0;
    double *a[16], *work[16], t[16], sec = 0;
    long blocks = (n + T - 1) / T;
    for (int p = 0; p < g; p++)
        ids[p] = p;
    CS(cusolverMgCreate(&h));
    CS(cusolverMgDeviceSelect(h, g, ids));
    CS(cusolverMgCreateDeviceGrid(&grid, 1, g, ids, CUDALIBMG_GRID_MAPPING_COL_MAJOR));
    CS(cusolverMgCreateMatrixDesc(&da, n, n, n, T, CUDA_R_64F, grid));
    for (int p = 0; p < g; p++) {
        long cols = (blocks / g + (p < blocks % g)) * T;
        CU(cudaSetDevice(p));
        CU(cudaMalloc((void **)&a[p], (size_t)n * (size_t)cols * sizeof(double)));
        CU(cudaMalloc((void **)&piv[p], (size_t)cols * sizeof(int)));
        work[p] = NULL;
    }
    CU(cudaSetDevice(0));
    int64_t lwork = 0;
    cusolverStatus_t st = cusolverMgGetrf_bufferSize(h, (int)n, (int)n, (void **)a, 1, 1, da, piv,
                                                     CUDA_R_64F, &lwork);
    for (int p = 0; p < g && st == CUSOLVER_STATUS_SUCCESS; p++) {
        CU(cudaSetDevice(p));
        CU(cudaMalloc((void **)&work[p], (size_t)lwork * sizeof(double)));
    }
    for (int i = 0; i <= reps && st == CUSOLVER_STATUS_SUCCESS; i++) {
        memcpy(A, A0, (size_t)n * (size_t)n * sizeof *A);
        double t0 = bench_now();
        bench_mg_copy(g, T, a, A, n, n, true);
        CU(cudaSetDevice(0));
        st = cusolverMgGetrf(h, (int)n, (int)n, (void **)a, 1, 1, da, piv, CUDA_R_64F,
                             (void **)work, lwork, &info);
        for (int p = 0; p < g; p++) {
            CU(cudaSetDevice(p));
            CU(cudaDeviceSynchronize());
        }
        bench_mg_copy(g, T, a, A, n, n, false);
        if (i)
            t[i - 1] = bench_now() - t0;
        if (st == CUSOLVER_STATUS_SUCCESS && info)
            BENCH_FAIL("cusolverMgGetrf", "its info is not 0");
    }
    if (st == CUSOLVER_STATUS_SUCCESS)
        sec = bench_median(t, reps);
    else
        printf("cusolverMg DGETRF, n %ld, %d GPUs, blocks of %ld: status %d\n", n, g, T, (int)st);
    for (int p = 0; p < g; p++) {
        CU(cudaSetDevice(p));
        CU(cudaFree(a[p]));
        CU(cudaFree(piv[p]));
        CU(cudaFree(work[p]));
    }
    CS(cusolverMgDestroyMatrixDesc(da));
    CS(cusolverMgDestroyGrid(grid));
    CS(cusolverMgDestroy(h));
    CU(cudaSetDevice(0));
    return sec;
}

static void tessera_run(int r, long n, double *A, double *B, int64_t *ipiv, int64_t *info)
{
    if (r == GETRF)
        TK(tess_dgetrf_async(n, n, A, n, ipiv, info));
    else
        TK(tess_dgesv_async(n, nrhs, A, n, ipiv, B, n, info));
    TK(tess_memory_coherent_async(TessAll, n, n, A, n, sizeof *A));
    if (r == GESV)
        TK(tess_memory_coherent_async(TessAll, n, nrhs, B, n, sizeof *B));
    TK(tess_memory_coherent_async(TessAll, n, 1, ipiv, n, sizeof *ipiv));
    TK(tess_sync());
}

static bool tessera_checks(long n, const double *A0, const double *L, const int64_t *ipiv,
                           const double *F, const int *piv, const double *B0, const double *X)
{
    for (long i = 0; i < (n < 64 ? n : 64); i++)
        if (ipiv[i] != piv[i])
            return false;
    uint64_t x = 12345;
    for (int s = 0; s < 64; s++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        long i = (long)(x >> 33) % n, j = (long)(x >> 13) % n;
        double d = fabs(L[i + j * n] - F[i + j * n]), scale = fabs(F[i + j * n]) + 1;
        if (!(d <= 1e-8 * scale * sqrt((double)n)))
            return false;
    }
    for (int s = 0; s < 16; s++) {
        long i = (long)((x = x * 6364136223846793005ull + 1) >> 33) % n;
        double r = -B0[i], sum = fabs(B0[i]);
        for (long j = 0; j < n; j++) {
            r += A0[i + j * n] * X[j];
            sum += fabs(A0[i + j * n] * X[j]);
        }
        if (!(fabs(r) <= 1e-8 * sum))
            return false;
    }
    return true;
}

static void tessera(int g, int have, long n, const double *A0, const double *B0, double *A,
                    double *B, double *L, int64_t *ipiv, double sec[NROUT])
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
    tessera_run(GETRF, w, A, B, ipiv, &info);
    for (int r = 0; r < NROUT; r++) {
        for (int i = 0; i < reps; i++) {
            memcpy(A, A0, an * sizeof *A);
            if (r == GESV)
                memcpy(B, B0, bn * sizeof *B);
            TK(tess_memory_invalidate_all());
            double t0 = bench_now();
            tessera_run(r, n, A, B, ipiv, &info);
            t[i] = bench_now() - t0;
            if (info)
                BENCH_FAIL(names[r], "Tessera's info is not 0");
        }
        if (r == GETRF)
            memcpy(L, A, an * sizeof *L);
        sec[r] = bench_median(t, reps);
    }
    TK(tess_finalize());
}

int main(int argc, char **argv)
{
    const char *prog = argv[0];
    int gpus[16], ng, have, a = bench_solver_args(argc, argv, "N", &nrhs, &reps, gpus, &ng, &have);
    if (!a)
        return 2;
    if (!(csv = bench_csv(argv[a], "lu.csv")))
        return 1;
    fprintf(csv, "routine,n,gpus,impl,seconds,tflops\n");
    printf("%-7s %6s %4s %9s %9s %9s %9s  %8s %8s\n", "routine", "n", "gpus", "tessera", "cusolver",
           "dgemm", "TF/s", "/cusolv", "/g*gemm");
    for (int k = a + 2; k < argc; k++) {
        long n = atol(argv[k]);
        if (n < 1)
            continue;
        size_t an = (size_t)n * (size_t)n, bn = (size_t)n * (size_t)nrhs;
        double *A0 = bench_host_array(prog, an, 1), *B0 = bench_host_array(prog, bn, 2);
        double *A = bench_xmalloc(prog, an * sizeof *A), *B = bench_xmalloc(prog, bn * sizeof *B);
        double *L = bench_xmalloc(prog, an * sizeof *L), *F = bench_xmalloc(prog, an * sizeof *F);
        int64_t *ipiv = bench_xmalloc(prog, (size_t)n * sizeof *ipiv);
        int *piv = bench_xmalloc(prog, (size_t)n * sizeof *piv);
        CU(cudaHostRegister(A, an * sizeof *A, cudaHostRegisterDefault));
        CU(cudaHostRegister(B, bn * sizeof *B, cudaHostRegisterDefault));
        double gemm = bench_device_dgemm(n < 32768 ? n : 32768, A0, n, reps), cs[NROUT];
        long gm = n < 32768 ? n : 32768;
        fprintf(csv, "dgemm,%ld,1,cublas_device,%.6f,%.3f\n", gm,
                2.0 * gm * gm * gm / (gemm * 1e12), gemm);
        device_cusolver(n, A0, B0, F, piv, cs);
        for (int r = 0; r < NROUT; r++)
            record(r, n, 1, "cusolver_device", cs[r]);
        for (int i = 0; i < ng; i++) {
            double ts[NROUT];
            tessera(gpus[i], have, n, A0, B0, A, B, L, ipiv, ts);
            bool ok = tessera_checks(n, A0, L, ipiv, F, piv, B0, B);
            failed |= !ok;
            for (int r = 0; r < NROUT; r++) {
                record(r, n, gpus[i], "tessera", ts[r]);
                double tf = flops(r, n) / ts[r] * 1e-12;
                printf("%-7s %6ld %4d %9.3f %9.3f %9.1f %9.1f  %8.2f %8.2f %s\n", names[r], n,
                       gpus[i], ts[r], cs[r], gemm, tf, cs[r] / ts[r], tf / (gpus[i] * gemm),
                       ok ? "" : "FAIL");
            }
            for (int b = 0; b < MG_BLOCKS; b++) {
                double s = mg_getrf(gpus[i], mg_blocks[b], n, A0, A);
                if (s <= 0)
                    continue;
                char impl[48];
                snprintf(impl, sizeof impl, "cusolvermg_copies_b%d", mg_blocks[b]);
                record(GETRF, n, gpus[i], impl, s);
                printf("%-7s %6ld %4d cusolverMg, blocks of %d, copies counted: %.3f s, %.1f "
                       "TF/s; Tessera %.2fx\n",
                       names[GETRF], n, gpus[i], mg_blocks[b], s, flops(GETRF, n) / s * 1e-12,
                       s / ts[GETRF]);
            }
            fflush(stdout);
        }
        CU(cudaHostUnregister(A));
        CU(cudaHostUnregister(B));
        free(A0);
        free(B0);
        free(A);
        free(B);
        free(L);
        free(F);
        free(ipiv);
        free(piv);
    }
    fclose(csv);
    return failed;
}
