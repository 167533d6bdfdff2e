/* DGEMM from host memory on 1 and 2 GPUs: Tessera against cuBLAS-XT (block
 * 2048 and 4096, the better reported) in one process on the same data, with
 * cuBLAS on device-resident data as the per-GPU ceiling.  Host operands are
 * pinned before timing (the pinning time is reported apart); every timed
 * Tessera run starts with no tile on any GPU and ends with C coherent on the
 * host, so transfers are included.
 *
 *   usage: bench_gemm_cuda [--tessera-only] CSV-DIR NGPUS-MAX n...
 *          (e.g. $OUT 2 4096 8192 16384 32768; TESS_NB and TESS_WINDOW apply)
 * --tessera-only skips the peers, to compare Tessera's settings quickly. */
#include <cublasXt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdbool.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include "bench_util.h"
#include "tessera.h"

#define REPS 3

#define CK(call)                                                                                \
    do {                                                                                        \
        if ((call) != 0) {                                                                      \
            fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #call);                  \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

/* cuBLAS DGEMM on GPU 0 with A, B, C already there: seconds, median. */
static double time_device(long n, const double *A, const double *B)
{
    size_t bytes = (size_t)n * n * sizeof(double);
    double *dA, *dB, *dC;
    cublasHandle_t h;
    cudaEvent_t e0, e1;
    CK(cudaSetDevice(0));
    CK(cudaMalloc((void **)&dA, bytes));
    CK(cudaMalloc((void **)&dB, bytes));
    CK(cudaMalloc((void **)&dC, bytes));
    CK(cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, B, bytes, cudaMemcpyHostToDevice));
    CK(cublasCreate(&h));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const double one = 1, zero = 0;
    double t[REPS];
    CK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dC, n));
    for (int r = 0; r < REPS; r++) {
        float ms;
        CK(cudaEventRecord(e0, 0));
        CK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dC, n));
        CK(cudaEventRecord(e1, 0));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
        t[r] = ms * 1e-3;
    }
    cublasDestroy(h);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return bench_median(t, REPS);
}

static double time_xt(long n, int ngpu, int block, const double *A, const double *B, double *C)
{
    cublasXtHandle_t h;
    int ids[2] = { 0, 1 };
    CK(cublasXtCreate(&h));
    CK(cublasXtDeviceSelect(h, ngpu, ids));
    CK(cublasXtSetBlockDim(h, block));
    const double one = 1, zero = 0;
    double t[REPS];
    for (int r = 0; r < REPS; r++) {
        double t0 = bench_now();
        CK(cublasXtDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n));
        t[r] = bench_now() - t0;
    }
    cublasXtDestroy(h);
    return bench_median(t, REPS);
}

/* Tessera's C checked on 64 sampled entries against dot products on the host:
 * the largest |C - ref| / (sum |a||b|), which rounding keeps under n eps. */
static double sampled_error(long n, const double *A, const double *B, const double *C)
{
    double worst = 0;
    uint64_t x = 12345;
    for (int s = 0; s < 64; s++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        long i = (long)((x >> 33) % (uint64_t)n), j = (long)((x >> 13) % (uint64_t)n);
        double ref = 0, mag = 0;
        for (long k = 0; k < n; k++) {
            ref += A[i + k * n] * B[k + j * n];
            mag += fabs(A[i + k * n] * B[k + j * n]);
        }
        double e = fabs(C[i + j * n] - ref) / (mag > 0 ? mag : 1);
        if (!(e <= worst))
            worst = e;                  /* NaN sticks */
    }
    return worst;
}

typedef struct {
    double seconds;
    double error;
    tess_stats_t delta;                 /* of the median run's neighbourhood: the last run */
} tess_run_t;

static tess_run_t time_tessera(long n, int ngpu, double *A, double *B, double *C)
{
    tess_config_t cfg = { .devices = ngpu == 1 ? "cuda:0" : "cuda:0,1" };
    CK(tess_init(&cfg));
    size_t bytes = (size_t)n * n * sizeof(double);
    CK(tess_memory_register_async(A, bytes));
    CK(tess_memory_register_async(B, bytes));
    CK(tess_memory_register_async(C, bytes));
    tess_run_t out;
    double t[REPS];
    for (int r = 0; r < REPS; r++) {
        tess_stats_t s0, s1;
        CK(tess_memory_invalidate_all());
        CK(tess_get_stats(&s0));
        double t0 = bench_now();
        CK(tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1.0, A, n, B, n, 0.0, C, n));
        CK(tess_memory_coherent_async(TessAll, n, n, C, n, sizeof *C));
        CK(tess_sync());
        t[r] = bench_now() - t0;
        CK(tess_get_stats(&s1));
        out.delta = s1;
        out.delta.bytes_h2d -= s0.bytes_h2d;
        out.delta.bytes_d2h -= s0.bytes_d2h;
        out.delta.bytes_d2d -= s0.bytes_d2d;
    }
    out.seconds = bench_median(t, REPS);
    out.error = sampled_error(n, A, B, C);
    CK(tess_finalize());
    return out;
}

