/* The host kernel table's geadd (B = alpha A + beta B), the step that adds a
 * BLAS-2 partial sum into its piece of y, for the four precisions on
 * sub-matrices of larger leading dimensions.  Bound, element by element, R
 * computed in double complex from the inputs:
 *   |B - R| <= 4 eps (|alpha| |A| + |beta| |B0|)
 * The rows of B's array below its m rows keep their bits; a zero scalar's
 * matrix is never read (NaN there does not reach B). */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "host/host_blas.h"
#include "kern.h"
#include "testutil.h"

enum { M = 37, N = 23, LDA = 40, LDB = 45 };

/* B = alpha A + beta B on the host table; every element of B within the bound
 * (NaN_A, NaN_B: that matrix is all NaN, its scalar 0), the rows past m
 * untouched. */
static void check_geadd(const tu_type_t *t, double _Complex alpha, double _Complex beta, bool nan_a,
                        bool nan_b)
{
    kern_type_t k = (kern_type_t)(t - tu_types);
    void *A = tu_matrix(t, LDA, N, 1), *B = tu_matrix(t, LDB, N, 2);
    if (nan_a)
        tu_fill(t, A, M, N, LDA, NAN);
    if (nan_b)
        tu_fill(t, B, M, N, LDB, NAN);
    void *B0 = tu_copy(t, B, LDB, N);
    _Alignas(16) unsigned char al[16], be[16];
    tu_scalar(t, alpha, al);
    tu_scalar(t, beta, be);
    alpha = tu_get(t, al, 0, 0, 1);
    beta = tu_get(t, be, 0, 0, 1);
    assert_int_equal(kern_host_table[k].geadd(NULL, M, N, al, A, LDA, be, B, LDB), 0);
    tu_check_geadd(t, M, N, alpha, nan_a ? NULL : A, LDA, beta, nan_b ? NULL : B0, B0, B, LDB);
    free(A);
    free(B);
    free(B0);
}

static void geadd_adds_the_scaled_tiles_for_every_precision(void **state)
{
    (void)state;
    assert_int_equal(host_blas_open(), 0);
    for (int ti = 0; ti < TU_NTYPES; ti++) {
        check_geadd(&tu_types[ti], 0.7 - 0.2 * I, -1.3 + 0.4 * I, false, false);
        check_geadd(&tu_types[ti], 1.0, 1.0, false, false);
    }
}

static void geadd_with_beta_zero_never_reads_b(void **state)
{
    (void)state;
    assert_int_equal(host_blas_open(), 0);
    for (int ti = 0; ti < TU_NTYPES; ti++)
        check_geadd(&tu_types[ti], 0.5 + 0.5 * I, 0.0, false, true);
}

static void geadd_with_alpha_zero_never_reads_a(void **state)
{
    (void)state;
    assert_int_equal(host_blas_open(), 0);
    for (int ti = 0; ti < TU_NTYPES; ti++) {
        check_geadd(&tu_types[ti], 0.0, -0.75 + 0.25 * I, true, false);
        check_geadd(&tu_types[ti], 0.0, 0.0, true, true);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(geadd_adds_the_scaled_tiles_for_every_precision),
        cmocka_unit_test(geadd_with_beta_zero_never_reads_b),
        cmocka_unit_test(geadd_with_alpha_zero_never_reads_a),
    };
    return cmocka_run_group_tests_name("geadd", tests, NULL, NULL);
}
