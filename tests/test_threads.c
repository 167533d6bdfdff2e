/* Several user threads submit independent chains to one runtime (host:2,
 * nb = 16) at once; each chain's result meets the normwise bound (< 10). */
#include <pthread.h>
#include <stdlib.h>
#include "testutil.h"

#define NB 16
#define THREADS 4
#define STEPS 3
static const tu_type_t *D = &tu_types[1];

typedef struct {
    unsigned seed;
    double residual;
    int err;
} chain_t;

static void *run_chain(void *arg)
{
    chain_t *c = arg;
    int64_t n = 2 * NB + 5;
    double *B = tu_matrix(D, n, n, c->seed), *X = tu_matrix(D, n, n, c->seed + 1);
    double *Y = tu_matrix(D, n, n, c->seed + 2), *Xr = tu_copy(D, X, n, n),
           *Yr = tu_copy(D, Y, n, n);
    for (int s = 0; s < STEPS && !c->err; s++) {
        c->err |= tess_dgemm_async(TessNoTrans, TessNoTrans, n, n, n, 0.5, X, n, B, n, 0, Y, n);
        c->err |= tess_dgemm_async(TessNoTrans, TessTrans, n, n, n, 0.5, Y, n, B, n, 0, X, n);
        tu_gemm_ref(D, TessNoTrans, TessNoTrans, n, n, n, 0.5, Xr, n, B, n, 0, Yr, n);
        tu_gemm_ref(D, TessNoTrans, TessTrans, n, n, n, 0.5, Yr, n, B, n, 0, Xr, n);
    }
    c->err |= tess_memory_coherent_async(TessAll, n, n, X, n, 8);
    c->err |= tess_sync();
    c->residual =
        tu_diff(D, X, Xr, n, n, n) / (2 * STEPS * n * D->eps * tu_norm(D, Xr, n, n, n) + 1e-300);
    c->err |= tess_memory_invalidate(n, n, X, n, 8) | tess_memory_invalidate(n, n, Y, n, 8) |
              tess_memory_invalidate(n, n, B, n, 8);
    free(B);
    free(X);
    free(Y);
    free(Xr);
    free(Yr);
    return NULL;
}

static void threads_submitting_independent_chains_each_get_their_own_result(void **state)
{
    (void)state;
    assert_int_equal(tu_init_host(2, NB, 0), 0);
    pthread_t th[THREADS];
    chain_t c[THREADS];
    for (int i = 0; i < THREADS; i++) {
        c[i] = (chain_t){ .seed = 100u * (unsigned)i + 1 };
        assert_int_equal(pthread_create(&th[i], NULL, run_chain, &c[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(c[i].err, 0);
        assert_true(c[i].residual < TU_GEMM_BOUND);
    }
    assert_int_equal(tess_finalize(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(threads_submitting_independent_chains_each_get_their_own_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
