/* BLAS-3 in double from host memory: Tessera against cuBLAS-XT on the same
 * pinned host data (the better of its block sizes), and against cuBLAS on
 * device-resident data, both the same routine and DGEMM n x n x n (the
 * ceiling), all measured in one process.
 *
 *   usage: bench_blas3_cuda [options] CSV-DIR NGPUS ROUTINES SIZE... [ROUTINES SIZE...]...
 *   e.g.   bench_blas3_cuda $OUT 1 all 16384 32768 trsm,trmm 32768x512 32768x4096
 *
 * NGPUS: the GPU counts for Tessera and cuBLAS-XT, comma separated ("1", "1,2"):
 * g GPUs are devices 0 to g-1 (Tessera's tess_config_t.devices is "cuda:0" for
 * one, "cuda:0,1,..." or "cuda" when g > 1 is all of them; cublasXtDeviceSelect).
 * cuBLAS on device data always runs on device 0.  ROUTINES: a comma list of
 * gemm, symm, syrk, syr2k, gemmt, trsm, trmm, trsm_gemm, or all; it applies
 * to the SIZEs that follow it, up to the next ROUTINES.  SIZE: P or PxQ (Q = P
 * when left out).  Every case runs on 8-byte doubles, column-major, each
 * matrix packed (leading dimension = its rows); flops are the reference
 * BLAS's counts:
 *
 *   gemm       C = A B, A m x k, B k x n, beta 0                m = n = P, k = Q   2 m n k
 *   symm       side L, lower: C = A B, A m x m, B m x n, beta 0 m = P, n = Q       2 m^2 n
 *   syrk       lower, N: C = A A^T, A n x k, beta 0             n = P, k = Q       n^2 k
 *   syr2k      lower, N: C = A B^T + B A^T, A, B n x k, beta 0  n = P, k = Q       2 n^2 k
 *   gemmt      lower, N, T: C = A B^T on C's lower triangle     n = P, k = Q       n^2 k
 *   trsm       side L, lower, N, non-unit: B = d A^-1 B, A m x m, B m x n
 *                                                               m = P, n = Q       m^2 n
 *   trmm       as trsm: B = A B / d                             m = P, n = Q       m^2 n
 *   trsm_gemm  X = d A^-1 B (trsm in place on B), then C -= X^T X (gemm T N, C n x n, beta 1)
 *                                                               m = P, n = Q       m^2 n + 2 n^2 m
 *
 * Data: uniform in [-0.5, 0.5); for the triangular cases A's diagonal is d =
 * m, so that A = d (I + E) with E small (norm about 0.6 / sqrt(m)): A is well
 * conditioned, and with alpha d (trsm) or 1/d (trmm) B keeps its size over any
 * number of runs in place, so no run needs its input restored.  cuBLAS's TRMM writes a separate C
 * (its documented form; in place is Tessera's), and cuBLAS-XT's
 * trsm_gemm is its blocking cublasXtDtrsm then cublasXtDgemm.  GEMMT's peer
 * is DSYRKX (C = A B^T on one triangle: the same work), on the host
 * (cublasXtDsyrkx) and on the device (cublasDsyrkx; cuBLAS has no GEMMT).
 *
 * Timing.  The three host matrices of a size (P x P or larger, for all its
 * cases) are filled and pinned (cudaHostRegister; pin_s is that time, apart)
 * before anything is timed.  A Tessera run is: tess_memory_invalidate_all (no
 * tile on any GPU; untimed), then the call(s), tess_memory_coherent_async on
 * the output (C's lower part for syrk, syr2k, gemmt; B for trsm and trmm; C for
 * trsm_gemm, whose X stays on the devices as an intermediate) and tess_sync,
 * timed by the host clock.  A cuBLAS-XT run is the blocking call(s), timed by
 * the host clock; a cuBLAS run on device data is timed by CUDA events.  Each
 * timing is the median of REPS runs after an untimed warm-up: cuBLAS on device
 * data warms up at full size, Tessera and each XT block size on the same case
 * cut to 4096 (the first calls load kernels and set up handles).  REPS is 3,
 * and 1 for cases of 2e13 flops or more (--reps, --reps-large): every square
 * case from 32768 on, whose runs take seconds each, while one command has at
 * most a few minutes; the tall 32768 x 512 and x 4096 cases keep 3.  The
 * device DGEMM ceiling is measured once per size (the cases' largest
 * dimension), square, with the same rule for its runs.
 *
 * Transfers: Tessera's bytes_h2d and bytes_d2h (tess_get_stats around the last
 * run) over the minimum, each input read once and each output written once,
 * counting only the elements the routine reads or writes:
 *   gemm       h2d (m k + k n) 8     d2h m n 8
 *   symm       h2d (T(m) + m n) 8    d2h m n 8        T(x) = x (x + 1) / 2, a triangle
 *   syrk       h2d n k 8             d2h T(n) 8       (beta 0: C is not read)
 *   syr2k      h2d 2 n k 8           d2h T(n) 8
 *   gemmt      h2d 2 n k 8           d2h T(n) 8
 *   trsm, trmm h2d (T(m) + m n) 8    d2h m n 8
 *   trsm_gemm  h2d (T(m) + m n + n^2) 8   d2h n^2 8   (X is not written back)
 * The triangles count elements, not tiles: an implementation that moves whole
 * diagonal tiles of side nb moves n (n + nb) / 2 elements for a triangle of
 * side n, a ratio of (n + nb) / (n + 1) for that operand at best; and a
 * triangular output's diagonal tiles must also be read in, to keep the other
 * triangle, n nb elements more h2d (syrk at n = k = 16384, nb = 4096: h2d/min
 * 1.25 and d2h/min 1.25 at best).  With g > 1 GPUs, inputs that several GPUs
 * need cross the bus more than once.
 *
 * Tessera's output is checked on sampled entries (64, or 9 for trsm_gemm)
 * against sums on the host, as |error| / sum |terms| <= 8 kd eps (kd the
 * inner dimension); for syrk, syr2k and gemmt, 16 entries of C's upper
 * triangle must be unchanged.  A failed check marks the row FAIL and the
 * exit status 1, and the run goes on.
 *
 * Output: progress lines on stderr, a table on stdout, and CSV-DIR/blas3_TAG.csv
 * (TAG: --tag, default the host name), a row per case and GPU count, written
 * as each row completes.  bench/plot_blas3.py draws it; bench/blas3.sh runs a
 * default set.  Exit status: 0; 1 on any CUDA, cuBLAS or Tessera error (at
 * once, with the failing call) or a failed check; 2 on bad usage; 3 when
 * --time-limit left cases out.
 *
 * CSV columns: gpu_name; routine, m, n, k; gpus (g); reps; gflop (the flops
 * above / 1e9); tessera_s (median) and tessera_tflops; xt_tflops, xt_block
 * (the best block size) and xt_by_block ("2048:9.100;4096:23.000", TFLOP/s per
 * block); device_tflops (the routine on device data, one GPU); device_dgemm_n
 * and device_dgemm_tflops (the ceiling); tessera_over_device_dgemm = Tessera /
 * (g x ceiling), tessera_over_device = Tessera / (g x device routine),
 * tessera_over_xt; h2d_bytes, d2h_bytes, d2d_bytes (Tessera's, its last run),
 * h2d_min_bytes, d2h_min_bytes, h2d_over_min, d2h_over_min; pin_s; check_error
 * and check (ok or FAIL); h2d_gbs, d2h_gbs, both_gbs (the host links' rates
 * with the case's g GPUs copying at once, measured per size: each GPU moves
 * its slice of pinned memory, up to 1 GiB, to the device, back, and both ways
 * together; GB/s in all), roofline_s (the case's least time: the most of its
 * flops at g x the ceiling, its h2d_min_bytes at h2d_gbs, its h2d_min_bytes +
 * d2h_min_bytes at both_gbs) and tessera_over_roofline (roofline_s over
 * Tessera's time).  A peer not run reads nan.  The table on stdout has the
 * same numbers: T/DGEMM is tessera_over_device_dgemm, T/roof
 * tessera_over_roofline.
 *
 * Options:
 *   --reps N         runs per measurement (3)
 *   --reps-large N   runs per measurement, cases of 2e13 flops or more (1)
 *   --xt-blocks LIST cuBLAS-XT block sizes, the best reported (2048,4096)
 *   --no-xt          no cuBLAS-XT
 *   --tessera-only   Tessera alone: no cuBLAS-XT, no cuBLAS on device data
 *   --tag NAME       the CSV is blas3_NAME.csv
 *   --append         append to the CSV (its header only when it is new or empty)
 *   --time-limit S   start no case after S seconds from the start
 * TESS_NB, TESS_WINDOW and the other TESS_* variables apply to Tessera. */
