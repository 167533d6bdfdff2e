/* The precision-generic BLAS-3 algorithms; scalars by address in type t. */
#ifndef BLAS3_H
#define BLAS3_H

#include <string.h>
#include "rt.h"

int blas_gemm(kern_type_t t, tess_trans_t ta, tess_trans_t tb, int64_t m, int64_t n, int64_t k,
              const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
              const void *beta, void *C, int64_t ldc);

#endif
