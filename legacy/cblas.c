/* The CBLAS BLAS-3 entry points, written once for the four precisions and
 * both integer widths (cblas_dgemm, and cblas_dgemm64_ as OpenBLAS's 64-bit
 * builds spell it).
 *
 * A row-major call is the column-major call on the transposed matrices, as
 * reference CBLAS makes it: A and B swapped (GEMM, GEMMT), side and uplo
 * flipped, m and n swapped, Trans and NoTrans exchanged for the rank-k
 * updates, alpha conjugated for HER2K.  Errors are numbered as reference
 * CBLAS numbers them, which its testers check: 1 for the layout, an enum's
 * own position when it is invalid, else the number the column-major Fortran
 * check gives plus one (CBLAS has the layout in front).  For a row-major call
 * that is the transposed call's number; cblas_xerbla, seeing RowMajorStrg
 * set, turns it back into the caller's position (the reference's cblas_xerbla
 * does the same, and so do the testers' own). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "build.h"
#include "options.h"

enum { LG_ROW_MAJOR = 101, LG_COL_MAJOR = 102 };

/* Reference CBLAS's globals: its testers' cblas_xerbla reads RowMajorStrg
 * (and their executables expect the BLAS library to define both). */
LG_EXPORT int RowMajorStrg;
LG_EXPORT int CBLAS_CallFromC;

/* The reference's renumbering of a row-major call's error, level 3. */
static int user_position(int info, const char *rout)
{
    if (strstr(rout, "gemm")) {
        switch (info) {
        case 4: return 5;
        case 5: return 4;
        case 9: return 11;
        case 11: return 9;
        }
    } else if (strstr(rout, "symm") || strstr(rout, "hemm")) {
        if (info == 4 || info == 5)
            return 9 - info;
    } else if (strstr(rout, "trmm") || strstr(rout, "trsm")) {
        if (info == 6 || info == 7)
            return 13 - info;
    }
    return info;
}

/* Reference cblas_xerbla prints this and exits; this one returns (the call
 * changed nothing).  Weak, and called through the symbol table: the
 * application's own wins. */
LG_EXPORT __attribute__((weak)) void cblas_xerbla(int info, const char *rout, const char *form, ...)
{
    if (RowMajorStrg)
        info = user_position(info, rout);
    if (info)
        fprintf(stderr, "Parameter %d to routine %s was incorrect\n", info, rout);
    va_list ap;
    va_start(ap, form);
    vfprintf(stderr, form, ap);
    va_end(ap);
}

/* The 64-bit entry points pass a 64-bit info: read in full by a handler
 * that takes one, its low half (the value) by one that takes an int. */
typedef void (*xerbla64_t)(int64_t info, const char *rout, const char *form, ...);

static void report(bool wide, bool row, int info, const char *rout, const char *what, int value)
{
    xerbla64_t xerbla64 = (xerbla64_t)(void (*)(void))cblas_xerbla;
    RowMajorStrg = row;
    if (!what && wide)
        xerbla64(info, rout, "");
    else if (!what)
        cblas_xerbla(info, rout, "");
    else if (wide)
        xerbla64(info, rout, "Illegal %s setting, %d\n", what, value);
    else
        cblas_xerbla(info, rout, "Illegal %s setting, %d\n", what, value);
    RowMajorStrg = 0;
}

void lg_cblas_xerbla(bool wide, int info, const char *rout)
{
    report(wide, false, info, rout, NULL, 0);
}