#include <cublasXt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include "bench_cuda_check.h"
#include "bench_util.h"
#include "blas3_cases.h"
#include "link_rates.h"
#include "tessera.h"

#define MAX_REPS 64
#define MAX_BLOCKS 4
#define MAX_CASES 256
#define LINK_BYTES ((size_t)1 << 30) /* per GPU, for the link rates */
#define LARGE_FLOPS 2e13             /* cases of this much work get --reps-large runs */

static struct {
    int reps, reps_large;
    int blocks[MAX_BLOCKS], nblocks;
    bool xt, device;
    const char *tag;
    bool append;
    double time_limit;
} opt = { 3, 1, { 2048, 4096 }, 2, true, true, NULL, false, 0 };

static double t_start;

static int reps_of(double work)
{
    return work >= LARGE_FLOPS ? opt.reps_large : opt.reps;
}

/* ---- cuBLAS on device data ----------------------------------------------------------------- */

/* A device copy of the host operand's ld x cols elements (NULL for none). */
static double *dev_copy(const double *h, int64_t ld, int64_t cols)
{
    if (cols <= 0)
        return NULL;
    size_t bytes = (size_t)ld * (size_t)cols * sizeof *h;
    double *p;
    CU(cudaMalloc((void **)&p, bytes));
    CU(cudaMemcpy(p, h, bytes, cudaMemcpyHostToDevice));
    return p;
}

