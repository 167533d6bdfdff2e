/* BLAS-2 in double from host memory, as an iterative method uses it: one
 * matrix multiplied over and over, a new x from the host each time and y
 * wanted back.  DGEMV N and T and DSYMV (lower), A n x n, packed, against
 * cuBLAS on device data (the per-GPU ceiling) and OpenBLAS on the host, all
 * measured in one process.
 *
 *   usage: bench_blas2_cuda [options] CSV-DIR NGPUS [ROUTINES SIZE...]...
 *   e.g.   bench_blas2_cuda $OUT 1                      (gemv_n,gemv_t,symv 8192 32768)
 *          bench_blas2_cuda $OUT 1,2 symv 16384 32768
 *
 * NGPUS: the GPU counts for Tessera, comma separated: g GPUs are devices 0 to
 * g-1 ("cuda:0", "cuda:0,1,...", or "cuda" when g is all of them).  cuBLAS
 * runs on device 0.  ROUTINES: a comma list of gemv_n, gemv_t, symv, or all;
 * it applies to the SIZEs after it.  With no ROUTINES and SIZEs, the default
 * set: all at 8192 and 32768 (about a minute on one H200).
 *
 * Per size, A, x and y are filled (uniform in [-0.5, 0.5)) and pinned
 * (cudaHostRegister, pin_s) before anything is timed.  Then per routine:
 *   - OpenBLAS: cblas_dgemv / cblas_dsymv on the host, every core, the
 *     median of --host-reps runs (before the runtime starts);
 *   - cuBLAS: cublasDgemv / cublasDsymv on A, x, y in device 0's memory,
 *     --calls calls after 3 untimed ones, each timed by CUDA events, the
 *     median (the buffers are freed before Tessera starts);
 *   - Tessera, first call: tess_memory_invalidate_all (untimed, no tile on
 *     any GPU), the call, tess_memory_coherent_async on y and tess_sync, by
 *     the host clock, the median of --first-reps: A crosses the host link;
 *   - Tessera, cached: --calls calls on the matrix left on the GPUs, each
 *     tess_memory_invalidate on x (the host writes x: it is then rewritten,
 *     untimed), the call, tess_memory_coherent_async on y, tess_sync, by the
 *     host clock: the median and the mean per call, everything in the call
 *     included.  The call splits into submit (the invalidate and the _async
 *     call until it returns) and wait (the coherent request and the sync:
 *     x to the devices, the kernels, y back, the sync's own latency).  The
 *     kernels' time per call is the busiest device's tess_stats_t busy_s
 *     over the calls, divided by the calls; outside = mean call - kernels is
 *     what a call spends beyond them.  idle_sync_s is a coherent request and
 *     sync with nothing to do (y already on the host), the floor of wait.
 * One untimed call of each routine, cut to 4096 + 100, warms Tessera up (the
 * kernels' modules load at their first launch).
 *
 * Checks: 64 sampled entries of y from the last cached call against long
 * double sums on the host, |y - yref| / (n eps sum |a x|) <= 1; and every
 * cached call's y the same bits as the first's (x is rewritten with the same
 * values each time).  A failed check marks the row FAIL and the exit status 1.
 *
 * Targets (one GPU, n = 32768): a cached call at least 0.85x cuBLAS DGEMV's
 * device call (vs_cublas = cublas_s / call_s, the median call), and DSYMV at
 * least 1.6x cuBLAS DSYMV's.
 *
 * Output: progress on stderr, a table on stdout and CSV-DIR/blas2_TAG.csv
 * (TAG: --tag, default the host name), a row per case and GPU count.  CSV
 * columns: gpu_name, routine, n, gpus, nb, calls; first_s, first_gbps (the
 * bytes of A the routine references over first_s), link_gbps (a 256 MB
 * pinned cudaMemcpy to device 0); call_s (median), call_mean_s, submit_s,
 * wait_s (medians), kernel_s, outside_s, idle_sync_s; h2d_bytes, d2h_bytes,
 * d2d_bytes per cached call; cublas_s, openblas_s; vs_cublas, kernel_vs_cublas
 * (cublas_s / kernel_s), vs_openblas; target, meets (on one GPU at 32768);
 * pin_s; check_error, repeat (bitwise), check.  A peer not run reads nan.
 *
 * Options:
 *   --calls N        cached calls and cuBLAS calls (100)
 *   --first-reps N   first calls from host memory (3)
 *   --host-reps N    OpenBLAS runs (3; 0: no OpenBLAS)
 *   --no-cublas      no cuBLAS on device data
 *   --tag NAME       the CSV is blas2_NAME.csv
 *   --append         append to the CSV (its header only when it is new or empty)
 * TESS_NB, TESS_WINDOW and the other TESS_* variables apply to Tessera. */
