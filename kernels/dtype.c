/* Element types: what the precision-generic algorithms need to know. */
#include <complex.h>
#include "dtype.h"

const kern_dtype_t kern_dtypes[KERN_NTYPES] = {
    [KERN_S] = { KERN_S, sizeof(float), false, KERN_S },
    [KERN_D] = { KERN_D, sizeof(double), false, KERN_D },
    [KERN_C] = { KERN_C, sizeof(float _Complex), true, KERN_S },
    [KERN_Z] = { KERN_Z, sizeof(double _Complex), true, KERN_D },
};

bool kern_scalar_is_zero(kern_type_t t, const void *s)
{
    switch (t) {
    case KERN_S: return *(const float *)s == 0.0f;
    case KERN_D: return *(const double *)s == 0.0;
    case KERN_C: return *(const float _Complex *)s == 0.0f;
    default: return *(const double _Complex *)s == 0.0;
    }
}

bool kern_scalar_is_one(kern_type_t t, const void *s)
{
    switch (t) {
    case KERN_S: return *(const float *)s == 1.0f;
    case KERN_D: return *(const double *)s == 1.0;
    case KERN_C: return *(const float _Complex *)s == 1.0f;
    default: return *(const double _Complex *)s == 1.0;
    }
}

void kern_dtype_one(kern_type_t t, void *s)
{
    switch (t) {
    case KERN_S: *(float *)s = 1.0f; break;
    case KERN_D: *(double *)s = 1.0; break;
    case KERN_C: *(float _Complex *)s = 1.0f; break;
    default: *(double _Complex *)s = 1.0; break;
    }
}

void kern_dtype_minus_one(kern_type_t t, void *s)
{
    switch (t) {
    case KERN_S: *(float *)s = -1.0f; break;
    case KERN_D: *(double *)s = -1.0; break;
    case KERN_C: *(float _Complex *)s = -1.0f; break;
    default: *(double _Complex *)s = -1.0; break;
    }
}

void kern_scalar_from_real(kern_type_t t, const void *r, void *out)
{
    switch (t) {
    case KERN_S: *(float *)out = *(const float *)r; break;
    case KERN_D: *(double *)out = *(const double *)r; break;
    case KERN_C: *(float _Complex *)out = *(const float *)r; break;
    default: *(double _Complex *)out = *(const double *)r; break;
    }
}

void kern_scalar_conj(kern_type_t t, const void *s, void *out)
{
    switch (t) {
    case KERN_S: *(float *)out = *(const float *)s; break;
    case KERN_D: *(double *)out = *(const double *)s; break;
    case KERN_C: *(float _Complex *)out = conjf(*(const float _Complex *)s); break;
    default: *(double _Complex *)out = conj(*(const double _Complex *)s); break;
    }
}

int64_t kern_potrf_info(kern_type_t t, int64_t n, const void *A, int64_t lda, int64_t info)
{
    if (info < 0)
        return info; /* an argument error: A may not be a matrix of order n */
    int64_t end = info > 0 ? info - 1 : n, stride = kern_dtypes[t].is_complex ? 2 : 1;
    for (int64_t j = 0; j < end; j++) {
        size_t at = (size_t)((j + j * lda) * stride); /* the real part */
        if (!(kern_dtypes[t].real == KERN_S ? ((const float *)A)[at] > 0
                                            : ((const double *)A)[at] > 0))
            return j + 1;
    }
    return info;
}