/* Seconds, the median of reps runs of c on device 0 after one warm-up run at
 * full size; the buffers are freed before it returns, for the next peer. */
static double time_device(const b3_case_t *c, const double *A, const double *B, const double *C,
                          int reps)
{
    b3_shapes_t s = b3_shapes(c->r, c->m, c->n, c->k);
    CU(cudaSetDevice(0));
    double *dA = dev_copy(A, c->lda, s.ac), *dB = dev_copy(B, c->ldb, s.bc);
    double *dC = dev_copy(C, c->ldc, s.cc);
    cublasHandle_t h;
    cudaEvent_t e0, e1;
    CB(cublasCreate(&h));
    CU(cudaEventCreate(&e0));
    CU(cudaEventCreate(&e1));
    double t[MAX_REPS];
    b3_dev_call(h, c, dA, dB, dC);
    CU(cudaDeviceSynchronize());
    for (int r = 0; r < reps; r++) {
        float ms;
        CU(cudaEventRecord(e0, 0));
        b3_dev_call(h, c, dA, dB, dC);
        CU(cudaEventRecord(e1, 0));
        CU(cudaEventSynchronize(e1));
        CU(cudaEventElapsedTime(&ms, e0, e1));
        t[r] = ms * 1e-3;
    }
    CB(cublasDestroy(h));
    CU(cudaEventDestroy(e0));
    CU(cudaEventDestroy(e1));
    CU(cudaFree(dA));
    CU(cudaFree(dB));
    CU(cudaFree(dC));
    return bench_median(t, reps);
}

/* ---- cuBLAS-XT ---------------------------------------------------------------------------- */

/* Seconds per block size (opt.blocks), each the median of reps runs after a
 * warm-up on the cut case. */
