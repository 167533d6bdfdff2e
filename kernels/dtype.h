/* Element types: what the precision-generic code needs to know of each
 * kern_type_t.  Constant tables and pure functions, no state: the legacy
 * library compiles dtype.c in as well. */
#ifndef KERN_DTYPE_H
#define KERN_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include "kern.h"

typedef struct {
    kern_type_t id;
    size_t size;
    bool is_complex;
    kern_type_t real; /* the type of its real part */
} kern_dtype_t;
extern const kern_dtype_t kern_dtypes[KERN_NTYPES];
bool kern_scalar_is_zero(kern_type_t t, const void *s);
bool kern_scalar_is_one(kern_type_t t, const void *s);
void kern_dtype_one(kern_type_t t, void *s);       /* writes 1 of type t */
void kern_dtype_minus_one(kern_type_t t, void *s); /* writes -1 of type t */
/* out = the real scalar r (of t's real type) as a t */
void kern_scalar_from_real(kern_type_t t, const void *r, void *out);
void kern_scalar_conj(kern_type_t t, const void *s, void *out);
/* LAPACK's POTRF INFO for a factor a host LAPACK's POTRF wrote, given that routine's info
 * (0: success): the first column before info (before n + 1 when 0) whose diagonal element
 * is not a positive real, NaN included, else info (a negative one, an argument error, as it
 * is).  The reference stops at a NaN pivot (DPOTRF2); OpenBLAS's does not, and leaves NaN
 * on the diagonal from that column on. */
int64_t kern_potrf_info(kern_type_t t, int64_t n, const void *A, int64_t lda, int64_t info);

#endif