#include <cblas.h>
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
#include "tessera.h"

#define MAX_CALLS 10000
#define MAX_CASES 64
#define NSAMPLE 64
#define WARM_N (4096 + 100)

enum { R_GEMV_N, R_GEMV_T, R_SYMV, R_COUNT };
static const char *const routine_name[R_COUNT] = { "gemv_n", "gemv_t", "symv" };
static const double target[R_COUNT] = { 0.85, 0.85, 1.6 };

typedef struct {
    int r;
    int64_t n;
} case_t;

static struct {
    int calls, first_reps, host_reps;
    bool cublas, append;
    const char *tag;
} opt = { 100, 3, 3, true, false, NULL };

/* The bytes of A a routine references: all of it, or SYMV's triangle. */
static double matrix_bytes(const case_t *c)
{
    double n = (double)c->n;
    return (c->r == R_SYMV ? n * (n + 1) / 2 : n * n) * sizeof(double);
}

/* ---- the calls ----------------------------------------------------------------------------- */

static void tess_call(int r, int64_t n, const double *A, int64_t lda, const double *x, double *y)
{
    if (r == R_SYMV)
        TK(tess_dsymv_async(TessLower, n, 1.0, A, lda, x, 1, 0.0, y, 1));
    else
        TK(tess_dgemv_async(r == R_GEMV_N ? TessNoTrans : TessTrans, n, n, 1.0, A, lda, x, 1, 0.0,
                            y, 1));
}

static void dev_call(cublasHandle_t h, int r, int n, const double *A, const double *x, double *y)
{
    const double one = 1.0, zero = 0.0;
    if (r == R_SYMV)
        CB(cublasDsymv(h, CUBLAS_FILL_MODE_LOWER, n, &one, A, n, x, 1, &zero, y, 1));
    else
        CB(cublasDgemv(h, r == R_GEMV_N ? CUBLAS_OP_N : CUBLAS_OP_T, n, n, &one, A, n, x, 1, &zero,
                       y, 1));
}

static void host_call(int r, int n, const double *A, const double *x, double *y)
{
    if (r == R_SYMV)
        cblas_dsymv(CblasColMajor, CblasLower, n, 1.0, A, n, x, 1, 0.0, y, 1);
    else
        cblas_dgemv(CblasColMajor, r == R_GEMV_N ? CblasNoTrans : CblasTrans, n, n, 1.0, A, n, x, 1,
                    0.0, y, 1);
}

/* ---- peers ---------------------------------------------------------------------------------- */

static double time_host(const case_t *c, const double *A, const double *x, double *y)
{
    double t[64];
    int reps = opt.host_reps < 64 ? opt.host_reps : 64;
    host_call(c->r, (int)c->n, A, x, y);
    for (int k = 0; k < reps; k++) {
        double t0 = bench_now();
        host_call(c->r, (int)c->n, A, x, y);
        t[k] = bench_now() - t0;
    }
    return bench_median(t, reps);
}

/* cuBLAS on device 0: seconds per call, the median; the buffers are freed. */
static double time_cublas(const case_t *c, const double *A, const double *x)
{
    size_t n = (size_t)c->n, bytes = n * n * sizeof *A;
    double *dA, *dx, *dy;
    CU(cudaSetDevice(0));
    CU(cudaMalloc((void **)&dA, bytes));
    CU(cudaMalloc((void **)&dx, n * sizeof *x));
    CU(cudaMalloc((void **)&dy, n * sizeof *x));
    CU(cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice));
    CU(cudaMemcpy(dx, x, n * sizeof *x, cudaMemcpyHostToDevice));
    cublasHandle_t h;
    CB(cublasCreate(&h));
    cudaEvent_t e0, e1;
    CU(cudaEventCreate(&e0));
    CU(cudaEventCreate(&e1));
    for (int k = 0; k < 3; k++)
        dev_call(h, c->r, (int)n, dA, dx, dy);
    CU(cudaDeviceSynchronize());
    static double t[MAX_CALLS];
    for (int k = 0; k < opt.calls; k++) {
        float ms;
        CU(cudaEventRecord(e0, 0));
        dev_call(h, c->r, (int)n, dA, dx, dy);
        CU(cudaEventRecord(e1, 0));
        CU(cudaEventSynchronize(e1));
        CU(cudaEventElapsedTime(&ms, e0, e1));
        t[k] = ms * 1e-3;
    }
    CB(cublasDestroy(h));
    CU(cudaEventDestroy(e0));
    CU(cudaEventDestroy(e1));
    CU(cudaFree(dA));
    CU(cudaFree(dx));
    CU(cudaFree(dy));
    return bench_median(t, opt.calls);
}

