/* The Fortran 77 BLAS-3 entry points and LAPACK's Cholesky family, written
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
    int32_t pos = -tess_internal_check(c);
    if (!pos)
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
    int64_t pos = -tess_internal_check(c);
    if (!pos)
        pos = lg_run(c);
    if (info)
        *info = pos ? -pos : k;
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
                                   *lda, B, B ? *ldb : 0, beta, C, *ldc);                          \
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
                                   *lda, B, B ? *ldb : 0, beta, C, *ldc);                          \
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

#define LG_F77_ALL(I, SFX, CALL, LCALL)                                                            \
    LG_F77_BLAS3(s, S, KERN_S, I, SFX, CALL)                                                       \
    LG_F77_BLAS3(d, D, KERN_D, I, SFX, CALL)                                                       \
    LG_F77_BLAS3(c, C, KERN_C, I, SFX, CALL)                                                       \
    LG_F77_BLAS3(z, Z, KERN_Z, I, SFX, CALL)                                                       \
    LG_F77_HERM(c, C, KERN_C, I, SFX, CALL)                                                        \
    LG_F77_HERM(z, Z, KERN_Z, I, SFX, CALL)                                                        \
    LG_F77_LAPACK(s, S, KERN_S, I, SFX, LCALL)                                                     \
    LG_F77_LAPACK(d, D, KERN_D, I, SFX, LCALL)                                                     \
    LG_F77_LAPACK(c, C, KERN_C, I, SFX, LCALL)                                                     \
    LG_F77_LAPACK(z, Z, KERN_Z, I, SFX, LCALL)

LG_F77_ALL(int32_t, _, call32, lapack32)
LG_F77_ALL(int64_t, _64_, call64, lapack64)

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
