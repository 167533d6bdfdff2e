/* A distributed Cholesky (PDPOTRF) and LU (PDGETRF) factorization, and a
 * distributed product (PDGEMM), of N x N matrices over a P x Q grid of MPI
 * ranks, with ScaLAPACK calling each rank's BLAS: the system's, or Tessera's
 * legacy library preloaded in its place (docs/scalapack.md).
 *
 *   mpirun -np 2 scalapack_demo [-n N] [-b NB] [-s S] [-g PxQ] [-r potrf,getrf,gemm]
 *                               [-w] [-x]
 *
 * N (2000) the order, NB (128) ScaLAPACK's block size, S (NB) the width of the
 * strips PBLAS cuts its level-3 updates into (pilaenv_ below), PxQ the grid (the most
 * square one of the ranks by default), -r the routines in order (potrf,getrf),
 * -w one untimed DGEMM of order 2048 on each rank first (a GPU BLAS starts
 * there rather than in the first timed call), -x no residual check.
 *
 * For each routine rank 0 prints its time, its rate, a scaled residual (below
 * 16 passes: ||A x - b|| / (||A|| ||x|| N eps) for a solve with the factors,
 * ||C x - A (B x)|| / (||A|| ||B|| ||x|| N eps) for the product) and the
 * shares of the time the ranks spent inside BLAS-3 routines and inside MPI
 * (the rest is ScaLAPACK's own work: panel factorizations on BLAS-1 and -2,
 * and PBLAS's work buffers, filled, added into the matrices and freed on
 * every call).  Exits 1 when a check fails. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "profile.h"

/* BLACS, ScaLAPACK and PBLAS; Fortran routines take one hidden length per
 * character argument. */
void Cblacs_pinfo(int *me, int *nprocs);
void Cblacs_get(int ctxt, int what, int *val);
void Cblacs_gridinit(int *ctxt, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int ctxt);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb,
               const int *irsrc, const int *icsrc, const int *ctxt, const int *lld, int *info);
void pdpotrf_(const char *uplo, const int *n, double *a, const int *ia, const int *ja,
              const int *desca, int *info, size_t);
void pdpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *ia,
              const int *ja, const int *desca, double *b, const int *ib, const int *jb,
              const int *descb, int *info, size_t);
void pdgetrf_(const int *m, const int *n, double *a, const int *ia, const int *ja, const int *desca,
              int *ipiv, int *info);
void pdgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *ia,
              const int *ja, const int *desca, const int *ipiv, double *b, const int *ib,
              const int *jb, const int *descb, int *info, size_t);
void pdgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja, const int *desca,
             const double *b, const int *ib, const int *jb, const int *descb, const double *beta,
             double *c, const int *ic, const int *jc, const int *descc);
void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
            const double *beta, double *c, const int *ldc, size_t, size_t);
void pdgemv_(const char *trans, const int *m, const int *n, const double *alpha, const double *a,
             const int *ia, const int *ja, const int *desca, const double *x, const int *ix,
             const int *jx, const int *descx, const int *incx, const double *beta, double *y,
             const int *iy, const int *jy, const int *descy, const int *incy);
double pdlange_(const char *norm, const int *m, const int *n, const double *a, const int *ia,
                const int *ja, const int *desca, double *work, size_t);

static const int i0 = 0, i1 = 1;
static const double one = 1.0, zero = 0.0;

/* This rank's part of the grid and of an N x N matrix in NB x NB blocks. */
static struct {
    int rank, nranks, ctxt, p, q, myrow, mycol;
    MPI_Comm row_comm; /* the ranks of this rank's process row */
    int n, nb, strip, mloc, nloc, lld;
    int desc[9], vdesc[9]; /* the matrices, and N x 1 vectors */
} g;

/* PBLAS cuts the trailing updates of PDPOTRF (PDSYRK, PDGEMM) into strips of
 * pilaenv_ columns, 32 in ScaLAPACK's own pilaenv.f, which its installation
 * notes leave to the user to tune: on a GPU BLAS, strips so narrow make each
 * local product too small to run there (Tessera's legacy library keeps them on
 * the host).  The program's definition replaces the library's. */