/* A 256 MB pinned copy to device 0, GB/s: what the host link gives. */
static double link_gbps(void)
{
    size_t bytes = (size_t)256 << 20;
    void *h, *d;
    CU(cudaSetDevice(0));
    CU(cudaMallocHost(&h, bytes));
    CU(cudaMalloc(&d, bytes));
    memset(h, 0, bytes);
    CU(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    double t[5];
    for (int k = 0; k < 5; k++) {
        double t0 = bench_now();
        CU(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
        t[k] = bench_now() - t0;
    }
    CU(cudaFree(d));
    CU(cudaFreeHost(h));
    return bytes / bench_median(t, 5) * 1e-9;
}

/* ---- Tessera and its check ----------------------------------------------------------------- */

typedef struct {
    double first_s, call_s, call_mean_s, submit_s, wait_s, kernel_s, idle_sync_s;
    double h2d, d2h, d2d; /* bytes per cached call */
    double error;
    bool repeat;
} tess_run_t;

/* max_i |y_i - yref_i| / (n eps sum_j |a_ij x_j|) over sampled i, the sums in long double. */
static double check_y(const case_t *c, const double *A, const double *x, const double *y)
{
    int64_t n = c->n;
    uint64_t s = 12345 + (uint64_t)c->r;
    double worst = 0;
    for (int q = 0; q < NSAMPLE; q++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        int64_t i = (int64_t)((s >> 17) % (uint64_t)n);
        long double sum = 0, mag = 0;
        for (int64_t j = 0; j < n; j++) {
            double a;
            if (c->r == R_GEMV_N)
                a = A[i + j * n];
            else if (c->r == R_GEMV_T)
                a = A[j + i * n];
            else
                a = i >= j ? A[i + j * n] : A[j + i * n];
            sum += (long double)a * x[j];
            mag += fabsl((long double)a * x[j]);
        }
        double e = (double)(fabsl((long double)y[i] - sum) / (n * DBL_EPSILON * mag));
        if (!(e <= worst))
            worst = e;
    }
    return worst;
}

static double busiest(const tess_stats_t *a, const tess_stats_t *b)
{
    double m = 0;
    for (int d = 0; d < b->ndevices; d++)
        if (b->busy_s[d] - a->busy_s[d] > m)
            m = b->busy_s[d] - a->busy_s[d];
    return m;
}

static tess_run_t time_tessera(const case_t *c, const double *A, double *x, const double *x0,
                               double *y)
{
    int64_t n = c->n, wn = n < WARM_N ? n : WARM_N;
    size_t xbytes = (size_t)n * sizeof *x;
    tess_run_t out = { 0 };
    static double t[MAX_CALLS], ts[MAX_CALLS], tw[MAX_CALLS];

    tess_call(c->r, wn, A, n, x, y);
    TK(tess_memory_coherent_async(TessAll, wn, 1, y, wn, sizeof *y));
    TK(tess_sync());
    for (int k = 0; k < opt.first_reps; k++) {
        TK(tess_memory_invalidate_all());
        double t0 = bench_now();
        tess_call(c->r, n, A, n, x, y);
        TK(tess_memory_coherent_async(TessAll, n, 1, y, n, sizeof *y));
        TK(tess_sync());
        t[k] = bench_now() - t0;
    }
    out.first_s = bench_median(t, opt.first_reps);

    double *y1 = bench_xmalloc("bench_blas2_cuda", xbytes);
    tess_stats_t s0, s1;
    TK(tess_get_stats(&s0));
    out.repeat = true;
    double sum = 0;
    for (int k = 0; k < opt.calls; k++) {
        double t0 = bench_now();
        TK(tess_memory_invalidate(n, 1, x, n, sizeof *x));
        double ti = bench_now() - t0;
        memcpy(x, x0, xbytes); /* the host's new x */
        double t1 = bench_now();
        tess_call(c->r, n, A, n, x, y);
        double t2 = bench_now();
        TK(tess_memory_coherent_async(TessAll, n, 1, y, n, sizeof *y));
        TK(tess_sync());
        double t3 = bench_now();
        ts[k] = ti + (t2 - t1);
        tw[k] = t3 - t2;
        t[k] = ts[k] + tw[k];
        sum += t[k];
        if (k == 0)
            memcpy(y1, y, xbytes);
        else if (memcmp(y1, y, xbytes))
            out.repeat = false;
    }
    TK(tess_get_stats(&s1));
    out.call_mean_s = sum / opt.calls;
    out.call_s = bench_median(t, opt.calls);
    out.submit_s = bench_median(ts, opt.calls);
    out.wait_s = bench_median(tw, opt.calls);
    out.kernel_s = busiest(&s0, &s1) / opt.calls;
    out.h2d = (double)(s1.bytes_h2d - s0.bytes_h2d) / opt.calls;
    out.d2h = (double)(s1.bytes_d2h - s0.bytes_d2h) / opt.calls;
    out.d2d = (double)(s1.bytes_d2d - s0.bytes_d2d) / opt.calls;
    for (int k = 0; k < 10; k++) {
        double t0 = bench_now();
        TK(tess_memory_coherent_async(TessAll, n, 1, y, n, sizeof *y));
        TK(tess_sync());
        t[k] = bench_now() - t0;
    }
    out.idle_sync_s = bench_median(t, 10);
    out.error = check_y(c, A, x, y);
    free(y1);
    return out;
}

/* ---- the run ------------------------------------------------------------------------------ */

/* A comma list of routine names into a bit mask; false when it is not one. */
static bool parse_routines(const char *s, unsigned *mask)
{
    unsigned m = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (!strcmp(tok, "all")) {
            m |= (1u << R_COUNT) - 1;
            continue;
        }
        int r = 0;
        while (r < R_COUNT && strcmp(tok, routine_name[r]))
            r++;
        if (r == R_COUNT)
            return false;
        m |= 1u << r;
    }
    *mask = m;
    return m != 0;
}

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
            "usage: %s [options] CSV-DIR NGPUS [ROUTINES SIZE...]...\n"
            "  e.g. %s out 1            (all at 8192 and 32768)\n"
            "NGPUS     GPU counts for Tessera, comma separated (1 or 1,2)\n"
            "ROUTINES  comma list of gemv_n gemv_t symv, or all\n"
            "SIZE      n: A is n x n\n"
            "options:\n"
            "  --calls N        cached calls, and cuBLAS calls (100)\n"
            "  --first-reps N   first calls from host memory, the median reported (3)\n"
            "  --host-reps N    OpenBLAS runs (3; 0: none)\n"
            "  --no-cublas      no cuBLAS on device data\n"
            "  --tag NAME       the CSV is blas2_NAME.csv (default: the host name)\n"
            "  --append         append to the CSV\n",
            argv0, argv0);
}

