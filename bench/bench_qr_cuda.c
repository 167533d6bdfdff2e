/* QR in double from host memory: Tessera's DGEQRF and DGELS against cuSOLVER's
 * on device-resident data (one GPU, its copies not counted) and device DGEMM on
 * one GPU (the ceiling), in one process.
 *
 *   usage: bench_qr_cuda [--nrhs K] [--reps R] CSV-DIR NGPUS SIZE...
 *   e.g.   bench_qr_cuda $OUT 1,2,4 16384 32768 524288x512
 *
 * NGPUS: the GPU counts for Tessera, comma separated; g GPUs are devices 0 to
 * g-1.  cuSOLVER and DGEMM run on device 0.  SIZE: n (A n x n) or MxN (A m x n,
 * m >= n: the tall-skinny case).  A is uniform in [-0.5, 0.5) (ld = m), B is
 * m x K (K = 1024) and GELS solves the least-squares problem A X = B.  Flops:
 * DGEQRF 2 m n^2 - 2 n^3 / 3 (4 n^3 / 3 square), DGELS that + K (4 m n - n^2)
 * (Q^T B and the solve with R), DGEMM 2 g^3 on a g x g block of A's data,
 * g = min(32768, (m n)^1/2).
 *
 * Timing: the median of R runs (3) after an untimed warm-up.  A Tessera run:
 * the inputs restored on the host and tess_memory_invalidate_all (untimed),
 * then the call, tess_memory_coherent_async on A, on tau (GEQRF) or B (GELS),
 * and tess_sync, by the host clock: the copies are counted.  cuSOLVER runs
 * cusolverDnXgeqrf (and, for GELS, cusolverDnDormqr by blocks of 4096
 * reflectors and cublasDtrsm_64) on device data copied in untimed, timed by
 * CUDA events.
 *
 * Checks: |R(i,i)| from Tessera's DGEQRF equals cuSOLVER's for every i to
 * 1e-8 m^1/2 (|R(i,i)| + 1), and the residual r = b - A x of Tessera's DGELS
 * (first column) is orthogonal to 16 sampled columns a_j of A: |a_j^T r|
 * within 1e-8 of sum_i |a_ij| (|b_i| + sum_k |a_ik x_k|); a failure marks the
 * row FAIL and the exit status 1.
 *
 * Output: a table with the ratios on stdout, CSV-DIR/qr.csv
 * (routine,m,n,gpus,impl,seconds,tflops). */
#include <cusolverDn.h>
#include <math.h>
#include <string.h>
#include "bench_cuda_check.h"
#include "bench_solver.h"
#include "bench_util.h"

/* Reflectors per cusolverDnDormqr call: its 32-bit sizes then index at most m x 4096. */
#define ORMQR_BLOCK 4096

enum { GEQRF, GELS, NROUT };
static const char *const names[NROUT] = { "dgeqrf", "dgels" };
static int reps = 3, nrhs = 1024, failed;
static FILE *csv;

static double flops(int r, long m, long n)
{
    double x = (double)m, y = (double)n, f = 2 * x * y * y - 2 * y * y * y / 3;
    return f + (r == GELS ? nrhs * (4 * x * y - y * y) : 0);
}

static void record(int r, long m, long n, int g, const char *impl, double s)
{
    fprintf(csv, "%s,%ld,%ld,%d,%s,%.6f,%.3f\n", names[r], m, n, g, impl, s,
            flops(r, m, n) / s * 1e-12);
    fflush(csv);
}

static void check_info(const int *info, const char *what)
{
    int v;
    CU(cudaMemcpy(&v, info, sizeof v, cudaMemcpyDeviceToHost));
    if (v)
        BENCH_FAIL(what, "cuSOLVER's devInfo is not 0");
}