static void time_xt(const b3_case_t *c, int ngpu, double *A, double *B, double *C, int reps,
                    double *secs)
{
    int ids[TESS_MAX_DEVICES];
    for (int i = 0; i < ngpu; i++)
        ids[i] = i;
    cublasXtHandle_t h;
    CB(cublasXtCreate(&h));
    CB(cublasXtDeviceSelect(h, ngpu, ids));
    b3_case_t w = b3_warm_case(c);
    char name[96];
    b3_label(c, name, sizeof name);
    for (int b = 0; b < opt.nblocks; b++) {
        CB(cublasXtSetBlockDim(h, opt.blocks[b]));
        b3_xt_call(h, &w, A, B, C);
        double t[MAX_REPS];
        for (int r = 0; r < reps; r++) {
            double t0 = bench_now();
            b3_xt_call(h, c, A, B, C);
            t[r] = bench_now() - t0;
        }
        secs[b] = bench_median(t, reps);
        fprintf(stderr, "[%s, %d GPU] cuBLAS-XT block %d: %.2f TFLOP/s (%.3f s)\n", name, ngpu,
                opt.blocks[b], b3_flops(c) / secs[b] * 1e-12, secs[b]);
    }
    CB(cublasXtDestroy(h));
}

typedef struct {
    double seconds, error;
    tess_stats_t delta; /* over the last run */
} tess_run_t;

static tess_run_t time_tessera(const b3_case_t *c, int ngpu, int have, double *A, double *B,
                               double *C, size_t elems, int reps)
{
    char devs[64];
    bench_cuda_devices(ngpu, have, devs, sizeof devs);
    tess_config_t cfg = { .devices = devs };
    TK(tess_init(&cfg));
    TK(tess_memory_register_async(A, elems * sizeof *A));
    TK(tess_memory_register_async(B, elems * sizeof *B));
    TK(tess_memory_register_async(C, elems * sizeof *C));
    b3_case_t w = b3_warm_case(c);
    b3_tess_call(&w, A, B, C);
    tess_run_t out = { 0 };
    b3_snap_t snap;
    double t[MAX_REPS];
    for (int r = 0; r < reps; r++) {
        tess_stats_t s0, s1;
        TK(tess_memory_invalidate_all());
        if (r == reps - 1)
            b3_snap_take(c, B, C, &snap);
        TK(tess_get_stats(&s0));
        double t0 = bench_now();
        b3_tess_call(c, A, B, C);
        t[r] = bench_now() - t0;
        TK(tess_get_stats(&s1));
        out.delta = s1;
        out.delta.bytes_h2d -= s0.bytes_h2d;
        out.delta.bytes_d2h -= s0.bytes_d2h;
        out.delta.bytes_d2d -= s0.bytes_d2d;
    }
    out.seconds = bench_median(t, reps);
    TK(tess_finalize());
    out.error = b3_snap_check(c, A, B, C, &snap);
    free(snap.cols);
    return out;
}

/* ---- the run ------------------------------------------------------------------------------ */

/* cuBLAS DGEMM n x n x n on device 0, the ceiling: seconds, median. */
static double time_ceiling(int64_t n, const double *A, const double *B, const double *C, int reps)
{
    b3_case_t g = b3_make_case(R_GEMM, n, n);
    return time_device(&g, A, B, C, reps);
}

/* Adds the routines of a comma list to mask; false on an unknown name. */
static bool parse_routines(const char *s, unsigned *mask)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    *mask = 0;
    for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (!strcmp(t, "all")) {
            *mask = (1u << R_COUNT) - 1;
            continue;
        }
        int r = 0;
        while (r < R_COUNT && strcmp(t, b3_routine_name[r]))
            r++;
        if (r == R_COUNT)
            return false;
        *mask |= 1u << r;
    }
    return *mask != 0;
}

