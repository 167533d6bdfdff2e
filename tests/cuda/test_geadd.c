/* The CUDA kernel table's geadd (B = alpha A + beta B, cuBLAS's GEAM in
 * place), the step that adds a BLAS-2 partial sum into its piece of y, on
 * one GPU, reached through the bridge as the legacy library reaches the
 * table.  The four precisions on sub-matrices of larger leading dimensions.
 * Bound, element by element, R computed in double complex from the inputs:
 *   |B - R| <= 4 eps (|alpha| |A| + |beta| |B0|)
 * The rows of B's array below its m rows keep their bits; a zero scalar's
 * matrix (all NaN) is never read. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include "tu_cuda.h"
#include "cuda_ctx.h"
#include "legacy_iface.h"

enum { M = 37, N = 23, LDA = 40, LDB = 45 };

static void check_geadd(const tu_type_t *t, double _Complex alpha, double _Complex beta, bool nan_a,
                        bool nan_b)
{
    void *A = tu_matrix(t, LDA, N, 1), *B0 = tu_matrix(t, LDB, N, 2);
    if (nan_a)
        tu_fill(t, A, M, N, LDA, NAN);
    if (nan_b)
        tu_fill(t, B0, M, N, LDB, NAN);
    void *dA = tu_to_device(t, A, LDA, N), *dB = tu_to_device(t, B0, LDB, N);
    _Alignas(16) unsigned char al[16], be[16];
    tu_scalar(t, alpha, al);
    tu_scalar(t, beta, be);
    alpha = tu_get(t, al, 0, 0, 1);
    beta = tu_get(t, be, 0, 0, 1);
    kern_ctx_t x = { 0 };
    assert_int_equal(tess_internal_cuda_handle(&x.blas), 0);
    assert_int_equal(cublasGetStream(x.blas, &x.stream), CUBLAS_STATUS_SUCCESS);
    const kern_table_t *k = tess_internal_cuda_kernels(tu_kern(t));
    assert_int_equal(k->geadd(&x, M, N, al, dA, LDA, be, dB, LDB), 0);
    assert_int_equal(cudaStreamSynchronize(x.stream), cudaSuccess);
    void *B = tu_to_host(t, dB, LDB, N);
    tu_check_geadd(t, M, N, alpha, nan_a ? NULL : A, LDA, beta, nan_b ? NULL : B0, B0, B, LDB);
    tu_free_device(dA);
    tu_free_device(dB);
    free(A);
    free(B);
    free(B0);
}

static void cuda_geadd_adds_the_scaled_tiles_for_every_precision(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++) {
        check_geadd(&tu_types[ti], 0.7 - 0.2 * I, -1.3 + 0.4 * I, false, false);
        check_geadd(&tu_types[ti], 1.0, 1.0, false, false);
    }
}

static void cuda_geadd_with_beta_zero_never_reads_b(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++)
        check_geadd(&tu_types[ti], 0.5 + 0.5 * I, 0.0, false, true);
}

static void cuda_geadd_with_alpha_zero_never_reads_a(void **state)
{
    (void)state;
    for (int ti = 0; ti < TU_NTYPES; ti++) {
        check_geadd(&tu_types[ti], 0.0, -0.75 + 0.25 * I, true, false);
        check_geadd(&tu_types[ti], 0.0, 0.0, true, true);
    }
}

int main(void)
{
    if (!tu_have_gpu())
        return 77; /* meson's code for a skipped test */
    if (tu_cuda_start())
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cuda_geadd_adds_the_scaled_tiles_for_every_precision),
        cmocka_unit_test(cuda_geadd_with_beta_zero_never_reads_b),
        cmocka_unit_test(cuda_geadd_with_alpha_zero_never_reads_a),
    };
    return cmocka_run_group_tests_name("cuda geadd", tests, NULL, NULL);
}