/* Q^T B (ORMQR by blocks of reflectors, first to last) and B(1:n) = R^-1 B(1:n), on device 0. */
static void device_solve(cusolverDnHandle_t s, cublasHandle_t b, long m, long n, const double *a,
                         const double *tau, double *bd, double *work, int lwork, int *info)
{
    const double one = 1;
    for (long j = 0; j < n; j += ORMQR_BLOCK) {
        long kb = n - j < ORMQR_BLOCK ? n - j : ORMQR_BLOCK;
        CS(cusolverDnDormqr(s, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, (int)(m - j), nrhs, (int)kb,
                            a + j + (size_t)j * (size_t)m, (int)m, tau + j, bd + j, (int)m, work,
                            lwork, info));
    }
    CB(cublasDtrsm_64(b, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                      CUBLAS_DIAG_NON_UNIT, n, nrhs, &one, a, m, bd, m));
}

/* cuSOLVER's DGEQRF and DGELS (geqrf, ormqr, trsm) on device 0; rdiag receives R's diagonal. */
static void device_cusolver(long m, long n, const double *A0, const double *B0, double *rdiag,
                            double sec[NROUT])
{
    size_t an = (size_t)m * (size_t)n, bn = (size_t)m * (size_t)nrhs, dbytes = 0, hbytes = 0;
    double *a, *bd, *tau, *work, t[16];
    void *dw, *hw;
    int *info, lwork = 0;
    cusolverDnHandle_t h;
    cusolverDnParams_t params;
    cublasHandle_t cb;
    cudaEvent_t e0, e1;
    CU(cudaSetDevice(0));
    CS(cusolverDnCreate(&h));
    CS(cusolverDnCreateParams(&params));
    CB(cublasCreate(&cb));
    CU(cudaMalloc((void **)&a, an * sizeof *a));
    CU(cudaMalloc((void **)&bd, bn * sizeof *bd));
    CU(cudaMalloc((void **)&tau, (size_t)n * sizeof *tau));
    CU(cudaMalloc((void **)&info, sizeof *info));
    CU(cudaEventCreate(&e0));
    CU(cudaEventCreate(&e1));
    CS(cusolverDnXgeqrf_bufferSize(h, params, m, n, CUDA_R_64F, a, m, CUDA_R_64F, tau, CUDA_R_64F,
                                   &dbytes, &hbytes));
    CS(cusolverDnDormqr_bufferSize(h, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, (int)m, nrhs,
                                   (int)(n < ORMQR_BLOCK ? n : ORMQR_BLOCK), a, (int)m, tau, bd,
                                   (int)m, &lwork));
    CU(cudaMalloc(&dw, dbytes > 0 ? dbytes : 1));
    CU(cudaMalloc((void **)&work, (size_t)(lwork > 0 ? lwork : 1) * sizeof *work));
    hw = bench_xmalloc("bench_qr_cuda", hbytes > 0 ? hbytes : 1);
    for (int r = 0; r < NROUT; r++) {
        for (int i = 0; i <= reps; i++) {
            CU(cudaMemcpy(a, A0, an * sizeof *a, cudaMemcpyHostToDevice));
            if (r == GELS)
                CU(cudaMemcpy(bd, B0, bn * sizeof *bd, cudaMemcpyHostToDevice));
            CU(cudaEventRecord(e0, 0));
            CS(cusolverDnXgeqrf(h, params, m, n, CUDA_R_64F, a, m, CUDA_R_64F, tau, CUDA_R_64F, dw,
                                dbytes, hw, hbytes, info));
            if (r == GELS)
                device_solve(h, cb, m, n, a, tau, bd, work, lwork, info);
            CU(cudaEventRecord(e1, 0));
            CU(cudaEventSynchronize(e1));
            check_info(info, names[r]);
            float ms;
            CU(cudaEventElapsedTime(&ms, e0, e1));
            if (i)
                t[i - 1] = ms * 1e-3;
        }
        if (r == GEQRF)
            CU(cudaMemcpy2D(rdiag, sizeof *rdiag, a, (size_t)(m + 1) * sizeof *a, sizeof *a,
                            (size_t)n, cudaMemcpyDeviceToHost));
        sec[r] = bench_median(t, reps);
    }
    CS(cusolverDnDestroyParams(params));
    CS(cusolverDnDestroy(h));
    CB(cublasDestroy(cb));
    CU(cudaFree(a));
    CU(cudaFree(bd));
    CU(cudaFree(tau));
    CU(cudaFree(info));
    CU(cudaFree(dw));
    CU(cudaFree(work));
    CU(cudaEventDestroy(e0));
    CU(cudaEventDestroy(e1));
    free(hw);
}