int pilaenv_(const int *ictxt, const char *prec)
{
    (void)ictxt;
    (void)prec;
    return g.strip;
}

/* Uniform in [-0.5, 0.5), a function of (i, j, seed) alone: every grid holds
 * the same matrix. */
static double entry(uint64_t i, uint64_t j, uint64_t seed)
{
    uint64_t z = (i << 32 | j) + seed * 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0 - 0.5;
}

/* Global index of local row (or column) l, the grid dimension being np. */
static int global(int l, int me, int np)
{
    return (l / g.nb * np + me) * g.nb + l % g.nb;
}

enum kind { GENERAL, SPD, ZERO };

/* fn(ctx, first, last) over [0, count), split among one thread per core the
 * rank may use (threads that end with the work, so that none is left polling
 * while ScaLAPACK runs). */
typedef void (*range_fn)(void *ctx, int first, int last);
typedef struct {
    range_fn fn;
    void *ctx;
    int first, last;
} range_t;

static void *range_run(void *arg)
{
    const range_t *r = arg;
    r->fn(r->ctx, r->first, r->last);
    return NULL;
}

static void parallel(int count, range_fn fn, void *ctx)
{
    enum { MAX_THREADS = 256 };
    cpu_set_t cpus;
    int n = sched_getaffinity(0, sizeof cpus, &cpus) ? 1 : CPU_COUNT(&cpus);
    n = n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : n;
    pthread_t t[MAX_THREADS];
    range_t part[MAX_THREADS];
    int started = 0;
    for (int k = 0; k < n; k++) {
        part[k] = (range_t){ fn, ctx, (int)((int64_t)count * k / n),
                             (int)((int64_t)count * (k + 1) / n) };
        if (k == n - 1 || pthread_create(&t[started], NULL, range_run, &part[k]))
            range_run(&part[k]); /* the last part, or one no thread took */
        else
            started++;
    }
    for (int k = 0; k < started; k++)
        pthread_join(t[k], NULL);
}

/* What to write into the local matrix's columns. */
typedef struct {
    double *dst;
    const double *src; /* a copy of it, or ... */
    enum kind kind;    /* ... generated: */
    uint64_t seed;
} fill_t;

static void fill_columns(void *ctx, int first, int last)
{
    const fill_t *w = ctx;
    for (int lj = first; lj < last; lj++) {
        double *col = w->dst + (size_t)lj * (size_t)g.lld;
        if (w->src) {
            memcpy(col, w->src + (size_t)lj * (size_t)g.lld, sizeof *col * (size_t)g.mloc);
            continue;
        }
        if (w->kind == ZERO) {
            memset(col, 0, sizeof *col * (size_t)g.mloc);
            continue;
        }
        uint64_t j = (uint64_t)global(lj, g.mycol, g.q);
        for (int li = 0; li < g.mloc; li++) {
            uint64_t i = (uint64_t)global(li, g.myrow, g.p);
            if (w->kind == GENERAL)
                col[li] = entry(i, j, w->seed);
            else
                col[li] = entry(i < j ? i : j, i < j ? j : i, w->seed) + (i == j ? g.n : 0);
        }
    }
}

/* The local part of A: general, or symmetric with N on the diagonal (so
 * positive definite), or zero (an output's pages touched before it is timed). */
static void generate(double *a, enum kind kind, uint64_t seed)
{
    parallel(g.nloc, fill_columns, &(fill_t){ .dst = a, .kind = kind, .seed = seed });
}

static void copy(double *dst, const double *src)
{
    parallel(g.nloc, fill_columns, &(fill_t){ .dst = dst, .src = src });
}

/* An N-vector, held by the first column of ranks. */
static void generate_vector(double *x, uint64_t seed)
{
    for (int li = 0; li < g.mloc; li++)
        x[li] = entry((uint64_t)global(li, g.myrow, g.p), 0, seed);
}

/* The buffers: the three matrices of a product, or a matrix and its copy;
 * three N-vectors; the sums of a rank's rows (also PDLANGE's work). */
static double *m0, *m1, *m2, *v0, *v1, *v2, *row_sum;

/* ||x||_inf of an N-vector. */
static double vector_norm_inf(const double *x)
{
    return pdlange_("I", &g.n, &i1, x, &i1, &i1, g.vdesc, row_sum, 1);
}

