/* The Fortran 77 BLAS-3 entry points and LAPACK's Cholesky family, LU and QR, written
 * once for the four precisions and both integer widths: dgemm_ and dpotrf_
 * take reference BLAS's 32-bit INTEGER, dgemm_64_ and dpotrf_64_ (as
 * OpenBLAS's 64-bit builds spell them) 64-bit ones.  Character
 * arguments are read in either case; their hidden lengths (gfortran passes a
 * size_t for each after the last argument) are declared and not needed.
 *
 * An invalid argument calls XERBLA with the routine's name, blank-padded as
 * reference BLAS (LAPACK) pads it, and the reference argument number, through the
 * ordinary symbol lookup, so that an application's own XERBLA (the netlib
 * testers define one) is the one called; the call changes nothing.  Also
 * here: LSAME, XERBLA and XERBLA_ARRAY themselves. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "build.h"

static tess_trans_t f_trans(const char *c)
{
    switch (*c) {
    case 'N':
    case 'n': return TessNoTrans;
    case 'T':
    case 't': return TessTrans;
    case 'C':
    case 'c': return TessConjTrans;
    default: return (tess_trans_t)0;
    }
}

static tess_uplo_t f_uplo(const char *c)
{
    switch (*c) {
    case 'U':
    case 'u': return TessUpper;
    case 'L':
    case 'l': return TessLower;
    default: return (tess_uplo_t)0;
    }
}

static tess_side_t f_side(const char *c)
{
    switch (*c) {
    case 'L':
    case 'l': return TessLeft;
    case 'R':
    case 'r': return TessRight;
    default: return (tess_side_t)0;
    }
}

static tess_diag_t f_diag(const char *c)
{
    switch (*c) {
    case 'N':
    case 'n': return TessNonUnit;
    case 'U':
    case 'u': return TessUnit;
    default: return (tess_diag_t)0;
    }
}

static void call32(const lg_call_t *c, const char *name)
{
    if (lg_run_small32(c))
        return;
    int32_t info = -tess_internal_check(c);
    if (!info)
        info = lg_run(c);
    if (info)
        xerbla_(name, &info, strlen(name));
}

static void call64(const lg_call_t *c, const char *name)
{
    int64_t info = -tess_internal_check(c);
    if (!info)
        info = lg_run(c);
    if (info)
        xerbla_64_(name, &info, strlen(name));
}

/* LAPACK's workspace argument (GEQRF, ORMQR, GELS) and its smallest valid
 * value, LAPACK's; 0 for the routines without one. */
static int lwork_position(lg_rout_t r)
{
    return r == LG_GEQRF ? 7 : r == LG_ORMQR ? 12 : r == LG_GELS ? 10 : 0;
}

static int64_t lwork_min(const lg_call_t *c)
{
    int64_t mn = c->m < c->n ? c->m : c->n, v;
    switch (c->r) {
    case LG_GEQRF: v = c->m > 0 ? c->n : 1; break; /* LAPACK 3.10's rule: 1 when m is 0 */
    case LG_ORMQR: v = c->side == TessLeft ? c->n : c->m; break;
    default: v = mn + (mn > c->k ? mn : c->k); break;
    }
    return v > 1 ? v : 1;
}

/* INFO's position in LAPACK's numbering where the runtime's check does not
 * report a NULL one there: GETRS, GEQRF and ORMQR have no INFO in the
 * runtime's API, and GELS's is its 9th argument there (LAPACK's 11th, after
 * WORK and LWORK). */
static int info_position(lg_rout_t r)
{
    return r == LG_GETRS ? 9 : r == LG_GEQRF ? 8 : r == LG_ORMQR ? 13 : r == LG_GELS ? 11 : 0;
}

/* v as a float, rounded up (LAPACK's SROUNDUP_LWORK): rounded down, a caller allocating
 * WORK(1) elements would be refused for a workspace too small. */
static float float_up(int64_t v)
{
    float f = (float)v;
    return (double)f < (double)v ? nextafterf(f, INFINITY) : f;
}

