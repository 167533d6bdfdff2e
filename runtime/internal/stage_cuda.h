/* Copies between pageable host memory and a GPU through pinned buffers of the
 * backend's own (stage_cuda.c). */
#ifndef STAGE_CUDA_H
#define STAGE_CUDA_H

#include <cuda_runtime.h>
#include "rt.h"

/* Whether copies are staged at all: TESS_STAGING=0 turns them off, a testing
 * aid for comparing with CUDA's own pageable copies (a variable only, not in
 * tess_config_t). */
bool stage_enabled(void);

/* Whether the host memory of tile b is pageable (not page-locked by anyone)
 * at either end: its copies go through the staging buffers. */
bool stage_wanted(const rt_block_t *b);

/* The tile b from pageable host memory into dst (packed, leading dimension
 * b->m) on the current device, the runtime's device dev, in the order of stream s: the
 * host memory is read before the call returns, the device memory written in
 * stream order.  0, TESS_EDEVICE, or -1 when it cannot stage (no pinned
 * memory to be had): the caller copies directly. */
int stage_h2d(int dev, cudaStream_t s, void *dst, const rt_block_t *b);

/* Rows r0 to r1 - 1 of the packed tile at src on the current device into b's
 * pageable host memory, after the work queued on s before it; done when the
 * call returns.  As stage_h2d for its return value. */
int stage_d2h(int dev, cudaStream_t s, const rt_block_t *b, const void *src, int64_t r0,
              int64_t r1);

/* Makes the runtime device dev's staging buffers and their copying threads
 * (which share the calling thread's binding), with its GPU current; without
 * page-locked memory for them, its copies are direct. */
void stage_prepare(int dev);

/* Frees the runtime device dev's staging buffers, with its GPU current. */
void stage_release(int dev);

#endif
