/* The legacy BLAS library inside an MPI program, each rank running its own
 * runtime (run under mpirun by run_mpi.sh, with TESS_THRESHOLD=0 so that every
 * BLAS-3 call goes through it):
 *   - nothing starts when the library is loaded or MPI starts: the runtime
 *     comes up on the first BLAS-3 call;
 *   - every thread the runtime starts stays inside the cores the launcher
 *     gave the rank;
 *   - the same call gives the same bits on every run and every rank;
 *   - between calls no thread of the library uses the CPU;
 *   - BLAS calls after MPI_Finalize still work, and the process ends cleanly
 *     with the runtime up (the library stops it at exit).
 * Prints one line per check on rank 0 and exits 1 when any rank failed one. */
#include <dirent.h>
#include <mpi.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include "tessera.h"

typedef double _Complex zcomplex;

void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
            const double *beta, double *c, const int *ldc, size_t, size_t);
void dsyrk_(const char *uplo, const char *t, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *beta, double *c, const int *ldc, size_t,
            size_t);
void dtrsm_(const char *side, const char *uplo, const char *ta, const char *diag, const int *m,
            const int *n, const double *alpha, const double *a, const int *lda, double *b,
            const int *ldb, size_t, size_t, size_t, size_t);
void zgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const zcomplex *alpha, const zcomplex *a, const int *lda, const zcomplex *b,
            const int *ldb, const zcomplex *beta, zcomplex *c, const int *ldc, size_t, size_t);

/* Sizes that span several tiles of TESS_NB=16, off the tile grid. */
enum { M = 97, N = 83, K = 71, RUNS = 3, NCALLS = 4 };

static int rank, failures;

static void check(bool ok, const char *what)
{
    int all = 0, mine = !ok;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (!ok)
        printf("rank %d: FAILED: %s\n", rank, what);
    if (rank == 0 && !all)
        printf("ok: %s\n", what);
    failures += all;
    fflush(stdout);
}

static uint64_t hash(const void *p, size_t bytes)
{
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < bytes; i++)
        h = (h ^ ((const unsigned char *)p)[i]) * 1099511628211u;
    return h;
}

/* The same values on every rank and run. */
static void fill(double *x, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        x[i] = (double)(seed >> 11) / 9007199254740992.0 - 0.5;
    }
}

static int count_threads(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/task");
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* Whether every thread of the process may run only where mask allows. */
static bool threads_inside(const cpu_set_t *mask)
{
    bool inside = true;
    DIR *d = opendir("/proc/self/task");
    for (struct dirent *e; d && (e = readdir(d));) {
        cpu_set_t t, outside;
        if (e->d_name[0] == '.' || sched_getaffinity(atoi(e->d_name), sizeof t, &t))
            continue;
        CPU_XOR(&outside, &t, mask);
        CPU_AND(&outside, &outside, &t);
        inside &= CPU_COUNT(&outside) == 0;
    }
    if (d)
        closedir(d);
    return inside && d;
}

static double cpu_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

static void sleep_s(double s)
{
    struct timespec t = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
    while (nanosleep(&t, &t))
        ;
}

static struct {
    double a[M * K], b[K * N], c[M * N], t[M * M], x[M * N];
    zcomplex za[M * K], zb[N * K], zc[M * N];
} in, out;

/* One of the calls on fresh copies of the inputs; the hash of its output. */
static uint64_t call(int which)
{
    static const double one = 1.0, minus = -1.0, half = 0.5;
    static const zcomplex zalpha = 0.75 - 0.5 * _Complex_I, zbeta = 0.25 + 1.0 * _Complex_I;
    int m = M, n = N, k = K;
    out = in;
    switch (which) {
    case 0:
        dgemm_("N", "N", &m, &n, &k, &one, out.a, &m, out.b, &k, &half, out.c, &m, 1, 1);
        return hash(out.c, sizeof out.c);
    case 1:
        dsyrk_("L", "N", &m, &k, &minus, out.a, &m, &half, out.t, &m, 1, 1);
        return hash(out.t, sizeof out.t);
    case 2:
        dtrsm_("L", "L", "N", "N", &m, &n, &half, out.t, &m, out.x, &m, 1, 1, 1, 1);
        return hash(out.x, sizeof out.x);
    default:
        zgemm_("N", "C", &m, &n, &k, &zalpha, out.za, &m, out.zb, &n, &zbeta, out.zc, &m, 1, 1);
        return hash(out.zc, sizeof out.zc);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);

    tess_stats_t st;
    check(tess_get_stats(&st) == TESS_ENOTINIT, "no runtime before the first BLAS call");
    int threads_before = count_threads();
    cpu_set_t given;
    CPU_ZERO(&given);
    sched_getaffinity(0, sizeof given, &given);

    fill(in.a, M * K, 1);
    fill(in.b, K * N, 2);
    fill(in.c, M * N, 3);
    fill(in.t, M * M, 4);
    for (int i = 0; i < M; i++)
        in.t[i + (size_t)i * M] += M; /* a well-conditioned triangle for TRSM */
    fill(in.x, M * N, 5);
    fill((double *)in.za, 2 * M * K, 6);
    fill((double *)in.zb, 2 * N * K, 7);
    fill((double *)in.zc, 2 * M * N, 8);

    uint64_t h[NCALLS];
    bool same_runs = true;
    for (int r = 0; r < RUNS; r++)
        for (int i = 0; i < NCALLS; i++) {
            uint64_t v = call(i);
            same_runs &= r == 0 || v == h[i];
            h[i] = v;
        }
    check(tess_get_stats(&st) == 0 && st.ndevices > 0 && count_threads() > threads_before,
          "the runtime started on the first call");
    check(threads_inside(&given), "every thread inside the cores the launcher gave the rank");
    check(same_runs, "DGEMM, DSYRK, DTRSM, ZGEMM: the same bits on every run");
    uint64_t *all = malloc(sizeof h * (size_t)nranks);
    MPI_Allgather(h, NCALLS, MPI_UINT64_T, all, NCALLS, MPI_UINT64_T, MPI_COMM_WORLD);
    bool same_ranks = all != NULL;
    for (int r = 0; all && r < nranks; r++)
        same_ranks &= !memcmp(all + (size_t)r * NCALLS, h, sizeof h);
    free(all);
    check(same_ranks, "DGEMM, DSYRK, DTRSM, ZGEMM: the same bits on every rank");

    /* the host BLAS's own threads may spin a moment after a call: let them settle */
    sleep_s(0.3);
    double cpu0 = cpu_seconds();
    sleep_s(1.0);
    double idle = cpu_seconds() - cpu0;
    check(idle < 0.05, "no CPU used between calls");
    if (idle >= 0.05)
        printf("rank %d: %.3f s of CPU over 1 s between calls\n", rank, idle);

    int failed = failures;
    MPI_Finalize();
    bool after = call(0) == h[0];
    if (!after)
        printf("rank %d: FAILED: DGEMM after MPI_Finalize\n", rank);
    else if (rank == 0)
        printf("ok: DGEMM after MPI_Finalize\n");
    /* the runtime is still up: the library stops it at exit */
    return failed || !after;
}
