/* Time inside MPI and inside the BLAS-3 routines (profile.h).
 *
 * The program defines the symbols itself, so that ScaLAPACK's calls (which
 * the dynamic linker resolves to the program first) come here; each wrapper
 * forwards to the real routine: MPI's through its profiling interface, the
 * BLAS's through the next library that defines it.  The wrappers count only
 * between profile_start and profile_stop, from one thread. */
#include <dlfcn.h>
#include <mpi.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include "profile.h"

static int on;
static double blas3_s, mpi_s;

double profile_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void profile_start(void)
{
    blas3_s = mpi_s = 0;
    on = 1;
}

void profile_stop(double *b, double *m)
{
    on = 0;
    *b = blas3_s;
    *m = mpi_s;
}

/* The real routine: the next definition after this program's. */
static void *next(void **slot, const char *name)
{
    if (!*slot)
        *slot = dlsym(RTLD_NEXT, name);
    return *slot;
}

const char *profile_blas_library(void)
{
    static void *f;
    Dl_info info;
    void *p = next(&f, "dgemm_");
    return p && dladdr(p, &info) && info.dli_fname ? info.dli_fname : "?";
}

/* ---- MPI: the calls BLACS makes to move data or wait ------------------------ */

#define TIMED_MPI(call)                                                                            \
    do {                                                                                           \
        double t0 = on ? profile_now() : 0;                                                        \
        int err = call;                                                                            \
        if (on)                                                                                    \
            mpi_s += profile_now() - t0;                                                           \
        return err;                                                                                \
    } while (0)

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    TIMED_MPI(PMPI_Send(buf, count, type, dest, tag, comm));
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    TIMED_MPI(PMPI_Rsend(buf, count, type, dest, tag, comm));
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
             MPI_Status *st)
{
    TIMED_MPI(PMPI_Recv(buf, count, type, src, tag, comm, st));
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    TIMED_MPI(PMPI_Isend(buf, count, type, dest, tag, comm, req));
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    TIMED_MPI(PMPI_Irecv(buf, count, type, src, tag, comm, req));
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf,
                 int rcount, MPI_Datatype rtype, int src, int rtag, MPI_Comm comm, MPI_Status *st)
{
    TIMED_MPI(
        PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag, comm, st));
}

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status sts[])
{
    TIMED_MPI(PMPI_Waitall(count, reqs, sts));
}

int MPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status sts[])
{
    TIMED_MPI(PMPI_Testall(count, reqs, flag, sts));
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    TIMED_MPI(PMPI_Bcast(buf, count, type, root, comm));
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm)
{
    TIMED_MPI(PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm));
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
    TIMED_MPI(PMPI_Allreduce(sbuf, rbuf, count, type, op, comm));
}

int MPI_Barrier(MPI_Comm comm)
{
    TIMED_MPI(PMPI_Barrier(comm));
}

/* ---- BLAS-3 in double precision ----------------------------------------------- */

/* Fortran's arguments by address, with one hidden length per character
 * argument, passed on as they came. */
typedef const void *P;
typedef const char *S;
typedef size_t L;

#define TIMED_BLAS(name, call)                                                                     \
    do {                                                                                           \
        static void *slot;                                                                         \
        void *sym = next(&slot, name);                                                             \
        fn_t f; /* a copy: ISO C has no cast from dlsym's pointer to a function's */               \
        memcpy(&f, &sym, sizeof f);                                                                \
        double t0 = on ? profile_now() : 0;                                                        \
        call;                                                                                      \
        if (on)                                                                                    \
            blas3_s += profile_now() - t0;                                                         \
    } while (0)

void dgemm_(S ta, S tb, P m, P n, P k, P al, P a, P lda, P b, P ldb, P be, void *c, P ldc, L l1,
            L l2)
{
    typedef void (*fn_t)(S, S, P, P, P, P, P, P, P, P, P, void *, P, L, L);
    TIMED_BLAS("dgemm_", f(ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc, l1, l2));
}

void dsymm_(S side, S uplo, P m, P n, P al, P a, P lda, P b, P ldb, P be, void *c, P ldc, L l1,
            L l2)
{
    typedef void (*fn_t)(S, S, P, P, P, P, P, P, P, P, void *, P, L, L);
    TIMED_BLAS("dsymm_", f(side, uplo, m, n, al, a, lda, b, ldb, be, c, ldc, l1, l2));
}

void dsyrk_(S uplo, S t, P n, P k, P al, P a, P lda, P be, void *c, P ldc, L l1, L l2)
{
    typedef void (*fn_t)(S, S, P, P, P, P, P, P, void *, P, L, L);
    TIMED_BLAS("dsyrk_", f(uplo, t, n, k, al, a, lda, be, c, ldc, l1, l2));
}

void dsyr2k_(S uplo, S t, P n, P k, P al, P a, P lda, P b, P ldb, P be, void *c, P ldc, L l1, L l2)
{
    typedef void (*fn_t)(S, S, P, P, P, P, P, P, P, P, void *, P, L, L);
    TIMED_BLAS("dsyr2k_", f(uplo, t, n, k, al, a, lda, b, ldb, be, c, ldc, l1, l2));
}

void dtrmm_(S side, S uplo, S ta, S diag, P m, P n, P al, P a, P lda, void *b, P ldb, L l1, L l2,
            L l3, L l4)
{
    typedef void (*fn_t)(S, S, S, S, P, P, P, P, P, void *, P, L, L, L, L);
    TIMED_BLAS("dtrmm_", f(side, uplo, ta, diag, m, n, al, a, lda, b, ldb, l1, l2, l3, l4));
}

void dtrsm_(S side, S uplo, S ta, S diag, P m, P n, P al, P a, P lda, void *b, P ldb, L l1, L l2,
            L l3, L l4)
{
    typedef void (*fn_t)(S, S, S, S, P, P, P, P, P, void *, P, L, L, L, L);
    TIMED_BLAS("dtrsm_", f(side, uplo, ta, diag, m, n, al, a, lda, b, ldb, l1, l2, l3, l4));
}
