/* Every BLAS symbol that the host BLAS serves, one line each: levels 1 and 2
 * of reference BLAS and CBLAS (GEMV, SYMV and HEMV among them until they run
 * through the runtime).  The BLAS-3 routines and the error and helper calls
 * (xerbla, lsame, cblas_xerbla, cblas_?cabs1) are Tessera's own.
 *
 * trampoline.S defines each name twice: as written (Fortran with its trailing
 * underscore, dgemv_) and as OpenBLAS's 64-bit-integer builds spell it
 * (dgemv_64_, cblas_dgemv64_).  Pure preprocessor lists, included by C and by
 * assembly alike. */
#ifndef LEGACY_FORWARD_LIST_H
#define LEGACY_FORWARD_LIST_H

/* Fortran 77, without the trailing underscore. */
#define LG_F77_FORWARDED(X)                                                                        \
    X(caxpy)                                                                                       \
    X(ccopy)                                                                                       \
    X(cdotc)                                                                                       \
    X(cdotu)                                                                                       \
    X(cgbmv)                                                                                       \
    X(cgemv)                                                                                       \
    X(cgerc)                                                                                       \
    X(cgeru)                                                                                       \
    X(chbmv)                                                                                       \
    X(chemv)                                                                                       \
    X(cher)                                                                                        \
    X(cher2)                                                                                       \
    X(chpmv)                                                                                       \
    X(chpr)                                                                                        \
    X(chpr2)                                                                                       \
    X(crotg)                                                                                       \
    X(cscal)                                                                                       \
    X(csrot)                                                                                       \
    X(csscal)                                                                                      \
    X(cswap)                                                                                       \
    X(ctbmv)                                                                                       \
    X(ctbsv)                                                                                       \
    X(ctpmv)                                                                                       \
    X(ctpsv)                                                                                       \
    X(ctrmv)                                                                                       \
    X(ctrsv)                                                                                       \
    X(dasum)                                                                                       \
    X(daxpy)                                                                                       \
    X(dcabs1)                                                                                      \
    X(dcopy)                                                                                       \
    X(ddot)                                                                                        \
    X(dgbmv)                                                                                       \
    X(dgemv)                                                                                       \
    X(dger)                                                                                        \
    X(dnrm2)                                                                                       \
    X(drot)                                                                                        \
    X(drotg)                                                                                       \
    X(drotm)                                                                                       \
    X(drotmg)                                                                                      \
    X(dsbmv)                                                                                       \
    X(dscal)                                                                                       \
    X(dsdot)                                                                                       \
    X(dspmv)                                                                                       \
    X(dspr)                                                                                        \
    X(dspr2)                                                                                       \
    X(dswap)                                                                                       \
    X(dsymv)                                                                                       \
    X(dsyr)                                                                                        \
    X(dsyr2)                                                                                       \
    X(dtbmv)                                                                                       \
    X(dtbsv)                                                                                       \
    X(dtpmv)                                                                                       \
    X(dtpsv)                                                                                       \
    X(dtrmv)                                                                                       \
    X(dtrsv)                                                                                       \
    X(dzasum)                                                                                      \
    X(dznrm2)                                                                                      \
    X(sasum)                                                                                       \
    X(saxpy)                                                                                       \
    X(scabs1)                                                                                      \
    X(scasum)                                                                                      \
    X(scnrm2)                                                                                      \
    X(scopy)                                                                                       \
    X(sdot)                                                                                        \
    X(sdsdot)                                                                                      \
    X(sgbmv)                                                                                       \
    X(sgemv)                                                                                       \
    X(sger)                                                                                        \
    X(snrm2)                                                                                       \
    X(srot)                                                                                        \
    X(srotg)                                                                                       \
    X(srotm)                                                                                       \
    X(srotmg)                                                                                      \
    X(ssbmv)                                                                                       \
    X(sscal)                                                                                       \
    X(sspmv)                                                                                       \
    X(sspr)                                                                                        \
    X(sspr2)                                                                                       \
    X(sswap)                                                                                       \
    X(ssymv)                                                                                       \
    X(ssyr)                                                                                        \
    X(ssyr2)                                                                                       \
    X(stbmv)                                                                                       \
    X(stbsv)                                                                                       \
    X(stpmv)                                                                                       \
    X(stpsv)                                                                                       \
    X(strmv)                                                                                       \
    X(strsv)                                                                                       \
    X(zaxpy)                                                                                       \
    X(zcopy)                                                                                       \
    X(zdotc)                                                                                       \
    X(zdotu)                                                                                       \
    X(zdrot)                                                                                       \
    X(zdscal)                                                                                      \
    X(zgbmv)                                                                                       \
    X(zgemv)                                                                                       \
    X(zgerc)                                                                                       \
    X(zgeru)                                                                                       \
    X(zhbmv)                                                                                       \
    X(zhemv)                                                                                       \
    X(zher)                                                                                        \
    X(zher2)                                                                                       \
    X(zhpmv)                                                                                       \
    X(zhpr)                                                                                        \
    X(zhpr2)                                                                                       \
    X(zrotg)                                                                                       \
    X(zscal)                                                                                       \
    X(zswap)                                                                                       \
    X(ztbmv)                                                                                       \
    X(ztbsv)                                                                                       \
    X(ztpmv)                                                                                       \
    X(ztpsv)                                                                                       \
    X(ztrmv)                                                                                       \
    X(ztrsv)