static bool parse_size(const char *s, int64_t *p, int64_t *q)
{
    char *end;
    long long a = strtoll(s, &end, 10), b = a;
    if (end == s || a <= 0)
        return false;
    if (*end == 'x') {
        const char *t = end + 1;
        b = strtoll(t, &end, 10);
        if (end == t || b <= 0)
            return false;
    }
    if (*end || a > INT32_MAX || b > INT32_MAX)
        return false;
    *p = a;
    *q = b;
    return true;
}

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
            "usage: %s [options] CSV-DIR NGPUS ROUTINES SIZE... [ROUTINES SIZE...]...\n"
            "  e.g. %s out 1 all 16384 32768 trsm,trmm 32768x512 32768x4096\n"
            "NGPUS     GPU counts for Tessera and cuBLAS-XT, comma separated (1 or 1,2)\n"
            "ROUTINES  comma list of gemm symm syrk syr2k gemmt trsm trmm trsm_gemm, or all\n"
            "SIZE      P or PxQ: gemm m=n=P k=Q; syrk, syr2k, gemmt n=P k=Q;\n"
            "          symm, trsm, trmm, trsm_gemm m=P n=Q (A m x m)\n"
            "options:\n"
            "  --reps N         runs per measurement, the median reported (3)\n"
            "  --reps-large N   the same for cases of 2e13 b3_flops or more (1)\n"
            "  --xt-blocks LIST cuBLAS-XT block sizes, the best one reported (2048,4096)\n"
            "  --no-xt          skip cuBLAS-XT\n"
            "  --tessera-only   skip cuBLAS-XT and cuBLAS on device data\n"
            "  --tag NAME       CSV-DIR/blas3_NAME.csv (default: the host name)\n"
            "  --append         append rows to that CSV\n"
            "  --time-limit S   start no case after S seconds\n"
            "The source's header comment gives the flop counts, the minimum transfers,\n"
            "the CSV columns and the timing rules.\n",
            argv0, argv0);
}

static const char *csv_header =
    "gpu_name,routine,m,n,k,gpus,reps,gflop,tessera_s,tessera_tflops,xt_tflops,xt_block,"
    "xt_by_block,device_tflops,device_dgemm_n,device_dgemm_tflops,tessera_over_device_dgemm,"
    "tessera_over_device,tessera_over_xt,h2d_bytes,d2h_bytes,d2d_bytes,h2d_min_bytes,"
    "d2h_min_bytes,h2d_over_min,d2h_over_min,pin_s,check_error,check,h2d_gbs,d2h_gbs,both_gbs,"
    "roofline_s,tessera_over_roofline\n";

/* The case's least time on g GPUs: its flops at g device DGEMMs' rate (left
 * out when no ceiling was measured), its inputs at the g GPUs' host-to-device
 * rate, its inputs and outputs at their two-way rate. */
static double roofline(double flops, double h2d, double d2h, double tflops, const link_rates_t *l)
{
    double t = h2d / (l->h2d * 1e9), both = (h2d + d2h) / (l->both * 1e9);
    if (both > t)
        t = both;
    if (tflops > 0 && flops / (tflops * 1e12) > t)
        t = flops / (tflops * 1e12);
    return t;
}

