/* Calling the host BLAS's (LAPACK's) Fortran routine of a call, resolved
 * once per process (host.c).  Inline, for the small calls' path (small.c). */
#ifndef LG_HOST_CALL_H
#define LG_HOST_CALL_H

#include <stdatomic.h>
#include <stdint.h>
#include "legacy.h"

/* The host's Fortran routines; integers by address, 32 or 64 bits wide as the
 * library is built, and one hidden length per character argument.  LAPACK's
 * write their INFO, of the same width. */
typedef const void *cp;
typedef void (*f_gemm)(cp, cp, cp, cp, cp, cp, cp, cp, cp, cp, cp, void *, cp, size_t, size_t);
typedef void (*f_symm)(cp, cp, cp, cp, cp, cp, cp, cp, cp, cp, void *, cp, size_t, size_t);
typedef void (*f_syrk)(cp, cp, cp, cp, cp, cp, cp, cp, void *, cp, size_t, size_t);
typedef void (*f_syr2k)(cp, cp, cp, cp, cp, cp, cp, cp, cp, cp, void *, cp, size_t, size_t);
typedef void (*f_gemmt)(cp, cp, cp, cp, cp, cp, cp, cp, cp, cp, cp, void *, cp, size_t, size_t,
                        size_t);
typedef void (*f_trxm)(cp, cp, cp, cp, cp, cp, cp, cp, cp, void *, cp, size_t, size_t, size_t,
                       size_t);
typedef void (*f_potrf)(cp, cp, cp, cp, void *, size_t);
typedef void (*f_potrs)(cp, cp, cp, cp, cp, cp, cp, void *, size_t);
typedef void (*f_trtri)(cp, cp, cp, cp, cp, void *, size_t, size_t);

/* The host's routines, [ilp64][routine][type], NULL where it has none, once
 * lg_host_find has run. */
extern lg_fn_t lg_host_fns[2][LG_NROUT][KERN_NTYPES];
extern atomic_bool lg_host_found;
void lg_host_find_once(void);

static inline void lg_host_find(void)
{
    if (!atomic_load_explicit(&lg_host_found, memory_order_acquire))
        lg_host_find_once();
}

static inline bool lg_fits32(int64_t v)
{
    return v >= INT32_MIN && v <= INT32_MAX;
}

static inline const char *lg_trans_char(tess_trans_t t)
{
    return t == TessNoTrans ? "N" : t == TessTrans ? "T" : "C";
}

/* The host routine f on the call's arguments, its integers at m ... ldc and
 * info (32 or 64 bits wide, as f takes them).  Inlined, so that a small call
 * passes its fifteen arguments on once more, not twice. */
static inline __attribute__((always_inline)) void
lg_host_invoke(lg_fn_t f, const lg_call_t *c, const void *m, const void *n, const void *k,
               const void *lda, const void *ldb, const void *ldc, void *info)
{
    const char *side = c->side == TessLeft ? "L" : "R", *uplo = c->uplo == TessUpper ? "U" : "L";
    const char *ta = lg_trans_char(c->ta), *tb = lg_trans_char(c->tb);
    switch (lg_routine(c)->shape) {
    case LG_SHAPE_GEMM:
        ((f_gemm)f)(ta, tb, m, n, k, c->alpha, c->A, lda, c->B, ldb, c->beta, c->C, ldc, 1, 1);
        break;
    case LG_SHAPE_SYMM:
        ((f_symm)f)(side, uplo, m, n, c->alpha, c->A, lda, c->B, ldb, c->beta, c->C, ldc, 1, 1);
        break;
    case LG_SHAPE_SYRK:
        ((f_syrk)f)(uplo, ta, n, k, c->alpha, c->A, lda, c->beta, c->C, ldc, 1, 1);
        break;
    case LG_SHAPE_SYR2K:
        ((f_syr2k)f)(uplo, ta, n, k, c->alpha, c->A, lda, c->B, ldb, c->beta, c->C, ldc, 1, 1);
        break;
    case LG_SHAPE_GEMMT:
        ((f_gemmt)f)(uplo, ta, tb, n, k, c->alpha, c->A, lda, c->B, ldb, c->beta, c->C, ldc, 1, 1,
                     1);
        break;
    case LG_SHAPE_TRSM:
    case LG_SHAPE_TRMM:
        ((f_trxm)f)(side, uplo, ta, c->diag == TessUnit ? "U" : "N", m, n, c->alpha, c->A, lda,
                    c->C, ldc, 1, 1, 1, 1);
        break;
    case LG_SHAPE_POTRF: ((f_potrf)f)(uplo, n, c->A, lda, info, 1); break;
    case LG_SHAPE_POTRS: ((f_potrs)f)(uplo, n, k, c->A, lda, c->B, ldb, info, 1); break;
    case LG_SHAPE_TRTRI:
        ((f_trtri)f)(uplo, c->diag == TessUnit ? "U" : "N", n, c->A, lda, info, 1, 1);
        break;
    default: break; /* LU's and QR's: host.c */
    }
}

/* INFO as the reference LAPACK gives it, from the host routine's: a host POTRF that misses a
 * NaN pivot (OpenBLAS's) is corrected from the factor's diagonal, as the GPUs' is. */
static inline int64_t lg_host_info(const lg_call_t *c, int64_t info)
{
    return c->r == LG_POTRF ? kern_potrf_info(c->t, c->n, c->A, c->lda, info) : info;
}

/* The host routine f on the call, its integers narrowed to 32 bits. */
static inline __attribute__((always_inline)) void lg_host_invoke32(lg_fn_t f, const lg_call_t *c)
{
    int32_t v[6] = { (int32_t)c->m,   (int32_t)c->n,   (int32_t)c->k,
                     (int32_t)c->lda, (int32_t)c->ldb, (int32_t)c->ldc };
    int32_t info = 0;
    lg_host_invoke(f, c, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &info);
    if (c->info)
        *c->info = lg_host_info(c, info);
}

/* lg_host_run of LU's and QR's calls (host_luqr.c): pivots of the host's
 * width, and a workspace of the host's optimal size where the call has none. */
bool lg_host_luqr(const lg_call_t *c);

/* Whether a host LAPACK routine takes c's sizes (lg_host_takes of LU's and QR's calls). */
bool lg_host_luqr_takes(const lg_call_t *c);

/* GEMMT where the host BLAS has none, by GEMMs (gemmt_host.c). */
bool lg_host_gemmt_by_gemm(const lg_call_t *c);

#endif
