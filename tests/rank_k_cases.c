#include "rank_k_cases.h"
#include <complex.h>
#include <math.h>
#include <stdlib.h>

const tess_uplo_t rk_uplos[2] = { TessUpper, TessLower };

/* one on the tile grid, the others off it */
static const int64_t sizes[] = { 1, TU_NB - 1, TU_NB + 1, 2 * TU_NB, 7 * TU_NB / 2 };
#define NSIZES ((int)(sizeof sizes / sizeof *sizes))

static const char *routine(bool two, bool herm)
{
    return two ? (herm ? "her2k" : "syr2k") : (herm ? "herk" : "syrk");
}

/* The transposes a routine takes. */
static int transposes(const tu_type_t *t, bool herm, tess_trans_t out[3])
{
    int n = 0;
    out[n++] = TessNoTrans;
    if (!herm)
        out[n++] = TessTrans;
    if (!t->is_complex || herm)
        out[n++] = TessConjTrans;
    return n;
}

double rk_run_case(bool two, const tu_type_t *t, bool herm, tess_uplo_t uplo, tess_trans_t trans,
                   int64_t n, int64_t k, double _Complex alpha, double _Complex beta)
{
    int64_t ar = trans == TessNoTrans ? n : k, ac = trans == TessNoTrans ? k : n;
    int64_t lda = ar + 3, ldb = two ? ar + 1 : lda, ldc = n + 2;
    void *A = tu_matrix(t, lda, ac, 1), *B = two ? tu_matrix(t, ldb, ac, 2) : A;
    void *C = tu_matrix(t, ldc, n, 3);
    tu_fill_other_triangle(t, uplo, n, C, ldc, NAN);
    void *C0 = tu_copy(t, C, ldc, n), *Cref = tu_copy(t, C, ldc, n);
    double nA = tu_norm(t, A, ar, ac, lda), nB = tu_norm(t, B, ar, ac, ldb);
    double nC = tu_sym_norm(t, uplo, n, C, ldc);

    if (two) {
        assert_int_equal(
            tu_syr2k_async(t, herm, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc), 0);
        tu_syr2k_ref(t, herm, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, Cref, ldc);
    } else {
        assert_int_equal(tu_syrk_async(t, herm, uplo, trans, n, k, alpha, A, lda, beta, C, ldc), 0);
        tu_syrk_ref(t, herm, uplo, trans, n, k, alpha, A, lda, beta, Cref, ldc);
    }
    assert_int_equal(tess_memory_coherent_async(TessAll, n, n, C, ldc, t->es), 0);
    assert_int_equal(tess_sync(), 0);
    double r = tu_residual(t, tu_tri_diff(t, uplo, n, C, Cref, ldc), k, two ? 2 * alpha : alpha, nA,
                           nB, beta, nC);
    assert_true(tu_other_triangle_same(t, uplo, n, C, C0, ldc));
    assert_true(tu_same_outside(t, C, C0, ldc, n, ldc, 0, 0, n, n));
    if (herm)
        assert_true(tu_real_diagonal(t, n, C, ldc));
    tu_release(t, A, lda, ac);
    if (two)
        tu_release(t, B, ldb, ac);
    tu_release(t, C, ldc, n);
    free(C0);
    free(Cref);
    return r;
}

void rk_check_all_cases(bool two, double _Complex alpha, double _Complex beta)
{
    for (int ti = 0; ti < 4; ti++)
        for (int herm = 0; herm <= (int)tu_types[ti].is_complex; herm++) {
            const tu_type_t *t = &tu_types[ti];
            tess_trans_t tr[3];
            int ntr = transposes(t, herm, tr);
            double _Complex a = herm && !two ? creal(alpha) : alpha;
            double _Complex b = herm ? creal(beta) : beta;
            for (int u = 0; u < 2; u++)
                for (int x = 0; x < ntr; x++)
                    for (int s = 0; s < NSIZES; s++) {
                        int64_t n = sizes[s], k = sizes[(s + 1) % NSIZES];
                        double r = rk_run_case(two, t, herm, rk_uplos[u], tr[x], n, k, a, b);
                        if (!(r < TU_GEMM_BOUND))
                            fail_msg("%s%s uplo=%d trans=%d n=%lld k=%lld: residual %g", t->name,
                                     routine(two, herm), rk_uplos[u], tr[x], (long long)n,
                                     (long long)k, r);
                    }
        }
}

void rk_check_level_tiles(bool two, int64_t nb)
{
    for (int ti = 0; ti < 4; ti++)
        for (int herm = 0; herm <= (int)tu_types[ti].is_complex; herm++) {
            const tu_type_t *t = &tu_types[ti];
            tess_trans_t tr[3];
            int ntr = transposes(t, herm, tr);
            for (int u = 0; u < 2; u++)
                for (int x = 0; x < ntr; x++) {
                    double r = rk_run_case(two, t, herm, rk_uplos[u], tr[x], 2 * nb + 76, 37,
                                           herm ? 0.7 : 0.7 - 0.2 * I, -1.3);
                    if (!(r < TU_GEMM_BOUND))
                        fail_msg("%s%s uplo=%d trans=%d: residual %g", t->name, routine(two, herm),
                                 rk_uplos[u], tr[x], r);
                }
        }
}
