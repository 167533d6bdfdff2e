/* The runtime's cost per task, with tiles so small (default nb = 32, n = 1024:
 * 32768 GEMM tasks) that the kernels take little time:
 *   submit   time in tess_dgemm_async per task (dependencies, placement);
 *   runtime  (devices x wall time - time in kernels) per task: everything a
 *            task costs besides its kernel (queues, cache, copies, completion);
 *   chain    wall time per step of CHAIN single-tile GEMMs (nb x nb) that
 *            each update the same C, so that each waits for the one before:
 *            what a task costs on the critical path from its predecessor's
 *            end to its own (the kernel included, reported beside it);
 *   mv       wall time per step of CHAIN single-tile GEMVs, each reading the
 *            piece of x the one before wrote: on one device ("same"), and
 *            with the steps on two devices in turn ("cross"), each then
 *            waiting for its predecessor on the other device and for its
 *            piece's copy (bytes copied per step reported beside it; with one
 *            device both chains run on it).
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
    /* A chain of single-tile GEMVs, x_k = M_k x_(k-1), M_k tile (k mod 2, k) of M (2 nb x
     * CHAIN nb).  A GEMV task runs where its matrix tile is, and only a device holding that
     * tile takes it; a first call on the whole of M leaves tile (i, j) on the grid's device
     * (i mod p, j mod q), so that consecutive steps alternate between two devices on any grid
     * of more than one, each waiting for the step before on the other device and for its
     * piece of x (nb elements).  Then the same chain on M_1 alone, on one device. */
    long lm = 2 * nb, mn = (long)CHAIN * nb;
    double *M = bench_host_array(argv[0], (size_t)(lm * mn), 4),
           *V = calloc((size_t)(CHAIN + 1) * nb + lm, sizeof *V);
    if (!V || tess_dgemv_async(TessNoTrans, lm, mn, 1.0, M, lm, V, 1, 0.0, V + mn + nb, 1) ||
        tess_sync())
        return 1;
    double cross[REPS], same[REPS], cross_bytes = 0;
    for (int r = 0; r < 2 * REPS; r++) {
        tess_stats_t s0, s1;
        tess_get_stats(&s0);
        double t0 = bench_now();
        for (long k = 1; k <= CHAIN; k++) {
            long tk = r < REPS ? k - 1 : 1;
            if (tess_dgemv_async(TessNoTrans, nb, nb, 1.0 / nb, M + tk % 2 * nb + tk * nb * lm, lm,
                                 V + (k - 1) * nb, 1, 0.0, V + k * nb, 1))
                return 1;
        }
        if (tess_sync())
            return 1;
        double us = (bench_now() - t0) / CHAIN * 1e6;
        tess_get_stats(&s1);
        if (r < REPS) {
            cross[r] = us;
            cross_bytes =
                (double)(s1.bytes_d2d + s1.bytes_h2d - s0.bytes_d2d - s0.bytes_h2d) / CHAIN;
        } else {
            same[r - REPS] = us;
        }
    }
    double mx = bench_median(cross, REPS), mxs = bench_median(same, REPS);
    printf("devices %s, n %ld, nb %ld, %ld tasks per call (median of %d)\n", devices, n, nb, ntasks,
           REPS);
    printf("submit  %.2f us/task\nwall    %.2f us/task\n"
           "runtime %.2f us/task (device time outside kernels, summed over devices)\n"
           "chain   %.2f us/step (%d dependent tasks, kernel %.2f us each)\n"
           "mv      %.2f us/step on one device, %.2f on two in turn (%d dependent GEMVs of "
           "%ld x %ld, %.0f bytes copied a step)\n",
           ms, mw, mr, mc, CHAIN, mck, mxs, mx, CHAIN, nb, nb, cross_bytes);
    FILE *csv = bench_csv(dir, "overhead.csv");
    if (csv) {
        fprintf(csv,
                "devices,n,nb,tasks,submit_us,wall_us,runtime_us,chain_us,chain_kernel_us,"
                "mv_same_us,mv_cross_us,mv_cross_bytes\n"
                "%s,%ld,%ld,%ld,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.0f\n",
                devices, n, nb, ntasks, ms, mw, mr, mc, mck, mxs, mx, cross_bytes);
        fclose(csv);
    }
    tess_finalize();
    free(A);
    free(B);
    free(C);
    free(M);
    free(V);
    return 0;
}