static void tessera_run(int r, long m, long n, double *A, double *B, double *tau, int64_t *info)
{
    if (r == GEQRF)
        TK(tess_dgeqrf_async(m, n, A, m, tau));
    else
        TK(tess_dgels_async(TessNoTrans, m, n, nrhs, A, m, B, m, info));
    TK(tess_memory_coherent_async(TessAll, m, n, A, m, sizeof *A));
    if (r == GEQRF)
        TK(tess_memory_coherent_async(TessAll, 1, n, tau, 1, sizeof *tau));
    else
        TK(tess_memory_coherent_async(TessAll, m, nrhs, B, m, sizeof *B));
    TK(tess_sync());
}

/* R's diagonal magnitudes against cuSOLVER's, and the residual's orthogonality (above). */
static bool tessera_checks(long m, long n, const double *A0, const double *B0, const double *rt,
                           const double *rc, const double *X)
{
    for (long i = 0; i < n; i++)
        if (!(fabs(fabs(rt[i]) - fabs(rc[i])) <= 1e-8 * sqrt((double)m) * (fabs(rc[i]) + 1)))
            return false;
    double *r = bench_xmalloc("bench_qr_cuda", (size_t)m * sizeof *r);
    double *s = bench_xmalloc("bench_qr_cuda", (size_t)m * sizeof *s);
    for (long i = 0; i < m; i++) {
        r[i] = B0[i];
        s[i] = fabs(B0[i]);
    }
    for (long k = 0; k < n; k++)
        for (long i = 0; i < m; i++) {
            double p = A0[i + k * m] * X[k];
            r[i] -= p;
            s[i] += fabs(p);
        }
    bool ok = true;
    uint64_t x = 12345;
    for (int t = 0; t < 16 && ok; t++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        long j = (long)(x >> 33) % n;
        double dot = 0, bound = 0;
        for (long i = 0; i < m; i++) {
            dot += A0[i + j * m] * r[i];
            bound += fabs(A0[i + j * m]) * s[i];
        }
        ok = fabs(dot) <= 1e-8 * bound;
    }
    free(r);
    free(s);
    return ok;
}

static void tessera(int g, int have, long m, long n, const double *A0, const double *B0, double *A,
                    double *B, double *tau, double *rt, double sec[NROUT])
{
    char dev[256];
    bench_cuda_devices(g, have, dev, sizeof dev);
    tess_config_t cfg = { .devices = dev };
    TK(tess_init(&cfg));
    size_t an = (size_t)m * (size_t)n, bn = (size_t)m * (size_t)nrhs;
    int64_t info = 0;
    double t[16];
    /* warm-up: kernels loaded, handles made */
    long w = n < 4096 ? n : 4096;
    memcpy(A, A0, (size_t)(w * w) * sizeof *A);
    tessera_run(GEQRF, w, w, A, B, tau, &info);
    for (int r = 0; r < NROUT; r++) {
        for (int i = 0; i < reps; i++) {
            memcpy(A, A0, an * sizeof *A);
            if (r == GELS)
                memcpy(B, B0, bn * sizeof *B);
            TK(tess_memory_invalidate_all());
            double t0 = bench_now();
            tessera_run(r, m, n, A, B, tau, &info);
            t[i] = bench_now() - t0;
            if (info)
                BENCH_FAIL(names[r], "Tessera's info is not 0");
        }
        if (r == GEQRF)
            for (long i = 0; i < n; i++)
                rt[i] = A[i + i * m];
        sec[r] = bench_median(t, reps);
    }
    TK(tess_finalize());
}

