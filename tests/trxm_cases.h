/* The cases the TRSM and TRMM suites share: every side, uplo, trans and
 * diag on one shape, solved or multiplied in place with lda = k + 3 and
 * ldb = m + 5, and B's padding rows checked untouched.  Each suite gives its
 * routine, its triangle and its residual. */
#ifndef TRXM_CASES_H
#define TRXM_CASES_H

#include "testutil.h"

typedef struct {
    const char *name; /* "trsm" or "trmm", for messages */
    int (*call)(const tu_type_t *t, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
                tess_diag_t diag, int64_t m, int64_t n, double _Complex alpha, const void *A,
                int64_t lda, void *B, int64_t ldb);
    /* k x k in lda, the uplo triangle the routine's test data */
    void *(*matrix)(const tu_type_t *t, int64_t k, int64_t lda, tess_uplo_t uplo, unsigned seed);
    /* of B (the result) against B0 (the input); INFINITY when B is not finite */
    double (*residual)(const tu_type_t *t, tess_side_t side, tess_uplo_t uplo, tess_trans_t trans,
                       tess_diag_t diag, int64_t m, int64_t n, double _Complex alpha, const void *A,
                       int64_t lda, const void *B0, const void *B, int64_t ldb);
    double bound;
} trxm_routine_t;

extern const tess_side_t trxm_sides[2];
extern const tess_uplo_t trxm_uplos[2];

/* One case; A's other triangle holds the matrix's values or, with nan, NaN
 * (and then, with diag unit, so does its diagonal).  Returns the residual. */
double trxm_run_case(const trxm_routine_t *r, const tu_type_t *t, tess_side_t side,
                     tess_uplo_t uplo, tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n,
                     double _Complex alpha, bool nan);

/* Every side, uplo, trans and diag in every precision, triangular dimensions
 * of one tile, of 4 and 5 tiles and of 37, each residual under the bound. */
void trxm_check_every_case_and_precision(const trxm_routine_t *r);
/* The same with NaN outside the triangle the call defines, in d and z. */
void trxm_check_the_other_triangle_is_never_read(const trxm_routine_t *r);

#endif
