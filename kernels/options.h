/* Whether an option argument holds one of its values: the one rule for every
 * layer's argument checks (tile/check.h, lapack/lapack_check.h) and for
 * CBLAS's option errors in the legacy library. */
#ifndef KERN_OPTIONS_H
#define KERN_OPTIONS_H

#include <stdbool.h>
#include "dtype.h"
#include "tessera.h"

/* Whether an option holds one of its values (a character argument that is
 * none of its letters arrives as 0). */
static inline bool valid_trans(tess_trans_t t)
{
    return t == TessNoTrans || t == TessTrans || t == TessConjTrans;
}

static inline bool valid_uplo(tess_uplo_t u)
{
    return u == TessUpper || u == TessLower;
}

static inline bool valid_side(tess_side_t s)
{
    return s == TessLeft || s == TessRight;
}

static inline bool valid_diag(tess_diag_t d)
{
    return d == TessUnit || d == TessNonUnit;
}

/* syrk/syr2k: real types take N, T and C; complex symmetric ones N and T;
 * Hermitian ones N and C. */
static inline bool valid_rank_trans(kern_type_t t, bool herm, tess_trans_t trans)
{
    if (trans == TessNoTrans)
        return true;
    if (!kern_dtypes[t].is_complex)
        return trans == TessTrans || trans == TessConjTrans;
    return trans == (herm ? TessConjTrans : TessTrans);
}

#endif
