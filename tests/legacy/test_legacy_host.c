/* The legacy BLAS library where the runtime is not to be used, run by meson
 * in two settings: `no_gpu` (no GPU, TESS_DEVICES unset, a threshold of one
 * flop: the runtime must stay off, since host devices only simulate GPUs) and
 * `bad_config` (an invalid TESS_DEVICES and TESS_THRESHOLD=0: the runtime
 * cannot start).  Either way every call is right, on the host BLAS, and
 * nothing is printed.  With the argument `fault` (and a kernel made to fail,
 * TESS_FAULT, with TESS_VERBOSE set) the failed call is redone on the host
 * BLAS, said once on stderr, and later calls stay there. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "tessera.h"

void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *,
            const double *, const int *, const double *, const int *, const double *, double *,
            const int *, size_t, size_t);
void cblas_dsyrk(int, int, int, int, int, double, const double *, int, double, double *, int);

static double *matrix(int n, unsigned s)
{
    double *a = malloc((size_t)n * n * sizeof *a);
    for (size_t i = 0; i < (size_t)n * n; i++) {
        s = s * 1103515245u + 12345u;
        a[i] = (double)((s >> 8) % 2001) / 1000.0 - 1.0;
    }
    return a;
}

/* DGEMM of order n and a DSYRK, some of their entries checked against
 * loops (every one for small n). */
static void multiply_and_check(int n)
{
    double *A = matrix(n, 1), *B = matrix(n, 2), *C = matrix(n, 3), alpha = 1, beta = 0.5;
    double *C0 = malloc((size_t)n * n * sizeof *C0);
    memcpy(C0, C, (size_t)n * n * sizeof *C0);
    dgemm_("N", "N", &n, &n, &n, &alpha, A, &n, B, &n, &beta, C, &n, 1, 1);
    unsigned s = 7;
    for (int e = 0; e < 300; e++) {
        s = s * 1103515245u + 12345u;
        int i = (int)((s >> 8) % (unsigned)n), j = (int)((s >> 4) % (unsigned)n);
        double r = beta * C0[i + (size_t)j * n];
        for (int l = 0; l < n; l++)
            r += alpha * A[i + (size_t)l * n] * B[l + (size_t)j * n];
        assert_true(fabs(C[i + (size_t)j * n] - r) < 1e-12 * n);
    }
    /* row-major upper triangle of A A^T: column-major lower */
    cblas_dsyrk(101, 121, 111, n, n, 1.0, A, n, 0.0, C, n);
    for (int e = 0; e < 300; e++) {
        s = s * 1103515245u + 12345u;
        int i = (int)((s >> 8) % (unsigned)n), j = (int)((s >> 4) % (unsigned)n);
        if (i < j) {
            int t = i;
            i = j;
            j = t;
        }
        double r = 0;
        for (int l = 0; l < n; l++)
            r += A[(size_t)i * n + l] * A[(size_t)j * n + l];
        assert_true(fabs(C[i + (size_t)j * n] - r) < 1e-12 * n);
    }
    free(A), free(B), free(C), free(C0);
}

static void every_call_is_right_and_silent_and_the_runtime_stays_off(void **state)
{
    (void)state;
    fflush(stderr);
    FILE *err = tmpfile();
    int saved = dup(2);
    dup2(fileno(err), 2);
    multiply_and_check(40);
    multiply_and_check(1100); /* enough flops per byte to want the runtime */
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fseek(err, 0, SEEK_END);
    assert_int_equal(ftell(err), 0);
    fclose(err);
    tess_stats_t s;
    assert_int_equal(tess_get_stats(&s), TESS_ENOTINIT);
}

static void a_call_that_fails_in_the_runtime_is_redone_on_the_host_blas(void **state)
{
    (void)state;
    fflush(stderr);
    FILE *err = tmpfile();
    int saved = dup(2);
    dup2(fileno(err), 2);
    /* beta = 0.5 reads C: only a call whose failure reached nothing of C's
     * host copy can be redone, which a failing first kernel ensures here */
    multiply_and_check(64);
    multiply_and_check(48);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char text[4096] = "";
    rewind(err);
    size_t len = fread(text, 1, sizeof text - 1, err);
    fclose(err);
    text[len] = 0;
    /* the library reports once (the runtime's own TESS_VERBOSE lines aside) */
    const char *line = strstr(text, "tessera_blas:");
    assert_non_null(line);
    assert_ptr_equal(line, strstr(text, "tessera_blas: DGEMM through the runtime failed"));
    assert_null(strstr(line + 1, "tessera_blas:"));
}

int main(int argc, char **argv)
{
    const struct CMUnitTest quiet[] = {
        cmocka_unit_test(every_call_is_right_and_silent_and_the_runtime_stays_off),
    };
    const struct CMUnitTest fault[] = {
        cmocka_unit_test(a_call_that_fails_in_the_runtime_is_redone_on_the_host_blas),
    };
    if (argc > 1 && !strcmp(argv[1], "fault"))
        return cmocka_run_group_tests(fault, NULL, NULL);
    return cmocka_run_group_tests(quiet, NULL, NULL);
}
