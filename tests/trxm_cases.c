#include "trxm_cases.h"
#include <complex.h>
#include <math.h>
#include <stdlib.h>

const tess_side_t trxm_sides[2] = { TessLeft, TessRight };
const tess_uplo_t trxm_uplos[2] = { TessLower, TessUpper };
static const tess_trans_t transes[] = { TessNoTrans, TessTrans, TessConjTrans };
static const tess_diag_t diags[] = { TessNonUnit, TessUnit };

double trxm_run_case(const trxm_routine_t *r, const tu_type_t *t, tess_side_t side,
                     tess_uplo_t uplo, tess_trans_t trans, tess_diag_t diag, int64_t m, int64_t n,
                     double _Complex alpha, bool nan)
{
    int64_t k = side == TessLeft ? m : n, lda = k + 3, ldb = m + 5;
    void *A = r->matrix(t, k, lda, uplo, (unsigned)(m + 7 * n));
    if (nan)
        for (int64_t j = 0; j < k; j++)
            for (int64_t i = 0; i < k; i++)
                if (!tu_in_triangle(uplo, i, j) || (i == j && diag == TessUnit))
                    tu_set(t, A, i, j, lda, NAN);
    void *B = tu_matrix(t, ldb, n, (unsigned)(3 * m + n)), *B0 = tu_copy(t, B, ldb, n);
    assert_int_equal(r->call(t, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb), 0);
    assert_int_equal(tess_memory_coherent_async(TessAll, m, n, B, ldb, t->es), 0);
    assert_int_equal(tess_sync(), 0);
    double res = r->residual(t, side, uplo, trans, diag, m, n, alpha, A, lda, B0, B, ldb);
    assert_true(
        tu_diff(t, (char *)B + (size_t)m * t->es, (char *)B0 + (size_t)m * t->es, 5, n, ldb) == 0);
    tu_release(t, A, lda, k);
    tu_release(t, B, ldb, n);
    free(B0);
    return res;
}

/* k the triangular dimension, other the other one. */
static void check_every_case(const trxm_routine_t *r, const tu_type_t *t, int64_t k, int64_t other,
                             bool nan)
{
    for (int s = 0; s < 2; s++)
        for (int u = 0; u < 2; u++)
            for (int tr = 0; tr < 3; tr++)
                for (int d = 0; d < 2; d++) {
                    int64_t m = trxm_sides[s] == TessLeft ? k : other;
                    int64_t n = trxm_sides[s] == TessLeft ? other : k;
                    double res = trxm_run_case(r, t, trxm_sides[s], trxm_uplos[u], transes[tr],
                                               diags[d], m, n, 0.7 - 0.2 * I, nan);
                    if (!(res < r->bound))
                        fail_msg("%s%s side=%d uplo=%d trans=%d diag=%d m=%lld n=%lld: "
                                 "residual %g",
                                 t->name, r->name, trxm_sides[s], trxm_uplos[u], transes[tr],
                                 diags[d], (long long)m, (long long)n, res);
                }
}

void trxm_check_every_case_and_precision(const trxm_routine_t *r)
{
    static const int64_t shapes[][2] = {
        { 4 * TU_NB, 37 }, { 5 * TU_NB, 21 }, { 37, 50 }, { TU_NB, 40 }
    };
    for (int ti = 0; ti < 4; ti++)
        for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
            check_every_case(r, &tu_types[ti], shapes[sh][0], shapes[sh][1], false);
}

void trxm_check_the_other_triangle_is_never_read(const trxm_routine_t *r)
{
    check_every_case(r, &tu_types[1], 37, 20, true);
    check_every_case(r, &tu_types[3], 5 * TU_NB, 9, true);
}
