/* Kernel variants picked at run time, for measuring candidate designs
 * side by side in one GPU session (bench/cuda/sweep.sh) without rebuilding.
 *
 * TESS_KVARIANT_<ROUTINE>=name selects names[i]; unset, empty or unknown
 * names select names[0], the default design.  The variable is read once per
 * routine and process, so a variant cannot change between calls. */
#ifndef KERN_CUDA_KVARIANT_CUH
#define KERN_CUDA_KVARIANT_CUH

#include <stdlib.h>
#include <string.h>

template <int N> static inline int kern_variant(const char *env, const char *const (&names)[N])
{
    const char *v = getenv(env);
    if (v)
        for (int i = 0; i < N; i++)
            if (strcmp(v, names[i]) == 0)
                return i;
    return 0;
}

#endif