/* The first invalid enum, as its CBLAS position, and its name and value. */
static int enum_error(const lg_call_t *c, bool row, const char **what, int *value)
{
    struct enum_arg {
        bool ok;
        const char *name;
        int value;
    } e[4];
    int n = 0;
#define ENUM(test, nm, v) (e[n++] = (struct enum_arg){ (test), (nm), (int)(v) })
    const lg_routine_t *rt = lg_routine(c);
    switch (rt->shape) {
    case LG_SHAPE_GEMM:
        ENUM(valid_trans(c->ta), "TransA", c->ta);
        ENUM(valid_trans(c->tb), "TransB", c->tb);
        break;
    case LG_SHAPE_GEMMT:
        ENUM(valid_uplo(c->uplo), "Uplo", c->uplo);
        ENUM(valid_trans(c->ta), "TransA", c->ta);
        ENUM(valid_trans(c->tb), "TransB", c->tb);
        break;
    case LG_SHAPE_SYMM:
        ENUM(valid_side(c->side), "Side", c->side);
        ENUM(valid_uplo(c->uplo), "Uplo", c->uplo);
        break;
    case LG_SHAPE_TRSM:
    case LG_SHAPE_TRMM:
        ENUM(valid_side(c->side), "Side", c->side);
        ENUM(valid_uplo(c->uplo), "Uplo", c->uplo);
        ENUM(valid_trans(c->ta), "TransA", c->ta);
        ENUM(valid_diag(c->diag), "Diag", c->diag);
        break;
    case LG_SHAPE_SYRK:
    case LG_SHAPE_SYR2K:
        /* a row-major call's Trans: NoTrans and the one transpose the
         * routine has (either for real types) */
        ENUM(valid_uplo(c->uplo), "Uplo", c->uplo);
        ENUM(row ? valid_rank_trans(c->t, rt->herm, c->ta) : valid_trans(c->ta), "Trans", c->ta);
        break;
    default: break; /* LAPACK's have no CBLAS entry points */
    }
#undef ENUM
    for (int i = 0; i < n; i++)
        if (!e[i].ok) {
            *what = e[i].name;
            *value = e[i].value;
            return i + 2;
        }
    return 0;
}

#define SWAP(T, a, b)                                                                              \
    do {                                                                                           \
        T t_ = a;                                                                                  \
        a = b;                                                                                     \
        b = t_;                                                                                    \
    } while (0)

/* The column-major call a row-major one is; conj receives HER2K's alpha. */
static void to_col_major(lg_call_t *c, void *conj)
{
    tess_side_t side = c->side == TessLeft ? TessRight : TessLeft;
    tess_uplo_t uplo = c->uplo == TessUpper ? TessLower : TessUpper;
    const lg_routine_t *rt = lg_routine(c);
    switch (rt->shape) {
    case LG_SHAPE_GEMM:
    case LG_SHAPE_GEMMT:
        if (rt->triangle)
            c->uplo = uplo;
        SWAP(int64_t, c->m, c->n);
        SWAP(const void *, c->A, c->B);
        SWAP(int64_t, c->lda, c->ldb);
        SWAP(tess_trans_t, c->ta, c->tb);
        break;
    case LG_SHAPE_SYMM:
    case LG_SHAPE_TRSM:
    case LG_SHAPE_TRMM:
        c->side = side;
        c->uplo = uplo;
        SWAP(int64_t, c->m, c->n);
        break;
    case LG_SHAPE_SYRK:
    case LG_SHAPE_SYR2K:
        c->uplo = uplo;
        c->ta = c->ta != TessNoTrans ? TessNoTrans : rt->herm ? TessConjTrans : TessTrans;
        /* the Hermitian rank-2k update's complex alpha (HERK's is real) */
        if (rt->herm && !rt->real_alpha) {
            kern_scalar_conj(c->t, c->alpha, conj);
            c->alpha = conj;
        }
        break;
    default: break; /* LAPACK's */
    }
}

static void run(lg_call_t *c, int layout, const char *rout, bool wide)
{
    const char *what;
    int value, info;
    bool row = layout == LG_ROW_MAJOR;
    if (!row && layout != LG_COL_MAJOR) {
        report(wide, false, 1, rout, "layout", layout);
        return;
    }
    if ((info = enum_error(c, row, &what, &value))) {
        report(wide, row, info, rout, what, value);
        return;
    }
    _Alignas(16) unsigned char conj[16];
    if (row)
        to_col_major(c, conj);
    if ((info = -tess_internal_check(c))) {
        report(wide, row, info + 1, rout, NULL, 0);
        return;
    }
    if ((info = lg_run(c)))
        report(wide, row, info + 1, rout, NULL, 0);
}

/* Real scalars come by value, complex ones by address. */
#define LG_BY_VALUE(x) (&(x))
#define LG_BY_ADDRESS(x) (x)

/* p: prefix; S the scalar parameter type and ADDR how to take its address;
 * I the integer type; SFX the name's ending; WIDE for the 64-bit entries. */
