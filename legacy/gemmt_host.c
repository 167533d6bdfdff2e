/* GEMMT (?gemmt, ?gemmtr) on a host BLAS that has neither name. */
#include "host_call.h"

/* GEMMT where the host BLAS has none: for each block of 64 columns, one GEMM
 * for the part of the triangle off its diagonal block, then a GEMM per column
 * of the diagonal block. */
bool lg_host_gemmt_by_gemm(const lg_call_t *c)
{
    size_t es = kern_dtypes[c->t].size;
    const char *a = c->A, *b = c->B;
    char *cc = c->C;
    bool upper = c->uplo == TessUpper;
    lg_call_t g = *c;
    g.r = LG_GEMM;
#define ROWS_OF_A(i) (a + (size_t)(c->ta == TessNoTrans ? (i) : (i)*c->lda) * es)
#define COLS_OF_B(j) (b + (size_t)(c->tb == TessNoTrans ? (j)*c->ldb : (j)) * es)
    for (int64_t j0 = 0; j0 < c->n; j0 += 64) {
        int64_t w = c->n - j0 < 64 ? c->n - j0 : 64, i0 = upper ? 0 : j0 + w;
        g.m = upper ? j0 : c->n - j0 - w;
        g.n = w;
        g.A = ROWS_OF_A(i0);
        g.B = COLS_OF_B(j0);
        g.C = cc + (size_t)(i0 + j0 * c->ldc) * es;
        if (g.m > 0 && !lg_host_run(&g))
            return false;
        for (int64_t j = j0; j < j0 + w; j++) {
            i0 = upper ? j0 : j;
            g.m = upper ? j - j0 + 1 : j0 + w - j;
            g.n = 1;
            g.A = ROWS_OF_A(i0);
            g.B = COLS_OF_B(j);
            g.C = cc + (size_t)(i0 + j * c->ldc) * es;
            if (!lg_host_run(&g))
                return false;
        }
    }
#undef ROWS_OF_A
#undef COLS_OF_B
    return true;
}
