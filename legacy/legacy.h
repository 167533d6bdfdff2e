/* The legacy BLAS library (libtessera_blas): Fortran 77 and CBLAS entry
 * points over the runtime, the rest of BLAS forwarded to the host BLAS.
 *
 * f77.c and cblas.c turn each BLAS-3 call into an lg_call_t (column-major,
 * integers widened, character and enum arguments as tess_* enums), check it
 * and report errors their own way; call.c decides where a valid call runs
 * (runtime, GPU, host BLAS) and owns start-up, fork and exit; forward.c and
 * trampoline.S serve every other BLAS symbol from the host BLAS. */
#ifndef LEGACY_H
#define LEGACY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "kern.h"

/* Between what dlsym returns and the function it is: POSIX makes the
 * conversion exact, ISO C has no cast for it, so the bits are copied. */
typedef void (*lg_fn_t)(void);
static inline lg_fn_t lg_fn(void *p)
{
    lg_fn_t f;
    memcpy(&f, &p, sizeof f);
    return f;
}
static inline void *lg_sym(lg_fn_t f)
{
    void *p;
    memcpy(&p, &f, sizeof p);
    return p;
}

#define LG_EXPORT __attribute__((visibility("default")))

/* The BLAS-3 routines served through the runtime.  GEMMT stands for both of
 * its names (?gemmt, ?gemmtr). */
typedef enum {
    LG_GEMM,
    LG_SYMM,
    LG_HEMM,
    LG_SYRK,
    LG_HERK,
    LG_SYR2K,
    LG_HER2K,
    LG_GEMMT,
    LG_TRSM,
    LG_TRMM,
    LG_NROUT
} lg_rout_t;

/* One call.  Scalars are passed by address in the element type, except the
 * real alpha and beta of HERK and the real beta of HER2K.  TRSM and TRMM keep
 * their transa in ta and their in-place B in C, ldc. */
typedef struct {
    lg_rout_t r;
    kern_type_t t;
    tess_side_t side;
    tess_uplo_t uplo;
    tess_trans_t ta, tb;
    tess_diag_t diag;
    int64_t m, n, k;
    const void *alpha, *beta;
    const void *A;
    int64_t lda;
    const void *B;
    int64_t ldb;
    void *C;
    int64_t ldc;
} lg_call_t;

/* 0, or -i for the first invalid argument i in reference BLAS's numbering
 * (blas3/check.h). */
int lg_check(const lg_call_t *c);

/* Runs a valid call to completion: on the GPU that holds its operands, through
 * the runtime when it is large enough, else on the host BLAS. */
void lg_run(const lg_call_t *c);

/* The host BLAS (TESS_BLAS_LIB, the system's OpenBLAS) and its 64-bit-integer
 * build (TESS_BLAS64_LIB, libopenblas64_.so.0, libopenblas64.so.0): the
 * address of symbol name there, or NULL. */
void *lg_host_symbol(const char *name, bool ilp64);

/* Operands in GPU memory (CUDA builds): true when the call had any and was
 * served on a GPU. */
bool lg_gpu_run(const lg_call_t *c);

/* The error handlers a refused call reports to, with the argument's
 * position: XERBLA of each integer width (f77.c; the application's own when
 * it defines one) and CBLAS's for the 64-bit entry points (cblas.c). */
LG_EXPORT void xerbla_(const char *srname, const int32_t *info, size_t len);
LG_EXPORT void xerbla_64_(const char *srname, const int64_t *info, size_t len);
void lg_cblas_xerbla64(int info, const char *rout);

/* Element size and the operand regions of a call: at most three, the output
 * last; part says which triangle of the output the call writes. */
typedef struct {
    const void *p;
    int64_t m, n, ld;
} lg_region_t;
int lg_regions(const lg_call_t *c, lg_region_t r[3], tess_part_t *part);

#endif
