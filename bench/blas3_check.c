/* The check of Tessera's output on sampled entries (blas3_cases.h). */
#include <float.h>
#include <math.h>
#include <string.h>
#include "bench_util.h"
#include "blas3_cases.h"

static uint64_t rnd(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return *x >> 17;
}

void b3_snap_take(const b3_case_t *c, const double *B, const double *C, b3_snap_t *s)
{
    uint64_t x = 12345 + (uint64_t)c->r;
    int64_t rows = c->r <= R_SYMM || c->r == R_TRSM || c->r == R_TRMM ? c->m : c->n;
    memset(s, 0, sizeof *s);
    if (c->r == R_TRSM_GEMM) {
        s->cols = bench_xmalloc("bench_blas3_cuda", 3 * (size_t)c->m * sizeof *s->cols);
        for (int a = 0; a < 3; a++) {
            s->cols3[a] = (int64_t)(rnd(&x) % (uint64_t)c->n);
            memcpy(s->cols + a * c->m, B + s->cols3[a] * c->ldb, (size_t)c->m * sizeof *B);
        }
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                s->i[s->ns] = s->cols3[a];
                s->j[s->ns] = s->cols3[b];
                s->before[s->ns] = C[s->cols3[a] + s->cols3[b] * c->ldc];
                s->ns++;
            }
        return;
    }
    if (c->r == R_TRMM) {
        s->cols = bench_xmalloc("bench_blas3_cuda", NSAMPLE * (size_t)c->m * sizeof *s->cols);
    }
    for (int q = 0; q < NSAMPLE; q++) {
        int64_t i = (int64_t)(rnd(&x) % (uint64_t)rows), j = (int64_t)(rnd(&x) % (uint64_t)c->n);
        if ((c->r == R_SYRK || c->r == R_SYR2K || c->r == R_GEMMT) && i < j) {
            int64_t t = i;
            i = j;
            j = t;
        }
        s->i[q] = i;
        s->j[q] = j;
        if (c->r == R_TRSM)
            s->before[q] = B[i + j * c->ldb];
        if (c->r == R_TRMM)
            memcpy(s->cols + q * c->m, B + j * c->ldb, (size_t)c->m * sizeof *B);
    }
    s->ns = NSAMPLE;
    if ((c->r == R_SYRK || c->r == R_SYR2K || c->r == R_GEMMT) && c->n > 1) {
        /* half anywhere, half next to the diagonal, where tiles straddle it */
        for (int q = 0; q < NUPPER; q++) {
            int64_t i = (int64_t)(rnd(&x) % (uint64_t)(c->n - 1)), j;
            if (q % 2) {
                int64_t span = c->n - 1 - i < 64 ? c->n - 1 - i : 64;
                j = i + 1 + (int64_t)(rnd(&x) % (uint64_t)span);
            } else {
                j = i + 1 + (int64_t)(rnd(&x) % (uint64_t)(c->n - 1 - i));
            }
            s->ui[q] = i;
            s->uj[q] = j;
            s->up[q] = C[i + j * c->ldc];
        }
        s->nup = NUPPER;
    }
}

/* x = d A^-1 b for the lower triangular A and 3 columns b at once (A is read
 * once, by columns: a second at m = 32768). */
static void host_solve3(const b3_case_t *c, const double *A, const double *b, double *x)
{
    const int64_t m = c->m;
    for (int64_t l = 0; l < 3 * m; l++)
        x[l] = c->d * b[l];
    double *x0 = x, *x1 = x + m, *x2 = x + 2 * m;
    for (int64_t l = 0; l < m; l++) {
        const double *col = A + l * c->lda;
        double a = x0[l] /= col[l], b1 = x1[l] /= col[l], b2 = x2[l] /= col[l];
        for (int64_t i = l + 1; i < m; i++) {
            x0[i] -= col[i] * a;
            x1[i] -= col[i] * b1;
            x2[i] -= col[i] * b2;
        }
    }
}

/* The largest |Tessera - reference| / sum |terms| over the samples (infinity
 * when an upper entry that must stay changed); NaN sticks. */
double b3_snap_check(const b3_case_t *c, const double *A, const double *B, const double *C,
                     const b3_snap_t *s)
{
    double worst = 0;
    double *x = NULL;
    if (c->r == R_TRSM_GEMM) {
        x = bench_xmalloc("bench_blas3_cuda", 3 * (size_t)c->m * sizeof *x);
        host_solve3(c, A, s->cols, x);
    }
    const int64_t lda = c->lda, ldb = c->ldb, ldc = c->ldc;
    for (int q = 0; q < s->ns; q++) {
        int64_t i = s->i[q], j = s->j[q];
        double ref = 0, mag = 0, out;
        switch (c->r) {
        case R_GEMM:
            for (int64_t l = 0; l < c->k; l++) {
                double t = A[i + l * lda] * B[l + j * ldb];
                ref += t;
                mag += fabs(t);
            }
            out = C[i + j * ldc];
            break;
        case R_SYMM:
            for (int64_t l = 0; l < c->m; l++) {
                double a = i >= l ? A[i + l * lda] : A[l + i * lda], t = a * B[l + j * ldb];
                ref += t;
                mag += fabs(t);
            }
            out = C[i + j * ldc];
            break;
        case R_SYRK:
        case R_SYR2K:
        case R_GEMMT:
            for (int64_t l = 0; l < c->k; l++) {
                double t = c->r == R_SYRK ? A[i + l * lda] * A[j + l * lda]
                                          : A[i + l * lda] * B[j + l * ldb];
                double u = c->r == R_SYR2K ? B[i + l * ldb] * A[j + l * lda] : 0;
                ref += t + u;
                mag += fabs(t) + fabs(u);
            }
            out = C[i + j * ldc];
            break;
        case R_TRSM:
            /* the residual: (A X)(i, j) against d B(i, j) */
            for (int64_t l = 0; l <= i; l++) {
                double t = A[i + l * lda] * B[l + j * ldb];
                ref += t;
                mag += fabs(t);
            }
            out = c->d * s->before[q];
            mag += fabs(out);
            break;
        case R_TRMM:
            for (int64_t l = 0; l <= i; l++) {
                double t = A[i + l * lda] * s->cols[q * c->m + l] / c->d;
                ref += t;
                mag += fabs(t);
            }
            out = B[i + j * ldb];
            break;
        default: {
            const double *xi = x + (q / 3) * c->m, *xj = x + (q % 3) * c->m;
            ref = s->before[q];
            mag = fabs(ref);
            for (int64_t l = 0; l < c->m; l++) {
                ref -= xi[l] * xj[l];
                mag += fabs(xi[l] * xj[l]);
            }
            out = C[i + j * ldc];
            break;
        }
        }
        double e = fabs(out - ref) / (mag > 0 ? mag : 1);
        if (!(e <= worst))
            worst = e;
    }
    for (int q = 0; q < s->nup; q++)
        if (memcmp(&C[s->ui[q] + s->uj[q] * ldc], &s->up[q], sizeof(double)))
            worst = INFINITY;
    free(x);
    return worst;
}