/* A workspace query's answer, LAPACK's: the host LAPACK's optimal lwork (its
 * smallest without one) in WORK(1), a real number in the element type. */
static void answer_query(const lg_call_t *c)
{
    int64_t v;
    if (!c->work)
        return;
    if (!lg_host_lwork(c, &v))
        v = lwork_min(c);
    memset(c->work, 0, kern_dtypes[c->t].size);
    if (kern_dtypes[c->t].real == KERN_S)
        *(float *)c->work = float_up(v);
    else
        *(double *)c->work = (double)v;
}

/* The first invalid argument's position in LAPACK's order (0: none), the
 * workspace's size last as LAPACK checks it; *done once a workspace query
 * (lwork = -1) is answered.  A query reads no operand: only its numbers
 * (and INFO) are checked. */
static int64_t lapack_check(const lg_call_t *c, const void *info, bool *done)
{
    static const double any;
    int64_t unused;
    int lp = lwork_position(c->r);
    bool query = lp && c->lwork == -1;
    lg_call_t q = *c;
    if (query)
        q.A = &any, q.B = &any, q.C = (void *)&any;
    if (info_position(c->r))
        q.info = &unused; /* a NULL INFO is refused below, at its own position */
    int64_t pos = -tess_internal_check(&q);
    if (!pos && lp && !query && c->lwork < lwork_min(c))
        pos = lp;
    if (!pos && !info)
        pos = info_position(c->r);
    *done = !pos && query;
    if (*done)
        answer_query(c);
    return pos;
}

/* LAPACK's: as call32 and call64, with INFO written as LAPACK writes it, set
 * to -position before XERBLA is called.  A NULL INFO (from C) is refused at
 * its own position, and nothing is written. */
static void lapack32(lg_call_t *c, const char *name, int32_t *info)
{
    int64_t k = 0;
    c->info = info ? &k : NULL;
    if (lg_run_small32(c)) {
        *info = (int32_t)k;
        return;
    }
    bool done;
    int32_t pos = (int32_t)lapack_check(c, info, &done);
    if (!pos && !done)
        pos = lg_run(c);
    if (info)
        *info = pos ? -pos : (int32_t)k;
    if (pos)
        xerbla_(name, &pos, strlen(name));
}

static void lapack64(lg_call_t *c, const char *name, int64_t *info)
{
    int64_t k = 0;
    c->info = info ? &k : NULL;
    bool done;
    int64_t pos = lapack_check(c, info, &done);
    if (!pos && !done)
        pos = lg_run(c);
    if (info)
        *info = pos ? -pos : k;
    if (pos)
        xerbla_64_(name, &pos, strlen(name));
}

/* LASWP, which LAPACK does not check: nothing to do for n <= 0, k2 < k1 or
 * incx = 0, as in LAPACK.  What the runtime refuses (lda < 1, k1 < 1, a row
 * past lda, NULL operands, a stride through ipiv that overflows), where
 * LAPACK's would reach outside A or ipiv, is refused through XERBLA at its
 * position rather than left to write past A. */
static int64_t laswp(const lg_call_t *c)
{
    if (c->n <= 0 || c->k2 < c->k1 || c->incx == 0)
        return 0;
    int64_t pos = -tess_internal_check(c);
    return pos ? pos : lg_run(c);
}

static void laswp32(const lg_call_t *c, const char *name)
{
    int32_t pos = (int32_t)laswp(c);
    if (pos)
        xerbla_(name, &pos, strlen(name));
}

static void laswp64(const lg_call_t *c, const char *name)
{
    int64_t pos = laswp(c);
    if (pos)
        xerbla_64_(name, &pos, strlen(name));
}

/* p: the routine's prefix, P the same in capitals (for XERBLA), I the
 * integer type, SFX the symbol's ending, CALL call32 or call64. */
