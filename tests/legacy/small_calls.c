/* Small BLAS calls through the legacy library, for small_calls_syscalls.sh:
 * every routine once to warm up (the first calls look up the host BLAS and
 * what else they need), then COUNT calls of each between two markers that
 * strace shows, close(-1001) and close(-1002).  n = 8: every call stays on
 * the host BLAS under the default thresholds. */
#include <complex.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *,
            const double *, const int *, const double *, const int *, const double *, double *,
            const int *, size_t, size_t);
void zgemm_(const char *, const char *, const int *, const int *, const int *,
            const double complex *, const double complex *, const int *, const double complex *,
            const int *, const double complex *, double complex *, const int *, size_t, size_t);
void dtrsm_(const char *, const char *, const char *, const char *, const int *, const int *,
            const double *, const double *, const int *, double *, const int *, size_t, size_t,
            size_t, size_t);
void dsyrk_(const char *, const char *, const int *, const int *, const double *, const double *,
            const int *, const double *, double *, const int *, size_t, size_t);
void dgemv_(const char *, const int *, const int *, const double *, const double *, const int *,
            const double *, const int *, const double *, double *, const int *, size_t);

enum { N = 8 };

static double A[N * N], B[N * N], C[N * N], L[N * N];
static double complex Z[N * N], ZC[N * N];

static void calls(void)
{
    int n = N, inc = 1;
    double one = 1, zero = 0;
    double complex zone = 1, zzero = 0;
    dgemm_("N", "N", &n, &n, &n, &one, A, &n, B, &n, &zero, C, &n, 1, 1);
    zgemm_("N", "C", &n, &n, &n, &zone, Z, &n, Z, &n, &zzero, ZC, &n, 1, 1);
    dtrsm_("L", "L", "N", "U", &n, &n, &one, L, &n, C, &n, 1, 1, 1, 1);
    dsyrk_("U", "T", &n, &n, &one, A, &n, &zero, C, &n, 1, 1);
    dgemv_("T", &n, &n, &one, A, &n, B, &inc, &zero, C, &inc, 1);
}

int main(int argc, char **argv)
{
    long count = argc > 1 ? atol(argv[1]) : 1000;
    for (int i = 0; i < N * N; i++) {
        A[i] = B[i] = 1.0 / (1 + i);
        Z[i] = A[i] + I;
    }
    calls();
    close(-1001);
    for (long i = 0; i < count; i++)
        calls();
    close(-1002);
    printf("%g\n", C[0]);
    return 0;
}
