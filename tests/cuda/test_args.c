/* Argument checks and quick returns of the device API.  These are decided
 * before any CUDA call, so they run (and must pass) with no GPU at all.
 * Numbering is reference BLAS's, after the stream: TRSM/TRMM side 1, uplo 2,
 * transa 3, diag 4, m 5, n 6, lda 9, ldb 11; GEMV trans 1, m 2, n 3, lda 6,
 * incx 8, incy 11; SYMV/HEMV uplo 1, n 2, lda 5, incx 7, incy 10.  An operand
 * the call would touch must not be NULL: TRSM/TRMM A 8, B 10; GEMV A 5, x 7,
 * y 10; SYMV A 4, x 6, y 9. */
#include "tu_cuda.h"

#define BAD 7 /* a value of no enum */

/* Operands that are never dereferenced: checks and quick returns touch no memory. */
static double some[2];
#define P ((void *)some)

typedef int (*trxm_fn)(const tu_type_t *, cudaStream_t, tess_side_t, tess_uplo_t, tess_trans_t,
                       tess_diag_t, int64_t, int64_t, double _Complex, const void *, int64_t,
                       void *, int64_t);

static void trxm_args(trxm_fn f, const tu_type_t *t)
{
    const tess_side_t L = TessLeft;
    const tess_uplo_t U = TessUpper;
    const tess_trans_t N = TessNoTrans;
    const tess_diag_t D = TessNonUnit;
    assert_int_equal(f(t, 0, (tess_side_t)BAD, U, N, D, 4, 4, 1.0, P, 4, P, 4), -1);
    assert_int_equal(f(t, 0, L, (tess_uplo_t)BAD, N, D, 4, 4, 1.0, P, 4, P, 4), -2);
    assert_int_equal(f(t, 0, L, U, (tess_trans_t)BAD, D, 4, 4, 1.0, P, 4, P, 4), -3);
    assert_int_equal(f(t, 0, L, U, N, (tess_diag_t)BAD, 4, 4, 1.0, P, 4, P, 4), -4);
    assert_int_equal(f(t, 0, L, U, N, D, -1, 4, 1.0, P, 4, P, 4), -5);
    assert_int_equal(f(t, 0, L, U, N, D, 4, -1, 1.0, P, 4, P, 4), -6);
    assert_int_equal(f(t, 0, L, U, N, D, 4, 8, 1.0, P, 3, P, 4), -9);
    /* side right: A is n x n, so lda is checked against n */
    assert_int_equal(f(t, 0, TessRight, U, N, D, 4, 8, 1.0, P, 4, P, 4), -9);
    assert_int_equal(f(t, 0, L, U, N, D, 4, 8, 1.0, P, 4, P, 3), -11);
    /* the first bad argument is the one reported */
    assert_int_equal(f(t, 0, L, U, N, D, -1, -1, 1.0, P, 0, P, 0), -5);
    assert_int_equal(f(t, 0, L, U, N, D, 4, 8, 1.0, NULL, 4, P, 4), -8);
    assert_int_equal(f(t, 0, L, U, N, D, 4, 8, 1.0, P, 4, NULL, 4), -10);
    /* m = 0 or n = 0: nothing to do, nothing touched (NULL pointers are fine) */
    assert_int_equal(f(t, 0, L, U, N, D, 0, 5, 1.0, NULL, 1, NULL, 1), 0);
    assert_int_equal(f(t, 0, TessRight, U, N, D, 5, 0, 1.0, NULL, 1, NULL, 5), 0);
}

static void trsm_rejects_bad_arguments_with_blas_numbers(void **state)
{
    for (int k = 0; k < TU_NTYPES; k++)
        trxm_args(tu_cuda_trsm, &tu_types[k]);
    (void)state;
}

static void trmm_rejects_bad_arguments_with_blas_numbers(void **state)
{
    for (int k = 0; k < TU_NTYPES; k++)
        trxm_args(tu_cuda_trmm, &tu_types[k]);
    (void)state;
}

