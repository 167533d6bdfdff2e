/* Elements of any of the four types read and written as double complex, and a repeatable
 * random stream, for the legacy LAPACK tests that keep their matrices in each type. */
#ifndef TEST_LEGACY_ELEMENTS_H
#define TEST_LEGACY_ELEMENTS_H

#include <complex.h>
#include <stdint.h>

static inline double complex get(int ty, const void *p, int64_t i)
{
    switch (ty) {
    case 0: return ((const float *)p)[i];
    case 1: return ((const double *)p)[i];
    case 2: return ((const float complex *)p)[i];
    default: return ((const double complex *)p)[i];
    }
}

static inline void set(int ty, void *p, int64_t i, double complex v)
{
    switch (ty) {
    case 0: ((float *)p)[i] = (float)creal(v); break;
    case 1: ((double *)p)[i] = creal(v); break;
    case 2: ((float complex *)p)[i] = (float complex)v; break;
    default: ((double complex *)p)[i] = v; break;
    }
}

static unsigned seed = 1;

/* Uniform in [-1/2, 1/2). */
static inline double rnd(void)
{
    seed = seed * 1103515245u + 12345u;
    return (double)(seed >> 8 & 0xffff) / 65536.0 - 0.5;
}

#endif
