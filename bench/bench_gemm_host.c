/* DGEMM on the host backend against the host BLAS on the same cores, in one
 * process on the same data.  Tessera's time includes every transfer: its
 * device copies are dropped before each repetition.
 *
 *   usage: bench_gemm_host [csv-dir] [n ...]     (default n: 1000 2000 3000) */
#include <cblas.h>
#include <string.h>
#include "bench_util.h"
#include "tessera.h"

#define REPS 3

static double time_openblas(long n, const double *A, const double *B, double *C)
{
    double t[REPS];
    for (int r = 0; r < REPS; r++) {
        double t0 = bench_now();
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A, n, B, n, 0.0, C, n);
        t[r] = bench_now() - t0;
    }
    return bench_median(t, REPS);
}

static double time_tessera(long n, double *A, double *B, double *C)
{
    double t[REPS];
    for (int r = 0; r < REPS; r++) {
        if (tess_memory_invalidate_all())
            return -1;
        double t0 = bench_now();
        if (tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1.0, A, n, B, n, 0.0, C, n) ||
            tess_memory_coherent_async(TessAll, n, n, C, n, sizeof *C) || tess_sync())
            return -1;
        t[r] = bench_now() - t0;
    }
    return bench_median(t, REPS);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    long sizes[16] = { 1000, 2000, 3000 };
    int nsizes = 3;
    if (argc > 2)
        for (nsizes = 0; nsizes + 2 < argc && nsizes < 16; nsizes++)
            sizes[nsizes] = atol(argv[nsizes + 2]);
    const char *devices = getenv("TESS_DEVICES") ? getenv("TESS_DEVICES") : "host:2";
    FILE *csv = bench_csv(dir, "gemm_host.csv");
    if (!csv)
        return 1;
    fprintf(csv, "n,devices,openblas_threads,openblas_gflops,tessera_gflops,ratio\n");
    printf("%6s %12s %14s %14s %7s\n", "n", "devices", "OpenBLAS GF/s", "Tessera GF/s", "ratio");
    for (int i = 0; i < nsizes; i++) {
        long n = sizes[i];
        fprintf(stderr, "[%d/%d] n = %ld\n", i + 1, nsizes, n);
        double *A = bench_matrix(n, 1), *B = bench_matrix(n, 2), *C = bench_matrix(n, 3);
        int threads = openblas_get_num_threads();
        double t_ob = time_openblas(n, A, B, C);
        tess_config_t cfg = { .devices = devices };
        if (tess_init(&cfg)) {
            fprintf(stderr, "tess_init failed\n");
            return 1;
        }
        double t_ts = time_tessera(n, A, B, C);
        tess_finalize();
        if (t_ts < 0) {
            fprintf(stderr, "tessera run failed\n");
            return 1;
        }
        double gf = 2.0 * n * n * n * 1e-9;
        printf("%6ld %12s %14.1f %14.1f %7.2f\n", n, devices, gf / t_ob, gf / t_ts, t_ob / t_ts);
        fprintf(csv, "%ld,%s,%d,%.2f,%.2f,%.3f\n", n, devices, threads, gf / t_ob, gf / t_ts,
                t_ob / t_ts);
        free(A);
        free(B);
        free(C);
    }
    fclose(csv);
    return 0;
}
