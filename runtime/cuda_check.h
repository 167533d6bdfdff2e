/* CUDA runtime results as TESS_E* codes, for the CUDA backend's files. */
#ifndef RT_CUDA_CHECK_H
#define RT_CUDA_CHECK_H

#include <stdio.h>
#include <string.h>
#include <cuda_runtime.h>
#include "rt.h"

/* 0 or TESS_EDEVICE.  With TESS_VERBOSE a failure names the call and CUDA's
 * reason on stderr, since TESS_EDEVICE at tess_sync says neither. */
static inline int cuda_result(cudaError_t e, const char *call)
{
    if (e == cudaSuccess)
        return 0;
    if (rt.cfg.verbose)
        fprintf(stderr, "tessera: %.*s: %s\n", (int)strcspn(call, "("), call,
                cudaGetErrorString(e));
    return TESS_EDEVICE;
}

#define CUDA_OK(call) cuda_result((call), #call)

#endif