typedef struct {
    const double *a;
    double *sum;
} row_sums_t;

static void abs_row_sums(void *ctx, int first, int last)
{
    const row_sums_t *w = ctx;
    for (int li = first; li < last; li++)
        w->sum[li] = 0;
    for (int lj = 0; lj < g.nloc; lj++) {
        const double *col = w->a + (size_t)lj * (size_t)g.lld;
        for (int li = first; li < last; li++)
            w->sum[li] += fabs(col[li]);
    }
}

/* ||A||_inf of an N x N matrix: each rank sums the absolute values of its
 * rows on all its cores, each process row adds its ranks' sums, the largest
 * sum wins.  PDLANGE does this on one core per rank, which at the benchmark's
 * sizes takes several times as long as PDGEMM on a GPU. */
static double matrix_norm_inf(const double *a)
{
    double local = 0, v;
    parallel(g.mloc, abs_row_sums, &(row_sums_t){ a, row_sum });
    MPI_Allreduce(MPI_IN_PLACE, row_sum, g.mloc, MPI_DOUBLE, MPI_SUM, g.row_comm);
    for (int li = 0; li < g.mloc; li++)
        local = row_sum[li] > local ? row_sum[li] : local;
    MPI_Allreduce(&local, &v, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return v;
}

/* y = alpha op(A) x + beta y. */
static void gemv(double alpha, const double *a, const double *x, double beta, double *y)
{
    pdgemv_("N", &g.n, &g.n, &alpha, a, &i1, &i1, g.desc, x, &i1, &i1, g.vdesc, &i1, &beta, y, &i1,
            &i1, g.vdesc, &i1);
}

/* ||A0 x - b|| / (||A0|| ||x|| N eps), x the solution the factors gave. */
static double solve_residual(const double *a0, const double *x, double *b)
{
    gemv(1.0, a0, x, -1.0, b);
    return vector_norm_inf(b) /
           (matrix_norm_inf(a0) * vector_norm_inf(x) * g.n * (DBL_EPSILON / 2));
}

typedef struct {
    double seconds, blas3_s, mpi_s, flops, residual;
    int info;
} result_t;

static double timed_start(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    profile_start();
    return profile_now();
}

static void timed_stop(double t0, result_t *r)
{
    r->seconds = profile_now() - t0;
    profile_stop(&r->blas3_s, &r->mpi_s);
}

static result_t run(const char *routine, bool check)
{
    result_t r = { .residual = NAN };
    double t0;
    if (!strcmp(routine, "potrf")) {
        generate(m0, SPD, 1);
        if (check)
            copy(m1, m0);
        t0 = timed_start();
        pdpotrf_("L", &g.n, m0, &i1, &i1, g.desc, &r.info, 1);
        timed_stop(t0, &r);
        r.flops = (double)g.n * g.n * g.n / 3;
        if (check && !r.info) {
            generate_vector(v0, 2);
            memcpy(v1, v0, sizeof *v0 * (size_t)g.mloc);
            pdpotrs_("L", &g.n, &i1, m0, &i1, &i1, g.desc, v1, &i1, &i1, g.vdesc, &r.info, 1);
            r.residual = solve_residual(m1, v1, v0);
        }
    } else if (!strcmp(routine, "getrf")) {
        int *ipiv = malloc(sizeof *ipiv * (size_t)(g.mloc + g.nb));
        if (!ipiv)
            return (result_t){ .info = -1 };
        generate(m0, GENERAL, 3);
        if (check)
            copy(m1, m0);
        t0 = timed_start();
        pdgetrf_(&g.n, &g.n, m0, &i1, &i1, g.desc, ipiv, &r.info);
        timed_stop(t0, &r);
        r.flops = 2.0 * g.n * g.n * g.n / 3;
        if (check && !r.info) {
            generate_vector(v0, 4);
            memcpy(v1, v0, sizeof *v0 * (size_t)g.mloc);
            pdgetrs_("N", &g.n, &i1, m0, &i1, &i1, g.desc, ipiv, v1, &i1, &i1, g.vdesc, &r.info, 1);
            r.residual = solve_residual(m1, v1, v0);
        }
        free(ipiv);
    } else {
        generate(m0, GENERAL, 5);
        generate(m1, GENERAL, 6);
        generate(m2, ZERO, 0);
        t0 = timed_start();
        pdgemm_("N", "N", &g.n, &g.n, &g.n, &one, m0, &i1, &i1, g.desc, m1, &i1, &i1, g.desc, &zero,
                m2, &i1, &i1, g.desc);
        timed_stop(t0, &r);
        r.flops = 2.0 * g.n * g.n * g.n;
        if (check) {
            generate_vector(v0, 7);
            gemv(1.0, m2, v0, 0.0, v1);  /* C x */
            gemv(1.0, m1, v0, 0.0, v2);  /* B x */
            gemv(1.0, m0, v2, -1.0, v1); /* A (B x) - C x */
            r.residual = vector_norm_inf(v1) / (matrix_norm_inf(m0) * matrix_norm_inf(m1) *
                                                vector_norm_inf(v0) * g.n * (DBL_EPSILON / 2));
        }
    }
    return r;
}

/* A local product large enough to go to a GPU, so that a GPU library's start
 * is not timed. */
static void warm_up(void)
{
    const int n = 2048;
    double *a = calloc((size_t)n * n, sizeof *a), *c = calloc((size_t)n * n, sizeof *c);
    if (a && c)
        dgemm_("N", "N", &n, &n, &n, &one, a, &n, a, &n, &zero, c, &n, 1, 1);
    free(a);
    free(c);
}

static void usage(const char *argv0)
{
    if (g.rank == 0)
        fprintf(stderr,
                "usage: %s [-n N] [-b NB] [-s S] [-g PxQ] [-r potrf,getrf,gemm] [-w] [-x]\n",
                argv0);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g.nranks);
    g.n = 2000;
    g.nb = 128;
    char routines[256] = "potrf,getrf";
    bool check = true, warm = false;
    for (int c; (c = getopt(argc, argv, "n:b:s:g:r:wx")) != -1;) {
        switch (c) {
        case 'n': g.n = atoi(optarg); break;
        case 'b': g.nb = atoi(optarg); break;
        case 's': g.strip = atoi(optarg); break;
        case 'g':
            if (sscanf(optarg, "%dx%d", &g.p, &g.q) != 2)
                g.p = -1;
            break;
        case 'r': snprintf(routines, sizeof routines, "%s", optarg); break;
        case 'w': warm = true; break;
        case 'x': check = false; break;
        default:
            usage(argv[0]);
            MPI_Finalize();
            return 2;
        }
    }
    if (!g.p) /* the most square grid, P <= Q */
        for (int p = 1; p * p <= g.nranks; p++)
            if (g.nranks % p == 0)
                g.p = p, g.q = g.nranks / p;
    if (!g.strip)
        g.strip = g.nb;
    if (g.n < 1 || g.nb < 1 || g.strip < 1 || g.p < 1 || g.q < 1 || g.p * g.q != g.nranks) {
        if (g.rank == 0)
            fprintf(stderr, "scalapack_demo: N and NB must be positive and P x Q the %d ranks\n",
                    g.nranks);
        usage(argv[0]);
        MPI_Finalize();
        return 2;
    }

    int info;
    Cblacs_get(-1, 0, &g.ctxt);
    Cblacs_gridinit(&g.ctxt, "Row", g.p, g.q);
    Cblacs_gridinfo(g.ctxt, &g.p, &g.q, &g.myrow, &g.mycol);
    MPI_Comm_split(MPI_COMM_WORLD, g.myrow, g.mycol, &g.row_comm);
    g.mloc = numroc_(&g.n, &g.nb, &g.myrow, &i0, &g.p);
    g.nloc = numroc_(&g.n, &g.nb, &g.mycol, &i0, &g.q);
    g.lld = g.mloc > 1 ? g.mloc : 1;
    descinit_(g.desc, &g.n, &g.n, &g.nb, &g.nb, &i0, &i0, &g.ctxt, &g.lld, &info);
    descinit_(g.vdesc, &g.n, &i1, &g.nb, &g.nb, &i0, &i0, &g.ctxt, &g.lld, &info);

    /* ScaLAPACK indexes a rank's local matrix with its default INTEGER, 32
     * bits here (PDPOTF2's and PDLANGE's offsets (j - 1) * LLD + i), and PBLAS
     * sizes its work buffers (a strip of the local rows or columns) in bytes
     * with a C int: past 2^31 either gives wrong results or a crash, not an
     * error. */
    int64_t local = g.mloc > g.nloc ? g.mloc : g.nloc, wide = g.strip > g.nb ? g.strip : g.nb;
    int too_big = ((int64_t)g.lld * g.nloc > INT_MAX) | 2 * (wide * local * 8 > INT_MAX), any;
    MPI_Allreduce(&too_big, &any, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
    if (any) {
        if (g.rank == 0)
            fprintf(stderr, "scalapack_demo: %s, past ScaLAPACK's 32-bit sizes: use %s\n",
                    any & 1 ? "a rank's part of the matrix has 2^31 elements or more"
                            : "a strip of a rank's part takes 2^31 bytes or more",
                    any & 1 ? "more ranks (a larger -g)" : "narrower strips (-s, -b)");
        MPI_Finalize();
        return 2;
    }

    size_t elems = (size_t)g.lld * (size_t)(g.nloc > 1 ? g.nloc : 1);
    bool gemm = strstr(routines, "gemm") != NULL;
    m0 = malloc(sizeof *m0 * elems);
    m1 = malloc(sizeof *m1 * elems);
    m2 = gemm ? malloc(sizeof *m2 * elems) : NULL;
    v0 = malloc(sizeof *v0 * (size_t)g.lld);
    v1 = malloc(sizeof *v1 * (size_t)g.lld);
    v2 = malloc(sizeof *v2 * (size_t)g.lld);
    row_sum = malloc(sizeof *row_sum * (size_t)g.lld);
    int ok = m0 && m1 && (!gemm || m2) && v0 && v1 && v2 && row_sum, all_ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
        if (g.rank == 0)
            fprintf(stderr, "scalapack_demo: out of memory for N = %d\n", g.n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    if (g.rank == 0) {
        printf("# ScaLAPACK on %d rank(s), grid %d x %d, N %d, NB %d, strips of %d; dgemm_ "
               "from %s\n",
               g.nranks, g.p, g.q, g.n, g.nb, g.strip, profile_blas_library());
        printf("# %-8s %7s %5s %9s %9s %10s %7s %7s %7s  %s\n", "routine", "N", "NB", "time_s",
               "gflops", "residual", "blas3", "mpi", "rest", "check");
    }
    if (warm)
        warm_up();
    int failed = 0;
    for (char *save, *name = strtok_r(routines, ",", &save); name;
         name = strtok_r(NULL, ",", &save)) {
        if (strcmp(name, "potrf") && strcmp(name, "getrf") && strcmp(name, "gemm")) {
            if (g.rank == 0)
                fprintf(stderr, "scalapack_demo: no routine %s\n", name);
            failed = 1;
            continue;
        }
        result_t r = run(name, check);
        double t, share[2] = { r.blas3_s / r.seconds, r.mpi_s / r.seconds }, sum[2];
        MPI_Allreduce(&r.seconds, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        MPI_Allreduce(share, sum, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        int bad = r.info != 0 || (check && !(r.residual < 16)), any;
        MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        failed |= any;
        if (g.rank == 0) {
            double b3 = 100 * sum[0] / g.nranks, m = 100 * sum[1] / g.nranks;
            printf("  pd%-6s %7d %5d %9.3f %9.2f %10.3e %6.1f%% %6.1f%% %6.1f%%  %s\n", name, g.n,
                   g.nb, t, r.flops / t * 1e-9, r.residual, b3, m, 100 - b3 - m,
                   r.info   ? "info != 0"
                   : !check ? "-"
                   : any    ? "FAILED"
                            : "ok");
            fflush(stdout);
        }
    }
    free(m0);
    free(m1);
    free(m2);
    free(v0);
    free(v1);
    free(v2);
    free(row_sum);
    MPI_Comm_free(&g.row_comm);
    Cblacs_gridexit(g.ctxt);
    MPI_Finalize();
    return failed;
}
