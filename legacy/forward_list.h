/* Every BLAS symbol that the host BLAS serves, one line each: levels 1 and 2
 * of reference BLAS and CBLAS (GEMV, SYMV and HEMV among them until they run
 * through the runtime).  The BLAS-3 routines and the error and helper calls
 * (xerbla, lsame, cblas_xerbla, cblas_?cabs1) are Tessera's own.
 *
 * trampoline.S defines each name twice: as written (Fortran with its trailing
 * underscore, dgemv_) and as OpenBLAS's 64-bit-integer builds spell it
 * (dgemv_64_, cblas_dgemv64_).  Pure preprocessor lists, included by C and by
 * assembly alike.
 *
 * Each routine carries its arguments' classes, one letter per argument as
 * the host's prototypes have them: 'i' an integer (by address in Fortran, by
 * value in CBLAS), 'f' a real by value, '.' anything else (an address, a
 * CBLAS enum).  A 64-bit entry that a 32-bit host routine serves checks its
 * 'i' arguments against 32 bits (forward.c); tests/legacy/forward_sigs.py
 * checks the letters against OpenBLAS's headers. */
#ifndef LEGACY_FORWARD_LIST_H
#define LEGACY_FORWARD_LIST_H

/* Fortran 77, without the trailing underscore. */
#define LG_F77_FORWARDED(X)                                                                        \
    X(caxpy, "i..i.i")                                                                             \
    X(ccopy, "i.i.i")                                                                              \
    X(cdotc, "i.i.i")                                                                              \
    X(cdotu, "i.i.i")                                                                              \
    X(cgbmv, ".iiii..i.i..i")                                                                      \
    X(cgemv, ".ii..i.i..i")                                                                        \
    X(cgerc, "ii..i.i.i")                                                                          \
    X(cgeru, "ii..i.i.i")                                                                          \
    X(chbmv, ".ii..i.i..i")                                                                        \
    X(chemv, ".i..i.i..i")                                                                         \
    X(cher, ".i..i.i")                                                                             \
    X(cher2, ".i..i.i.i")                                                                          \
    X(chpmv, ".i...i..i")                                                                          \
    X(chpr, ".i..i.")                                                                              \
    X(chpr2, ".i..i.i.")                                                                           \
    X(crotg, "....")                                                                               \
    X(cscal, "i..i")                                                                               \
    X(csrot, "i.i.i..")                                                                            \
    X(csscal, "i..i")                                                                              \
    X(cswap, "i.i.i")                                                                              \
    X(ctbmv, "...ii.i.i")                                                                          \
    X(ctbsv, "...ii.i.i")                                                                          \
    X(ctpmv, "...i..i")                                                                            \
    X(ctpsv, "...i..i")                                                                            \
    X(ctrmv, "...i.i.i")                                                                           \
    X(ctrsv, "...i.i.i")                                                                           \
    X(dasum, "i.i")                                                                                \
    X(daxpy, "i..i.i")                                                                             \
    X(dcabs1, ".")                                                                                 \
    X(dcopy, "i.i.i")                                                                              \
    X(ddot, "i.i.i")                                                                               \
    X(dgbmv, ".iiii..i.i..i")                                                                      \
    X(dgemv, ".ii..i.i..i")                                                                        \
    X(dger, "ii..i.i.i")                                                                           \
    X(dnrm2, "i.i")                                                                                \
    X(drot, "i.i.i..")                                                                             \
    X(drotg, "....")                                                                               \
    X(drotm, "i.i.i.")                                                                             \
    X(drotmg, ".....")                                                                             \
    X(dsbmv, ".ii..i.i..i")                                                                        \
    X(dscal, "i..i")                                                                               \
    X(dsdot, "i.i.i")                                                                              \
    X(dspmv, ".i...i..i")                                                                          \
    X(dspr, ".i..i.")                                                                              \
    X(dspr2, ".i..i.i.")                                                                           \
    X(dswap, "i.i.i")                                                                              \
    X(dsymv, ".i..i.i..i")                                                                         \
    X(dsyr, ".i..i.i")                                                                             \
    X(dsyr2, ".i..i.i.i")                                                                          \
    X(dtbmv, "...ii.i.i")                                                                          \
    X(dtbsv, "...ii.i.i")                                                                          \
    X(dtpmv, "...i..i")                                                                            \
    X(dtpsv, "...i..i")                                                                            \
    X(dtrmv, "...i.i.i")                                                                           \
    X(dtrsv, "...i.i.i")                                                                           \
    X(dzasum, "i.i")                                                                               \
    X(dznrm2, "i.i")                                                                               \
    X(sasum, "i.i")                                                                                \
    X(saxpy, "i..i.i")                                                                             \
    X(scabs1, ".")                                                                                 \
    X(scasum, "i.i")                                                                               \
    X(scnrm2, "i.i")                                                                               \
    X(scopy, "i.i.i")                                                                              \
    X(sdot, "i.i.i")                                                                               \
    X(sdsdot, "i..i.i")                                                                            \
    X(sgbmv, ".iiii..i.i..i")                                                                      \
    X(sgemv, ".ii..i.i..i")                                                                        \
    X(sger, "ii..i.i.i")                                                                           \
    X(snrm2, "i.i")                                                                                \
    X(srot, "i.i.i..")                                                                             \
    X(srotg, "....")                                                                               \
    X(srotm, "i.i.i.")                                                                             \
    X(srotmg, ".....")                                                                             \
    X(ssbmv, ".ii..i.i..i")                                                                        \
    X(sscal, "i..i")                                                                               \
    X(sspmv, ".i...i..i")                                                                          \
    X(sspr, ".i..i.")                                                                              \
    X(sspr2, ".i..i.i.")                                                                           \
    X(sswap, "i.i.i")                                                                              \
    X(ssymv, ".i..i.i..i")                                                                         \
    X(ssyr, ".i..i.i")                                                                             \
    X(ssyr2, ".i..i.i.i")                                                                          \
    X(stbmv, "...ii.i.i")                                                                          \
    X(stbsv, "...ii.i.i")                                                                          \
    X(stpmv, "...i..i")                                                                            \
    X(stpsv, "...i..i")                                                                            \
    X(strmv, "...i.i.i")                                                                           \
    X(strsv, "...i.i.i")                                                                           \
    X(zaxpy, "i..i.i")                                                                             \
    X(zcopy, "i.i.i")                                                                              \
    X(zdotc, "i.i.i")                                                                              \
    X(zdotu, "i.i.i")                                                                              \
    X(zdrot, "i.i.i..")                                                                            \
    X(zdscal, "i..i")                                                                              \
    X(zgbmv, ".iiii..i.i..i")                                                                      \
    X(zgemv, ".ii..i.i..i")                                                                        \
    X(zgerc, "ii..i.i.i")                                                                          \
    X(zgeru, "ii..i.i.i")                                                                          \
    X(zhbmv, ".ii..i.i..i")                                                                        \
    X(zhemv, ".i..i.i..i")                                                                         \
    X(zher, ".i..i.i")                                                                             \
    X(zher2, ".i..i.i.i")                                                                          \
    X(zhpmv, ".i...i..i")                                                                          \
    X(zhpr, ".i..i.")                                                                              \
    X(zhpr2, ".i..i.i.")                                                                           \
    X(zrotg, "....")                                                                               \
    X(zscal, "i..i")                                                                               \
    X(zswap, "i.i.i")                                                                              \
    X(ztbmv, "...ii.i.i")                                                                          \
    X(ztbsv, "...ii.i.i")                                                                          \
    X(ztpmv, "...i..i")                                                                            \
    X(ztpsv, "...i..i")                                                                            \
    X(ztrmv, "...i.i.i")                                                                           \
    X(ztrsv, "...i.i.i")

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
    X(cblas_caxpy, "i..i.i")                                                                       \
    X(cblas_ccopy, "i.i.i")                                                                        \
    X(cblas_cdotc_sub, "i.i.i.")                                                                   \
    X(cblas_cdotu_sub, "i.i.i.")                                                                   \
    X(cblas_cgbmv, "..iiii..i.i..i")                                                               \
    X(cblas_cgemv, "..ii..i.i..i")                                                                 \
    X(cblas_cgerc, ".ii..i.i.i")                                                                   \
    X(cblas_cgeru, ".ii..i.i.i")                                                                   \
    X(cblas_chbmv, "..ii..i.i..i")                                                                 \
    X(cblas_chemv, "..i..i.i..i")                                                                  \
    X(cblas_cher, "..if.i.i")                                                                      \
    X(cblas_cher2, "..i..i.i.i")                                                                   \
    X(cblas_chpmv, "..i...i..i")                                                                   \
    X(cblas_chpr, "..if.i.")                                                                       \
    X(cblas_chpr2, "..i..i.i.")                                                                    \
    X(cblas_crotg, "....")                                                                         \
    X(cblas_cscal, "i..i")                                                                         \
    X(cblas_csrot, "i.i.iff")                                                                      \
    X(cblas_csscal, "if.i")                                                                        \
    X(cblas_cswap, "i.i.i")                                                                        \
    X(cblas_ctbmv, "....ii.i.i")                                                                   \
    X(cblas_ctbsv, "....ii.i.i")                                                                   \
    X(cblas_ctpmv, "....i..i")                                                                     \
    X(cblas_ctpsv, "....i..i")                                                                     \
    X(cblas_ctrmv, "....i.i.i")                                                                    \
    X(cblas_ctrsv, "....i.i.i")                                                                    \
    X(cblas_dasum, "i.i")                                                                          \
    X(cblas_daxpy, "if.i.i")                                                                       \
    X(cblas_dcopy, "i.i.i")                                                                        \
    X(cblas_ddot, "i.i.i")                                                                         \
    X(cblas_dgbmv, "..iiiif.i.if.i")                                                               \
    X(cblas_dgemv, "..iif.i.if.i")                                                                 \
    X(cblas_dger, ".iif.i.i.i")                                                                    \
    X(cblas_dnrm2, "i.i")                                                                          \
    X(cblas_drot, "i.i.iff")                                                                       \
    X(cblas_drotg, "....")                                                                         \
    X(cblas_drotm, "i.i.i.")                                                                       \
    X(cblas_drotmg, "...f.")                                                                       \
    X(cblas_dsbmv, "..iif.i.if.i")                                                                 \
    X(cblas_dscal, "if.i")                                                                         \
    X(cblas_dsdot, "i.i.i")                                                                        \
    X(cblas_dspmv, "..if..if.i")                                                                   \
    X(cblas_dspr, "..if.i.")                                                                       \
    X(cblas_dspr2, "..if.i.i.")                                                                    \
    X(cblas_dswap, "i.i.i")                                                                        \
    X(cblas_dsymv, "..if.i.if.i")                                                                  \
    X(cblas_dsyr, "..if.i.i")                                                                      \
    X(cblas_dsyr2, "..if.i.i.i")                                                                   \
    X(cblas_dtbmv, "....ii.i.i")                                                                   \
    X(cblas_dtbsv, "....ii.i.i")                                                                   \
    X(cblas_dtpmv, "....i..i")                                                                     \
    X(cblas_dtpsv, "....i..i")                                                                     \
    X(cblas_dtrmv, "....i.i.i")                                                                    \
    X(cblas_dtrsv, "....i.i.i")                                                                    \
    X(cblas_dzasum, "i.i")                                                                         \
    X(cblas_dznrm2, "i.i")                                                                         \
    X(cblas_icamax, "i.i")                                                                         \
    X(cblas_idamax, "i.i")                                                                         \
    X(cblas_isamax, "i.i")                                                                         \
    X(cblas_izamax, "i.i")                                                                         \
    X(cblas_sasum, "i.i")                                                                          \
    X(cblas_saxpy, "if.i.i")                                                                       \
    X(cblas_scasum, "i.i")                                                                         \
    X(cblas_scnrm2, "i.i")                                                                         \
    X(cblas_scopy, "i.i.i")                                                                        \
    X(cblas_sdot, "i.i.i")                                                                         \
    X(cblas_sdsdot, "if.i.i")                                                                      \
    X(cblas_sgbmv, "..iiiif.i.if.i")                                                               \
    X(cblas_sgemv, "..iif.i.if.i")                                                                 \
    X(cblas_sger, ".iif.i.i.i")                                                                    \
    X(cblas_snrm2, "i.i")                                                                          \
    X(cblas_srot, "i.i.iff")                                                                       \
    X(cblas_srotg, "....")                                                                         \
    X(cblas_srotm, "i.i.i.")                                                                       \
    X(cblas_srotmg, "...f.")                                                                       \
    X(cblas_ssbmv, "..iif.i.if.i")                                                                 \
    X(cblas_sscal, "if.i")                                                                         \
    X(cblas_sspmv, "..if..if.i")                                                                   \
    X(cblas_sspr, "..if.i.")                                                                       \
    X(cblas_sspr2, "..if.i.i.")                                                                    \
    X(cblas_sswap, "i.i.i")                                                                        \
    X(cblas_ssymv, "..if.i.if.i")                                                                  \
    X(cblas_ssyr, "..if.i.i")                                                                      \
    X(cblas_ssyr2, "..if.i.i.i")                                                                   \
    X(cblas_stbmv, "....ii.i.i")                                                                   \
    X(cblas_stbsv, "....ii.i.i")                                                                   \
    X(cblas_stpmv, "....i..i")                                                                     \
    X(cblas_stpsv, "....i..i")                                                                     \
    X(cblas_strmv, "....i.i.i")                                                                    \
    X(cblas_strsv, "....i.i.i")                                                                    \
    X(cblas_zaxpy, "i..i.i")                                                                       \
    X(cblas_zcopy, "i.i.i")                                                                        \
    X(cblas_zdotc_sub, "i.i.i.")                                                                   \
    X(cblas_zdotu_sub, "i.i.i.")                                                                   \
    X(cblas_zdrot, "i.i.iff")                                                                      \
    X(cblas_zdscal, "if.i")                                                                        \
    X(cblas_zgbmv, "..iiii..i.i..i")                                                               \
    X(cblas_zgemv, "..ii..i.i..i")                                                                 \
    X(cblas_zgerc, ".ii..i.i.i")                                                                   \
    X(cblas_zgeru, ".ii..i.i.i")                                                                   \
    X(cblas_zhbmv, "..ii..i.i..i")                                                                 \
    X(cblas_zhemv, "..i..i.i..i")                                                                  \
    X(cblas_zher, "..if.i.i")                                                                      \
    X(cblas_zher2, "..i..i.i.i")                                                                   \
    X(cblas_zhpmv, "..i...i..i")                                                                   \
    X(cblas_zhpr, "..if.i.")                                                                       \
    X(cblas_zhpr2, "..i..i.i.")                                                                    \
    X(cblas_zrotg, "....")                                                                         \
    X(cblas_zscal, "i..i")                                                                         \
    X(cblas_zswap, "i.i.i")                                                                        \
    X(cblas_ztbmv, "....ii.i.i")                                                                   \
    X(cblas_ztbsv, "....ii.i.i")                                                                   \
    X(cblas_ztpmv, "....i..i")                                                                     \
    X(cblas_ztpsv, "....i..i")                                                                     \
    X(cblas_ztrmv, "....i.i.i")                                                                    \
    X(cblas_ztrsv, "....i.i.i")

#endif