int main(int argc, char **argv)
{
    t_start = bench_now();
    bool tessera_only = false;
    const bench_opt_t opts[] = {
        { .name = "--reps", .kind = BENCH_INT, .to = &opt.reps, .lo = 1, .hi = MAX_REPS },
        { .name = "--reps-large",
          .kind = BENCH_INT,
          .to = &opt.reps_large,
          .lo = 1,
          .hi = MAX_REPS },
        { .name = "--xt-blocks",
          .kind = BENCH_LIST,
          .to = opt.blocks,
          .hi = MAX_BLOCKS,
          .count = &opt.nblocks },
        { .name = "--no-xt", .kind = BENCH_FLAG, .to = &opt.xt, .value = false },
        { .name = "--tessera-only", .kind = BENCH_FLAG, .to = &tessera_only, .value = true },
        { .name = "--tag", .kind = BENCH_STRING, .to = &opt.tag },
        { .name = "--append", .kind = BENCH_FLAG, .to = &opt.append, .value = true },
        { .name = "--time-limit", .kind = BENCH_DOUBLE, .to = &opt.time_limit, .lo = 0 },
    };
    int ai = bench_parse_options(argc, argv, opts, sizeof opts / sizeof *opts, usage);
    if (ai <= 0)
        return ai ? 2 : 0;
    if (tessera_only)
        opt.xt = opt.device = false;
    if (argc - ai < 4) {
        usage(stderr, argv[0]);
        return 2;
    }
    const char *dir = argv[ai];
    int gpus[TESS_MAX_DEVICES], ngl = bench_parse_list(argv[ai + 1], gpus, TESS_MAX_DEVICES);
    if (ngl < 1) {
        fprintf(stderr, "bench_blas3_cuda: bad NGPUS %s\n", argv[ai + 1]);
        return 2;
    }

    /* the cases, in the order given, then stably by size group */
    static b3_case_t cases[MAX_CASES];
    int nc = 0;
    unsigned mask = 0;
    for (int i = ai + 2; i < argc; i++) {
        int64_t p, q;
        if (parse_size(argv[i], &p, &q)) {
            if (!mask) {
                fprintf(stderr, "bench_blas3_cuda: size %s before any routine\n", argv[i]);
                return 2;
            }
            for (int r = 0; r < R_COUNT; r++)
                if (mask >> r & 1) {
                    if (nc == MAX_CASES) {
                        fprintf(stderr, "bench_blas3_cuda: more than %d cases\n", MAX_CASES);
                        return 2;
                    }
                    cases[nc++] = b3_make_case(r, p, q);
                }
        } else if (!parse_routines(argv[i], &mask)) {
            fprintf(stderr, "bench_blas3_cuda: %s is neither a size nor routines\n", argv[i]);
            usage(stderr, argv[0]);
            return 2;
        }
    }
    if (!nc) {
        fprintf(stderr, "bench_blas3_cuda: no case to run\n");
        return 2;
    }
    for (int i = 1; i < nc; i++)
        for (int j = i; j > 0 && cases[j - 1].dim > cases[j].dim; j--) {
            b3_case_t t = cases[j];
            cases[j] = cases[j - 1];
            cases[j - 1] = t;
        }

    int have = 0;
    CU(cudaGetDeviceCount(&have));
    struct cudaDeviceProp prop;
    CU(cudaGetDeviceProperties(&prop, 0));
    char gpu_name[256];
    snprintf(gpu_name, sizeof gpu_name, "%s", prop.name);
    for (char *p = gpu_name; *p; p++)
        if (*p == ',')
            *p = ' ';

    char host[128] = "host", csvname[256];
    gethostname(host, sizeof host - 1);
    snprintf(csvname, sizeof csvname, "blas3_%s.csv", opt.tag ? opt.tag : host);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, csvname);
    FILE *csv = fopen(path, opt.append ? "a" : "w");
    if (!csv) {
        fprintf(stderr, "bench_blas3_cuda: cannot write %s\n", path);
        return 1;
    }
    if (fseek(csv, 0, SEEK_END) || ftell(csv) == 0)
        fputs(csv_header, csv);
    fflush(csv);

    const char *nb = getenv("TESS_NB"), *window = getenv("TESS_WINDOW");
    printf("%s, %d GPU(s); TESS_NB=%s TESS_WINDOW=%s; CSV %s\n", gpu_name, have,
           nb ? nb : "(default)", window ? window : "(default)", path);
    printf("%-10s %6s %6s %6s %4s %8s %8s %5s %8s %8s %7s %6s %7s %7s %7s %s\n", "routine", "m",
           "n", "k", "gpus", "Tessera", "XT", "block", "dev", "devDGEMM", "T/DGEMM", "T/XT",
           "h2d/min", "d2h/min", "T/roof", "check");
    fflush(stdout);

    int status = 0, skipped = 0;
    for (int c0 = 0; c0 < nc;) {
        int64_t dim = cases[c0].dim;
        int c1 = c0;
        while (c1 < nc && cases[c1].dim == dim)
            c1++;
        if (opt.time_limit > 0 && bench_now() - t_start > opt.time_limit) {
            skipped += c1 - c0;
            c0 = c1;
            continue;
        }
        size_t elems = (size_t)dim * (size_t)dim, bytes = elems * sizeof(double);
        fprintf(stderr, "[size %lld] filling and pinning 3 x %.1f GB\n", (long long)dim,
                bytes / 1e9);
        double *A = bench_host_array("bench_blas3_cuda", elems, 1),
               *B = bench_host_array("bench_blas3_cuda", elems, 2),
               *C = bench_host_array("bench_blas3_cuda", elems, 3);
        double p0 = bench_now();
        CU(cudaHostRegister(A, bytes, cudaHostRegisterPortable));
        CU(cudaHostRegister(B, bytes, cudaHostRegisterPortable));
        CU(cudaHostRegister(C, bytes, cudaHostRegisterPortable));
        double pin_s = bench_now() - p0;
        fprintf(stderr, "[size %lld] pinned in %.2f s\n", (long long)dim, pin_s);

        /* the host links with all g GPUs copying at once, per GPU count */
        link_rates_t rates[TESS_MAX_DEVICES];
        for (int gi = 0; gi < ngl; gi++) {
            int g = gpus[gi] < have ? gpus[gi] : have;
            size_t slice = bytes / (size_t)g < LINK_BYTES ? bytes / (size_t)g : LINK_BYTES;
            rates[gi] = link_rates_measure(g, A, C, slice & ~(size_t)4095, 3);
            fprintf(stderr, "[size %lld] %d GPU(s) at once: h2d %.1f, d2h %.1f, both %.1f GB/s\n",
                    (long long)dim, g, rates[gi].h2d, rates[gi].d2h, rates[gi].both);
        }

        double ceil_tf = NAN;
        int greps = reps_of(2.0 * dim * dim * dim);
        if (opt.device) {
            ceil_tf = 2.0 * dim * dim * dim / time_ceiling(dim, A, B, C, greps) * 1e-12;
            fprintf(stderr, "[size %lld] cuBLAS DGEMM on device data: %.2f TFLOP/s\n",
                    (long long)dim, ceil_tf);
        }

        for (int ci = c0; ci < c1; ci++) {
            const b3_case_t *c = &cases[ci];
            char name[96];
            b3_label(c, name, sizeof name);
            if (opt.time_limit > 0 && bench_now() - t_start > opt.time_limit) {
                fprintf(stderr, "[%s] left out: past --time-limit\n", name);
                skipped++;
                continue;
            }
            int reps = reps_of(b3_flops(c));
            double f = b3_flops(c), hmin, dmin;
            b3_min_bytes(c, &hmin, &dmin);

            /* the triangular cases' dominant diagonal, on this case's lda only */
            double *saved = NULL;
            if (b3_triangular(c->r)) {
                saved = bench_xmalloc("bench_blas3_cuda", (size_t)c->m * sizeof *saved);
                for (int64_t i = 0; i < c->m; i++) {
                    saved[i] = A[i + i * c->lda];
                    A[i + i * c->lda] = c->d;
                }
            }

            double dev_tf = NAN;
            if (opt.device) {
                bool same = c->r == R_GEMM && c->m == dim && c->n == dim && c->k == dim;
                dev_tf = same ? ceil_tf : f / time_device(c, A, B, C, reps) * 1e-12;
                fprintf(stderr, "[%s] cuBLAS on device data: %.2f TFLOP/s%s\n", name, dev_tf,
                        same ? " (the ceiling's run)" : "");
            }
            for (int gi = 0; gi < ngl; gi++) {
                int g = gpus[gi];
                if (g > have) {
                    fprintf(stderr, "[%s] %d GPUs asked for, %d present: skipped\n", name, g, have);
                    continue;
                }
                double xt_tf = NAN, secs[MAX_BLOCKS];
                int xt_block = 0;
                char by_block[128] = "";
                if (opt.xt) {
                    time_xt(c, g, A, B, C, reps, secs);
                    int at = 0;
                    for (int b = 0; b < opt.nblocks; b++) {
                        double tf = f / secs[b] * 1e-12;
                        if (!(tf <= xt_tf)) {
                            xt_tf = tf;
                            xt_block = opt.blocks[b];
                        }
                        at += snprintf(by_block + at, sizeof by_block - (size_t)at, "%s%d:%.3f",
                                       b ? ";" : "", opt.blocks[b], tf);
                    }
                }
                tess_run_t ts = time_tessera(c, g, have, A, B, C, elems, reps);
                double tt = f / ts.seconds * 1e-12;
                bool ok = ts.error <= 8.0 * b3_inner_dim(c) * DBL_EPSILON;
                if (!ok)
                    status = 1;
                fprintf(stderr, "[%s, %d GPU] Tessera: %.2f TFLOP/s (%.3f s), check %.2e %s\n",
                        name, g, tt, ts.seconds, ts.error, ok ? "ok" : "FAILED");
                double h2d = ts.delta.bytes_h2d / hmin, d2h = ts.delta.bytes_d2h / dmin;
                double vs_gemm = tt / (g * ceil_tf), vs_dev = tt / (g * dev_tf), vs_xt = tt / xt_tf;
                double roof = roofline(f, hmin, dmin, g * ceil_tf, &rates[gi]);
                printf("%-10s %6lld %6lld %6lld %4d %8.2f %8.2f %5d %8.2f %8.2f %7.3f %6.2f %7.3f "
                       "%7.3f %7.3f %s\n",
                       b3_routine_name[c->r], (long long)c->m, (long long)c->n, (long long)c->k, g,
                       tt, xt_tf, xt_block, dev_tf, ceil_tf, vs_gemm, vs_xt, h2d, d2h,
                       roof / ts.seconds, ok ? "ok" : "FAIL");
                fflush(stdout);
                fprintf(csv,
                        "%s,%s,%lld,%lld,%lld,%d,%d,%.1f,%.4f,%.3f,%.3f,%d,%s,%.3f,%lld,%.3f,%.4f,"
                        "%.4f,%.4f,%llu,%llu,%llu,%.0f,%.0f,%.4f,%.4f,%.2f,%.3e,%s,%.2f,%.2f,%.2f,"
                        "%.5f,%.4f\n",
                        gpu_name, b3_routine_name[c->r], (long long)c->m, (long long)c->n,
                        (long long)c->k, g, reps, f * 1e-9, ts.seconds, tt, xt_tf, xt_block,
                        by_block, dev_tf, (long long)dim, ceil_tf, vs_gemm, vs_dev, vs_xt,
                        (unsigned long long)ts.delta.bytes_h2d,
                        (unsigned long long)ts.delta.bytes_d2h,
                        (unsigned long long)ts.delta.bytes_d2d, hmin, dmin, h2d, d2h, pin_s,
                        ts.error, ok ? "ok" : "FAIL", rates[gi].h2d, rates[gi].d2h, rates[gi].both,
                        roof, roof / ts.seconds);
                fflush(csv);
            }
            if (saved) {
                for (int64_t i = 0; i < c->m; i++)
                    A[i + i * c->lda] = saved[i];
                free(saved);
            }
        }
        CU(cudaHostUnregister(A));
        CU(cudaHostUnregister(B));
        CU(cudaHostUnregister(C));
        free(A);
        free(B);
        free(C);
        c0 = c1;
    }
    fclose(csv);
    if (skipped) {
        fprintf(stderr, "bench_blas3_cuda: %d case(s) left out by --time-limit %.0f\n", skipped,
                opt.time_limit);
        printf("(%d case(s) left out by --time-limit)\n", skipped);
    }
    if (status)
        fprintf(stderr, "bench_blas3_cuda: a check FAILED (see the check column)\n");
    return status ? status : skipped ? 3 : 0;
}