int main(int argc, char **argv)
{
    bool peers = !(argc > 1 && !strcmp(argv[1], "--tessera-only"));
    if (!peers) {
        argv++;
        argc--;
    }
    if (argc < 4) {
        fprintf(stderr, "usage: %s [--tessera-only] CSV-DIR NGPUS-MAX n...\n", argv[0]);
        return 2;
    }
    int maxgpu = atoi(argv[2]), have = 0;
    CK(cudaGetDeviceCount(&have));
    if (maxgpu > have)
        maxgpu = have;
    FILE *csv = bench_csv(argv[1], "gemm_cuda.csv");
    if (!csv)
        return 1;
    fprintf(csv, "n,gpus,cublas_device_tflops,xt2048_tflops,xt4096_tflops,tessera_tflops,"
                 "tessera_over_xt,tessera_over_ngpu_device,h2d_over_min,d2h_over_min,d2d_gb,pin_s\n");
    const char *nb = getenv("TESS_NB"), *window = getenv("TESS_WINDOW");
    printf("TESS_NB=%s TESS_WINDOW=%s\n", nb ? nb : "(default)", window ? window : "(default)");
    printf("%6s %4s %10s %10s %10s %10s %8s %9s %8s %8s %8s\n", "n", "gpus", "dev TF/s",
           "XT2048", "XT4096", "Tessera", "vs XT", "vs n*dev", "h2d/min", "d2h/min", "d2d GB");
    for (int i = 3; i < argc; i++) {
        long n = atol(argv[i]);
        size_t bytes = (size_t)n * n * sizeof(double);
        fprintf(stderr, "[n = %ld] filling and pinning %.1f GB\n", n, 3.0 * bytes / 1e9);
        double *A = bench_matrix(n, 1), *B = bench_matrix(n, 2), *C = bench_matrix(n, 3);
        double p0 = bench_now();
        CK(cudaHostRegister(A, bytes, cudaHostRegisterPortable));
        CK(cudaHostRegister(B, bytes, cudaHostRegisterPortable));
        CK(cudaHostRegister(C, bytes, cudaHostRegisterPortable));
        double pin_s = bench_now() - p0;
        double flops = 2.0 * n * n * n;
        fprintf(stderr, "[n = %ld] cuBLAS on device data\n", n);
        double dev = peers ? flops / time_device(n, A, B) * 1e-12 : 0;
        for (int g = 1; g <= maxgpu; g++) {
            fprintf(stderr, "[n = %ld, %d GPU] cuBLAS-XT\n", n, g);
            double xt2 = peers ? flops / time_xt(n, g, 2048, A, B, C) * 1e-12 : 0;
            double xt4 = peers ? flops / time_xt(n, g, 4096, A, B, C) * 1e-12 : 0;
            fprintf(stderr, "[n = %ld, %d GPU] Tessera\n", n, g);
            tess_run_t ts = time_tessera(n, g, A, B, C);
            double tt = flops / ts.seconds * 1e-12, xt = xt2 > xt4 ? xt2 : xt4;
            if (!(ts.error <= n * DBL_EPSILON)) {
                fprintf(stderr, "n = %ld, %d GPU: Tessera's C is wrong (sampled error %.2e)\n",
                        n, g, ts.error);
                return 1;
            }
            double h2d = ts.delta.bytes_h2d / (2.0 * bytes), d2h = ts.delta.bytes_d2h / (double)bytes;
            /* no ratio without the peers measured */
            double vs_xt = peers ? tt / xt : NAN, vs_dev = peers ? tt / (g * dev) : NAN;
            printf("%6ld %4d %10.1f %10.1f %10.1f %10.1f %8.2f %9.2f %8.2f %8.2f %8.1f\n", n, g, dev,
                   xt2, xt4, tt, vs_xt, vs_dev, h2d, d2h, ts.delta.bytes_d2d / 1e9);
            fprintf(csv, "%ld,%d,%.2f,%.2f,%.2f,%.2f,%.3f,%.3f,%.3f,%.3f,%.2f,%.2f\n", n, g, dev,
                    xt2, xt4, tt, vs_xt, vs_dev, h2d, d2h, ts.delta.bytes_d2d / 1e9, pin_s);
            fflush(csv);
        }
        cudaHostUnregister(A);
        cudaHostUnregister(B);
        cudaHostUnregister(C);
        free(A); free(B); free(C);
    }
    fclose(csv);
    return 0;
}
