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

#endif
