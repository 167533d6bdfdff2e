/* The host BLAS, reached through pointers that are looked up in the library
 * itself (dlopen, RTLD_LOCAL) rather than by name at link time.
 *
 * Tessera's legacy BLAS library exports cblas_dgemm and the rest; a kernel
 * that called cblas_dgemm by name would, once that library is linked or
 * LD_PRELOADed, call Tessera again.  Included after <cblas.h>, this header
 * turns each cblas_* name the host kernels use into a call through
 * host_blas, so that their code reads as before. */
#ifndef HOST_BLAS_H
#define HOST_BLAS_H

#include <cblas.h>

/* Every CBLAS routine the host kernels call (a list clang-format does not
 * settle on a layout of). */
/* clang-format off */
#define HOST_BLAS_FUNCS(X)                                                                         \
    X(sgemm) X(dgemm) X(cgemm) X(zgemm) X(strsm) X(dtrsm) X(ctrsm) X(ztrsm)                        \
    X(strmm) X(dtrmm) X(ctrmm) X(ztrmm) X(sgemv) X(dgemv) X(cgemv) X(zgemv)                        \
    X(ssymv) X(dsymv) X(chemv) X(zhemv) X(ssymm) X(dsymm) X(csymm) X(zsymm) X(chemm) X(zhemm)      \
    X(ssyrk) X(dsyrk) X(csyrk) X(zsyrk) X(cherk) X(zherk)                                          \
    X(ssyr2k) X(dsyr2k) X(csyr2k) X(zsyr2k) X(cher2k) X(zher2k)                                    \
    X(sscal) X(dscal) X(cscal) X(zscal)
/* clang-format on */

typedef struct {
#define HOST_BLAS_PTR(f) __typeof__(cblas_##f) *f;
    HOST_BLAS_FUNCS(HOST_BLAS_PTR)
#undef HOST_BLAS_PTR
} host_blas_t;

extern host_blas_t host_blas;

/* Fills host_blas once, from the library host_blas_library() opens.
 * 0, or TESS_ECONFIG when no host BLAS with all of them can be opened. */
int host_blas_open(void);

/* The host BLAS library: TESS_BLAS_LIB, else the system's OpenBLAS
 * (libopenblas.so.0), else libblas.so.3, never a Tessera library (one that
 * defines tess_init), opened once with RTLD_LOCAL; NULL if none opens. */
void *host_blas_library(void);

/* The host BLAS's thread count (OpenBLAS's openblas_get/set_num_threads);
 * 0 and nothing done before host_blas_open succeeded or when the library
 * has no such calls. */
int host_blas_get_threads(void);
void host_blas_set_threads(int n);

/* Code that names CBLAS routines for other reasons than calling them (the
 * legacy library defines them) defines HOST_BLAS_KEEP_NAMES first. */
#ifndef HOST_BLAS_KEEP_NAMES
#define cblas_sgemm (*host_blas.sgemm)
#define cblas_dgemm (*host_blas.dgemm)
#define cblas_cgemm (*host_blas.cgemm)
#define cblas_zgemm (*host_blas.zgemm)
#define cblas_strsm (*host_blas.strsm)
#define cblas_dtrsm (*host_blas.dtrsm)
#define cblas_ctrsm (*host_blas.ctrsm)
#define cblas_ztrsm (*host_blas.ztrsm)
#define cblas_strmm (*host_blas.strmm)
#define cblas_dtrmm (*host_blas.dtrmm)
#define cblas_ctrmm (*host_blas.ctrmm)
#define cblas_ztrmm (*host_blas.ztrmm)
#define cblas_sgemv (*host_blas.sgemv)
#define cblas_dgemv (*host_blas.dgemv)
#define cblas_cgemv (*host_blas.cgemv)
#define cblas_zgemv (*host_blas.zgemv)
#define cblas_ssymv (*host_blas.ssymv)
#define cblas_dsymv (*host_blas.dsymv)
#define cblas_chemv (*host_blas.chemv)
#define cblas_zhemv (*host_blas.zhemv)
#define cblas_ssymm (*host_blas.ssymm)
#define cblas_dsymm (*host_blas.dsymm)
#define cblas_csymm (*host_blas.csymm)
#define cblas_zsymm (*host_blas.zsymm)
#define cblas_chemm (*host_blas.chemm)
#define cblas_zhemm (*host_blas.zhemm)
#define cblas_ssyrk (*host_blas.ssyrk)
#define cblas_dsyrk (*host_blas.dsyrk)
#define cblas_csyrk (*host_blas.csyrk)
#define cblas_zsyrk (*host_blas.zsyrk)
#define cblas_cherk (*host_blas.cherk)
#define cblas_zherk (*host_blas.zherk)
#define cblas_ssyr2k (*host_blas.ssyr2k)
#define cblas_dsyr2k (*host_blas.dsyr2k)
#define cblas_csyr2k (*host_blas.csyr2k)
#define cblas_zsyr2k (*host_blas.zsyr2k)
#define cblas_cher2k (*host_blas.cher2k)
#define cblas_zher2k (*host_blas.zher2k)
#define cblas_sscal (*host_blas.sscal)
#define cblas_dscal (*host_blas.dscal)
#define cblas_cscal (*host_blas.cscal)
#define cblas_zscal (*host_blas.zscal)
#endif

#endif