static const char csv_header[] =
    "gpu_name,routine,n,gpus,nb,calls,first_s,first_gbps,link_gbps,call_s,call_mean_s,submit_s,"
    "wait_s,kernel_s,outside_s,idle_sync_s,h2d_bytes,d2h_bytes,d2d_bytes,cublas_s,openblas_s,"
    "vs_cublas,kernel_vs_cublas,vs_openblas,target,meets,pin_s,check_error,repeat,check\n";

int main(int argc, char **argv)
{
    const bench_opt_t opts[] = {
        { .name = "--calls", .kind = BENCH_INT, .to = &opt.calls, .lo = 1, .hi = MAX_CALLS },
        { .name = "--first-reps",
          .kind = BENCH_INT,
          .to = &opt.first_reps,
          .lo = 1,
          .hi = MAX_CALLS },
        { .name = "--host-reps", .kind = BENCH_INT, .to = &opt.host_reps, .lo = 0, .hi = 64 },
        { .name = "--tag", .kind = BENCH_STRING, .to = &opt.tag },
        { .name = "--no-cublas", .kind = BENCH_FLAG, .to = &opt.cublas, .value = false },
        { .name = "--append", .kind = BENCH_FLAG, .to = &opt.append, .value = true },
    };
    int ai = bench_parse_options(argc, argv, opts, sizeof opts / sizeof *opts, usage);
    if (ai <= 0)
        return ai ? 2 : 0;
    if (argc - ai < 2) {
        usage(stderr, argv[0]);
        return 2;
    }
    const char *dir = argv[ai];
    int gpus[TESS_MAX_DEVICES], ngl = bench_parse_list(argv[ai + 1], gpus, TESS_MAX_DEVICES);
    if (ngl < 1) {
        fprintf(stderr, "bench_blas2_cuda: bad NGPUS %s\n", argv[ai + 1]);
        return 2;
    }
    case_t cases[MAX_CASES];
    int nc = 0;
    unsigned mask = 0;
    for (int i = ai + 2; i < argc; i++) {
        char *end;
        long long n = strtoll(argv[i], &end, 10);
        if (end != argv[i] && !*end && n > 0) {
            for (int r = 0; r < R_COUNT && mask; r++)
                if (mask >> r & 1 && nc < MAX_CASES)
                    cases[nc++] = (case_t){ r, n };
            if (!mask) {
                fprintf(stderr, "bench_blas2_cuda: size %s before any routine\n", argv[i]);
                return 2;
            }
        } else if (!parse_routines(argv[i], &mask)) {
            fprintf(stderr, "bench_blas2_cuda: %s is neither a size nor routines\n", argv[i]);
            return 2;
        }
    }
    if (!nc)
        for (int s = 0; s < 2; s++)
            for (int r = 0; r < R_COUNT; r++)
                cases[nc++] = (case_t){ r, s ? 32768 : 8192 };
    /* stably by size, so that each size's host data is made once */
    for (int i = 1; i < nc; i++)
        for (int j = i; j > 0 && cases[j - 1].n > cases[j].n; j--) {
            case_t tmp = cases[j];
            cases[j] = cases[j - 1];
            cases[j - 1] = tmp;
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
    char host[128] = "host", path[4096];
    gethostname(host, sizeof host - 1);
    snprintf(path, sizeof path, "%s/blas2_%s.csv", dir, opt.tag ? opt.tag : host);
    FILE *csv = fopen(path, opt.append ? "a" : "w");
    if (!csv) {
        fprintf(stderr, "bench_blas2_cuda: cannot write %s\n", path);
        return 1;
    }
    if (fseek(csv, 0, SEEK_END) || ftell(csv) == 0)
        fputs(csv_header, csv);
    fflush(csv);
    double link = link_gbps();
    const char *nbv = getenv("TESS_NB"), *window = getenv("TESS_WINDOW");
    printf("%s, %d GPU(s), host link %.1f GB/s; TESS_NB=%s TESS_WINDOW=%s; CSV %s\n", gpu_name,
           have, link, nbv ? nbv : "(default)", window ? window : "(default)", path);
    printf("%-7s %6s %4s %8s %7s | %8s %8s %8s %8s %8s | %8s %8s %6s %7s %6s %s\n", "routine", "n",
           "gpus", "first_ms", "GB/s", "call_us", "submit", "wait", "kernel", "outside", "cuBLASus",
           "OpenBLms", "vs_cu", "kern/cu", "target", "check");
    fflush(stdout);

    int status = 0;
    for (int c0 = 0; c0 < nc;) {
        int64_t n = cases[c0].n;
        int c1 = c0;
        while (c1 < nc && cases[c1].n == n)
            c1++;
        size_t elems = (size_t)n * (size_t)n, bytes = elems * sizeof(double);
        fprintf(stderr, "[n %lld] filling and pinning %.1f GB\n", (long long)n, bytes / 1e9);
        double *A = bench_host_array("bench_blas2_cuda", elems, 1),
               *x0 = bench_host_array("bench_blas2_cuda", (size_t)n, 2);
        double *x = bench_xmalloc("bench_blas2_cuda", (size_t)n * sizeof *x),
               *y = bench_host_array("bench_blas2_cuda", (size_t)n, 3);
        memcpy(x, x0, (size_t)n * sizeof *x);
        double p0 = bench_now();
        CU(cudaHostRegister(A, bytes, cudaHostRegisterPortable));
        CU(cudaHostRegister(x, (size_t)n * sizeof *x, cudaHostRegisterPortable));
        CU(cudaHostRegister(y, (size_t)n * sizeof *y, cudaHostRegisterPortable));
        double pin_s = bench_now() - p0;

        double host_s[R_COUNT], dev_s[R_COUNT];
        for (int ci = c0; ci < c1; ci++) {
            const case_t *c = &cases[ci];
            host_s[c->r] = opt.host_reps ? time_host(c, A, x, y) : NAN;
            dev_s[c->r] = opt.cublas ? time_cublas(c, A, x) : NAN;
            fprintf(stderr, "[d%s n %lld] OpenBLAS %.3f ms, cuBLAS on device data %.1f us\n",
                    routine_name[c->r], (long long)n, host_s[c->r] * 1e3, dev_s[c->r] * 1e6);
        }
        for (int gi = 0; gi < ngl; gi++) {
            int g = gpus[gi];
            if (g > have) {
                fprintf(stderr, "[n %lld] %d GPUs asked for, %d present: skipped\n", (long long)n,
                        g, have);
                continue;
            }
            char devs[64];
            bench_cuda_devices(g, have, devs, sizeof devs);
            tess_config_t cfg = { .devices = devs };
            TK(tess_init(&cfg));
            for (int ci = c0; ci < c1; ci++) {
                const case_t *c = &cases[ci];
                tess_run_t ts = time_tessera(c, A, x, x0, y);
                bool ok = ts.error <= 1.0 && ts.repeat;
                if (!ok)
                    status = 1;
                double vs_cu = dev_s[c->r] / ts.call_s, kern_cu = dev_s[c->r] / ts.kernel_s;
                double vs_host = host_s[c->r] / ts.call_s;
                bool judged = g == 1 && n == 32768 && opt.cublas;
                const char *meets = !judged ? "n/a" : vs_cu >= target[c->r] ? "yes" : "no";
                double outside = ts.call_mean_s - ts.kernel_s;
                fprintf(stderr,
                        "[d%s n %lld, %d GPU] first %.1f ms, call %.1f us (kernels %.1f "
                        "us), %.2fx cuBLAS, check %.2e%s\n",
                        routine_name[c->r], (long long)n, g, ts.first_s * 1e3, ts.call_s * 1e6,
                        ts.kernel_s * 1e6, vs_cu, ts.error,
                        ts.repeat ? "" : ", results differ between calls");
                printf("%-7s %6lld %4d %8.2f %7.1f | %8.1f %8.1f %8.1f %8.1f %8.1f | %8.1f %8.2f "
                       "%6.3f %7.3f %6s %s\n",
                       routine_name[c->r], (long long)n, g, ts.first_s * 1e3,
                       matrix_bytes(c) / ts.first_s * 1e-9, ts.call_s * 1e6, ts.submit_s * 1e6,
                       ts.wait_s * 1e6, ts.kernel_s * 1e6, outside * 1e6, dev_s[c->r] * 1e6,
                       host_s[c->r] * 1e3, vs_cu, kern_cu, meets, ok ? "ok" : "FAIL");
                fflush(stdout);
                fprintf(csv,
                        "%s,d%s,%lld,%d,%s,%d,%.6f,%.2f,%.2f,%.3e,%.3e,%.3e,%.3e,%.3e,%.3e,%.3e,"
                        "%.0f,%.0f,%.0f,%.3e,%.3e,%.4f,%.4f,%.3f,%.2f,%s,%.2f,%.3e,%s,%s\n",
                        gpu_name, routine_name[c->r], (long long)n, g, nbv ? nbv : "default",
                        opt.calls, ts.first_s, matrix_bytes(c) / ts.first_s * 1e-9, link, ts.call_s,
                        ts.call_mean_s, ts.submit_s, ts.wait_s, ts.kernel_s, outside,
                        ts.idle_sync_s, ts.h2d, ts.d2h, ts.d2d, dev_s[c->r], host_s[c->r], vs_cu,
                        kern_cu, vs_host, target[c->r], meets, pin_s, ts.error,
                        ts.repeat ? "yes" : "no", ok ? "ok" : "FAIL");
                fflush(csv);
            }
            TK(tess_finalize());
        }
        CU(cudaHostUnregister(A));
        CU(cudaHostUnregister(x));
        CU(cudaHostUnregister(y));
        free(A);
        free(x);
        free(x0);
        free(y);
        c0 = c1;
    }
    fclose(csv);
    if (status)
        fprintf(stderr, "bench_blas2_cuda: a check FAILED (see the check column)\n");
    return status;
}