static void gemv_rejects_bad_arguments_with_blas_numbers(void **state)
{
    for (int k = 0; k < TU_NTYPES; k++) {
        const tu_type_t *t = &tu_types[k];
        const tess_trans_t N = TessNoTrans;
        assert_int_equal(tu_cuda_gemv(t, 0, (tess_trans_t)BAD, 4, 4, 1, P, 4, P, 1, 0, P, 1), -1);
        assert_int_equal(tu_cuda_gemv(t, 0, N, -1, 4, 1, P, 4, P, 1, 0, P, 1), -2);
        assert_int_equal(tu_cuda_gemv(t, 0, N, 4, -1, 1, P, 4, P, 1, 0, P, 1), -3);
        assert_int_equal(tu_cuda_gemv(t, 0, N, 4, 4, 1, P, 3, P, 1, 0, P, 1), -6);
        assert_int_equal(tu_cuda_gemv(t, 0, TessTrans, 0, 4, 1, P, 0, P, 1, 0, P, 1), -6);
        assert_int_equal(tu_cuda_gemv(t, 0, N, 4, 4, 1, P, 4, P, 0, 0, P, 1), -8);
        assert_int_equal(tu_cuda_gemv(t, 0, N, 4, 4, 1, P, 4, P, 1, 0, P, 0), -11);
        assert_int_equal(tu_cuda_gemv(t, 0, N, 4, 4, 1, NULL, 4, P, 1, 0, P, 1), -5);
        assert_int_equal(tu_cuda_gemv(t, 0, N, 4, 4, 1, P, 4, NULL, 1, 0, P, 1), -7);
        assert_int_equal(tu_cuda_gemv(t, 0, N, 4, 4, 1, P, 4, P, 1, 0, NULL, 1), -10);
        /* reference BLAS returns before scaling y when m or n is 0 */
        assert_int_equal(tu_cuda_gemv(t, 0, N, 0, 4, 1, NULL, 1, NULL, 1, 0, NULL, 1), 0);
        assert_int_equal(tu_cuda_gemv(t, 0, N, 4, 0, 1, NULL, 4, NULL, 1, 0, NULL, 1), 0);
    }
    (void)state;
}

static void symv_rejects_bad_arguments_with_blas_numbers(void **state)
{
    for (int k = 0; k < TU_NTYPES; k++) {
        const tu_type_t *t = &tu_types[k];
        const tess_uplo_t L = TessLower;
        assert_int_equal(tu_cuda_symv(t, 0, (tess_uplo_t)BAD, 4, 1, P, 4, P, 1, 0, P, 1), -1);
        assert_int_equal(tu_cuda_symv(t, 0, L, -1, 1, P, 4, P, 1, 0, P, 1), -2);
        assert_int_equal(tu_cuda_symv(t, 0, L, 4, 1, P, 3, P, 1, 0, P, 1), -5);
        assert_int_equal(tu_cuda_symv(t, 0, L, 4, 1, P, 4, P, 0, 0, P, 1), -7);
        assert_int_equal(tu_cuda_symv(t, 0, L, 4, 1, P, 4, P, 1, 0, P, 0), -10);
        assert_int_equal(tu_cuda_symv(t, 0, L, 4, 1, NULL, 4, P, 1, 0, P, 1), -4);
        assert_int_equal(tu_cuda_symv(t, 0, L, 4, 1, P, 4, NULL, 1, 0, P, 1), -6);
        assert_int_equal(tu_cuda_symv(t, 0, L, 4, 1, P, 4, P, 1, 0, NULL, 1), -9);
        assert_int_equal(tu_cuda_symv(t, 0, L, 0, 1, NULL, 1, NULL, 1, 0, NULL, 1), 0);
    }
    (void)state;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(trsm_rejects_bad_arguments_with_blas_numbers),
        cmocka_unit_test(trmm_rejects_bad_arguments_with_blas_numbers),
        cmocka_unit_test(gemv_rejects_bad_arguments_with_blas_numbers),
        cmocka_unit_test(symv_rejects_bad_arguments_with_blas_numbers),
    };
    return cmocka_run_group_tests_name("cuda argument checks", tests, NULL, NULL);
}