/* "n" or "MxN" with m >= n >= 1; false otherwise. */
static bool parse_size(const char *s, long *m, long *n)
{
    char *end;
    *m = strtol(s, &end, 10);
    *n = *m;
    if (*end == 'x')
        *n = strtol(end + 1, &end, 10);
    return !*end && *n >= 1 && *m >= *n;
}

int main(int argc, char **argv)
{
    const char *prog = argv[0];
    int gpus[16], ng, have,
        a = bench_solver_args(argc, argv, "SIZE", &nrhs, &reps, gpus, &ng, &have);
    if (!a)
        return 2;
    for (int k = a + 2; k < argc; k++) {
        long m, n;
        if (!parse_size(argv[k], &m, &n)) {
            fprintf(stderr, "%s: size %s is not n or MxN with m >= n >= 1\n", prog, argv[k]);
            return 2;
        }
    }
    if (!(csv = bench_csv(argv[a], "qr.csv")))
        return 1;
    fprintf(csv, "routine,m,n,gpus,impl,seconds,tflops\n");
    printf("%-7s %7s %6s %4s %9s %9s %9s %9s  %8s %8s\n", "routine", "m", "n", "gpus", "tessera",
           "cusolver", "dgemm", "TF/s", "/cusolv", "/g*gemm");
    for (int k = a + 2; k < argc; k++) {
        long m, n, gm;
        parse_size(argv[k], &m, &n);
        size_t an = (size_t)m * (size_t)n, bn = (size_t)m * (size_t)nrhs;
        double *A0 = bench_host_array(prog, an, 1), *B0 = bench_host_array(prog, bn, 2);
        double *A = bench_xmalloc(prog, an * sizeof *A), *B = bench_xmalloc(prog, bn * sizeof *B);
        double *tau = bench_xmalloc(prog, (size_t)n * sizeof *tau);
        double *rt = bench_xmalloc(prog, (size_t)n * sizeof *rt);
        double *rc = bench_xmalloc(prog, (size_t)n * sizeof *rc);
        CU(cudaHostRegister(A, an * sizeof *A, cudaHostRegisterDefault));
        CU(cudaHostRegister(B, bn * sizeof *B, cudaHostRegisterDefault));
        /* a square of about the matrix's size, on A0's first gm^2 elements */
        gm = (long)sqrt((double)m * (double)n);
        gm = gm < 32768 ? gm : 32768;
        double gemm = bench_device_dgemm(gm, A0, gm, reps), cs[NROUT];
        fprintf(csv, "dgemm,%ld,%ld,1,cublas_device,%.6f,%.3f\n", gm, gm,
                2.0 * gm * gm * gm / (gemm * 1e12), gemm);
        device_cusolver(m, n, A0, B0, rc, cs);
        for (int r = 0; r < NROUT; r++)
            record(r, m, n, 1, "cusolver_device", cs[r]);
        for (int i = 0; i < ng; i++) {
            double ts[NROUT];
            tessera(gpus[i], have, m, n, A0, B0, A, B, tau, rt, ts);
            bool ok = tessera_checks(m, n, A0, B0, rt, rc, B);
            failed |= !ok;
            for (int r = 0; r < NROUT; r++) {
                record(r, m, n, gpus[i], "tessera", ts[r]);
                double tf = flops(r, m, n) / ts[r] * 1e-12;
                printf("%-7s %7ld %6ld %4d %9.3f %9.3f %9.1f %9.1f  %8.2f %8.2f %s\n", names[r], m,
                       n, gpus[i], ts[r], cs[r], gemm, tf, cs[r] / ts[r], tf / (gpus[i] * gemm),
                       ok ? "" : "FAIL");
            }
            fflush(stdout);
        }
        CU(cudaHostUnregister(A));
        CU(cudaHostUnregister(B));
        free(A0);
        free(B0);
        free(A);
        free(B);
        free(tau);
        free(rt);
        free(rc);
    }
    fclose(csv);
    return failed;
}