/* Fortran 77 functions returning INTEGER: forwarded as they are for 32-bit
 * integers; their 64-bit entries (forward.c) widen what a 32-bit host
 * returns. */
#define LG_F77_IAMAX(X)                                                                            \
    X(icamax)                                                                                      \
    X(idamax)                                                                                      \
    X(isamax)                                                                                      \
    X(izamax)

/* CBLAS. */
#define LG_CBLAS_FORWARDED(X)                                                                      \
    X(cblas_caxpy)                                                                                 \
    X(cblas_ccopy)                                                                                 \
    X(cblas_cdotc_sub)                                                                             \
    X(cblas_cdotu_sub)                                                                             \
    X(cblas_cgbmv)                                                                                 \
    X(cblas_cgemv)                                                                                 \
    X(cblas_cgerc)                                                                                 \
    X(cblas_cgeru)                                                                                 \
    X(cblas_chbmv)                                                                                 \
    X(cblas_chemv)                                                                                 \
    X(cblas_cher)                                                                                  \
    X(cblas_cher2)                                                                                 \
    X(cblas_chpmv)                                                                                 \
    X(cblas_chpr)                                                                                  \
    X(cblas_chpr2)                                                                                 \
    X(cblas_crotg)                                                                                 \
    X(cblas_cscal)                                                                                 \
    X(cblas_csrot)                                                                                 \
    X(cblas_csscal)                                                                                \
    X(cblas_cswap)                                                                                 \
    X(cblas_ctbmv)                                                                                 \
    X(cblas_ctbsv)                                                                                 \
    X(cblas_ctpmv)                                                                                 \
    X(cblas_ctpsv)                                                                                 \
    X(cblas_ctrmv)                                                                                 \
    X(cblas_ctrsv)                                                                                 \
    X(cblas_dasum)                                                                                 \
    X(cblas_daxpy)                                                                                 \
    X(cblas_dcopy)                                                                                 \
    X(cblas_ddot)                                                                                  \
    X(cblas_dgbmv)                                                                                 \
    X(cblas_dgemv)                                                                                 \
    X(cblas_dger)                                                                                  \
    X(cblas_dnrm2)                                                                                 \
    X(cblas_drot)                                                                                  \
    X(cblas_drotg)                                                                                 \
    X(cblas_drotm)                                                                                 \
    X(cblas_drotmg)                                                                                \
    X(cblas_dsbmv)                                                                                 \
    X(cblas_dscal)                                                                                 \
    X(cblas_dsdot)                                                                                 \
    X(cblas_dspmv)                                                                                 \
    X(cblas_dspr)                                                                                  \
    X(cblas_dspr2)                                                                                 \
    X(cblas_dswap)                                                                                 \
    X(cblas_dsymv)                                                                                 \
    X(cblas_dsyr)                                                                                  \
    X(cblas_dsyr2)                                                                                 \
    X(cblas_dtbmv)                                                                                 \
    X(cblas_dtbsv)                                                                                 \
    X(cblas_dtpmv)                                                                                 \
    X(cblas_dtpsv)                                                                                 \
    X(cblas_dtrmv)                                                                                 \
    X(cblas_dtrsv)                                                                                 \
    X(cblas_dzasum)                                                                                \
    X(cblas_dznrm2)                                                                                \
    X(cblas_icamax)                                                                                \
    X(cblas_idamax)                                                                                \
    X(cblas_isamax)                                                                                \
    X(cblas_izamax)                                                                                \
    X(cblas_sasum)                                                                                 \
    X(cblas_saxpy)                                                                                 \
    X(cblas_scasum)                                                                                \
    X(cblas_scnrm2)                                                                                \
    X(cblas_scopy)                                                                                 \
    X(cblas_sdot)                                                                                  \
    X(cblas_sdsdot)                                                                                \
    X(cblas_sgbmv)                                                                                 \
    X(cblas_sgemv)                                                                                 \
    X(cblas_sger)                                                                                  \
    X(cblas_snrm2)                                                                                 \
    X(cblas_srot)                                                                                  \
    X(cblas_srotg)                                                                                 \
    X(cblas_srotm)                                                                                 \
    X(cblas_srotmg)                                                                                \
    X(cblas_ssbmv)                                                                                 \
    X(cblas_sscal)                                                                                 \
    X(cblas_sspmv)                                                                                 \
    X(cblas_sspr)                                                                                  \
    X(cblas_sspr2)                                                                                 \
    X(cblas_sswap)                                                                                 \
    X(cblas_ssymv)                                                                                 \
    X(cblas_ssyr)                                                                                  \
    X(cblas_ssyr2)                                                                                 \
    X(cblas_stbmv)                                                                                 \
    X(cblas_stbsv)                                                                                 \
    X(cblas_stpmv)                                                                                 \
    X(cblas_stpsv)                                                                                 \
    X(cblas_strmv)                                                                                 \
    X(cblas_strsv)                                                                                 \
    X(cblas_zaxpy)                                                                                 \
    X(cblas_zcopy)                                                                                 \
    X(cblas_zdotc_sub)                                                                             \
    X(cblas_zdotu_sub)                                                                             \
    X(cblas_zdrot)                                                                                 \
    X(cblas_zdscal)                                                                                \
    X(cblas_zgbmv)                                                                                 \
    X(cblas_zgemv)                                                                                 \
    X(cblas_zgerc)                                                                                 \
    X(cblas_zgeru)                                                                                 \
    X(cblas_zhbmv)                                                                                 \
    X(cblas_zhemv)                                                                                 \
    X(cblas_zher)                                                                                  \
    X(cblas_zher2)                                                                                 \
    X(cblas_zhpmv)                                                                                 \
    X(cblas_zhpr)                                                                                  \
    X(cblas_zhpr2)                                                                                 \
    X(cblas_zrotg)                                                                                 \
    X(cblas_zscal)                                                                                 \
    X(cblas_zswap)                                                                                 \
    X(cblas_ztbmv)                                                                                 \
    X(cblas_ztbsv)                                                                                 \
    X(cblas_ztpmv)                                                                                 \
    X(cblas_ztpsv)                                                                                 \
    X(cblas_ztrmv)                                                                                 \
    X(cblas_ztrsv)

#endif