#define LG_CBLAS_BLAS3(p, TYPE, S, ADDR, I, SFX, WIDE)                                             \
    LG_EXPORT void cblas_##p##gemm##SFX(int layout, tess_trans_t ta, tess_trans_t tb, I m, I n,    \
                                        I k, S alpha, const void *A, I lda, const void *B, I ldb,  \
                                        S beta, void *C, I ldc)                                    \
    {                                                                                              \
        lg_call_t c =                                                                              \
            lg_gemm_call(TYPE, ta, tb, m, n, k, ADDR(alpha), A, lda, B, ldb, ADDR(beta), C, ldc);  \
        run(&c, layout, "cblas_" #p "gemm", WIDE);                                                 \
    }                                                                                              \
    LG_EXPORT void cblas_##p##symm##SFX(int layout, tess_side_t side, tess_uplo_t uplo, I m, I n,  \
                                        S alpha, const void *A, I lda, const void *B, I ldb,       \
                                        S beta, void *C, I ldc)                                    \
    {                                                                                              \
        lg_call_t c = lg_symm_call(LG_SYMM, TYPE, side, uplo, m, n, ADDR(alpha), A, lda, B, ldb,   \
                                   ADDR(beta), C, ldc);                                            \
        run(&c, layout, "cblas_" #p "symm", WIDE);                                                 \
    }                                                                                              \
    LG_EXPORT void cblas_##p##syrk##SFX(int layout, tess_uplo_t uplo, tess_trans_t trans, I n,     \
                                        I k, S alpha, const void *A, I lda, S beta, void *C,       \
                                        I ldc)                                                     \
    {                                                                                              \
        lg_call_t c = lg_syrk_call(LG_SYRK, TYPE, uplo, trans, n, k, ADDR(alpha), A, lda, NULL, 0, \
                                   ADDR(beta), C, ldc);                                            \
        run(&c, layout, "cblas_" #p "syrk", WIDE);                                                 \
    }                                                                                              \
    LG_EXPORT void cblas_##p##syr2k##SFX(int layout, tess_uplo_t uplo, tess_trans_t trans, I n,    \
                                         I k, S alpha, const void *A, I lda, const void *B, I ldb, \
                                         S beta, void *C, I ldc)                                   \
    {                                                                                              \
        lg_call_t c = lg_syrk_call(LG_SYR2K, TYPE, uplo, trans, n, k, ADDR(alpha), A, lda, B, ldb, \
                                   ADDR(beta), C, ldc);                                            \
        run(&c, layout, "cblas_" #p "syr2k", WIDE);                                                \
    }                                                                                              \
    LG_EXPORT void cblas_##p##gemmt##SFX(int layout, tess_uplo_t uplo, tess_trans_t ta,            \
                                         tess_trans_t tb, I n, I k, S alpha, const void *A, I lda, \
                                         const void *B, I ldb, S beta, void *C, I ldc)             \
    {                                                                                              \
        lg_call_t c = lg_gemmt_call(TYPE, uplo, ta, tb, n, k, ADDR(alpha), A, lda, B, ldb,         \
                                    ADDR(beta), C, ldc);                                           \
        run(&c, layout, "cblas_" #p "gemmt", WIDE);                                                \
    }                                                                                              \
    LG_EXPORT void cblas_##p##gemmtr##SFX(int layout, tess_uplo_t uplo, tess_trans_t ta,           \
                                          tess_trans_t tb, I n, I k, S alpha, const void *A,       \
                                          I lda, const void *B, I ldb, S beta, void *C, I ldc)     \
    {                                                                                              \
        lg_call_t c = lg_gemmt_call(TYPE, uplo, ta, tb, n, k, ADDR(alpha), A, lda, B, ldb,         \
                                    ADDR(beta), C, ldc);                                           \
        run(&c, layout, "cblas_" #p "gemmtr", WIDE);                                               \
    }                                                                                              \
    LG_EXPORT void cblas_##p##trsm##SFX(int layout, tess_side_t side, tess_uplo_t uplo,            \
                                        tess_trans_t ta, tess_diag_t diag, I m, I n, S alpha,      \
                                        const void *A, I lda, void *B, I ldb)                      \
    {                                                                                              \
        lg_call_t c =                                                                              \
            lg_trxm_call(LG_TRSM, TYPE, side, uplo, ta, diag, m, n, ADDR(alpha), A, lda, B, ldb);  \
        run(&c, layout, "cblas_" #p "trsm", WIDE);                                                 \
    }                                                                                              \
    LG_EXPORT void cblas_##p##trmm##SFX(int layout, tess_side_t side, tess_uplo_t uplo,            \
                                        tess_trans_t ta, tess_diag_t diag, I m, I n, S alpha,      \
                                        const void *A, I lda, void *B, I ldb)                      \
    {                                                                                              \
        lg_call_t c =                                                                              \
            lg_trxm_call(LG_TRMM, TYPE, side, uplo, ta, diag, m, n, ADDR(alpha), A, lda, B, ldb);  \
        run(&c, layout, "cblas_" #p "trmm", WIDE);                                                 \
    }

/* HEMM, HERK and HER2K: complex only; R the real type, for HERK's alpha and
 * beta and HER2K's beta. */
#define LG_CBLAS_HERM(p, TYPE, R, I, SFX, WIDE)                                                    \
    LG_EXPORT void cblas_##p##hemm##SFX(int layout, tess_side_t side, tess_uplo_t uplo, I m, I n,  \
                                        const void *alpha, const void *A, I lda, const void *B,    \
                                        I ldb, const void *beta, void *C, I ldc)                   \
    {                                                                                              \
        lg_call_t c =                                                                              \
            lg_symm_call(LG_HEMM, TYPE, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);    \
        run(&c, layout, "cblas_" #p "hemm", WIDE);                                                 \
    }                                                                                              \
    LG_EXPORT void cblas_##p##herk##SFX(int layout, tess_uplo_t uplo, tess_trans_t trans, I n,     \
                                        I k, R alpha, const void *A, I lda, R beta, void *C,       \
                                        I ldc)                                                     \
    {                                                                                              \
        lg_call_t c = lg_syrk_call(LG_HERK, TYPE, uplo, trans, n, k, &alpha, A, lda, NULL, 0,      \
                                   &beta, C, ldc);                                                 \
        run(&c, layout, "cblas_" #p "herk", WIDE);                                                 \
    }                                                                                              \
    LG_EXPORT void cblas_##p##her2k##SFX(int layout, tess_uplo_t uplo, tess_trans_t trans, I n,    \
                                         I k, const void *alpha, const void *A, I lda,             \
                                         const void *B, I ldb, R beta, void *C, I ldc)             \
    {                                                                                              \
        lg_call_t c =                                                                              \
            lg_syrk_call(LG_HER2K, TYPE, uplo, trans, n, k, alpha, A, lda, B, ldb, &beta, C, ldc); \
        run(&c, layout, "cblas_" #p "her2k", WIDE);                                                \
    }

#define LG_CBLAS_ALL(I, SFX, WIDE)                                                                 \
    LG_CBLAS_BLAS3(s, KERN_S, float, LG_BY_VALUE, I, SFX, WIDE)                                    \
    LG_CBLAS_BLAS3(d, KERN_D, double, LG_BY_VALUE, I, SFX, WIDE)                                   \
    LG_CBLAS_BLAS3(c, KERN_C, const void *, LG_BY_ADDRESS, I, SFX, WIDE)                           \
    LG_CBLAS_BLAS3(z, KERN_Z, const void *, LG_BY_ADDRESS, I, SFX, WIDE)                           \
    LG_CBLAS_HERM(c, KERN_C, float, I, SFX, WIDE)                                                  \
    LG_CBLAS_HERM(z, KERN_Z, double, I, SFX, WIDE)

LG_CBLAS_ALL(int32_t, , false)
LG_CBLAS_ALL(int64_t, 64_, true)

/* |Re z| + |Im z|, which reference CBLAS has and OpenBLAS does not. */
LG_EXPORT float cblas_scabs1(const void *z)
{
    const float *f = z;
    return (f[0] < 0 ? -f[0] : f[0]) + (f[1] < 0 ? -f[1] : f[1]);
}

LG_EXPORT double cblas_dcabs1(const void *z)
{
    const double *d = z;
    return (d[0] < 0 ? -d[0] : d[0]) + (d[1] < 0 ? -d[1] : d[1]);
}

LG_EXPORT float cblas_scabs164_(const void *z) __attribute__((alias("cblas_scabs1")));
LG_EXPORT double cblas_dcabs164_(const void *z) __attribute__((alias("cblas_dcabs1")));
