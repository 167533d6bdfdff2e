/* kern_lauum_recursive, the LAUUM of one tile on GPUs (cuSOLVER has none),
 * checked on the host: the recursion over the host kernel table, its leaves
 * computed the way the CUDA leaf computes them (the tile copied, a TRMM of
 * the copy by the tile, the triangle copied back), against the host LAPACK's
 * LAUUM for both triangles in the four precisions.  The leaf is 8 rows, so an
 * order of 77 recurses four levels with odd halves.
 *
 * Bound: ||X - R||_F / (n eps ||R||_F) < 30 over the triangle, R LAPACK's. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "host/host_blas.h"
#include "host/host_lapack.h"
#include "kern.h"
#include "testutil.h"

static const tu_type_t *type;

static int copy_trmm_leaf(kern_ctx_t *x, tess_uplo_t uplo, int64_t n, void *A, int64_t lda)
{
    const tu_type_t *t = type;
    kern_type_t k = (kern_type_t)(t - tu_types);
    void *S = tu_alloc(t, n, n);
    for (int64_t j = 0; j < n; j++)
        memcpy((char *)S + (size_t)(j * n) * t->es, (char *)A + (size_t)(j * lda) * t->es,
               (size_t)n * t->es);
    _Alignas(16) unsigned char one[16];
    tu_scalar(t, 1.0, one);
    int err = kern_host_table[k].trmm(x, uplo == TessLower ? TessLeft : TessRight, uplo,
                                      t->is_complex ? TessConjTrans : TessTrans, TessNonUnit, n, n,
                                      one, A, lda, S, n);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            if (tu_in_triangle(uplo, i, j))
                tu_set(t, A, i, j, lda, tu_get(t, S, i, j, n));
    free(S);
    return err;
}

static void lauum_by_halves_matches_lapack_for_both_triangles_in_every_precision(void **state)
{
    (void)state;
    assert_int_equal(host_blas_open(), 0);
    const int64_t n = 77, lda = 80;
    for (int ti = 0; ti < TU_NTYPES; ti++)
        for (int u = 0; u < 2; u++) {
            const tu_type_t *t = type = &tu_types[ti];
            tess_uplo_t uplo = u ? TessUpper : TessLower;
            void *A = tu_matrix(t, lda, n, (unsigned)(ti + 10 * u));
            /* a Cholesky factor's real, dominant diagonal */
            for (int64_t i = 0; i < n; i++)
                tu_set(t, A, i, i, lda, 2.0 + creal(tu_get(t, A, i, i, lda)));
            void *R = tu_copy(t, A, lda, n);
            assert_int_equal(host_lapack_lauum(ti, uplo, n, R, lda), 0);
            assert_int_equal(kern_lauum_recursive(&kern_host_table[ti], t->es, t->is_complex, 8,
                                                  copy_trmm_leaf, NULL, uplo, n, A, lda),
                             0);
            double err = tu_tri_diff(t, uplo, n, A, R, lda) /
                         ((double)n * t->eps * tu_tri_norm(t, uplo, n, R, lda));
            if (!(err < 30))
                fail_msg("%s uplo %d: error against LAPACK %g", t->name, uplo, err);
            free(A);
            free(R);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lauum_by_halves_matches_lapack_for_both_triangles_in_every_precision),
    };
    return cmocka_run_group_tests_name("lauum by halves", tests, NULL, NULL);
}
