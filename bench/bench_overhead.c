/* The runtime's cost per task, with tiles so small (default nb = 32, n = 1024:
 * 32768 GEMM tasks) that the kernels take little time:
 *   submit   time in tess_dgemm_async per task (dependencies, placement);
 *   runtime  (devices x wall time - time in kernels) per task: everything a
 *            task costs besides its kernel (queues, cache, copies, completion);
 *   chain    wall time per step of CHAIN single-tile GEMMs (nb x nb) that
 *            each update the same C, so that each waits for the one before:
 *            what a task costs on the critical path from its predecessor's
 *            end to its own (the kernel included, reported beside it).
 *
 *   usage: bench_overhead [csv-dir] [n] [nb]     (TESS_DEVICES, default host:2) */
#include "bench_util.h"
#include "tessera.h"

#define REPS 5
#define CHAIN 2000

/* Seconds the devices spent in kernels since s0 was taken, summed. */
static double busy_since(const tess_stats_t *s0)
{
    tess_stats_t s1;
    tess_get_stats(&s1);
    double busy = 0;
    for (int d = 0; d < s1.ndevices; d++)
        busy += s1.busy_s[d] - s0->busy_s[d];
    return busy;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    long n = argc > 2 ? atol(argv[2]) : 1024, nb = argc > 3 ? atol(argv[3]) : 32;
    const char *devices = getenv("TESS_DEVICES") ? getenv("TESS_DEVICES") : "host:2";
    double *A = bench_matrix(n, 1), *B = bench_matrix(n, 2), *C = bench_matrix(n, 3);
    tess_config_t cfg = { .devices = devices, .nb = nb };
    if (tess_init(&cfg))
        return 1;
    long nt = (n + nb - 1) / nb, ntasks = nt * nt * nt;
    double submit[REPS], runtime[REPS], wall[REPS];
    for (int r = 0; r < REPS; r++) {
        tess_stats_t s0;
        tess_get_stats(&s0);
        double t0 = bench_now();
        if (tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 1.0, A, n, B, n, 0.0, C, n))
            return 1;
        double t1 = bench_now();
        if (tess_sync())
            return 1;
        double t2 = bench_now();
        double busy = busy_since(&s0);
        submit[r] = (t1 - t0) / ntasks * 1e6;
        wall[r] = (t2 - t0) / ntasks * 1e6;
        runtime[r] = (s0.ndevices * (t2 - t0) - busy) / ntasks * 1e6;
    }
    double ms = bench_median(submit, REPS), mr = bench_median(runtime, REPS);
    double mw = bench_median(wall, REPS);
    double chain[REPS], chain_kernel[REPS];
    for (int r = 0; r < REPS; r++) {
        tess_stats_t s0;
        tess_get_stats(&s0);
        double t0 = bench_now();
        for (int k = 0; k < CHAIN; k++)
            if (tess_dgemm_async(TessNoTrans, TessNoTrans, nb, nb, nb, 1.0, A, n, B, n, 1.0, C, n))
                return 1;
        if (tess_sync())
            return 1;
        double t1 = bench_now();
        chain[r] = (t1 - t0) / CHAIN * 1e6;
        chain_kernel[r] = busy_since(&s0) / CHAIN * 1e6;
    }
    double mc = bench_median(chain, REPS), mck = bench_median(chain_kernel, REPS);
    printf("devices %s, n %ld, nb %ld, %ld tasks per call (median of %d)\n", devices, n, nb, ntasks,
           REPS);
    printf("submit  %.2f us/task\nwall    %.2f us/task\n"
           "runtime %.2f us/task (device time outside kernels, summed over devices)\n"
           "chain   %.2f us/step (%d dependent tasks, kernel %.2f us each)\n",
           ms, mw, mr, mc, CHAIN, mck);
    FILE *csv = bench_csv(dir, "overhead.csv");
    if (csv) {
        fprintf(csv,
                "devices,n,nb,tasks,submit_us,wall_us,runtime_us,chain_us,chain_kernel_us\n"
                "%s,%ld,%ld,%ld,%.3f,%.3f,%.3f,%.3f,%.3f\n",
                devices, n, nb, ntasks, ms, mw, mr, mc, mck);
        fclose(csv);
    }
    tess_finalize();
    free(A);
    free(B);
    free(C);
    return 0;
}