#define LG_F77_BLAS3(p, P, TYPE, I, SFX, CALL)                                                     \
    LG_EXPORT void p##gemm##SFX(const char *ta, const char *tb, const I *m, const I *n,            \
                                const I *k, const void *alpha, const void *A, const I *lda,        \
                                const void *B, const I *ldb, const void *beta, void *C,            \
                                const I *ldc, size_t lta, size_t ltb)                              \
    {                                                                                              \
        (void)lta, (void)ltb;                                                                      \
        lg_call_t c = lg_gemm_call(TYPE, f_trans(ta), f_trans(tb), *m, *n, *k, alpha, A, *lda, B,  \
                                   *ldb, beta, C, *ldc);                                           \
        CALL(&c, #P "GEMM ");                                                                      \
    }                                                                                              \
    LG_EXPORT void p##symm##SFX(const char *side, const char *uplo, const I *m, const I *n,        \
                                const void *alpha, const void *A, const I *lda, const void *B,     \
                                const I *ldb, const void *beta, void *C, const I *ldc, size_t ls,  \
                                size_t lu)                                                         \
    {                                                                                              \
        (void)ls, (void)lu;                                                                        \
        lg_call_t c = lg_symm_call(LG_SYMM, TYPE, f_side(side), f_uplo(uplo), *m, *n, alpha, A,    \
                                   *lda, B, *ldb, beta, C, *ldc);                                  \
        CALL(&c, #P "SYMM ");                                                                      \
    }                                                                                              \
    LG_EXPORT void p##syrk##SFX(const char *uplo, const char *trans, const I *n, const I *k,       \
                                const void *alpha, const void *A, const I *lda, const void *beta,  \
                                void *C, const I *ldc, size_t lu, size_t lt)                       \
    {                                                                                              \
        (void)lu, (void)lt;                                                                        \
        lg_call_t c = lg_syrk_call(LG_SYRK, TYPE, f_uplo(uplo), f_trans(trans), *n, *k, alpha, A,  \
                                   *lda, NULL, 0, beta, C, *ldc);                                  \
        CALL(&c, #P "SYRK ");                                                                      \
    }                                                                                              \
    LG_EXPORT void p##syr2k##SFX(const char *uplo, const char *trans, const I *n, const I *k,      \
                                 const void *alpha, const void *A, const I *lda, const void *B,    \
                                 const I *ldb, const void *beta, void *C, const I *ldc, size_t lu, \
                                 size_t lt)                                                        \
    {                                                                                              \
        (void)lu, (void)lt;                                                                        \
        lg_call_t c = lg_syrk_call(LG_SYR2K, TYPE, f_uplo(uplo), f_trans(trans), *n, *k, alpha, A, \
                                   *lda, B, *ldb, beta, C, *ldc);                                  \
        CALL(&c, #P "SYR2K");                                                                      \
    }                                                                                              \
    static void p##gemmt##SFX##call(const char *uplo, const char *ta, const char *tb, const I *n,  \
                                    const I *k, const void *alpha, const void *A, const I *lda,    \
                                    const void *B, const I *ldb, const void *beta, void *C,        \
                                    const I *ldc, const char *name)                                \
    {                                                                                              \
        lg_call_t c = lg_gemmt_call(TYPE, f_uplo(uplo), f_trans(ta), f_trans(tb), *n, *k, alpha,   \
                                    A, *lda, B, *ldb, beta, C, *ldc);                              \
        CALL(&c, name);                                                                            \
    }                                                                                              \
    LG_EXPORT void p##gemmt##SFX(const char *uplo, const char *ta, const char *tb, const I *n,     \
                                 const I *k, const void *alpha, const void *A, const I *lda,       \
                                 const void *B, const I *ldb, const void *beta, void *C,           \
                                 const I *ldc, size_t lu, size_t la, size_t lb)                    \
    {                                                                                              \
        (void)lu, (void)la, (void)lb;                                                              \
        p##gemmt##SFX##call(uplo, ta, tb, n, k, alpha, A, lda, B, ldb, beta, C, ldc, #P "GEMMT");  \
    }                                                                                              \
    LG_EXPORT void p##gemmtr##SFX(const char *uplo, const char *ta, const char *tb, const I *n,    \
                                  const I *k, const void *alpha, const void *A, const I *lda,      \
                                  const void *B, const I *ldb, const void *beta, void *C,          \
                                  const I *ldc, size_t lu, size_t la, size_t lb)                   \
    {                                                                                              \
        (void)lu, (void)la, (void)lb;                                                              \
        p##gemmt##SFX##call(uplo, ta, tb, n, k, alpha, A, lda, B, ldb, beta, C, ldc, #P "GEMMTR"); \
    }                                                                                              \
    LG_EXPORT void p##trsm##SFX(const char *side, const char *uplo, const char *ta,                \
                                const char *diag, const I *m, const I *n, const void *alpha,       \
                                const void *A, const I *lda, void *B, const I *ldb, size_t ls,     \
                                size_t lu, size_t lt, size_t ld)                                   \
    {                                                                                              \
        (void)ls, (void)lu, (void)lt, (void)ld;                                                    \
        lg_call_t c = lg_trxm_call(LG_TRSM, TYPE, f_side(side), f_uplo(uplo), f_trans(ta),         \
                                   f_diag(diag), *m, *n, alpha, A, *lda, B, *ldb);                 \
        CALL(&c, #P "TRSM ");                                                                      \
    }                                                                                              \
    LG_EXPORT void p##trmm##SFX(const char *side, const char *uplo, const char *ta,                \
                                const char *diag, const I *m, const I *n, const void *alpha,       \
                                const void *A, const I *lda, void *B, const I *ldb, size_t ls,     \
                                size_t lu, size_t lt, size_t ld)                                   \
    {                                                                                              \
        (void)ls, (void)lu, (void)lt, (void)ld;                                                    \
        lg_call_t c = lg_trxm_call(LG_TRMM, TYPE, f_side(side), f_uplo(uplo), f_trans(ta),         \
                                   f_diag(diag), *m, *n, alpha, A, *lda, B, *ldb);                 \
        CALL(&c, #P "TRMM ");                                                                      \
    }

/* HEMM, HERK and HER2K: complex only; HERK's alpha and beta and HER2K's beta
 * are real. */
#define LG_F77_HERM(p, P, TYPE, I, SFX, CALL)                                                      \
    LG_EXPORT void p##hemm##SFX(const char *side, const char *uplo, const I *m, const I *n,        \
                                const void *alpha, const void *A, const I *lda, const void *B,     \
                                const I *ldb, const void *beta, void *C, const I *ldc, size_t ls,  \
                                size_t lu)                                                         \
    {                                                                                              \
        (void)ls, (void)lu;                                                                        \
        lg_call_t c = lg_symm_call(LG_HEMM, TYPE, f_side(side), f_uplo(uplo), *m, *n, alpha, A,    \
                                   *lda, B, *ldb, beta, C, *ldc);                                  \
        CALL(&c, #P "HEMM ");                                                                      \
    }                                                                                              \
    LG_EXPORT void p##herk##SFX(const char *uplo, const char *trans, const I *n, const I *k,       \
                                const void *alpha, const void *A, const I *lda, const void *beta,  \
                                void *C, const I *ldc, size_t lu, size_t lt)                       \
    {                                                                                              \
        (void)lu, (void)lt;                                                                        \
        lg_call_t c = lg_syrk_call(LG_HERK, TYPE, f_uplo(uplo), f_trans(trans), *n, *k, alpha, A,  \
                                   *lda, NULL, 0, beta, C, *ldc);                                  \
        CALL(&c, #P "HERK ");                                                                      \
    }                                                                                              \
    LG_EXPORT void p##her2k##SFX(const char *uplo, const char *trans, const I *n, const I *k,      \
                                 const void *alpha, const void *A, const I *lda, const void *B,    \
                                 const I *ldb, const void *beta, void *C, const I *ldc, size_t lu, \
                                 size_t lt)                                                        \
    {                                                                                              \
        (void)lu, (void)lt;                                                                        \
        lg_call_t c = lg_syrk_call(LG_HER2K, TYPE, f_uplo(uplo), f_trans(trans), *n, *k, alpha, A, \
                                   *lda, B, *ldb, beta, C, *ldc);                                  \
        CALL(&c, #P "HER2K");                                                                      \
    }

/* POTRF, LAUUM and POTRI take the same arguments: (uplo, n, A, lda, info). */
#define LG_F77_UPLO_N_A(p, P, TYPE, I, SFX, CALL, name, NAME)                                      \
    LG_EXPORT void p##name##SFX(const char *uplo, const I *n, void *A, const I *lda, I *info,      \
                                size_t lu)                                                         \
    {                                                                                              \
        (void)lu;                                                                                  \
        lg_call_t c = lg_lapack_call(LG_##NAME, TYPE, f_uplo(uplo), 0, *n, 0, A, *lda, NULL, 0);   \
        CALL(&c, #P #NAME, info);                                                                  \
    }

/* LAPACK's POTRF, POTRS, POSV, TRTRI, LAUUM and POTRI; CALL lapack32 or
 * lapack64. */
#define LG_F77_LAPACK(p, P, TYPE, I, SFX, CALL)                                                    \
    LG_F77_UPLO_N_A(p, P, TYPE, I, SFX, CALL, potrf, POTRF)                                        \
    LG_EXPORT void p##potrs##SFX(const char *uplo, const I *n, const I *nrhs, const void *A,       \
                                 const I *lda, void *B, const I *ldb, I *info, size_t lu)          \
    {                                                                                              \
        (void)lu;                                                                                  \
        lg_call_t c =                                                                              \
            lg_lapack_call(LG_POTRS, TYPE, f_uplo(uplo), 0, *n, *nrhs, A, *lda, B, *ldb);          \
        CALL(&c, #P "POTRS", info);                                                                \
    }                                                                                              \
    LG_EXPORT void p##posv##SFX(const char *uplo, const I *n, const I *nrhs, void *A,              \
                                const I *lda, void *B, const I *ldb, I *info, size_t lu)           \
    {                                                                                              \
        (void)lu;                                                                                  \
        lg_call_t c = lg_lapack_call(LG_POSV, TYPE, f_uplo(uplo), 0, *n, *nrhs, A, *lda, B, *ldb); \
        CALL(&c, #P "POSV ", info);                                                                \
    }                                                                                              \
    LG_EXPORT void p##trtri##SFX(const char *uplo, const char *diag, const I *n, void *A,          \
                                 const I *lda, I *info, size_t lu, size_t ld)                      \
    {                                                                                              \
        (void)lu, (void)ld;                                                                        \
        lg_call_t c =                                                                              \
            lg_lapack_call(LG_TRTRI, TYPE, f_uplo(uplo), f_diag(diag), *n, 0, A, *lda, NULL, 0);   \
        CALL(&c, #P "TRTRI", info);                                                                \
    }                                                                                              \
    LG_F77_UPLO_N_A(p, P, TYPE, I, SFX, CALL, lauum, LAUUM)                                        \
    LG_F77_UPLO_N_A(p, P, TYPE, I, SFX, CALL, potri, POTRI)

/* LU: GETRF, GETRS, GESV and LASWP; W32 whether I is 32 bits wide. */
#define LG_F77_LU(p, P, TYPE, I, SFX, CALL, LASWP, W32)                                            \
    LG_EXPORT void p##getrf##SFX(const I *m, const I *n, void *A, const I *lda, I *ipiv, I *info)  \
    {                                                                                              \
        lg_call_t c =                                                                              \
            lg_luqr_call(LG_GETRF, TYPE, 0, 0, *m, *n, 0, A, *lda, ipiv, W32, NULL, 0, NULL, 0);   \
        CALL(&c, #P "GETRF", info);                                                                \
    }                                                                                              \
    LG_EXPORT void p##getrs##SFX(const char *trans, const I *n, const I *nrhs, const void *A,      \
                                 const I *lda, const I *ipiv, void *B, const I *ldb, I *info,      \
                                 size_t lt)                                                        \
    {                                                                                              \
        (void)lt;                                                                                  \
        lg_call_t c = lg_luqr_call(LG_GETRS, TYPE, 0, f_trans(trans), *n, *n, *nrhs, A, *lda,      \
                                   (void *)ipiv, W32, B, *ldb, NULL, 0);                           \
        CALL(&c, #P "GETRS", info);                                                                \
    }                                                                                              \
    LG_EXPORT void p##gesv##SFX(const I *n, const I *nrhs, void *A, const I *lda, I *ipiv,         \
                                void *B, const I *ldb, I *info)                                    \
    {                                                                                              \
        lg_call_t c = lg_luqr_call(LG_GESV, TYPE, 0, TessNoTrans, *n, *n, *nrhs, A, *lda, ipiv,    \
                                   W32, B, *ldb, NULL, 0);                                         \
        CALL(&c, #P "GESV ", info);                                                                \
    }                                                                                              \
    LG_EXPORT void p##laswp##SFX(const I *n, void *A, const I *lda, const I *k1, const I *k2,      \
                                 const I *ipiv, const I *incx)                                     \
    {                                                                                              \
        lg_call_t c = lg_luqr_call(LG_LASWP, TYPE, 0, 0, *lda, *n, 0, A, *lda, (void *)ipiv, W32,  \
                                   NULL, 0, NULL, 0);                                              \
        c.k1 = *k1, c.k2 = *k2, c.incx = *incx;                                                    \
        LASWP(&c, #P "LASWP");                                                                     \
    }

/* QR: GEQRF and GELS, and ORMQR or UNMQR (q, Q); tau is carried as B. */
#define LG_F77_QR(p, P, TYPE, I, SFX, CALL, q, Q)                                                  \
    LG_EXPORT void p##geqrf##SFX(const I *m, const I *n, void *A, const I *lda, void *tau,         \
                                 void *work, const I *lwork, I *info)                              \
    {                                                                                              \
        lg_call_t c =                                                                              \
            lg_luqr_call(LG_GEQRF, TYPE, 0, 0, *m, *n, 0, A, *lda, NULL, false, tau, 1, NULL, 0);  \
        c.work = work, c.lwork = *lwork;                                                           \
        CALL(&c, #P "GEQRF", info);                                                                \
    }                                                                                              \
    LG_EXPORT void p##q##SFX(const char *side, const char *trans, const I *m, const I *n,          \
                             const I *k, const void *A, const I *lda, const void *tau, void *C,    \
                             const I *ldc, void *work, const I *lwork, I *info, size_t ls,         \
                             size_t lt)                                                            \
    {                                                                                              \
        (void)ls, (void)lt;                                                                        \
        lg_call_t c = lg_luqr_call(LG_ORMQR, TYPE, f_side(side), f_trans(trans), *m, *n, *k, A,    \
                                   *lda, NULL, false, tau, 1, C, *ldc);                            \
        c.work = work, c.lwork = *lwork;                                                           \
        CALL(&c, #P #Q, info);                                                                     \
    }                                                                                              \
    LG_EXPORT void p##gels##SFX(const char *trans, const I *m, const I *n, const I *nrhs, void *A, \
                                const I *lda, void *B, const I *ldb, void *work, const I *lwork,   \
                                I *info, size_t lt)                                                \
    {                                                                                              \
        (void)lt;                                                                                  \
        lg_call_t c = lg_luqr_call(LG_GELS, TYPE, 0, f_trans(trans), *m, *n, *nrhs, A, *lda, NULL, \
                                   false, B, *ldb, NULL, 0);                                       \
        c.work = work, c.lwork = *lwork;                                                           \
        CALL(&c, #P "GELS ", info);                                                                \
    }

#define LG_F77_ALL(I, SFX, CALL, LCALL, LASWP, W32)                                                \
    LG_F77_BLAS3(s, S, KERN_S, I, SFX, CALL)                                                       \
    LG_F77_BLAS3(d, D, KERN_D, I, SFX, CALL)                                                       \
    LG_F77_BLAS3(c, C, KERN_C, I, SFX, CALL)                                                       \
    LG_F77_BLAS3(z, Z, KERN_Z, I, SFX, CALL)                                                       \
    LG_F77_HERM(c, C, KERN_C, I, SFX, CALL)                                                        \
    LG_F77_HERM(z, Z, KERN_Z, I, SFX, CALL)                                                        \
    LG_F77_LAPACK(s, S, KERN_S, I, SFX, LCALL)                                                     \
    LG_F77_LAPACK(d, D, KERN_D, I, SFX, LCALL)                                                     \
    LG_F77_LAPACK(c, C, KERN_C, I, SFX, LCALL)                                                     \
    LG_F77_LAPACK(z, Z, KERN_Z, I, SFX, LCALL)                                                     \
    LG_F77_LU(s, S, KERN_S, I, SFX, LCALL, LASWP, W32)                                             \
    LG_F77_LU(d, D, KERN_D, I, SFX, LCALL, LASWP, W32)                                             \
    LG_F77_LU(c, C, KERN_C, I, SFX, LCALL, LASWP, W32)                                             \
    LG_F77_LU(z, Z, KERN_Z, I, SFX, LCALL, LASWP, W32)                                             \
    LG_F77_QR(s, S, KERN_S, I, SFX, LCALL, ormqr, ORMQR)                                           \
    LG_F77_QR(d, D, KERN_D, I, SFX, LCALL, ormqr, ORMQR)                                           \
    LG_F77_QR(c, C, KERN_C, I, SFX, LCALL, unmqr, UNMQR)                                           \
    LG_F77_QR(z, Z, KERN_Z, I, SFX, LCALL, unmqr, UNMQR)

LG_F77_ALL(int32_t, _, call32, lapack32, laswp32, true)
LG_F77_ALL(int64_t, _64_, call64, lapack64, laswp64, false)

/* Reference XERBLA prints this and stops the program; this one returns, as
 * OpenBLAS's does, so that a library call never ends the process (the
 * routine has changed nothing).  Weak, and called through the symbol table:
 * the application's own XERBLA wins. */
#define LG_XERBLA(SFX, I)                                                                          \
    LG_EXPORT                                                                                      \
    __attribute__((weak)) void xerbla##SFX(const char *srname, const I *info, size_t len)          \
    {                                                                                              \
        size_t n = len;                                                                            \
        while (n > 0 && srname[n - 1] == ' ')                                                      \
            n--;                                                                                   \
        fprintf(stderr, " ** On entry to %.*s parameter number %2lld had an illegal value\n",      \
                (int)n, srname, (long long)*info);                                                 \
    }                                                                                              \
    /* LAPACK's way in from C: the name as an array of characters, then XERBLA. */                 \
    LG_EXPORT void xerbla_array##SFX(const char *srname, const I *srname_len, const I *info,       \
                                     size_t len)                                                   \
    {                                                                                              \
        (void)len;                                                                                 \
        char name[32];                                                                             \
        memset(name, ' ', sizeof name);                                                            \
        for (I i = 0; i < *srname_len && i < (I)sizeof name; i++)                                  \
            name[i] = srname[i];                                                                   \
        xerbla##SFX(name, info, sizeof name);                                                      \
    }                                                                                              \
    LG_EXPORT I lsame##SFX(const char *ca, const char *cb, size_t la, size_t lb)                   \
    {                                                                                              \
        (void)la, (void)lb;                                                                        \
        char a = *ca, b = *cb;                                                                     \
        if (a >= 'a' && a <= 'z')                                                                  \
            a -= 'a' - 'A';                                                                        \
        if (b >= 'a' && b <= 'z')                                                                  \
            b -= 'a' - 'A';                                                                        \
        return a == b;                                                                             \
    }

LG_XERBLA(_, int32_t)
LG_XERBLA(_64_, int64_t)
