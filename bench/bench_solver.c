#include "bench_solver.h"
#include "bench_cuda_check.h"
#include "bench_util.h"

int bench_solver_args(int argc, char **argv, const char *sizes, int *nrhs, int *reps, int *gpus,
                      int *ngpus, int *have)
{
    int a = 1;
    for (; a + 1 < argc && !strncmp(argv[a], "--", 2); a += 2) {
        int v = atoi(argv[a + 1]);
        if (!strcmp(argv[a], "--nrhs") && v > 0)
            *nrhs = v;
        else if (!strcmp(argv[a], "--reps") && v > 0 && v <= 15)
            *reps = v;
        else
            a = argc;
    }
    *ngpus = argc - a >= 3 ? bench_parse_list(argv[a + 1], gpus, 16) : -1;
    CU(cudaGetDeviceCount(have));
    if (*ngpus < 1 || a >= argc) {
        fprintf(stderr, "usage: %s [--nrhs K] [--reps R] CSV-DIR NGPUS %s...\n", argv[0], sizes);
        return 0;
    }
    for (int i = 0; i < *ngpus; i++)
        if (gpus[i] > *have) {
            fprintf(stderr, "%s: %d GPUs asked, %d present\n", argv[0], gpus[i], *have);
            return 0;
        }
    return a;
}

double bench_device_dgemm(long m, const double *A0, long ld, int reps)
{
    size_t bytes = (size_t)m * (size_t)m * sizeof(double);
    double *a, *c, one = 1, zero = 0, t[16];
    cublasHandle_t h;
    cudaEvent_t e0, e1;
    CU(cudaSetDevice(0));
    CU(cudaMalloc((void **)&a, bytes));
    CU(cudaMalloc((void **)&c, bytes));
    size_t row = (size_t)m * sizeof(double);
    CU(cudaMemcpy2D(a, row, A0, (size_t)ld * sizeof(double), row, (size_t)m,
                    cudaMemcpyHostToDevice));
    CB(cublasCreate(&h));
    CU(cudaEventCreate(&e0));
    CU(cudaEventCreate(&e1));
    for (int i = 0; i <= reps; i++) {
        float ms;
        CU(cudaEventRecord(e0, 0));
        CB(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)m, (int)m, (int)m, &one, a, (int)m, a,
                       (int)m, &zero, c, (int)m));
        CU(cudaEventRecord(e1, 0));
        CU(cudaEventSynchronize(e1));
        CU(cudaEventElapsedTime(&ms, e0, e1));
        if (i)
            t[i - 1] = ms * 1e-3;
    }
    double s = bench_median(t, reps);
    CB(cublasDestroy(h));
    CU(cudaFree(a));
    CU(cudaFree(c));
    CU(cudaEventDestroy(e0));
    CU(cudaEventDestroy(e1));
    return 2.0 * m * m * m / s * 1e-12;
}

void bench_mg_copy(int g, long T, double *const *dev, double *M, long n, long cols, bool in)
{
    for (long jb = 0, nb = (cols + T - 1) / T; jb < nb; jb++) {
        long j0 = jb * T, w = cols - j0 < T ? cols - j0 : T;
        double *d = dev[jb % g] + (size_t)(jb / g) * T * n;
        size_t bytes = (size_t)n * (size_t)w * sizeof(double);
        if (in)
            CU(cudaMemcpy(d, M + (size_t)j0 * n, bytes, cudaMemcpyHostToDevice));
        else
            CU(cudaMemcpy(M + (size_t)j0 * n, d, bytes, cudaMemcpyDeviceToHost));
    }
}
